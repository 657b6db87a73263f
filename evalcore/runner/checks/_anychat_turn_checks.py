"""Anychat checks on what the agent showed and did turn by turn: chips, text, tool calls,
warnings, model calls, turns to the outcome, reply counts, silence and message parts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...assertions import Verdict
from ._anychat_end_checks import _recorded_outcomes
from ._anychat_evidence import (
    Evidence,
    _names,
    _norm,
    _quote,
    _shows,
    _Turn,
    chips_of,
    is_silent,
    part_types,
    text_pieces,
    visible_text,
)
from ._anychat_registry import _check


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
