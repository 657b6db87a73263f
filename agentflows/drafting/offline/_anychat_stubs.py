"""Tool stubs of an offline-drafted Anychat case (`scenario.stubs`).

A case that expects a tool's effect (a renewal, a status, a booking) must not leave the
tool's answer to the harness: with no loan, or with several, a correct agent asks or stops
where the case expects it to act. So every tool the case's job calls (`toolsCalled`) gets a
fixed answer that makes the case's path the one every correct agent takes. A hand-off or
guardrail case also stubs the lookup and availability tools of the Playbooks it reaches (not
the actions), so the agent meets the same answers on its way as in the direct cases; a
resumed case those of its own Playbook (the seeded history holds no tool call, so a correct
agent may look the person up now); a replayed example every tool its `tool` turns call:

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
- a replayed Playbook example's agent lines are true of its stubs: the day, time and quoted
  name a line says after a tool turn ("You have “The Overstory” due Friday", "ready for
  pick-up until 18:00 today", "drop it off Wednesday at 9:30", "it's now due March 30") are
  what that tool returns: the record's day and name fields, the action's new date, the
  picked slot's start (the other slots around it, the same day);
- a record carries an Outreach's day and time fields only in the state the Outreach is about:
  where the Outreach names one of a status tool's listed values ("Ready for pick-up") and
  the case's status is another ("waiting for parts"), the record has no pick-up deadline;
- dates and slots fall on days the business is open (`anychat_clock`), counted from the
  project's frozen clock;
- a status tool that says it returns the day of a state ("with the day it is or will be
  ready") carries that day: the one the replayed example's reply states ("It'll be ready
  Thursday"), else the clock's day for a record in that state and an open day two days on
  for one that is not yet;
- a Playbook whose action waits for a listed state ("Never arrange delivery of an order that
  is not ready") finds the record in that state where the case expects the action, and in
  another where it does not;
- a lookup that a Playbook example shows answering (`result` on a `tool` turn) answers in
  that shape: its records with the ids later tools take and the stored fields they need (a
  field the Playbook asks the person for is theirs to tell), under the case's person's name;
- a replayed Playbook example's own `result` on a `tool` turn wins over all of these (a day
  its reply states is added where the result shows none).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from evalcore.definitions import AnychatTool
from evalcore.lexicon.en.gated_actions import RETURNS_DAY
from evalcore.lexicon.en.playbook_prose import ASKS_FOR, LACKS_IT, NEW_DATE
from evalcore.lexicon.en.said_moments import QUOTED_FIELD

from ...planning.anychat_clock import on_open_day, open_days, project_clock
from ...planning.anychat_elements import playbook_facts, tool_roles
from ...planning.anychat_people import (
    clock_now,
    day_label,
    is_day_input,
    is_time_input,
    outreach_inputs,
)
from ._anychat_case import _Case
from ._anychat_said import ExampleSays, example_says

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
    # a replayed example's tool turns are what its replies are based on, counted or not
    names += [n for n in _example_tools(case) if n not in names and n not in barred]
    actions = {r.action for r in _all_roles(case)} - {None}
    playbooks = [case.defs.playbooks[p] for p in sorted(reached) if p in case.defs.playbooks]
    around = [n for p in playbooks for n in p.tools if n in case.defs.tools and n not in names]
    roles = [tool_roles(p, case.defs) for p in playbooks]
    asks = {n for r in roles for n in r.lookup + r.availability}
    names += [n for n in dict.fromkeys(around) if n in asks - actions and n not in barred]
    # the ids an action takes name what a lookup lists, whether or not the case calls it
    stems = _id_stems([case.defs.tools[n] for n in dict.fromkeys(names + around)])
    availability = {t for r in _all_roles(case) for t in r.availability}
    says = example_says(case)
    # the value each listing tool returns ("waiting for parts"), and the values it lists
    statuses = {
        n: (listed, _status_value(case, n, listed, called or {}))
        for n in names
        if (listed := _listed_values(case.defs.tools[n].description or ""))
    }
    stubs: dict[str, Any] = {}
    for name in names:
        tool = case.defs.tools[name]
        if name in actions:
            stubs[name] = {"ok": True, **_told_after(case, name, says)}
            continue
        own = {s for s, p in stems.items() if p in tool.parameters}
        listed_stems = {s: p for s, p in stems.items() if s not in own}
        slots = name in availability
        result = _listing(tool, listed_stems, slots=slots, case=case, says=says.get(name))
        if not slots:
            fields = _said_fields(_record_fields(case, statuses), says.get(name))
            result = {k: [{**v[0], **fields}] for k, v in result.items()}
        if not own and not slots:
            # a lookup by what the person tells: found when it must list their things or
            # the person is on record
            result = {"found": bool(result) or _known(case), **result}
        if not slots and not own:
            fields = _record_fields(case, statuses)
            result = _as_shown(case, name, result, fields, _asked(case, name, playbooks))
        if name in statuses:
            result[name.rsplit("_", 1)[-1]] = statuses[name][1]
            result.update(_state_day(case, tool, statuses[name], says.get(name)))
        if result:
            stubs[name] = result
    for name in statuses:
        # a status tool takes the id of a record another stub lists (`ticket_number` of an
        # order): it looks that record up, so whether the person was found is not its answer
        if name in stubs and set(case.defs.tools[name].parameters) & _record_keys(stubs):
            stubs[name].pop("found", None)
    for name, shown in _example_results(case).items():
        if name in names:
            # the author's answer, with the day its reply states where it shows none
            day = _state_day(case, case.defs.tools[name], statuses.get(name), says.get(name))
            keep = isinstance(shown, dict) and not any(is_day_input(k) for k in shown)
            said = says.get(name)
            stubs[name] = {**shown, **day} if keep and said and said.day else shown
    return stubs


def _state_day(
    case: _Case,
    tool: AnychatTool,
    status: tuple[list[str], str] | None,
    said: ExampleSays | None,
) -> dict[str, str]:
    """The day a status tool says it returns ("with the day it is or will be ready"): the
    day the replayed example's reply states, else the clock's day for a record already in
    that state and an open day two days on for one that is not, so the agent has the day
    the Playbook has it tell."""
    match = RETURNS_DAY.search(tool.description or "")
    if match is None:
        return {}
    state = match.group("state").lower()
    now = clock_now(project_clock(case.defs))
    if said is not None and said.day is not None:
        day = said.day
    elif status is not None and state in status[1].lower():
        day = now.date()
    else:
        day = on_open_day(case.defs, now + timedelta(days=2)).date()
    return {f"{state}Date": day_label(day)}


def _status_value(case: _Case, tool: str, values: list[str], called: dict[str, Any]) -> str:
    """The status a listing tool returns. Where a Playbook's body lets its action happen
    only in one listed state ("Never arrange delivery of an order that is not ready"), a
    case that expects the action finds the record in that state, and one that does not
    (the person never asks for it) in another unless the case's own words name one: a
    correct agent then cannot take the action, which the case rules out."""
    named = _named_in(_context(case), values)
    for playbook in case.defs.playbooks.values():
        if tool not in playbook.tools:
            continue
        facts = playbook_facts(playbook, case.defs)
        if facts.gate not in values:
            continue
        if facts.roles.action in called:
            return str(facts.gate)
        return named or next(v for v in values if v != facts.gate)
    return named or values[0]


def _asked(case: _Case, tool: str, reached: list[Any]) -> set[str]:
    """People fields that a Playbook of the conversation calling `tool` asks the person for
    ("ask for their pick-up address if you do not have it"): the person tells them."""
    found = set(case.pf.asked)
    for playbook in [case.pb, *reached]:
        if tool not in playbook.tools:
            continue
        found |= set(playbook_facts(playbook, case.defs).asked)
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(playbook.body.split())):
            if ASKS_FOR.search(sentence) and LACKS_IT.search(sentence):
                found |= set(_WORD.findall(sentence.lower()))
    return found


def _as_shown(
    case: _Case, tool: str, result: dict[str, Any], fields: dict[str, str], asked: set[str]
) -> dict[str, Any]:
    """A lookup's answer in the shape a Playbook example shows for it (its `result` with the
    most keys): the records a later tool takes ("orders" with their "ticket_number") and the
    stored fields a later tool needs ("address"), so a correct agent has them. The name on it
    is the case's person's; a field the case's Playbook asks the person for is left out (the
    person tells it) unless the Outreach that opened the case sent it; an Outreach's value
    for a record field (`ticketNumber`) is the record's. A person not on record, a lookup
    no example shows and one the replayed example calls itself (its own `result` wins)
    keep `result`."""
    if tool in _example_tools(case) or not _known(case):
        return result
    shown = [
        (_listed(t["result"]), p.id == case.pb.id, len(t["result"]), -n, t["result"])
        for n, p in enumerate(case.defs.playbooks[k] for k in sorted(case.defs.playbooks))
        for e in p.examples
        for t in e.turns
        if t.get("tool") == tool and isinstance(t.get("result"), dict)
    ]
    if not shown:
        return result
    # one that lists records (a later tool takes them) first, then the case's own
    # Playbook's, then the fullest
    template = max(shown, key=lambda item: item[:4])[4]
    who = _who(case)
    start = (case.facts.get("start") or {}).get("outreach") or {}
    sent = dict(start.get("inputs") or {})
    out: dict[str, Any] = {}
    for key, value in template.items():
        if key in sent and not isinstance(value, (list, dict)):
            # what an Outreach sent the person ("… from {address}") is what is on file
            value = sent[key]
        elif key in asked:
            continue
        elif key in who:
            value = who[key]
        elif key in who.get("customFields", {}):
            value = who["customFields"][key]
        elif isinstance(value, list):
            value = [_with_fields(v, fields) if isinstance(v, dict) else v for v in value]
        out[key] = value
    if "found" in out:
        out["found"] = True
    return {**result, **out}


def _record_keys(stubs: dict[str, Any]) -> set[str]:
    """The fields of the records the stubs list (`ticket_number` of `orders`)."""
    return {
        k
        for stub in stubs.values()
        if isinstance(stub, dict)
        for v in stub.values()
        if isinstance(v, list)
        for record in v
        if isinstance(record, dict)
        for k in record
    }


def _listed(shown: dict[str, Any]) -> int:
    """How many non-empty lists of records an answer holds."""
    return sum(1 for v in shown.values() if isinstance(v, list) and v)


def _with_fields(record: dict[str, Any], fields: dict[str, str]) -> dict[str, Any]:
    """`record` with the value of each field named the same in other words (`ticketNumber`
    for `ticket_number`)."""
    out = dict(record)
    for key, value in fields.items():
        same = next((k for k in out if _split(k) == _split(key)), None)
        if same is not None:
            out[same] = value
    return out


def _split(name: str) -> tuple[str, ...]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    return tuple(spaced.lower().split())


def _told_after(case: _Case, action: str, says: dict[str, ExampleSays]) -> dict[str, str]:
    """What the Playbook's body has the agent tell after its own action ("tell them the new
    due date"): the day the replayed example's next line says, else a day the business is
    open after the clock's day, so the agent has it to tell."""
    match = NEW_DATE.search(case.pb.body or "")
    if match is None or tool_roles(case.pb, case.defs).action != action:
        return {}
    said = says.get(action)
    day = said.day if said and said.day else None
    if day is None:
        day = on_open_day(case.defs, clock_now(project_clock(case.defs)) + _NEW_DATE_AFTER)
    words = ["new", *_WORD.findall(match.group(1).lower())]
    key = words[0] + "".join(w.title() for w in words[1:])
    return {key: day_label(day)}


