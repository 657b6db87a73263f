"""`python:module:function` and `python:module:Class`: the JSON protocol in process."""

from __future__ import annotations

from pathlib import Path

import pytest
import scripted_agent

from evalcore.agents import UserTurn, parse_target
from evalcore.agents._errors import AgentError, AgentProtocolError
from evalcore.errors import UserError
from evalcore.runner import RunCase

CASE = RunCase(
    slug="book-cleaning",
    name="Book",
    dialect="anychat",
    path="cases/book.json",
    setup={"scenario": {"channel": "sms"}},
)


async def _run(spec: str, turns: list[UserTurn]):
    target = parse_target(spec)
    session = await target.open(CASE, 2)
    replies = [await session.send(UserTurn(type="start", setup=CASE.setup))]
    replies += [await session.send(t) for t in turns]
    return session, replies, await session.close()


@pytest.mark.parametrize("function", ["handle", "handle_async"])
async def test_function_agent_gets_protocol_requests(function: str) -> None:
    scripted_agent.CALLS.clear()
    session, replies, final = await _run(
        f"python:scripted_agent:{function}",
        [
            UserTurn(type="text", text="I want to book a cleaning"),
            UserTurn(type="slot", slot=0, fallback="first"),
        ],
    )
    first = scripted_agent.CALLS[0]
    assert first == {
        "session": session.session_id,
        "case": "book-cleaning",
        "run": 2,
        "turn": {"type": "start", "setup": {"scenario": {"channel": "sms"}}},
    }
    assert scripted_agent.CALLS[2]["turn"] == {"type": "slot", "slot": 0, "fallback": "first"}
    assert scripted_agent.CALLS[-1] == {
        "session": session.session_id,
        "case": "book-cleaning",
        "run": 2,
        "close": True,
    }
    assert replies[0].messages == []  # None is an empty reply
    assert replies[1].messages[0].parts[1]["type"] == "ask.time"
    assert replies[1].events[0] == {"event": "playbook_switched", "from": "general", "to": "book"}
    assert final.state["outcomes"] == ["booked"]
    assert final.meta == {"conversation_id": session.session_id, "turns": 2}


async def test_class_agent_gets_one_instance_per_session() -> None:
    before = scripted_agent.Agent.instances
    _, _, final_a = await _run("python:scripted_agent:Agent", [UserTurn(type="text", text="a")])
    _, replies_b, final_b = await _run(
        "python:scripted_agent:Agent",
        [UserTurn(type="text", text="b"), UserTurn(type="text", text="c")],
    )
    assert scripted_agent.Agent.instances == before + 2
    assert final_a.state == {"turns": ["a"]}
    assert final_b.state == {"turns": ["b", "c"]}
    assert [m.text for r in replies_b for m in r.messages] == ["Hi!", "#1", "#2"]


async def test_agent_loaded_from_a_file_path() -> None:
    path = Path(scripted_agent.__file__)
    _, replies, _ = await _run(f"python:{path}:Agent", [UserTurn(type="text", text="x")])
    assert replies[1].messages[0].text == "#1"


async def test_empty_close_state_falls_back_to_the_last_reply_state() -> None:
    async def agent(request):
        if request.get("close"):
            return {}
        return {"messages": [], "state": {"activePlaybook": "book"}}

    from evalcore.agents._python import PythonSession

    session = PythonSession(agent, "inline", "c", 1)
    await session.send(UserTurn(type="start"))
    final = await session.close()
    assert final.state == {"activePlaybook": "book"}


async def test_agent_exception_makes_the_run_error() -> None:
    target = parse_target("python:scripted_agent:broken")
    session = await target.open(CASE, 1)
    with pytest.raises(AgentError, match="RuntimeError: database is down"):
        await session.send(UserTurn(type="start"))


@pytest.mark.parametrize(
    ("function", "message"),
    [
        ("wrong_shape", "expected an AgentReply object, got list"),
        ("bad_message", r"not an AgentReply \(messages.0.text: "),
    ],
)
async def test_bad_replies_are_protocol_errors(function: str, message: str) -> None:
    target = parse_target(f"python:scripted_agent:{function}")
    session = await target.open(CASE, 1)
    with pytest.raises(AgentProtocolError, match=message):
        await session.send(UserTurn(type="start"))


@pytest.mark.parametrize(
    ("spec", "message", "hint"),
    [
        ("python:scripted_agent", "python:module:function", None),
        ("python:no_such_module:handle", "no module named 'no_such_module'", None),
        ("python:scripted_agent:handel", "has no attribute 'handel'", "did you mean 'handle'"),
        ("python:scripted_agent:NOT_CALLABLE", "is not callable", None),
        ("python:missing/agent.py:handle", "no such file", None),
    ],
)
def test_python_spec_errors(spec: str, message: str, hint: str | None) -> None:
    with pytest.raises(UserError, match=message) as info:
        parse_target(spec)
    if hint:
        assert hint in (info.value.hint or "")
