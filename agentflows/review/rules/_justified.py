"""`unjustified-assertion`: an assertion no definition element makes every correct agent pass.

A case asserts what every correct implementation does in its conversation. The dialect finds
the element behind each assertion (`Dialect.justify`: an ordered block, a gate, a tool's
code, a prose sentence ...); an assertion with none, or whose only basis is conditional
prose ("If ...", "may", "optionally") the case does not fix, is flagged: make it a criterion,
fix the conversation so the condition holds, or drop it.
"""

from __future__ import annotations

from collections.abc import Iterator

from evalcore.dialects import get_dialect

from .._views import CaseView, ReviewEnv
from ._registry import Hit, review_rule


@review_rule(
    "unjustified-assertion",
    severity="warning",
    summary="An assertion no definition element justifies, or whose only basis is "
    "conditional prose the case does not fix (a correct agent may fail it).",
)
def unjustified_assertion(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    if env.project is None:
        return
    dialect = get_dialect(case.dialect)
    if not dialect.justifies:
        return
    flagged = [
        item
        for item in dialect.justify(case.data, env.project)
        if item.check != "criterion" and not item.assertable
    ]
    parts = {item.path for item in flagged if not item.top}
    for item in flagged:
        if item.top and any(p.startswith(item.path + "/") for p in parts):
            continue  # its flagged entries say which part is wrong
        if item.justification is None:
            yield Hit(
                item.path,
                f"no definition element justifies this {item.check} check: a correct agent "
                "need not do it in this conversation",
                suggestion="drop it, or turn it into a criterion if the skill's text asks for it",
                value=item.check,
            )
        else:
            found = item.justification
            yield Hit(
                item.path,
                f"this {item.check} check rests only on conditional prose at {found.place} "
                f"({found.element}): a correct agent may fail it",
                suggestion="make the conversation fix the condition, turn it into a "
                "criterion, or drop it",
                value=found.place,
            )
