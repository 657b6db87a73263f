"""A mutant play's verdict, decided with no more work than the verdict needs.

A mutant kills a case when any of the case's assertions fails on its events; the report
keeps only which mutants killed, never why, so no failure message is built here. The
reference run of the same case passed every assertion, and a mutant's log shares its
opening with that run's (the same entries, by identity once a mutant starts from a kept
state): only what follows can differ.

- An "every pattern matches some event" assertion (a single event type, `memory_was_set`,
  `memory_was_cleared`; `check.every` in `evalcore.assertions._mantle`) holds for the
  mutant where, for each pattern, the reference run's first match lies inside the shared
  opening (the mutant has that very event) or some event after the opening matches
  (`Pattern.matches` reads one event). The opening is never searched again.
- Any other assertion is checked on the whole log (the opening's events taken from the
  reference run's parse, the rest parsed from there).

A reference run's own results (`checked_mantle`) are the runner's, details included, read
from one parse of its log that its mutant plays then share.

The checks are tried with the one that killed the case's previous mutant first (mutants
of one case mostly fail the same assertion); any failing check kills, so the order does
not change the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalcore.assertions import AssertionResult, compiled, parse_events
from evalcore.runner.checks import checks_evaluator
from evalcore.runner.checks.mantle import mantle_checks

#: A first match after every event: a pattern the reference run never matched.
_NEVER = 1 << 62


def shared(events: Sequence[dict[str, Any]], theirs: Sequence[dict[str, Any]]) -> int:
    """How many opening entries `events` shares with `theirs` (equal entries)."""
    same = 0
    for mine, other in zip(events, theirs, strict=False):
        if mine is not other and mine != other:
            break
        same += 1
    return same


def parsed_log(
    events: list[dict[str, Any]], passing: Any, same: int | None = None
) -> tuple[Any, ...]:
    """`parse_events(events)`, with the opening `events` share with `passing`'s (the reference
    run's `Played`) taken from its parse, where it keeps one (`passing.parsed`); parsed whole
    where `passing` is None or keeps none. `same`: what `shared(events, passing.events)`
    says, when known."""
    if passing is None or passing.parsed is None:
        return parse_events(events)
    if same is None:
        same = shared(events, passing.events)
    turn = passing.parsed[same - 1].turn if same else 0
    return passing.parsed[:same] + parse_events(events[same:], first=same, turn=turn)


def _firsts(passing: Any, index: int, check: Any) -> tuple[int, ...]:
    """The index of the reference run's first event matching each of `check.every`
    (kept on `passing` per check: every mutant play of the case asks it)."""
    kept = passing.firsts.get(index)
    if kept is None:
        parsed = passing.parsed
        kept = tuple(
            next((e.index for e in parsed if pattern.matches(e)), _NEVER) for pattern in check.every
        )
        passing.firsts[index] = kept
    return kept


def fails(
    checks: list[Any], events: list[dict[str, Any]], passing: Any, same: int | None = None
) -> bool:
    """Whether any of `checks` (the case's assertions, compiled) fails on `events`, a
    mutant's log; `passing` is the reference run the mutant started from (`Played`), and
    `same` what `shared(events, passing.events)` says, when known."""
    if passing.parsed is None:
        passing.parsed = parse_events(list(passing.events))
    if same is None:
        same = shared(events, passing.events)
    turn = passing.parsed[same - 1].turn if same else 0
    tail = parse_events(events[same:], first=same, turn=turn)
    whole: tuple[Any, ...] | None = None
    order = passing.order if passing.order is not None else list(range(len(checks)))
    for at, index in enumerate(order):
        check = checks[index]
        every = getattr(check, "every", None)
        if every is not None:
            firsts = _firsts(passing, index, check)
            ok = all(
                first < same or any(pattern.matches(e) for e in tail)
                for pattern, first in zip(every, firsts, strict=True)
            )
        else:
            if whole is None:
                whole = passing.parsed[:same] + tail
            ok = check(whole).passed
        if not ok:
            passing.order = [index, *order[:at], *order[at + 1 :]]
            return True
    return False


def checked_mantle(
    case: Any, events: list[dict[str, Any]], passing: Any = None
) -> tuple[tuple[Any, ...], list[dict[str, Any]], list[Any]] | None:
    """A run's parsed `events`, the case's assertion results on them, as `evaluate_checks`
    gives them for a Mantle case, and the case's compiled checks (each assertion read once,
    the log parsed once, and both kept for the case's other plays); None when the case is
    not a Mantle one with valid assertions (the caller evaluates it the runner's way).

    `passing`: the reference agent's run of this same case (`Played`), when this is a
    variant's run of it: its compiled checks are the case's, and the opening the two logs
    share is taken from its parse (each event is parsed on its own: `parse_events`)."""
    if checks_evaluator(case.dialect) is not mantle_checks:
        return None
    items = list(case.checks or [])
    kept = passing.checks if passing is not None else None
    checks = kept if kept is not None else compiled(items)
    if checks is None:
        return None
    parsed = parsed_log(events, passing)
    results = []
    for index, (item, check) in enumerate(zip(items, checks, strict=True)):
        verdict = check(parsed)
        kind = str(next(iter(item)))
        results.append(AssertionResult(index, kind, verdict.passed, verdict.detail).to_json())
    return parsed, results, checks


__all__ = ["checked_mantle", "fails", "parsed_log", "shared"]