def _example_tools(case: _Case) -> list[str]:
    """The tools a replayed example's `tool` turns call, in order."""
    if case.facts["kind"] != "example":
        return []
    turns = case.pb.examples[case.facts["example"]].turns
    return [
        t
        for t in dict.fromkeys(str(x["tool"]) for x in turns if "tool" in x)
        if t in case.defs.tools
    ]


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


def _said_fields(fields: dict[str, str], said: ExampleSays | None) -> dict[str, str]:
    """`fields` with the day and the quoted name the replayed example's line says about the
    record in place of the drawn ones (its first day field, its first name field; a quoted
    name with no field for it is the record's `title`)."""
    if said is None:
        return fields
    out = dict(fields)
    day_key = next((k for k in out if is_day_input(k)), None)
    if said.day is not None and day_key is not None:
        out[day_key] = day_label(said.day)
    name_key = next((k for k in out if QUOTED_FIELD.search(k)), "title")
    if said.name:
        out[name_key] = said.name
    return out


def _record_fields(
    case: _Case, statuses: dict[str, tuple[list[str], str]] | None = None
) -> dict[str, str]:
    """What an Outreach of the case's Playbook tells the person about the record, minus what
    is the person's own: the opener's values where the case started with it. An Outreach
    about another state of the record than the case's status (a "ready for pick-up" message
    where the repair waits for parts) lends it no day or time: those belong to that state."""
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
        if _other_state(_outreach_words(outreach), statuses or {}):
            mine |= {k for k in values if is_day_input(k) or is_time_input(k)}
        return {k: v for k, v in values.items() if k not in mine and v not in own}
    return {}


