"""What `generate` and `status` print in a terminal of 80 and 120 columns: every line fits,
the counts and verdicts of each case survive whole, names and prose wrap between words or
fold, and summary lines break between words (not "mutants ki" / "lled")."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

from agentflows.cli import _output, main
from agentflows.cli._generate_summary import _print_summary

ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("gen") / "card_replace"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        code = main(
            ["generate", "card_replace", "--project", str(EXAMPLES / "bank"), "--model",
             "offline", "--out", str(out), "--json"]
        )  # fmt: skip
    assert code == 0, printed.getvalue()
    return json.loads(printed.getvalue())


def _in_terminal(monkeypatch: pytest.MonkeyPatch, width: int, show: Any) -> list[str]:
    """Lines `show()` prints on the CLI's own stdout console in a `width`-column terminal."""
    screen = _Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setitem(_output.stdout.__dict__, "_console", _output._stdout_console())
    show()
    return ANSI.sub("", screen.getvalue()).splitlines()


@pytest.mark.parametrize("width", [80, 120])
def test_the_generate_table_keeps_its_data_at(
    width: int, report: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _in_terminal(monkeypatch, width, lambda: _print_summary(report))
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    text = "\n".join(lines)
    assert "…" not in text  # nothing cut short
    header = next(line for line in lines if line.startswith("case"))
    assert header.split() == ["case", "assert", "crit", "fix", "verified", "killed", "status"]
    for case in report["cases"]:
        name = Path(case["path"]).stem.removeprefix("card_replace_")
        row = next(line for line in lines if line.startswith(name[:12]))
        fixes = str(len(case["repairs"]))
        cells = [str(case["assertions"]), str(case["criteria"]), fixes, case["verified"]]
        cells += [f"{case['mutants_killed']}/{case['mutants_played']}", case["status"]]
        assert row.split()[-6:] == cells, row
    # summary lines break between words: every word the report gives is printed whole
    words = set(text.split())
    for word in ("verified", "mutants", "killed", "played", "elements", "asserted"):
        assert word in words, word
    summary = report["verification"]
    assert f"{summary['mutants_killed']}/{summary['mutants_played']}" in words


def test_status_lists_what_needs_a_look_and_counts_the_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The repository's own manifest: 70-odd fresh cases are a count, not 70 rows."""
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    lines = _in_terminal(monkeypatch, 80, lambda: main(["status"]))
    assert len(lines) < 10, lines
    assert "fresh ones not listed: --all lists them" in " ".join(lines)
    every = _in_terminal(monkeypatch, 80, lambda: main(["status", "--all"]))
    assert len(every) > 40 and all(len(line) <= 80 for line in every)
