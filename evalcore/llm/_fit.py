"""A prompt trimmed to the model's context: what is sent must leave room for the answer.

A local server with an 8k context answers an oversized prompt with HTTP 400 (or silently
drops its start); neither helps. Before a call, the prompt's tokens are estimated
conservatively and, when prompt + answer limit + schema would not fit, the longest
`<Section>` of the longest message is cut (its start kept, a marker added) until it fits.
The instructions (system message) are never cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import ModelRequestError

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

#: Characters per token assumed when fitting. Lower than the 4 of the rate budget's
#: estimate: small models' tokenizers split JSON and ids finely, and an estimate that is
#: too low is what overflows the context.
CHARS_PER_TOKEN = 3.2
#: Room kept for the chat template's own tokens and the estimate's error.
MARGIN_TOKENS = 256
MARKER = "\n… (cut to fit the model's context)\n"
_MIN_KEEP = 200
_SECTION = re.compile(r"<([A-Z][A-Za-z]*)>\n?(.*?)\n?</\1>", re.S)
#: Sections that are the task itself (the case to fix, its findings, the planned path):
#: cutting them would make the answer wrong, so a prompt that fits only without them fails.
KEEP = frozenset({"Case", "Findings", "Behavior", "Assertions", "Facts", "Path", "Comment"})


def tokens(text: str) -> int:
    """A conservative token estimate of `text`."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


def prompt_tokens(messages: Sequence[BaseMessage]) -> int:
    return sum(tokens(str(m.content)) + 4 for m in messages)


def fit(
    messages: Sequence[BaseMessage], *, context: int, reserved: int, model: str = "the model"
) -> list[BaseMessage]:
    """`messages` with sections cut so that they and `reserved` tokens fit in `context`.

    Raises:
        ModelRequestError: even cut, the prompt cannot fit (the instructions alone are too
            long for this context).
    """
    limit = context - reserved - MARGIN_TOKENS
    out = list(messages)
    stuck: set[int] = set()
    while prompt_tokens(out) > limit:
        excess_chars = int((prompt_tokens(out) - limit) * CHARS_PER_TOKEN) + 1
        index = _longest_cuttable(out, stuck)
        if index is None:
            raise ModelRequestError(
                f"the prompt needs about {prompt_tokens(out)} tokens plus {reserved} for the "
                f"answer, more than the {context}-token context of {model}; set a larger "
                "`context` in [tool.casegen] if the model has one, or use a model with a "
                "larger context"
            )
        before = str(out[index].content)
        after = _cut(before, excess_chars)
        if len(after) >= len(before):
            stuck.add(index)  # nothing left to cut there
            continue
        out[index] = out[index].model_copy(update={"content": after})
    return out


def _longest_cuttable(messages: list[BaseMessage], stuck: set[int]) -> int | None:
    best, size = None, 0
    for index, message in enumerate(messages):
        if message.type == "system" or index in stuck:
            continue
        room = _room(str(message.content))
        if room > size:
            best, size = index, room
    return best


def _room(text: str) -> int:
    """How many characters the longest section of `text` can lose."""
    found = list(_SECTION.finditer(text))
    if found:
        sizes = [len(m.group(2)) - _MIN_KEEP for m in found if m.group(1) not in KEEP]
        return max(0, max(sizes, default=0))
    return max(0, len(text) - 4 * _MIN_KEEP - len(MARKER))


def _cut(text: str, excess: int) -> str:
    """`text` with its longest section (else its middle) shortened by `excess` characters."""
    found = list(_SECTION.finditer(text))
    if found:
        sections = [m for m in found if m.group(1) not in KEEP]
        if not sections:
            return text
        longest = max(sections, key=lambda m: len(m.group(2)))
        body = longest.group(2)
        keep = max(_MIN_KEEP, len(body) - excess - len(MARKER))
        if keep >= len(body):
            return text
        start, end = longest.span(2)
        return text[:start] + body[:keep].rstrip() + MARKER + text[end:]
    keep = max(4 * _MIN_KEEP, len(text) - excess - len(MARKER))
    return text[: keep // 2] + MARKER + text[len(text) - keep // 2 :]


__all__ = ["CHARS_PER_TOKEN", "MARKER", "fit", "prompt_tokens", "tokens"]
