"""base44 skills-eval JSON (`eval.json`, the seed schema, unchanged).

dialect = get_dialect("base44")
evaluation = dialect.validate_model(data)   # Base44Eval
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...findings import Finding
from ...lint import as_dict, as_list
from ...suggest import did_you_mean
from .. import register
from .._base import WORKSPACE_CHECKS, CaseProse, Dialect
from . import _definition, _run, _shape
from ._check_keys import CHECK_KEYS, accepted_keys
from ._shape import assemble, prompt_entries

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ...definitions import Project
    from ...repair import RepairRule

#: Top-level keys that make a JSON object a base44 eval.
MARKER_KEYS = ("prompts", "prompt", "checks", "expectedSkills")
_EVAL_KEYS = ("$schema", "name", "description", "prompt", "expectedSkills", "checks", "prompts")
_PROMPT_KEYS = ("name", "description", "prompt", "expectedSkills", "checks")


@register
class Base44Dialect(Dialect):
    name = "base44"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "agent_skills"
    checks_vocabulary = WORKSPACE_CHECKS
    cases_noun = "base44 evals"
    setup_field = "the fixture"
    source_noun = "agent skill"
    planner = "agentflows.planning._base44:plan_base44"
    asserted_elements = "agentflows.planning._base44:asserted_elements"
    offline_drafter = "agentflows.drafting.offline._base44:draft_base44"

    @property
    def model(self) -> type[BaseModel]:
        from ._model import Base44Eval  # start-up: pydantic, hashlib and 1 casegen module

        return Base44Eval

    def sniff(self, data: Any, path: Path) -> bool:
        """A file named eval.json, or an object with a prompt/checks/expectedSkills key."""
        if path.name == "eval.json":
            return True
        return isinstance(data, dict) and any(k in data for k in MARKER_KEYS)

    def schema_findings(self, data: Any) -> list[Finding]:
        findings = _without_vacuous_requirements(data, super().schema_findings(data))
        return findings + ignored_keys(data)

    def lint(self, data: Any, project: Project) -> list[Finding]:
        from ._lint import lint_base44  # start-up: only files that lint, with a project

        return lint_base44(data, project)

    def repair_rules(self) -> list[RepairRule]:
        from ._repair import BASE44_RULES  # start-up: 4 casegen modules

        return list(BASE44_RULES)

    def case_title(self, data: Any) -> str | None:
        name = data.get("name") if isinstance(data, dict) else None
        return name if isinstance(name, str) else None

    def unsatisfiable(self, data: Any, project: Project) -> list[str]:
        from ._satisfiable import unsatisfiable  # start-up: its table lives beside the runner

        return unsatisfiable(data, project)

    def case_prose(self, data: dict[str, Any]) -> list[CaseProse]:
        """One case per prompt entry (or the eval itself, where it is one prompt), titled by
        its name or the eval's; the judge grades no prose of them."""
        prompts = as_list(data.get("prompts"))
        if prompts:
            units = [(ptr.join("/prompts", i), as_dict(p)) for i, p in enumerate(prompts)]
        elif "prompt" in data or "checks" in data:
            units = [("", data)]
        else:
            units = []
        return [
            CaseProse(
                base=base,
                data=unit,
                title=str(unit.get("name") or data.get("name") or ""),
                title_path="/name" if "name" in unit else "",
                type=None,
            )
            for base, unit in units
        ]

    def source_ids(self, project: Project) -> set[str]:
        return set(project.agent_skills.skills) if project.agent_skills is not None else set()

    def definition_text(self, project: Project, source: str) -> str:
        return _definition.definition_text(project, source)

    def definition_ids(self, project: Project, source: str) -> dict[str, Any]:
        return _definition.definition_ids(project, source)

    def named_sources(self, data: dict[str, Any], project: Project) -> list[str]:
        """The `expectedSkills` of each prompt."""
        units = as_list(data.get("prompts")) or [data]
        return [
            s
            for unit in units
            for s in as_list(as_dict(unit).get("expectedSkills"))
            if isinstance(s, str)
        ]

    def source_stem(self, path: Path) -> str:
        """The folder: an agent skill's `eval.json` sits in the skill's fixture folder."""
        return path.parent.name

    def depends_on(self, path: str, source: str) -> bool:
        """The agent skill's folder."""
        return path.startswith(f"skills/{source}/")

    def case_filename(self, source: str, case: str, case_type: str | None) -> str:
        """One `eval.json` per agent skill (`cases_per_file`)."""
        return "eval.json"

    def suite_files(self, project: Project) -> list[Path]:
        """The `eval.json` of each agent skill's fixture folder."""
        fixtures = project.agent_skills.fixtures if project.agent_skills else []
        return [project.root / f.path / "eval.json" for f in fixtures]

    cases_per_file = True

    def run_cases(self, path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
        return _run.run_cases(path, data)

    checks_module = "evalcore.runner.checks._base44"

    def combine_cases(
        self, source: str, cases: Sequence[dict[str, Any]], project: Project
    ) -> dict[str, Any]:
        """The agent skill's generated `eval.json`: every prompt of every case, described
        by the skill's first sentence."""
        entries = [e for case in cases for e in prompt_entries(case)]
        skills = project.agent_skills.skills if project.agent_skills else {}
        skill = skills.get(source)
        return _shape.assemble(source, entries, skill.description if skill else None)

    def case_units(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return [(str(e.get("name", "?")), self.as_unit(e)) for e in prompt_entries(data)]

    def as_unit(self, case: dict[str, Any]) -> dict[str, Any]:
        return {"prompts": [case]}

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]:
        return _shape.fingerprint_facts(data)

    def count_assertions(self, data: dict[str, Any]) -> int:
        return _shape.count_checks(data)


def _check_paths(data: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every check object with its pointer, top level and per prompt."""
    if not isinstance(data, dict):
        return []
    prompts = as_list(data.get("prompts"))
    units = [("", data)] + [(ptr.join("/prompts", i), as_dict(p)) for i, p in enumerate(prompts)]
    return [
        (ptr.join(base, "checks", index), as_dict(check))
        for base, unit in units
        for index, check in enumerate(as_list(unit.get("checks")))
    ]


def _without_vacuous_requirements(data: Any, findings: list[Finding]) -> list[Finding]:
    """Drop the per-type requirements of a check that has no `type`.

    Each `if: {properties: {type: {const: …}}}` holds when `type` is absent, so such a check
    would also be told it lacks value, pattern, command and schema; only `type` is missing.
    """
    untyped = {path for path, check in _check_paths(data) if "type" not in check}
    return [
        f
        for f in findings
        if not (
            f.context.get("rule") == "required"
            and ptr.parent(f.path) in untyped
            and ptr.split(f.path)[-1] not in ("type", "description")
        )
    ]


def ignored_keys(data: Any) -> list[Finding]:
    """Warnings for keys the schema lets through but the runner never reads.

    The schema leaves every object open, so a typo such as `expectedSkill` or `filepath` passes
    validation and silently turns a check off; say so, with the key it was probably meant as.
    """
    if not isinstance(data, dict):
        return []
    found = _unknown(data, "", _EVAL_KEYS)
    for index, entry in enumerate(as_list(data.get("prompts"))):
        found += _unknown(as_dict(entry), ptr.join("/prompts", index), _PROMPT_KEYS)
    for path, check in _check_paths(data):
        kind = check.get("type")
        what = f"a {kind} check" if isinstance(kind, str) and kind in CHECK_KEYS else None
        found += _unknown(check, path, accepted_keys(kind), what)
    return found


def _unknown(
    obj: dict[str, Any], base: str, allowed: tuple[str, ...], what: str | None = None
) -> list[Finding]:
    where = f" of {what}" if what else ""
    return [
        Finding(
            code="schema",
            severity="warning",
            path=ptr.join(base, key),
            value=key,
            message=f"unknown key '{key}'{where} (allowed by the schema, ignored by the runner)",
            suggestion=did_you_mean(key, allowed, what="key"),
            context={"rule": "unknown-key", "allowed": list(allowed)},
        )
        for key in obj
        if key not in allowed
    ]


def __getattr__(name: str) -> Any:
    """`Base44Eval`, `Check`, `PromptEntry`, `dump_eval` on first use: building the pydantic
    classes costs more than validating a few files, and `validate` checks cases against the
    JSON schema."""
    if name in {"Base44Eval", "Check", "PromptEntry", "dump_eval"}:
        from . import _model  # start-up: pydantic, hashlib and 1 casegen module

        return getattr(_model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Base44Dialect",
    "Base44Eval",
    "Check",
    "PromptEntry",
    "assemble",
    "dump_eval",
    "ignored_keys",
    "prompt_entries",
]
