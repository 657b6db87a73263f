"""The model's critique: extra comments per case, on top of the rules (never instead).

One structured call per case with `prompts/review/critique_<dialect>.md`; the model sees the
case, its definition and the rules' comments (so it does not repeat them) and answers with
`Critique`. A failed call is a note on the file, not a failed review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from evalcore import pointer as ptr
from evalcore.findings import Finding
from evalcore.llm import LLMError, Usage
from evalcore.prompts import render_prompt

from ._material import source_material, to_json
from ._views import CaseView

if TYPE_CHECKING:
    from ._model import ReviewModel
    from ._review import _Loaded

#: Comments kept per case, so one verbose answer cannot bury the rules' comments.
MAX_CRITIQUE_COMMENTS = 6


class CritiqueComment(BaseModel):
    """One reviewer comment on the case."""

    path: str = Field(
        default="",
        description="JSON Pointer into the case shown (e.g. /scenario/goals/criteria/1); "
        "empty for the case as a whole.",
    )
    message: str = Field(description="What is wrong, in one or two sentences.")
    suggestion: str | None = Field(default=None, description="The concrete change to make.")


class Critique(BaseModel):
    """Review comments on one test case (empty when there is nothing to add)."""

    comments: list[CritiqueComment] = Field(default_factory=list)


async def critique_case(
    critic: ReviewModel, view: CaseView, project: object, rule_comments: list[Finding]
) -> tuple[list[Finding], Usage]:
    """The model's comments on one case, as `critique` findings (pointers made absolute)."""
    definition, ids = source_material(project, view.dialect, view.source)  # type: ignore[arg-type]
    own = [c for c in rule_comments if _within(c.path, view.base)]
    rendered = render_prompt(
        f"review/critique_{view.dialect}",
        definition=definition,
        ids=ids,
        case=to_json(view.data),
        comments=to_json(
            [{"code": c.code, "path": c.path[len(view.base) :], "message": c.message} for c in own]
        ),
    )
    result = await critic.ask(rendered.messages, Critique)
    findings = []
    for comment in result.value.comments[:MAX_CRITIQUE_COMMENTS]:
        relative = comment.path.strip()
        if relative and not ptr.exists(view.data, relative):
            relative = ""
        findings.append(
            Finding(
                code="critique",
                severity="warning",
                path=view.base + relative,
                message=comment.message.strip(),
                suggestion=(comment.suggestion or "").strip() or None,
            )
        )
    return findings, result.usage


def _within(path: str, base: str) -> bool:
    return not base or path == base or path.startswith(base + "/")


async def critique_file(
    critic: ReviewModel, item: _Loaded, rule_comments: list[Finding]
) -> tuple[list[Finding], Usage, list[str]]:
    """Critique every case of a loaded file; failures become notes."""
    findings: list[Finding] = []
    usage = Usage()
    notes: list[str] = []
    for view in item.views:
        try:
            extra, spent = await critique_case(critic, view, item.project, rule_comments)
        except LLMError as exc:
            usage = usage + exc.usage
            notes.append(f"critique of {view.label} failed: {exc}")
            continue
        findings += extra
        usage = usage + spent
    return item.doc.locate(findings), usage, notes


__all__ = ["MAX_CRITIQUE_COMMENTS", "Critique", "CritiqueComment", "critique_case", "critique_file"]
