"""A check that comes back negative because the caller gets one detail wrong.

A negative case plays a check tool coming back negative (`planning._mantle_outcomes`:
the branch on what it writes takes its `else`). Where the tool's code compares the user's
details with a data file's record (`CodeFacts.compared`: `p["zip"] == zip_code[:5]`) and
writes the flag the branch tests only on a match, the case's caller is one of the
project's own people, and one of the details they give is a character off their record
(`evalcore.testdata.changed_detail`): the code finds no record, every time they are
asked, so a path that counts failed tries to a hand-off gets there too. No seeded test
account stands in for it; the reference agent's backend reads the same changed detail back
(`evalcore.testdata.one_detail_off`).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.skill_model import (
    UNKNOWN,
    code_facts,
    qualify,
)
from evalcore.testdata import changed_detail

from ...planning import Behavior, wrong_detail_check
from ._direction import value_words


def detail_check(project: Project, behavior: Behavior) -> tuple[str, dict[str, str]] | None:
    """The negated check of a negative case that a wrong detail fails, with the memory key
    each compared parameter is passed from (`planning._mantle_wrong_detail`); None where
    the case is no such case."""
    negated = behavior.facts.get("negative") or {}
    if behavior.facts.get("account") != "negative" or len(negated) != 1:
        return None
    ((name, keys),) = negated.items()
    found = wrong_detail_check(project, behavior.source, str(name), [str(k) for k in keys])
    return (str(name), found) if found else None


def one_wrong(
    check: tuple[str, dict[str, str]], values: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    """`values` (the user's answers) with the last compared detail the user gives that has
    digits a character off (`changed_detail`), and the persona's note to give it so each
    time; `values` unchanged and None where no told detail has digits."""
    _, compared = check
    for key in reversed(list(compared.values())):
        value = values.get(key)
        changed = changed_detail(value) if isinstance(value, str) else None
        if changed is None:
            continue
        what = value_words(key.rsplit(".", 1)[-1])
        note = (
            f"Give your {what} as {changed} each time the agent asks for it (you remember it "
            "that way), and do not change it."
        )
        return {**values, key: changed}, note
    return values, None


def writes_false(project: Project, skill_id: str, tool: str, key: str) -> bool:
    """Whether `tool`'s code may write `key` as false: a write of it whose value is not a
    literal (a computed flag), or the literal False; a tool that only ever writes True
    (`memory.set("project.authenticated", True)` after a match) leaves the key as it was
    when its check comes back negative, so a case never asserts it set false. A tool whose
    code is not read (an MCP tool) may."""
    assert project.mantle is not None
    found = project.mantle.tools_for(skill_id).get(tool)
    writes = code_facts(project, found).writes if found is not None else ()
    mine = [w for w in writes if qualify(w.key, skill_id, project.mantle) == key]
    return not mine or any(w.value is UNKNOWN or w.value is False for w in mine)


__all__ = ["detail_check", "one_wrong", "writes_false"]
