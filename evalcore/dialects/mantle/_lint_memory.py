"""Mantle lint of memory names and values: assertion memory names, initial slots, and
values checked against their declared field's type and enum (`_Lint` mixes this in)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...findings import Finding
from ...lint import as_dict, as_list, unknown_id
from ...schemas import json_type
from ...suggest import close_matches

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, MemoryField

#: Field type -> (accepts value?, coerce_to target for generic repair).
_TYPE_RULES: dict[str, tuple[Callable[[Any], bool], str | None]] = {
    "text": (lambda v: isinstance(v, str), None),
    "categorical": (lambda v: isinstance(v, str), None),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "int"),
    "float": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "float"),
    "bool": (lambda v: isinstance(v, bool), "bool"),
    "list": (lambda v: isinstance(v, list), None),
}


class MemoryChecks:
    """The memory part of one scenario's lint; `_Lint` provides the attributes."""

    defs: MantleDefinitions
    memory: dict[str, MemoryField]
    findings: list[Finding]

    def memory_list(self, body: Any, path: str, *, with_values: bool) -> None:
        for i, entry in enumerate(as_list(body)):
            entry = as_dict(entry)
            field = self.memory_name(entry.get("name"), f"{path}/{i}/name")
            if with_values and field is not None and "value" in entry:
                self.memory_value(field, entry["value"], f"{path}/{i}/value")

    def memory_name(self, name: Any, path: str) -> MemoryField | None:
        """The declared field an assertion memory name refers to; reports unknown names."""
        if not isinstance(name, str) or name.startswith("session."):
            return None  # not a name, or the schema already reports the prefix
        if name.startswith("system."):
            return None
        field = self.memory.get(name)
        if field is not None:
            return field
        message = None
        if "." not in name:
            message = f"memory name '{name}' has no namespace; write <skill>.<key> or project.<key>"
        self.findings.append(self._unknown_memory(name, path, self.memory, message=message))
        return None

    def _unknown_memory(
        self,
        name: str,
        path: str,
        declared: Iterable[str],
        *,
        message: str | None = None,
        key: bool = False,
    ) -> Finding:
        """An unknown-memory finding whose candidates match part by part.

        Whole-name similarity is dominated by a shared namespace (`card_replace.order_id`
        looks like `card_replace.account_id`), so namespace and key are compared separately.
        """
        groups: dict[str, list[str]] = {}
        for full in declared:
            namespace, _, entry = full.partition(".")
            groups.setdefault(namespace, []).append(entry)
        namespace, dot, entry = name.partition(".")
        if not dot:  # a bare key: the same key in any namespace
            pool = [f"{n}.{k}" for n, keys in groups.items() for k in keys if k == name]
        else:
            near = [namespace] if namespace in groups else close_matches(namespace, groups)
            pool = [
                f"{n}.{k}"
                for n in near
                for k in ([entry] if entry in groups[n] else close_matches(entry, groups[n]))
            ]
        finding = unknown_id(
            "unknown-memory",
            path,
            name,
            pool,
            what="memory name",
            key=key,
            message=message or f"unknown memory name '{name}'",
        )
        if pool:
            return finding
        if namespace in groups:
            hint = f"'{namespace}' declares: " + ", ".join(sorted(groups[namespace]))
        else:
            hint = "known namespaces: " + ", ".join([*sorted(groups), "system"])
        return finding.model_copy(update={"suggestion": hint})

    def memory_value(self, field: MemoryField, value: Any, path: str) -> None:
        if value is None:
            return  # the schema rejects null values
        accepts, coerce_to = _TYPE_RULES.get(field.type, (lambda v: True, None))
        if not accepts(value):
            self.findings.append(
                Finding(
                    code="memory-type",
                    path=path,
                    value=value,
                    message=f"{field.qualified} has type {field.type}; got "
                    f"{_show(value)} ({json_type(value)})",
                    suggestion=f"give a value of type {field.type}"
                    + (", without quotes" if coerce_to and isinstance(value, str) else ""),
                    context={"coerce_to": coerce_to} if coerce_to else {},
                )
            )
            return
        allowed = field.enum_values or []
        if field.type == "categorical" and allowed and value not in allowed:
            enum = unknown_id(
                "memory-enum",
                path,
                value,
                [str(a) for a in allowed],
                what="value",
                message=f"{_show(value)} is not one of {field.qualified}'s enum_values",
            )
            self.findings.append(
                enum.model_copy(update={"context": {**enum.context, "match": "case"}})
            )

    def initial_slot(self, key: str, value: Any, path: str) -> None:
        if key.startswith(("session.", "system.")) or not key:
            return  # the schema reports session.; system memory is the runtime's own
        namespace, dot, entry = key.partition(".")
        project_name = entry if namespace == "project" else (key if not dot else None)
        if project_name is not None:
            field = self.defs.memory.get(project_name)
            if field is None:
                pool = [f"project.{k}" for k in self.defs.memory] if dot else list(self.defs.memory)
                self.findings.append(self._unknown_slot(key, path, pool))
                return
            if not field.seed:
                self.findings.append(
                    Finding(
                        code="not-seed-slot",
                        severity="warning",
                        path=path,
                        value=key,
                        message=f"initial slot '{key}' names project field "
                        f"'{field.name}', which is not seed: true; it will not be "
                        "copied into memory",
                        suggestion="mark the field seed: true in memory.yml, or let the "
                        "simulated user provide it",
                    )
                )
        else:
            field = self.memory.get(key)
            if field is None:
                self.findings.append(self._unknown_slot(key, path, list(self.memory)))
                return
        self.memory_value(field, value, path)

    def _unknown_slot(self, key: str, path: str, pool: list[str]) -> Finding:
        message = f"initial slot '{key}' is not a declared memory field"
        if "." in key:
            return self._unknown_memory(key, path, pool, message=message, key=True)
        finding = unknown_id(
            "unknown-memory", path, key, pool, what="memory name", key=True, message=message
        )
        owners = [
            f.qualified for f in self.memory.values() if f.name == key and f.namespace != "project"
        ]
        if owners:
            hint = " or ".join(f"'{o}'" for o in owners)
            finding = finding.model_copy(
                update={"suggestion": f"skill fields need their skill prefix: {hint}"}
            )
        return finding


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"
