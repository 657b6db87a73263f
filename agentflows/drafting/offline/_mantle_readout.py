"""The criterion that the agent tells the customer what their own records hold, for a skill
whose tool reads a data file and whose prose tells the agent to present what it read
("present each policy: policy type, policy number, premium"): an agent that calls the tool
and then reads out nothing, or made-up values, passes every event check.

The records are the case's caller's (a record of the file carrying one of the caller's
ids, else of the identity the project seeds), read at generation time; the facts named are
the fields the prose names.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import Skill
from evalcore.definitions.conditions import condition_keys
from evalcore.lexicon.en.instruction_words import NEGATING as _FORBIDS
from evalcore.lexicon.en.prose_acts import PRESENTS as _PRESENTS
from evalcore.testdata import Caller, DataRecords, caller_ids

#: Where one prose paragraph ends.
_PARAGRAPH = re.compile(r"\n\s*\n")
#: More records than a judge can check in one criterion.
_MAX_RECORDS = 4


def readout_criterion(skill: Skill, records: DataRecords, caller: Caller) -> str | None:
    """ "The agent tells the customer their policies: Car (policy num P1, premium 80) …",
    naming the fields the prose asks to present of each of the caller's records in a file
    the skill's tools read; None where the prose presents nothing of such a file, or the
    caller has no record there (or more than a judge can check)."""
    # the caller's own ids, else the identity the project seeds every session with
    ids = caller_ids(caller) or dict(records.identity)
    if not ids:
        return None
    presenting = _presented(skill.body or "")
    for collection in records.collections:
        if skill.id not in records.readers.get(collection.name, ()):
            continue
        own = [
            r
            for r in collection.records
            if r is not caller.record
            and any(k in r and str(r[k]) == str(v) for k, v in ids.items())
        ]
        if not own or len(own) > _MAX_RECORDS:
            continue
        # a sentence about this file's records ("list their prescriptions", "say each
        # shift"), not one that names a field's word about something else ("the line")
        about = [t for t in presenting if _names(t, _singular(collection.name))]
        named = [k for k in own[0] if k not in ids and any(_names(t, k) for t in about)]
        if not named:
            continue
        said = ", ".join(_record(r, named) for r in own)
        return f"The agent tells the customer their {collection.name.replace('_', ' ')}: {said}"
    return None


#: How many words after its verb a presenting clause names what it presents in.
_OBJECT_WORDS = 15
#: Where one prose sentence ends.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z@])")


def _presented(body: str) -> list[str]:
    """What the prose tells the agent to present: in each sentence that does not forbid,
    the words after its presenting verb ("…, offer a renewal and say it takes two days"
    presents no prescriber; "never read back the ZIP" presents nothing)."""
    out: list[str] = []
    for paragraph in _PARAGRAPH.split(body):
        for sentence in _SENTENCE.split(" ".join(paragraph.split())):
            found = _PRESENTS.search(sentence)
            words = set(sentence.lower().replace(",", " ").split())
            if found is not None and not _FORBIDS & words:
                # what it presents: the words right after the verb, to the clause's end
                said = re.split(r"[;(]|\s-\s|\.\s", sentence[found.end() :])[0]
                out.append(" ".join(said.split()[:_OBJECT_WORDS]))
    return out


def _singular(name: str) -> str:
    """A file's name as one of its records ("policies" -> "policy", "shifts" -> "shift")."""
    last = name.lower().replace("-", "_").split("_")[-1]
    if last.endswith("ies"):
        return last[:-3] + "y"
    return last[:-1] if last.endswith("s") and not last.endswith("ss") else last


def read_back_text(skill: Skill | None, flag: str) -> str | None:
    """What the steps that fill the yes/no `flag` (qualified) say and complete on: the
    instructions' text and the other fields of their `complete_when`; None where no
    instructions step fills it (the read-back is then the runtime's own)."""
    if skill is None:
        return None
    parts = [
        f"{step.target or ''} {step.fields.get('complete_when') or ''}"
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "instructions"
        and flag in condition_keys(str(step.fields.get("complete_when") or ""))
    ]
    return " ".join(parts) if parts else None


#: The shortest last word of a field's name that names the field alone.
_HEAD_WORD = 4


def names_field(text: str, key: str) -> bool:
    """Whether `text` names a field: by its name, word by word ("policy number" names
    `policy_num`), or by the last word of it ("the date" names `incident_date`; an `_f` or
    `_id` suffix names nothing)."""
    head = key.removesuffix("_id").split("_")[-1]
    if len(head) >= _HEAD_WORD and re.search(rf"\b{re.escape(head)}\b", text, re.I):
        return True
    return _names(text, key) or key in text


def _names(text: str, key: str) -> bool:
    """Whether prose names a field, word by word ("policy number" names `policy_num`)."""
    words = [w for w in key.lower().split("_") if w]
    pattern = r"\b" + r"\w*[\s-]+".join(re.escape(w) for w in words) + r"\w*"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _record(record: dict[str, Any], named: list[str]) -> str:
    values = [(k, record.get(k)) for k in named if record.get(k) not in (None, "")]
    if not values:
        return "?"
    (_, head), rest = values[0], values[1:]
    if not rest:
        return str(head)
    details = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in rest)
    return f"{head} ({details})"


__all__ = ["names_field", "read_back_text", "readout_criterion"]
