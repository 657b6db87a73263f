"""The offline Anychat drafter: every planned behaviour drafts a valid, lint-clean,
deterministic case that says what the behaviour is about; a direction shapes it."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline import OfflineEngine
from agentflows.drafting.offline._anychat import draft_anychat
from agentflows.planning import Behavior
from agentflows.planning._anychat import plan_anychat
from evalcore.dedupe import DUPLICATE_THRESHOLD, fingerprint, similarity
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.validation import check_data

REPO = Path(__file__).resolve().parents[1]
CLINIC = load_project(REPO / "examples" / "clinic")
DIALECT = get_dialect("anychat")
BEHAVIORS = [
    b for pid in sorted(CLINIC.anychat.playbooks) for b in plan_anychat(CLINIC, pid, None).behaviors
]


def draft(behavior: Behavior, direction: str | None = None) -> dict[str, Any]:
    return draft_anychat(DraftContext(CLINIC, "anychat", behavior, direction=direction))


def find(case_id: str, direction: str | None = None) -> dict[str, Any]:
    playbook, _, _ = case_id.partition(":")
    behavior = next(
        b for b in plan_anychat(CLINIC, playbook, direction).behaviors if b.id == case_id
    )
    return draft(behavior, direction)


@pytest.mark.parametrize("behavior", BEHAVIORS, ids=lambda b: b.id)
def test_every_behaviour_drafts_a_valid_lint_clean_case(behavior: Behavior) -> None:
    data = draft(behavior)
    assert check_data(data, DIALECT, CLINIC) == []
    assert json.dumps(data) == json.dumps(draft(behavior))
    assert "key" not in data and data["origin"]["playbookId"] == behavior.source
    assert data["tags"][:2] == [behavior.source, behavior.type.replace("_", "-")]
    assert data["scenario"]["clock"]["now"] == "2026-03-09T09:00:00-04:00"
    simulate = [t for t in data["turns"] if isinstance(t, dict) and "simulate" in t]
    assert data["samples"] == (3 if simulate else 1)
    assert all(isinstance(t, str) or "simulate" not in t for t in data["turns"][:-1])
    criteria = data["expect"].get("judge", {}).get("criteria", [])
    assert len({c["id"] for c in criteria}) == len(criteria)


def test_offline_engine_drafts_through_the_dispatcher() -> None:
    result = asyncio.run(OfflineEngine().draft(DraftContext(CLINIC, "anychat", BEHAVIORS[0])))
    assert result.data == draft(BEHAVIORS[0])


def test_drafts_are_not_duplicates_of_each_other_or_the_suite() -> None:
    suite = [json.loads(p.read_text()) for p in (REPO / "examples/clinic/cases").glob("*.json")]
    marks = [fingerprint(draft(b), DIALECT) for b in BEHAVIORS]
    marks += [fingerprint(d, DIALECT) for d in suite]
    worst = max(similarity(a, b) for a, b in itertools.combinations(marks, 2))
    assert worst < DUPLICATE_THRESHOLD


def test_happy_path_checks_follow_from_the_playbook() -> None:
    checks = find("book:inbound")["expect"]["checks"]
    assert checks["toolsCalled"] == {
        "lookup_patient": 1,
        "check_availability": 1,
        "book_appointment": 1,
    }
    assert checks["toolsNotCalled"] == ["cancel_appointment", "reschedule_appointment"]
    assert checks["outcomes"] == ["booked"] and checks["activePlaybookAtEnd"] == "book"
    assert checks["pickerShown"] and checks["appointmentCreated"]
    cancel = find("cancel:inbound")
    assert cancel["turns"][-1] == {"confirm": True, "fallback": "Yes, please cancel it."}
    assert cancel["expect"]["checks"]["activeAppointments"] == 0
    reschedule = find("reschedule:inbound")["expect"]["checks"]
    assert reschedule["appointmentCreated"] is False and reschedule["activeAppointments"] == 1


def test_example_replay() -> None:
    data = find("book:example_0")
    assert data["origin"] == {"kind": "playbookExample", "playbookId": "book", "exampleIndex": 0}
    assert data["turns"] == [
        "Hi, I'd like to book a cleaning next week",
        {"slot": 1, "fallback": "Option 2 please"},
    ]
    assert data["expect"]["checks"] == {
        "finalReplyNonEmpty": True,
        "pickerShown": True,
        "appointmentCreated": True,
        "outcomes": ["booked"],
        "activePlaybookAtEnd": "book",
        "toolsCalled": {"lookup_patient": 1, "check_availability": 1, "book_appointment": 1},
    }
    ids = [c["id"] for c in data["expect"]["judge"]["criteria"]]
    assert ids == ["example-reply-1", "example-reply-2"]
    opt_out = find("general:example_1")
    assert opt_out["turns"] == ["STOP", {"system": "optOut"}]
    assert opt_out["expect"]["checks"]["noReplyTo"] == ["optOut"]
    chips = find("general:example_0")
    assert chips["turns"][1] == {"chip": "book", "fallback": "Yes please"}
    assert chips["expect"]["checks"]["chipsOnAnyTurn"] == ["book"]


def test_starts_and_special_turns() -> None:
    outreach = find("reschedule:outreach_visit_reminder")
    assert outreach["turns"][0] == "R"
    assert outreach["expect"]["checks"]["replyCount"] == {"max": 8}  # two messages a turn
    resume = find("reschedule:resume")
    assert resume["scenario"]["start"] == {"resume": {"activePlaybook": "reschedule"}}
    assert [m["role"] for m in resume["scenario"]["history"]] == ["user", "assistant"]
    assert find("reschedule:reminder_reply")["scenario"]["start"] == {"reminder": True}
    opt_out = find("reschedule:opt_out_after_visit_reminder")
    assert opt_out["turns"][0] == {"system": "optOut"}
    # reschedule does not say to record opted_out (general does): silence is what it checks
    assert "outcomes" not in opt_out["expect"]["checks"]
    # the opener (two messages, as the personality allows), then nothing
    assert opt_out["expect"]["checks"]["replyCount"] == {"max": 2}
    handoff = find("book:handoff_to_cancel")["expect"]["checks"]
    assert handoff["activePlaybookAtEnd"] == "cancel" and handoff["outcomes"] == []
    assert handoff["toolsNotCalled"] == ["book_appointment", "cancel_appointment"]


def test_simulate_turn() -> None:
    data = find("book:simulated")
    simulate = data["turns"][-1]["simulate"]
    assert set(simulate) == {"goal", "persona", "knows", "until", "maxTurns"}
    assert simulate["knows"][-1] == "The first time you offered works for me."
    assert data["expect"]["checks"]["personFields"] == dict(
        zip(
            ["fullName", "insuranceProvider"],
            [k.split(" is ", 1)[1].rstrip(".") for k in simulate["knows"][:2]],
            strict=True,
        )
    )
    assert data["expect"]["checks"]["maxTurnsToOutcome"] == 7


def test_guardrail_cases() -> None:
    book = find("book:guardrail")
    assert book["turns"][-1].startswith("None of those times work")
    assert book["expect"]["checks"]["toolsNotCalled"] == ["book_appointment"]
    general = find("general:guardrail")
    assert "diagnosis" in general["turns"][-1]
    assert "Never give a diagnosis" in general["expect"]["judge"]["criteria"][0]["text"]


def test_direction_shapes_the_case() -> None:
    direction = (
        "an impatient patient who texts from work; make sure the agent confirms the "
        "dentist's name, and cancel_appointment is never called"
    )
    data = find("book:simulated", direction)
    simulate = data["turns"][-1]["simulate"]
    assert simulate["persona"] == "You are an impatient patient who texts from work."
    assert "The person: an impatient patient who texts from work." in data["brief"]["scenario"]
    criteria = {c["id"]: c["text"] for c in data["expect"]["judge"]["criteria"]}
    assert criteria["direction-1"] == "The agent confirms the dentist's name"
    assert "cancel_appointment" in data["expect"]["checks"]["toolsNotCalled"]
    assert check_data(data, DIALECT, CLINIC) == []
    plain = find("book:simulated")
    assert plain["turns"][-1]["simulate"]["persona"] != simulate["persona"]


def test_direction_never_contradicts_the_case() -> None:
    data = find("book:inbound", "make sure book_appointment is never called")
    checks = data["expect"]["checks"]
    assert "book_appointment" in checks["toolsCalled"]
    assert "book_appointment" not in checks["toolsNotCalled"]
