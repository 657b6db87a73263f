"""A branch on a value the prose only permits ("you may ask for a quick rating; set `rating`
if they answer") is not what the skill is for: a correct agent may never ask. The skill's goal
case is one plain happy path on the unconditional prose that every correct agent satisfies;
the branches on the rating come after it, and the plain case checks nothing about the rating."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import generate_offline, write_project
from test_detour_completes import FILES

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.generate._justified import keep_justified
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.validation import check_data

GOODBYE = """\
---
name: Goodbye
description: >
  End the conversation politely when the driver says goodbye or that's all.
---

Thank the driver briefly.

If they seem done, you may ask for a quick thumbs up or thumbs down. Set `rating` to
thumbs_up or thumbs_down if they answer.

if: session.goodbye.rating == "thumbs_up"
Thank them for the positive feedback.

if: session.goodbye.rating == "thumbs_down"
Thank them and say you will use the feedback to improve.

Wish them a good day in one short sentence.
"""

#: The same skill, but the rating is asked every time: its branches are the goal.
ASKED = GOODBYE.replace(
    "If they seem done, you may ask for a quick thumbs up or thumbs down.",
    "Ask for a quick thumbs up or thumbs down.",
)

RATING = (
    "schema:\n  public:\n    rating:\n      type: categorical\n"
    "      enum_values: [thumbs_up, thumbs_down]\n      description: The driver's rating.\n"
    "      llm_settable: true\n"
)


def _project(tmp_path: Path, body: str):
    files = {**FILES, "skills/goodbye/skill.md": body, "skills/goodbye/memory.yml": RATING}
    return load_project(write_project(tmp_path / "fleet", files))


def test_the_goal_is_a_plain_happy_path_before_the_optional_branches(tmp_path: Path) -> None:
    project = _project(tmp_path, GOODBYE)
    happy = [
        b
        for b in plan_source(project, "mantle", "goodbye", None).behaviors
        if b.facts.get("kind") == "happy"
    ]
    first = min(happy, key=lambda b: b.priority)
    assert (first.case, first.priority, first.facts.get("values")) == ("happy", 10, None)
    branches = {b.case: b.priority for b in happy if b is not first}
    assert set(branches) == {"thumbs_up", "thumbs_down"}, branches
    assert all(p > 30 for p in branches.values()), branches
    # a rating the prose always asks for routes the goal: its branches stay the happy paths
    asked = [
        b
        for b in plan_source(
            _project(tmp_path / "asked", ASKED), "mantle", "goodbye", None
        ).behaviors
        if b.facts.get("kind") == "happy"
    ]
    assert [b.case for b in sorted(asked, key=lambda b: b.priority)] == ["thumbs_up", "thumbs_down"]


def test_the_plain_happy_path_checks_nothing_about_the_rating(tmp_path: Path) -> None:
    project = _project(tmp_path, GOODBYE)
    plain = next(
        b for b in plan_source(project, "mantle", "goodbye", None).behaviors if b.case == "happy"
    )
    data = draft_mantle(DraftContext(project, "mantle", plain))
    goals = data["scenario"]["goals"]
    assert goals["assertions"] == [{"skill_activated": {"skill_id": "goodbye"}}]
    criteria = " ".join(goals["criteria"]).lower()
    assert "thanks the driver" in criteria, criteria
    assert "feedback" not in criteria and "rating" not in criteria, criteria
    # every assertion is justified, so nothing holds the case back for review
    dialect = get_dialect("mantle")
    justified = keep_justified(data, dialect, project)
    assert (justified.fixes, justified.needs_review) == ([], None)
    codes = {f.code for f in check_data(data, dialect, project) if f.severity == "error"}
    assert "no-decisive-assertion" not in codes, codes


def test_the_optional_branches_are_reported_dropped_not_written(tmp_path: Path) -> None:
    """A branch case would require a rating a correct agent may never ask for, and a rating
    said unasked is no detail the prose says to record: neither is written; the report
    lists the branches as dropped with the reason, never in silence."""
    root = write_project(
        tmp_path / "fleet",
        {**FILES, "skills/goodbye/skill.md": GOODBYE, "skills/goodbye/memory.yml": RATING},
    )
    report = generate_offline(root, ["goodbye"], tmp_path / "out")
    written = sorted(p.name for p in (tmp_path / "out" / "cases").rglob("*.yml"))
    assert written == ["goodbye_happy_happy_path.yml"], written
    dropped = {d["behavior"]: d for d in report["dropped"]}
    assert set(dropped) == {"goodbye:thumbs_up", "goodbye:thumbs_down"}, dropped
    for drop in dropped.values():
        assert drop["stage"] == "plan" and "`goodbye.rating`" in drop["reason"], drop
