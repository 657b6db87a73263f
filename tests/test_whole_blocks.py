"""A number the prose of the case's branch rounds to whole blocks is given as a block.

Found by a blind reviewer on a core-facility booking skill: its cryo-EM branch says "round
the hours up to 24 or 48 and say so", yet the case asked for 28 hours and asserted a booking
of 28, which a correct agent books as 48.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _hours(instrument: str) -> list[str]:
    project = load_project(CORPUS / "tidewater_core")
    plan = plan_source(project, "mantle", "instrument_time", None)
    out = []
    for slot, behavior in enumerate(plan.behaviors):
        if behavior.type != "happy_path":
            continue
        script = build_script(project, behavior, slot=slot)
        if script.walk.memory.get("instrument_time.instrument") != instrument:
            continue
        out += [f.value for f in script.sheet.facts if f.field == "instrument_time.hours"]
    return out


def test_a_branch_that_rounds_to_blocks_is_asked_a_block() -> None:
    said = _hours("cryo_em")
    assert said and all(v.split()[0] in ("24", "48") for v in said), said


def test_a_branch_without_blocks_keeps_its_own_number() -> None:
    said = _hours("confocal")
    assert said and all(v.split()[0] not in ("24", "48") for v in said), said
