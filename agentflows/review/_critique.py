"""The model's critique: extra comments per case, on top of the rules (never instead).

One structured call per case with `prompts/review/critique_<dialect>.md`; the model sees the
case, its definition and the rules' comments (so it does not repeat them) and answers with
`Critique`. A failed call is a note on the file, not a failed review, and is counted, so the
report never names a model critique that did not happen. Comments that say the same thing
at the same place (the model's own repeats, or a repeat of a rule's comment) are merged.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from evalcore import pointer as ptr
from evalcore.findings import Finding
from evalcore.llm import LLMError, Usage
from evalcore.prompts import render_prompt
from evalcore.redact import redact

from ._material import source_material, to_json
from ._views import CaseView, LoadedFile

if TYPE_CHECKING:
    from ._model import ReviewModel

#: Comments kept per case, so one verbose answer cannot bury the rules' comments.
MAX_CRITIQUE_COMMENTS = 6
#: Two comments at one path whose normalised wording is at least this similar say one thing.
SAME_COMMENT_RATIO = 0.85


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
    findings: list[Finding] = []
    for comment in result.value.comments:
        relative = comment.path.strip()
        if relative and not ptr.exists(view.data, relative):
            relative = ""
        finding = Finding(
            code="critique",
            severity="warning",
            path=view.base + relative,
            message=redact(comment.message.strip()),
            suggestion=redact((comment.suggestion or "").strip()) or None,
        )
        if not finding.message or any(_same(finding, c) for c in own):
            continue
        findings = merge_comment(findings, finding)
    return findings[:MAX_CRITIQUE_COMMENTS], result.usage


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _same(a: Finding, b: Finding) -> bool:
    """Same place, same point (case, spacing and punctuation aside, or nearly the same)."""
    if a.path != b.path:
        return False
    x, y = _words(a.message), _words(b.message)
    return x == y or difflib.SequenceMatcher(None, x, y).ratio() >= SAME_COMMENT_RATIO


def merge_comment(found: list[Finding], new: Finding) -> list[Finding]:
    """`found` with `new` added, or merged into the comment that already says it (its
    suggestion kept alongside when it differs)."""
    for n, old in enumerate(found):
        if not _same(old, new):
            continue
        suggestions = [s for s in (old.suggestion, new.suggestion) if s]
        merged = " / ".join(dict.fromkeys(suggestions)) or None
        return [*found[:n], old.model_copy(update={"suggestion": merged}), *found[n + 1 :]]
    return [*found, new]


def _within(path: str, base: str) -> bool:
    return not base or path == base or path.startswith(base + "/")


@dataclass
class FileCritique:
    """The model's comments on one file, what they cost, and how many calls answered."""

    findings: list[Finding] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    notes: list[str] = field(default_factory=list)
    ran: int = 0
    """Cases the model critiqued."""
    failed: int = 0
    """Cases whose critique call failed (each has a note)."""


async def critique_file(
    critic: ReviewModel, item: LoadedFile, rule_comments: list[Finding]
) -> FileCritique:
    """Critique every case of a loaded file; failures become notes."""
    out = FileCritique()
    findings: list[Finding] = []
    for view in item.views:
        try:
            extra, spent = await critique_case(critic, view, item.project, rule_comments)
        except LLMError as exc:
            out.usage = out.usage + exc.usage
            out.notes.append(f"critique of {view.label} failed: {exc}")
            out.failed += 1
            continue
        findings += extra
        out.usage = out.usage + spent
        out.ran += 1
    out.findings = item.doc.locate(findings)
    return out


__all__ = [
    "MAX_CRITIQUE_COMMENTS",
    "Critique",
    "CritiqueComment",
    "FileCritique",
    "critique_case",
    "critique_file",
    "merge_comment",
]
