"""The offline simulator answers a fact-sheet context from its facts, not in script order."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from evalcore.definitions import load_project
from evalcore.runcase import SimulationSpec
from evalcore.simulator import (
    FactContext,
    SimulatorSettings,
    Utterance,
    is_fact_context,
    make_simulator,
    parse_fact_context,
)
from evalcore.simulator._facts import AGREE, CLOSING, DECLINE, RESUME_YES, UNKNOWN, first_person

CONTEXT = """\
You are Dana Okafor, a fleet manager at a courier firm, brisk and precise.
You want to file a claim for hail damage to one of your vans.
What you know (share each only when the agent asks):
- policy number: PL-20931
- what was damaged: van
- when it happened: 03/14/2026
When the agent reads the details back and asks you to confirm, agree.
When the agent asks whether there is anything else, say no.
Stop once the agent tells you the claim is filed.
"""


def simulator(context: str = CONTEXT, project=None):
    settings = SimulatorSettings(project=project)
    return make_simulator(SimulationSpec(context=context), dialect="mantle", settings=settings)


async def converse(sim, agent_lines: list[str]) -> list[tuple[str, bool]]:
    """Feed the agent's lines one per turn; (what the user said, done) per turn."""
    history: list[Utterance] = []
    out = []
    step = await sim.next_step(history)
    out.append((step.message, step.done))
    history.append(Utterance(1, "user", step.message))
    for turn, line in enumerate(agent_lines, start=1):
        history.append(Utterance(turn, "agent", line))
        step = await sim.next_step(history)
        out.append((step.message, step.done))
        if step.done:
            break
        history.append(Utterance(turn + 1, "user", step.message))
    return out


def test_the_grammar_round_trips():
    parsed = parse_fact_context(CONTEXT)
    assert is_fact_context(CONTEXT)
    assert parsed.persona.startswith("Dana Okafor, a fleet manager")
    assert parsed.intent == "want to file a claim for hail damage to one of my vans" or (
        parsed.intent == "want to file a claim for hail damage to one of your vans"
    )
    assert [f.label for f in parsed.facts] == [
        "policy number",
        "what was damaged",
        "when it happened",
    ]
    assert parsed.render() == CONTEXT


async def test_questions_are_answered_by_the_right_fact_in_any_order():
    said = await converse(
        simulator(),
        [
            "When did it happen?",
            "Which policy number is it under?",
            "And what was damaged?",
        ],
    )
    assert said[0] == ("Hi, I'd like to file a claim for hail damage to one of my vans.", False)
    assert [m for m, _ in said[1:]] == ["03/14/2026", "PL-20931", "van"]


async def test_a_confirmation_is_declined_when_the_context_says_so():
    context = CONTEXT.replace("confirm, agree.", "confirm, decline.")
    said = await converse(
        simulator(context),
        ["To confirm: a claim for your van on 03/14/2026. Shall I submit it?", "OK, I won't."],
    )
    assert said[1] == (DECLINE, False)
    assert said[2][1] is True  # nothing asked after the refusal: done
    agreed = await converse(simulator(), ["Shall I submit the claim?"])
    assert agreed[1] == (AGREE, False)


async def test_anything_else_closes_and_the_simulator_is_done():
    said = await converse(
        simulator(),
        ["Your claim C-1 is filed. Is there anything else I can help you with?", "Goodbye!"],
    )
    assert said[1] == (CLOSING, False)
    assert said[2][1] is True


async def test_an_unrecognised_question_is_not_answered_with_a_random_fact():
    sim = simulator()
    said = await converse(sim, ["What is your favourite colour?", "Which colour do you like?"])
    assert said[1] == (UNKNOWN, False)
    assert said[2] == ("", True)
    facts = {"PL-20931", "Van", "03/14/2026"}
    assert not any(f in m for m, _ in said[1:] for f in facts)


async def test_a_message_that_asks_nothing_ends_the_conversation():
    said = await converse(simulator(), ["Your claim is filed under C-1."])
    assert said[1][1] is True


