"""A digression hangs on a question the opening leaves open.

Before: the shift-swap detour waited at "who do you want to swap with?", but the case opened
with the description's example "Can I swap Saturday with Lucía?": a correct agent takes the
coworker from it, never asks, and the detour happens elsewhere or not at all.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_intent import detour_opening
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus" / "brewline_shifts"
SWAP = {"shift_swap.request_type": "swap"}


def test_an_opening_with_a_name_or_a_day_gives_way_to_the_plain_request() -> None:
    defs = load_project(CORPUS).mantle
    assert defs is not None
    skill = defs.skills["shift_swap"]
    line = detour_opening(defs, skill, "Can I swap Saturday with Lucía?", SWAP)
    assert "Lucía" not in line and "Saturday" not in line
    assert line.endswith("Swap, please."), line


def test_an_opening_that_states_only_the_request_is_kept() -> None:
    defs = load_project(CORPUS).mantle
    assert defs is not None
    skill = defs.skills["equipment_issue"]
    line = "Hi, I need help with broken equipment."
    assert detour_opening(defs, skill, line, {}) == line
    # an acronym is no detail ("Guest PIN, please.")
    swap = defs.skills["shift_swap"]
    plain = "Hi, I'd like help with changing who works a shift. Swap, please."
    assert detour_opening(defs, swap, plain + " PIN.", SWAP) == plain + " PIN."


def test_the_shift_swap_detour_opens_without_naming_the_coworker(tmp_path: Path) -> None:
    generate_offline(CORPUS, ["shift_swap"], tmp_path)
    (path,) = sorted((tmp_path / "cases").rglob("*digression*.yml"))
    context = yaml.safe_load(path.read_text())["scenario"]["simulation_context"]
    opening = next(line for line in context.splitlines() if line.startswith("Open with: "))
    assert "Lucía" not in opening, opening
    assert "who do you want to swap with" in context
