"""Errors a person sees: one JSON object under --json, escaped text, no encoding crashes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

MISSING = "/nonexistent/casegen-test"

USAGE_ERRORS = [
    ("validate", MISSING),
    ("repair", MISSING, "--dry-run"),
    ("generate", "card_replce", "--project", str(EXAMPLES / "bank"), "--model", "offline"),
    ("run", MISSING, "--target", "demo:bank"),
    ("run", str(EXAMPLES / "bank/eval/scenarios"), "--target", "nosuch:x"),
    ("review", MISSING),
    ("revise", MISSING, "--comment", "x"),
    ("triage", MISSING),
    ("sources", "--project", MISSING),
    ("status", "--manifest", MISSING),
    ("assert", MISSING, "--events", MISSING),
    ("validate", "--bogus-option"),
    ("run", str(EXAMPLES / "bank/eval/scenarios")),  # --target missing
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=lambda a: " ".join(a[:2]))
def test_usage_errors_under_json_print_one_error_object(run_cli, args: tuple[str, ...]) -> None:
    code, out, err = run_cli(*args, "--json")
    assert code == 2, err
    assert "Traceback" not in err
    error = json.loads(out)
    assert set(error) == {"error", "hint", "exit_code"}
    assert error["exit_code"] == 2 and error["error"]


def test_no_arguments_show_the_help_and_a_usage_error_its_usage_line(run_cli) -> None:
    """typer names none of its (vendored click's) usage errors publicly: both kinds must
    still be told apart, the bare `casegen` (the help, exit 2, no error line) from a
    bad option (the usage line, the error, a hint)."""
    code, out, err = run_cli()
    assert code == 2 and "Commands" in out + err and "error:" not in out + err
    code, out, err = run_cli("validate", "--bogus-option")
    assert (code, out) == (2, "") and "Usage: casegen validate" in err
    assert "error:" in err and "--bogus-option" in err and "see `casegen validate --help`" in err


def test_typo_target_error_carries_the_suggestion(run_cli) -> None:
    code, out, _ = run_cli("generate", "card_replce", "--project", EXAMPLES / "bank", "--json")
    assert code == 2 and "card_replace" in json.loads(out)["hint"]


def test_markup_in_a_path_is_printed_not_interpreted(run_cli) -> None:
    code, _, err = run_cli("validate", "no[/]such.yml")
    assert code == 2
    assert "no[/]such.yml" in err


def test_brackets_in_warnings_survive(tmp_path: Path, run_cli) -> None:
    project = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", project)
    memory = project / "skills/card_replace/memory.yml"
    memory.write_text(
        memory.read_text().replace("schema:\n", "schema:\n  code_[a-z]+:\n    type: text\n", 1)
    )
    code, out, err = run_cli("sources", "--project", project)
    assert code == 0, err
    assert "code_[a-z]+" in out


def _surrogate_case(tmp_path: Path) -> Path:
    """A base44 eval whose first check type is a lone surrogate escape (valid JSON)."""
    data = json.loads((EXAMPLES / "skills/evals/todo-entities/eval.json").read_text())
    data["prompts"][0]["name"] = "\ud800x"
    data["prompts"][0]["checks"][0]["type"] = "\ud800"  # a schema error that shows the value
    case = tmp_path / "evals" / "sur" / "eval.json"
    case.parent.mkdir(parents=True)
    case.write_text(json.dumps(data))  # ensure_ascii: the file holds the `\ud800` escape
    return case


def test_lone_surrogate_in_json_output(tmp_path: Path, run_cli) -> None:
    case = _surrogate_case(tmp_path)
    code, out, err = run_cli("validate", case, "--json")
    assert "Traceback" not in err
    assert code in (0, 1)
    assert json.loads(out)["files"][0]["path"] == str(case)
    assert "\\ud800" in out  # written as the JSON escape, never as a raw surrogate
    code, out, err = run_cli("repair", case, "--dry-run", "--json")
    assert "Traceback" not in err
    json.loads(out)
    out.encode("utf-8")  # printable: the surrogate stays an escape


def test_lone_surrogate_in_human_output_and_writes(tmp_path: Path, run_cli) -> None:
    scenario = tmp_path / "eval/scenarios/case.yml"
    scenario.parent.mkdir(parents=True)
    text = (EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml").read_text()
    scenario.write_text(text.replace("skill_id: card_replace", 'skill_id: "card_replac\\uD800"'))
    code, out, err = run_cli("validate", scenario, "--project", EXAMPLES / "bank")
    assert code == 1 and "Traceback" not in err
    assert "card_replac\\ud800" in out
    code, out, err = run_cli("repair", scenario, "--project", EXAMPLES / "bank")
    assert code == 0 and "Traceback" not in err
    assert "skill_id: card_replace\n" in scenario.read_text()