async def test_quoted_lines_play_once_at_their_cue():
    context = CONTEXT.replace(
        "When the agent reads",
        'When the agent asks what was damaged the first time, say instead: "Is hail even '
        'covered?"\nWhen the agent reads',
    )
    said = await converse(
        simulator(context), ["What was damaged?", "Yes, hail is covered. What was damaged?"]
    )
    assert [m for m, _ in said[1:]] == ["Is hail even covered?", "van"]


async def test_several_facts_asked_at_once_are_given_together():
    context = CONTEXT.replace(
        "- policy number: PL-20931\n", "- date of birth: 2 July 1979\n- postcode: 60614\n"
    )
    said = await converse(simulator(context), ["What are your date of birth and postcode?"])
    assert said[1][0] == "My date of birth is 2 July 1979 and my postcode is 60614."


async def test_the_project_s_question_places_a_fact_labelled_by_its_field():
    bank = load_project(EXAMPLES / "bank")
    context = (
        "You are Marcus Kim, a student with a first current account, in a hurry.\n"
        "You want to replace a card.\n"
        "What you know (share each only when the agent asks):\n- replacement reason: lost\n"
    )
    asked = ["What happened to the card?"]
    assert (await converse(simulator(context), asked))[1] == (UNKNOWN, False)
    assert (await converse(simulator(context, bank), asked))[1] == ("lost", False)


async def test_numbered_quoted_steps_still_replay_in_order():
    sim = simulator('You are Sam.\n1. Say: "hello"\n2. Then say: "bye"')
    said = await converse(sim, ["Anything else?", "Anything else?"])
    assert [m for m, _ in said] == ["hello", "bye", ""]


def test_render_writes_the_documented_lines():
    text = FactContext(
        persona="Sam Lee, a tenant in a two-bedroom flat, polite and to the point",
        intent="want to report a leak",
        confirm="decline",
        until="the agent gives you a reference",
    ).render()
    assert text.splitlines() == [
        "You are Sam Lee, a tenant in a two-bedroom flat, polite and to the point.",
        "You want to report a leak.",
        "When the agent reads the details back and asks you to confirm, decline.",
        "Stop once the agent gives you a reference.",
    ]


@pytest.mark.parametrize("context", ["Be nice.", "You are Sam. Be nice."])
def test_a_context_with_nothing_to_play_errors_clearly(context):
    from evalcore.simulator import SimulationError

    with pytest.raises(SimulationError, match="quoted user lines"):
        simulator(context)


async def test_a_choice_ending_in_something_else_is_not_a_closing_question():
    context = CONTEXT.replace("- policy number: PL-20931\n", "- kind of expense: team meal\n")
    said = await converse(
        simulator(context), ["Is this a kind of expense like a client dinner or something else?"]
    )
    assert said[1] == ("team meal", False)


async def test_a_request_without_a_question_mark_is_still_a_question():
    context = CONTEXT.replace("- what was damaged: van\n", "- what's going on: the roof leaks\n")
    said = await converse(simulator(context), ["Tell me what's going on and where."])
    assert said[1] == ("the roof leaks", False)


async def test_a_short_project_question_places_its_field_word_for_word(tmp_path):
    from evalcore.simulator._facts import FactSimulator

    sim = FactSimulator(
        parse_fact_context(
            CONTEXT.replace("- policy number: PL-20931\n", "- destination city: Lyon\n")
        ),
        questions={"destination city": ["Where to?"]},
    )
    said = await converse(sim, ["Where to?"])
    assert said[1] == ("Lyon", False)


async def test_a_choice_question_is_answered_by_the_fact_whose_value_it_names():
    sim = simulator()
    said = await converse(sim, ["Got it. Was it a van or a car?"])
    assert said[1] == ("van", False)


