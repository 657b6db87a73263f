"""How a judge's reason states a verdict outright (`evalcore.judge._consistency`): a bare
verdict word, a leading or trailing label, `verdict: x`, or "the criterion is (not) met".
A reason that merely uses the word ("the payment failed") states none."""

from __future__ import annotations

import re

from .. import phrase

#: The verdict words; group 1 of each labelled pattern below is one of them.
VERDICT_WORD = r"(pass(?:ed|es)?|fail(?:ed|s)?|inconclusive)"
#: Each verdict word's verdict.
VERDICT_OF = {
    "pass": "pass",
    "passed": "pass",
    "passes": "pass",
    "fail": "fail",
    "failed": "fail",
    "fails": "fail",
    "inconclusive": "inconclusive",
}

BARE = phrase(
    "en.verdict.bare",
    rf"^\W*(?:verdict\W*)?{VERDICT_WORD}\W*$",
    re.I,
    matches=("Pass", "**FAIL**", "Verdict: inconclusive."),
    misses=("The payment failed.", "Pass the salt"),
)
LEADING = phrase(
    "en.verdict.leading",
    rf"^\W*(?:verdict\s*(?:is|:|=)\s*)?{VERDICT_WORD}\s*(?:[:\-–—|.,;]|$)",
    re.I,
    matches=("Pass: the agent asked first.", "FAIL - it never confirmed"),
    misses=("Passed the check, the agent did", "Failing cards are replaced."),
)
TRAILING = phrase(
    "en.verdict.trailing",
    rf"(?:[:\-–—|→>=]|\bverdict\b(?:\s+is)?)\s*{VERDICT_WORD}\W*$",
    re.I,
    matches=("The agent confirmed first → PASS", "It asked twice, so the verdict is fail."),
    misses=("The card payment failed.", "The agent said it would pass"),
)
LABELLED = phrase(
    "en.verdict.labelled",
    rf"\bverdict\s*(?:is|:|=)\s*{VERDICT_WORD}\b",
    re.I,
    matches=("Overall the verdict is pass, since it confirmed.", "verdict=fail; no read-back"),
    misses=("No verdict yet: the payment failed.",),
)
NOT_MET = phrase(
    "en.verdict.not_met",
    r"\b(?:criterion|requirement|it)\s+(?:is|was|has)\s+not\s+(?:been\s+)?"
    r"(?:met|satisfied|fulfilled)\b",
    re.I,
    matches=("The criterion is not met: it never asked.", "It has not been satisfied."),
    misses=("The criterion is met.", "The limit was not reached."),
)
MET = phrase(
    "en.verdict.met",
    r"\b(?:criterion|requirement|it)\s+(?:is|was|has)\s+(?:been\s+)?(?:fully\s+)?"
    r"(?:met|satisfied|fulfilled)\b",
    re.I,
    matches=("The criterion is fully met.", "The requirement was satisfied."),
    misses=("The criterion is not met.", "We met at noon."),
)
