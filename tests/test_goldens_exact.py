"""What offline `generate` writes is its golden, file for file, in all three dialects.

The examples' goldens are the committed `generated_cases/` (bank → `mantle/`, clinic →
`anychat/`, skills → `base44/`), compared byte for byte; the corpus projects' are one sha256
per written file in `tests/data/goldens/<project>.json`. Both directions count: a committed
case that `generate` no longer writes (dropped as a duplicate, say) would otherwise stay as
if it were current output. `python -m benchmarks goldens` does the generating, every project
in one process with the generation day pinned; `--update` refreshes the corpus digests
(docs/testing.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.goldens import (
    EXAMPLES,
    command_goldens,
    command_outputs,
    corpus_names,
    differences,
    manifest_differences,
    manifest_digest,
    pinned,
)

REPO = Path(__file__).resolve().parents[1]


def _goldens(*names: str) -> subprocess.CompletedProcess[str]:
    """`python -m benchmarks goldens --project NAME...` in a fresh process."""
    projects = [arg for name in names for arg in ("--project", name)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.goldens", *projects],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=280,
    )  # fmt: skip


def test_the_examples_goldens_are_what_generate_writes_no_more_no_less() -> None:
    done = _goldens(*EXAMPLES)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_every_corpus_project_writes_its_golden_digest() -> None:
    names = corpus_names()
    assert len(names) >= 8 and all(
        (REPO / "tests/data/goldens" / f"{n}.json").is_file() for n in names
    )
    done = _goldens(*names)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_run_report_and_assert_on_fixed_inputs_write_their_goldens(tmp_path: Path) -> None:
    """`report` (terminal, JSON, HTML) on the recorded batch, `assert` on the recorded
    tracker, `run` of tests/data/goldens/commands/cases against demo:bank: byte for byte,
    with the run's time stamps and durations pinned."""
    written, golden = command_outputs(tmp_path), command_goldens()
    assert {"report.html", "run/stdout.txt", "run/summary.json"} <= set(golden)
    assert differences("commands", written, golden) == [], "python -m benchmarks goldens --update"


def test_pinning_fixes_what_a_run_measures_and_nothing_it_decides(tmp_path: Path) -> None:
    text = (
        f"results: {tmp_path}/2026-12-06_20-05-38\n"
        '  "timestamp": "2026-12-06T19:58:32+00:00",\n  "latency_ms": 7.71,\n'
        "turn 2 [simulator]: 12 ms (after 0.44 ms) · 8 turns, 0.2s · 3 steps · 15s\n"
    )
    assert pinned(text, {tmp_path: "<results>"}) == (
        "results: <results>/2026-01-01T00:00:00+00:00\n"
        '  "timestamp": "2026-01-01T00:00:00+00:00",\n  "latency_ms": 0,\n'
        "turn 2 [simulator]: 0 ms (after 0 ms) · 8 turns, 0s · 3 steps · 0s\n"
    )


def test_a_difference_is_named_in_both_directions() -> None:
    golden = {"a.yml": "1", "b.yml": "2"}
    written = {"a.yml": "9", "c.yml": "3"}
    assert differences("p", written, golden) == [
        "p: changed a.yml",
        "p: new c.yml",
        "p: no longer written b.yml",
    ]


def test_an_examples_manifest_entries_are_its_written_cases() -> None:
    manifest = {"cases": {"anychat/a.json": {}, "anychat/gone.json": {}, "mantle/x.yml": {}}}
    written = {"a.json": "1", "new.json": "2"}
    assert manifest_differences("clinic", written, manifest) == [
        "clinic: the manifest lists gone.json, not written",
        "clinic: the manifest lacks new.json",
    ]


def test_the_manifest_digest_ignores_the_run_but_not_what_it_wrote() -> None:
    entry = {"type": "happy_path", "run_id": "gen-1", "project": "../x", "content_sha256": "ab"}

    def digest(**changed: str) -> str:
        return manifest_digest(json.dumps({"cases": {"a.yml": {**entry, **changed}}}).encode())

    assert digest(run_id="gen-2", project="../../y") == digest()
    assert digest(type="edge_case") != digest()
    assert digest(content_sha256="cd") != digest()
