"""First-use friction of the command line, one test (or more) per point: `casegen mcp` in a
terminal, validate/review of nothing or without a project, piped tables, `--version`, a
light `--help`, no `<bool>` placeholders, and no "did you mean" between opposite ids."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, REPO
from rich.console import Console
from rich.table import Table

from agentflows.cli import COMMANDS
from agentflows.cli._app import reflow
from agentflows.cli._output import print_table
from evalcore.assertions import evaluate_mantle
from evalcore.suggest import close_matches, did_you_mean, opposite, unique_close_match

CASEGEN = [sys.executable, "-c", "from agentflows.cli import run; run()"]


# --- casegen mcp in a terminal ----------------------------------------------------------


def _wait_for(stream: io.BufferedReader, text: bytes, timeout: float) -> bytes:
    os.set_blocking(stream.fileno(), False)
    seen, deadline = b"", time.monotonic() + timeout
    while text not in seen and time.monotonic() < deadline:
        chunk = stream.read()
        if chunk:
            seen += chunk
        else:
            time.sleep(0.05)
    return seen


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_mcp_in_a_terminal_says_what_it_is_and_ctrl_c_quits(tmp_path: Path) -> None:
    primary, secondary = os.openpty()
    proc = subprocess.Popen(
        [*CASEGEN, "mcp"], stdin=secondary, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        said = _wait_for(proc.stderr, b"Ctrl-C quits", timeout=60)
        assert b"MCP server on stdio, waiting for a client" in said, said
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        assert time.monotonic() - started < 5
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
        os.close(secondary)


def test_mcp_under_a_client_prints_nothing_on_stderr(tmp_path: Path) -> None:
    """Stdin is a pipe (a client): no banner; the server ends when the client closes it."""
    done = subprocess.run(
        [*CASEGEN, "mcp"], input=b"", capture_output=True, cwd=tmp_path, timeout=60, check=False
    )
    assert b"waiting for a client" not in done.stderr
    assert done.returncode == 0, done.stderr[-1000:]


# --- validate / review: no false greens --------------------------------------------------


@pytest.fixture
def wrong_tool(tmp_path: Path) -> Path:
    """A case with a misspelt tool name, in a folder that belongs to no project."""
    case = tmp_path / "case.yml"
    text = (EXAMPLES / "bank/eval/scenarios/card_replace_damaged.yml").read_text("utf-8")
    assert "tool_name: order_replacement" in text
    case.write_text(
        text.replace("tool_name: order_replacement", "tool_name: order_replacemnt"), "utf-8"
    )
    return case


def test_validate_outside_a_project_is_not_green(wrong_tool: Path, run_cli) -> None:
    code, out, _ = run_cli("validate", wrong_tool)
    assert code == 1
    assert "error [no-project]" in out and "--no-project" in out
    code, out, _ = run_cli("validate", wrong_tool, "--project", EXAMPLES / "bank")
    assert code == 1 and "order_replacemnt" in out and "did you mean 'order_replacement'" in out
    code, out, _ = run_cli("validate", wrong_tool, "--no-project")  # explicit: schema only
    assert code == 0 and "schema only" in out
    code, _, err = run_cli("validate", wrong_tool, "--no-project", "--project", EXAMPLES / "bank")
    assert code == 2 and "contradict" in err


@pytest.mark.parametrize("command", ["validate", "review"])
def test_a_folder_without_case_files_is_a_usage_error(command: str, tmp_path: Path, run_cli):
    (tmp_path / "notes.txt").write_text("not a case", "utf-8")
    code, out, err = run_cli(command, tmp_path)
    assert code == 2, out
    assert "no case files found under" in err and str(tmp_path) in err
    code, out, _ = run_cli(command, tmp_path, "--json")
    assert code == 2 and json.loads(out)["exit_code"] == 2


# --- piped tables ------------------------------------------------------------------------


def test_piped_tables_keep_file_names_whole() -> None:
    path = "generated_cases/mantle/" + "very_long_skill_name/" * 6 + "case_file_name.yml"
    reason = "definitions changed: " + ", ".join(f"skills/skill_{i}/skill.md" for i in range(8))

    def table() -> Table:
        t = Table()
        t.add_column("case", no_wrap=True)
        t.add_column("status")
        t.add_column("reasons", overflow="fold")
        t.add_row(path, "stale", reason)
        return t

    piped = Console(file=io.StringIO(), width=140, force_terminal=False)
    print_table(table(), piped)
    assert any(path in line for line in piped.file.getvalue().splitlines())
    # the same table printed plainly at 140 columns loses the name: the check can fail
    plain = Console(file=io.StringIO(), width=140, force_terminal=False)
    plain.print(table())
    assert not any(path in line for line in plain.file.getvalue().splitlines())


# --- --version, --help ---------------------------------------------------------------------


def test_version(run_cli) -> None:
    from importlib.metadata import version

    for flag in ("--version", "-V"):
        code, out, _ = run_cli(flag)
        assert code == 0 and out.startswith(f"casegen {version('casegen')} (Python ")


def test_help_imports_no_command_machinery() -> None:
    """`casegen --help` loads typer and rich, not the runner, the agents, the scoring or the
    repair engine (2.4 s of the 3.2 s it took came from `mutate`'s imports alone)."""
    probe = (
        "import contextlib, io, json, sys\n"
        "from agentflows.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, check=True
    )
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    heavy = {
        "evalcore.runner",
        "evalcore.agents",
        "evalcore.repair",
        "evalcore.dialects",
        "agentflows.mutate",
        "agentflows.scoring",
        "agentflows.report",
        "pydantic",
    }
    assert not loaded & heavy, sorted(loaded & heavy)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_flags_show_no_bool_placeholder(command: str, run_cli) -> None:
    code, out, _ = run_cli(command, "--help")
    assert code == 0
    assert "<bool>" not in out and "--help" in out


def test_no_bool_placeholder_in_top_level_help(run_cli) -> None:
    code, out, _ = run_cli("--help")
    assert code == 0 and "<bool>" not in out and "--version" in out
    code, out, _ = run_cli("run", "--help")
    assert "--json " in out and "--json <bool>" not in out
    assert "<path>" in out  # options that take a value keep their type


def test_help_paragraphs_are_reflowed_but_lists_kept() -> None:
    assert reflow("Exit 0 when\nall pass.\n\nSecond\nparagraph.") == (
        "Exit 0 when all pass.\n\nSecond paragraph."
    )
    laid_out = "Tools:\n- one\n- two"
    assert reflow(laid_out) == laid_out


# --- suggestions ---------------------------------------------------------------------------


def test_no_did_you_mean_between_opposite_ids() -> None:
    assert opposite("utter_order_not_placed", "utter_order_placed")
    assert opposite("block_card", "unblock_card") and opposite("is_eligible", "is_ineligible")
    assert not opposite("utter_order_placd", "utter_order_placed")
    assert not opposite("info", "fo")
    assert close_matches("utter_order_not_placed", ["utter_order_placed"]) == []
    assert "did you mean" not in (did_you_mean("utter_order_not_placed", ["utter_order_placed"]))
    # repair must never turn an outcome into its opposite
    assert unique_close_match("utter_order_not_placed", ["utter_order_placed"]) is None
    # a real typo is still caught, and the opposite is not offered next to it
    assert did_you_mean("utter_order_placd", ["utter_order_placed", "utter_greet"]) == (
        "did you mean 'utter_order_placed'?"
    )


def test_a_failed_bot_uttered_does_not_hint_the_opposite_response() -> None:
    events = [
        {"event": "user", "text": "place it"},
        {"event": "bot", "text": "Placed.", "metadata": {"utter_action": "utter_order_placed"}},
    ]
    (result,) = evaluate_mantle([{"bot_uttered": {"utter_name": "utter_order_not_placed"}}], events)
    assert not result.passed
    assert "utter_order_placed" in result.detail  # what the agent said instead is named
    assert "did you mean" not in result.detail


def test_version_works_from_any_folder(tmp_path: Path) -> None:
    """`casegen --version` needs no project or manifest around it."""
    done = subprocess.run(
        [*CASEGEN, "--version"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("casegen ")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_usage_lines_name_arguments_plainly(command: str, run_cli) -> None:
    """`casegen run [OPTIONS] PATHS...`, not typer's `{paths}...` placeholder."""
    _, out, _ = run_cli(command, "--help")
    usage = next(line for line in out.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage


def test_a_run_line_counts_one_turn_as_one(tmp_path: Path, run_cli) -> None:
    case = tmp_path / "one.yml"
    case.write_text(
        "scenario:\n  name: Just hello\n  simulation_context: >-\n"
        '    Follow these steps: 1. Say: "Hi"\n'
        "  goals:\n    criteria:\n      - The agent greets the customer\n",
        encoding="utf-8",
    )
    _, out, _ = run_cli("run", case, "--target", "demo:bank", "--results", tmp_path / "r")
    assert "(1 turn, " in out and "(1 turns" not in out, out


def test_run_and_report_show_paths_as_typed_from_here(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `/home/…/eval/results/…`: the results folder, inside the working folder, is shown
    relative to it by `run`, `report` and the HTML page's header."""
    project = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", project)
    monkeypatch.chdir(project)
    case = "eval/scenarios/card_replace_stolen.yml"
    _, out, _ = run_cli("run", case, "--target", "demo:bank")
    results = next(line for line in out.splitlines() if line.startswith("results: "))
    assert results.startswith("results: eval/results/"), results
    batch = project / results.removeprefix("results: ")
    _, out, _ = run_cli("report", batch, "--html", "page.html")  # given absolute
    assert f"results {batch.relative_to(project)}" in out and str(tmp_path) not in out
    assert "1 case · 1 run:" in out
    page = (project / "page.html").read_text(encoding="utf-8")
    assert f"results <b>{batch.relative_to(project)}</b>" in page
    where = page.find(str(tmp_path))
    assert where < 0, page[where - 200 : where + 100]
