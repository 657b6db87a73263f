"""The `demo:clinic` agent plays every clinic case to the end state the case expects.

Every case in examples/clinic/cases/ and generated_cases/anychat/ is played: the `start`
turn, the scripted turns, then a `simulate` turn as the offline simulator plays it (each
`knows` item verbatim, one per reply, up to `maxTurns`). A small local helper checks the
`expect.checks` the cases use, with the meanings of docs/checks.md (e.g. `toolsCalled` counts
exactly). Broken variants of the demo (its mutation flags) must fail the cases that are
about what they break.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from evalcore.agents import AgentReply, UserTurn
from evalcore.agents.demo import demo_module
from evalcore.runner import RunCase, load_run_cases

REPO = Path(__file__).resolve().parents[1]
ClinicTarget = demo_module("clinic").ClinicTarget  # examples/clinic/demo_agent
CASE_FILES = sorted((REPO / "examples" / "clinic" / "cases").glob("*.json")) + sorted(
    (REPO / "generated_cases" / "anychat").rglob("*.json")
)


# --- playing a case ---------------------------------------------------------------------


@dataclass
class Run:
    turns: list[tuple[UserTurn, AgentReply]] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)

    @property
    def replies(self) -> list[AgentReply]:
        return [reply for _, reply in self.turns]


def simulated_lines(case: RunCase) -> list[str]:
    """The offline simulator's rule: the `knows` items verbatim, up to `maxTurns`."""
    if case.simulate is None:
        return []
    lines = [k for k in case.simulate.knows if k.strip()]
    return lines[: case.simulate.max_turns] if case.simulate.max_turns else lines


async def play(case: RunCase, target: ClinicTarget) -> Run:
    session = await target.open(case, 1)
    run = Run()
    start = UserTurn(type="start", setup=case.setup)
    run.turns.append((start, await session.send(start)))
    turns = [*case.script, *(UserTurn(type="text", text=t) for t in simulated_lines(case))]
    for turn in turns:
        run.turns.append((turn, await session.send(turn)))
    run.final_state = {**run.replies[-1].state, **(await session.close()).state}
    return run


@functools.cache
def _target(flags: tuple[str, ...]) -> ClinicTarget:
    return ClinicTarget(**dict.fromkeys(flags, True))


def run_case(path: Path, **flags: bool) -> tuple[RunCase, Run]:
    case = load_run_cases(path, dialect="anychat")[0]
    return case, asyncio.run(play(case, _target(tuple(sorted(k for k, v in flags.items() if v)))))


# --- a small check helper (docs/checks.md semantics, for the checks the cases use) ----------


def visible(message: Any) -> bool:
    return bool(message.text.strip() or message.parts or message.chips)


def texts(run: Run) -> list[str]:
    out = []
    for reply in run.replies:
        for message in reply.messages:
            out.append(message.text)
            out += [p.get("text") or p.get("prompt") or "" for p in message.parts]
            out += [str(c.get("label", "")) for c in message.chips]
    return out


def person_value(person: dict[str, Any], key: str) -> Any:
    if key in person and key != "customFields":
        return person[key]
    return (person.get("customFields") or {}).get(key)


