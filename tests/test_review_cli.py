"""`casegen review` (non-interactive): output shapes, exit codes, the rules-only note."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_review_support import BANK, CLINIC, SCENARIOS, mantle, write_yaml


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CASEGEN_MODEL", raising=False)
    monkeypatch.chdir(tmp_path)


def test_json_shape_and_exit_0(run_cli_json) -> None:
    code, payload = run_cli_json("review", SCENARIOS, CLINIC / "cases")
    assert code == 0
    assert set(payload) >= {"files", "summary", "engine"}
    assert payload["engine"] == "rules" and payload["note"] == "deterministic rules only"
    assert payload["summary"]["files"] == 7 and payload["summary"]["errors"] == 0
    first = payload["files"][0]
    assert set(first) >= {"path", "dialect", "comments"}
    comments = [c for f in payload["files"] for c in f["comments"]]
    assert comments and set(comments[0]) >= {
        "path",
        "line",
        "severity",
        "code",
        "message",
        "suggestion",
    }


def test_error_comment_exits_1(tmp_path: Path, run_cli_json) -> None:
    case = mantle(
        type="happy_path",
        context="The agent should call utter_card_blocked.",
        assertions=[{"skill_activated": {"skill_id": "card_replace"}}],
    )
    file = write_yaml(tmp_path / "card_replace_leaky.yml", case)
    code, payload = run_cli_json("review", file, "--project", BANK)
    assert code == 1
    codes = {c["code"]: c["severity"] for c in payload["files"][0]["comments"]}
    assert codes["no-decisive-assertion"] == "error" and codes["leaky-context"] == "error"
    assert payload["summary"]["by_code"]["leaky-context"] == 2  # internals + outcome wording


def test_human_output(tmp_path: Path, run_cli) -> None:
    file = write_yaml(
        tmp_path / "card_replace_vague.yml",
        mantle(
            criteria=["The agent responds appropriately"],
            assertions=[{"skill_completed": {"skill_id": "card_replace"}}],
        ),
    )
    code, out, _ = run_cli("review", file, "--project", BANK)
    assert code == 0
    assert "[vague-criterion]" in out and "/scenario/goals/criteria/0" in out
    assert "deterministic rules only" in out
    assert "0 errors, 1 warnings" in out


def test_no_paths_is_a_usage_error(run_cli) -> None:
    code, _, err = run_cli("review")
    assert code == 2 and "nothing to review" in err
