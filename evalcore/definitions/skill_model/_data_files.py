"""Which skills read which of the project's data files, by the names their tools' code holds.

A project's `data/` folder holds the records its tools look up (`data/bookings.csv` for the
tool that cancels a booking, `data/toxins.json` for the triage tool). A narrative field of
another skill that happens to share a column's name (`reason` of "put me through to the
vet") is not one of those records' fields: a value drawn from them would be someone else's
booking reason (an id or a name names the same thing in any skill, so the test data lets
those draw from any file: `evalcore.testdata.DataRecords.match`). So a data file belongs
to the skills that can call a tool whose file names it (a
string constant equal to the file's name, with or without its suffix, or ending in
`/<name>`), read with `ast`, never imported. A file no tool's code names (the tools build
the path at run time, or call an API the file stands in for) belongs to no skill in
particular: every skill may draw from it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import lru_cache

from .._memo import memoized
from .._model import Project
from .._tools_ast import parsed_module
from ._code import tool_source


@lru_cache(maxsize=256)
def _constants(text: str) -> frozenset[str]:
    """Every string constant of a module (empty for one that does not parse), once per
    text: every tool a file defines, for every skill that can call it, reads the same."""
    try:
        tree = parsed_module(text)
    except (SyntaxError, ValueError):
        return frozenset()
    return frozenset(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 300
    )


def _names(constant: str, stem: str) -> bool:
    tail = constant.replace("\\", "/").rsplit("/", 1)[-1]
    return tail in (stem, f"{stem}.json", f"{stem}.csv")


def data_readers(project: Project, stems: Iterable[str]) -> dict[str, frozenset[str]]:
    """Data file stem -> the skills whose callable tools' files name it; a stem no tool's
    file names is left out (see the module). Kept per loaded project and set of stems."""
    wanted = tuple(sorted(set(stems)))
    return dict(memoized(project, ("data_readers", wanted), lambda: _readers(project, wanted)))


def _readers(project: Project, stems: tuple[str, ...]) -> dict[str, frozenset[str]]:
    defs = project.mantle
    if defs is None or not stems:
        return {}
    out: dict[str, set[str]] = {}
    for skill_id in defs.skills:
        for tool in defs.tools_for(skill_id).values():
            text = tool_source(project, tool)
            if text is None:
                continue
            constants = _constants(text)
            for stem in stems:
                if any(_names(c, stem) for c in constants):
                    out.setdefault(stem, set()).add(skill_id)
    return {stem: frozenset(skills) for stem, skills in out.items()}


__all__ = ["data_readers"]
