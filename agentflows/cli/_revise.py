"""`casegen revise`: revise one case from a reviewer's comment with the model."""

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from evalcore.errors import ConfigError, UserError
from evalcore.justify import redump

from ._app import app
from ._output import print_json, print_report, stderr, stdout


@app.command()
def revise(
    file: Annotated[Path, typer.Argument(help="The case file to revise.")],
    comment: Annotated[str, typer.Option("--comment", "-c", help="What should change.")],
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="The model to revise with.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Write without asking.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Do not read or write the model response cache.")
    ] = False,
) -> None:
    """Revise one case as a reviewer's comment asks, then validate and repair it.

    Shows the change as a diff and writes it on confirmation (`--yes` without asking; with
    no terminal and no `--yes` nothing is written). Exit 0 when the revision is valid, 1 when
    it is not (it is then never written) or the model failed, 2 on usage errors, 3 when the
    model endpoint is unreachable or refuses the key.
    """
    import asyncio  # start-up: asyncio

    from rich.syntax import Syntax  # start-up: rich, pygments

    from evalcore.dialects import dialect_of, get_dialect  # start-up: yaml and 17 casegen modules
    from evalcore.documents import load_document  # start-up: yaml and 11 casegen modules

    # start-up: evalcore.findings, which --help never needs
    from evalcore.findings import FileReport, sort_findings
    from evalcore.validation import ProjectCache  # start-up: yaml and 43 casegen modules

    # start-up: pydantic, yaml, asyncio and 199 casegen modules
    from ..review import NO_MODEL_MESSAGE, ReviseError, review_model, revise_case, unified_diff

    if not comment.strip():
        raise UserError("--comment is empty", hint="say what should change")
    critic = review_model(model, start=project or file.parent, no_cache=no_cache)
    if critic is None:
        raise ConfigError(NO_MODEL_MESSAGE)
    from ..doctor import preflight  # start-up: pydantic; a down or refusing endpoint stops here

    preflight(critic.config, role="revise")
    if not file.is_file():
        raise UserError(f"no such file: {file}")
    doc = load_document(file)
    dialect = dialect_of(doc.data, file)
    if dialect is None or not doc.parsed or doc.findings:
        raise UserError(
            f"cannot revise {file}: it does not parse as a case", hint="casegen validate shows why"
        )
    loaded = ProjectCache(project).for_file(file, dialect)
    if loaded is not None and loaded.kind != dialect.project_kind:
        loaded = None
    try:
        revision = asyncio.run(
            revise_case(
                critic,
                data=doc.data,
                dialect=get_dialect(dialect.name),
                comment=comment,
                project=loaded,
                path=file,
            )
        )
    except ReviseError as exc:
        _fail(file, str(exc), exc.usage.model_dump(), as_json)
        raise typer.Exit(1) from None
    new_text = redump(dialect, revision.data, loaded, doc.text)
    diff = unified_diff(doc.text, new_text, str(file))
    findings = sort_findings(dialect.load(file, text=new_text).locate(revision.findings))
    written, reason = _maybe_write(
        file, new_text, diff, valid=revision.valid, yes=yes, as_json=as_json
    )
    if as_json:
        print_json(
            {
                "path": str(file),
                "diff": diff,
                "written": written,
                "valid": revision.valid,
                "findings": [f.to_json() for f in findings],
                "repairs": revision.repairs,
                "usage": revision.usage.model_dump(),
                "engine": critic.name,
            }
        )
    else:
        if diff:
            stdout.print(Syntax(diff, "diff", theme="ansi_dark"))
        else:
            stdout.print("the model returned the case unchanged")
        if findings:
            print_report(FileReport(path=str(file), dialect=dialect.name, findings=findings))
        stdout.print(reason)
    raise typer.Exit(0 if revision.valid else 1)


def _maybe_write(
    file: Path, text: str, diff: str, *, valid: bool, yes: bool, as_json: bool
) -> tuple[bool, str]:
    """Write when allowed; returns (written, what happened in words)."""
    from evalcore.writer import atomic_write_text  # start-up: yaml and 10 casegen modules

    if not diff:
        return False, "nothing to write"
    if not valid:
        return False, f"not written: the revision of {file} is still invalid"
    if not yes:
        if as_json or not sys.stdin.isatty():
            return False, "not written: no terminal to confirm on; pass --yes to write"
        if not typer.confirm(f"write the revision to {file}?", default=False):
            return False, "not written"
    atomic_write_text(file, text)
    return True, f"written: {file}"


def _fail(file: Path, message: str, usage: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(
            {
                "path": str(file),
                "diff": "",
                "written": False,
                "valid": False,
                "findings": [],
                "usage": usage,
                "error": message,
            }
        )
    else:
        stderr.print(f"[red]error:[/] {escape(message)}")


__all__ = ["revise"]
