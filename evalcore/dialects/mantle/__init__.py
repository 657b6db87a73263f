"""Mantle scenario YAML (`eval/scenarios/*.yml`), Rasa Mantle's evaluation format.

dialect = get_dialect("mantle")
case = dialect.validate_model(data)   # MantleCase
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...definitions import memoized
from ...findings import Finding
from ...justify import Note, annotate_yaml
from ...testdata import built_in_phones, load_records
from ...writer import mantle_case_filename, safe_slug
from .. import register
from .._base import EVENT_ASSERTIONS, CaseProse, Dialect
from . import _advice, _definition, _run, _shape
from ._outside import outside_effects, outside_notes
from ._run_date import run_date_notes

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ...definitions import Project
    from ...documents import Document
    from ...justify import Judged
    from ...repair import RepairRule

#: Folders whose YAML files are Mantle scenarios even before they parse.
_CASE_FOLDERS = (("eval", "scenarios"), ("generated_cases", "mantle"))


def _under_case_folder(path: Path) -> bool:
    folders = path.parts[:-1]
    return any(
        folders[i : i + 2] == pair for pair in _CASE_FOLDERS for i in range(len(folders) - 1)
    )


@register
class MantleDialect(Dialect):
    name = "mantle"
    file_format = "yaml"
    suffixes = (".yml", ".yaml")
    project_kind = "mantle"
    checks_vocabulary = EVENT_ASSERTIONS
    cases_noun = "Rasa Mantle scenarios"
    setup_field = "`setup.initial_slots`"
    quality_metrics = True
    source_noun = "skill"
    planner = "agentflows.planning._mantle:plan_mantle"
    asserted_elements = "agentflows.planning._mantle_elements:asserted_elements"
    not_a_goal = "agentflows.planning._mantle_routable:not_a_goal"
    offline_drafter = "agentflows.drafting.offline._mantle:draft_mantle_reviewed"
    planned_drafting = "agentflows.drafting.llm._mantle"

    @property
    def model(self) -> type[BaseModel]:
        from ._model import MantleCase  # start-up: pydantic, hashlib and 2 casegen modules

        return MantleCase

    def sniff(self, data: Any, path: Path) -> bool:
        """A `scenario:` mapping, or (unparsed / shapeless) a file where scenarios live."""
        if isinstance(data, dict) and "scenario" in data:
            return True
        return _under_case_folder(path)

    def as_loaded(self, doc: Document) -> tuple[Any, list[Finding]]:
        """`${VAR}` expanded and `!!str` refused, as Rasa's `load_scenario` reads the file
        (see `_rasa_loading`)."""
        if "${" not in doc.text and "!!str" not in doc.text:
            return doc.data, []
        from ._rasa_loading import as_loaded  # start-up: only for `${VAR}` or `!!str`

        return as_loaded(doc.text, doc.data)

    def lint(self, data: Any, project: Project) -> list[Finding]:
        from ._lint import lint_mantle  # start-up: only files that lint, with a project

        return lint_mantle(data, project)

    def repair_rules(self) -> list[RepairRule]:
        from ._repair import MANTLE_RULES  # start-up: 4 casegen modules

        return list(MANTLE_RULES)

    justifies = True
    plays_reference = True

    def justify(self, data: Any, project: Project | None) -> list[Judged]:
        from ._justify import judge_case  # start-up: httpx, pydantic, rich and 89 casegen modules

        return judge_case(data, project)

    def dump_justified(self, data: Any, project: Project | None, notes: Sequence[Note] = ()) -> str:
        """Canonical YAML with `notes` (`# needs-review: …`) at the top, a `# <kind>:
        <file>:<line> <element>` line above each check, a `# test data: …` line where a
        seeded caller is a built-in test account, an `# outside service: …` line above the
        scenario per tool it expects to run whose code acts on a real service, and a `# run
        date: …` line per such tool whose code compares the run's date with its data."""
        found = [
            *outside_notes(data, project),
            *run_date_notes(data, project),
            *_built_in_notes(data, project),
        ]
        return annotate_yaml(self.dump(data), [*notes, *self.justify(data, project), *found])

    def outside_effects(self, data: Any, project: Project | None) -> list[dict[str, Any]]:
        return [e.to_json() for e in outside_effects(data, project)]

    def case_data(self, value: BaseModel) -> dict[str, Any]:
        """Nulls dropped: a Mantle scenario never carries a meaningful null."""
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)

    def case_title(self, data: Any) -> str | None:
        scenario = data.get("scenario") if isinstance(data, dict) else None
        name = scenario.get("name") if isinstance(scenario, dict) else None
        return name if isinstance(name, str) and name.strip() else None

    criterion_mentions = frozenset({"tool", "memory", "skill"})

    def structural_check(
        self, kind: str, name: str | None, *, negated: bool, project: Project | None
    ) -> str | None:
        return _advice.structural_check(kind, name, negated=negated, project=project)

    def case_prose(self, data: dict[str, Any]) -> list[CaseProse]:
        return [_shape.case_prose(data)]

    def source_ids(self, project: Project) -> set[str]:
        return set(project.mantle.skills) if project.mantle is not None else set()

    def definition_text(self, project: Project, source: str) -> str:
        return _definition.definition_text(project, source)

    def definition_ids(self, project: Project, source: str) -> dict[str, Any]:
        return _definition.definition_ids(project, source)

    def named_sources(self, data: dict[str, Any], project: Project) -> list[str]:
        """The skills its skill and ordered-block assertions name."""
        return _shape.named_skills(data)

    def expected_sources(self, data: dict[str, Any], project: Project | None) -> list[str]:
        return _shape.expected_skills(data, project)

    def depends_on(self, path: str, source: str) -> bool:
        """The skill's folder plus the project-wide memory, responses, tools and agent files."""
        top = path.split("/", 1)[0]
        return path.startswith(f"skills/{source}/") or top not in ("skills", "eval")

    def case_filename(self, source: str, case: str, case_type: str | None) -> str:
        return mantle_case_filename(safe_slug(source), case, case_type)

    suite_folder = "eval/scenarios"

    def run_cases(self, path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
        return _run.run_cases(path, data)

    checks_module = "evalcore.runner.checks.mantle"
    results_folder = "eval/results"
    reports_activations = True
    simulation_prompt = "run/simulate_mantle"

    def simulation_values(self, spec: Any) -> dict[str, str]:
        """The scenario's `simulation_context`, as Rasa's own simulator reads it."""
        return {"simulation_context": spec.context.strip()}

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]:
        return _shape.fingerprint_facts(data)

    def count_assertions(self, data: dict[str, Any]) -> int:
        return len(_shape.goals(data).get("assertions") or [])

    def count_criteria(self, data: dict[str, Any]) -> int:
        return len(_shape.goals(data).get("criteria") or [])


