"""The reference agent's fake tool backend, built from the definitions instead of by hand.

A tool's result comes from what the project says about it:

- **records**: a project that ships JSON or CSV files under `data/` gets lookups answered
  from them. A record matches when one of its values equals an argument value (case, spaces
  and dashes ignored); a tool whose name lists or searches (`list_`, `search_`, `find_all`)
  returns every match under the data file's name, any other tool the best match;
- **memory writes**: every `context.memory.set(...)` the tool's code makes is replayed, with
  the literal value when the code writes one (`True` when it writes both `True` and
  `False`: the reference agent walks the path where the check passed), else the matching
  record's field of that name (a number as text where the memory field is text), else (a
  flag a `next` branches on) the value the path to the skill's goal needs
  (`branch_values`), else a placeholder typed by the memory field;
- **placeholders**: without a record, the result echoes the arguments and the writes, so a
  case asserting on them sees the values it drove the tool with.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...definitions import MemoryField, Project
from ...definitions.skill_model import UNKNOWN, branch_values, code_facts, qualify
from ...lexicon.en.tool_names import LISTING as _LISTING
from ...testdata import load_records as read_collections
from ._mantle_engine import ToolResult
from ._shared import once
from ._snapshot import clone

_NOT_ALNUM = re.compile(r"[^a-z0-9]")


def _norm(value: Any) -> str:
    return _NOT_ALNUM.sub("", str(value).lower())


_RECORDS: dict[int, tuple[Project, dict[str, list[dict[str, Any]]]]] = {}


def load_records(root: Path) -> dict[str, list[dict[str, Any]]]:
    """File stem -> its records: the same files, read the same way, as the test data the
    cases are drafted from (`evalcore.testdata.load_records`), so a case's record is one
    the reference agent finds. Two files of one stem (in two sub-folders) share a list."""
    out: dict[str, list[dict[str, Any]]] = {}
    for collection in read_collections(root).collections:
        out.setdefault(collection.name, []).extend(collection.records)
    return out


def placeholder(field: MemoryField | None, key: str) -> Any:
    """A value of the field's type for a write whose value only the real tool knows."""
    kind = field.type if field is not None else "text"
    if kind == "bool":
        return True
    if kind == "int":
        return 1
    if kind == "float":
        return 1.0
    if kind == "list":
        # one item: a list the tool fills (open slots, matches) is what the path to the
        # skill's goal branches on, and the planner's walk takes it as set
        name = key.rsplit(".", 1)[-1]
        return [f"{name.upper().replace('_', '-')}-0001"]
    if kind == "categorical" and field is not None and field.enum_values:
        return field.enum_values[0]
    name = key.rsplit(".", 1)[-1]
    return f"{name.upper().replace('_', '-')}-0001"


