"""A case whose user asks for the request one paragraph of the prose is about.

"Board packs and compensation papers are restricted. Check @tool.check_committee_access
… only then read board material with @tool.get_board_materials." The description lists
that request as one of its own ("what's in the board pack"), so the paragraph's calls wait
for it (`skill_model.cues.topic_cue`), and a user who asks for it asks for nothing else: the
rules of the sentences that serve the other requests (the day's briefing from
@tool.list_events) are no success of this case, nor is leaving them out a fault.
"""

from __future__ import annotations

import re

from evalcore.definitions import Project
from evalcore.definitions.skill_model import sentences, skill_model
from evalcore.definitions.skill_model.cues import cue_words


def topic_tools(project: Project, skill_id: str, tools: list[str]) -> bool:
    """Whether a cue case's calls wait for the request their paragraph is about, not for an
    alternative of one sentence."""
    model = skill_model(project, skill_id)
    return any(call.topic for use in model.tools if use.name in tools for call in use.calls)


def _stems(text: str) -> frozenset[str]:
    """The words that say what a text is about, stemmed ("The agent" said by every rule)."""
    return cue_words(text) - cue_words("agent")


def other_request_criteria(
    project: Project, skill_id: str, criteria: list[str], skipped: list[str]
) -> list[str]:
    """`criteria` that a prose sentence calling one of `skipped` (the plain path's calls
    the case's request leaves out) says, by its words: "The agent gives a short briefing"
    from "Give a short briefing … (from @tool.list_events)"."""
    assert project.mantle is not None
    body = project.mantle.skills[skill_id].body
    serving = [
        _stems(s.text)
        for s in sentences(body)
        if any(re.search(rf"(?<![\w]){re.escape(t)}\b", s.text) for t in skipped)
    ]
    return [c for c in criteria if any(_stems(c) <= said for said in serving)]


__all__ = ["other_request_criteria", "topic_tools"]
