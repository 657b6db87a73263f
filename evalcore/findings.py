"""Findings: one problem in one document, located precisely enough for a person to act on it.

Every check in casegen (parsing, schema, reference lint, review) reports through this one
shape, so the CLI, the JSON output, the repair worklist and the MCP tools never translate.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field
from typing import Any, Literal

from ._record import EXCLUDED, Record, record

Severity = Literal["error", "warning"]

#: Every finding code casegen emits, with the one-line meaning shown in docs and `--help`.
FINDING_CODES: dict[str, str] = {
    "parse": "The file is not valid YAML/JSON, or a mapping repeats a key.",
    "schema": "The document violates its dialect's JSON Schema.",
    "env-var": "A ${VAR} the runtime expands on loading names a variable that is not set.",
    "no-project": "No project folder was found, so reference lint was skipped.",
    "unknown-skill": "A skill id that no skills/<id>/skill.md defines.",
    "unknown-block": "An ordered block id that the skill does not define.",
    "unknown-step": "A step id that the skill's blocks do not define.",
    "unknown-memory": "A memory name not declared in the skill's or the project's memory.yml.",
    "memory-type": "A memory value whose type does not match the declared field type.",
    "memory-enum": "A categorical memory value outside the field's enum_values.",
    "unknown-tool": "A tool the skill/playbook cannot call (not defined, not imported).",
    "unknown-tool-argument": "A tool argument the tool's signature does not have.",
    "unknown-response": "A response name that no responses.yml defines.",
    "bad-regex": "A regular expression that does not compile.",
    "not-seed-slot": "An initial slot naming a project field without seed: true (not copied).",
    "unknown-playbook": "A playbook id that the Anychat project does not define.",
    "unknown-outreach": "An outreach id that the Anychat project does not define.",
    "unknown-person-field": "A Person field that is neither built in nor declared in people.yml.",
    "unknown-agent-skill": "An expected skill that no skills/<name>/SKILL.md defines.",
    "path-outside-project": "A file path that is absolute or climbs out of the project with '..'.",
}


@record(frozen=True)
class Finding(Record):
    """One problem found in a document.

    `path` is a JSON Pointer into the document (``/scenario/goals/assertions/3``), so the same
    finding can be shown to a person, fed to a repair step or returned to a coding agent.
    """

    code: str
    """One of `FINDING_CODES` (or a review code)."""
    severity: Severity = "error"
    path: str = ""
    """JSON Pointer to the offending location; "" is the whole document."""
    line: int | None = None
    """1-based line in the file, when the parser could tell."""
    message: str
    value: Any = None
    """The offending value, as found."""
    suggestion: str | None = None
    """What would be valid, e.g. "did you mean 'card_replace'?"."""
    context: dict[str, Any] = field(default_factory=dict, repr=False, metadata=EXCLUDED)
    """Machine-readable detail for repair (allowed values, expected type, candidate ids).
    Not part of the printed/JSON finding."""

    def located(self, line: int | None) -> Finding:
        """Return a copy with `line` filled in (keeps an existing line)."""
        if self.line is not None or line is None:
            return self
        return self.model_copy(update={"line": line})

    def to_json(self) -> dict[str, Any]:
        try:
            return self.model_dump(mode="json")
        except UnicodeEncodeError:  # a lone surrogate (`"\\ud800"` in a case file)
            return _without_surrogates(self).model_dump(mode="json")


def _escape_surrogates(value: Any) -> Any:
    """`value` with lone surrogates in strings (keys too) written as `\\udXXX` text."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_escape_surrogates(k): _escape_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_escape_surrogates(v) for v in value]
    return value


def _without_surrogates(finding: Finding) -> Finding:
    fields = ("path", "message", "value", "suggestion")
    return finding.model_copy(
        update={name: _escape_surrogates(getattr(finding, name)) for name in fields}
    )


@record
class FileReport(Record):
    """Validation outcome of one file, in the shape `casegen validate --json` prints."""

    path: str
    dialect: str | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "dialect": self.dialect,
            "valid": self.valid,
            "errors": [f.to_json() for f in self.errors],
            "warnings": [f.to_json() for f in self.warnings],
        }


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Order findings by line, then path, so reports read top to bottom like the file."""
    return sorted(findings, key=lambda f: (f.line or 0, f.path, f.code, str(f.value)))
