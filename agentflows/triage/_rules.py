"""The deterministic triage rules: one bucket, the turn that broke, evidence and a fix.

Rules run in this order and the first that applies decides (docs/review-workflow.md,
"Failure triage", explains each with examples):

1. **Tool**: a tool ran with `is_error: true` (the judge ledger's `ERROR`) and the case did
   not expect that error. A broken tool explains everything after it, and no model may
   override this.
2. **Scenario**, the case contradicts the definitions: its assertions or setup do not lint
   clean against the project's real ids.
3. **Scenario**, `initial_slots` skipped a step: the failed check is about a step the agent
   skips when a memory key is already set, and the case pre-fills that key.
4. **Scenario**, the simulated user broke character (the simulator errored, or a user line
   reads like the agent), or never said what it wanted before the agent had to route it
   (only greetings and filler, and the expected skill never started), or, played offline,
   had no answer to what the agent asked ("Sorry, I don't know that": the persona holds no
   such fact; only a model can play free prose without facts).
5. **Instruction**, a gated tool ran without its confirmation: the ledger shows a tool whose
   `tool_constraints` require confirmation running without the confirmation question asked
   before it. The checks that failed after it follow from this one defect.
6. **Skill**: the expected skill never activated, a different skill took the user's request
   first, or another skill took over from it without the skill handing over.
7. **Scenario**, the simulated user went off-script: the conversation ended while the agent
   was waiting for an answer and scripted lines were never said (or, unscripted, the judge
   could not decide a criterion).
8. **Tool**: a failed check names a tool whose result reports an error (`ok (reports error)`).
9. **Instruction**: the right skill ran but skipped or reordered a step, asked twice, passed
   the wrong value, said the wrong response, or broke a criterion about its behaviour.
"""

from __future__ import annotations

from collections.abc import Callable

from ._diagnosis import BUCKETS, Bucket, Diagnosis, Evidence, check_evidence
from ._facts import Facts
from ._rules_agent import instruction, skill_routing, tool_error, tool_reports_error
from ._rules_gates import confirmation_skipped
from ._rules_scenario import (
    case_contradicts_definitions,
    initial_slots_skip,
    simulator_lacks_fact,
    simulator_no_request,
    simulator_off_script,
    simulator_out_of_role,
)

Rule = Callable[[Facts], Diagnosis | None]

#: In the order of the module docstring; `instruction` always applies.
RULES: tuple[Rule, ...] = (
    tool_error,
    case_contradicts_definitions,
    initial_slots_skip,
    simulator_out_of_role,
    simulator_no_request,
    simulator_lacks_fact,
    confirmation_skipped,
    skill_routing,
    simulator_off_script,
    tool_reports_error,
    instruction,
)


_CASE_TITLES = {
    "case-contradicts-definitions": "the case {slug} contradicts the project's definitions",
    "initial-slots-skip": "the case {slug} pre-fills what it checks",
    "simulator-error": "the simulated user of {slug} could not go on",
    "simulator-out-of-role": "the simulated user of {slug} breaks character",
    "simulator-no-request": "the simulated user of {slug} never says what it wants",
    "simulator-lacks-fact": "the simulated user of {slug} has no answer to the agent's question",
    "simulator-off-script": "the simulated user of {slug} stops before the script ends",
}


def diagnose(facts: Facts) -> Diagnosis:
    """The first rule that applies (Instruction always does)."""
    for rule in RULES:
        found = rule(facts)
        if found is not None:
            used = {e.text for e in found.evidence}
            found.notes = [e for e in check_evidence(facts) if e.text not in used]
            if not found.cause:  # a case's own problem: one cause per case
                found.cause = (found.rule, facts.record.slug)
                found.title = _CASE_TITLES.get(found.rule, "{slug}: " + found.rule).format(
                    slug=facts.record.slug
                )
            return found
    raise AssertionError("the instruction rule always applies")


__all__ = ["BUCKETS", "RULES", "Bucket", "Diagnosis", "Evidence", "diagnose"]
