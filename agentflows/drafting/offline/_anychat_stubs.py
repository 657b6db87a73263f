"""Tool stubs of an offline-drafted Anychat case (`scenario.stubs`).

A case that expects a tool's effect (a renewal, a status, a booking) must not leave the
tool's answer to the harness: with no loan, or with several, a correct agent asks or stops
where the case expects it to act. So every tool the case's job calls (`toolsCalled`) gets a
fixed answer that makes the case's path the one every correct agent takes. A hand-off or
guardrail case also stubs the lookup and availability tools of the Playbooks it reaches (not
the actions), so the agent meets the same answers on its way as in the direct cases:

- a tool whose description names the things another called tool takes by id (`find_member`
  "... and their current loans" with `renew_loan(loan_id)`) returns exactly one of them, with
  that id; an availability tool returns a few slots with their start times (the picker
  offers them, the case picks the first);
- a lookup by what the person tells (no such id) says whether they were `found`: yes when it
  lists their things or the case's person is on record;
- a tool whose description lists the values it returns in parentheses ("The status of a
  ticket (waiting for parts, in progress, ready)") returns the value the case's own words
  name (the Playbook example's reply, the Outreach that opened the conversation), else the
  first listed;
- that one thing carries what an Outreach running in the case's Playbook says about it (its
  inputs that are not the person's: `bookTitle`, `dueDate`), with the values the opener of
  the case sent, so the agent can name the record the Playbook asks it to talk about;
- an action tool (books, renews, cancels) succeeds (`ok: true`), with the new date the
  Playbook's body has the agent tell after it ("tell them the new due date");
- a replayed Playbook example's own `result` on a `tool` turn wins over all of these.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from evalcore.definitions import AnychatTool
from evalcore.lexicon.en.playbook_prose import NEW_DATE

from ...planning.anychat_elements import tool_roles
from ...planning.anychat_people import clock_now, outreach_inputs
from ._anychat_case import _Case

#: A parenthesised list of values in a description: "(waiting for parts, in progress, ready)".
_LISTED = re.compile(r"\(([^()]*,[^()]*)\)")
_SEPARATORS = re.compile(r"\s*(?:,|/|\|)\s*")
_WORD = re.compile(r"[a-z0-9]+")
_ID_SUFFIX = re.compile(r"(_id|Id)$")
#: Slots an availability stub offers (the case picks the first).
SLOTS = 3
#: Days from the frozen clock to the first slot, and its time of day.
_FIRST_SLOT = timedelta(days=2, minutes=30)
#: Days from the frozen clock to a new date an action sets (a renewal's due date).
_NEW_DATE_AFTER = timedelta(days=21)


def tool_stubs(
    case: _Case, called: dict[str, Any] | None, reached: set[str], barred: list[str]
) -> dict[str, Any]:
    """A stub per tool of `called` that the definitions say something about, and per lookup
    or availability tool of a Playbook the conversation `reached` (a hand-off or guardrail
    case leaves them out of `toolsCalled`, yet a correct agent may call them on its way and
    must meet the same answers as in the direct cases). `barred` tools get none."""
    names = [n for n in called or {} if n in case.defs.tools]
    actions = {r.action for r in _all_roles(case)} - {None}
    playbooks = [case.defs.playbooks[p] for p in sorted(reached) if p in case.defs.playbooks]
    around = [n for p in playbooks for n in p.tools if n in case.defs.tools and n not in names]
    roles = [tool_roles(p, case.defs) for p in playbooks]
    asks = {n for r in roles for n in r.lookup + r.availability}
    names += [n for n in dict.fromkeys(around) if n in asks - actions and n not in barred]
    # the ids an action takes name what a lookup lists, whether or not the case calls it
    stems = _id_stems([case.defs.tools[n] for n in dict.fromkeys(names + around)])
    availability = {t for r in _all_roles(case) for t in r.availability}
    stubs: dict[str, Any] = {}
    for name in names:
        tool = case.defs.tools[name]
        if name in actions:
            stubs[name] = {"ok": True, **_told_after(case, name)}
            continue
        own = {s for s, p in stems.items() if p in tool.parameters}
        listed_stems = {s: p for s, p in stems.items() if s not in own}
        result = _listing(tool, listed_stems, slots=name in availability)
        if name not in availability:
            result = {k: [{**v[0], **_record_fields(case)}] for k, v in result.items()}
        if not own and name not in availability:
            # a lookup by what the person tells: found when it must list their things or
            # the person is on record
            result = {"found": bool(result) or _known(case), **result}
        listed = _listed_values(tool.description or "")
        if listed:
            result[name.rsplit("_", 1)[-1]] = _named_value(case, listed)
        if result:
            stubs[name] = result
    stubs.update({k: v for k, v in _example_results(case).items() if k in names})
    return stubs


def _told_after(case: _Case, action: str) -> dict[str, str]:
    """What the Playbook's body has the agent tell after its own action ("tell them the new
    due date"): a date after the clock's day, so the agent has it to tell."""
    match = NEW_DATE.search(case.pb.body or "")
    if match is None or tool_roles(case.pb, case.defs).action != action:
        return {}
    day = clock_now() + _NEW_DATE_AFTER
    words = ["new", *_WORD.findall(match.group(1).lower())]
    key = words[0] + "".join(w.title() for w in words[1:])
    return {key: f"{day:%A, %B} {day.day}"}


