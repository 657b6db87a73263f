"""The quoted-line rule: which user messages a simulation context scripts word for word.

One rule, shared by the offline simulator (which plays the lines) and the offline drafter
(which writes contexts that follow it), so a drafted case always plays back offline:

1. **Numbered steps.** A step starts at `N.` followed by a space (`1.`, `2.`, …) at the start
   of a line. YAML folded scalars (`>`) join lines into one, so when no step starts a line,
   steps are found mid-text instead, as the run `1.`, `2.`, `3.` … in that order, each
   preceded by whitespace (a stray `3.` before the `1.` or out of sequence is plain text).
2. **Extent.** A step runs to the next step or to a blank line, whichever comes first.
   Text before the first step (persona, facts) and after the steps' paragraph is not a step.
3. **Lines.** Every double-quoted string inside the steps, straight `"…"` or curly `“…”`, in
   order, is one user turn (whitespace inside is collapsed; an empty `""` is skipped). A step
   without a quote only describes behaviour and plays nothing.

    >>> quoted_user_lines('Be polite.\\n1. Say "hi"\\n2. Wait.\\n3. Say “bye”')
    ['hi', 'bye']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_START_STEP = re.compile(r"(?m)^[ \t]*(\d{1,3})\.[ \t]+")
_INLINE_STEP = re.compile(r"(?<!\S)(\d{1,3})\.[ \t\n]+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_QUOTE = re.compile(r"“([^”]*)”|\"([^\"]*)\"")


@dataclass(frozen=True)
class QuotedLine:
    """One scripted user message and the number of the step it came from."""

    step: int
    text: str


def numbered_steps(context: str) -> list[tuple[int, str]]:
    """`(number, text)` of every numbered step, in order (rules 1 and 2 above)."""
    starts = [(int(m.group(1)), m.start(), m.end()) for m in _LINE_START_STEP.finditer(context)]
    if not starts:
        starts = _inline_sequence(context)
    steps: list[tuple[int, str]] = []
    for i, (number, _, body_start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(context)
        body = context[body_start:end]
        blank = _BLANK_LINE.search(body)
        steps.append((number, body[: blank.start()] if blank else body))
    return steps


def quoted_lines(context: str) -> list[QuotedLine]:
    """Every quoted user line of the numbered steps, with its step number (rule 3)."""
    lines: list[QuotedLine] = []
    for number, body in numbered_steps(context):
        for match in _QUOTE.finditer(body):
            text = " ".join((match.group(1) or match.group(2) or "").split())
            if text:
                lines.append(QuotedLine(number, text))
    return lines


def quoted_user_lines(context: str) -> list[str]:
    """Just the texts of `quoted_lines(context)`: the user turns to play, in order."""
    return [line.text for line in quoted_lines(context)]


def _inline_sequence(context: str) -> list[tuple[int, int, int]]:
    """Mid-text markers forming the run 1, 2, 3, … (a folded scalar's steps)."""
    found: list[tuple[int, int, int]] = []
    expected = 1
    for match in _INLINE_STEP.finditer(context):
        if int(match.group(1)) == expected:
            found.append((expected, match.start(), match.end()))
            expected += 1
    return found


__all__ = ["QuotedLine", "numbered_steps", "quoted_lines", "quoted_user_lines"]
