"""`casegen run`: play cases against an agent, check and judge them, write the results.

Exit codes: 0 every run passed · 1 a run failed · 3 a run errored for harness reasons
(agent unreachable, timeout, model error) and none failed · 2 usage errors (bad paths,
invalid cases, unknown target, unusable model settings). Ctrl-C writes the runs that
finished, then exits 130.
"""

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from evalcore.errors import UserError

from ._app import app
from ._output import print_json, stderr, stdout
from ._run_progress import waiting_counter, with_progress

if TYPE_CHECKING:
    from evalcore.runner import RunCase, RunExecutor, RunRecord, RunReport

EXIT_INTERRUPTED = 130
_COLOUR = {"passed": "green", "failed": "red", "errored": "yellow"}


def _note_offline_prose(cases: "list[RunCase]") -> None:
    """Before the run: the cases whose free-prose persona the offline user may not be able
    to play to the end (a failure then is the case's, not the agent's)."""
    # start-up: pydantic, yaml, tomllib and 67 casegen modules
    from evalcore.simulator import PROSE_NOTE, offline_note

    prose = [c.slug for c in cases if c.simulate is not None and offline_note(c.simulate)]
    if prose:
        named = ", ".join(prose[:5]) + (f" and {len(prose) - 5} more" if len(prose) > 5 else "")
        stderr.print(f"[yellow]note:[/] {escape(named)}: {escape(PROSE_NOTE)}", highlight=False)


def _note_outside(outside: list[dict[str, Any]], *, plays_code: bool) -> None:
    """Before the run: per tool whose code acts on a real service, the cases that expect it
    to run. Against the agent itself they do it for real where its credentials are set;
    `mantle:` and `demo:` run no tool code (`runs_tool_code`)."""
    for entry in outside:
        cases = entry["cases"]
        named = ", ".join(cases[:5]) + (f" and {len(cases) - 5} more" if len(cases) > 5 else "")
        keys = f" ({', '.join(entry['credentials'])})" if entry["credentials"] else ""
        effect = (
            f"with its credentials in the agent's environment{keys}, this run does that for real"
            if plays_code
            else f"this target runs no tool code; against the agent itself, with its "
            f"credentials set{keys}, they do that for real"
        )
        stderr.print(
            f"[yellow]outside service:[/] {escape(named)} run {escape(entry['tool'])}, which "
            f"acts on a real service ({escape(', '.join(entry['calls'][:2]))}): "
            f"{escape(effect)}",
            highlight=False,
        )


def _run_line(record: "RunRecord") -> str:
    colour = _COLOUR[record.status]
    detail = f"{record.turns} turn{'' if record.turns == 1 else 's'}, {record.duration_s:.1f}s"
    line = (
        f"[{colour}]{record.verdict_label:<22}[/] {escape(record.scenario_slug)} "
        f"run {record.run_index}  [dim]({detail})[/]"
    )
    if record.error:
        line += f"\n    [yellow]{escape(record.error)}[/]"
    for a in record.assertions:
        if not a["passed"]:
            line += f"\n    [red]assertion[/] {escape(a['type'])}: {escape(a['detail'])}"
    for c in record.criteria:
        if c.verdict in ("fail", "inconclusive"):
            line += f"\n    [red]criterion {c.verdict}[/] {escape(c.criterion)}: {escape(c.reason)}"
    return line


def _print_summary(report: "RunReport") -> None:

    total = len(report.records)
    colour = "green" if report.exit_code == 0 else ("red" if report.failed else "yellow")
    text = f"{report.passed}/{total} runs passed"
    if report.failed:
        text += f", {report.failed} failed"
    if report.errored:
        text += f", {report.errored} errored (harness, not the agent)"
    stdout.print(f"[{colour}]{text}[/] in {report.wall_clock_s:.1f}s")
    if report.target_note:
        stdout.print(f"[yellow]note:[/] {escape(report.target_note)}")
    by_case: dict[str, list[RunRecord]] = {}
    for record in report.records:
        by_case.setdefault(record.scenario_slug, []).append(record)
    for slug, runs in by_case.items():
        if len(runs) > 1:  # repeated runs (--runs, Anychat samples) are read as a pass rate
            passed = sum(r.passed for r in runs)
            stdout.print(
                f"  {escape(slug)}: {passed}/{len(runs)} passed "
                f"({passed / len(runs):.0%} pass rate)"
            )
    unjudged = sum(r.passed and not r.judged for r in report.records)
    if unjudged:
        stdout.print(
            f"[yellow]{unjudged} passing run{'s' if unjudged > 1 else ''} cover assertions "
            "only:[/] no judge model is configured, so criteria were not judged "
            "(set --judge-model or CASEGEN_JUDGE_MODEL)"
        )
    offline = sum(r.simulator.engine == "offline" for r in report.records)
    if offline:
        stdout.print(
            f"[dim]{offline} run{'s' if offline > 1 else ''} used the offline "
            "simulator (facts or quoted user lines, no model)[/]"
        )
    if report.stopped_early:
        skipped = report.planned - total
        stdout.print(
            f"[yellow]stopped after the first failure (-x):[/] {skipped} of "
            f"{report.planned} planned runs not run"
        )
    _print_recap(report)
    if report.results_dir:
        stdout.print(f"results: {escape(_shown(report.results_dir))}")


