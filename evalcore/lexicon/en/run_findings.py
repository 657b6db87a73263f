"""What a finished run's text says: the engine's own check details ("expected step 2 of 3",
"closest: ... at turn 4"), the notes the verifier writes, a judge's turn reference ("turn
3"), a criterion about asking again, and a simulated user who speaks as the assistant.

The check details are casegen's wording (evalcore/assertions writes them); they are read
back here to say which event and turn a failure rests on."""

from __future__ import annotations

import re

from .. import phrase

#: The skill an activation or completion check names.
SKILL_CHECKED = phrase(
    "en.run_findings.skill_checked",
    r"skill_(?:activated|completed) ([\w-]+)",
    matches=("expected skill_completed card_replace", "skill_activated lost-card: matched"),
    misses=("expected skill_cancelled card_replace",),
)
#: The event kind and subject an engine detail expects (`expected tool_executed x`).
DETAIL = phrase(
    "en.run_findings.detail",
    r"expected (?:no )?(tool_executed|bot message|memory_set|memory_cleared|skill_\w+|"
    r"ordered_block_\w+) ([\w./:-]+)",
    matches=(
        "expected tool_executed order_replacement (source local)",
        "expected no memory_set a.b",
    ),
    misses=("tool_executed order_replacement: matched",),
)
#: The turn a detail says the thing happened at ("... set to "x" at turn 4").
HAPPENED = phrase(
    "en.run_findings.happened",
    r"(?:sent .*?|set to .*?|it is,) at turn (\d+)",
    matches=('order.status set to "placed" at turn 4', 'expected "a"; it is, at turn 2'),
    misses=("never sent", "set to nothing"),
)
#: The turn and event of the step an out-of-order check came after.
AFTER_STEP = phrase(
    "en.run_findings.after_step",
    r"after step \d+ \(.*? at turn (\d+) \(event (\d+)\)\)",
    matches=("after step 2 (tool_executed lookup at turn 3 (event 7))",),
    misses=("after step 2", "before step 2 (lookup at turn 3 (event 7))"),
)
#: The turn of the closest (or first) event a failed check names.
CLOSEST = phrase(
    "en.run_findings.closest",
    r"(?:closest: .*?|first) at turn (\d+)",
    matches=("closest: tool_executed lookup at turn 4 (event 9): args differ", "first at turn 2"),
    misses=("no closest event", "first call"),
)
#: The step a sequence check expected ("expected step 2 of 3").
STEP_OF = phrase(
    "en.run_findings.step_of",
    r"expected step (\d+) of \d+",
    matches=("expected step 2 of 3 (tool_executed lookup)",),
    misses=("step 2 of 3 done",),
)
#: A turn named in words ("at turn 3", "turns 4").
WORD_TURN = phrase(
    "en.run_findings.word_turn",
    r"\bturns? (\d+)\b",
    re.I,
    matches=("At turn 3 the agent skipped it.", "Turns 4 and 5 repeat it."),
    misses=("It turns out fine.", "return 5"),
)
#: A turn a judge's reasoning names, as `[T3]` or in words.
TURN_REF = phrase(
    "en.run_findings.turn_ref",
    r"\[T(\d+)\]|\bturns? (\d+)\b",
    re.IGNORECASE,
    matches=("[T3] the agent skipped the check.", "in turn 4 it asked again"),
    misses=("It turns out fine.", "return 5"),
)
#: The event kind of the step a sequence check expected ("... (tool_executed ...").
SEQUENCE_STEP = phrase(
    "en.run_findings.sequence_step",
    r"expected step \d+ of \d+ \((\w+)",
    matches=("expected step 2 of 3 (tool_executed lookup)",),
    misses=("expected step 2 of 3",),
)
#: The id an assertion's detail names first (`expected tool_executed order_replacement`,
#: `tool_executed order_replacement: matched`).
DETAIL_SUBJECT = phrase(
    "en.run_findings.detail_subject",
    r"^(?:expected\s+)?[a-z_]+\s+([A-Za-z_][\w.:-]*?)(?=[\s:;,(]|$)",
    matches=("expected tool_executed order_replacement (source local)", "skill_completed x: ok"),
    misses=("Expected tool_executed x", "3 checks failed"),
)
#: What a verifier note is about: a skill file, a qualified memory key, a tool ("requires
#: of lookup_order").
NOTE_NAMES = phrase(
    "en.run_findings.note_names",
    r"skills/(\w+)/|\b(\w+)\.(\w+)\b|\b(?:when|requires of) (\w+)",
    matches=("skills/refund/SKILL.md: no step", "the requires of lookup_order"),
    misses=("no doubt here",),
)
#: A criterion that says the agent asked again.
REASK = phrase(
    "en.run_findings.reask",
    r"\b(twice|again|repeat|re-?ask)",
    re.I,
    matches=("The agent asks for the date twice.", "It re-asks the ZIP code."),
    misses=("The agent asks for the date once.",),
)
#: A simulated user's line that speaks as the assistant it tests.
USER_AS_ASSISTANT = phrase(
    "en.run_findings.user_as_assistant",
    r"\b(how (can|may) i (help|assist) you|as an ai\b|i('m| am) (an ai|an assistant|a virtual "
    r"assistant|a language model|the assistant)|is there anything else i can help)",
    re.I,
    matches=("Hello! How can I help you today?", "I'm an AI assistant."),
    misses=("Can you help me with my card?", "I am a nurse."),
)
#: A failing assertion's detail that expected `{event}` of `{subject}` (up to its first
#: `;`, where what the run recorded instead begins); `expected_event` fills both in.
_EXPECTED_EVENT = r"expected[^;]*{event} {subject}\b"
phrase(
    "en.run_findings.expected_event",
    _EXPECTED_EVENT.format(event="skill_completed", subject="refund"),
    matches=('"detail": "expected skill_completed refund (complete_when)"',),
    misses=("expected skill_activated refund; skill_completed refund at turn 3",),
)


def expected_event(event: str, subject: str) -> re.Pattern[str]:
    """The pattern for a detail that expected `event` (a regex) of `subject` (a regex)."""
    return re.compile(_EXPECTED_EVENT.format(event=event, subject=subject))
