"""Revising one case from a reviewer's comment, with the model, then validate and repair.

`casegen revise` and the interactive review's "regenerate" both call `revise_case`: the model
gets the case, the comment and the project's definition and ids, with the instruction to
change only what the comment asks, and answers with edits to the case (`_revise_edits`), never
the case re-typed; deterministic repair fixes what it can, and up to
`MAX_MODEL_REPAIR_ROUNDS` more model rounds get the remaining findings (an edit that could not
be applied among them).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalcore.definitions import Project
from evalcore.dialects import Dialect
from evalcore.findings import Finding
from evalcore.llm import LLMError, Usage
from evalcore.prompts import load_prompt, render_prompt
from evalcore.repair import repair_data

from ._material import source_material, to_json
from ._revise_edits import CaseEdits, apply_case_edits
from ._source import case_source

if TYPE_CHECKING:
    from ._model import ReviewModel

#: Model rounds spent on findings left after deterministic repair (after the revision itself).
MAX_MODEL_REPAIR_ROUNDS = 2

NO_MODEL_MESSAGE = "revise needs a model: set CASEGEN_MODEL or pass --model"


class ReviseError(RuntimeError):
    """The model call for a revision failed after its retries."""

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


@dataclass
class Revision:
    """A revised case and what it took."""

    data: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)
    """What is still wrong (errors and warnings) after repair."""
    repairs: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    model_rounds: int = 0
    """Model repair rounds spent (0 when the first revision was valid after repair)."""

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


async def revise_case(
    model: ReviewModel,
    *,
    data: Any,
    dialect: Dialect,
    comment: str,
    project: Project | None,
    path: Path | None = None,
) -> Revision:
    """Revise `data` (one case document) as `comment` asks.

    Raises:
        ReviseError: a model call failed after its retries.
    """
    source = case_source(project, dialect.name, data, path)
    definition, ids = source_material(project, dialect.name, source)
    conventions = load_prompt(f"generate/conventions_{dialect.name}").template.strip()
    usage = Usage()
    repairs: list[dict[str, Any]] = []
    shown: Any = data
    findings_text = "none"
    fixing = ""
    for attempt in range(MAX_MODEL_REPAIR_ROUNDS + 1):
        rendered = render_prompt(
            f"review/revise_{dialect.name}",
            definition=definition,
            ids=ids,
            conventions=conventions,
            case=to_json(shown),
            comment=comment.strip(),
            findings=findings_text,
        )
        try:
            result = await model.ask(rendered.messages, CaseEdits, kind="revise")
        except LLMError as exc:
            raise ReviseError(
                f"the model did not revise the case: {exc}", usage=usage + exc.usage
            ) from exc
        usage = usage + result.usage
        if attempt:
            repairs.append(
                {
                    "code": "model",
                    "path": "",
                    "before": None,
                    "after": None,
                    "reason": f"{model.name} revised again for: {fixing}",
                    "by": "model",
                }
            )
        revised, problems = apply_case_edits(shown, result.value.edits)
        outcome = repair_data(revised, dialect, project)
        repairs += [a.to_json() | {"by": "rules"} for a in outcome.actions]
        unapplied = [Finding(code="revise-edit", message=p) for p in problems]
        findings = [*unapplied, *outcome.findings]
        errors = [f for f in findings if f.severity == "error"]
        if not errors or attempt == MAX_MODEL_REPAIR_ROUNDS:
            return Revision(outcome.data, findings, repairs, usage, attempt)
        shown = outcome.data
        findings_text = to_json([_finding(f) for f in errors])
        fixing = ", ".join(sorted({f.code for f in errors}))
    raise AssertionError("unreachable")  # pragma: no cover


def _finding(finding: Finding) -> dict[str, Any]:
    out = {
        "code": finding.code,
        "path": finding.path,
        "message": finding.message,
        "value": finding.value,
        "suggestion": finding.suggestion,
    }
    return {k: v for k, v in out.items() if v is not None}


def unified_diff(before: str, after: str, path: str) -> str:
    """The change as a unified diff ("" when there is none)."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=path,
            tofile=f"{path} (revised)",
        )
    )


__all__ = [
    "MAX_MODEL_REPAIR_ROUNDS",
    "NO_MODEL_MESSAGE",
    "ReviseError",
    "Revision",
    "revise_case",
    "unified_diff",
]
