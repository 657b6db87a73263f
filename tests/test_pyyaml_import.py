"""PyYAML imported without compiling its reader's `NON_PRINTABLE` (`evalcore/_pyyaml.py`), and
casegen's own list of those characters (`evalcore/yamlio.py`): the same characters, the same
errors, and the pattern compiled only when the pure-Python reader runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: PyYAML's own pattern, as `yaml/reader.py` writes it.
PYYAML_NON_PRINTABLE = "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def test_the_deferred_pattern_is_pyyaml_s_own() -> None:
    from evalcore._pyyaml import NON_PRINTABLE

    assert NON_PRINTABLE == PYYAML_NON_PRINTABLE
    source = (Path(__import__("yaml").__file__).parent / "reader.py").read_text()
    assert "NON_PRINTABLE = re.compile('[^\\x09\\x0A\\x0D\\x20-\\x7E\\x85\\xA0-\\uD7FF" in source


def test_casegen_s_list_matches_every_code_point_pyyaml_s_pattern_matches() -> None:
    from evalcore.yamlio import _NON_PRINTABLE

    every = "".join(map(chr, range(sys.maxunicode + 1)))
    assert _NON_PRINTABLE.findall(every) == re.compile(PYYAML_NON_PRINTABLE).findall(every)


PROBE = """
import contextlib, io, sys
from agentflows.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
reader = sys.modules["yaml.reader"].Reader
print(type(reader.__dict__["NON_PRINTABLE"]).__name__)
import yaml
try:
    yaml.load("a: b\\x07", Loader=yaml.SafeLoader)  # the pure-Python reader
except yaml.YAMLError as exc:
    print(str(exc).replace("\\n", " | "))
print(type(reader.__dict__["NON_PRINTABLE"]).__name__)
"""


def _probe(*argv: str, preload: str = "") -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", preload + PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return done.stdout.splitlines()


def test_light_commands_leave_it_uncompiled_and_the_reader_errs_as_before() -> None:
    for argv in (
        ("validate", "examples/bank/eval", "--project", "examples/bank"),
        ("sources", "--project", "examples/bank"),
    ):
        before, error, after = _probe(*argv)
        assert (before, after) == ("_Deferred", "Pattern")
        # the same message as with PyYAML imported directly (its pattern compiled at import)
        assert [error] == _probe(*argv, preload="import yaml\n")[1:2]
        assert "special characters are not allowed" in error and "position 4" in error


def test_a_stand_in_behaves_as_the_pattern() -> None:
    from evalcore._pyyaml import _Deferred

    stand_in = _Deferred()
    assert stand_in.search("ok\x07").start() == 2 and stand_in.match("x") is None
    assert stand_in.pattern == PYYAML_NON_PRINTABLE and stand_in.flags == 0
