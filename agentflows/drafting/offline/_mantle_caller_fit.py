"""Which of the project's callers fits the branch a Mantle case plays.

The case's planned values (`disruption_type: cancelled`) are its branch. A caller whose
records hold that value (their flight's status in the flight file) is preferred, one whose
records hold another value of the same choices (a delayed flight) is avoided (less so
where another of their things holds none of the choices: an on-time flight beside the
delayed one for a voluntary change), and one the
branch's prose rules out ("basic fares cannot be changed"), who has none of what the skill
acts on (`bags: []`), whose rows of what the branch acts on add up to nothing (a payment
plan for a zero balance: a tool of the skill sums the rows into a field the branch's prose
names), who asks to switch on what is already on or whose record's date falls short of
what the branch's prose requires ("must be valid six months past the return date"), or for
whom no example of a place the case gives fits the kind it plays (a domestic trip for the
one executive based in the only US city listed) is never picked while another caller fits
(`evalcore.testdata` `branch_fit`, `ruled_out`, `lacks`, `total`, `moot`, `expires_short`,
`kind_unfit`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill, memoized
from evalcore.definitions.skill_model import sentences, summed_writes
from evalcore.testdata import (
    Caller,
    DataRecords,
    acted_on,
    allowed_by,
    branch_fit,
    examples_of,
    expires_short,
    kind_unfit,
    lacks,
    moot,
    ruled_out,
    total,
    unaffected,
)

from ...planning import Behavior
from ._mantle_facts import holds

#: What a caller the branch rules out scores: below any fit, so another caller is picked.
UNFIT = -1000
#: What each value of the branch the caller's records hold weighs against the other scores
#: (whose records hold the case's choices, who has their own records, who is in standing).
_FIT_WEIGHT = 16
_QUOTED = re.compile(r"\"([^\"]+)\"")


def branch_prose(skill: Skill, memory: dict[str, Any], *, conditional: bool = False) -> list[str]:
    """The sentences of the skill's prose and of its blocks' instructions steps that hold
    on the branch (no `if:`, or one whose condition `memory` meets; only the latter where
    `conditional`: the branch's own)."""
    texts = [skill.body or ""]
    texts += [
        str(step.target)
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "instructions" and isinstance(step.target, str)
    ]
    return [
        part.text
        for text in texts
        for part in sentences(text)
        if (not part.condition and not conditional)
        or (part.condition and holds(part.condition, memory))
    ]


def branch_values(defs: MantleDefinitions, behavior: Behavior) -> tuple[set[str], set[str]]:
    """(the case's planned values, the other values of the same choices: another branch's,
    with a corrected first answer among them)."""
    planned = behavior.facts.get("values") or {}
    wanted = {str(v) for v in planned.values() if isinstance(v, str)}
    others: set[str] = set()
    for key in planned:
        field = defs.memory_field(key)
        if field is not None and field.enum_values:
            others |= {str(v) for v in field.enum_values if isinstance(v, str)}
    correction = behavior.facts.get("correction") or {}
    if isinstance(correction.get("from"), str):
        others.add(correction["from"])
    return wanted, others - wanted


def _requests(skill: Skill, wanted: set[str]) -> list[str]:
    """The description's quoted requests that name one of the branch's values ("turn on
    autopay" for `autopay`): what the case's caller asks for."""
    out = []
    for quoted in _QUOTED.findall(" ".join((skill.description or "").split())):
        words = set(re.findall(r"[\w-]+", quoted.lower()))
        if any(set(w.lower().split("_")) <= words for w in wanted):
            out.append(quoted)
    return out


def summed_on_branch(project: Project, skill: Skill, memory: dict[str, Any]) -> list[str]:
    """The record keys a tool of the skill sums into a field the branch's own prose (under
    its `if:`) speaks of ("A payment plan splits this month's balance" and get_balance's
    `balance_due`, the sum of the ledger's `amount`): what the branch acts on."""
    assert project.mantle is not None
    words = {
        w
        for text in branch_prose(skill, memory, conditional=True)
        for w in re.findall(r"[a-z]+", text.lower())
    }
    out: list[str] = []
    for named, key in _summed(project, skill):
        if named & words and key not in out:
            out.append(key)
    return out


def _summed(project: Project, skill: Skill) -> tuple[tuple[frozenset[str], str], ...]:
    """(the words of a field a tool of the skill sums into, the record key it sums), in
    the skill's tools' order: read once per loaded project and skill, as every case scores
    every caller by them."""
    defs = project.mantle
    assert defs is not None

    def read() -> tuple[tuple[frozenset[str], str], ...]:
        return tuple(
            (frozenset(w for w in field.lower().split("_") if len(w) > 3), key)
            for tool in defs.tools_for(skill.id).values()
            for field, key in summed_writes(project, tool).items()
        )

    return memoized(defs, ("summed_on_branch", skill.id), read)


def detour_skill(defs: MantleDefinitions, behavior: Behavior) -> Skill | None:
    """The skill a digression case detours to, None for another case."""
    spec = behavior.facts.get("digression")
    skill_id = spec.get("skill") if isinstance(spec, dict) else None
    return defs.skills.get(str(skill_id)) if skill_id else None


def detour_lacked(defs: MantleDefinitions, behavior: Behavior, caller: Caller) -> str | None:
    """The misfit of a digression case whose caller has none of what its detour acts on
    (`bags: []` for a detour to the baggage skill), else None: the detour is one the
    caller cannot have, and the case says so instead of playing it as theirs."""
    detour = detour_skill(defs, behavior)
    empty = (
        lacks(caller, acted_on(detour.id, detour.memory))
        if detour is not None and caller.record
        else None
    )
    if detour is None or empty is None:
        return None
    return (
        f"no-fitting-record: the caller's record lists no {empty} ({empty}: []), which the "
        f"detour to {detour.id} acts on; the case's branch is played with a caller who has none"
    )


def caller_fit(
    project: Project, behavior: Behavior, records: DataRecords
) -> Callable[[Caller], int]:
    """The branch's score of a caller (see module doc): `UNFIT` for one ruled out."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[behavior.source]
    wanted, others = branch_values(defs, behavior)
    planned = dict(behavior.facts.get("values") or {})
    prose = branch_prose(skill, planned)
    requests = _requests(skill, wanted)
    needed = acted_on(skill.id, skill.memory)
    sums = summed_on_branch(project, skill, planned)
    kinds = [
        (v, field.description or "")
        for k, v in planned.items()
        if isinstance(v, str)
        and (field := defs.memory_field(k)) is not None
        and field.type == "categorical"
    ]
    places = [
        (f, examples_of(f.description or ""))
        for f in defs.namespace_fields(skill.id)
        if f.type == "text"
    ]

    def nothing_owed(caller: Caller) -> bool:
        """Their rows of what the branch acts on add up to nothing (a zero balance)."""
        amounts = (total(records, caller, key) for key in sums)
        return any(amount is not None and amount <= 0 for amount in amounts)

    def no_place(caller: Caller) -> bool:
        """No example of a place the case gives fits the kind it plays for this caller
        (`kind_unfit`: a domestic trip for the one executive based in the only US city
        the destination's examples list)."""
        return any(
            kind_unfit(field.name, examples, kinds, records, [caller.record or {}])
            for field, examples in places
        )

    detour = detour_skill(defs, behavior)
    detour_needs = acted_on(detour.id, detour.memory) if detour is not None else set()

    def fit(caller: Caller) -> int:
        if caller.record is None:
            return 0
        if ruled_out(caller, prose) or lacks(caller, needed) or moot(caller, requests):
            return UNFIT
        if nothing_owed(caller) or expires_short(caller, prose) or no_place(caller):
            return UNFIT
        score = _FIT_WEIGHT * branch_fit(records, caller, wanted, others)
        # a refund hand-off for a refundable fare, never a nonrefundable one
        score += _FIT_WEIGHT * allowed_by(records, caller, wanted)
        if score < 0 and unaffected(records, caller, wanted, others):
            score += _FIT_WEIGHT // 2  # below a caller clear of other branches, above none
        if detour_needs and lacks(caller, detour_needs):
            # a detour to what they have none of (a bag complaint with no bags checked):
            # below one who has it, above one whose records lead to another branch
            score -= _FIT_WEIGHT // 2
        return score

    return fit


__all__ = [
    "UNFIT",
    "branch_prose",
    "branch_values",
    "caller_fit",
    "detour_lacked",
    "detour_skill",
    "summed_on_branch",
]
