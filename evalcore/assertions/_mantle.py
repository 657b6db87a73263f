"""Rasa Mantle assertions (`scenario.goals.assertions`), one registered check per type.

Each check is a factory registered by its YAML key with `@mantle_check(...)`. The factory
reads and validates the spec (a bad spec fails before any event is looked at) and returns a
check that takes the parsed events and returns a `Verdict` whose detail says what was expected
and, on failure, the closest recorded event. Verdicts are the ones Rasa's own engine gives
(`evaluate_assertions`, `rasa/e2e_test/mantle_assertions.py`), checked against it probe by
probe (`python -m benchmarks rasa-oracle assertions`): a check passes when at least one
recorded event matches, unless noted on the check. Where Rasa raises (a spec it refuses, an
input it crashes on), the result is failed and `invalid`, as Rasa's run errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..suggest import did_you_mean
from ._compare import show, values_equal
from ._events import BLOCK_EVENTS, SKILL_EVENTS, Event, MemorySetEvent, ToolEvent
from ._matching import match_greedy
from ._pattern_specs import PATTERNS, memory_pattern, tool_pattern
from ._patterns import MemoryPattern, Pattern, ToolPattern
from ._results import AssertionResult, SpecError, Verdict
from ._sequencing import SEQUENCING_STEPS, sequencing_step_problem
from ._spec import spec_bool, spec_items, spec_map

Check = Callable[[Sequence[Event]], Verdict]
CheckFactory = Callable[[str, Any], Check]

_CHECKS: dict[str, CheckFactory] = {}


def mantle_check(*kinds: str) -> Callable[[CheckFactory], CheckFactory]:
    """Register `factory(kind, spec) -> check` under each assertion key in `kinds`."""

    def register(factory: CheckFactory) -> CheckFactory:
        for kind in kinds:
            _CHECKS[kind] = factory
        return factory

    return register


def check_names() -> list[str]:
    return sorted(_CHECKS)


# --- "some event matches" ---------------------------------------------------------------


def _every(check: Check, patterns: Sequence[Pattern]) -> Check:
    """Mark `check` as "every one of `patterns` matches some event" (`check.every`): whoever
    needs only the verdict can decide it per pattern (`pattern.matches` reads one event)."""
    check.every = tuple(patterns)  # type: ignore[attr-defined]
    return check


def exists(pattern: Pattern) -> Check:
    def check(events: Sequence[Event]) -> Verdict:
        event = pattern.find(events)
        if event is not None:
            return Verdict(True, f"{pattern.want()}: matched at {event.where()}")
        return Verdict(False, f"expected {pattern.want()}; {pattern.closest(events)}")

    return _every(check, [pattern])


@mantle_check(*sorted(SKILL_EVENTS), *sorted(BLOCK_EVENTS), "tool_executed")
def _single_event(kind: str, spec: Any) -> Check:
    # Skill and block patterns consider only events of their own type, so a skill check never
    # matches an ordered_block_* event; a local tool pattern never matches an mcp run.
    return exists(PATTERNS[kind](kind, spec))


# --- memory -----------------------------------------------------------------------------


def _all_items(patterns: Sequence[Pattern]) -> Check:
    """Every item must match (memory_was_set, memory_was_cleared)."""

    def check(events: Sequence[Event]) -> Verdict:
        found, failed = [], []
        for pattern in patterns:
            event = pattern.find(events)
            if event is None:
                failed.append(f"expected {pattern.want()}; {pattern.closest(events)}")
            else:
                found.append(f"{pattern.want()} at {event.where()}")
        if failed:
            return Verdict(False, " | ".join(failed))
        return Verdict(True, "; ".join(found))

    return _every(check, patterns)


@mantle_check("memory_was_set")
def _memory_was_set(kind: str, spec: Any) -> Check:
    # A later memory_cleared does not undo a write: written-then-cleared still passes.
    return _all_items([memory_pattern(kind, i, with_value=True) for i in spec_items(kind, spec)])


@mantle_check("memory_was_cleared")
def _memory_was_cleared(kind: str, spec: Any) -> Check:
    return _all_items([memory_pattern(kind, i, with_value=False) for i in spec_items(kind, spec)])


@mantle_check("memory_was_not_set")
def _memory_was_not_set(kind: str, spec: Any) -> Check:
    """No value: fails if the key was ever written. With a value: fails only if the LAST
    write equals it (an earlier equal write that was overwritten is fine). A clear is not a
    write, so a key written and then cleared still fails the no-value form."""
    patterns = [memory_pattern(kind, i, with_value=True) for i in spec_items(kind, spec)]

    def verdict_for(pattern: MemoryPattern, events: Sequence[Event]) -> tuple[bool, str]:
        writes = [e for e in events if isinstance(e, MemorySetEvent) and e.key == pattern.name]
        if not pattern.has_value:
            if writes:
                first = writes[0]
                return False, (
                    f"expected {pattern.name} never set; it was set to "
                    f"{show(first.value)} at {first.where()}"
                )
            return True, f"{pattern.name} never set"
        if not writes:
            return True, f"{pattern.name} never set"
        last = writes[-1]
        if values_equal(pattern.value, last.value):
            return False, (
                f"expected the last write of {pattern.name} not to be "
                f"{show(pattern.value)}; it is, at {last.where()}"
            )
        return True, (
            f"last write of {pattern.name} is {show(last.value)}, not {show(pattern.value)}"
        )

    def check(events: Sequence[Event]) -> Verdict:
        results = [verdict_for(p, events) for p in patterns]
        failed = [text for ok, text in results if not ok]
        if failed:
            return Verdict(False, " | ".join(failed))
        return Verdict(True, "; ".join(text for _, text in results))

    return check


# --- tools within one turn --------------------------------------------------------------

#: Framework tools `tools_within_one_turn` never counts (neither matched nor "extra"): Rasa's
#: `is_user_relevant_tool_run` hides `FRAMEWORK_TOOL_NAMES` except search_knowledge and
#: cannot_help (`rasa/mantle/llm/tool_schemas.py`).
HIDDEN_TOOLS = frozenset(
    {
        "activate",
        "cancel",
        "complete",
        "correct",
        "hangup",
        "listen",
        "resolve_tool_confirmation",
        "set_fields",
    }
)


def _calls(kind: str, raw: Any) -> list[ToolPattern]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise SpecError(
            f"{kind}.calls must list at least two {{tool_executed: ...}} items "
            f"(use tool_executed for one call), got {show(raw)}"
        )
    patterns = []
    for item in raw:
        if not isinstance(item, Mapping) or list(item) != ["tool_executed"]:
            raise SpecError(
                f"each {kind} call must be one {{tool_executed: ...}}, got {show(item)}"
            )
        pattern = tool_pattern("tool_executed", item["tool_executed"])
        assert isinstance(pattern, ToolPattern)
        patterns.append(pattern)
    return patterns


@mantle_check("tools_within_one_turn")
def _tools_within_one_turn(kind: str, spec: Any) -> Check:
    """Some single user turn holds matching runs of all calls, found the way Rasa finds them:
    each call, in the listed order, takes the first run not yet taken that fits it (from
    after the previous call's run with `ordered: true`), without backtracking. With
    `allow_extra_calls: false` that turn has no other counted run. Framework tools
    (`HIDDEN_TOOLS`) are never counted, and a call naming one never matches."""
    spec = spec_map(kind, spec, required=["calls", "allow_extra_calls"], optional=["ordered"])
    calls = _calls(kind, spec["calls"])
    allow_extra = spec_bool(kind, spec, "allow_extra_calls")
    ordered = bool(spec_bool(kind, spec, "ordered"))
    wanted = (
        f"{len(calls)} calls within one user turn"
        f"{', in order' if ordered else ''}{'' if allow_extra else ', no other calls'}"
    )
    hidden = [c.tool_name for c in calls if c.tool_name in HIDDEN_TOOLS]
    hidden_note = (
        f"; {', '.join(hidden)} is a framework tool that tools_within_one_turn never counts"
        if hidden
        else ""
    )

    def check(events: Sequence[Event]) -> Verdict:
        runs = [e for e in events if isinstance(e, ToolEvent) and e.tool_name not in HIDDEN_TOOLS]
        turns: dict[int, list[Event]] = {}
        for run in runs:
            turns.setdefault(run.turn, []).append(run)
        near_misses: list[str] = []
        best: tuple[int, int, list[Event]] | None = None  # (matched, turn, the turn's runs)
        for turn, in_turn in sorted(turns.items()):
            matched, failed_at = match_greedy(calls, in_turn, ordered=ordered)
            if failed_at is not None:
                if best is None or len(matched) > best[0]:
                    best = (len(matched), turn, in_turn)
                continue
            used = {e.index for e in matched}
            extras = [e for e in in_turn if e.index not in used]
            if extras and not allow_extra:
                near_misses.append(
                    f"turn {turn} ran them, plus " + ", ".join(str(e.tool_name) for e in extras)
                )
                continue
            return Verdict(
                True,
                f"{wanted}: turn {turn} ran "
                + ", ".join(f"{e.tool_name} (event {e.index})" for e in matched),
            )
        if near_misses:
            return Verdict(False, f"expected {wanted}; " + "; ".join(near_misses) + hidden_note)
        if best is None:
            return Verdict(False, f"expected {wanted}; no counted tool runs recorded{hidden_note}")
        count, turn, in_turn = best
        call = calls[count]
        elsewhere = call.find(runs)
        if elsewhere is None:
            where = call.closest(runs)
        elif ordered and call.find(in_turn) is not None:
            where = "in that turn it ran only before the previous call's run; ordered: true"
        else:
            where = f"ran at {elsewhere.where()}"
        return Verdict(
            False,
            f"expected {wanted}; closest: turn {turn} matched the first {count} of "
            f"{len(calls)} (matching each call to the first free run that fits, as Rasa "
            f"does), then not {call.want()} ({where}){hidden_note}",
        )

    return check


# --- sequencing -------------------------------------------------------------------------


def _step(number: int, raw: Any) -> Pattern:
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise SpecError(
            f"sequencing step {number} must be a mapping with exactly one check, got {show(raw)}"
        )
    ((kind, spec),) = raw.items()
    kind = str(kind)
    if kind not in PATTERNS and kind not in _CHECKS:
        hint = did_you_mean(kind, SEQUENCING_STEPS, what="step")
        raise SpecError(
            f"sequencing step {number}: unknown check {kind!r}" + (f"; {hint}" if hint else "")
        )
    problem = sequencing_step_problem(kind)
    if problem is not None:
        raise SpecError(f"sequencing step {number}: {problem}")
    return PATTERNS[kind](kind, spec)


@mantle_check("sequencing")
def _sequencing(kind: str, spec: Any) -> Check:
    """Each step matches an event strictly after the previous step's match (gaps allowed), so
    one event never satisfies two steps; each step takes its earliest match. Steps are read
    one at a time as Rasa reads them: a bad step after a step that found nothing is never
    read (the check fails), and an empty list passes."""
    if isinstance(spec, str | Mapping) and not spec:
        spec = []
    if not isinstance(spec, list):
        raise SpecError(f"sequencing takes a list of checks, got {show(spec)}")
    steps: list[Pattern | SpecError] = []
    for number, raw in enumerate(spec, start=1):
        try:
            steps.append(_step(number, raw))
        except SpecError as exc:
            steps.append(exc)

    def check(events: Sequence[Event]) -> Verdict:
        matched: list[Event] = []
        position = -1
        for number, step in enumerate(steps):
            if isinstance(step, SpecError):
                return Verdict(False, f"invalid sequencing assertion: {step}", invalid=True)
            event = step.find(events, after=position)
            if event is None:
                return _sequencing_miss(steps, number, step, matched, events)
            matched.append(event)
            position = event.index
        if not matched:
            return Verdict(True, "no steps to match")
        return Verdict(
            True, f"{len(steps)} steps matched in order at " + ", ".join(e.where() for e in matched)
        )

    return check


def _sequencing_miss(
    steps: Sequence[Any],
    failed_at: int,
    step: Pattern,
    matched: list[Event],
    events: Sequence[Event],
) -> Verdict:
    head = f"step {failed_at + 1} of {len(steps)} ({step.want()})"
    if not matched:
        return Verdict(False, f"expected {head}; {step.closest(events)}")
    previous = matched[-1]
    text = f"expected {head} after step {failed_at} ({previous.describe()} at {previous.where()})"
    earlier = step.find(events)
    if earlier is not None:
        return Verdict(
            False, f"{text}; it matches only at or before that point, first at {earlier.where()}"
        )
    return Verdict(False, f"{text}; {step.closest(events)}")


# --- evaluating a scenario ---------------------------------------------------------------


def compiled(items: Sequence[Any]) -> list[Check] | None:
    """Each assertion's check, read once for many event logs (`evaluate_one` reads the
    spec per call); None when an item is not a valid assertion."""
    out: list[Check] = []
    for item in items:
        if not isinstance(item, Mapping) or len(item) != 1:
            return None
        ((kind, spec),) = item.items()
        factory = _CHECKS.get(str(kind))
        if factory is None:
            return None
        try:
            out.append(factory(str(kind), spec))
        except SpecError:
            return None
    return out


def evaluate_one(index: int, item: Any, events: Sequence[Event]) -> AssertionResult:
    """Evaluate one `goals.assertions` item; a bad item is a failed result, never a crash."""
    if not isinstance(item, Mapping) or len(item) != 1:
        return AssertionResult(
            index,
            "invalid",
            False,
            f"an assertion is a mapping with exactly one key, got {show(item)}",
            invalid=True,
        )
    ((kind, spec),) = item.items()
    kind = str(kind)
    factory = _CHECKS.get(kind)
    if factory is None:
        hint = did_you_mean(kind, _CHECKS, what="assertion type")
        return AssertionResult(
            index,
            kind,
            False,
            f"unknown assertion type {kind!r}" + (f"; {hint}" if hint else ""),
            invalid=True,
        )
    try:
        check = factory(kind, spec)
    except SpecError as exc:
        return AssertionResult(index, kind, False, f"invalid {kind} assertion: {exc}", invalid=True)
    verdict = check(events)
    return AssertionResult(index, kind, verdict.passed, verdict.detail, verdict.invalid)