def failed_checks(checks: dict[str, Any], run: Run) -> list[str]:
    """Names of the checks the run fails (an unknown check fails too)."""
    state = run.final_state
    events = [e for reply in run.replies for e in reply.events]
    tools = [e["name"] for e in events if e.get("event") == "tool_called"]
    messages = [m for reply in run.replies for m in reply.messages if visible(m)]
    user_turns = [(t, r) for t, r in run.turns if t.type != "start"]
    failed = []
    for name, want in checks.items():
        if name == "finalReplyNonEmpty":
            ok = any(visible(m) for m in run.replies[-1].messages) == want
        elif name == "pickerShown":
            shown = any(
                p.get("type") in ("ask.time", "ask.choice") for m in messages for p in m.parts
            )
            ok = shown == want
        elif name == "appointmentCreated":
            created = any(e.get("event") == "appointment_created" for e in events)
            ok = created == want
        elif name == "activeAppointments":
            live = [a for a in state.get("appointments", []) if a.get("status") == "scheduled"]
            ok = len(live) == want
        elif name == "outcomes":
            got = state.get("outcomes", [])
            ok = set(want) <= set(got) if want else not got
        elif name == "activePlaybookAtEnd":
            ok = str(state.get("activePlaybook", "")).lower() == want.lower()
        elif name == "personFields":
            person = state.get("person", {})
            ok = all(
                str(person_value(person, k)).lower() == str(v).lower() for k, v in want.items()
            )
        elif name == "chipsOnAnyTurn":
            chips = {
                str(c.get(k, "")).lower()
                for m in messages
                for c in m.chips
                for k in ("label", "value", "id")
            }
            ok = all(c.lower() in chips for c in want) if want else bool(chips)
        elif name == "textIncludes":
            joined = " ".join(texts(run)).lower()
            ok = all(t.lower() in joined for t in want)
        elif name == "textExcludes":
            joined = " ".join(texts(run)).lower()
            ok = not any(t.lower() in joined for t in want)
        elif name == "toolsCalled":
            ok = all(tools.count(tool) == n for tool, n in want.items())
        elif name == "toolsNotCalled":
            ok = not set(want) & set(tools)
        elif name == "noWarnings":
            ok = not want or not any(r.state.get("warnings") for r in run.replies)
        elif name == "maxModelCallsPerTurn":
            ok = all(r.state.get("modelCalls", 0) <= want for r in run.replies)
        elif name == "maxTurnsToOutcome":
            wanted = set(checks.get("outcomes") or [])
            reached = next(
                (
                    i
                    for i, (_, r) in enumerate(user_turns, 1)
                    if wanted <= set(r.state.get("outcomes", [])) and r.state.get("outcomes")
                ),
                None,
            )
            ok = reached is not None and reached <= want
        elif name == "replyCount":
            count = len(messages)
            ok = want.get("min", 0) <= count <= want.get("max", count)
        elif name == "noReplyTo":
            system = [r for t, r in user_turns if t.type == "system" and t.event in want]
            ok = bool(system) and not any(visible(m) for r in system for m in r.messages)
        elif name == "partsOnLastTurn":
            parts = {p.get("type") for m in run.replies[-1].messages for p in m.parts}
            ok = parts == set(want)
        elif name == "textMatches":
            ok = all(any(re.search(p, t) for t in texts(run)) for p in want)
        else:
            ok = False
        if not ok:
            failed.append(name)
    return failed


# --- the cases --------------------------------------------------------------------------