def _print_recap(report: "RunReport") -> None:
    """pytest's short summary: one line per run that did not pass, reason and case file."""
    bad = [r for r in report.records if not r.passed]
    if not bad:
        return
    stdout.print("[bold]failures:[/]")
    for record in bad:
        colour = _COLOUR[record.status]
        reason = " ".join(record.failure_reason().split())
        if len(reason) > 160:
            reason = reason[:159] + "…"
        stdout.print(
            f"  [{colour}]{record.verdict_label}[/] {escape(record.scenario_slug)} run "
            f"{record.run_index}: {escape(reason)} [dim]({escape(_shown(record.case_path))})[/]",
            soft_wrap=True,
        )


def _shown(path: str) -> str:
    """A path as typed from here (relative to the working folder when inside it)."""
    from evalcore.workdir import shown_path  # start-up: evalcore.workdir, which --help never needs

    return shown_path(path)


def _select(
    cases: "list[RunCase]", keyword: str | None, last_failed: bool, results_root: Path
) -> "list[RunCase]":
    """The cases `-k` and `--last-failed` keep (a note on stderr says what was chosen)."""
    # start-up: httpx, pydantic, yaml and 130 casegen modules
    from evalcore.runner import last_failed as read_last_failed

    # start-up: httpx, pydantic, yaml and 130 casegen modules
    from evalcore.runner import select_cases

    only = None
    why: list[str] = []
    if keyword:
        why.append(f"-k {keyword!r}")
    if last_failed:
        previous = read_last_failed(results_root)
        if previous is None:
            stderr.print(
                f"[dim]--last-failed: no earlier results in {results_root}; running every case[/]"
            )
        elif not previous.slugs:
            stderr.print(
                f"[dim]--last-failed: no failed runs in {previous.folder}; running every case[/]"
            )
        else:
            only = previous.slugs
            why.append(f"--last-failed: {len(only)} failed in {previous.folder}")
    chosen = select_cases(cases, keyword=keyword, only_slugs=only)
    if not chosen:
        raise UserError(
            f"no case is selected ({'; '.join(why)}) among the {len(cases)} found",
            hint="-k words match case names, slugs and paths; "
            + (
                f"the failed cases were: {', '.join(sorted(only))}"
                if only
                else "try a shorter word"
            ),
        )
    if why:
        stderr.print(f"[dim]selected {len(chosen)} of {len(cases)} cases ({'; '.join(why)})[/]")
    return chosen


def _executor(name: str, address: str | None) -> "RunExecutor | None":
    """None for local runs; Ray is imported only when asked for."""
    if name not in ("local", "ray"):
        raise UserError(f"--executor {name!r} is not known", hint="use local or ray")
    if name == "local":
        if address:
            raise UserError("--ray-address needs --executor ray")
        return None
    # start-up: httpx, pydantic, yaml and 132 casegen modules
    from evalcore.runner.ray_executor import RayExecutor, import_ray

    import_ray()  # fail before any case is read when the extra is missing
    return RayExecutor(address=address)


