"""The offline draft of a `practice` prompt: a person asks for one piece of code work (a bug
fix, a feature, a refactoring) on the starter project, and the checks verify what a skill
about how such work is done makes the agent leave behind.

    prompt, checks = draft_practice(behavior.facts)

The person asks for the work only; they do not say how to do it (that is the skill's part).
Every check is a `command-passes` on the project copy (`base44_starter`): the module does
what was asked, the project's tests pass, and the tests fail when the old code is put back
in memory (a test that catches the change was written). An agent that changes nothing fails
the first or the third; so does one that does the work without a test. A refactoring, which
leaves behaviour as it was, is also checked in the code (`Work.after`): an agent that only
adds tests fails that one.
"""

from __future__ import annotations

from typing import Any

from ...planning.base44_starter import (
    RUN_TESTS,
    STARTER_WORK,
    after_command,
    before_command,
    behaviour_command,
)

Check = dict[str, Any]


def draft_practice(facts: dict[str, Any]) -> tuple[str, list[Check]]:
    """The prompt text and checks of a `practice` behaviour's facts."""
    work = STARTER_WORK[facts["work"]]
    prompt = f"{work.request} The tests run with `{RUN_TESTS}`."
    checks: list[Check] = [
        {
            "type": "command-passes",
            "description": f"Does what was asked: {work.behaviour_says}",
            "command": behaviour_command(work),
        },
        {
            "type": "command-passes",
            "description": "The project's tests all pass",
            "command": RUN_TESTS,
        },
        {
            "type": "command-passes",
            "description": f"Test first: {work.before_says}",
            "command": before_command(work),
        },
    ]
    if work.after:
        checks.append(
            {
                "type": "command-passes",
                "description": f"The change is in the code: {work.after_says}",
                "command": after_command(work),
            }
        )
    return prompt, checks


__all__ = ["draft_practice"]
