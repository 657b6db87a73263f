"""Two skills whose descriptions say the same thing: which one a real router takes is not in
the definitions, so the reference agent says it routed by name order, and a case for the
other skill is kept unverified (inconclusive), not dropped as one no correct agent passes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.generate._verify_mantle import verify_mantle
from agentflows.generate._verify_types import VerifyEnv
from evalcore.agents.reference._mantle_words import routed_skill, routing_ties, routing_words
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect


def _skill(description: str) -> str:
    return f"""\
---
name: Order clay
description: {description}
---

Take the potter's order.

:::ordered_block id=take_order
steps:
  - id: ask_item
    collect: item
    utterance: utter_ask_item
  - id: END
:::
"""


def _files(second: str) -> dict[str, str]:
    files = {
        "agent.yml": "name: Kiln supplies\npersona: You help potters.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    }
    for skill, description in (("clay", "Potters order clay for the studio."), ("kiln", second)):
        files[f"skills/{skill}/skill.md"] = _skill(description)
        files[f"skills/{skill}/memory.yml"] = (
            "schema:\n  public:\n    item:\n      type: text\n      description: What they order.\n"
        )
        files[f"skills/{skill}/responses.yml"] = (
            "responses:\n  utter_ask_item:\n    - text: What would you like?\n"
        )
    return files


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("twins") / "twins"
    return write_project(root, _files("Potters order clay for the studio."))


def _case(skill_id: str) -> dict:
    return {
        "scenario": {
            "name": "Order clay",
            "type": "happy_path",
            "simulation_context": (
                "You are a potter.\nYou want to order clay.\n"
                'Open with: "I want to order clay for the studio."\n'
                "What you know (share each only when the agent asks):\n- item: stoneware\n"
                "Stop once the agent has told you the outcome and asks nothing more.\n"
            ),
            "goals": {
                "criteria": ["The agent takes the order"],
                "assertions": [{"skill_activated": {"skill_id": skill_id}}],
            },
        }
    }


def _env(project: Path) -> VerifyEnv:
    return VerifyEnv(
        project=load_project(project),
        dialect=get_dialect("mantle"),
        path=Path("case.yml"),
        project_label=str(project),
    )


def test_skills_that_match_a_message_equally_are_a_tie(tmp_path: Path, twins: Path) -> None:
    defs = load_project(twins).mantle
    assert defs is not None
    ties = routing_ties(defs, routing_words(defs), "I want to order clay for the studio.")
    assert ties == ["clay", "kiln"]  # the routed one first
    apart = write_project(tmp_path / "apart", _files("Book a firing slot in the kiln."))
    defs = load_project(apart).mantle
    assert defs is not None
    assert routing_ties(defs, routing_words(defs), "I want to order clay for the studio.") == []


def test_the_skill_the_tie_did_not_route_to_gets_an_inconclusive_verdict(twins: Path) -> None:
    env = _env(twins)
    routed = asyncio.run(verify_mantle(_case("clay"), env))
    assert routed.outcome == "yes"
    other = asyncio.run(verify_mantle(_case("kiln"), env))
    assert other.outcome == "skipped"
    assert other.reason is not None and other.reason.startswith("inconclusive")
    assert "skills/clay/ and skills/kiln/ match the message equally" in other.reason


def test_a_description_routes_by_what_it_is_for_not_what_it_points_elsewhere(
    tmp_path: Path,
) -> None:
    """A "Do NOT activate for ... - that is <other>" sentence names what the skill is not for:
    its words send the message away from the skill, and a phrasing the description quotes
    asks for it as surely as its name."""
    files = _files(
        'Firing pieces in the kiln. Activate for "book a firing". Do NOT activate for ordering'
        " clay or glaze for the studio - that is clay."
    )
    defs = load_project(write_project(tmp_path / "p", files)).mantle
    assert defs is not None
    words = routing_words(defs)
    # the kiln's exclusion repeats the clay skill's words: before, the two tied
    assert routing_ties(defs, words, "I want to order clay for the studio.") == []
    assert routed_skill(defs, words, "I want to order clay for the studio.") == "clay"
    # "firing" alone is one shared word short of routing; the quoted phrasing routes
    assert routed_skill(defs, words, "Hi, could I book a firing?") == "kiln"