async def test_a_choice_question_naming_no_fact_value_stays_unplaced():
    sim = simulator()
    said = await converse(sim, ["Got it. Was it a boat or a bicycle?"])
    assert said[1][0] == UNKNOWN


BANK_PROJECT = load_project(EXAMPLES / "bank")

DECLINING = """\
You are Marcus, a customer who lost his card.
You want to replace a card.
What you know (share each only when the agent asks):
- why it needs replacing: lost
When the agent reads the details back and asks you to confirm, decline.
"""


async def test_decline_is_for_the_projects_own_confirmation_not_a_details_check():
    sim = simulator(DECLINING, project=BANK_PROJECT)
    readback = "To confirm, I have read the details back to you. Is that all correct?"
    gate = BANK_PROJECT.mantle.all_responses()["utter_confirm_order"].variants[0].text
    said = await converse(sim, [readback, gate])
    assert [m for m, _ in said[1:]] == [AGREE, DECLINE]
    # without a project (no gated read-backs known) the first confirmation is declined
    plain = await converse(simulator(DECLINING), [readback])
    assert plain[1][0] == DECLINE


CUED = (
    "You are Priya, in a hurry.\nYou want to replace a card.\n"
    "When the agent asks why the card needs replacing (the replacement reason), "
    'say instead: "Actually, can I talk to a person?"\n'
)


async def test_a_cue_naming_a_field_matches_the_projects_question_for_it():
    sim = simulator(CUED, project=BANK_PROJECT)
    asked = BANK_PROJECT.mantle.all_responses()["utter_ask_replacement_reason"].variants[0].text
    said = await converse(sim, [asked])
    assert said[1][0] == "Actually, can I talk to a person?"


DEFECT = """\
You are Dana Okafor, a truck driver, brisk and precise.
You want to log a defect.
What you know (share each only when the agent asks):
- what is the defect on: brakes
- defect notes: The defect is a cracked brake light.
Stop once the agent has told you the outcome and asks nothing more.
"""


async def test_a_label_the_question_says_word_for_word_wins_over_shared_words():
    # "defect notes" shares "defect" with the question, and its value says "brake": the
    # label the question says in full is the one it asks for
    said = await converse(simulator(DEFECT), ["What is the defect on?"])
    assert said[1] == ("brakes", False)


async def test_a_request_that_opens_with_its_verb_is_a_question():
    said = await converse(simulator(DEFECT), ["Describe the defect notes in a sentence."])
    assert said[1] == ("The defect is a cracked brake light.", False)


POISONING = """\
You are Kwame Moyo, a pet owner, patient but tired.
You want help with an emergency.
What you know (share each only when the agent asks):
- what kind of animal is it: dog
- substance: chocolate
- weight kg: 12
Stop once the agent has told you the outcome and asks nothing more.
"""


async def test_at_equal_scores_the_fact_whose_whole_label_is_said_wins():
    # "animal" is half of the first fact's label, "substance" the whole of the second's:
    # the question asks for the substance, mentioning the animal on the way
    asked = "Could you tell me what the animal ate and when (the substance)?"
    said = await converse(simulator(POISONING), [asked])
    assert said[1] == ("chocolate", False)


HANDOFF = """\
You are Kenji, a policyholder.
You want to ask for a person.
When the agent reads the details back and asks you to confirm, agree.
Stop once the agent says it is passing you to someone.
"""


async def test_an_offer_to_hand_over_is_answered_before_the_hand_over_ends_it():
    """ "Shall I connect you to a specialist?" is a confirmation the hand-off waits for, not
    the hand-off: stopping there left every hand-off case of a gated hand-off unplayable."""
    said = await converse(
        simulator(HANDOFF),
        ["Shall I connect you to a human specialist now?", "I'm connecting you to a colleague."],
    )
    assert said[1] == (AGREE, False)
    assert said[2][1] is True


OFF_TOPIC = CONTEXT.replace(
    "When the agent reads",
    'When the agent asks for the policy number the first time, say instead: "Do you know a '
    'good lasagne recipe?", then answer it.\nWhen the agent reads',
)


