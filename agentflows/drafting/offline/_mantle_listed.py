"""An id the user picks from an outside list that marks what they can take: no case fixes it.

"Call list_open_shifts for their store … the tool marks which ones they can take. When
they pick one, set open_shift_id and call claim_open_shift", where list_open_shifts asks a
service outside the agent and no record of the project's data files holds an id of
open_shift_id's shape (`OPN-#####`): whether the list holds any item this user can take is
that service's answer. The case's user picks the first one the agent says they can take,
and with none says that is fine and stops (`list_pick_note`), where a correct agent never
writes the id nor runs what needs it. So the id's write, and what the runtime runs only
once it is written (a tool whose `requires` reads it), are no assertions of the case:
`without_answers` says them as a conditional criterion instead. The listing call, with the
arguments the agent gives it, stays. (A list that marks nothing is read out for the user to
pick from, and the case plays the pick: that stays asserted.)
"""

from __future__ import annotations

import re

from evalcore.definitions import MantleDefinitions, Project, memoized
from evalcore.lexicon.en.skill_prose import MARKED_PICKS
from evalcore.testdata import described_shape, names_an_id

from ._mantle_facts import listing_tool
from ._mantle_script import shared_records


def listed_picks(project: Project, outside: frozenset[str]) -> dict[str, str]:
    """Qualified key -> the `outside` listing tool whose answer the user picks it from (see
    the module doc). One map per project: each case's goals ask for it."""
    defs = project.mantle
    if defs is None or not outside:
        return {}
    return dict(memoized(defs, "listed_picks", lambda: _picks(project, defs, outside)))


def _picks(project: Project, defs: MantleDefinitions, outside: frozenset[str]) -> dict[str, str]:
    records = shared_records(project)
    found: dict[str, str] = {}
    for key, field in defs.memory_names().items():
        if field.namespace not in defs.skills or not names_an_id(field.name):
            continue
        shape = described_shape(field.description or "")
        if shape is None or records.holds_shape(shape):
            continue  # an id of the project's records: the case can name one
        lister = listing_tool(defs, field.namespace, field)
        if lister in outside and _marks_takers(defs.skills[field.namespace].body or "", lister):
            found[key] = lister
    return found


def _marks_takers(body: str, lister: str) -> bool:
    """Whether a paragraph of the skill's prose that names `lister` says the list marks
    which items the user can take (`MARKED_PICKS`)."""
    for paragraph in re.split(r"\n\s*\n", body):
        flat = " ".join(paragraph.split())
        if re.search(rf"\b{re.escape(lister)}\b", flat) and MARKED_PICKS.search(flat):
            return True
    return False


__all__ = ["listed_picks"]
