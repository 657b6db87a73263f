"""A call the prose makes only in a window of time its tool checks on the run's clock.

Which side of the window a run falls on nothing in a case pins: no case asserts the call,
a criterion quotes both sides (either is correct), and the review takes that criterion as
what judges the happy path.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from agentflows.drafting.offline._mantle_clock_branch import clock_branch, clock_offers
from agentflows.mutate._reasons_path import off_path
from evalcore.agents.reference import Mutant
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus" / "harbor_mutual"
_WINDOW = (
    "During business hours (Monday to Friday, 8am to 8pm Eastern) transfer the call with "
    "@tool.transfer_to_queue. Outside those hours, offer a callback instead."
)


def _project(tmp_path: Path, prose: str, *, clock: bool = True) -> Path:
    root = tmp_path / "project"
    shutil.copytree(CORPUS, root)
    skill = root / "skills" / "adjuster_handoff" / "skill.md"
    text = skill.read_text()
    assert " ".join(_WINDOW.split()) in " ".join(text.split())
    start = text.index("During business hours")
    end = text.index("instead.", start) + len("instead.")
    skill.write_text(text[:start] + prose + text[end:])
    if not clock:
        tools = root / "skills" / "adjuster_handoff" / "tools.py"
        tools.write_text(tools.read_text().replace("    if not _open_now():", "    if False:"))
    return root


def test_both_sides_of_a_clock_window_are_one_criterion(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        "During opening hours, hand the call over with @tool.transfer_to_queue.\n"
        "After hours, offer a message to the team instead.",
    )
    project = load_project(root)
    skill = project.mantle.skills["adjuster_handoff"]
    said = clock_branch(project, skill, {"project.channel": "phone"})
    assert said is not None and "either side is correct" in said, said
    assert '"During opening hours, hand the call over with transfer_to_queue."' in said
    assert '"After hours, offer a message to the team instead."' in said
    assert clock_offers(project, skill, {"project.channel": "phone"}) == [
        "whether you want a message to the team instead"
    ]
    # the other channel's paragraph: no window on the path
    assert clock_branch(project, skill, {"project.channel": "web_chat"}) is None


def test_a_window_no_code_checks_gets_no_clock_criterion(tmp_path: Path) -> None:
    root = _project(tmp_path, " ".join(_WINDOW.split()), clock=False)
    project = load_project(root)
    skill = project.mantle.skills["adjuster_handoff"]
    assert clock_branch(project, skill, {"project.channel": "phone"}) is None


def test_a_fault_only_a_clock_window_reaches_is_not_scored(tmp_path: Path) -> None:
    """No case can pin the side of the window, so a fault behind it (the transfer's
    argument, what only the transfer writes) is left to the criterion, like an outside
    service's answer; with the window's check gone from the tool, it is off the path."""
    windowed = load_project(_project(tmp_path / "a", " ".join(_WINDOW.split())))
    for kind, target in (
        ("wrong_argument", "transfer_to_queue"),
        ("forget_memory", "adjuster_handoff.transferred"),
    ):
        reason = off_path(windowed, Mutant(kind, target, "adjuster_handoff"))
        assert reason.code == "outside" and "run's clock" in reason.text, reason
    plain = load_project(_project(tmp_path / "b", " ".join(_WINDOW.split()), clock=False))
    reason = off_path(plain, Mutant("wrong_argument", "transfer_to_queue", "adjuster_handoff"))
    assert reason.code == "off_path", reason
