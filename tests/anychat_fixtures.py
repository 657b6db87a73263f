"""Shared helpers for the Anychat drafting tests: every case the offline engine drafts for one
Playbook of a small project written in the test, each checked against the dialect's schema."""

from __future__ import annotations

from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._anychat import draft_anychat
from agentflows.planning._anychat import plan_anychat
from evalcore.definitions import Project
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
