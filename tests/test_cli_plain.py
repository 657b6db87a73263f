"""Plain output (`agentflows/cli/_plain.py`) prints exactly what rich prints off a terminal.

Each check compares with rich itself: random markup and parts against a rich console on a
pipe, and whole commands (`validate`, `sources`, on valid, broken and oddly named input)
against the same commands with rich forced (`TTY_COMPATIBLE=0`: rich, still no terminal).
"""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.markup import escape as rich_escape
from rich.text import Text

from agentflows.cli._plain import Out, escape, plain_markup, plain_parts

REPO = Path(__file__).resolve().parents[1]
PIECES = (
    *("[red]", "[/]", "[dim]", "[/dim]", "[bold red]", "[/bold red]", "[/red]", "[b]", "[/b]"),
    *("[link=https://x.y]", "[@click=app.bell]", "[/@click]", "[#ff0000]", "[not a style]"),
    *("\\", "\\\\", "[", "]", "\\[", ":", ":smile:", ":-:", "::", "a", " ", "é", "→", "✓"),
    *("\t", "\r", "\x07", "\x1b[31m", "\n", "x y", "[[", "]]", "[/", "=", "@"),
    *("1", "12", "100", "1234", "+1", "-1"),
)


def _rich(markup: str | Text) -> str:
    buffer = io.StringIO()
    Console(file=buffer, highlight=False, soft_wrap=True, width=140, emoji=False).print(markup)
    return buffer.getvalue()


def _samples(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 9))) for _ in range(count)]


def test_escape_is_rich_s() -> None:
    for text in _samples(3000, 1):
        assert escape(text) == rich_escape(text), repr(text)


def test_plain_markup_is_what_rich_prints_or_none() -> None:
    plain = 0
    for markup in [*_samples(4000, 2), *(escape(t) for t in _samples(1000, 3))]:
        try:
            expected = _rich(markup)
        except Exception:  # rich rejects it (MarkupError): the plain path must not print it
            assert plain_markup(markup) is None, repr(markup)
            continue
        text = plain_markup(markup)
        if text is not None:
            plain += 1
            assert text + "\n" == expected, repr(markup)
    assert plain > 1000  # the check is not vacuous


@pytest.mark.parametrize("markup", ["a\tb", "x\ry", "[@click=a]b[/]", "[/]", "[/x]"])
def test_plain_markup_leaves_what_rich_translates_or_rejects_to_rich(markup: str) -> None:
    assert plain_markup(markup) is None


def test_plain_parts_are_what_rich_prints_for_a_text_of_them() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        parts = [(rng.choice(PIECES), rng.choice([None, "dim", "bold red"])) for _ in range(4)]
        line = Text()
        for part, style in parts:
            line.append(part, style=style)
        text = plain_parts(parts)
        if text is not None:
            assert text + "\n" == _rich(line), repr(parts)


def test_out_writes_plain_text_and_hands_anything_else_to_rich(
    capsys: pytest.CaptureFixture[str],
) -> None:
    made: list[Console] = []

    def make() -> Console:
        made.append(Console(highlight=False, soft_wrap=True, width=140, emoji=False))
        return made[-1]

    out = Out(make)
    out.print("[green]✓[/] a\\[b] [dim](mantle)[/]")
    out.print_parts([("  ", None), ("  12  ", "dim"), ("[code] ", "red")])
    out.print("file_claim:Car: :smile:")  # emoji codes are off: ids print as themselves
    assert made == []  # no console was needed
    out.print("a\tb")  # a tab: rich expands it, and prints from now on
    assert len(made) == 1
    out.print("[red]x[/] :car:")
    assert capsys.readouterr().out == (
        "✓ a[b] (mantle)\n    12  [code] \nfile_claim:Car: :smile:\na       b\nx :car:\n"
    )


def test_out_uses_rich_when_the_environment_forces_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = Out(lambda: Console(highlight=False, soft_wrap=True, width=140))
    out.print("[red]x[/]")
    assert "\x1b[" in capsys.readouterr().out


def _odd_project(tmp: Path) -> Path:
    """examples/bank with a skill name rich translates (emoji, tab, markup characters)."""
    project = tmp / "odd"
    shutil.copytree(REPO / "examples" / "bank", project)
    skill = project / "skills" / "card_replace" / "skill.md"
    text = skill.read_text().replace(
        "name: Replace a card", 'name: "Card :lock: [red]x[/] \\\\[y] tab\\there"', 1
    )
    skill.write_text(text)
    broken = project / "eval" / "scenarios"
    good = (broken / "card_replace_damaged.yml").read_text()
    (broken / "extra.yml").write_text(good + "no_such_key: 1\n")
    (broken / "lint.yml").write_text(good.replace("card_replace", "no_such_skill"))
    (broken / "odd.yml").write_text(
        good.replace("skill_id: card_replace", 'skill_id: "c:smile:[red]x[/]\\\\[a]\\tb"', 1)
    )
    (broken / "bad.yml").write_text("scenario: [unclosed\n")
    return project


def test_commands_print_the_same_bytes_as_with_rich(tmp_path: Path) -> None:
    project = _odd_project(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    runs = [
        ["validate", str(project / "eval"), "--project", str(project)],
        ["validate", str(REPO / "examples" / "bank" / "eval"), "--project", str(project)],
        ["validate", str(project / "eval" / "scenarios" / "bad.yml"), "--no-project"],
        ["validate", str(tmp_path / "missing")],
        ["sources", "--project", str(project)],
        ["sources", "--project", str(REPO / "examples" / "clinic")],
        ["sources", "--project", str(REPO / "examples" / "skills")],
        ["sources", "--project", str(tmp_path / "missing")],
    ]
    cli = "import sys; from agentflows.cli import main; sys.exit(main(sys.argv[1:]))"
    for argv in runs:
        plain, forced = (
            subprocess.run(
                [sys.executable, "-c", cli, *argv],
                capture_output=True,
                cwd=REPO,
                env={**env, **extra},
                check=False,
            )
            for extra in ({}, {"TTY_COMPATIBLE": "0"})
        )
        assert (plain.stdout or plain.stderr) and (
            plain.returncode,
            plain.stdout,
            plain.stderr,
        ) == (
            forced.returncode,
            forced.stdout,
            forced.stderr,
        ), argv


@pytest.mark.parametrize("forced", [False, True])
def test_the_cli_consoles_print_emoji_codes_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], forced: bool
) -> None:
    """`file_claim:Car:` is an id, not a car: in a pipe and in a terminal alike."""
    from agentflows.cli import _output

    if forced:
        monkeypatch.setenv("FORCE_COLOR", "1")
    for out in (Out(_output._stdout_console), Out(_output._stderr_console, stderr=True)):
        out.print("assertion 1 file_claim:Car: :smile:")
        out.print("\tfile_claim:Car:")  # a tab: the rich console prints it
    printed = capsys.readouterr()
    for text in (printed.out, printed.err):
        assert text.count("file_claim:Car:") == 2 and ":smile:" in text, text
        assert "🚗" not in text and "😄" not in text
