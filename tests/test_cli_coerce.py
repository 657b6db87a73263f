"""casegen's pydantic-free coercion of plain options gives what typer's own adapters give.

`agentflows/cli/_coerce.py` takes `str`, `bool` and `Path` options (and lists of them) off
typer's pydantic `TypeAdapter`s; for every parameter of every command and a spread of
values, both must return the same value (type included) or raise the same message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
import typer.core

from agentflows.cli import _coerce

REPO = Path(__file__).resolve().parents[1]
VALUES: list[Any] = [
    "x",
    "",
    "examples/bank",
    "examples/bank/agent.yml",
    "/nonexistent/place",
    "-",
    "caf\u00e9 \udcff",
    True,
    False,
    Path("examples/bank"),
    ["a", "examples/bank"],
    ("b",),
    [],
    3,
    None,
]


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        got = runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # the message is what a user sees
        return "error", (type(exc).__name__, str(exc))
    return "value", (type(got), got)


def _params() -> list[tuple[str, Any, Any]]:
    from agentflows.cli import app

    tree = typer.main.get_command(app)
    out = []
    for name, command in tree.commands.items():  # type: ignore[attr-defined]
        ctx = command.context_class(command, info_name=name)
        out += [(f"{name} {p.name}", p, ctx) for p in command.params]
    return out


def _typer_s(build: Any) -> Any:
    """typer's own coercer builder, under casegen's if that is installed already."""
    return getattr(build, "__wrapped__", build)


@pytest.mark.parametrize("readable", [True, False], ids=["readable", "unreadable"])
def test_plain_coercion_is_typer_s_for_every_parameter_and_value(
    monkeypatch: pytest.MonkeyPatch, readable: bool
) -> None:
    """Unreadable: every existing path reads as one the user may not read (typer's check
    and message, whichever coerces it)."""
    monkeypatch.chdir(REPO)
    if not readable:
        monkeypatch.setattr("os.access", lambda *_args, **_kw: False)
    build_runtime_param = _typer_s(typer.core.build_runtime_param)
    monkeypatch.setattr(typer.core, "build_runtime_param", build_runtime_param)
    monkeypatch.setattr(_coerce, "_installed", False)
    _coerce.install()
    plain = typer.core.build_runtime_param
    assert plain is not build_runtime_param
    checked = 0
    for label, param, ctx in _params():
        ours = plain(param.type_descriptor)
        theirs = build_runtime_param(param.type_descriptor)
        if type(ours) is type(theirs):
            continue  # not a plain option: typer's adapter itself
        for value in VALUES:
            expected = _outcome(theirs, value, param, ctx)
            assert _outcome(ours, value, param, ctx) == expected, (label, value)
            checked += 1
    assert checked > 100


def test_validate_and_sources_parse_their_options_without_pydantic() -> None:
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from agentflows.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['sources', '--project', 'examples/bank', '--json'])\n"
        "print('typer._adapters' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "False"
