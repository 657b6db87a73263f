"""generate, run (simulator + judge), review critique and revise against a real small model.

What is asserted is honesty, not quality (a 135M model writes poor cases): every planned
case is either written valid (and `casegen validate` agrees) or failed with its reason;
the engine is the model, never a silent offline fallback; every run passed, failed or
errored with its reason; every criterion is judged or reported unjudged with a reason;
revise writes only a valid case. The figures go to .casegen/llm/figures-<server>.json.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
CASEGEN = Path(sys.executable).parent / "casegen"
COUNT = int(os.environ.get("LLM_CASES", "2"))
JUDGED = {"pass", "fail"}


def _project(tmp: Path, server: Any) -> Path:
    project = tmp / "bank"
    shutil.copytree(REPO / "examples" / "bank", project)
    (project / "casegen.toml").write_text(
        f'model = "{server.alias}"\n'
        f'base_url = "{server.base_url}"\n'
        'structured = "auto"\n'
        f"context = {server.context}\n"
        "timeout_s = 240\n"
        "max_retries = 1\n",
        "utf-8",
    )
    return project


def _casegen(project: Path, *args: str, limit_s: float = 1500) -> tuple[int, Any, float, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "CASEGEN_")) and k not in ("HTTP_PROXY", "HTTPS_PROXY")
    }
    env |= {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    started = time.monotonic()
    done = subprocess.run(
        [str(CASEGEN), *args, "--json"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=limit_s,
        check=False,
    )
    elapsed = time.monotonic() - started
    try:
        report = json.loads(done.stdout)
    except ValueError:
        report = None
    return done.returncode, report, elapsed, done.stderr


def test_generate_run_review_revise(server: Any, tmp_path: Path) -> None:
    project = _project(tmp_path, server)
    figures: dict[str, Any] = {"server": server.name, "model": server.alias}
    figures["context"] = server.context
    out = server.figures

    # generate: every planned case written valid, or failed with its reason
    code, report, elapsed, stderr = _casegen(
        project, "generate", "card_replace", "--project", ".", "--out", "cases",
        "--count", str(COUNT), "--concurrency", "1", "--no-cache",
    )  # fmt: skip
    assert report is not None, f"generate printed no JSON (exit {code}): {stderr[-2000:]}"
    assert code in (0, 1), stderr[-2000:]
    assert report["engine"] == f"llm:{server.alias}", "the run must not fall back to offline"
    assert report["llm"]["calls"] > 0
    cases, failed = report["cases"], report["failed"]
    dropped = report.get("dropped", [])
    assert (
        len(cases) + len(failed) + len(dropped) + report["duplicates_dropped"]
        == (report["planned"])
    )
    assert all(f["error"] for f in failed), failed
    assert all(d["reason"] for d in dropped), dropped
    assert (code == 0) == (not failed and not dropped)
    written = [Path(c["path"]) for c in cases if c["status"] in ("created", "updated")]
    for path in written:
        assert path.is_file()
        check, _, _, out = _casegen(project, "validate", str(path), "--project", ".")
        assert check == 0, f"{path} was reported valid but does not validate: {out[-1000:]}"
    draft_calls = [c["usage"] for c in cases] + [f["usage"] for f in failed]
    figures["generate"] = {
        "exit": code,
        "planned": report["planned"],
        "valid": len(cases),
        "failed": [f["error"][:300] for f in failed],
        "dropped": [d["reason"][:300] for d in dropped],
        "repairs": sum(len(c["repairs"]) for c in cases),
        "model_repairs": sum(1 for c in cases for r in c["repairs"] if r.get("by") == "model"),
        "calls": report["llm"]["calls"],
        "input_tokens": report["llm"]["input_tokens"],
        "output_tokens": report["llm"]["output_tokens"],
        "max_input_tokens_per_call": max(
            (u["input_tokens"] // max(1, u["calls"]) for u in draft_calls), default=0
        ),
        "seconds": round(elapsed, 1),
    }
    _write(out, figures)
    if not written:
        return  # nothing to run, review or revise: the figures say why

    # run: the model simulates the user and judges; every run and criterion honest
    code, report, elapsed, stderr = _casegen(
        project, "run", "cases", "--project", ".", "--target", "demo:bank",
        "--results", "results", "--max-turns", "6", "--parallel", "1",
    )  # fmt: skip
    assert report is not None, f"run printed no JSON (exit {code}): {stderr[-2000:]}"
    runs = report["runs"]
    assert len(runs) == len(written)
    verdicts: dict[str, int] = {}
    for run in runs:
        assert run["status"] in ("passed", "failed", "errored"), run["status"]
        if run["errored"]:
            assert run["error"], run
        for criterion in run.get("criteria") or []:
            verdict = criterion["verdict"]
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            assert verdict in JUDGED or criterion.get("reason"), criterion
    figures["run"] = {
        "exit": code,
        "summary": report["summary"],
        "criteria": verdicts,
        "errors": [r["error"][:300] for r in runs if r["error"]],
        "seconds": round(elapsed, 1),
    }
    _write(out, figures)

    # review: the model's critique, or a summary that says it did not happen
    code, report, elapsed, stderr = _casegen(project, "review", "cases", "--project", ".")
    assert report is not None, f"review printed no JSON (exit {code}): {stderr[-2000:]}"
    assert code in (0, 1), stderr[-2000:]
    assert {Path(f["path"]).name for f in report["files"]} == {p.name for p in written}
    figures["review"] = {
        "exit": code,
        "engine": report.get("engine"),
        "note": report.get("note"),
        "comments": report["summary"]["comments"],
        "seconds": round(elapsed, 1),
    }
    _write(out, figures)

    # revise: a valid revision is written, an invalid one never is
    target = written[0]
    before = target.read_text("utf-8")
    code, report, elapsed, stderr = _casegen(
        project, "revise", str(target), "--project", ".", "--yes",
        "--comment", "Make the simulated customer more impatient.",
    )  # fmt: skip
    assert code in (0, 1), stderr[-2000:]
    check, _, _, out = _casegen(project, "validate", str(target), "--project", ".")
    assert check == 0, f"revise left an invalid file: {out[-1000:]}"
    if code == 1:
        assert target.read_text("utf-8") == before
        assert report is not None or stderr.strip(), "a failed revise must say why"
    figures["revise"] = {
        "exit": code,
        "changed": target.read_text("utf-8") != before,
        "reason": None if code == 0 else (stderr.strip().splitlines() or [""])[-1][:300],
        "seconds": round(elapsed, 1),
    }
    _write(out, figures)


def _write(folder: Path, figures: dict[str, Any]) -> None:
    path = folder / f"figures-{figures['server']}.json"
    path.write_text(json.dumps(figures, indent=2) + "\n", "utf-8")
    print(f"\n{figures['server']}: {json.dumps(figures)}")
