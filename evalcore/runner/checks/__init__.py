"""Deterministic checks of a run, dispatched by the case's dialect.

Each dialect registers one evaluator; every evaluator has the same call signature and
returns the same result type, so the runner, the reports and `--json` never branch on
dialect:

    @register_checks("anychat")
    def anychat_checks(checks: dict, trace: RunTrace) -> list[CheckResult]:
        ...

- `checks` is `RunCase.checks` as the dialect wrote it (Mantle: `goals.assertions`;
  Anychat: `expect.checks`; base44: `{"checks": [...], "expectedSkills": [...]}`);
- `trace` is the run's evidence (`RunTrace`: turns, replies, final event log, transcript,
  `FinalRecord` with end state and files);
- the result is one `CheckResult(index, type, passed, detail)` per check, in order (a plain
  mapping with those keys is accepted too). A check that cannot be evaluated as written is a
  failed result with the reason, never an exception; an exception means the *evidence* is
  unusable (e.g. malformed events) and errors the run.

Built-in evaluators (`mantle`, `_anychat`, `_base44`) are imported when their dialect is
first evaluated, one module per dialect, so an evaluator module may import this package
freely and a problem in one dialect's module never affects the others.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from ...assertions import AssertionResult
from ...dialects import dialect_names, get_dialect
from .._trace import RunTrace

#: The one result type of every check: `{index, type, passed, detail}`.
CheckResult = AssertionResult

_LOADING = threading.Lock()


class ChecksEvaluator(Protocol):
    def __call__(
        self, checks: Any, trace: RunTrace
    ) -> Sequence[CheckResult | Mapping[str, Any]]: ...


E = TypeVar("E", bound=ChecksEvaluator)

_EVALUATORS: dict[str, ChecksEvaluator] = {}
_TRIED: set[str] = set()


class NoEvaluatorError(LookupError):
    """A case has checks but its dialect has no evaluator (the run is errored)."""


def register_checks(dialect: str) -> Callable[[E], E]:
    """Register the checks evaluator of `dialect` (a later registration replaces it)."""

    def register(evaluator: E) -> E:
        _EVALUATORS[dialect] = evaluator
        return evaluator

    return register


def checks_evaluator(dialect: str) -> ChecksEvaluator | None:
    """The evaluator registered for `dialect` (importing the built-in one on first use)."""
    if dialect not in _EVALUATORS:
        _load_builtin(dialect)
    return _EVALUATORS.get(dialect)


def checks_dialects() -> list[str]:
    """Dialects with an evaluator (built-in modules that are missing are left out)."""
    for dialect in dialect_names():
        _load_builtin(dialect)
    return sorted(_EVALUATORS)


def evaluate_checks(
    checks: Any, trace: RunTrace, *, dialect: str | None = None
) -> list[CheckResult]:
    """Every check of the case against the run's evidence, in order.

    Raises:
        NoEvaluatorError: there are checks but no evaluator for the dialect.
        UserError: the evidence is unusable (e.g. the agent sent malformed events).
    """
    name = dialect or trace.case.dialect
    if not checks:
        return []
    evaluator = checks_evaluator(name)
    if evaluator is None:
        raise NoEvaluatorError(f"no checks evaluator is registered for {name} cases")
    return [_as_result(i, r) for i, r in enumerate(evaluator(checks, trace))]


def _as_result(position: int, result: CheckResult | Mapping[str, Any]) -> CheckResult:
    if isinstance(result, AssertionResult):
        return result
    return AssertionResult(
        index=int(result.get("index", position)),
        type=str(result.get("type", "check")),
        passed=bool(result.get("passed")),
        detail=str(result.get("detail", "")),
    )


def _load_builtin(dialect: str) -> None:
    """Import the evaluator the dialect names (`Dialect.checks_module`) once. Checks run in
    worker threads, so the lock keeps a second run from seeing the dialect as tried while
    the first is still importing it."""
    name = get_dialect(dialect).checks_module if dialect in dialect_names() else None
    if name is None:
        return
    with _LOADING:
        if dialect in _TRIED:
            return
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real import problem inside the module: a bug to report
                raise
        _TRIED.add(dialect)


__all__ = [
    "CheckResult",
    "ChecksEvaluator",
    "NoEvaluatorError",
    "RunTrace",
    "checks_dialects",
    "checks_evaluator",
    "evaluate_checks",
    "register_checks",
]
