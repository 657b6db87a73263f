"""Bad definition files are reader warnings with file and line, never a crash."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

from evalcore.definitions import load_project


@pytest.fixture
def clinic(tmp_path: Path) -> Path:
    root = tmp_path / "clinic"
    shutil.copytree(EXAMPLES / "clinic", root)
    tools = root / "tools.yml"
    tools.write_text(
        tools.read_text().replace(
            "      phone: {type: string, description: Phone number in E.164 form.}\n",
            "      phone: {type: string, description: Phone number in E.164 form.}\n"
            "      12: {type: string}\n",
        )
    )
    book = root / "playbooks/book.yml"
    book.write_text(
        book.read_text().replace("      - slot: 1\n", "      - slot: 1\n      - 5: hi\n", 1)
    )
    return root


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", root)
    memory = root / "skills/card_replace/memory.yml"
    memory.write_text(
        memory.read_text().replace(
            "enum_values: [lost, stolen, damaged, not_received]",
            "enum_values: [lost, stolen, damaged, {not_received: 1}]",
        )
    )
    tools = root / "skills/card_replace/tools.py"
    tools.write_text(tools.read_text() + "\nX = " + "+".join(["1"] * 100_000) + "\n")
    return root


def test_non_string_keys_are_warnings_with_lines(clinic: Path) -> None:
    project = load_project(clinic)
    assert "tools.yml:6: key 12 is not a name; read as '12'" in project.warnings
    assert any(w.startswith("playbooks/book.yml:") and "key 5" in w for w in project.warnings)
    assert "book" in project.anychat.playbooks  # the rest of the project still loads
    assert "lookup_patient" in project.anychat.tools


def test_bad_enum_values_and_deep_python_are_warnings(bank: Path) -> None:
    project = load_project(bank)
    warnings = "\n".join(project.warnings)
    assert "skills/card_replace/memory.yml:" in warnings and "enum_values holds only" in warnings
    assert "skills/card_replace/tools.py: Python source is nested too deeply" in warnings
    skill = project.mantle.skills["card_replace"]
    assert skill.memory["replacement_reason"].enum_values == ["lost", "stolen", "damaged"]


@pytest.mark.parametrize("command", ["sources", "generate", "validate"])
def test_commands_still_work_on_bad_definitions(
    command: str, bank: Path, clinic: Path, tmp_path: Path, run_cli
) -> None:
    for root, target in ((bank, "card_replace"), (clinic, "book")):
        args = {
            "sources": ("sources", "--project", root),
            "generate": (
                "generate",
                target,
                "--project",
                root,
                "--model",
                "offline",
                "--out",
                tmp_path / f"out-{target}",
            ),
            "validate": (
                "validate",
                root / ("eval" if root == bank else "cases"),
                "--project",
                root,
            ),
        }[command]
        code, out, err = run_cli(*args, "--json")
        assert "Traceback" not in err, err
        assert code in (0, 1), err
        assert isinstance(json.loads(out), dict)
