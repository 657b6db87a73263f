"""`casegen review`: quality comments on cases; `--interactive` to accept, edit or reject."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.prompt import Prompt  # cheap; tests answer through `Prompt.ask`

from evalcore.errors import UserError

from ._app import app
from ._output import finding_line, no_case_files, print_json, stderr, stdout

if TYPE_CHECKING:
    from ..review import ReviewModel, ReviewReport

RULES_ONLY = (
    "deterministic rules only (no model configured: pass --model or set CASEGEN_MODEL "
    "for a model critique)"
)
_KEYS = {"a": "accept", "e": "edit", "r": "reject", "g": "regenerate", "q": "quit"}


@app.command()
def review(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Case files or folders (recursive).")
    ] = None,
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    model: Annotated[
        str | None,
        typer.Option("--model", help="Model for the critique / regenerate ('offline': none)."),
    ] = None,
    dialect: Annotated[str | None, typer.Option("--dialect", help="Force a dialect.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    interactive: Annotated[
        bool,
        typer.Option("--interactive", "-i", help="Accept, edit, reject or regenerate each case."),
    ] = False,
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue an interactive review by id.")
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Do not read or write the model response cache.")
    ] = False,
    revise: Annotated[
        bool,
        typer.Option(
            "--revise",
            help="Send critique comments that name a concrete fix to the model's revise; "
            "show each valid revision's diff instead of the comments (nothing is written).",
        ),
    ] = False,
) -> None:
    """Review cases beyond validity: deterministic rules, plus a model critique if configured.

    Each comment has a stable code (see docs/review-workflow.md). Exit 0 when no comment is
    an error, 1 otherwise, 2 on usage errors, 3 when the model endpoint is unreachable or
    refuses the key.
    """
    import asyncio  # start-up: asyncio

    # start-up: pydantic, yaml, asyncio and 200 casegen modules
    from ..review import review_model, review_paths

    start = project or (paths[0] if paths else None)
    critic = review_model(model, start=start, no_cache=no_cache)
    if critic is not None:
        from ..doctor import preflight  # start-up: pydantic; a down or refusing endpoint stops here

        preflight(critic.config, role="review")
    if interactive or resume:
        if as_json:
            raise UserError("--json cannot be combined with --interactive")
        if not paths and not resume:
            raise UserError("nothing to review", hint="give case files or folders, or --resume ID")
        _run_interactive(paths or [], project, critic, resume)
        return
    if not paths:
        raise UserError("nothing to review", hint="give case files or folders")
    report = asyncio.run(
        review_paths(paths, project=project, dialect=dialect, critic=critic, revise=revise)
    )
    if not report.files:
        raise no_case_files(paths)
    if as_json:
        payload = report.to_json()
        if critic is None:
            payload["note"] = "deterministic rules only"
        print_json(payload)
    else:
        _print_report(report, rules_only=critic is None)
    raise typer.Exit(1 if report.failed else 0)


def _print_report(report: "ReviewReport", *, rules_only: bool) -> None:
    for file in report.files:
        mark = "[red]✗[/]" if file.errors else ("[yellow]![/]" if file.comments else "[green]✓[/]")
        dialect = f" [dim]({file.dialect})[/]" if file.dialect else ""
        stdout.print(f"{mark} {escape(file.path)}{dialect}")
        for comment in file.comments:
            stdout.print(finding_line(comment))
        for note in file.notes:
            stdout.print(f"  [dim]note: {escape(note)}[/]")
        for revision in file.revisions:
            stdout.print(f"  revised from the critique's fixes: {escape(revision['case'])}")
            stdout.print(escape(revision["diff"]), end="")
            stdout.print(f"  [dim]write it: {escape(revision['command'])}[/]")
    totals = report.summary()
    stdout.print(
        f"reviewed {totals['files']} files: {totals['errors']} errors, "
        f"{totals['warnings']} warnings · engine {report.engine}"
    )
    if rules_only:
        stdout.print(f"[dim]{RULES_ONLY}[/]")
    if report.critique is not None and report.critique.note:
        stdout.print(f"[yellow]{escape(report.critique.note)}[/]")
    if not rules_only and (report.usage.calls or report.usage.cache_hits):
        usage = report.usage
        stdout.print(
            f"[dim]model calls {usage.calls} (cache hits {usage.cache_hits}) · tokens "
            f"{usage.input_tokens} in / {usage.output_tokens} out · ${usage.cost_usd:.4f}[/]"
        )


# --- interactive ----------------------------------------------------------------------------


def _run_interactive(
    paths: list[Path], project: Path | None, critic: "ReviewModel | None", resume: str | None
) -> None:
    import asyncio  # start-up: asyncio

    from ..review.interactive import (
        DEFAULT_CHECKPOINTS,
        ReviewContext,
        new_review_id,
        open_review,
    )  # start-up: langgraph, langchain_core, langsmith and 206 casegen modules

    review_id = resume or new_review_id()
    context = ReviewContext(model=critic)

    async def drive() -> dict[str, Any] | None:
        async with open_review(
            DEFAULT_CHECKPOINTS, context, review_id=review_id, resume=resume is not None
        ) as review:
            if resume is None:
                stdout.print(
                    f"review [bold]{review_id}[/] · engine rules"
                    + ("" if critic is None else f" (+ {critic.name} critique, if it answers)")
                )
                question = await review.start(
                    [str(p) for p in paths], project=str(project) if project else None
                )
            else:
                question = await review.pending()
            while question is not None:
                decision = _ask(question)
                if decision is None:
                    return None
                question = await review.decide(decision)
            return dict(await review.state())

    try:
        final = asyncio.run(drive())
    except (KeyboardInterrupt, EOFError):  # Ctrl-C, or input closed: stop, resumable
        final = None
    if final is None:
        stdout.print(
            f"\nreview {review_id} stopped; continue with: casegen review --interactive "
            f"--resume {review_id}"
        )
        return
    decisions = final.get("decisions", [])
    accepted = sum(d["action"] == "accepted" for d in decisions)
    rejected = sum(d["action"] == "rejected" for d in decisions)
    stdout.print(f"review {review_id} done: {accepted} accepted, {rejected} rejected")
    if final.get("record"):
        stdout.print(f"[dim]decisions recorded in {escape(str(final['record']))}[/]")


def _ask(question: dict[str, Any]) -> dict[str, Any] | None:
    """Show one case and read the decision; None to stop (the review can resume later)."""
    _show(question)
    while True:
        key = _read_key(escape("[a]ccept / [e]dit / [r]eject / re[g]enerate / [q]uit"))
        action = _KEYS[key]
        if action == "quit":
            return None
        if action == "accept" and not question["can_accept"]:
            stdout.print("[red]cannot accept a case with errors:[/] edit, regenerate or reject it")
            continue
        if action == "regenerate":
            if not question["can_regenerate"]:
                stdout.print(
                    "[yellow]regenerate needs a model: set CASEGEN_MODEL or pass --model[/]"
                )
                continue
            comment = Prompt.ask("what should change?", console=stdout.console).strip()
            if not comment:
                continue
            return {"action": action, "comment": comment}
        if action == "reject":
            reason = Prompt.ask(
                "reason (optional)", default="", show_default=False, console=stdout.console
            )
            return {"action": action, "reason": reason}
        return {"action": action}


def _read_key(prompt: str) -> str:
    """One of `_KEYS`: in a terminal a single key press (no Enter), else a line (pipes,
    tests). Ctrl-C and Ctrl-D stop the review as at the line prompt."""
    if not sys.stdin.isatty():
        return Prompt.ask(prompt, choices=list(_KEYS), show_choices=False, console=stdout.console)
    stdout.print(f"{prompt}: ", end="")
    while True:
        key = typer.getchar().lower()
        if key in _KEYS:
            stdout.print(key)
            return key


def _show(question: dict[str, Any]) -> None:
    from rich.rule import Rule  # start-up: rich
    from rich.syntax import Syntax  # start-up: rich, pygments

    from evalcore.findings import Finding  # start-up: evalcore.findings, which --help never needs

    stdout.print(Rule(escape(f"{question['index'] + 1}/{question['total']} {question['path']}")))
    lexer = "json" if str(question["path"]).endswith(".json") else "yaml"
    stdout.print(Syntax(question["text"], lexer, line_numbers=True, word_wrap=True))
    findings = [Finding.model_validate(f) for f in question["findings"]]
    comments = [Finding.model_validate(c) for c in question["comments"]]
    if findings:
        stdout.print("[bold]findings[/]")
        for finding in findings:
            stdout.print(finding_line(finding))
    if comments:
        stdout.print("[bold]review comments[/]")
        for comment in comments:
            stdout.print(finding_line(comment))
    if not findings and not comments:
        stdout.print("[green]no findings, no comments[/]")
    if question.get("changed"):
        stdout.print("[cyan]this is your edited / regenerated version; accept writes it[/]")
    if question.get("note"):
        stderr.print(f"[yellow]{escape(question['note'])}[/]")


__all__ = ["review"]
