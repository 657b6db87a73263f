"""Rasa's own code as the oracle for casegen (`make rasa-oracle`).

casegen reads Mantle projects, validates scenarios and judges assertions by its own reading of
the format. Rasa's packaged library functions are the reference for all three, and none of them
reads a license: `rasa.mantle.validation.collect_project_findings` (what `rasa train` and
`rasa data validate` check), `load_scenario` (what the `validate_scenario` tool accepts) and
`evaluate_assertions` (what `evaluate_agent` decides). This package runs them side by side with
casegen and prints the agreement and every disagreement.

Rasa lives in its own virtual environment (`.casegen/rasa-oracle/venv`, Python 3.11, about
1.3 GB), never in casegen's: the scripts under `rasa_side/` are executed by Rasa's interpreter,
read JSON on stdin and print JSON on stdout. Rasa's tool loader *imports* a project's
`tools.py`, so project checks run on a copy of the project, one process per project.

    python -m benchmarks rasa-oracle [projects|scenarios|assertions ...] [--record]

`--record` writes Rasa's verdicts to `tests/data/rasa_oracle/` (with the Rasa version), where
`make test` compares casegen against them without installing Rasa.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RASA_VERSION = "3.22.0.dev1"
"""The Rasa build every figure is measured against (the newest 3.22 on the package registry)."""
ORACLE_ROOT = REPO / ".casegen" / "rasa-oracle"
RECORDED = REPO / "tests" / "data" / "rasa_oracle"
RASA_SIDE = Path(__file__).resolve().parent / "rasa_side"
REALWORLD = REPO.parent / "shared" / "realworld"
_CALL_TIMEOUT_S = 600


@dataclass(frozen=True)
class RasaEnv:
    """One installed rasa-pro build: its interpreter and version."""

    python: Path
    version: str


def venv_dir(version: str = RASA_VERSION) -> Path:
    """Where the venv of one rasa-pro build lives (the default build keeps the short name)."""
    return ORACLE_ROOT / ("venv" if version == RASA_VERSION else f"venv-{version}")


def find_env(version: str = RASA_VERSION) -> RasaEnv | None:
    """The installed rasa-pro build, or None when `make rasa-oracle` never installed it."""
    python = venv_dir(version) / "bin" / "python"
    return RasaEnv(python, version) if python.is_file() else None


def install_env(version: str = RASA_VERSION, base_python: str = "python3.11") -> RasaEnv:
    """Create the venv and install `rasa-pro==VERSION` into it (a few minutes, once)."""
    existing = find_env(version)
    if existing is not None:
        return existing
    interpreter = shutil.which(base_python) or sys.executable
    folder = venv_dir(version)
    folder.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([interpreter, "-m", "venv", str(folder)], check=True)
    pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, f"rasa-pro=={version}"], check=True)
    found = find_env(version)
    if found is None:
        raise RuntimeError(f"rasa-pro=={version} did not install into {folder}")
    return found


def rasa_environ() -> dict[str, str]:
    """The environment Rasa's code runs in: no network at import, no telemetry, quiet logs."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("RASA_")}
    env.update(
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        RASA_TELEMETRY_ENABLED="false",
        LOG_LEVEL="ERROR",
        LOG_LEVEL_LIBRARIES="ERROR",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONWARNINGS="ignore",
    )
    return env


def call(env: RasaEnv, script: str, payload: Any, cwd: Path | None = None) -> Any:
    """Run `rasa_side/SCRIPT` under Rasa's interpreter with PAYLOAD as JSON; its JSON answer."""
    command = [str(env.python), str(RASA_SIDE / script)]
    done = subprocess.run(
        command,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=rasa_environ(),
        cwd=str(cwd or REPO),
        timeout=_CALL_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"rasa_side/{script} exited {done.returncode}:\n{tail}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"rasa_side/{script} printed no JSON answer")
    return json.loads(lines[-1])


def project_copy(project: Path) -> tempfile.TemporaryDirectory[str]:
    """A throwaway copy of PROJECT (Rasa imports its tools.py; the original stays untouched)."""
    holder = tempfile.TemporaryDirectory(prefix="rasa-oracle-")
    shutil.copytree(
        project,
        Path(holder.name) / project.name,
        ignore=shutil.ignore_patterns("__pycache__", ".venv", ".git", "*.pyc"),
        symlinks=False,
    )
    return holder