async def test_an_off_topic_line_is_followed_by_the_answer_unasked():
    """The agent declines the off-topic question and waits: the user comes back to the
    question it interrupted instead of ending the conversation."""
    assert parse_fact_context(OFF_TOPIC).render() == OFF_TOPIC
    said = await converse(
        simulator(OFF_TOPIC),
        ["What's your policy number?", "I can only help with insurance.", "What was damaged?"],
    )
    assert [m for m, _ in said[1:]] == ["Do you know a good lasagne recipe?", "PL-20931", "van"]


DETOUR = CONTEXT.replace(
    "When the agent reads",
    'When the agent asks what was damaged the first time, say instead: "Before that, what '
    'policies do I have?"\nWhen the agent reads',
).replace(
    "When the agent asks whether there is anything else, say no.",
    "When the agent offers to go back to your request to file a claim, say yes; if it asks "
    "whether there is anything else before that, or stops without a word about it, say no "
    "and ask to go back to it.\n"
    "When the agent asks whether there is anything else, say no.",
)


async def test_after_a_digression_anything_else_asks_to_go_back_not_to_stop():
    assert parse_fact_context(DETOUR).render() == DETOUR
    said = await converse(
        simulator(DETOUR),
        [
            "What was damaged?",
            "You hold a van policy. Is there anything else I can help with?",
            "What was damaged?",
            "Filed. Anything else?",
        ],
    )
    assert [m for m, _ in said[1:]] == [
        "Before that, what policies do I have?",
        "No, thanks. Can we go back to my request to file a claim?",
        "van",
        CLOSING,
    ]


async def test_after_a_digression_a_turn_that_asks_nothing_asks_to_go_back_not_to_stop():
    # the detour's skill tells its outcome and waits: without a word about the task, the
    # user asks for it rather than ending the conversation with it undone
    said = await converse(
        simulator(DETOUR),
        ["What was damaged?", "You hold a van policy.", "What was damaged?"],
    )
    assert [m for m, _ in said[1:]] == [
        "Before that, what policies do I have?",
        "Thanks. Can we go back to my request to file a claim?",
        "van",
    ]


async def test_after_a_digression_an_offer_to_go_back_is_taken():
    said = await converse(
        simulator(DETOUR),
        ["What was damaged?", "You hold a van policy. Shall we go back to your claim?"],
    )
    assert said[-1] == (RESUME_YES, False)


@pytest.mark.parametrize(
    ("said", "own"),
    [
        ("want to check your balance", "want to check my balance"),
        ("want to know what policies you have", "want to know what policies I have"),
        ("give you your card", "give me my card"),
        ("where you are now", "where I am now"),
    ],
)
def test_first_person_makes_a_you_that_does_something_i(said: str, own: str) -> None:
    assert first_person(said) == own


CORRECTED = CONTEXT.replace(
    "When the agent reads",
    'When the agent asks what was damaged, say instead: "The trailer."\n'
    'When the agent next speaks after you say "The trailer.", say: "Sorry, I meant the van."\n'
    "When the agent reads",
)


def test_a_follow_up_line_round_trips():
    parsed = parse_fact_context(CORRECTED)
    assert [(f.after, f.line) for f in parsed.follow_ups] == [
        ("The trailer.", "Sorry, I meant the van.")
    ]
    assert parsed.render() == CORRECTED


async def test_a_correction_comes_on_the_agents_next_turn_whatever_it_says():
    said = await converse(
        simulator(CORRECTED),
        [
            "What was damaged?",
            "Got it, the trailer. When did it happen?",
            "Thanks. When did it happen?",
            "And what was damaged?",
        ],
    )
    # the wrong answer is taken first; the fix comes instead of the next answer, once
    assert [m for m, _ in said[1:]] == [
        "The trailer.",
        "Sorry, I meant the van.",
        "03/14/2026",
        "van",
    ]
