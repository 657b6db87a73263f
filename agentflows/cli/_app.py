"""The `casegen` typer application: one object every command module registers on."""

import platform
from typing import Annotated, Any

import typer

app = typer.Typer(
    name="casegen",
    help=(
        "Draft, validate, repair, review and run test cases for conversational agents "
        "(Rasa Mantle scenarios, Anychat test cases, base44 evals)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def version_text() -> str:
    """`casegen 0.1.0 (Python 3.11.7)`: the installed distribution's version."""
    from importlib.metadata import PackageNotFoundError, version  # start-up: 46 modules

    try:
        number = version("casegen")
    except PackageNotFoundError:  # running from a source tree that is not installed
        number = "unknown (not installed)"
    return f"casegen {number} (Python {platform.python_version()})"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_show_version,
            is_eager=True,
            help="Print casegen's version and exit.",
        ),
    ] = False,
) -> None:
    """Draft, validate, repair, review and run test cases for conversational agents
    (Rasa Mantle scenarios, Anychat test cases, base44 evals)."""


def polish_help(command: object) -> None:
    """Two fixes to typer's `--help`, applied to the click command tree once per invocation
    before it parses anything: no `<bool>` type label next to on/off flags (a flag takes no
    value, `--json <bool>` suggests one), and docstring paragraphs reflowed (rich keeps
    their source line breaks, which then wrap a second time at the terminal's width)."""
    help_text = getattr(command, "help", None)
    if isinstance(help_text, str):
        command.help = reflow(help_text)  # type: ignore[attr-defined]
    params = list(getattr(command, "params", ()))
    context_class = getattr(command, "context_class", None)
    if context_class is not None:  # `--help` is made on first use (and then kept)
        params.append(command.get_help_option(context_class(command)))  # type: ignore[attr-defined]
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
            param.metavar = ""
        if hasattr(param, "_usage_display_name") and getattr(param, "name", None):
            param._usage_display_name = _usage_name(param)  # type: ignore[attr-defined]
    for sub in getattr(command, "commands", {}).values():
        polish_help(sub)


def _usage_name(argument: Any) -> Any:
    """An argument as the usage line names it: `PATHS...`, `[TARGETS]...` (typer writes a
    required one as `{paths}`, which reads as a placeholder left unfilled)."""
    name = str(argument.metavar or argument.name).upper()
    shown = name if argument.required else f"[{name}]"
    shown += "..." if argument.nargs != 1 else ""
    return lambda: shown


def reflow(text: str) -> str:
    """Join the lines of each paragraph; paragraphs that look laid out (indented lines,
    lists, tables, typer's `\\b` blocks) are kept as written."""
    paragraphs = text.split("\n\n")
    out = []
    for paragraph in paragraphs:
        lines = paragraph.strip("\n").split("\n")
        laid_out = paragraph.startswith("\b") or any(
            line[:1].isspace() or line.lstrip()[:2] in ("- ", "* ", "• ", "| ") for line in lines
        )
        out.append(paragraph if laid_out else " ".join(line.strip() for line in lines))
    return "\n\n".join(out)
