"""Anychat test-case JSON (the seed schema, unchanged).

dialect = get_dialect("anychat")
case = dialect.validate_model(data)   # AnychatCase
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...findings import Finding
from ...writer import anychat_case_key
from .. import register
from .._base import END_STATE_CHECKS, CaseProse, Dialect, Provenance
from . import _advice, _definition, _run, _shape
from ._satisfiable import unsatisfiable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ...definitions import Project
    from ...repair import RepairRule

#: Top-level keys only a base44 eval has; an object with any of them is not an Anychat case.
BASE44_KEYS = ("prompts", "prompt", "checks", "expectedSkills")


@register
class AnychatDialect(Dialect):
    name = "anychat"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "anychat"
    checks_vocabulary = END_STATE_CHECKS
    cases_noun = "Anychat test cases"
    setup_field = "`scenario` setup (history, appointments, stubs)"
    source_noun = "playbook"
    planner = "agentflows.planning._anychat:plan_anychat"
    asserted_elements = "agentflows.planning.anychat_elements:asserted_elements"
    offline_drafter = "agentflows.drafting.offline._anychat:draft_anychat"

    @property
    def model(self) -> type[BaseModel]:
        from ._model import AnychatCase  # start-up: pydantic, hashlib and 3 casegen modules

        return AnychatCase

    def sniff(self, data: Any, path: Path) -> bool:
        """An Anychat case by shape (`turns`, or `title` with `expect`/`scenario`/`brief`), or
        any non-base44 object that sits where Anychat cases live (so a half-written case there
        is reported, not skipped)."""
        if path.name == "eval.json":
            return False
        if data is None:
            return in_case_folder(path)
        if not isinstance(data, dict) or any(k in data for k in BASE44_KEYS):
            return False
        if "turns" in data:
            return True
        if "title" in data and any(k in data for k in ("expect", "scenario", "brief")):
            return True
        return in_case_folder(path)

    def schema_findings(self, data: Any) -> list[Finding]:
        findings = super().schema_findings(data)
        return [_explain_pattern(f) for f in findings]

    def lint(self, data: Any, project: Project) -> list[Finding]:
        from ._lint import lint_anychat  # start-up: only files that lint, with a project

        return lint_anychat(data, project)

    def repair_rules(self) -> list[RepairRule]:
        from ._repair import ANYCHAT_RULES  # start-up: pydantic, hashlib and 7 casegen modules

        return list(ANYCHAT_RULES)

    def case_title(self, data: Any) -> str | None:
        title = data.get("title") if isinstance(data, dict) else None
        return title if isinstance(title, str) else None

    def structural_check(
        self, kind: str, name: str | None, *, negated: bool, project: Project | None
    ) -> str | None:
        return _advice.structural_check(kind, name, negated=negated)

    def unsatisfiable(self, data: Any, project: Project) -> list[str]:
        return unsatisfiable(data, project)

    def case_prose(self, data: dict[str, Any]) -> list[CaseProse]:
        return [_shape.case_prose(data)]

    def source_ids(self, project: Project) -> set[str]:
        return set(project.anychat.playbooks) if project.anychat is not None else set()

    def definition_text(self, project: Project, source: str) -> str:
        return _definition.definition_text(project, source)

    def definition_ids(self, project: Project, source: str) -> dict[str, Any]:
        return _definition.definition_ids(project, source)

    def named_sources(self, data: dict[str, Any], project: Project) -> list[str]:
        return _shape.named_playbooks(data, project)

    def expected_sources(self, data: dict[str, Any], project: Project | None) -> list[str]:
        return _shape.expected_playbooks(data, project)

    def depends_on(self, path: str, source: str) -> bool:
        """The playbook plus the project-wide agent, people, tools and outreaches."""
        top = path.split("/", 1)[0]
        if top == "playbooks":
            return Path(path).stem == source
        return top != "cases"

    def case_filename(self, source: str, case: str, case_type: str | None) -> str:
        return anychat_case_key(source, case, case_type) + ".json"

    provenance_inline = True

    def with_provenance(self, data: dict[str, Any], provenance: Provenance) -> dict[str, Any]:
        return _shape.with_provenance(data, provenance)

    def same_but_time(self, old: Any, new: dict[str, Any]) -> bool:
        return _shape.same_but_time(old, new)

    suite_folder = "cases"

    def run_cases(self, path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
        return _run.run_cases(path, data)

    checks_module = "evalcore.runner.checks._anychat"
    simulation_prompt = "run/simulate_anychat"

    def simulation_values(self, spec: Any) -> dict[str, str]:
        """A `simulate` turn's scenario, goal, persona, what the user knows and when to stop."""
        knows = "\n".join(f"- {k}" for k in spec.knows) or "(nothing beyond the goal)"
        return {
            "scenario": spec.context.strip() or "(none given)",
            "goal": spec.goal or "",
            "persona": spec.persona or "(not described)",
            "knows": knows,
            "until": spec.until or "(the goal is reached or the agent cannot help)",
        }

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]:
        return _shape.fingerprint_facts(data)

    def count_assertions(self, data: dict[str, Any]) -> int:
        return _shape.count_checks(data)

    def count_criteria(self, data: dict[str, Any]) -> int:
        return _shape.count_criteria(data)


def in_case_folder(path: Path) -> bool:
    """True under `generated_cases/anychat/`, or under `cases/` of an Anychat project."""
    parts = path.parts[:-1]
    if any(a == "generated_cases" and b == "anychat" for a, b in pairwise(parts)):
        return True
    if "cases" not in parts:
        return False
    from ...definitions import find_project  # start-up: 24 casegen modules

    root = find_project(path.parent, kind="anychat")
    if root is None:
        return False
    try:
        inside = path.resolve().parent.relative_to(root).parts
    except ValueError:
        return False
    return "cases" in inside


#: What each patterned value looks like, by its key (the schema gives only the regex).
PATTERN_HINTS = {
    "key": "lowercase letters, digits and hyphens, e.g. 'clinic-reschedule-visit'",
    "id": "lowercase letters, digits and hyphens, e.g. 'offers-friday'",
    "startsIn": "an ISO 8601 duration from now: P1DT10H (in 1 day 10 h), PT30M, -PT2H (ago)",
    "time": "24-hour HH:MM, e.g. 09:30",
}


def _explain_pattern(finding: Finding) -> Finding:
    """Add what a value should look like to a bare "does not match '<regex>'" finding."""
    if finding.context.get("rule") != "pattern" or finding.suggestion:
        return finding
    hint = PATTERN_HINTS.get(finding.path.rsplit("/", 1)[-1])
    return finding.model_copy(update={"suggestion": f"use {hint}"}) if hint else finding


def __getattr__(name: str) -> Any:
    """`AnychatCase`, `dump_case` on first use: building the pydantic classes costs more than
    validating a few files, and `validate` checks cases against the JSON schema."""
    if name in {"AnychatCase", "dump_case"}:
        from . import _model  # start-up: pydantic, hashlib and 3 casegen modules

        return getattr(_model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AnychatCase", "AnychatDialect", "dump_case", "in_case_folder"]
