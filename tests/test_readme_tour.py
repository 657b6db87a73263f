"""The README's tour, command by command, on a fresh clone: every exit code is 0.

Before: its `generate --pr` step, right after the tour's own `generate`, failed with "no
branch made: the run wrote no new or changed case files" (exit 1), because a fresh clone
already holds exactly those cases. Now that is "nothing to propose", exit 0.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from agentflows.cli import main

MODEL_ENV = (
    "CASEGEN_MODEL",
    "CASEGEN_JUDGE_MODEL",
    "CASEGEN_SIMULATOR_MODEL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
)


def tour_commands(readme: Path) -> list[list[str]]:
    """The `$ casegen ...` lines of the README's "A short tour" block, comments dropped."""
    text = readme.read_text(encoding="utf-8").split("## A short tour", 1)[1]
    block = text.split("```console", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        line = line.strip()
        if line.startswith("$ casegen "):
            commands.append(shlex.split(line[2:], comments=True)[1:])
    return commands


def test_the_tour_has_the_steps_the_issue_names() -> None:
    names = [" ".join(c[:1]) for c in tour_commands(REPO / "README.md")]
    assert names[:3] == ["sources", "sources", "generate"]
    assert ["generate", "card_replace", "--project", "examples/bank", "--pr"] in tour_commands(
        REPO / "README.md"
    )
    assert names[-1] == "mcp"


def test_readme_tour_runs_on_a_fresh_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(clone)
    outputs: dict[str, str] = {}
    for args in tour_commands(REPO / "README.md"):
        line = "casegen " + shlex.join(args)
        if args[0] == "mcp":
            # A stdio server: it answers on stdin and ends when stdin closes.
            casegen = Path(sys.executable).with_name("casegen")
            done = subprocess.run(
                [str(casegen), *args],
                cwd=clone,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode == 0, f"{line}: exit {done.returncode}\n{done.stderr}"
            continue
        code = main(args)
        out, err = capsys.readouterr()
        outputs[line] = out + err
        assert code == 0, f"{line}: exit {code}\n{out}\n{err}"
    pr_step = next(text for line, text in outputs.items() if line.endswith("--pr"))
    assert "nothing to propose" in pr_step
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == "", "the tour changed committed files"
