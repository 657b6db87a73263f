"""Triage by root cause: one seeded defect is one diagnosis listing every run it explains,
and a simulated user that never said what it wanted is not blamed on the skill."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO

from agentflows.triage import triage_results, triage_results_async
from agentflows.triage._rules_scenario import states_request

BANK = EXAMPLES / "bank"
CARDS = REPO / "generated_cases" / "mantle" / "card_replace"
SCENARIOS = BANK / "eval" / "scenarios"


@pytest.fixture(autouse=True)
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The card_replace suites played twice each against the bank demo with one defect
    seeded: gated tools run without asking for confirmation."""
    import asyncio

    from evalcore.agents.demo import make_demo_target
    from evalcore.runner import ResultsWriter, RunOptions, collect_cases, run_cases

    root = tmp_path_factory.mktemp("seeded") / "results"
    cases = collect_cases([CARDS, SCENARIOS / "card_replace_stolen.yml"])
    cases += collect_cases([SCENARIOS / "card_replace_refused_confirmation.yml"])
    target = make_demo_target("bank", skip_confirmation=True)
    writer = ResultsWriter(root, timestamp="2026-12-01_10-00-00")
    asyncio.run(run_cases(cases, target, RunOptions(runs=2), results=writer))
    return root


def test_one_seeded_defect_is_one_cause_with_every_run_it_explains(seeded: Path) -> None:
    report = triage_results(seeded, model="offline")
    failed = report["runs"]["failed"]
    assert failed >= 8  # several cases, twice each, failing on different checks
    [cause] = report["causes"]
    assert (cause["bucket"], cause["rule"]) == ("Instruction", "confirmation-skipped")
    assert "without asking utter_confirm_order" in cause["cause"]
    assert len(cause["runs"]) == failed and len(cause["cases"]) >= 4
    assert {r["run"] for r in cause["runs"]} == {1, 2}
    assert "tool_constraints require confirmation" in cause["evidence"][1]["text"]
    assert "skills/card_replace/skill.md" in cause["fix"]
    # Nothing blamed routing, and every per-run entry points at the one cause.
    assert report["summary"]["Skill"] == 0
    assert {f["cause"] for f in report["failures"]} == {cause["id"]}
    assert report["cause_summary"] == {"Skill": 0, "Instruction": 1, "Scenario": 0, "Tool": 0}


def test_cli_prints_one_panel_per_cause(seeded: Path, run_cli, run_cli_json) -> None:
    code, out, _ = run_cli("triage", seeded, "--model", "offline")
    assert code == 0
    assert out.count("Instruction at turn") == 1
    assert "explains" in out and "runs of" in out and "1 cause: " in out
    code, payload = run_cli_json("triage", seeded, "--model", "offline")
    assert code == 0 and len(payload["causes"]) == 1
    assert len(payload["failures"]) == payload["runs"]["failed"]


def test_separate_defects_stay_separate(tmp_path: Path) -> None:
    """A failing tool and a skipped confirmation are two causes, each with its own runs."""
    import asyncio

    from evalcore.agents.demo import make_demo_target
    from evalcore.runner import ResultsWriter, RunOptions, collect_cases, run_cases

    root = tmp_path / "results"
    stolen = collect_cases([SCENARIOS / "card_replace_stolen.yml"])
    refused = collect_cases([SCENARIOS / "card_replace_refused_confirmation.yml"])

    async def play() -> None:
        for stamp, cases, flags in (
            ("2026-12-01_10-00-00", stolen, {"fail_tool": "place_replacement_order"}),
            ("2026-12-01_10-00-01", refused, {"skip_confirmation": True}),
        ):
            writer = ResultsWriter(root, timestamp=stamp)
            await run_cases(cases, make_demo_target("bank", **flags), RunOptions(), results=writer)

    asyncio.run(play())
    report = asyncio.run(triage_results_async(root, model="offline"))
    assert sorted((c["bucket"], c["rule"]) for c in report["causes"]) == [
        ("Instruction", "confirmation-skipped"),
        ("Tool", "tool-error"),
    ]


# --- a simulated user that states no request -----------------------------------------------


def test_greetings_and_filler_state_no_request() -> None:
    for text in (
        "Hi",
        "Hello, how are you today?",
        "OK.",
        "I need help",
        "Hi there! Can you help me?",
    ):
        assert not states_request(text), text
    for text in ("I lost my card", "I want to talk to someone", "replace card"):
        assert states_request(text), text


