"""Critique comments that name a concrete fix go to `revise`, not to a warning list.

A model critique that says what to change ("the case names a claim the project does not
have: use one of its claims") is a revision waiting to be made. With `review --revise`, each
case whose critique comments carry a suggestion is revised by the model from those comments
(`revise_case`: the same prompt, rules repair and repair rounds as `casegen revise`). A
revision that comes out valid replaces the comments it answers: the file's review carries it
as a proposed change (the diff, and the `casegen revise` command that writes it, answered from
the response cache); review itself never writes. A revision that fails or comes out invalid
leaves the comments as warnings, with a note that says why.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalcore.findings import Finding
from evalcore.justify import redump
from evalcore.llm import Usage

from ._revise import ReviseError, revise_case, unified_diff
from ._views import LoadedFile

if TYPE_CHECKING:
    from ._model import ReviewModel


@dataclass
class CritiqueRevisions:
    """What sending one file's concrete critique fixes to revise gave."""

    revisions: list[dict[str, Any]] = field(default_factory=list)
    """Per revised case: `case`, `comment`, `diff`, `command`, `repairs`."""
    answered: list[Finding] = field(default_factory=list)
    """The critique comments a valid revision answers (they leave the warning list)."""
    notes: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


def concrete(findings: list[Finding]) -> list[Finding]:
    """The critique comments that name a concrete fix (a suggestion)."""
    return [f for f in findings if f.code == "critique" and (f.suggestion or "").strip()]


def revise_comment(findings: list[Finding]) -> str:
    """The comments as one instruction for `revise`: what is wrong, where, and the fix."""
    return "\n".join(
        f"- at {f.path or 'the case'}: {f.message} Fix: {f.suggestion}" for f in findings
    )


async def revise_concrete(
    model: ReviewModel, item: LoadedFile, findings: list[Finding]
) -> CritiqueRevisions:
    """Revise each whole-document case of `item` whose critique names concrete fixes."""
    out = CritiqueRevisions()
    fixes = concrete(findings)
    if not fixes or item.dialect is None or not item.doc.parsed:
        return out
    # a file that holds several cases (base44) is revised as a whole by `casegen revise`:
    # only a one-case document is sent here
    if [v.base for v in item.views] != [""]:
        return out
    comment = revise_comment(fixes)
    try:
        revision = await revise_case(
            model,
            data=item.doc.data,
            dialect=item.dialect,
            comment=comment,
            project=item.project,
            path=item.path,
        )
    except ReviseError as exc:
        out.usage = out.usage + exc.usage
        out.notes.append(f"the critique's fixes were not revised: {exc}")
        return out
    out.usage = out.usage + revision.usage
    if not revision.valid:
        first = next(f for f in revision.findings if f.severity == "error")
        out.notes.append(
            "the critique's fixes were revised into an invalid case, so they stay comments: "
            f"{first.code} at {first.path or '/'}: {first.message}"
        )
        return out
    text = redump(item.dialect, revision.data, item.project, item.doc.text)
    out.revisions.append(
        {
            "case": item.views[0].label,
            "comment": comment,
            "diff": unified_diff(item.doc.text, text, str(item.path)),
            "command": f"casegen revise {shlex.quote(str(item.path))} "
            f"--comment {shlex.quote(comment)}",
            "repairs": revision.repairs,
        }
    )
    out.answered = fixes
    return out


__all__ = ["CritiqueRevisions", "concrete", "revise_comment", "revise_concrete"]
