"""`rasa:URL` against a loopback fake Rasa server: exact requests, replies, tracker."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_rasa import FakeRasa, closed_port_url

from evalcore.agents import AgentReply, UserTurn, parse_target
from evalcore.agents._errors import AgentError, AgentTimeout, AgentUnavailable
from evalcore.agents._rasa import NO_PROJECT_WARNING, RasaTarget, split_initial_slots
from evalcore.definitions import MantleDefinitions, MemoryField, Project
from evalcore.runner import RunCase


def _project() -> Project:
    memory = {
        "caller_phone": MemoryField(
            name="caller_phone", namespace="project", type="text", seed=True
        ),
        "segment": MemoryField(name="segment", namespace="project", type="text", seed=True),
        "authenticated": MemoryField(name="authenticated", namespace="project", type="bool"),
    }
    return Project(root=Path("."), kind="mantle", mantle=MantleDefinitions(memory=memory))


def _case(slots: dict) -> RunCase:
    return RunCase(
        slug="card_replace_damaged_happy",
        name="Damaged card",
        dialect="mantle",
        path="eval/scenarios/card_replace_damaged_happy.yml",
        setup={"initial_slots": slots},
    )


SLOTS = {
    "project.caller_phone": "+15550100",
    "segment": "retail",
    "authenticated": True,
    "card_replace.preferred_card": "everyday",
}


async def _play(target: RasaTarget, case: RunCase, texts: list[str]):
    session = await target.open(case, 1)
    replies = [await session.send(UserTurn(type="start", setup=case.setup))]
    for text in texts:
        replies.append(await session.send(UserTurn(type="text", text=text)))
    return session, replies, await session.close()


async def test_run_sends_seed_metadata_then_slot_events_then_turns() -> None:
    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}", project=_project())
        session, replies, final = await _play(
            target, _case(SLOTS), ["I need to replace my card", "It is damaged"]
        )

    sender = session.sender
    assert sender.startswith("sim-") and len(sender) == 4 + 32
    start, *rest = rasa.requests
    assert (start.method, start.path) == ("POST", "/webhooks/rest/webhook")
    assert start.body == {
        "sender": sender,
        "message": "/session_start",
        "metadata": {"is_simulation": True, "caller_phone": "+15550100", "segment": "retail"},
    }
    slot_posts = [r for r in rest if r.path.endswith("/tracker/events")]
    assert [(r.path, r.query, r.body) for r in slot_posts] == [
        (
            f"/conversations/{sender}/tracker/events",
            "include_events=NONE",
            {"event": "slot", "name": "authenticated", "value": True},
        ),
        (
            f"/conversations/{sender}/tracker/events",
            "include_events=NONE",
            {"event": "slot", "name": "card_replace.preferred_card", "value": "everyday"},
        ),
    ]
    turns = [r.body for r in rest if r.path == "/webhooks/rest/webhook"]
    assert turns == [
        {"sender": sender, "message": "I need to replace my card"},
        {"sender": sender, "message": "It is damaged"},
    ]
    assert rasa.requests[-1].method == "GET"
    assert rasa.requests[-1].path == f"/conversations/{sender}/tracker"
    # Order: session start, then the slot events, then the turns.
    kinds = [
        (
            "start"
            if r.body and r.body.get("message") == "/session_start"
            else "slot"
            if r.path.endswith("/events")
            else "turn"
            if r.method == "POST"
            else "tracker"
        )
        for r in rasa.requests
    ]
    assert kinds == ["start", "slot", "slot", "turn", "turn", "tracker"]

    assert [m.text for m in replies[0].messages] == ["Welcome to Riverbend Bank."]
    assert replies[1].messages[0].buttons == [
        {"title": "Damaged", "payload": "/damaged"},
        {"title": "Stolen", "payload": "/stolen"},
    ]
    assert [m.text for m in replies[2].messages] == [
        "Your replacement card is on its way.",
        "Anything else?",
    ]

    assert final.events == rasa.conversations[sender].events
    names = [e["event"] for e in final.events]
    assert "skill_activated" in names and "tool_executed" in names
    assert {"event": "slot", "name": "authenticated", "value": True}.items() <= next(
        e for e in final.events if e["event"] == "slot"
    ).items()
    assert final.meta["conversation_id"] == sender
    assert (
        final.meta["inspector_url"] == f"{rasa.url}/webhooks/inspector/inspect.html?sender={sender}"
    )
    assert "warnings" not in final.meta


async def test_tracker_events_satisfy_mantle_assertions() -> None:
    from evalcore.assertions import evaluate_mantle

    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}", project=_project())
        _, _, final = await _play(target, _case(SLOTS), ["replace my card", "damaged"])
    results = evaluate_mantle(
        [
            {"skill_completed": {"skill_id": "card_replace"}},
            {"memory_was_set": [{"name": "card_replace.replacement_reason", "value": "damaged"}]},
            {
                "tool_executed": {
                    "tool_name": "place_replacement_order",
                    "source": "local",
                    "arguments": {"shipping": "standard"},
                }
            },
            {"bot_uttered": {"utter_name": "utter_order_placed"}},
        ],
        final.events,
    )
    assert all(r.passed for r in results), [r.detail for r in results if not r.passed]


async def test_without_project_every_bare_or_project_key_is_metadata_and_said_so() -> None:
    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}")
        _, _, final = await _play(target, _case(SLOTS), [])
    assert rasa.requests[0].body["metadata"] == {
        "is_simulation": True,
        "caller_phone": "+15550100",
        "segment": "retail",
        "authenticated": True,
    }
    events = [r.body for r in rasa.requests if r.path.endswith("/tracker/events")]
    assert events == [{"event": "slot", "name": "card_replace.preferred_card", "value": "everyday"}]
    assert final.meta["warnings"] == [NO_PROJECT_WARNING]


def test_split_initial_slots_table() -> None:
    seeds = {"caller_phone"}
    metadata, events, warnings = split_initial_slots(
        {"caller_phone": 1, "project.caller_phone": 2, "project.other": 3, "x.y": 4}, seeds
    )
    assert metadata == {"caller_phone": 2}
    assert events == [("project.other", 3), ("x.y", 4)]
    assert warnings == []
    assert split_initial_slots({}, None) == ({}, [], [])


async def test_rich_turns_go_as_fallback_text_or_fail_clearly() -> None:
    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}", project=_project())
        session = await target.open(_case({}), 1)
        await session.send(UserTurn(type="start", setup={"initial_slots": {}}))
        reply = await session.send(
            UserTurn(type="chip", chip="opt-replace", fallback="replace my card")
        )
        assert isinstance(reply, AgentReply) and reply.messages
        assert rasa.requests[-1].body["message"] == "replace my card"
        with pytest.raises(AgentError, match=r"\[system optOut\]"):
            await session.send(UserTurn(type="system", event="optOut"))
        with pytest.raises(AgentError, match="no fallback"):
            await session.send(UserTurn(type="confirm", confirm=True))
        await session.close()


async def test_turn_before_start_starts_the_session_first() -> None:
    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}", project=_project())
        session = await target.open(_case({"caller_phone": "+1"}), 1)
        await session.send(UserTurn(type="text", text="hello"))
        await session.close()
    assert rasa.requests[0].body["message"] == "/session_start"
    assert rasa.requests[0].body["metadata"]["caller_phone"] == "+1"


async def test_unreachable_server_is_agent_unavailable() -> None:
    target = parse_target(f"rasa:{closed_port_url()}", timeout_s=2)
    session = await target.open(_case({}), 1)
    with pytest.raises(AgentUnavailable, match="cannot reach") as info:
        await session.send(UserTurn(type="start", setup={}))
    assert "rasa run --enable-api" in str(info.value)
    await session._client.aclose()


async def test_slow_server_is_a_timeout() -> None:
    with FakeRasa(delay_s=1.0) as rasa:
        target = parse_target(f"rasa:{rasa.url}", timeout_s=0.2)
        session = await target.open(_case({}), 1)
        with pytest.raises(AgentTimeout, match=r"did not answer within 0\.2s"):
            await session.send(UserTurn(type="start", setup={}))
        await session._client.aclose()
    assert issubclass(AgentTimeout, AgentUnavailable)


async def test_bad_status_is_a_protocol_error() -> None:
    from evalcore.agents._errors import AgentProtocolError

    with FakeRasa() as rasa:
        target = parse_target(f"rasa:{rasa.url}/nope")
        session = await target.open(_case({}), 1)
        with pytest.raises(AgentProtocolError, match="HTTP 404"):
            await session.send(UserTurn(type="start", setup={}))
        await session._client.aclose()
