"""Shared helpers for the Anychat drafting tests: every case the offline engine drafts for one
Playbook of a small project written in the test, each checked against the dialect's schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._anychat import draft_anychat
from agentflows.planning._anychat import plan_anychat
from evalcore.definitions import Project, load_project
from evalcore.dialects import get_dialect
from evalcore.validation import check_data


def offline_cases(project: Project, playbook: str) -> dict[str, dict[str, Any]]:
    """The offline drafts of `playbook`'s planned behaviours, by case name; each must be a
    valid Anychat case (a draft the validator refuses fails the test that asked)."""
    out = {}
    for behavior in plan_anychat(project, playbook, None).behaviors:
        data = draft_anychat(DraftContext(project, "anychat", behavior, direction=None))
        assert check_data(data, get_dialect("anychat"), project) == []
        out[behavior.case] = data
    return out


def boat_rental(root: Path) -> Project:
    """A boat rental whose Rent playbook looks the guest up, asks the boat size (saved to the
    guest's record), then rents: a lookup before a question, the shape a resume sits in."""
    (root / "anychat.yml").write_text(
        "agent: {name: Quay Boats}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [rented]\n"
    )
    (root / "people.yml").write_text(
        "fields:\n  - key: boatSize\n    label: Boat size\n    type: choice\n"
        "    choices: [small, large]\n"
    )
    (root / "tools.yml").write_text(
        "tools:\n  find_guest:\n    description: Find the guest by phone number.\n"
        "    parameters: {phone: {type: string}}\n"
        "  rent_boat:\n    description: Rent a boat for today.\n"
        "    parameters: {size: {type: string}}\n"
    )
    (root / "playbooks").mkdir()
    (root / "playbooks" / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (root / "playbooks" / "rent.yml").write_text(
        "name: Rent\nactivation: The guest wants to rent a boat.\n"
        "body: Look the guest up with find_guest. Ask what size of boat they want and save "
        "the boat size to their record. Call rent_boat. Record rented.\n"
        "tools: [find_guest, rent_boat]\noutcomes: [rented]\n"
    )
    return load_project(root)
