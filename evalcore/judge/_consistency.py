"""A judge answer whose reason says the opposite of its verdict is not a verdict.

Small models fill the schema's two fields independently: `{"verdict": "fail", "reason":
"Pass"}` or `{"verdict": "pass", "reason": "The criterion is not met: …"}`. Keeping either
verdict would report a guess as a judgement, so such an answer counts as `inconclusive` and
says why. Only a reason that *states* a verdict is compared (a bare verdict word, a leading
or trailing `Pass:` / `… → FAIL` label, `verdict: x`, or "the criterion is (not) met");
a reason that merely uses the word ("the payment failed") is left alone.
"""

from __future__ import annotations

from ..lexicon.en import verdicts as en
from ._types import JudgedVerdict


def stated_verdicts(reason: str) -> set[JudgedVerdict]:
    """The verdicts a reason states outright (empty when it states none; two when it
    contradicts itself, as in "fail | Pass")."""
    text = " ".join(reason.split())
    found: set[JudgedVerdict] = set()
    if not text:
        return found
    for pattern in (en.BARE, en.LABELLED, en.LEADING, en.TRAILING):
        match = pattern.search(text)
        if match:
            found.add(en.VERDICT_OF[match.group(1).lower()])  # type: ignore[arg-type]
    if not found:
        not_met, met = bool(en.NOT_MET.search(text)), bool(en.MET.search(text))
        if not_met != met:
            found.add("fail" if not_met else "pass")
    return found


def contradiction(verdict: JudgedVerdict, reason: str) -> str | None:
    """Why `verdict` and `reason` disagree (for the inconclusive reason), or None."""
    stated = stated_verdicts(reason)
    if not stated or stated == {verdict}:
        return None
    shown = " ".join(reason.split())
    if len(shown) > 160:
        shown = shown[:159] + "…"
    return f"the judge's reason contradicts its verdict {verdict!r}: “{shown}”"


__all__ = ["contradiction", "stated_verdicts"]
