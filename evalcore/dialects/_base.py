"""What every case dialect provides, and the shared behaviour built on it.

A dialect owns its file format: schema, loader, pydantic model, sniffing, dumping, reference
lint and deterministic repair rules. Everything downstream (validate, repair, generate, run)
talks to `Dialect`, never to a particular format.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..documents import Document, TextFormat, load_document
from ..findings import Finding
from ..schemas import schema_findings

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..definitions import Project
    from ..justify import Judged, Note
    from ..repair import RepairRule


class Dialect:
    """Base class of the three dialects; subclasses set the class attributes and hooks."""

    name: ClassVar[str]
    file_format: ClassVar[TextFormat]
    suffixes: ClassVar[tuple[str, ...]]
    project_kind: ClassVar[str]
    """The project kind whose definitions this dialect's lint checks against."""
    schema_resource: ClassVar[str] = "schema.json"

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
        from importlib import resources

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

    def outside_effects(self, data: Any, project: Project | None) -> list[dict[str, Any]]:
        """The tools the case expects to run whose code changes something on a real service
        (`{tool, service, calls, changes, credentials}`): running the case does that
        wherever their credentials are set. Empty where the dialect cannot tell."""
        return []

    # --- writing --------------------------------------------------------------------------

    def dump(self, data: Any) -> str:
        from ..writer import canonical_text

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

    def case_title(self, data: Any) -> str | None:
        """The human name of a case (for tables and PR descriptions)."""
        return None

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"
