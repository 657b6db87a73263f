"""A request for a skill whose precondition is false and resolves with a skill
(`resolve_with` in agent.yml): the reference agent runs that skill first, then takes the
request up, as the runtime does; the skill still wins the routing over an open skill that
shares fewer of the request's words."""

from __future__ import annotations

import shutil
from pathlib import Path

from evalcore.agents.reference._brain import ModelBrain
from evalcore.agents.reference._engine import ReferenceEngine
from evalcore.agents.reference._target import load

LAB = Path(__file__).resolve().parent / "data" / "corpus" / "tidewater_core"
BADGE = {"project.badge_id": "TU0412987"}  # an active researcher of the lab's user list


def _played(root: Path, text: str) -> list[dict]:
    project = load(root)
    engine = ReferenceEngine(project, ModelBrain(project))
    engine.start(BADGE)
    engine.receive(text)
    return engine.events


def _activated(events: list[dict]) -> list[str]:
    return [e["skill_id"] for e in events if e["event"] == "skill_activated"]


def test_the_request_opens_the_sign_in_and_then_its_own_skill() -> None:
    events = _played(LAB, "Book the confocal for Thursday.")
    assert _activated(events) == ["identify_researcher", "instrument_time"], events
    said = [e.get("metadata", {}).get("utter_action") for e in events if e["event"] == "bot"]
    assert not any(s and "anything_else" in s for s in said), said


def test_a_skill_behind_a_sign_in_still_outranks_an_open_skill(tmp_path: Path) -> None:
    root = tmp_path / "lab"
    shutil.copytree(LAB, root)
    officer = root / "skills" / "safety_officer" / "skill.md"
    text = officer.read_text()
    officer.write_text(
        text.replace("radioactive\n", 'radioactive\n  "book a confocal safety induction",\n', 1)
    )
    assert officer.read_text() != text
    events = _played(root, "Book the confocal for Thursday.")
    assert _activated(events) == ["identify_researcher", "instrument_time"], events
