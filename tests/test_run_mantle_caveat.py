"""`run --target mantle:DIR` says in every report that it played casegen's own reading of the
project, not the agent: a green run there is easily taken for a tested agent."""

from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CASE = REPO / "generated_cases/mantle/check_balance/check_balance_checking_happy_path.yml"
READING = "casegen's own reading of the project"


def test_every_report_of_a_mantle_run_says_it_is_not_the_agent(run_cli, tmp_path) -> None:
    results = tmp_path / "results"
    args = ["run", CASE, "--target", "mantle:examples/bank", "--model", "offline"]
    code, out, err = run_cli(*args, "--results", results, "--json")
    assert code == 0, err
    assert READING in json.loads(out)["target_note"]
    code, out, err = run_cli(*args, "--results", tmp_path / "again")
    assert code == 0, err
    assert READING in " ".join(out.split())
    (batch,) = [p for p in results.iterdir() if p.is_dir()]
    assert READING in json.loads((batch / "summary.json").read_text("utf-8"))["target_note"]
    for name in ("summary.txt", "summary.md"):
        assert READING in (batch / name).read_text("utf-8"), name
    code, out, _ = run_cli("report", batch)
    assert READING in " ".join(out.split())
    html = tmp_path / "report.html"
    run_cli("report", batch, "--html", html)
    assert READING.replace("'", "&#x27;") in html.read_text("utf-8")


def test_another_target_carries_no_such_note(run_cli, tmp_path) -> None:
    args = ["run", CASE, "--target", "demo:bank", "--model", "offline"]
    _, out, _ = run_cli(*args, "--results", tmp_path / "r", "--json")
    assert json.loads(out)["target_note"] is None
