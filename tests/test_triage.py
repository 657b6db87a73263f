"""`casegen triage`: one failed run per bucket, recorded by the runner (tests/data/results).

The runs are broken versions of the bank example's agent played through casegen's runner
(tests/data/results/build.py rebuilds them); each failed for one known reason, and triage
must name the bucket and the turn where it broke.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO
from stub_openai import StubOpenAI, server_error, stub_fixture

from agentflows.triage import triage_results
from agentflows.triage._facts import criterion_turn

RESULTS = REPO / "tests" / "data" / "results"
STAMP = RESULTS / "2026-03-02_14-05-11"
BANK = EXAMPLES / "bank"

openai_stub = stub_fixture()


@pytest.fixture(autouse=True)
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return triage_results(RESULTS, project=BANK)


def failure(report: dict[str, Any], slug: str, run: int = 1) -> dict[str, Any]:
    return next(f for f in report["failures"] if f["slug"] == slug and f["run"] == run)


@pytest.mark.parametrize(
    ("slug", "run", "bucket", "turn", "rule"),
    [
        # place_replacement_order ran with is_error: true (503 from the cards API).
        ("card_replace_stolen", 1, "Tool", 7, "tool-error"),
        # "my card keeps getting declined and I want a real person" went to card_replace.
        ("human_handoff_frustrated_escalation", 1, "Skill", 1, "late-skill"),
        # The reason was recorded, then asked for again in the same turn.
        ("card_replace_damaged", 1, "Instruction", 5, "instruction"),
        # "It was stolen" recorded as lost: wrong value at the turn the user said it.
        ("card_replace_stolen", 2, "Instruction", 4, "instruction"),
        # The simulated user stopped while the agent was asking what happened to the card.
        ("card_replace_refused_confirmation", 1, "Scenario", 3, "simulator-off-script"),
        # initial_slots pre-fill customer_id, so the lookup the case asserts is skipped.
        ("check_balance_known_caller", 1, "Scenario", 1, "initial-slots-skip"),
    ],
)
def test_each_failed_run_gets_its_bucket_and_turn(
    report: dict[str, Any], slug: str, run: int, bucket: str, turn: int, rule: str
) -> None:
    found = failure(report, slug, run)
    assert (found["bucket"], found["turn"], found["rule"]) == (bucket, turn, rule)
    assert found["evidence"] and found["fix"] and found["method"] == "rules"
    assert all({"kind", "turn", "text"} == set(e) for e in found["evidence"])


def test_report_shape_summary_and_harness_errors(report: dict[str, Any]) -> None:
    assert report["results_dir"] == str(RESULTS)
    assert report["summary"] == {"Skill": 1, "Instruction": 2, "Scenario": 2, "Tool": 1}
    assert report["runs"] == {"total": 8, "passed": 1, "failed": 6, "errored": 1, "causes": 6}
    # Six different defects: six causes, each explaining its one run.
    assert [len(c["runs"]) for c in report["causes"]] == [1] * 6
    assert report["cause_summary"] == report["summary"]
    assert {f["cause"] for f in report["failures"]} == {c["id"] for c in report["causes"]}
    [errored] = report["errored"]
    assert errored["slug"] == "card_replace_damaged" and errored["run"] == 2
    assert "AgentUnavailable" in errored["error"]
    assert not any(f["slug"] == "check_balance_savings_happy" for f in report["failures"])
    for item in report["failures"]:
        assert set(item) >= {"case", "slug", "run", "turn", "bucket", "evidence", "fix", "method"}


def test_evidence_names_what_broke(report: dict[str, Any]) -> None:
    tool = failure(report, "card_replace_stolen", 1)
    assert tool["evidence"][0]["text"].startswith("[T7] tool: place_replacement_order(")
    assert "ERROR" in tool["evidence"][0]["text"]
    assert "skills/card_replace/tools.py:111" in tool["fix"]

    skill = failure(report, "human_handoff_frustrated_escalation")
    assert "[T1] skill: skill_activated card_replace" in skill["evidence"][0]["text"]
    assert "skills/human_handoff/skill.md" in skill["fix"]
    assert "I want to talk to a real person" in skill["fix"]

    asked = failure(report, "card_replace_damaged")
    assert "asked again (utter_ask_replacement_reason)" in asked["evidence"][0]["text"]
    assert "step ask_reason of card_replace/pick_card" in asked["fix"]

    wrong_value = failure(report, "card_replace_stolen", 2)
    assert 'value is "lost", not "stolen"' in wrong_value["evidence"][0]["text"]

    off_script = failure(report, "card_replace_refused_confirmation")
    assert any(
        "never said, first: “I lost it, I think”" in e["text"] for e in off_script["evidence"]
    )

    slots = failure(report, "check_balance_known_caller")
    assert "project.customer_id" in slots["evidence"][0]["text"]
    assert "skills/check_balance/skill.md" in slots["evidence"][1]["text"]


def test_assertions_are_numbered_from_one_as_in_report(report: dict[str, Any]) -> None:
    """`assertion 1` is the run record's (and the case's) first assertion, in triage as in
    `report` and `--compare`."""
    import re

    seen = 0
    for item in report["failures"]:
        record = json.loads(Path(item["file"]).read_text(encoding="utf-8"))
        types = {a["index"]: a["type"] for a in record["assertions"]}
        texts = [e["text"] for e in item["evidence"]] + [item["fix"]]
        for number, kind in re.findall(r"assertion (\d+) \(?(\w+)", " ".join(texts)):
            seen += 1
            assert types.get(int(number) - 1) == kind, (item["slug"], number, kind, types)
    assert seen >= 2  # the check is not vacuous


def test_project_is_found_from_the_case_path() -> None:
    """Without --project, cases inside a project still get their definitions."""
    found = triage_results(STAMP / "card_replace_stolen")
    assert [(f["run"], f["bucket"]) for f in found["failures"]] == [(1, "Tool"), (2, "Instruction")]
    assert "skills/card_replace/tools.py:111" in found["failures"][0]["fix"]


def test_cli_json_and_exit_codes(run_cli, tmp_path: Path) -> None:
    code, out, _ = run_cli("triage", STAMP, "--project", BANK, "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["summary"]["Tool"] == 1 and len(payload["failures"]) == 6

    code, out, _ = run_cli("triage", STAMP, "--project", BANK)
    assert code == 0
    assert "Tool at turn 7" in out and "fix:" in out and "errored" in out
    assert "6 failed of 8 runs" in out

    code, _, err = run_cli("triage", tmp_path / "missing")
    assert code == 2 and "no such results folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli("triage", empty)
    assert code == 2 and "no run results" in err
    broken = tmp_path / "broken" / "2026-01-01_00-00-00" / "x"
    broken.mkdir(parents=True)
    (broken / "run_1.json").write_text("{not json", "utf-8")
    code, _, err = run_cli("triage", tmp_path / "broken")
    assert code == 2 and "cannot read" in err


def test_other_writers_field_names_are_read(tmp_path: Path) -> None:
    """Mantle's own run files: `criteria[{criterion, passed}]` + rationale, transcript
    lines as text, `overall_result`; no case file on disk."""
    folder = tmp_path / "2026-01-01_00-00-00" / "card_replace_lost"
    folder.mkdir(parents=True)
    (folder / "run_1.json").write_text(
        json.dumps(
            {
                "scenario_slug": "card_replace_lost",
                "run_index": 1,
                "overall_result": "FAIL",
                "transcript": [
                    "user: I lost my card",
                    "agent: Which card?",
                    "user: the debit one",
                    "agent: Do you want to block it?",
                ],
                "events": [
                    {"event": "user", "text": "I lost my card"},
                    {"event": "skill_activated", "skill_id": "card_replace"},
                    {"event": "user", "text": "the debit one"},
                    {"event": "bot", "text": "Do you want to block it?"},
                ],
                "criteria": [
                    {
                        "index": 1,
                        "criterion": "The agent does not ask whether to block",
                        "passed": False,
                        "rationale": "At turn 2 the agent asked to block.",
                    }
                ],
                "assertions": [],
            }
        ),
        "utf-8",
    )
    found = triage_results(tmp_path, model="offline")
    [item] = found["failures"]
    assert (item["bucket"], item["turn"]) == ("Instruction", 2)


def test_judge_reasons_point_at_turns() -> None:
    assert criterion_turn("[T3] the agent asked twice, first at [T2].") == 3
    assert criterion_turn("In turn 4 the agent said the order was placed.") == 4
    assert criterion_turn("The agent never did it.") is None


def _answer(bucket: str, confidence: float) -> dict[str, Any]:
    return {
        "bucket": bucket,
        "turn": 2,
        "fix": f"model fix ({bucket})",
        "reason": "[T2] the model's reading.",
        "confidence": confidence,
    }


def test_a_model_refines_but_never_overrides_tool_evidence(
    openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for slug in ("card_replace_stolen", "human_handoff_frustrated_escalation"):
        shutil.copytree(STAMP / slug, tmp_path / STAMP.name / slug)
    openai_stub.handler = lambda request: _answer("Scenario", 0.9)
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    found = triage_results(tmp_path, project=BANK, model="triage-model", no_cache=True)
    tool = failure(found, "card_replace_stolen", 1)
    assert (tool["bucket"], tool["turn"]) == ("Tool", 7)
    assert tool["method"] == "rules+llm:triage-model"
    assert any(e["kind"] == "model" and "Scenario" in e["text"] for e in tool["evidence"])
    refined = failure(found, "human_handoff_frustrated_escalation")
    assert (refined["bucket"], refined["turn"], refined["fix"]) == (
        "Scenario",
        2,
        "model fix (Scenario)",
    )
    assert refined["method"] == "rules+llm:triage-model"
    prompt = openai_stub.requests[0].text
    assert "<Rules>" in prompt and "[T1] user:" in prompt


def test_an_unsure_model_leaves_the_rules_verdict(
    openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shutil.copytree(
        STAMP / "human_handoff_frustrated_escalation",
        tmp_path / STAMP.name / "human_handoff_frustrated_escalation",
    )
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    openai_stub.handler = lambda request: _answer("Tool", 0.2)
    unsure = triage_results(tmp_path, project=BANK, model="triage-model", no_cache=True)
    [item] = unsure["failures"]
    assert (item["bucket"], item["turn"]) == ("Skill", 1)
    assert any(e["kind"] == "model" and "0.20" in e["text"] for e in item["evidence"])


def test_a_failing_model_leaves_the_rules_verdict_and_warns(
    openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A separate test (and stub): the OpenAI client keeps its connection pool per endpoint,
    # tied to the event loop of the first call.
    shutil.copytree(
        STAMP / "human_handoff_frustrated_escalation",
        tmp_path / STAMP.name / "human_handoff_frustrated_escalation",
    )
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    openai_stub.handler = lambda request: server_error(400)
    failed = triage_results(tmp_path, project=BANK, model="triage-model", no_cache=True)
    [item] = failed["failures"]
    assert (item["bucket"], item["method"]) == ("Skill", "rules")
    assert "model review failed" in failed["warnings"][0]


def _anychat_run(tmp_path: Path, events: list[dict[str, Any]]) -> Path:
    folder = tmp_path / "results" / "2026-03-09_09-00-00" / "book-cleaning-new-patient"
    folder.mkdir(parents=True)
    (folder / "run_1.json").write_text(
        json.dumps(
            {
                "scenario_name": "New patient books a cleaning",
                "scenario_slug": "book-cleaning-new-patient",
                "case_path": str(EXAMPLES / "clinic" / "cases" / "book-cleaning-new-patient.json"),
                "dialect": "anychat",
                "run_index": 1,
                "status": "failed",
                "eval_passed": False,
                "errored": False,
                "stop_reason": "simulator_done",
                "transcript": [
                    {
                        "turn": 1,
                        "role": "user",
                        "text": "Hi, can I book a teeth cleaning this week?",
                    },
                    {"turn": 1, "role": "agent", "text": "Here are the next openings: [ask.time]"},
                    {"turn": 2, "role": "user", "text": "[slot 0]"},
                    {"turn": 2, "role": "agent", "text": "Sorry, something went wrong."},
                ],
                "events": events,
                "assertions": [
                    {
                        "index": 2,
                        "type": "appointmentCreated",
                        "passed": False,
                        "detail": "expected an appointment to be created; none was",
                    }
                ],
                "criteria": [],
            }
        ),
        "utf-8",
    )
    return tmp_path / "results"


def test_anychat_wrong_playbook_is_skill(tmp_path: Path) -> None:
    results = _anychat_run(
        tmp_path,
        [
            {"event": "user", "text": "Hi, can I book a teeth cleaning this week?"},
            {"event": "playbook_switched", "from": "general", "to": "cancel"},
            {"event": "user", "text": "[slot 0]"},
        ],
    )
    [item] = triage_results(results, model="offline")["failures"]
    assert (item["bucket"], item["turn"], item["rule"]) == ("Skill", 1, "wrong-skill")
    assert "playbooks/book.yml" in item["fix"] and "playbooks/cancel.yml" in item["fix"]


def test_anychat_tool_error_is_tool(tmp_path: Path) -> None:
    results = _anychat_run(
        tmp_path,
        [
            {"event": "user", "text": "Hi, can I book a teeth cleaning this week?"},
            {"event": "playbook_switched", "from": "general", "to": "book"},
            {"event": "tool_called", "name": "check_availability", "args": {}, "result": {}},
            {"event": "user", "text": "[slot 0]"},
            {
                "event": "tool_called",
                "name": "book_appointment",
                "args": {"slot": "s-0310-1030"},
                "result": {"error": "calendar unavailable"},
                "is_error": True,
            },
        ],
    )
    [item] = triage_results(results, model="offline")["failures"]
    assert (item["bucket"], item["turn"]) == ("Tool", 2)
    assert "book_appointment" in item["evidence"][0]["text"]


async def test_broken_demo_bank_runs_are_triaged(tmp_path: Path) -> None:
    """The bank demo's documented mutations, played through the runner, land in their
    buckets: a failing tool is Tool, forgetting what the customer said is Instruction."""
    demo = pytest.importorskip("evalcore.agents.demo")
    from evalcore.runner import ResultsWriter, RunOptions, collect_cases, run_cases

    scenarios = BANK / "eval" / "scenarios"
    for stamp, case, flags in (
        ("fail_tool", "card_replace_stolen.yml", {"fail_tool": "place_replacement_order"}),
        ("forget_reason", "check_balance_savings_happy.yml", {"forget_reason": True}),
    ):
        cases = collect_cases([scenarios / case])
        writer = ResultsWriter(tmp_path / "results", timestamp=stamp)
        await run_cases(cases, demo.make_demo_target("bank", **flags), RunOptions(), results=writer)
    from agentflows.triage import triage_results_async

    found = await triage_results_async(tmp_path / "results", model="offline")
    buckets = {f["slug"]: f for f in found["failures"]}
    tool = buckets["card_replace_stolen"]
    assert tool["bucket"] == "Tool" and "place_replacement_order" in tool["evidence"][0]["text"]
    assert tool["evidence"][0]["text"].startswith(f"[T{tool['turn']}] tool:")
    assert buckets["check_balance_savings_happy"]["bucket"] == "Instruction"


def test_a_persona_with_no_answer_is_the_scenario_s_fault(run_cli, tmp_path: Path) -> None:
    """examples/bank's card_replace_damaged, played offline: its free-prose persona has no
    date of birth, so the offline user cannot answer the agent's security question. `run`
    says so before playing, and triage blames the Scenario (not the skill's instruction)."""
    case = BANK / "eval" / "scenarios" / "card_replace_damaged.yml"
    code, _, err = run_cli("run", case, "--target", "demo:bank", "--results", tmp_path / "r")
    assert code == 1
    assert "note: card_replace_damaged: free-prose simulation_context" in err
    assert "only a simulator model (--model) plays it as written" in err
    report = triage_results(tmp_path / "r", project=BANK)
    [found] = report["failures"]
    assert (found["bucket"], found["rule"]) == ("Scenario", "simulator-lacks-fact")
    assert "date of birth" in found["fix"] and "simulation_context" in found["fix"]