def _run(tmp_path: Path, user_lines: list[str]) -> Path:
    folder = tmp_path / "results" / "2026-12-01_09-00-00" / "card_replace_lost"
    folder.mkdir(parents=True)
    transcript: list[dict[str, Any]] = [{"turn": 0, "role": "agent", "text": "Hi, how can I help?"}]
    events: list[dict[str, Any]] = []
    for n, line in enumerate(user_lines, start=1):
        transcript += [
            {"turn": n, "role": "user", "text": line},
            {"turn": n, "role": "agent", "text": "What can I do for you?"},
        ]
        events += [
            {"event": "user", "text": line},
            {"event": "bot", "text": "What can I do for you?"},
        ]
    (folder / "run_1.json").write_text(
        json.dumps(
            {
                "scenario_name": "Lost card",
                "scenario_slug": "card_replace_lost",
                "dialect": "mantle",
                "run_index": 1,
                "status": "failed",
                "stop_reason": "simulator_done",
                "transcript": transcript,
                "events": events,
                "assertions": [
                    {
                        "index": 0,
                        "type": "skill_activated",
                        "passed": False,
                        "detail": "expected skill_activated card_replace; no skill_activated "
                        "events recorded",
                        "assertion": {"skill_activated": {"skill_id": "card_replace"}},
                    }
                ],
                "criteria": [],
            }
        ),
        "utf-8",
    )
    return tmp_path / "results"


def test_an_opening_without_a_request_blames_the_scenario(tmp_path: Path) -> None:
    results = _run(tmp_path, ["Hello!", "Hi, how are you?"])
    [item] = triage_results(results, project=BANK, model="offline")["failures"]
    assert (item["bucket"], item["rule"], item["turn"]) == ("Scenario", "simulator-no-request", 1)
    assert "“Hello!”" in item["evidence"][0]["text"] and "simulation_context" in item["fix"]


def test_a_stated_request_that_no_skill_takes_is_still_routing(tmp_path: Path) -> None:
    results = _run(tmp_path, ["Hello!", "My card is lost, I need a new one"])
    [item] = triage_results(results, project=BANK, model="offline")["failures"]
    assert (item["bucket"], item["rule"]) == ("Skill", "no-skill")


def test_a_zero_turn_run_is_triaged_as_the_simulator(tmp_path: Path) -> None:
    from evalcore.runner._conversation import ZERO_TURNS

    folder = tmp_path / "2026-12-01_09-00-00" / "card_replace_lost"
    folder.mkdir(parents=True)
    (folder / "run_1.json").write_text(
        json.dumps(
            {
                "scenario_slug": "card_replace_lost",
                "run_index": 1,
                "status": "errored",
                "errored": True,
                "error": f"simulator: {ZERO_TURNS}",
                "transcript": [{"turn": 0, "role": "agent", "text": "Hi"}],
                "events": [],
            }
        ),
        "utf-8",
    )
    report = triage_results(tmp_path, project=BANK, model="offline")
    [item] = report["failures"]
    assert (item["bucket"], item["rule"]) == ("Scenario", "simulator-error")
    assert report["errored"] == []


def test_cases_of_different_skills_missing_one_key_are_one_cause(tmp_path: Path) -> None:
    """Both escalations miss the hand-over queue: one human_handoff cause, not one per
    skill the case started in; a different failed check stays its own cause."""
    stamp = tmp_path / "2026-12-01_09-00-00"

    def write(slug: str, skill: str, detail: str, spec: dict[str, Any]) -> None:
        folder = stamp / slug
        folder.mkdir(parents=True)
        record = {
            "scenario_slug": slug,
            "run_index": 1,
            "dialect": "mantle",
            "status": "failed",
            "stop_reason": "simulator_done",
            "transcript": [
                {"turn": 1, "role": "user", "text": "I want a person, my card is broken"},
                {"turn": 1, "role": "agent", "text": "Connecting you."},
            ],
            "events": [
                {"event": "user", "text": "I want a person, my card is broken"},
                {"event": "skill_activated", "skill_id": skill},
                {"event": "skill_activated", "skill_id": "human_handoff"},
            ],
            "assertions": [
                {
                    "index": 0,
                    "type": next(iter(spec)),
                    "passed": False,
                    "detail": detail,
                    "assertion": spec,
                }
            ],
        }
        (folder / "run_1.json").write_text(json.dumps(record), "utf-8")

    queue = {"memory_was_set": [{"name": "human_handoff.handoff_queue", "value": "cards"}]}
    missing = 'expected memory_set human_handoff.handoff_queue = "cards"; no memory_set events'
    write("card_replace_escalation", "card_replace", missing, queue)
    write("dispute_charge_escalation", "dispute_charge", missing, queue)
    write(
        "check_balance_escalation",
        "check_balance",
        "expected bot message utter_transfer; none sent",
        {"bot_uttered": {"utter_name": "utter_transfer"}},
    )
    report = triage_results(tmp_path, project=BANK, model="offline")
    by_size = [(len(c["runs"]), c["cause"]) for c in report["causes"]]
    assert by_size[0] == (2, "human_handoff does not set human_handoff.handoff_queue")
    assert len(by_size) == 2 and by_size[1][0] == 1
