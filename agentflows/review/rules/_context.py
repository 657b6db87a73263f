"""`leaky-context`: the simulated user is told what only the agent (or the grader) knows.

A persona that names `utter_…` responses, tools or memory keys makes the simulated user say
things no customer says, and one that spells out what "the agent should" do hands the agent
its answer; either way the run stops testing the agent.
"""

from __future__ import annotations

from collections.abc import Iterator

from evalcore.lexicon.en.case_wording import OUTCOME

from .._views import CaseView, ReviewEnv
from .._vocab import internal_tokens
from ._registry import Hit, review_rule

#: Id kinds that are internals when a persona names them.
_INTERNAL = {"response", "memory", "tool", "skill", "block", "playbook", "field"}
_OUTCOME = OUTCOME


@review_rule(
    "leaky-context",
    severity="error",
    summary="The persona / simulation context names internals (responses, tools, memory "
    "keys; error) or spells out the expected outcome (warning).",
)
def leaky_context(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    for part in case.contexts:
        internals = [m.id for m in env.vocab.mentions(part.text) if m.kind in _INTERNAL]
        internals += [m.group(0) for m in internal_tokens(part.text)]
        if internals:
            names = ", ".join(dict.fromkeys(internals))
            yield Hit(
                part.path,
                f"the simulated user is told internals ({names}): no real user knows them, "
                "and they steer the run",
                suggestion="describe the situation in the user's words; keep ids in the assertions",
                value=names,
            )
        match = _OUTCOME.search(part.text)
        if match:
            yield Hit(
                part.path,
                f"the context spells out the expected outcome ('{match.group(0)}'): the "
                "simulated user may pass it on to the agent",
                suggestion="keep the persona to who the user is, what they want and know, and "
                "when to stop; put expectations in criteria and assertions",
                severity="warning",
                value=match.group(0),
            )


__all__: list[str] = []
