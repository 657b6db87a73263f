"""`casegen assert SCENARIO --events FILE [--json]` through the in-process CLI."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data" / "events"
TRACKER = DATA / "card_replace_damaged.json"
SCENARIO = DATA / "card_replace_damaged.scenario.yml"

FAILING = """\
scenario:
  name: Damaged card, but the assertions expect a stolen one
  simulation_context: A customer with a cracked chip.
  goals:
    assertions:
      - skill_completed: {skill_id: card_replace}
      - memory_was_set: [{name: card_replace.replacement_reason, value: stolen}]
"""


def _flat(text: str) -> str:
    """Messages as one line: rich wraps stderr at the terminal width."""
    return " ".join(text.split())


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_passing_scenario_json(run_cli) -> None:
    code, out, _ = run_cli("assert", SCENARIO, "--events", TRACKER, "--json")
    assert code == 0
    payload = json.loads(out)  # stdout is exactly one JSON document
    assert set(payload) == {"passed", "assertions"}
    assert payload["passed"] is True
    assert len(payload["assertions"]) == 11
    for number, item in enumerate(payload["assertions"]):
        assert set(item) == {"index", "type", "passed", "detail"}
        assert item["index"] == number and item["passed"] is True and item["detail"]
    assert payload["assertions"][0]["type"] == "skill_activated"


def test_passing_scenario_table(run_cli) -> None:
    code, out, _ = run_cli("assert", SCENARIO, "--events", TRACKER)
    assert code == 0
    assert "PASS" in out and "FAIL" not in out
    assert "11/11 assertions passed" in out


def test_failing_assertion_exits_1(run_cli, tmp_path: Path) -> None:
    scenario = _write(tmp_path, "stolen.yml", FAILING)
    code, out, _ = run_cli("assert", scenario, "--events", TRACKER, "--json")
    assert code == 1
    payload = json.loads(out)
    assert payload["passed"] is False
    assert [a["passed"] for a in payload["assertions"]] == [True, False]
    assert 'value is "damaged", not "stolen"' in payload["assertions"][1]["detail"]

    code, out, _ = run_cli("assert", scenario, "--events", TRACKER)
    assert code == 1
    assert "FAIL" in out and "1/2 assertions passed" in out


def test_bare_event_list(run_cli, tmp_path: Path) -> None:
    events = json.loads(TRACKER.read_text(encoding="utf-8"))["events"]
    bare = _write(tmp_path, "events.json", json.dumps(events))
    code, out, _ = run_cli("assert", SCENARIO, "--events", bare, "--json")
    assert code == 0 and json.loads(out)["passed"] is True


def test_scenario_without_assertions_passes(run_cli, tmp_path: Path) -> None:
    scenario = _write(tmp_path, "no_goals.yml", "scenario:\n  name: x\n  simulation_context: y\n")
    code, out, _ = run_cli("assert", scenario, "--events", TRACKER, "--json")
    assert code == 0
    assert json.loads(out) == {"passed": True, "assertions": []}


def test_missing_events_file_exits_2(run_cli, tmp_path: Path) -> None:
    code, out, _ = run_cli("assert", SCENARIO, "--events", tmp_path / "nope.json", "--json")
    assert code == 2
    error = json.loads(out)  # under --json the error is the one JSON object on stdout
    assert error["exit_code"] == 2 and "events file not found" in error["error"]
    assert error["hint"]


def test_invalid_json_exits_2(run_cli, tmp_path: Path) -> None:
    broken = _write(tmp_path, "broken.json", '{"events": [\n  {"event": "user",}\n]}')
    code, _, err = run_cli("assert", SCENARIO, "--events", broken)
    assert code == 2
    assert "not valid JSON" in _flat(err) and "line 2" in _flat(err)


def test_malformed_event_exits_2(run_cli, tmp_path: Path) -> None:
    bad = _write(
        tmp_path,
        "bad.json",
        json.dumps({"events": [{"event": "user", "text": "hi"}, {"event": "bot", "data": []}]}),
    )
    code, _, err = run_cli("assert", SCENARIO, "--events", bad)
    assert code == 2
    assert "malformed event 1 (bot)" in _flat(err) and "'data' must be an object" in _flat(err)


def test_events_rasa_refuses_are_skipped_not_fatal(run_cli, tmp_path: Path) -> None:
    """Rasa's tracker reader skips a skill event without skill_id; so does casegen."""
    events = json.loads(TRACKER.read_text(encoding="utf-8"))["events"]
    log = _write(tmp_path, "log.json", json.dumps([*events, {"event": "skill_activated"}]))
    code, _, _ = run_cli("assert", SCENARIO, "--events", log)
    assert code == 0


def test_events_not_a_tracker_exits_2(run_cli, tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.json", json.dumps({"sender_id": "sim-1"}))
    code, _, err = run_cli("assert", SCENARIO, "--events", bad)
    assert code == 2
    assert "no 'events' list" in _flat(err)


def test_missing_scenario_exits_2(run_cli, tmp_path: Path) -> None:
    code, _, err = run_cli("assert", tmp_path / "nope.yml", "--events", TRACKER)
    assert code == 2
    assert "scenario file not found" in _flat(err)


def test_unparsable_scenario_exits_2(run_cli, tmp_path: Path) -> None:
    scenario = _write(tmp_path, "bad.yml", "scenario:\n  name: [unclosed\n")
    code, _, err = run_cli("assert", scenario, "--events", TRACKER)
    assert code == 2
    assert "cannot read scenario" in _flat(err)


def test_assertions_not_a_list_exits_2(run_cli, tmp_path: Path) -> None:
    scenario = _write(
        tmp_path,
        "bad.yml",
        "scenario:\n  name: x\n  simulation_context: y\n"
        "  goals:\n    assertions: {skill_completed: x}\n",
    )
    code, _, err = run_cli("assert", scenario, "--events", TRACKER)
    assert code == 2
    assert "must be a list" in _flat(err)


def test_events_option_is_required(run_cli) -> None:
    code, _, _ = run_cli("assert", SCENARIO)
    assert code == 2


VALIDATE_REJECTS = """\
scenario:
  name: Assertions casegen validate rejects
  simulation_context: A customer with a cracked chip.
  goals:
    assertions:
      - tool_executed: {tool_name: place_replacement_order, source: mcp}
      - tools_within_one_turn:
          calls:
            - tool_executed: {tool_name: place_replacement_order, source: local}
          allow_extra_calls: true
      - skill_completed: {skill_id: card_replace}
      - tool_executed: {tool_name: place_replacement_order, source: local, argumets: {}}
"""


def test_assert_refuses_what_validate_rejects(run_cli, tmp_path: Path) -> None:
    scenario = _write(tmp_path, "rejected.yml", VALIDATE_REJECTS)
    code, _, _ = run_cli("validate", scenario, "--no-project")
    assert code == 1
    code, out, _ = run_cli("assert", scenario, "--events", TRACKER, "--json")
    assert code == 1
    results = json.loads(out)["assertions"]
    assert [r["passed"] for r in results] == [False, False, True, False]
    assert [r.get("invalid", False) for r in results] == [True, True, False, True]
    assert "source: mcp needs mcp_server" in results[0]["detail"]
    assert "at least two calls" in results[1]["detail"]
    assert "casegen validate" in results[3]["detail"]
