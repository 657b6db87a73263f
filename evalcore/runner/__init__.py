"""The shared runner: simulate the user, record events, check assertions, judge criteria.

    cases = collect_cases([Path("examples/bank/eval/scenarios")])
    target = resolve_target("demo:bank")
    writer = ResultsWriter(default_results_dir(cases))
    report = await run_cases(cases, target, RunOptions(parallel=8), results=writer)
    report.exit_code     # 0 passed · 1 failed · 3 errored (harness), none failed

Plug-in points: `register_checks(dialect)` for a dialect's deterministic checks,
`register_target(scheme, factory)` to resolve `--target scheme:...` in-process, and the
simulator engines of `evalcore.simulator`.

The package hands its names out on first use (PEP 562): `generate`'s verifier plays a case
with the conversation, events and checks alone, and loading the executor, the judge, the
results writer and JUnit's XML with them cost ~35 modules it never used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..runcase import Criterion, RunCase, SimulationSpec, as_run_cases, load_run_cases

if TYPE_CHECKING:
    from ._conversation import Conversation, HarnessError, play
    from ._discover import cases_project, collect_cases, default_results_dir
    from ._events import bot_event, choice_label, event_log, message_text, transcript
    from ._execute import RunExecutor, RunReport, plan_runs, run_cases, run_one, total_usage
    from ._fixture_skills import no_skills_note
    from ._options import DEFAULT_MAX_TURNS, DEFAULT_PARALLEL, RunOptions
    from ._outside import outside_runs
    from ._record import EngineUse, Latency, RunRecord, Status, TurnLatency
    from ._report import Summary, SummaryEntry, summarize
    from ._results import ResultsWriter
    from ._select import last_failed, select_cases
    from ._target_hook import register_target, resolve_target, target_override, unregister_target
    from ._trace import RunTrace, TurnTrace
    from .checks import CheckResult, evaluate_checks, register_checks

#: Each name's module, imported when the name is first asked for.
_LAZY = {
    "Conversation": "._conversation",
    "HarnessError": "._conversation",
    "play": "._conversation",
    "cases_project": "._discover",
    "collect_cases": "._discover",
    "default_results_dir": "._discover",
    "bot_event": "._events",
    "choice_label": "._events",
    "event_log": "._events",
    "message_text": "._events",
    "transcript": "._events",
    "RunExecutor": "._execute",
    "RunReport": "._execute",
    "plan_runs": "._execute",
    "run_cases": "._execute",
    "run_one": "._execute",
    "total_usage": "._execute",
    "no_skills_note": "._fixture_skills",
    "DEFAULT_MAX_TURNS": "._options",
    "DEFAULT_PARALLEL": "._options",
    "RunOptions": "._options",
    "outside_runs": "._outside",
    "EngineUse": "._record",
    "Latency": "._record",
    "RunRecord": "._record",
    "Status": "._record",
    "TurnLatency": "._record",
    "Summary": "._report",
    "SummaryEntry": "._report",
    "summarize": "._report",
    "ResultsWriter": "._results",
    "last_failed": "._select",
    "select_cases": "._select",
    "register_target": "._target_hook",
    "resolve_target": "._target_hook",
    "target_override": "._target_hook",
    "unregister_target": "._target_hook",
    "RunTrace": "._trace",
    "TurnTrace": "._trace",
    "CheckResult": ".checks",
    "evaluate_checks": ".checks",
    "register_checks": ".checks",
}


def __getattr__(name: str) -> Any:
    """A name of `_LAZY`, imported from its module on first use and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_MAX_TURNS",
    "DEFAULT_PARALLEL",
    "CheckResult",
    "Conversation",
    "Criterion",
    "EngineUse",
    "HarnessError",
    "Latency",
    "ResultsWriter",
    "RunCase",
    "RunExecutor",
    "RunOptions",
    "RunRecord",
    "RunReport",
    "RunTrace",
    "SimulationSpec",
    "Status",
    "Summary",
    "SummaryEntry",
    "TurnLatency",
    "TurnTrace",
    "as_run_cases",
    "bot_event",
    "cases_project",
    "choice_label",
    "collect_cases",
    "default_results_dir",
    "evaluate_checks",
    "event_log",
    "last_failed",
    "load_run_cases",
    "message_text",
    "no_skills_note",
    "outside_runs",
    "plan_runs",
    "play",
    "register_checks",
    "register_target",
    "resolve_target",
    "run_cases",
    "run_one",
    "select_cases",
    "summarize",
    "target_override",
    "total_usage",
    "transcript",
    "unregister_target",
]