def as_field(field: MemoryField | None, value: Any) -> Any:
    """A record's number as a text field holds it: the file's `"claim_status": 2` is
    the `"2"` a tool writing that text field stores (any other value as it is)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if field is not None and field.type == "text" and number:
        return str(value)
    return value


def _counter(field: MemoryField | None) -> bool:
    return field is not None and field.type == "int"


class FakeBackend:
    """Answers every tool of one project; the same call gives the same result."""

    def __init__(self, project: Project) -> None:
        self.project = project
        kept = _RECORDS.get(id(project))
        if kept is None or kept[0] is not project:  # read once per loaded project
            kept = _RECORDS[id(project)] = (project, load_records(project.root))
        self._kept = kept[1]

    @property
    def records(self) -> dict[str, list[dict[str, Any]]]:
        """The project's records, shared by every session: read here, never handed out
        (a result gets its own copy of a record, see `_own`)."""
        return self._kept

    def _values(self) -> list[tuple[str, dict[str, Any], frozenset[str]]]:
        """Each record with its normalised values, built once per loaded project (the
        records are never changed, so every session's lookups read the same)."""

        def build() -> list[tuple[str, dict[str, Any], frozenset[str]]]:
            out = []
            for stem, records in self._kept.items():
                for record in records:
                    values = {_norm(v) for v in record.values() if isinstance(v, str | int)}
                    values.discard("")
                    out.append((stem, record, frozenset(values)))
            return out

        return once("backend-values", self.project, id(self._kept), build)

    def matches(self, arguments: dict[str, Any]) -> list[tuple[str, dict[str, Any], int]]:
        """The records holding the arguments' values, best first (a new list; kept per set
        of values and loaded project: each play of a case looks up the same values)."""
        wanted = {_norm(v) for v in arguments.values() if isinstance(v, str | int) and str(v)}
        wanted.discard("")
        if not wanted:
            return []
        kept = once("backend-matches", self.project, id(self._kept), dict)
        key = frozenset(wanted)
        found = kept.get(key)
        if found is None:
            found = kept[key] = self._matches(wanted)
        return list(found)

    def _matches(self, wanted: set[str]) -> list[tuple[str, dict[str, Any], int]]:
        found = []
        for stem, record, values in self._values():
            score = len(wanted & values) * 2 + sum(
                1 for v in values for w in wanted if len(v) >= 4 and v != w and v in w
            )
            if score:
                found.append((stem, record, score))
        return sorted(found, key=lambda item: -item[2])

    def record_choice(self, answers: dict[str, Any], choices: list[Any]) -> Any:
        """The one enum value of `choices` the records best matching `answers` hold in a
        field (a policy's `line: auto` for `claim_type`); None when none, or when they
        disagree."""
        found = self.matches(answers)
        if not found:
            return None
        picked: set[Any] = set()
        for _, record, score in found:
            if score != found[0][2]:
                break
            held = {_norm(v) for v in record.values() if isinstance(v, str | int)}
            picked |= {c for c in choices if _norm(c) in held}
        return next(iter(picked)) if len(picked) == 1 else None

    def _listing(self, name: str, found: list[tuple[str, dict[str, Any], int]]) -> dict[str, Any]:
        if found:
            stem = found[0][0]
            return {stem: [_own(r) for s, r, _ in found if s == stem]}
        words = set(name.split("_"))
        for stem, records in self.records.items():
            if stem in words or stem.rstrip("s") in words:
                return {stem: [_own(r) for r in records]}
        return {"items": []}

    def call(
        self, skill_id: str, name: str, arguments: dict[str, Any], memory: dict[str, Any]
    ) -> ToolResult:
        tool = self.project.mantle.tools_view(skill_id).get(name) if self.project.mantle else None
        found = self.matches(arguments)
        record = found[0][1] if found else None
        defs = self.project.mantle
        writes: dict[str, Any] = {}
        flags = branch_values(self.project, skill_id) if tool is not None else {}
        if tool is not None:
            literal: dict[str, list[Any]] = {}
            for write in code_facts(self.project, tool).writes:
                key = qualify(write.key, skill_id, self.project.mantle)
                short = key.rsplit(".", 1)[-1]
                if write.guarded and (record is None or not record.get(short)):
                    continue  # written only when a row has a value: no row, or none in it
                if write.failure and record is not None:
                    continue  # the error branch's write: this call found its record
                literal.setdefault(key, [])
                if write.value is not UNKNOWN:
                    literal[key].append(write.value)
            for key, values in literal.items():
                short = key.rsplit(".", 1)[-1]
                if True in values:
                    writes[key] = True
                elif values:
                    writes[key] = values[0]
                elif record is not None and short in record:
                    # the kept record's, not handed out; a number a text field holds as
                    # its text (`str(row["status"])`), as the tool must write it there
                    field = defs.memory_field(key) if defs else None
                    writes[key] = as_field(field, clone(record[short]))
                elif key in flags:  # computed (today's date...): the goal-reaching branch
                    writes[key] = flags[key]
                elif _counter(defs.memory_field(key) if defs else None):
                    # a count the tool computes (failed attempts): one more each call, as
                    # the planner's walk counts it
                    previous = memory.get(key)
                    writes[key] = previous + 1 if isinstance(previous, int) else 1
                elif memory.get(key) is not None:
                    continue
                else:
                    writes[key] = placeholder(defs.memory_field(key) if defs else None, key)
        if _LISTING.search(name):
            result: Any = self._listing(name, found)
        elif record is not None:
            result = _own(record)
        else:
            result = {"ok": True, **arguments}
        if isinstance(result, dict):
            for key, value in writes.items():
                result.setdefault(key.rsplit(".", 1)[-1], value)
        return ToolResult(result=result, writes=writes)


def _own(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of a kept record for one result (a session may keep and change it); records
    are data-file values, which `clone` copies faster than `copy.deepcopy`."""
    return clone(record)


__all__ = ["FakeBackend", "load_records", "placeholder"]
