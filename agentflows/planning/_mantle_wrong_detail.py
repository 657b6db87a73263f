"""Whether a case can make a check come back negative with the project's own caller.

A negative case plays a check tool taking its `else` branch (`_mantle_outcomes.negatives`).
Where the tool's code compares two or more of the user's details with a data file's record
(`CodeFacts.compared`: `p["zip"] == zip_code[:5]`) and writes the flags the branch tests
only on a match (true on the goal's path, so a call that finds nothing leaves them unset),
the case gives one of those details wrong (`drafting.offline._mantle_mismatch`). Any other
negative result rests on the project's data or a seeded test account
(`_mantle_outcomes.negative_unmade`).
"""

from __future__ import annotations

from collections.abc import Iterable

from evalcore.definitions import Project
from evalcore.definitions.skill_model import branch_values, code_facts, skill_model

#: Details a check compares to name one record (fewer: no record to be a character off).
_NAMING = 2


def wrong_detail_check(
    project: Project, skill_id: str, tool: str, keys: Iterable[str]
) -> dict[str, str] | None:
    """Parameter -> the memory key it is passed from, for each argument `tool`'s code
    compares with a record (`zip_code` -> `verify_policyholder.zip_code`), where a wrong
    one makes the check come back negative on `keys`; None where it does not: fewer than
    `_NAMING` such arguments, or a branch that needs a flag the tool computes to hold (a
    date too early: no wrong detail makes the tool write it)."""
    assert project.mantle is not None
    found = project.mantle.tools_for(skill_id).get(tool)
    use = skill_model(project, skill_id).tool(tool)
    if found is None or use is None:
        return None
    flags = branch_values(project, skill_id)
    if any(flags.get(str(k), True) is not True for k in keys):
        return None
    compared = {p: use.arguments.get(p) for p, _ in code_facts(project, found).compared}
    out = {p: k for p, k in compared.items() if k}
    return out if len(out) >= _NAMING else None


__all__ = ["wrong_detail_check"]
