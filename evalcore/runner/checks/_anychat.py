"""Anychat `expect.checks`: deterministic checks on what the agent sent, did and ended with.

The seed schema names the checks but not their meaning; each reading here is the one a case
author would expect, and docs/checks.md is the contract (what "final", "any turn" and "count"
mean). Evidence comes from the replies' `messages`, `events` and `state` and the final state,
in the shapes of docs/agent-protocol.md §1–3. A check that cannot be evaluated (a bad regex,
state the agent never reported) fails with the reason rather than passing silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...agents._protocol import AgentMessage, AgentReply
from ...assertions import Verdict
from ...suggest import did_you_mean
from .._trace import RunTrace
from . import CheckResult, register_checks

PICKER_PARTS = ("ask.time", "ask.choice")
_TEXT_KEYS = ("text", "prompt", "title", "subtitle", "description", "label")


# --- evidence -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Turn:
    number: int
    label: str
    """How the input reads (`'R'`, `[system optOut]`)."""
    kind: str
    system_event: str | None
    reply: AgentReply | None


class Evidence:
    """The run, indexed the way the checks read it (built once per evaluation)."""

    def __init__(self, trace: RunTrace) -> None:
        self.turns = [
            _Turn(t.number, _quote(t.user.as_text()), t.user.type, t.user.event, t.reply)
            for t in trace.turns
        ]
        self.state: dict[str, Any] = trace.state
        self.messages = [
            (turn.number, message)
            for turn in self.turns
            if turn.reply
            for message in turn.reply.messages
        ]
        self.events = [
            (turn.number, event)
            for turn in self.turns
            if turn.reply
            for event in turn.reply.events
            if isinstance(event, Mapping)
        ]
        self.final_state = dict(trace.final.state)

    def events_named(self, name: str) -> list[tuple[int, Mapping[str, Any]]]:
        return [(n, e) for n, e in self.events if e.get("event") == name]

    @property
    def last(self) -> _Turn | None:
        return self.turns[-1] if self.turns else None


def _quote(text: str) -> str:
    text = " ".join(text.split())
    text = text if len(text) <= 40 else text[:39] + "…"
    return text if text.startswith("[") else repr(text)


def _strings(value: Any) -> Iterable[str]:
    """Text-bearing values of a part, recursively (prompt, labels of slots and options, …)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in _TEXT_KEYS and isinstance(item, str):
                yield item
            elif isinstance(item, Mapping | list):
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def text_pieces(message: AgentMessage) -> list[str]:
    """Everything the person can read in a message, piece by piece: the text, the parts'
    texts (prompts, slot and option labels), chip and button labels."""
    pieces = [message.text, *_strings(message.parts)]
    pieces += [str(c.get(k)) for c in message.chips for k in ("label", "title") if c.get(k)]
    pieces += [str(b["title"]) for b in message.buttons if b.get("title")]
    return [p for p in pieces if p]


def visible_text(message: AgentMessage) -> str:
    return "\n".join(text_pieces(message))


def chips_of(message: AgentMessage) -> list[Mapping[str, Any]]:
    """Chips in the message's `chips`, or sent as a `chips` part."""
    chips = [c for c in message.chips if isinstance(c, Mapping)]
    for part in message.parts:
        if part.get("type") == "chips":
            for key in ("chips", "items", "options"):
                chips += [c for c in part.get(key) or [] if isinstance(c, Mapping)]
    return chips


def part_types(message: AgentMessage) -> set[str]:
    """A message's part types; a message without parts is one `text` part if it has text."""
    types = {str(p.get("type")) for p in message.parts if p.get("type")}
    if not message.parts and message.text.strip():
        types.add("text")
    if message.chips:
        types.add("chips")
    return types


def is_silent(reply: AgentReply | None) -> bool:
    return reply is None or not any(_shows(m) for m in reply.messages)


def _shows(message: AgentMessage) -> bool:
    return bool(message.text.strip() or message.parts or message.chips or message.buttons)