def _built_in_notes(data: Any, project: Project | None) -> list[Note]:
    """A note on the seeds that are a built-in test account's phone the project's own
    records do not hold (`evalcore.testdata.built_in_phones`): the case says its caller is
    not one of the project's."""
    scenario = data.get("scenario") if isinstance(data, dict) else None
    setup = scenario.get("setup") if isinstance(scenario, dict) else None
    seeds = setup.get("initial_slots") if isinstance(setup, dict) else None
    if project is None or not isinstance(seeds, dict):
        return []
    # the files read once per loaded project, as the justifier reads them: every case
    # written in a run is noted against the same records
    records = memoized(project, ("mantle-note-records",), lambda: load_records(project.root))
    found = built_in_phones(seeds, records)
    return [
        Note("/scenario/setup/initial_slots", f"{key} {what} (no record under data/ has it)")
        for key, what in found.items()
    ]


def __getattr__(name: str) -> Any:
    """`MantleCase` on first use: building the pydantic classes costs more than
    validating a few files, and `validate` checks cases against the JSON schema."""
    if name in {"MantleCase"}:
        from . import _model  # start-up: pydantic, hashlib and 2 casegen modules

        return getattr(_model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


assertion_items = _shape.assertion_items

__all__ = ["MantleCase", "MantleDialect", "assertion_items"]
