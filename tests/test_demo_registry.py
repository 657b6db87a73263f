"""The demo agents live beside their examples and are found from anywhere.

`demo:<name>` imports `examples/<folder>/demo_agent` by file, so the target must work from any
working directory, travel to another process by name (a Ray worker cannot import the package
by module name), and say clearly when the example folder is not there.
"""

from __future__ import annotations

import inspect
import pickle
import sys
from pathlib import Path

import pytest

from evalcore.agents import demo as demos
from evalcore.agents import parse_target
from evalcore.errors import UserError

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["bank", "clinic"])
def test_a_demo_agent_lives_in_its_example_folder(name: str) -> None:
    target = demos.make_demo_target(name)
    where = Path(inspect.getfile(type(target))).resolve()
    assert where.parent == REPO / "examples" / name / demos.AGENT_FOLDER
    assert demos.demo_for(REPO / "examples" / name) == name


def test_demo_targets_parse_from_another_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert parse_target("demo:bank?skip_confirmation").spec == "demo:bank"
    assert parse_target("demo:clinic?never_book").spec == "demo:clinic"


@pytest.mark.parametrize(
    ("name", "flag"), [("bank", "skip_confirmation"), ("clinic", "never_book")]
)
def test_a_demo_target_pickles_by_name_and_flags(name: str, flag: str) -> None:
    blob = pickle.dumps(demos.make_demo_target(name, **{flag: True}))
    assert b"casegen_demo_" not in blob  # nothing a fresh process could not import
    again = pickle.loads(blob)
    assert again.spec == f"demo:{name}"
    assert getattr(again.flags, flag) is True


def test_a_missing_example_folder_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(demos, "examples_root", lambda: tmp_path)
    monkeypatch.setitem(demos.DEMOS, "kiosk", demos.Demo("kiosk", "KioskTarget"))
    with pytest.raises(UserError, match=r"demo:kiosk is not available.*demo_agent"):
        demos.make_demo_target("kiosk")


def test_a_demo_is_one_registry_line_and_a_package_beside_its_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "kiosk" / demos.AGENT_FOLDER
    agent.mkdir(parents=True)
    (agent / "_replies.py").write_text('GREETING = "hello"\n')
    (agent / "__init__.py").write_text(
        "from ._replies import GREETING\n\n"
        "class KioskTarget:\n"
        "    spec = 'demo:kiosk'\n\n"
        "    def __init__(self, loud: bool = False) -> None:\n"
        "        self.greeting = GREETING.upper() if loud else GREETING\n"
    )
    monkeypatch.setattr(demos, "examples_root", lambda: tmp_path)
    monkeypatch.setitem(demos.DEMOS, "kiosk", demos.Demo("kiosk", "KioskTarget"))
    monkeypatch.delitem(sys.modules, "casegen_demo_kiosk", raising=False)
    try:
        assert demos.make_demo_target("kiosk", loud=True).greeting == "HELLO"
        assert demos.demo_for(tmp_path / "kiosk") == "kiosk"
    finally:
        for key in [k for k in sys.modules if k.startswith("casegen_demo_kiosk")]:
            del sys.modules[key]