@app.command()
def run(
    paths: Annotated[list[Path], typer.Argument(help="Case files or folders (recursive).")],
    target: Annotated[
        str,
        typer.Option(
            "--target",
            "-t",
            help="The agent: rasa:URL, http:URL, python:MOD:FN, command:CMD, demo:NAME, mantle:DIR",
        ),
    ],
    project: Annotated[
        Path | None,
        typer.Option("--project", "-p", help="Project the cases refer to (default: nearest)."),
    ] = None,
    runs: Annotated[
        int | None,
        typer.Option(
            "--runs", min=1, max=100, help="Runs per case (default: the case's samples, else 1)."
        ),
    ] = None,
    parallel: Annotated[
        int | None,
        typer.Option(
            "--parallel",
            min=1,
            max=64,
            help="Conversations at once, and model requests in flight (default 3).",
        ),
    ] = None,
    results: Annotated[
        Path | None,
        typer.Option(
            "--results",
            help="Results folder (default: <project>/eval/results for Mantle "
            "projects, else ./results).",
        ),
    ] = None,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Also write JUnit XML here.")
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="Simulator (and judge) model, or 'offline'.")
    ] = None,
    judge_model: Annotated[
        str | None,
        typer.Option("--judge-model", help="Judge model, or 'offline' (criteria unjudged)."),
    ] = None,
    judge_samples: Annotated[
        int,
        typer.Option(
            "--judge-samples", min=1, max=15, help="Judge each run K times; majority wins."
        ),
    ] = 1,
    max_turns: Annotated[
        int | None,
        typer.Option("--max-turns", min=1, max=500, help="User turns per run (default 30)."),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            min=1,
            help="Seconds per run (conversation); default 600, longer for slow targets.",
        ),
    ] = None,
    turn_timeout: Annotated[
        float | None,
        typer.Option(
            "--turn-timeout",
            min=0.1,
            help="Seconds for one agent answer; default the target's own limit, else 120.",
        ),
    ] = None,
    cache: Annotated[
        bool, typer.Option("--cache", help="Replay model answers from the response cache.")
    ] = False,
    metrics: Annotated[
        bool,
        typer.Option(
            "--metrics/--no-metrics",
            help="Mantle, with a judge model: record the quality metrics (one call per run).",
        ),
    ] = True,
    keyword: Annotated[
        str | None,
        typer.Option(
            "-k",
            help="Only cases whose name, slug or path contains the words "
            "('card and not refused'; not, and, or, parentheses).",
        ),
    ] = None,
    last_failed: Annotated[
        bool,
        typer.Option(
            "--last-failed",
            "--lf",
            help="Only the cases that failed or errored in the newest results folder.",
        ),
    ] = False,
    exitfirst: Annotated[
        bool,
        typer.Option(
            "--exitfirst", "-x", help="Start no more runs after the first failure or error."
        ),
    ] = False,
    executor: Annotated[
        str,
        typer.Option(
            "--executor",
            help="Where runs happen: local (asyncio, default) or ray (a task per run; "
            "needs the casegen[ray] extra).",
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            help="Ray cluster to run on (default RAY_ADDRESS, else a local instance).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run cases against an agent: simulate the user, check assertions, judge criteria.

    No simulator model: the offline user answers from the context's facts (or plays its
    numbered quoted steps).
    No judge model: criteria are unjudged and a pass covers the assertions only.
    Results: <results>/<timestamp>/<slug>/run_N.json|txt and summary.json|txt|md.

    Exit 0 when every run passed, 1 when any failed, 3 when a run errored (agent
    unreachable, timeout, model error) and none failed, 2 on usage errors.
    """
    import asyncio  # start-up: asyncio

    from evalcore.runner import (
        DEFAULT_MAX_TURNS,
        DEFAULT_PARALLEL,
        ResultsWriter,
        RunOptions,
        cases_project,
        collect_cases,
        default_results_dir,
        no_skills_note,
        outside_runs,
        resolve_target,
        run_cases,
    )  # start-up: httpx, pydantic, yaml and 130 casegen modules

    runs_on = _executor(executor, ray_address)
    cases = collect_cases(paths, project=project)
    results_root = results or default_results_dir(cases, project=project)
    if keyword or last_failed:
        cases = _select(cases, keyword, last_failed, results_root)
    definitions = cases_project(cases, project=project)
    agent = resolve_target(target, project=definitions, timeout_s=turn_timeout)
    if definitions is None:
        # cases outside any project, played against one (`mantle:DIR`): the simulator reads
        # that project's questions and read-backs, as verification in generate does
        definitions = getattr(agent, "project", None)
    start = project or Path(cases[0].path).parent
    from ..commands import run_settings  # start-up: 7 casegen modules

    simulator, judge = run_settings(model, judge_model, judge_samples, start, cache)
    simulator = replace(simulator, project=definitions)
    options = RunOptions(
        runs=runs,
        parallel=DEFAULT_PARALLEL if parallel is None else parallel,
        max_turns=DEFAULT_MAX_TURNS if max_turns is None else max_turns,
        timeout_s=timeout,
        turn_timeout_s=turn_timeout,
        simulator=simulator,
        judge=judge,
        exitfirst=exitfirst,
        metrics=metrics,
    ).with_models()  # a model without a key is a usage error (exit 2) before any call
    from ..doctor import preflight_roles  # start-up: pydantic; a down endpoint stops the run here

    preflight_roles({"simulator": simulator.model, "judge": judge.model})
    if simulator.engine == "offline" and not as_json:
        _note_offline_prose(cases)
    bare = no_skills_note(cases)
    if bare and not as_json:
        stderr.print(f"[yellow]note:[/] {escape(bare)}", highlight=False)
    outside = outside_runs(cases, definitions)
    if not as_json:
        _note_outside(outside, plays_code=getattr(agent, "runs_tool_code", True))
    writer = ResultsWriter(results_root, junit=junit)
    finished: list[RunRecord] = []

    def on_run(record: "RunRecord") -> None:
        finished.append(record)
        if not as_json:
            stdout.print(_run_line(record))

    try:
        work = run_cases(cases, agent, options, results=writer, on_run=on_run, executor=runs_on)
        waiting = waiting_counter(runs_on)
        report = asyncio.run(with_progress(work, finished, waiting, show=not as_json))
    except KeyboardInterrupt:
        if as_json:
            print_json(
                {
                    "error": "interrupted",
                    "hint": f"{len(finished)} finished runs are written to {writer.dir}",
                    "exit_code": EXIT_INTERRUPTED,
                    "results_dir": str(writer.dir),
                    "runs_finished": len(finished),
                    "interrupted": True,
                }
            )
        else:
            stderr.print(
                f"[yellow]interrupted:[/] {len(finished)} finished runs written to "
                f"{escape(str(writer.dir))}"
            )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if as_json:
        notes = {"outside": outside} if outside else {}
        print_json({**report.to_json(), **notes, **({"no_skills": bare} if bare else {})})
    else:
        _print_summary(report)
    raise typer.Exit(report.exit_code)


__all__ = ["run"]
