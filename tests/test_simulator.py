"""Simulated users: the quoted-line rule, the offline engine, the model-backed engine."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr

from evalcore.llm import ModelConfig
from evalcore.runner import SimulationSpec
from evalcore.runner.testing import ScriptedChatModel, answers
from evalcore.simulator import (
    NO_LINES,
    LLMSimulator,
    OfflineSimulator,
    SimulationError,
    SimulatorSettings,
    Utterance,
    make_simulator,
    quoted_lines,
    quoted_user_lines,
)

# --- the quoted-line rule -----------------------------------------------------------------

QUOTED = [
    pytest.param('1. Say "hi"\n2. Say "bye"', ["hi", "bye"], id="line-start steps"),
    pytest.param("1. Say “hi”\n2. Say “bye”", ["hi", "bye"], id="curly quotes"),
    pytest.param('1. Say “curly” then "straight"', ["curly", "straight"], id="mixed, in order"),
    pytest.param(
        'You are Ann. Your "nickname" is Annie.\n1. Say "hello"',
        ["hello"],
        id="quotes before the steps are persona, not lines",
    ),
    pytest.param(
        '1. Say "a"\n2. Wait for the summary.\n3. Say "b"',
        ["a", "b"],
        id="a step without a quote plays nothing",
    ),
    pytest.param(
        '1. Say "first line\n   wrapped"',
        ["first line wrapped"],
        id="a quote across a line break is one line",
    ),
    pytest.param(
        '1. Say "a"\n\nIf the agent says "goodbye", stop.', ["a"], id="a blank line ends the steps"
    ),
    pytest.param(
        'Follow these steps: 1. Say: "Hi" 2. When asked, say: "2 July 1979" 3. Stop.',
        ["Hi", "2 July 1979"],
        id="folded scalar: steps mid-line",
    ),
    pytest.param(
        'Floor 3. Then 1. Say "x" 2. Say "y"',
        ["x", "y"],
        id="folded: a stray number before 1. is text",
    ),
    pytest.param('1. Say ""\n2. Say "ok"', ["ok"], id="empty quotes are skipped"),
    pytest.param("Ask to replace the card. Say it is damaged.", [], id="no numbered steps"),
    pytest.param('Say "hello" and then "bye".', [], id="quotes outside numbered steps"),
    pytest.param("1. Ask about the balance.\n2. Thank the agent.", [], id="steps without quotes"),
]


@pytest.mark.parametrize(("context", "expected"), QUOTED)
def test_quoted_user_lines(context: str, expected: list[str]) -> None:
    assert quoted_user_lines(context) == expected


def test_quoted_lines_keep_their_step_numbers() -> None:
    lines = quoted_lines('1. Say "a"\n2. Wait.\n3. Say "b" and "c"')
    assert [(line.step, line.text) for line in lines] == [(1, "a"), (3, "b"), (3, "c")]


def test_bank_example_contexts() -> None:
    """The folded (`>-`) contexts of examples/bank play their quoted steps."""
    import yaml
    from conftest import EXAMPLES

    path = EXAMPLES / "bank" / "eval" / "scenarios" / "check_balance_savings_happy.yml"
    context = yaml.safe_load(path.read_text("utf-8"))["scenario"]["simulation_context"]
    assert quoted_user_lines(context) == [
        "How much do I have in my savings account?",
        "30 November 1992, postcode 73301",
        "Great, thanks",
    ]


# --- the offline engine -------------------------------------------------------------------


async def test_offline_plays_lines_then_is_done() -> None:
    spec = SimulationSpec(context='1. Say "a"\n2. Say "b"')
    sim = make_simulator(spec, dialect="mantle", settings=SimulatorSettings())
    assert isinstance(sim, OfflineSimulator) and sim.engine == "offline"
    steps = [await sim.next_step([]) for _ in range(3)]
    assert [(s.message, s.done) for s in steps] == [("a", False), ("b", False), ("", True)]
    assert sim.usage.calls == 0


def test_offline_without_quoted_lines_or_a_request_is_an_error() -> None:
    spec = SimulationSpec(context="You are calm. Be polite throughout.")
    with pytest.raises(SimulationError, match=NO_LINES) as caught:
        make_simulator(spec, dialect="mantle", settings=SimulatorSettings())
    assert "numbered steps" in (caught.value.hint or "")


async def test_offline_plays_a_free_prose_persona_from_the_facts_it_gives() -> None:
    spec = SimulationSpec(
        context=(
            "You are a calm customer whose card has a cracked chip. Ask to replace the card. "
            "When the agent asks what happened, say it is damaged. Confirm when the order "
            "summary is read back. Do not bring up anything else."
        )
    )
    sim = make_simulator(spec, dialect="mantle", settings=SimulatorSettings())
    first = await sim.next_step([])
    assert "replace the card" in first.message.lower()
    history = [
        Utterance(1, "user", first.message),
        Utterance(1, "agent", "What happened to the card?"),
    ]
    assert (await sim.next_step(history)).message.lower().startswith("damaged")
    history += [
        Utterance(2, "user", "damaged"),
        Utterance(2, "agent", "Shall I place the order?"),
    ]
    assert (await sim.next_step(history)).message.startswith("Yes")


async def test_offline_anychat_plays_goal_steps_first() -> None:
    spec = SimulationSpec(
        goal='1. Say "Dana Reyes"\n2. Say "Delta Dental"', knows=["Your name is Dana."]
    )
    sim = make_simulator(spec, dialect="anychat", settings=SimulatorSettings())
    assert (await sim.next_step([])).message == "Dana Reyes"
    assert "goal" in sim.source


async def test_offline_anychat_falls_back_to_knows_items() -> None:
    spec = SimulationSpec(
        goal="Finish the booking.",
        knows=["Your full name is Dana Reyes.", " ", "Your insurance is Delta."],
    )
    sim = make_simulator(spec, dialect="anychat", settings=SimulatorSettings())
    played = [(await sim.next_step([])).message for _ in range(2)]
    assert played == ["Your full name is Dana Reyes.", "Your insurance is Delta."]
    assert (await sim.next_step([])).done
    assert "knows" in sim.source


def test_offline_anychat_with_nothing_to_play_is_an_error() -> None:
    spec = SimulationSpec(goal="Finish the booking.")
    with pytest.raises(SimulationError, match=NO_LINES):
        make_simulator(spec, dialect="anychat", settings=SimulatorSettings())


# --- the model-backed engine --------------------------------------------------------------


def config(**overrides: Any) -> ModelConfig:
    values: dict[str, Any] = {
        "model": "sim-model",
        "api_key": SecretStr("k"),
        "max_retries": 1,
        "retry_base_delay_s": 0.001,
        "structured_output": "function_calling",
    }
    return ModelConfig(**(values | overrides))


def llm(
    *items: Any, dialect: str = "mantle", spec: SimulationSpec | None = None
) -> tuple[LLMSimulator, ScriptedChatModel]:
    chat = ScriptedChatModel(answer=answers(*items))
    settings = SimulatorSettings(model=config(), chat=chat)
    spec = spec or SimulationSpec(context="You are Priya. Your card was stolen.")
    sim = make_simulator(spec, dialect=dialect, settings=settings)
    assert isinstance(sim, LLMSimulator)
    return sim, chat


HISTORY = [Utterance(0, "agent", "Hi, how can I help?")]


async def test_llm_message_and_done() -> None:
    sim, chat = llm(
        {"message": "My card was stolen.", "done": False}, {"message": "", "done": True}
    )
    first = await sim.next_step(HISTORY)
    assert (first.message, first.done) == ("My card was stolen.", False)
    assert (await sim.next_step(HISTORY)).done
    assert sim.usage.calls == 2 and sim.usage.input_tokens == 100
    prompt = "\n".join(str(m.content) for m in chat.calls[0])
    assert "You are Priya. Your card was stolen." in prompt
    assert "agent: Hi, how can I help?" in prompt


async def test_llm_anychat_prompt_has_goal_persona_knows_until() -> None:
    spec = SimulationSpec(
        context="A new patient books.",
        goal="Book a cleaning",
        persona="Dana, rushed",
        knows=["Name: Dana Reyes"],
        until="The booking is confirmed",
        max_turns=4,
    )
    sim, chat = llm({"message": "Hi", "done": False}, dialect="anychat", spec=spec)
    await sim.next_step([])
    prompt = "\n".join(str(m.content) for m in chat.calls[0])
    for part in (
        "Book a cleaning",
        "Dana, rushed",
        "- Name: Dana Reyes",
        "The booking is confirmed",
        "A new patient books.",
        "you write the first",
    ):
        assert part in prompt


async def test_empty_message_is_retried_once_with_the_reason() -> None:
    sim, chat = llm({"message": "  ", "done": False}, {"message": "It was stolen.", "done": False})
    step = await sim.next_step(HISTORY)
    assert step.message == "It was stolen." and step.note and "retried" in step.note
    retry = "\n".join(str(m.content) for m in chat.calls[1])
    assert "cannot be sent: the message was empty" in retry


async def test_empty_message_twice_errors_with_a_clear_reason() -> None:
    sim, _ = llm({"message": "", "done": False}, {"message": "", "done": False})
    with pytest.raises(
        SimulationError, match="no usable message after one retry: the message was empty"
    ):
        await sim.next_step(HISTORY)


@pytest.mark.parametrize(
    "message",
    [
        "Agent: How can I help you today?",
        "As an AI, I cannot share my card number.",
        "How can I assist you with your card?",
        "Hi, how can I help?",  # repeats the agent
    ],
)
async def test_out_of_role_messages_are_retried(message: str) -> None:
    sim, _ = llm({"message": message, "done": False}, {"message": "My card.", "done": False})
    assert (await sim.next_step(HISTORY)).message == "My card."


async def test_done_with_a_message_does_not_count_as_empty() -> None:
    sim, chat = llm({"message": "Thanks, bye!", "done": True})
    step = await sim.next_step(HISTORY)
    assert step.done and len(chat.calls) == 1


def test_base44_cannot_be_simulated_by_a_model() -> None:
    chat = ScriptedChatModel(answer=answers())
    with pytest.raises(SimulationError, match="no simulator prompt for base44"):
        make_simulator(
            SimulationSpec(context="x"),
            dialect="base44",
            settings=SimulatorSettings(model=config(), chat=chat),
        )
