"""The optional check against Rasa's own packaged scenario schema (`make rasa-check`).

The parts that need Rasa's schema skip unless it was fetched before (`.casegen/rasa-pro/`,
by `python -m benchmarks rasa-schema`) and pykwalify is installed: tests never use the network.
"""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from mantle_fixtures import bank_project, case_with, clean_case

from benchmarks import rasa_schema
from evalcore.dialects import get_dialect
from evalcore.validation import check_data

REPO = Path(__file__).resolve().parents[1]
SCHEMA = rasa_schema.cached_schema()
needs_rasa = pytest.mark.skipif(
    SCHEMA is None or not rasa_schema.pykwalify_available(),
    reason="Rasa's scenario schema is not cached (run `make rasa-check` once) or no pykwalify",
)
MANTLE = get_dialect("mantle")
CR = {"skill_id": "card_replace"}


def test_errors_are_none_without_the_cached_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rasa_schema, "CACHE_ROOT", tmp_path / "empty")
    scenario = REPO / "examples" / "bank" / "eval" / "scenarios" / "card_replace_damaged.yml"
    assert rasa_schema.rasa_schema_errors(scenario) is None


def test_fetch_keeps_only_the_schema_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip is replaced by a fake that leaves a wheel; nothing leaves the machine."""
    commands: list[list[str]] = []

    def fake_pip(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        target = Path(command[command.index("-d") + 1])
        with zipfile.ZipFile(target / "rasa_pro-9.9.9-py3-none-any.whl", "w") as wheel:
            wheel.writestr(rasa_schema.SCHEMA_MEMBER, "mapping: {}\n")
            wheel.writestr(rasa_schema.EXTENSIONS_MEMBER, "# extensions\n")
            wheel.writestr("rasa/other.py", "x = 1\n")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(rasa_schema.subprocess, "run", fake_pip)
    fetched = rasa_schema.fetch_schema("9.9.9", tmp_path)
    assert "rasa-pro==9.9.9" in commands[0] and "--no-deps" in commands[0]
    assert sorted(p.name for p in (tmp_path / "9.9.9").iterdir()) == [
        "pykwalify_extensions.py",
        "scenario_schema.yml",
    ]
    assert fetched.schema.read_text() == "mapping: {}\n"
    assert rasa_schema.fetch_schema("9.9.9", tmp_path) == fetched  # cached: pip not run again
    assert len(commands) == 1


def test_a_failed_download_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution\n")

    monkeypatch.setattr(rasa_schema.subprocess, "run", failing)
    with pytest.raises(RuntimeError, match="No matching distribution"):
        rasa_schema.fetch_schema("0.0.1", tmp_path)
    assert not (tmp_path / "0.0.1").exists()


def test_scenario_files_skips_what_is_not_a_scenario() -> None:
    found = rasa_schema.scenario_files([REPO / "examples" / "bank"])
    names = {p.name for p in found}
    assert "card_replace_damaged.yml" in names
    assert "conftest.yml" not in names and "memory.yml" not in names
    assert all(p.parent.name == "scenarios" for p in found)


# --- against Rasa's schema (skipped when it is not cached) --------------------------------


@needs_rasa
def test_examples_and_generated_suites_are_valid_for_rasa() -> None:
    files = rasa_schema.scenario_files(list(rasa_schema.DEFAULT_PATHS))
    assert len(files) >= 5
    invalid = {str(f): rasa_schema.rasa_schema_errors(f) for f in files}
    assert {f: e for f, e in invalid.items() if e} == {}


def _with_expected(*items: Any) -> dict[str, Any]:
    data = case_with({"skill_activated": CR})
    data["scenario"]["goals"]["expected_tools"] = list(items)
    return data


AGREE: dict[str, dict[str, Any]] = {
    "clean-fixture": clean_case(),
    "bot-uttered-in-sequencing": case_with(
        {"sequencing": [{"skill_activated": CR}, {"bot_uttered": {"utter_name": "utter_greet"}}]}
    ),
    "memory-was-not-set-in-sequencing": case_with(
        {"sequencing": [{"memory_was_not_set": [{"name": "card_replace.shipping"}]}]}
    ),
    "map-memory-in-sequencing": case_with(
        {"sequencing": [{"memory_was_set": [{"name": "card_replace.shipping"}]}]}
    ),
    "bare-expected-tool": _with_expected("place_replacement_order"),
    "expected-tool-map": _with_expected({"tool_called": "place_replacement_order", "gate": True}),
    "expected-group": _with_expected(
        {"tool_group": [{"tool_called": "order_replacement"}, {"ordered": True}]}
    ),
    "group-item-with-two-keys": _with_expected(
        {"tool_group": [{"tool_called": "order_replacement", "gate": True}]}
    ),
    "ordered-on-a-single-tool": _with_expected(
        {"tool_called": "order_replacement", "ordered": True}
    ),
}


@needs_rasa
@pytest.mark.parametrize("data", AGREE.values(), ids=AGREE.keys())
def test_our_schema_agrees_with_rasas(data: dict[str, Any]) -> None:
    assert SCHEMA is not None
    ours = [f for f in check_data(data, MANTLE, bank_project()) if f.code == "schema"]
    theirs = rasa_schema.validate_data(data, SCHEMA)
    assert bool(ours) == bool(theirs), (ours, theirs)
