"""`casegen status`: which generated cases went stale, broke, were edited or deleted.

Cases are generated offline into a temporary copy of examples/bank (with the fixed planner
and drafter of test_pr_flow.py), then the project or the cases are changed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from test_pr_flow import stub_generation  # noqa: F401  (fixture)

CARD = "generated_cases/mantle/card_replace"
BALANCE = "generated_cases/mantle/check_balance"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli, stub_generation: None) -> Path:  # noqa: F811
    folder = tmp_path / "work"
    shutil.copytree(EXAMPLES / "bank", folder / "bank")
    monkeypatch.chdir(folder)
    code, _, err = run_cli(
        *("generate", "card_replace", "check_balance", "--project", "bank", "--model", "offline"),
        "--no-verify",  # the stub drafts are about staleness, not what the agent does
    )
    assert code == 0, err
    return folder


def status(run_cli, *args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run_cli("status", *args, "--json")
    assert out.strip(), err
    return code, json.loads(out)


def by_path(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["path"]: c for c in payload["cases"]}


def card_cases(work: Path) -> list[Path]:
    return sorted((work / CARD).glob("*.yml"))


def test_freshly_generated_cases_are_fresh(work: Path, run_cli) -> None:
    code, payload = status(run_cli)
    assert code == 0
    assert payload["manifest"] == "generated_cases/manifest.json"
    assert len(payload["cases"]) == 4
    for case in payload["cases"]:
        assert case["status"] == "fresh"
        assert case["changed_sources"] == [] and case["unknown_ids"] == []
        assert case["edited"] is False
    assert payload["summary"] == {
        "cases": 4,
        "missing": 0,
        "broken": 0,
        "stale": 0,
        "edited": 0,
        "fresh": 4,
    }


def test_a_changed_skill_makes_only_its_cases_stale(work: Path, run_cli) -> None:
    skill = work / "bank" / "skills" / "card_replace" / "skill.md"
    skill.write_text(skill.read_text() + "\nConfirm the card's last four digits.\n")

    code, payload = status(run_cli)

    assert code == 1
    for path, case in by_path(payload).items():
        if path.startswith(CARD):
            assert case["status"] == "stale"
            assert case["changed_sources"] == [
                {"path": "skills/card_replace/skill.md", "change": "changed"}
            ]
            assert case["edited"] is False
        else:
            assert path.startswith(BALANCE) and case["status"] == "fresh"
    assert payload["summary"]["stale"] == 2 and payload["summary"]["fresh"] == 2
    assert "casegen generate card_replace --project bank --force" in payload["hints"][0]


def test_added_and_removed_definition_files_are_listed(work: Path, run_cli) -> None:
    skill_dir = work / "bank" / "skills" / "card_replace"
    (skill_dir / "tools").mkdir()
    (skill_dir / "tools.py").rename(skill_dir / "tools" / "cards.py")
    _, payload = status(run_cli)
    case = by_path(payload)[str(card_cases(work)[0].relative_to(work))]
    changes = {c["path"]: c["change"] for c in case["changed_sources"]}
    assert changes == {
        "skills/card_replace/tools.py": "removed",
        "skills/card_replace/tools/cards.py": "added",
    }


def test_a_renamed_response_breaks_the_case_that_uses_it(work: Path, run_cli) -> None:
    responses = work / "bank" / "skills" / "card_replace" / "responses.yml"
    used = "utter_ask_replacement_reason"  # the fixed drafter's happy path utters it
    [user, bystander] = sorted(card_cases(work), key=lambda p: used not in p.read_text())
    assert used in user.read_text() and used not in bystander.read_text()
    responses.write_text(responses.read_text().replace(used, "utter_ask_replace_reason"))

    code, payload = status(run_cli)

    assert code == 1
    case = by_path(payload)[str(user.relative_to(work))]
    assert case["status"] == "broken"
    [unknown] = case["unknown_ids"]
    assert unknown["code"] == "unknown-response"
    assert unknown["value"] == used
    assert unknown["path"].endswith("/bot_uttered/utter_name")
    assert unknown["line"] is not None
    assert "utter_ask_replace_reason" in unknown["suggestion"]
    assert {"path": "skills/card_replace/responses.yml", "change": "changed"} in case[
        "changed_sources"
    ]
    other = by_path(payload)[str(bystander.relative_to(work))]
    assert other["status"] == "stale" and other["unknown_ids"] == []


def test_a_deleted_case_is_missing(work: Path, run_cli) -> None:
    gone = card_cases(work)[0]
    gone.unlink()
    code, payload = status(run_cli)
    assert code == 0  # missing is reported, not a failure: the person may have meant it
    case = by_path(payload)[str(gone.relative_to(work))]
    assert case["status"] == "missing"
    assert payload["summary"]["missing"] == 1 and payload["summary"]["fresh"] == 3


def test_a_hand_edited_case_is_edited_not_stale(work: Path, run_cli) -> None:
    edited = card_cases(work)[0]
    edited.write_text(edited.read_text().replace("does not invent", "never invents"))
    code, payload = status(run_cli)
    assert code == 0
    case = by_path(payload)[str(edited.relative_to(work))]
    assert case["status"] == "edited" and case["edited"] is True
    assert case["changed_sources"] == []


def test_an_edited_stale_case_is_revised_not_overwritten(work: Path, run_cli) -> None:
    edited = card_cases(work)[0]
    edited.write_text(edited.read_text().replace("does not invent", "never invents"))
    skill = work / "bank" / "skills" / "card_replace" / "skill.md"
    skill.write_text(skill.read_text() + "\nOne more rule.\n")

    code, payload = status(run_cli)

    assert code == 1
    case = by_path(payload)[str(edited.relative_to(work))]
    assert case["status"] == "stale" and case["edited"] is True
    hints = "\n".join(payload["hints"])
    assert "casegen generate card_replace --project bank\n" in hints + "\n"  # no --force
    assert f"casegen revise {edited.relative_to(work)} --comment" in hints


def test_project_filter_and_explicit_manifest(work: Path, run_cli, tmp_path: Path) -> None:
    code, payload = status(run_cli, "--project", "bank")
    assert len(payload["cases"]) == 4
    other = tmp_path / "elsewhere"
    other.mkdir()
    code, payload = status(run_cli, "--project", str(other))
    assert code == 0 and payload["cases"] == []
    code, payload = status(run_cli, "--manifest", str(work / "generated_cases/manifest.json"))
    assert len(payload["cases"]) == 4


def test_manifest_is_found_from_a_subfolder(
    work: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(work / CARD)
    code, payload = status(run_cli)
    assert code == 0
    assert payload["manifest"] == "../../manifest.json"
    assert all(c["path"].startswith(("card_replace_", "../")) for c in payload["cases"])


def test_human_output_has_table_and_hints(work: Path, run_cli) -> None:
    skill = work / "bank" / "skills" / "card_replace" / "skill.md"
    skill.write_text(skill.read_text() + "\nOne more rule.\n")
    code, out, _ = run_cli("status")
    assert code == 1
    assert "stale" in out and "fresh" in out
    assert "skill.md" in out and "changed" in out
    assert "hint: regenerate: casegen generate card_replace --project bank --force" in out


def test_no_manifest_is_a_usage_error(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("status")
    assert code == 2
    assert "no generated_cases/manifest.json" in err


def test_worst_first_and_only_stale(work: Path, run_cli) -> None:
    """Stale rows lead (not alphabetical order), and --stale lists only what to redo."""
    skill = work / "bank" / "skills" / "check_balance" / "skill.md"
    skill.write_text(skill.read_text() + "\nRead the balance back twice.\n")
    deleted, edited = card_cases(work)
    deleted.unlink()
    edited.write_text(edited.read_text() + "# reviewed by hand\n")

    code, payload = status(run_cli)
    assert code == 1
    statuses = [c["status"] for c in payload["cases"]]
    assert statuses == ["missing", "stale", "stale", "edited"]
    assert all(c["path"].startswith(BALANCE) for c in payload["cases"][1:3])

    code, payload = status(run_cli, "--stale")
    assert code == 1
    assert [c["status"] for c in payload["cases"]] == ["stale", "stale"]
    assert payload["summary"]["missing"] == 1 and payload["summary"]["edited"] == 1

    code, out, _ = run_cli("status", "--stale")
    assert BALANCE in out and CARD not in out
    assert "2 not listed" in out
