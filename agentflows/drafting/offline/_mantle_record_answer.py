"""The criterion that a read-only answer states what the record the case names holds.

A case that asks about one record of a data file the skill's tools read (the drink and size
on the recipe card, the service in the catalog) passes every event check with an agent that
calls the lookup and then gives wrong values. Where the sentence that has the agent call
that tool names fields of the record ("Look the drink up with @tool.get_recipe and answer
only what they asked (usually shots, milk, pumps)", "Call get_service and say which version
runs in each environment"), the criterion gives those fields' values, read from the file at
generation time, with the file and line they come from.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import sentences
from evalcore.testdata import DataRecords

from ._direction_values import words

#: The shortest word of a field's name that names the field alone ("milk" of `milk_oz`).
_NAMING_WORD = 4


def record_answer(
    skill: Skill,
    records: DataRecords,
    root: Path,
    ran: Collection[str],
    memory: Mapping[str, Any],
    named: Collection[str],
) -> str | None:
    """ "The agent's values for Cortado (single) are those data/recipes.csv:5 holds: …", for
    a path that ran the read-only tools `ran` with `memory`, where the user named the
    values `named`; None where no sentence calling one of them names a field, or the user's
    values pick no single record of a file the skill reads."""
    told = {str(v).strip().lower() for v in named if str(v).strip()}
    if not told:
        return None
    for collection in records.collections:
        if skill.id not in records.readers.get(collection.name, ()):
            continue
        # the sentences that call a lookup of this file's records (`get_recipe` of
        # recipes, `trace_bag` of bag_tags)
        asked = _asked_words(skill, [t for t in ran if _looks_up(t, collection.name)], memory)
        if not asked:
            continue
        # a record the user names by its key (its first field: the drink, the service),
        # not one that only shares a value with it (a deploy of that service)
        scored = [
            (_matches(r, told), n, r)
            for n, r in enumerate(collection.records)
            if r and str(next(iter(r.values()))).strip().lower() in told
        ]
        best = max((s for s, _, _ in scored), default=0)
        top = [(n, r) for s, n, r in scored if s and s == best]
        if len(top) != 1:
            continue
        index, record = top[0]
        keys = [k for k in record if str(record[k]).strip().lower() not in told]
        fields = [k for k in keys if _names(asked, k)]
        if not fields:
            continue
        which = ", ".join(str(record[k]) for k in record if str(record[k]).strip().lower() in told)
        place = _place(root, collection.where, record, index)
        values = ", ".join(f"{k.replace('_', ' ')} {_value(record[k])}" for k in fields)
        return (
            f"The values the agent gives for {which} are the ones {place} holds ({values}), "
            "and it states none that differ from them"
        )
    return None


def _asked_words(skill: Skill, ran: Collection[str], memory: Mapping[str, Any]) -> set[str]:
    """The words of the prose sentences that call a tool of `ran`, on the path's branch."""
    out: set[str] = set()
    for sentence in sentences(skill.body or ""):
        if sentence.condition and not evaluate(sentence.condition, dict(memory)):
            continue
        if any(tool in sentence.text for tool in ran):
            out |= set(words(sentence.text))
    return out


def _looks_up(tool: str, collection: str) -> bool:
    """Whether the tool's name names one of the file's records (`get_recipe` of recipes,
    `trace_bag` of bag_tags; not `verify_policyholder` of policies)."""
    head = collection.lower().split("_")[0]
    one = head[:-3] + "y" if head.endswith("ies") else head.rstrip("s")
    return one in tool.lower().split("_")


def _matches(record: dict[str, Any], told: set[str]) -> int:
    return sum(1 for v in record.values() if str(v).strip().lower() in told)


def _names(asked: set[str], key: str) -> bool:
    """Whether the sentence's words name a field by a word of its name ("shots" names
    `espresso_shots`, "environment" names `environments`)."""
    for part in key.lower().split("_"):
        if len(part) < _NAMING_WORD:
            continue
        if part in asked or part.rstrip("s") in asked or f"{part}s" in asked:
            return True
    return False


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _place(root: Path, where: str, record: dict[str, Any], index: int) -> str:
    """`data/recipes.csv:5`: the file and the line the record starts on (a CSV row; the
    first line of a JSON file that holds the record's first value)."""
    try:
        lines = (root / where).read_text("utf-8").splitlines()
    except OSError:
        return where
    if where.endswith(".csv"):
        return f"{where}:{index + 2}"
    first = next(iter(record.values()), None)
    if isinstance(first, str):
        for number, line in enumerate(lines, 1):
            if f'"{first}"' in line:
                return f"{where}:{number}"
    return where


__all__ = ["record_answer"]
