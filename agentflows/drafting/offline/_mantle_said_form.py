"""A prose rule that asks for a number in words, where the runtime's own response gives it.

"Share claim number one two three four five in spoken form." next to an `on_success`
response "I have submitted your claim number 12345.": the runtime sends that response
whatever the model says, so a correct agent may leave the number as the response gives it,
or say it again in words. A criterion that demands the words alone fails such an agent; it
accepts either form here.
"""

from __future__ import annotations

from collections.abc import Iterable

from evalcore.lexicon.en.word_classes import DIGIT_WORDS

#: Digit words a rule spells a number with, one digit each ("one two three four five").
_DIGITS = {w: str(i) for i, w in enumerate(DIGIT_WORDS)}


def spelled_numbers(text: str) -> list[tuple[str, str]]:
    """Each run of two or more digit words in `text`: (the words as written, the digits)."""
    out: list[tuple[str, str]] = []
    run: list[str] = []
    for word in [*text.split(), ""]:
        bare = word.strip(".,;:!?()\"'").lower()
        if bare in _DIGITS:
            run.append(word.strip(".,;:!?()\"'"))
            continue
        if len(run) >= 2:
            out.append((" ".join(run), "".join(_DIGITS[w.lower()] for w in run)))
        run = []
    return out


def either_form(rule: str, replies: Iterable[str]) -> str:
    """`rule` accepting the digits too, where a reply the runtime sends on the path (its
    text) states a number the rule spells in words; else `rule` unchanged. The reply is
    not named: a criterion naming a response reads as a lookup against events."""
    for _, digits in spelled_numbers(rule):
        for text in replies:
            if digits in "".join(c if c.isdigit() else " " for c in text).split():
                return (
                    f"{rule} (or as {digits}, the form a reply the project sends on the way "
                    "gives it in: either form is fine)"
                )
    return rule


__all__ = ["either_form", "spelled_numbers"]
