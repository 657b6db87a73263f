"""What every case dialect provides, and the shared behaviour built on it.

A dialect owns its file format: schema, loader, pydantic model, sniffing, dumping, reference
lint and deterministic repair rules, and what the engine asks about its cases (where they
live and are written, the cases a file holds, what tells two apart, how the runner plays
them, what review reads in them; docs/architecture.md lists each question). Everything
downstream (validate, repair, generate, review, run) talks to `Dialect`, never to a
particular format.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..documents import Document, TextFormat, load_document
from ..findings import Finding
from ..schemas import schema_findings

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..definitions import Project, ProjectReader
    from ..justify import Judged, Note
    from ..repair.actions import RepairRule


@dataclass(frozen=True)
class Provenance:
    """Where a generated case comes from, for a dialect whose cases say so inline."""

    source: str
    """The skill / playbook / agent skill the case is for."""
    case: str
    case_type: str | None
    engine: str
    """The drafting engine's name."""
    behavior: str
    """The planned behaviour's id."""
    sources: Mapping[str, str]
    """The project files the case depends on (path -> sha256; `Dialect.depends_on`)."""
    generated_at: str


@dataclass(frozen=True)
class CaseProse:
    """One case of a document as readers of its prose see it (`Dialect.case_prose`);
    pointers are relative to the case."""

    base: str
    """Pointer of the case inside its document ("" where the document is the case)."""
    data: dict[str, Any]
    """The case's own mapping."""
    title: str
    title_path: str
    """Pointer of the title ("" when the case has none)."""
    type: str | None
    criteria: tuple[tuple[str, str], ...] = ()
    """What the judge grades: (pointer, text)."""
    contexts: tuple[tuple[str, str], ...] = ()
    """What the simulated user is told (persona, facts, goal): (pointer, text)."""


#: The vocabularies a dialect writes its checks in (`Dialect.checks_vocabulary`): review
#: rules about what checks show are written per vocabulary, not per dialect.
EVENT_ASSERTIONS = "event assertions"
"""Assertions on the runtime's event log: a response by name, memory set, a skill activated
or completed, a tool executed (Rasa Mantle's `goals.assertions`)."""
END_STATE_CHECKS = "end-state checks"
"""Checks on what the conversation left behind: outcomes, appointments, the Person record,
tools called (Anychat's `expect.checks`)."""
WORKSPACE_CHECKS = "workspace checks"
"""Checks on the answer and the files an agent wrote (base44's `checks` and
`expectedSkills`)."""


def pattern_problems(pattern: str) -> list[str]:
    """Why a check's regular expression cannot match anything: it does not compile."""
    try:
        re.compile(pattern)
    except re.error as exc:
        return [f"pattern {pattern!r} does not compile: {exc}"]
    return []


def load_entry(spec: str) -> Any:
    """What an entry point names: `module:attribute`, or a whole module."""
    module, _, attribute = spec.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


