"""Ray is an optional extra: imported only by `--executor ray`, and missing it is a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "generated_cases" / "mantle" / "card_replace"

PROBE = """
import contextlib, io, json, sys
if sys.argv[1] == "hide-ray":
    sys.modules["ray"] = None  # as if the extra were not installed
from agentflows.cli import main
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    code = main(sys.argv[2:])
print(json.dumps({"code": code, "ray": "ray" in sys.modules and sys.modules["ray"] is not None,
                  "out": out.getvalue(), "err": err.getvalue()}))
"""


def _probe(mode: str, *argv: str, cwd: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _run_args(tmp_path: Path) -> list[str]:
    return [
        "run",
        str(CASES / "card_replace_stolen_happy_path.yml"),
        "--project",
        str(REPO / "examples" / "bank"),
        "--target",
        "demo:bank",
        "--model",
        "offline",
        "--results",
        str(tmp_path / "results"),
    ]


def test_a_local_run_does_not_import_ray(tmp_path: Path) -> None:
    result = _probe("plain", *_run_args(tmp_path), cwd=tmp_path)
    assert result["code"] == 0, result
    assert result["ray"] is False


def test_executor_ray_without_the_extra_names_it(tmp_path: Path) -> None:
    result = _probe("hide-ray", *_run_args(tmp_path), "--executor", "ray", cwd=tmp_path)
    assert result["code"] == 2, result
    text = " ".join((result["out"] + result["err"]).split())
    assert "--executor ray needs Ray" in text and "casegen[ray]" in text
    assert not (tmp_path / "results").exists()  # refused before any run


def test_unknown_executor_and_a_stray_address_are_usage_errors(tmp_path: Path) -> None:
    bad = _probe("plain", *_run_args(tmp_path), "--executor", "dask", cwd=tmp_path)
    assert bad["code"] == 2 and "use local or ray" in " ".join((bad["out"] + bad["err"]).split())
    stray = _probe("plain", *_run_args(tmp_path), "--ray-address", "h:6379", cwd=tmp_path)
    assert stray["code"] == 2
    assert "--ray-address needs --executor ray" in stray["out"] + stray["err"]


def test_a_worker_redacts_the_drivers_model_keys() -> None:
    """Records are redacted on the worker: it learns the keys from the options it gets."""
    from pydantic import SecretStr

    from evalcore.llm import ModelConfig
    from evalcore.redact import redact
    from evalcore.runner import RunOptions
    from evalcore.runner._ray_worker import _register_keys, without_models
    from evalcore.simulator import SimulatorSettings

    key = "sk-worker-test-0123456789abcdef"
    model = ModelConfig(model="m", api_key=SecretStr(key), base_url="http://models.local/v1")
    options = without_models(RunOptions(simulator=SimulatorSettings(model=model)))
    assert options.simulator.chat is None and options.simulator.model == model
    _register_keys(options)
    assert key not in redact(f"the agent echoed {key}")
