"""A variation a plain run leaves out to spread the suite is reported, never lost in silence.

Before: `spread` returned what it trimmed and the plan node threw it away, so a case a
skill's plan held (a telecom skill's detour) was neither written nor listed anywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentflows.generate import _selection

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


def _trim_digressions(behaviors):
    kept = [b for b in behaviors if b.facts.get("kind") != "digression"]
    return kept, [b for b in behaviors if b.facts.get("kind") == "digression"]


def test_a_trimmed_variation_is_listed_with_its_reason(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_selection, "spread", _trim_digressions)
    out = tmp_path / "out"
    code, stdout, _ = run_cli(
        "generate",
        "check_balance",
        "--project",
        BANK,
        "--model",
        "offline",
        "--out",
        out,
        "--no-verify",
        "--json",
    )
    assert code == 0
    report = json.loads(stdout)
    left_out = [row["behavior"] for row in report["spread"]]
    assert left_out == ["check_balance:digression"], report["spread"]
    assert "--types" in report["spread"][0]["reason"]
    written = {row["behavior"] for row in report["cases"]}
    assert written and not written & set(left_out)
    # the table says it too
    _code, table, _ = run_cli(
        "generate",
        "check_balance",
        "--project",
        BANK,
        "--model",
        "offline",
        "--out",
        tmp_path / "again",
        "--no-verify",
    )
    assert "not drafted" in table and "check_balance:digression" in table
