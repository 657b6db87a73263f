"""`http:URL` against a loopback JSON agent: the protocol on the wire, close, failures."""

from __future__ import annotations

import pytest
import scripted_agent
from fake_rasa import Answer, JsonServer, Recorded, closed_port_url

from evalcore.agents import FinalRecord, UserTurn, parse_target
from evalcore.agents._errors import AgentProtocolError, AgentTimeout, AgentUnavailable
from evalcore.runner import RunCase

CASE = RunCase(
    slug="visit-reminder",
    name="Reminder",
    dialect="anychat",
    path="cases/visit.json",
    setup={"scenario": {"start": {"inbound": True}}},
)


def _agent(req: Recorded) -> Answer:
    assert req.method == "POST" and req.path == "/agent"
    return Answer(body=scripted_agent.handle(req.body))


async def test_protocol_requests_replies_and_close() -> None:
    with JsonServer(_agent) as server:
        target = parse_target(f"http:{server.url}/agent")
        session = await target.open(CASE, 3)
        start = await session.send(UserTurn(type="start", setup=CASE.setup))
        booked = await session.send(UserTurn(type="text", text="book a cleaning"))
        slot = await session.send(UserTurn(type="slot", slot=0, fallback="first one"))
        final = await session.close()

    sid = session.session_id
    assert sid.startswith("cg-")
    assert [r.body for r in server.requests] == [
        {
            "session": sid,
            "case": "visit-reminder",
            "run": 3,
            "turn": {"type": "start", "setup": {"scenario": {"start": {"inbound": True}}}},
        },
        {
            "session": sid,
            "case": "visit-reminder",
            "run": 3,
            "turn": {"type": "text", "text": "book a cleaning"},
        },
        {
            "session": sid,
            "case": "visit-reminder",
            "run": 3,
            "turn": {"type": "slot", "slot": 0, "fallback": "first one"},
        },
        {"session": sid, "case": "visit-reminder", "run": 3, "close": True},
    ]
    assert start.messages == []  # an empty body is an empty reply
    assert booked.state["activePlaybook"] == "book"
    assert [e["event"] for e in booked.events] == ["playbook_switched", "tool_called"]
    assert slot.messages[0].text == "Booked for Tuesday 10:30."
    assert isinstance(final, FinalRecord)
    assert final.state["outcomes"] == ["booked"]
    assert final.meta["conversation_id"] == sid
    assert final.events is None


async def test_sessions_are_separate_per_run() -> None:
    with JsonServer(_agent) as server:
        target = parse_target(f"http:{server.url}/agent")
        a = await target.open(CASE, 1)
        b = await target.open(CASE, 2)
        for session in (a, b):
            await session.send(UserTurn(type="start"))
        await a.send(UserTurn(type="text", text="book"))
        final_a, final_b = await a.close(), await b.close()
    assert a.session_id != b.session_id
    assert final_a.state["activePlaybook"] == "book"
    assert final_b.state["activePlaybook"] == "general"


async def test_unreachable_agent_is_unavailable() -> None:
    target = parse_target(f"http:{closed_port_url()}/agent", timeout_s=2)
    session = await target.open(CASE, 1)
    with pytest.raises(AgentUnavailable, match="cannot reach"):
        await session.send(UserTurn(type="start"))
    with pytest.raises(AgentUnavailable):
        await session.close()


async def test_slow_agent_times_out() -> None:
    with JsonServer(_agent, delay_s=1.0) as server:
        target = parse_target(f"http:{server.url}/agent", timeout_s=0.2)
        session = await target.open(CASE, 1)
        with pytest.raises(AgentTimeout):
            await session.send(UserTurn(type="start"))
        await session._client.aclose()


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (Answer(status=500, body={"error": "boom"}), "HTTP 500"),
        (Answer(raw=b"<html>oops</html>"), "not JSON: <html>oops</html>"),
        (Answer(body={"messages": "hello"}), r"not an AgentReply \(messages: "),
        (Answer(body=[1, 2]), "expected an AgentReply object, got list"),
    ],
)
async def test_bad_answers_are_protocol_errors(answer: Answer, message: str) -> None:
    with JsonServer(lambda req: answer) as server:
        target = parse_target(f"http:{server.url}/agent")
        session = await target.open(CASE, 1)
        with pytest.raises(AgentProtocolError, match=message):
            await session.send(UserTurn(type="start"))
        await session._client.aclose()
