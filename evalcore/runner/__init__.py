"""The shared runner: simulate the user, record events, check assertions, judge criteria.

    cases = collect_cases([Path("examples/bank/eval/scenarios")])
    target = resolve_target("demo:bank")
    writer = ResultsWriter(default_results_dir(cases))
    report = await run_cases(cases, target, RunOptions(parallel=8), results=writer)
    report.exit_code     # 0 passed · 1 failed · 3 errored (harness), none failed

Plug-in points: `register_checks(dialect)` for a dialect's deterministic checks,
`register_target(scheme, factory)` to resolve `--target scheme:...` in-process, and the
simulator engines of `evalcore.simulator`.
"""

from ..runcase import Criterion, RunCase, SimulationSpec, as_run_cases, load_run_cases
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
