"""Examples in the docs run as written: docs/mcp.md's "Trying it" script, in a folder laid
out as the repository after `make demo` (a `.venv/bin/casegen` and `examples/bank`)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLES, REPO


def python_block(doc: Path, heading: str) -> str:
    """The first ```python block under `heading`."""
    text = doc.read_text(encoding="utf-8").split(heading, 1)[1]
    return text.split("```python\n", 1)[1].split("```", 1)[0]


def _repository_after_make_demo(folder: Path) -> None:
    """`examples/bank` and a `.venv/bin/casegen` that runs this checkout's casegen."""
    shutil.copytree(EXAMPLES / "bank", folder / "examples" / "bank")
    casegen = folder / ".venv" / "bin" / "casegen"
    casegen.parent.mkdir(parents=True)
    casegen.write_text(
        f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} -c "
        "'from agentflows.cli import run; run()' \"$@\"\n",
        encoding="utf-8",
    )
    casegen.chmod(casegen.stat().st_mode | stat.S_IXUSR)


def test_mcp_trying_it_runs_as_written(tmp_path: Path) -> None:
    _repository_after_make_demo(tmp_path)
    script = tmp_path / "try_mcp.py"
    script.write_text(python_block(REPO / "docs" / "mcp.md", "## Trying it"), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASEGEN_", "OPENAI_"))}
    done = subprocess.run(
        [sys.executable, script.name], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "'card_replace'" in lines[0]  # the skills
    assert "'list_cards'" in lines[1]  # explain_skill's tools
    assert any("drafted/" in line and ".yml" in line for line in lines)
    assert "'total'" in lines[-1] or "passed" in lines[-1], lines[-1]
    assert (tmp_path / "examples" / "bank" / "drafted").is_dir()
