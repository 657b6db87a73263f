"""casegen's assertion verdicts replayed against the ones Rasa's own engine gave.

`tests/data/rasa_oracle/assertions.json` holds generated probes (a tracker and assertions)
with the verdict Rasa's `evaluate_assertions` gave each assertion: pass, fail, or error. It is
written by `python -m benchmarks rasa-oracle assertions --record`, never by hand, so this test
needs no Rasa. The last test asks Rasa itself, and skips when the oracle venv is not installed
(`make rasa-oracle` installs it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks.rasa_oracle import RASA_VERSION, find_env
from benchmarks.rasa_oracle.assertions import FIXTURE, casegen_verdicts, probes, rasa_verdicts

RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
BY_ID = {probe["id"]: probe for probe in RECORDED["probes"]}


def test_the_fixture_is_the_harness_output_for_todays_probes() -> None:
    """Stale or hand-edited verdicts would replay nothing real: the recorded probes must be
    exactly the ones the harness generates now, recorded against the pinned Rasa build."""
    assert RECORDED["rasa_version"] == RASA_VERSION
    assert RECORDED["produced_by"] == "python -m benchmarks rasa-oracle assertions --record"
    generated = [probe.to_json() for probe in probes()]
    recorded = [{k: v for k, v in probe.items() if k != "rasa"} for probe in RECORDED["probes"]]
    assert recorded == generated, "probes changed: rerun the harness with --record"
    for probe in RECORDED["probes"]:
        assert {v["verdict"] for v in probe["rasa"]} <= {"pass", "fail", "error"}


@pytest.mark.parametrize("probe_id", list(BY_ID))
def test_casegen_gives_rasas_verdict(probe_id: str) -> None:
    probe = BY_ID[probe_id]
    ours = casegen_verdicts(probe)
    theirs = probe["rasa"]
    differing = [
        f"#{index}: Rasa {r['verdict']} ({r['detail'][:120]}), casegen {c['verdict']} "
        f"({c['detail'][:160]})"
        for index, (r, c) in enumerate(zip(theirs, ours, strict=True))
        if r["verdict"] != c["verdict"]
    ]
    assert not differing, "\n".join(differing)


def test_live_rasa_still_gives_the_recorded_verdicts() -> None:
    env = find_env()
    if env is None:
        pytest.skip("the Rasa oracle venv is not installed (make rasa-oracle)")
    version, live = rasa_verdicts(env, [probe.to_json() for probe in probes()])
    assert version == RASA_VERSION
    for probe_id, probe in BY_ID.items():
        assert [v["verdict"] for v in live[probe_id]] == [v["verdict"] for v in probe["rasa"]]
