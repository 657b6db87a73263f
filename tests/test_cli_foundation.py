"""`casegen sources`, `validate` and `repair` as a person or a coding agent uses them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    """A private copy of the bank example (repair writes files)."""
    target = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", target)
    return target


def test_every_example_validates(run_cli_json) -> None:
    code, payload = run_cli_json("validate", EXAMPLES)
    assert code == 0
    dialects = {f["dialect"] for f in payload["files"]}
    assert dialects == {"mantle", "anychat", "base44"}
    assert payload["summary"]["invalid"] == 0
    assert all(not f["errors"] and not f["warnings"] for f in payload["files"])
    # Definition files (memory.yml, tools.yml, package.json...) are not mistaken for cases.
    assert all(
        "/scenarios/" in f["path"] or "/cases/" in f["path"] or f["path"].endswith("eval.json")
        for f in payload["files"]
    )


def test_validate_reports_findings_with_line_path_value_suggestion(
    bank: Path, run_cli_json
) -> None:
    case = bank / "eval" / "scenarios" / "bad.yml"
    case.write_text(
        "scenario:\n"
        "  name: Typos everywhere\n"
        "  simulation_context: A customer.\n"
        "  goals:\n"
        "    assertions:\n"
        "      - skill_completed:\n"
        "          skill_id: card_replac\n"
        "      - tool_executed:\n"
        "          tool_name: place_replacement_ordr\n"
        "          source: local\n"
    )
    code, payload = run_cli_json("validate", case)
    assert code == 1
    [report] = payload["files"]
    assert report["valid"] is False
    errors = {(e["code"], e["path"], e["line"]) for e in report["errors"]}
    assert errors == {
        ("unknown-skill", "/scenario/goals/assertions/0/skill_completed/skill_id", 7),
        ("unknown-tool", "/scenario/goals/assertions/1/tool_executed/tool_name", 9),
    }
    skill = next(e for e in report["errors"] if e["code"] == "unknown-skill")
    assert skill["value"] == "card_replac"
    assert "card_replace" in skill["suggestion"]


def test_validate_without_project_fails_unless_schema_only_is_asked(
    tmp_path: Path, run_cli_json
) -> None:
    case = tmp_path / "case.yml"
    shutil.copy(EXAMPLES / "bank/eval/scenarios/card_replace_damaged.yml", case)
    code, payload = run_cli_json("validate", case)
    assert code == 1
    [report] = payload["files"]
    assert [e["code"] for e in report["errors"]] == ["no-project"]
    assert "--no-project" in report["errors"][0]["suggestion"]
    code, payload = run_cli_json("validate", case, "--no-project")
    assert code == 0 and payload["lint"] == "skipped (--no-project)"
    assert payload["files"][0]["errors"] == payload["files"][0]["warnings"] == []


def test_validate_with_explicit_project_and_dialect(tmp_path: Path, run_cli_json) -> None:
    case = tmp_path / "case.txt"
    case.write_text((EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml").read_text())
    code, payload = run_cli_json(
        "validate", case, "--dialect", "mantle", "--project", EXAMPLES / "bank"
    )
    assert code == 0
    assert payload["files"][0]["dialect"] == "mantle"
    assert payload["files"][0]["warnings"] == []


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "no/such/file.yml"),
        ("validate", "examples", "--dialect", "mantel"),
        ("validate", "examples/bank", "--project", "docs"),
        ("validate",),
    ],
)
def test_usage_errors_exit_2(run_cli, args: tuple[str, ...]) -> None:
    code, out, err = run_cli(*args)
    assert code == 2
    assert out == "" or "Usage" in out or "Usage" in err


def test_unknown_dialect_suggests(run_cli) -> None:
    code, _, err = run_cli("validate", "examples", "--dialect", "mantel")
    assert code == 2 and "did you mean 'mantle'" in err


def test_human_output_names_file_line_path_and_fix(bank: Path, run_cli) -> None:
    case = bank / "eval" / "scenarios" / "card_replace_stolen.yml"
    case.write_text(case.read_text().replace("skill_id: card_replace", "skill_id: card_replac", 1))
    code, out, _ = run_cli("validate", case)
    assert code == 1
    assert "card_replace_stolen.yml" in out
    assert "[unknown-skill]" in out and "did you mean 'card_replace'" in out


def test_repair_dry_run_shows_diff_and_writes_nothing(bank: Path, run_cli_json) -> None:
    case = bank / "eval" / "scenarios" / "card_replace_stolen.yml"
    original = case.read_text()
    case.write_text(original.replace("skill_id: card_replace", "skill_id: card_replac", 1))
    broken = case.read_text()
    code, payload = run_cli_json("repair", case, "--dry-run")
    assert code == 0
    [record] = payload["files"]
    assert record["written"] is False
    assert record["repairs"][0]["before"] == "card_replac"
    assert record["repairs"][0]["after"] == "card_replace"
    assert "skill_id: card_replac\n" in record["diff"] and "+" in record["diff"]
    assert case.read_text() == broken


def test_repair_writes_canonical_file_and_is_idempotent(bank: Path, run_cli_json) -> None:
    case = bank / "eval" / "scenarios" / "card_replace_stolen.yml"
    original = case.read_text()
    case.write_text(original.replace("skill_id: card_replace", "skill_id: card_replac", 1))
    code, payload = run_cli_json("repair", case)
    assert code == 0 and payload["files"][0]["written"] is True
    assert case.read_text() == original  # the example is already in canonical form
    code, payload = run_cli_json("repair", case)
    assert code == 0 and payload["files"][0]["repairs"] == []


def test_repair_leaves_a_file_with_duplicate_keys_alone(bank: Path, run_cli_json) -> None:
    case = bank / "eval" / "scenarios" / "dup.yml"
    case.write_text("scenario:\n  name: A\n  name: B\n  simulation_context: x\n")
    code, payload = run_cli_json("repair", case)
    assert code == 1
    assert payload["files"][0]["written"] is False
    assert case.read_text() == "scenario:\n  name: A\n  name: B\n  simulation_context: x\n"
    assert payload["files"][0]["errors"][0]["code"] == "parse"


def test_repair_reports_what_it_cannot_fix(bank: Path, run_cli_json) -> None:
    case = bank / "eval" / "scenarios" / "card_replace_stolen.yml"
    case.write_text(case.read_text().replace("skill_id: card_replace", "skill_id: zzz", 1))
    code, payload = run_cli_json("repair", case)
    assert code == 1
    [record] = payload["files"]
    assert record["repairs"] == [] and record["written"] is False
    assert record["errors"][0]["code"] == "unknown-skill"


@pytest.mark.parametrize(
    "example,key", [("bank", "skills"), ("clinic", "playbooks"), ("skills", "agent_skills")]
)
def test_sources_json_lists_ids(run_cli_json, example: str, key: str) -> None:
    code, payload = run_cli_json("sources", "--project", EXAMPLES / example)
    assert code == 0
    assert payload[key]
    assert payload["warnings"] == []


def test_sources_bank_details(run_cli_json) -> None:
    _, payload = run_cli_json("sources", "--project", EXAMPLES / "bank")
    card = next(s for s in payload["skills"] if s["id"] == "card_replace")
    assert "pick_card" in card["blocks"]
    assert card["memory"]["card_replace.replacement_reason"] == "categorical"
    assert set(card["confirmation_gated"]) == {"order_replacement", "place_replacement_order"}
    assert payload["memory"]["project.caller_phone"]["seed"] is True
    handoff = {s["id"]: s["handoff"] for s in payload["skills"]}
    assert handoff == {
        "card_replace": False,
        "check_balance": False,
        "dispute_charge": False,
        "human_handoff": True,
    }


def test_sources_outside_a_project_is_a_usage_error(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("sources")
    assert code == 2 and "--project" in err
