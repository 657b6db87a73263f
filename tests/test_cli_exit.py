"""`casegen` (`agentflows.cli.run`) exits without the interpreter's teardown once a command
is done: its output is flushed, exit handlers run, the exit code is kept, and a thread
still at work is waited for."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCENARIO = next((REPO / "examples" / "bank" / "eval" / "scenarios").glob("*.yml"))


def _casegen(prelude: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(prelude) + textwrap.dedent(
        f"""
        import sys
        from agentflows import cli
        sys.argv = ["casegen", *{list(args)!r}]
        cli.run()
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_finished_command_skips_the_teardown_but_runs_exit_handlers() -> None:
    done = _casegen(
        """
        import atexit, sys

        class Kept:
            def __del__(self):
                sys.stderr.write("torn down\\n")

        kept = Kept()  # freed only by the interpreter's teardown
        atexit.register(lambda: print("exit handler ran"))
        """,
        "validate",
        str(SCENARIO),
        "--no-project",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    assert '"files"' in done.stdout or '"valid"' in done.stdout  # the JSON, flushed
    assert done.stdout.rstrip().endswith("exit handler ran")
    assert "torn down" not in done.stderr


def test_the_exit_code_is_kept() -> None:
    done = _casegen("", "validate", str(REPO / "no-such-file.yml"), "--no-project")
    assert done.returncode == 2, done.stderr


def test_a_thread_still_at_work_is_waited_for(tmp_path: Path) -> None:
    mark = tmp_path / "written"
    done = _casegen(
        f"""
        import threading, time
        from pathlib import Path

        def work():
            time.sleep(0.5)
            Path({str(mark)!r}).write_text("done")

        threading.Thread(target=work).start()
        """,
        "validate",
        str(SCENARIO),
        "--no-project",
    )
    assert done.returncode == 0, done.stderr
    assert mark.read_text() == "done"