class Dialect:
    """Base class of the three dialects; subclasses set the class attributes and hooks."""

    name: ClassVar[str]
    file_format: ClassVar[TextFormat]
    suffixes: ClassVar[tuple[str, ...]]
    project_kind: ClassVar[str]
    """The project kind whose definitions this dialect's lint checks against."""
    project_reader: ClassVar[ProjectReader | None] = None
    """How a project of a kind this plugin brings is recognised and read, registered with
    the dialect (`register`); None: its `project_kind` is built in or another plugin's."""
    schema_resource: ClassVar[str] = "schema.json"
    cases_noun: ClassVar[str] = "cases"
    """What its cases are called in prose (`Rasa Mantle scenarios`)."""
    setup_field: ClassVar[str] = "setup"
    """Where a case keeps the starting state (which must not skip the step it tests)."""

    checks_vocabulary: ClassVar[str | None] = None
    """What its checks are written in (`EVENT_ASSERTIONS`, `END_STATE_CHECKS`,
    `WORKSPACE_CHECKS`), so review's rules written for that vocabulary read its cases; None:
    only the rules every case gets."""

    @property
    def model(self) -> type[BaseModel]:
        """The dialect's pydantic model (each dialect imports it on first use)."""
        raise NotImplementedError

    quality_metrics: ClassVar[bool] = False
    """Its run results carry the metrics judge's quality metrics (Rasa's run files do)."""

    @cached_property
    def schema(self) -> dict[str, Any]:
        module = sys.modules[type(self).__module__]
        beside = Path(module.__file__ or "").parent / self.schema_resource
        if module.__file__ and beside.is_file():  # a package on disk: no importlib.resources
            return json.loads(beside.read_text("utf-8"))
        from importlib import (
            resources,
        )  # start-up: importlib.resources, read only for a package that is not a folder on disk

        text = resources.files(module.__package__ or "").joinpath(self.schema_resource)
        return json.loads(text.read_text("utf-8"))

    # --- reading --------------------------------------------------------------------------

    def load(self, path: Path, *, text: str | None = None) -> Document:
        return load_document(path, text=text)

    def sniff(self, data: Any, path: Path) -> bool:
        """True when `data` (already parsed) looks like a case of this dialect."""
        raise NotImplementedError

    # --- checking -------------------------------------------------------------------------

    def schema_findings(self, data: Any) -> list[Finding]:
        return schema_findings(data, self.schema)

    def as_loaded(self, doc: Document) -> tuple[Any, list[Finding]]:
        """The data as the dialect's runtime holds it once it has loaded `doc`, and what its
        loader would refuse on the way (Mantle: Rasa expands `${VAR}`); by default the
        data as parsed."""
        return doc.data, []

    def lint(self, data: Any, project: Project) -> list[Finding]:
        """Reference findings against the project's real ids (data is schema-valid enough)."""
        return []

    def repair_rules(self) -> list[RepairRule]:
        """Deterministic fixes specific to this dialect (generic schema fixes are shared)."""
        return []

    justifies: ClassVar[bool] = False
    """`justify` finds the definition element behind each check (see `evalcore.justify`)."""

    def justify(self, data: Any, project: Project | None) -> list[Judged]:
        """Each check of the case with the definition element behind it (empty where the
        dialect does not read its project's definitions for that)."""
        return []

    plays_reference: ClassVar[bool] = False
    """A reference agent plays its projects' definitions (`evalcore.agents.reference`, with
    mutants of them): generate verifies a draft by playing it there. Otherwise generate
    plays it against a demo agent written for the project, or checks it statically
    (`unsatisfiable`)."""

    def unsatisfiable(self, data: Any, project: Project) -> list[str]:
        """What the case asks that no agent can give, whatever it does: an id the project
        lacks, a check the runner does not know, two checks that contradict each other, a
        pattern that does not compile (empty where the dialect cannot tell)."""
        return []

    def outside_effects(self, data: Any, project: Project | None) -> list[dict[str, Any]]:
        """The tools the case expects to run whose code changes something on a real service
        (`{tool, service, calls, changes, credentials}`): running the case does that
        wherever their credentials are set. Empty where the dialect cannot tell."""
        return []

    # --- writing --------------------------------------------------------------------------

    def dump(self, data: Any) -> str:
        from ..writer import (
            canonical_text,
        )  # start-up: the writer and ruamel, loaded when a case is written

        return canonical_text(data, self)

    def dump_justified(self, data: Any, project: Project | None, notes: Sequence[Note] = ()) -> str:
        """`dump`, with each check's justification as a comment beside it where the format
        holds comments (same data on reload, same bytes for the same data and project), and
        `notes` the data cannot say (why the case is written needs-review) at the top. A
        format without comments (JSON) leaves both out."""
        return self.dump(data)

    def validate_model(self, data: Any) -> BaseModel:
        """Parse into the dialect's pydantic model (raises pydantic.ValidationError)."""
        return self.model.model_validate(data)

    def case_data(self, value: BaseModel) -> dict[str, Any]:
        """The case its pydantic model holds, as file data (a model's answer written out): by
        default only the keys that were set, so a model that keeps a real null (an Anychat
        `persona: null`) round-trips."""
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def case_title(self, data: Any) -> str | None:
        """The human name of a case (for tables and PR descriptions)."""
        return None

    # --- review's advice -------------------------------------------------------------------

    criterion_mentions: ClassVar[frozenset[str]] = frozenset({"tool"})
    """The kinds of thing a criterion may say happened (a tool called, a memory value set, a
    skill activated) that this dialect's checks can state, so review advises a check."""

    def structural_check(
        self, kind: str, name: str | None, *, negated: bool, project: Project | None
    ) -> str | None:
        """The check that says what a criterion states about the `kind` (tool, response,
        memory, skill, block, playbook, outcome, field) named `name` (None: unnamed), as
        review's advice; None where no check of the format can say it."""
        return None

    # --- running -------------------------------------------------------------------------

    def run_cases(self, path: Path, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The cases of a schema-valid file as the runner plays them: the fields of
        `evalcore.runner.RunCase` (setup, scripted turns, simulation, checks, criteria)."""
        raise NotImplementedError

    checks_module: ClassVar[str | None] = None
    """The module that registers this dialect's checks evaluator
    (`evalcore.runner.checks.register_checks`), imported on first use."""

    results_folder: ClassVar[str | None] = None
    """Where a project of this dialect keeps run results (relative to its root), when its
    runtime has a place for them; elsewhere `casegen run` writes to `./results`."""

    reports_activations: ClassVar[bool] = False
    """Its runtime reports every skill activation as an event (Mantle's skill events), so a
    run without one shows that no skill ran."""

    simulation_prompt: ClassVar[str | None] = None
    """The prompt a model plays this dialect's simulated user with (`prompts/<name>.md`);
    None: a model cannot simulate its cases."""

    def simulation_values(self, spec: Any) -> dict[str, str]:
        """What `simulation_prompt` is filled with besides the conversation, from the case's
        `SimulationSpec` (what the simulated user is told)."""
        return {}

    # --- the cases a document holds -------------------------------------------------------

    source_noun: ClassVar[str] = "source"
    """What one of the things its cases test is called (`skill`, `playbook`), in messages."""

    def source_ids(self, project: Project) -> set[str]:
        """The ids of what this dialect's cases test in `project` (skills, playbooks)."""
        return set()

    def definition_text(self, project: Project, source: str) -> str:
        """The source's definition as its author wrote it (a skill's prose, a playbook's
        YAML), for a model that drafts or reviews its cases."""
        raise ValueError(f"no definition text for dialect '{self.name}'")

    def definition_ids(self, project: Project, source: str) -> dict[str, Any]:
        """Every real id a case for `source` may use (skills, blocks, memory, tools,
        responses, with their types and values), as JSON-ready data: a model that sees the
        exact names writes them instead of inventing them."""
        raise ValueError(f"no ids for dialect '{self.name}'")

    def named_sources(self, data: dict[str, Any], project: Project) -> list[str]:
        """The source ids the case itself names, most telling first (unchecked)."""
        return []

    def expected_sources(self, data: dict[str, Any], project: Project | None) -> list[str]:
        """The sources (skills, playbooks) a run of the case is expected to go through, in
        the order its checks first name them, as triage reads a failed run (empty where the
        checks name none)."""
        return []

    def source_stem(self, path: Path) -> str:
        """The part of a case file's path that begins with its source's id (by the naming
        convention of generated and hand-written cases): the file name by default."""
        return path.stem

    def depends_on(self, path: str, source: str) -> bool:
        """True when a case for `source` (a skill, playbook) depends on the project file
        `path` (relative to the root): a change to it makes the case stale. By default every
        file."""
        return True

    def case_filename(self, source: str, case: str, case_type: str | None) -> str:
        """The file name of a generated case (inside its source's folder)."""
        raise NotImplementedError

    provenance_inline: ClassVar[bool] = False
    """Its cases carry their provenance (`with_provenance`); otherwise only the manifest does,
    since the schema has no place for it."""

    def with_provenance(self, data: dict[str, Any], provenance: Provenance) -> dict[str, Any]:
        """A copy of `data` that says where it comes from (as is where the format cannot)."""
        return data

    def same_but_time(self, old: Any, new: dict[str, Any]) -> bool:
        """True when `old` (the file on disk) is the case `new` with only the time its
        provenance gives different: rewriting it would change nothing else."""
        return False

    suite_folder: ClassVar[str | None] = None
    """Where a project of this dialect keeps its committed cases (relative to its root)."""

    def suite_files(self, project: Project) -> list[Path]:
        """The project's committed cases of this dialect."""
        if self.suite_folder is None:
            return []
        folder = project.root / self.suite_folder
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.rglob("*") if p.suffix in self.suffixes and p.is_file())

    def case_prose(self, data: dict[str, Any]) -> list[CaseProse]:
        """The cases of one parsed document with their title, type, criteria and persona
        text (none for a shape the dialect does not know)."""
        return []

    cases_per_file: ClassVar[bool] = False
    """One file holds several cases (a base44 eval: one per prompt), so the cases of one
    source are written together into one file."""

    def combine_cases(
        self, source: str, cases: Sequence[dict[str, Any]], project: Project
    ) -> dict[str, Any]:
        """The one file that holds the cases of `source`, in order (`cases_per_file`)."""
        raise NotImplementedError

    def case_units(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """Each case `data` holds, by name, as a document of its own (`as_unit`); the whole
        document, unnamed, where a file is one case."""
        return [("", data)]

    def as_unit(self, case: dict[str, Any]) -> dict[str, Any]:
        """A document that holds only `case` (one of the cases a file holds)."""
        return case

    def fingerprint_facts(self, data: dict[str, Any]) -> tuple[set[str], str]:
        """What tells this case from another (`evalcore.dedupe`): its facts (each check in
        canonical JSON, how it starts) and its free text (persona, prompt)."""
        return set(), ""

    def count_assertions(self, data: dict[str, Any]) -> int:
        """How many structural checks the case makes."""
        return 0

    def count_criteria(self, data: dict[str, Any]) -> int:
        """How many criteria the case gives the judge (0 where the format has no judge)."""
        return 0

    # --- generating: the flows written for this dialect -------------------------------------
    # Each names where its code lives, as an entry point (`module:function`, or a module),
    # imported on first use (`load_entry`): the flows of `agentflows` ask the dialect instead
    # of keeping tables by dialect name, and nothing here imports them.

    planner: ClassVar[str | None] = None
    """The planner: `(project, source, direction) -> Plan`, the behaviours worth a case."""

    asserted_elements: ClassVar[str | None] = None
    """`(project, source, data, covers) -> elements`: the plan elements a case's checks
    check (coverage counts these)."""

    not_a_goal: ClassVar[str | None] = None
    """`(project, source) -> reason | None`: why no user's goal may be `source`; None: every
    source may be one."""

    offline_drafter: ClassVar[str | None] = None
    """The offline drafter: `(DraftContext) -> document`, or `(document, needs-review
    reason)`."""

    planned_drafting: ClassVar[str | None] = None
    """The module a model drafts this dialect's cases with on the offline plan (the model
    writes the words, the plan keeps ids and checks); None: a model drafts a case whole."""

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"