def _example_results(case: _Case) -> dict[str, Any]:
    """What a replayed example says its tools return (`result` on a `tool` turn): the author's
    own answer, which the example's next agent line is based on."""
    if case.facts["kind"] != "example":
        return {}
    example = case.pb.examples[case.facts["example"]]
    found: dict[str, Any] = {}
    for turn in example.turns:
        if "tool" in turn and turn.get("result") is not None:
            found.setdefault(str(turn["tool"]), turn["result"])
    return found


def _record_fields(case: _Case) -> dict[str, str]:
    """What an Outreach of the case's Playbook tells the person about the record, minus what
    is the person's own: the opener's values where the case started with it."""
    who = _who(case)
    start = (case.facts.get("start") or {}).get("outreach") or {}
    sent = start.get("inputs") or {}
    for outreach in case.defs.outreaches.values():
        if outreach.playbook != case.pb.id:
            continue
        if start.get("outreachId") == outreach.id and sent:
            values = dict(sent)
        else:
            seeded = case.facts.get("appointments") or [None]
            values = outreach_inputs(outreach, who, seeded[0], case.defs)
        mine = set(who) | set(case.defs.person_fields)
        own = {str(v) for v in who.values()} | {"there"}
        return {k: v for k, v in values.items() if k not in mine and v not in own}
    return {}


def _who(case: _Case) -> dict[str, Any]:
    persona = case.facts.get("persona") or {}
    return dict(persona.get("fields") or (persona.get("preset") or {}).get("fields") or {})


def _all_roles(case: _Case) -> list[Any]:
    return [tool_roles(p, case.defs) for p in case.defs.playbooks.values()]


def _known(case: _Case) -> bool:
    """The case's person is on record (a name, not only a phone)."""
    fields = (case.facts.get("persona") or {}).get("fields") or {}
    return bool(fields.get("fullName") or fields.get("firstName"))


def _listing(tool: AnychatTool, stems: dict[str, str], *, slots: bool) -> dict[str, Any]:
    """The things of `stems` the tool's description says it returns: exactly one (or the
    slots an availability tool offers), with the id the other tool takes.

    In "open appointment slots" only the head word counts: a word naming a thing directly
    before another such word qualifies it ("appointment" slots are slots)."""
    words = _WORD.findall((tool.description or "").lower())
    hits = [next((s for s in stems if w.startswith(s)), None) for w in words]
    result: dict[str, Any] = {}
    for index, stem in enumerate(hits):
        if stem is None or (index + 1 < len(hits) and hits[index + 1] is not None):
            continue
        key = words[index]
        if key in result:
            continue
        if slots:
            result[key] = [_slot(stem, n) for n in range(SLOTS)]
        else:
            result[key] = [{"id": f"{stem}-1"}]
    return result


def _id_stems(tools: list[AnychatTool]) -> dict[str, str]:
    """`{"loan": "loan_id"}` for the `loan_id` / `loanId` parameters of `tools`."""
    stems: dict[str, str] = {}
    for tool in tools:
        for param in tool.parameters:
            stem = _ID_SUFFIX.sub("", param)
            if stem != param and stem:
                stems.setdefault(stem.lower(), param)
    return stems


def _slot(stem: str, index: int) -> dict[str, Any]:
    start: datetime = clock_now() + _FIRST_SLOT + timedelta(days=index)
    return {"id": f"{stem}-{index + 1}", "start": start.isoformat()}


def _listed_values(description: str) -> list[str]:
    match = _LISTED.search(description)
    if match is None:
        return []
    return [v for v in _SEPARATORS.split(match.group(1).strip()) if v]


def _named_value(case: _Case, values: list[str]) -> str:
    """The listed value the case's own words name, else the first."""
    spaced = " " + " ".join(_WORD.findall(" ".join(_context(case)).lower())) + " "
    for value in values:
        if " " + " ".join(_WORD.findall(value.lower())) + " " in spaced:
            return value
    return values[0]


def _context(case: _Case) -> list[str]:
    """What the case says about the answer: the replayed example's agent lines, or the
    Outreach that opened the conversation."""
    facts = case.facts
    out: list[str] = []
    if facts["kind"] == "example":
        example = case.pb.examples[facts["example"]]
        out += [str(t["agent"]) for t in example.turns if "agent" in t]
    outreach = case.defs.outreaches.get(str(facts.get("outreach") or ""))
    if outreach is not None:
        out += [outreach.id, outreach.name or "", outreach.opener or "", outreach.goal or ""]
    return out


__all__ = ["tool_stubs"]