def _other_state(words: list[str], statuses: dict[str, tuple[list[str], str]]) -> bool:
    """Whether `words` name a listed status other than the one the case's tool returns."""
    for listed, value in statuses.values():
        named = _named_in(words, listed)
        if named is not None and named != value:
            return True
    return False


def _who(case: _Case) -> dict[str, Any]:
    persona = case.facts.get("persona") or {}
    return dict(persona.get("fields") or (persona.get("preset") or {}).get("fields") or {})


def _all_roles(case: _Case) -> list[Any]:
    return [tool_roles(p, case.defs) for p in case.defs.playbooks.values()]


def _known(case: _Case) -> bool:
    """The case's person is on record (a name, not only a phone)."""
    fields = (case.facts.get("persona") or {}).get("fields") or {}
    return bool(fields.get("fullName") or fields.get("firstName"))


def _listing(
    tool: AnychatTool,
    stems: dict[str, str],
    *,
    slots: bool,
    case: _Case,
    says: ExampleSays | None,
) -> dict[str, Any]:
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
            starts = _slot_starts(case, says)
            result[key] = [{"id": f"{stem}-{n + 1}", "start": t.isoformat()} for n, t in starts]
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


def _slot_starts(case: _Case, says: ExampleSays | None) -> list[tuple[int, datetime]]:
    """The slots' starts, earliest first: where the replayed example says the day and time
    of the slot the person picks ("Booked, drop it off Wednesday at 9:30"), that slot
    starts then and the others an hour apart around it, the same day; else one a day on the
    days the business is open, from two days after the clock."""
    first = clock_now(project_clock(case.defs)) + _FIRST_SLOT
    if says is not None and says.picked_day is not None and says.picked is not None:
        at = says.picked_time or first.time()
        picked = datetime.combine(says.picked_day, at, tzinfo=first.tzinfo)
        return [(n, picked + timedelta(hours=n - says.picked)) for n in range(SLOTS)]
    days = open_days(case.defs, first.date(), SLOTS)
    return [
        (n, datetime.combine(day, first.time(), tzinfo=first.tzinfo)) for n, day in enumerate(days)
    ]


def _listed_values(description: str) -> list[str]:
    match = _LISTED.search(description)
    if match is None:
        return []
    return [v for v in _SEPARATORS.split(match.group(1).strip()) if v]


def _named_value(case: _Case, values: list[str]) -> str:
    """The listed value the case's own words name, else the first."""
    return _named_in(_context(case), values) or values[0]


def _named_in(texts: list[str], values: list[str]) -> str | None:
    """The first of `values` that `texts` name, word for word."""
    spaced = " " + " ".join(_WORD.findall(" ".join(texts).lower())) + " "
    for value in values:
        if " " + " ".join(_WORD.findall(value.lower())) + " " in spaced:
            return value
    return None


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
        out += _outreach_words(outreach)
    return out


def _outreach_words(outreach: Any) -> list[str]:
    """What an Outreach says about the state it is sent in: its id, name, opener and goal."""
    return [outreach.id, outreach.name or "", outreach.opener or "", outreach.goal or ""]


__all__ = ["tool_stubs"]