def _norm(value: Any) -> str:
    """Person-field comparison form: strings, case-insensitive; true/false; 3.0 → 3."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().casefold()


def _names(items: Iterable[Any]) -> str:
    items = list(items)
    return ", ".join(str(i) for i in items) if items else "none"


# --- checks ---------------------------------------------------------------------------------

Check = Callable[[Any, Evidence, Mapping[str, Any]], Verdict]
_CHECKS: dict[str, tuple[type | tuple[type, ...], Check]] = {}


def _check(name: str, kind: type | tuple[type, ...]) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        _CHECKS[name] = (kind, fn)
        return fn

    return register


@_check("finalReplyNonEmpty", bool)
def _final_reply_non_empty(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    last = ev.last
    if last is None:
        return Verdict(not expected, "no turn was played")
    shown = [] if last.reply is None else [m for m in last.reply.messages if _shows(m)]
    where = f"the reply to T{last.number} {last.label}"
    found = (
        f"{where} has {len(shown)} message(s): {_quote(visible_text(shown[0]))}"
        if shown
        else f"{where} is empty"
    )
    want = "a non-empty final reply" if expected else "an empty final reply"
    return Verdict(bool(shown) == expected, f"expected {want}; {found}")


@_check("pickerShown", bool)
def _picker_shown(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    shown = [
        f"{p.get('type')} at T{n}"
        for n, m in ev.messages
        for p in m.parts
        if p.get("type") in PICKER_PARTS
    ]
    found = f"shown: {_names(shown)}" if shown else "no ask.time or ask.choice part was sent"
    want = "a picker" if expected else "no picker"
    return Verdict(bool(shown) == expected, f"expected {want}; {found}")


def _appointments(state: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    value = state.get("appointments")
    if not isinstance(value, list):
        return None
    return [a for a in value if isinstance(a, Mapping)]


@_check("appointmentCreated", bool)
def _appointment_created(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    created: dict[str, str] = {}
    for n, event in ev.events_named("appointment_created"):
        appointment = event.get("appointment") or {}
        key = str(appointment.get("id") or f"event at T{n}")
        created[key] = f"{key} (event at T{n})"
    start = ev.turns[0].reply if ev.turns and ev.turns[0].number == 0 else None
    initial = {str(a.get("id")) for a in _appointments(start.state if start else {}) or []}
    for appointment in _appointments(ev.state) or []:
        key = str(appointment.get("id"))
        if appointment.get("seeded") is True or key in initial or key in created:
            continue
        created[key] = f"{key} ({appointment.get('status', 'scheduled')}, in the end state)"
    found = f"created: {_names(created.values())}" if created else "no appointment was created"
    want = "an appointment to be created" if expected else "no new appointment"
    return Verdict(bool(created) == expected, f"expected {want}; {found}")


@_check("activeAppointments", int)
def _active_appointments(expected: int, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    appointments = _appointments(ev.state)
    if appointments is None:
        return Verdict(
            False,
            f"expected {expected} active appointment(s); the agent never "
            "reported `appointments` in its state",
        )
    active = [a for a in appointments if (a.get("status") or "scheduled") == "scheduled"]
    listed = _names(f"{a.get('id')} {a.get('start', '')}".strip() for a in active)
    others = len(appointments) - len(active)
    return Verdict(
        len(active) == expected,
        f"expected {expected} active appointment(s), found {len(active)} "
        f"({listed}); {others} cancelled or completed",
    )


def _recorded_outcomes(ev: Evidence, upto: int | None = None) -> list[str]:
    """Outcomes recorded by the end (or by turn `upto`): state lists and `outcome` events."""
    found: list[str] = []
    for turn in ev.turns:
        if upto is not None and turn.number > upto:
            break
        if turn.reply is None:
            continue
        state_outcomes = turn.reply.state.get("outcomes")
        if isinstance(state_outcomes, list):
            found += [str(o) for o in state_outcomes]
        found += [
            str(e.get("name"))
            for e in turn.reply.events
            if isinstance(e, Mapping) and e.get("event") == "outcome" and e.get("name")
        ]
    if upto is None and isinstance(ev.final_state.get("outcomes"), list):
        found += [str(o) for o in ev.final_state["outcomes"]]
    return list(dict.fromkeys(found))


@_check("outcomes", list)
def _outcomes(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    recorded = _recorded_outcomes(ev)
    if not expected:
        return Verdict(not recorded, f"expected no outcome; recorded: {_names(recorded)}")
    missing = [str(o) for o in expected if str(o) not in recorded]
    detail = f"expected {_names(expected)}; recorded: {_names(recorded)}"
    return Verdict(not missing, detail + (f" (missing {_names(missing)})" if missing else ""))


@_check("activePlaybookAtEnd", str)
def _active_playbook(expected: str, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    switches = ev.events_named("playbook_switched")
    found = ev.state.get("activePlaybook")
    if not found and switches:
        found = switches[-1][1].get("to")
    path = (
        " → ".join([str(switches[0][1].get("from"))] + [str(e.get("to")) for _, e in switches])
        if switches
        else "no switches"
    )
    if not found:
        return Verdict(
            False, f"expected '{expected}'; the agent reported no active playbook ({path})"
        )
    passed = str(found).strip().casefold() == expected.strip().casefold()
    return Verdict(passed, f"expected '{expected}', found '{found}' ({path})")


def _person(ev: Evidence) -> dict[str, Any] | None:
    """The end Person record flattened: built-in fields, `fields`, then `customFields`."""
    person = ev.state.get("person")
    if not isinstance(person, Mapping):
        updates = [e.get("fields") for _, e in ev.events_named("person_updated")]
        if not updates:
            return None
        person = {}
        for fields in updates:
            if isinstance(fields, Mapping):
                person.update(fields)
    flat: dict[str, Any] = {}
    layers = [person, person.get("fields")]
    layers += [layer.get("customFields") for layer in list(layers) if isinstance(layer, Mapping)]
    for layer in reversed(layers):  # top-level values win over nested ones
        if isinstance(layer, Mapping):
            flat.update(
                {
                    k: v
                    for k, v in layer.items()
                    if k not in ("fields", "customFields") and not isinstance(v, Mapping)
                }
            )
    consent = person.get("consent")
    if isinstance(consent, Mapping) and "status" in consent and "consent" not in flat:
        flat["consent"] = consent["status"]
    return flat


@_check("personFields", dict)
def _person_fields(expected: Mapping[str, Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    person = _person(ev)
    if person is None:
        return Verdict(
            False,
            "the agent never reported the Person record (`person` in its "
            "state or `person_updated` events)",
        )
    by_lower = {k.casefold(): k for k in person}
    problems, matched = [], []
    for key, want in expected.items():
        actual_key = key if key in person else by_lower.get(key.casefold())
        if actual_key is None or person[actual_key] in (None, ""):
            problems.append(f"{key}: expected '{want}', not set")
        elif _norm(person[actual_key]) != _norm(want):
            problems.append(f"{key}: expected '{want}', found '{person[actual_key]}'")
        else:
            matched.append(key)
    if problems:
        return Verdict(False, "; ".join(problems))
    return Verdict(True, f"{len(matched)} field(s) match: {_names(matched)}")


@_check("chipsOnAnyTurn", list)
def _chips_on_any_turn(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    shown = [(n, c) for n, m in ev.messages for c in chips_of(m)]
    names = {
        _norm(c.get(k))
        for _, c in shown
        for k in ("label", "value", "id", "title")
        if c.get(k) is not None
    }
    listing = _names(
        f"{c.get('label') or c.get('title') or c.get('value') or c.get('id')} at T{n}"
        for n, c in shown
    )
    if not expected:
        return Verdict(bool(shown), f"expected some chip; chips shown: {listing}")
    missing = [str(e) for e in expected if _norm(e) not in names]
    detail = f"expected {_names(expected)}; chips shown: {listing}"
    return Verdict(not missing, detail + (f" (missing {_names(missing)})" if missing else ""))


@_check("chipsOnLastMessage", bool)
def _chips_on_last_message(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    if not ev.messages:
        return Verdict(not expected, "the agent sent no message")
    number, last = ev.messages[-1]
    chips = chips_of(last)
    labels = _names(c.get("label") or c.get("value") or c.get("id") for c in chips)
    want = "chips" if expected else "no chips"
    found = f"has chips ({labels})" if chips else "has no chips"
    return Verdict(
        bool(chips) == expected,
        f"expected {want} on the last message; the last message (T{number}, "
        f"{_quote(last.text or visible_text(last))}) {found}",
    )


def _texts(ev: Evidence) -> list[tuple[int, str]]:
    return [(n, visible_text(m)) for n, m in ev.messages]


@_check("textIncludes", list)
def _text_includes(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    texts = _texts(ev)
    missing = [
        str(s) for s in expected if not any(str(s).casefold() in t.casefold() for _, t in texts)
    ]
    if missing:
        return Verdict(
            False,
            f"not found in any of the {len(texts)} agent message(s): "
            f"{_names(repr(m) for m in missing)}",
        )
    return Verdict(True, f"all of {_names(repr(str(s)) for s in expected)} found")


@_check("textExcludes", list)
def _text_excludes(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    hits = [
        f"{s!r} at T{n} ({_quote(t)})"
        for s in map(str, expected)
        for n, t in _texts(ev)
        if s.casefold() in t.casefold()
    ]
    if hits:
        return Verdict(False, f"found: {'; '.join(hits)}")
    return Verdict(True, f"none of {_names(repr(str(s)) for s in expected)} appears")


@_check("textMatches", list)
def _text_matches(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    pieces = [p for _, m in ev.messages for p in text_pieces(m)]
    problems = []
    for pattern in map(str, expected):
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            problems.append(f"bad regular expression {pattern!r}: {exc}")
            continue
        if not any(regex.search(p) for p in pieces):
            problems.append(f"no agent message matches {pattern!r}")
    if problems:
        return Verdict(False, "; ".join(problems))
    return Verdict(True, f"every pattern matched ({_names(repr(str(p)) for p in expected)})")


def _tool_calls(ev: Evidence) -> dict[str, list[int]]:
    calls: dict[str, list[int]] = {}
    for n, event in ev.events_named("tool_called"):
        calls.setdefault(str(event.get("name")), []).append(n)
    return calls


@_check("toolsCalled", dict)
def _tools_called(expected: Mapping[str, Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    calls = _tool_calls(ev)
    problems = []
    for name, count in expected.items():
        turns = calls.get(name, [])
        if len(turns) != count:
            at = f" (at {_names(f'T{n}' for n in turns)})" if turns else ""
            problems.append(f"{name}: expected {count} call(s), found {len(turns)}{at}")
    if problems:
        return Verdict(False, "; ".join(problems) + f"; all calls: {_summary(calls)}")
    return Verdict(True, f"call counts match: {_summary({k: calls.get(k, []) for k in expected})}")


def _summary(calls: Mapping[str, list[int]]) -> str:
    return _names(f"{name}×{len(turns)}" for name, turns in calls.items())


@_check("toolsNotCalled", list)
def _tools_not_called(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    calls = _tool_calls(ev)
    called = [
        f"{name} at {_names(f'T{n}' for n in calls[name])}"
        for name in map(str, expected)
        if name in calls
    ]
    if called:
        return Verdict(False, f"called: {'; '.join(called)}")
    return Verdict(True, f"none of {_names(expected)} was called (calls: {_summary(calls)})")


def _warnings(ev: Evidence) -> list[str]:
    found = [f"T{n}: {e.get('message') or e.get('code')}" for n, e in ev.events_named("warning")]
    for turn in ev.turns:
        listed = turn.reply.state.get("warnings") if turn.reply else None
        for item in listed if isinstance(listed, list) else []:
            text = item.get("message") or item.get("code") if isinstance(item, Mapping) else item
            found.append(f"T{turn.number}: {text}")
    if isinstance(ev.final_state.get("warnings"), list):
        found += [f"end: {w}" for w in ev.final_state["warnings"]]
    return list(dict.fromkeys(found))


@_check("noWarnings", bool)
def _no_warnings(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    if not expected:
        return Verdict(True, "not checked (noWarnings: false)")
    warnings = _warnings(ev)
    if warnings:
        return Verdict(False, f"{len(warnings)} warning(s): {'; '.join(warnings)}")
    return Verdict(True, "no warnings reported")


def _model_calls(turn: _Turn) -> int | None:
    if turn.reply is None:
        return None
    events = [
        e for e in turn.reply.events if isinstance(e, Mapping) and e.get("event") == "model_call"
    ]
    if events:
        return len(events)
    count = turn.reply.state.get("modelCalls")
    return count if isinstance(count, int) and not isinstance(count, bool) else None


@_check("maxModelCallsPerTurn", int)
def _max_model_calls(limit: int, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    counts = [(t.number, c) for t in ev.turns if (c := _model_calls(t)) is not None]
    if not counts:
        return Verdict(
            False,
            f"limit {limit}; the agent reported no model calls (`model_call` "
            "events or `state.modelCalls`), so it cannot be checked",
        )
    over = [f"T{n}: {c}" for n, c in counts if c > limit]
    worst_n, worst = max(counts, key=lambda p: p[1])
    if over:
        return Verdict(False, f"limit {limit} per turn; exceeded at {_names(over)}")
    return Verdict(True, f"limit {limit} per turn; the most was {worst} (T{worst_n})")


@_check("maxTurnsToOutcome", int)
def _max_turns_to_outcome(limit: int, ev: Evidence, checks: Mapping[str, Any]) -> Verdict:
    listed = checks.get("outcomes")
    wanted = [str(o) for o in listed] if isinstance(listed, list) else []
    what = _names(wanted) if wanted else "an outcome"
    for turn in ev.turns:
        recorded = _recorded_outcomes(ev, upto=turn.number)
        if all(o in recorded for o in wanted) if wanted else recorded:
            return Verdict(
                turn.number <= limit,
                f"{what} recorded after {turn.number} user turn(s) (limit {limit})",
            )
    user_turns = sum(1 for t in ev.turns if t.number > 0)
    at_close = _recorded_outcomes(ev)
    if all(o in at_close for o in wanted) if wanted else at_close:
        return Verdict(
            user_turns <= limit,
            f"{what} recorded at the close, after {user_turns} user turn(s) (limit {limit})",
        )
    return Verdict(False, f"{what} not recorded in {user_turns} user turn(s) (limit {limit})")


@_check("replyCount", dict)
def _reply_count(bounds: Mapping[str, Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    per_turn = [
        (t.number, sum(1 for m in t.reply.messages if _shows(m)) if t.reply else 0)
        for t in ev.turns
    ]
    total = sum(c for _, c in per_turn)
    low, high = bounds.get("min"), bounds.get("max")
    passed = (low is None or total >= low) and (high is None or total <= high)
    want = (
        f"between {low} and {high}"
        if low is not None and high is not None
        else f"at least {low}"
        if low is not None
        else f"at most {high}"
        if high is not None
        else "any number of"
    )
    split = _names(f"T{n}: {c}" for n, c in per_turn if c)
    return Verdict(passed, f"expected {want} agent messages in the run, got {total} ({split})")


@_check("noReplyTo", list)
def _no_reply_to(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    problems, fine = [], []
    for name in map(str, expected):
        turns = [t for t in ev.turns if t.kind == "system" and t.system_event == name]
        if not turns:
            problems.append(f"no {name} turn was played, so silence cannot be checked")
        for turn in turns:
            if is_silent(turn.reply):
                fine.append(f"T{turn.number} {name}")
            else:
                shown = [visible_text(m) for m in turn.reply.messages if _shows(m)]
                problems.append(f"the agent answered {name} at T{turn.number}: {_quote(shown[0])}")
    if problems:
        return Verdict(False, "; ".join(problems))
    return Verdict(True, f"silent on {_names(fine)}")


@_check("partsOnLastTurn", list)
def _parts_on_last_turn(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    last = ev.last
    found: set[str] = set()
    if last is not None and last.reply is not None:
        for message in last.reply.messages:
            found |= part_types(message)
    want = {str(p) for p in expected}
    where = f"T{last.number}" if last else "no turn"
    detail = f"expected exactly {_names(sorted(want))} on {where}, found {_names(sorted(found))}"
    extra = []
    if want - found:
        extra.append(f"missing {_names(sorted(want - found))}")
    if found - want:
        extra.append(f"unexpected {_names(sorted(found - want))}")
    return Verdict(found == want, detail + (f" ({'; '.join(extra)})" if extra else ""))


# --- entry point ----------------------------------------------------------------------------


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {
        bool: "true or false",
        int: "an integer",
        list: "a list",
        dict: "an object",
        str: "a string",
    }
    return names.get(kind, str(kind)) if isinstance(kind, type) else "a value"


def evaluate_one(
    index: int, name: str, value: Any, ev: Evidence, checks: Mapping[str, Any]
) -> CheckResult:
    """One `expect.checks` entry; an unknown name or a malformed value is a failed result."""
    entry = _CHECKS.get(name)
    if entry is None:
        hint = did_you_mean(name, _CHECKS, what="check")
        return CheckResult(
            index, name, False, f"unknown check '{name}'" + (f"; {hint}" if hint else "")
        )
    kind, fn = entry
    bad_int = kind is int and isinstance(value, bool)
    if not isinstance(value, kind) or bad_int:
        return CheckResult(index, name, False, f"expects {_type_name(kind)}, got {value!r}")
    verdict = fn(value, ev, checks)
    return CheckResult(index, name, verdict.passed, verdict.detail)


@register_checks("anychat")
def anychat_checks(checks: Any, trace: RunTrace) -> list[CheckResult]:
    """Every `expect.checks` entry, in the order written (docs/checks.md, Anychat)."""
    if not isinstance(checks, Mapping):
        return [CheckResult(0, "checks", False, "expect.checks must be an object")]
    ev = Evidence(trace)
    return [
        evaluate_one(i, str(name), value, ev, checks)
        for i, (name, value) in enumerate(checks.items())
    ]


def check_names() -> list[str]:
    return list(_CHECKS)


__all__ = [
    "Evidence",
    "anychat_checks",
    "check_names",
    "evaluate_one",
    "text_pieces",
    "visible_text",
]
