"""The committed Mantle goldens are exactly what offline `generate` writes for the bank.

Other tests compare files `generate` writes with the committed ones; this one also catches
the reverse: a committed case that `generate` no longer writes (dropped as a duplicate,
say) stays in `generated_cases/` as if it were current output, and nothing else notices.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLDENS = REPO / "generated_cases" / "mantle"
#: The date the goldens were generated on (`SOURCE_DATE_EPOCH`, as the README's command pins).
GENERATED_ON = "1767225600"


def _cases(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.yml"))}


def test_the_bank_goldens_are_what_generate_writes_no_more_no_less(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "SOURCE_DATE_EPOCH": GENERATED_ON, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", "from agentflows.cli import run; run()", "generate", "all",
         "--project", "examples/bank", "--model", "offline", "--out", str(out)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    written, committed = _cases(out), _cases(GOLDENS)
    assert sorted(written) == sorted(committed), "regenerate the goldens (README)"
    changed = [name for name in written if written[name] != committed[name]]
    assert not changed, changed