def _id(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_there_are_cases_to_play() -> None:
    assert len(CASE_FILES) >= 2


@pytest.mark.parametrize("path", CASE_FILES, ids=_id)
def test_demo_reaches_the_expected_end_state(path: Path) -> None:
    case, run = run_case(path)
    assert failed_checks(case.checks, run) == [], _transcript(run)


def _transcript(run: Run) -> str:
    lines = []
    for turn, reply in run.turns:
        lines.append(f"> {turn.as_text()}")
        lines += [f"  < {m.text}" for m in reply.messages]
        lines += [f"  ! {e}" for e in reply.events if e.get("event") != "person_updated"]
    return "\n".join(lines)


def _failing(flag: str, select: Any) -> tuple[list[str], list[str]]:
    """(relevant cases, the relevant cases that still pass) with one mutation flag on."""
    relevant, passing = [], []
    for path in CASE_FILES:
        case = load_run_cases(path, dialect="anychat")[0]
        if not select(case.checks, json.loads(path.read_text())):
            continue
        relevant.append(_id(path))
        _, run = run_case(path, **{flag: True})
        if not failed_checks(case.checks, run):
            passing.append(_id(path))
    return relevant, passing


def _changes_state(checks: dict[str, Any], data: dict[str, Any]) -> bool:
    return any(o in (checks.get("outcomes") or []) for o in ("booked", "rescheduled", "cancelled"))


def _hands_over(checks: dict[str, Any], data: dict[str, Any]) -> bool:
    """A hand-off away from a Playbook other than the Default Playbook."""
    start = (data.get("origin") or {}).get("playbookId")
    return (
        "handoff" in (data.get("tags") or [])
        and start not in (None, "general")
        and (checks.get("activePlaybookAtEnd") != start)
    )


def _one_bubble_per_turn(checks: dict[str, Any], data: dict[str, Any]) -> bool:
    """`replyCount.max` allows one message per turn the agent answers (plus an opener);
    turns after an opt-out are not answered at all."""
    start = (data.get("scenario") or {}).get("start") or {}
    turns = data["turns"]
    stop = next((i for i, t in enumerate(turns) if t == {"system": "optOut"}), len(turns))
    answered = sum(1 for t in turns[:stop] if not (isinstance(t, dict) and "system" in t))
    answered += 1 if start.get("outreach") or start.get("reminder") else 0
    return (checks.get("replyCount") or {}).get("max", answered + 1) <= answered


@pytest.mark.parametrize(
    ("flag", "select"),
    [
        ("never_book", _changes_state),
        ("ignore_opt_out", lambda c, d: "noReplyTo" in c),
        ("double_text", _one_bubble_per_turn),
        ("no_handoff", _hands_over),
        ("tool_loop", lambda c, d: "check_availability" in (c.get("toolsCalled") or {})),
        ("warn", lambda c, d: c.get("noWarnings") is True),
    ],
)
def test_broken_demo_fails_the_relevant_cases(flag: str, select: Any) -> None:
    relevant, passing = _failing(flag, select)
    assert relevant, f"no case is about {flag}"
    assert passing == [], f"with {flag} these cases still pass: {passing}"


def test_start_kinds_and_reply_shapes() -> None:
    target = ClinicTarget()
    scenario = {
        "start": {
            "outreach": {
                "outreachId": "visit_reminder",
                "inputs": {
                    "firstName": "Ana",
                    "visitDate": "Thursday, March 12",
                    "visitTime": "14:00",
                },
            }
        },
        "persona": {"preset": {"fields": {"firstName": "Ana", "phone": "+15550100"}}},
        "appointments": [{"startsIn": "P3DT5H", "status": "scheduled"}],
    }
    case = {"slug": "shape", "setup": {"scenario": scenario}}

    async def go() -> list[AgentReply]:
        session = await target.open(case, 1)
        replies = [await session.send(UserTurn(type="start", setup=case["setup"]))]
        replies.append(await session.send(UserTurn(type="text", text="R")))
        replies.append(await session.send(UserTurn(type="text", text="Friday morning")))
        replies.append(await session.send(UserTurn(type="slot", slot=0)))
        final = await session.close()
        assert final.meta["agent"] == "demo:clinic"
        return replies

    opener, asked, offered, moved = asyncio.run(go())
    assert opener.messages[0].text.startswith("Hi Ana, this is Brightsmile Dental.")
    assert opener.state["activePlaybook"] == "reschedule"
    assert opener.state["appointments"][0] | {"start": None} == {
        "id": "a-0001",
        "start": None,
        "durationMinutes": 30,
        "representativeId": None,
        "status": "scheduled",
        "seeded": True,
    }
    assert [e["name"] for e in asked.events if e["event"] == "tool_called"] == ["lookup_patient"]
    picker = offered.messages[0].parts[1]
    assert picker["type"] == "ask.time" and picker["slots"][0]["start"]["iso"].startswith(
        "2026-03-13T09:00"
    )
    assert {e["event"] for e in moved.events} >= {"tool_called", "appointment_updated", "outcome"}
    assert moved.state["outcomes"] == ["rescheduled"]
    assert moved.state["modelCalls"] == 2
    assert moved.state["appointments"][0]["start"].startswith("2026-03-13T09:00")


def test_opt_out_silences_the_agent() -> None:
    target = ClinicTarget()
    case = {"slug": "stop", "setup": {"scenario": {"start": {"inbound": True}}}}

    async def go() -> list[AgentReply]:
        session = await target.open(case, 1)
        turns = [
            UserTurn(type="start", setup=case["setup"]),
            UserTurn(type="text", text="Hi, what are your hours?"),
            UserTurn(type="system", event="optOut"),
            UserTurn(type="text", text="hello?"),
        ]
        return [await session.send(t) for t in turns]

    _, answered, stopped, after = asyncio.run(go())
    assert answered.messages and answered.messages[0].chips
    assert not stopped.messages and stopped.state["outcomes"] == ["opted_out"]
    assert stopped.state["person"]["consent"] == {"status": "denied"}
    assert not after.messages and after.state["modelCalls"] == 0


def test_casegen_run_with_the_demo_target(run_cli_json, tmp_path: Path) -> None:
    """The same cases through `casegen run --target demo:clinic` (the runner's own checks)."""
    paths = [str(p) for p in CASE_FILES]
    code, report = run_cli_json(
        "run",
        *paths,
        "--target",
        "demo:clinic",
        "--project",
        str(REPO / "examples/clinic"),
        "--model",
        "offline",
        "--runs",
        "1",
        "--results",
        str(tmp_path),
    )
    assert report["summary"]["failed"] == 0 and report["summary"]["errored"] == 0, report
    assert report["summary"]["passed"] == len(CASE_FILES)
    assert code == 0
