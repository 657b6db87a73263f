"""The `casegen` typer application: one object every command module registers on."""

from __future__ import annotations

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
