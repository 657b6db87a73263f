"""base44 skills-eval JSON (`eval.json`, the seed schema, unchanged).

    dialect = get_dialect("base44")
    evaluation = dialect.validate_model(data)   # Base44Eval
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...findings import Finding
from ...lint import as_dict, as_list
from ...lint._base44 import lint_base44
from ...repair._base44 import BASE44_RULES
from ...suggest import did_you_mean
from .. import register
from .._base import Dialect
from ._model import Base44Eval, Check, PromptEntry, dump_eval

if TYPE_CHECKING:
    from ...definitions import Project
    from ...repair import RepairRule

#: Top-level keys that make a JSON object a base44 eval.
MARKER_KEYS = ("prompts", "prompt", "checks", "expectedSkills")
_EVAL_KEYS = ("$schema", "name", "description", "prompt", "expectedSkills", "checks", "prompts")
_PROMPT_KEYS = ("name", "description", "prompt", "expectedSkills", "checks")
_CHECK_KEYS = (
    "type", "description", "value", "filePath", "pattern", "command", "schema", "target",
    "expectedValid",
)


@register
class Base44Dialect(Dialect):
    name = "base44"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "agent_skills"
    model = Base44Eval

    def sniff(self, data: Any, path: Path) -> bool:
        """A file named eval.json, or an object with a prompt/checks/expectedSkills key."""
        if path.name == "eval.json":
            return True
        return isinstance(data, dict) and any(k in data for k in MARKER_KEYS)

    def schema_findings(self, data: Any) -> list[Finding]:
        return super().schema_findings(data) + ignored_keys(data)

    def lint(self, data: Any, project: Project) -> list[Finding]:
        return lint_base44(data, project)

    def repair_rules(self) -> list[RepairRule]:
        return list(BASE44_RULES)

    def case_title(self, data: Any) -> str | None:
        name = data.get("name") if isinstance(data, dict) else None
        return name if isinstance(name, str) else None


def ignored_keys(data: Any) -> list[Finding]:
    """Warnings for keys the schema lets through but the runner never reads.

    The schema leaves every object open, so a typo such as `expectedSkill` or `filepath` passes
    validation and silently turns a check off; say so, with the key it was probably meant as.
    """
    if not isinstance(data, dict):
        return []
    found = _unknown(data, "", _EVAL_KEYS)
    prompts = as_list(data.get("prompts"))
    units = [("", data)] + [(ptr.join("/prompts", i), as_dict(p)) for i, p in enumerate(prompts)]
    for base, unit in units:
        if base:
            found += _unknown(unit, base, _PROMPT_KEYS)
        for index, check in enumerate(as_list(unit.get("checks"))):
            found += _unknown(as_dict(check), ptr.join(base, "checks", index), _CHECK_KEYS)
    return found


def _unknown(obj: dict[str, Any], base: str, allowed: tuple[str, ...]) -> list[Finding]:
    return [
        Finding(
            code="schema",
            severity="warning",
            path=ptr.join(base, key),
            value=key,
            message=f"unknown key '{key}' (allowed by the schema, ignored by the runner)",
            suggestion=did_you_mean(key, allowed, what="key"),
            context={"rule": "unknown-key", "allowed": list(allowed)},
        )
        for key in obj
        if key not in allowed
    ]


__all__ = ["Base44Dialect", "Base44Eval", "Check", "PromptEntry", "dump_eval", "ignored_keys"]
