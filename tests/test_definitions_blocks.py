"""Block-level `tools:` and `complete_when` in ordered blocks: read into `Block`, not warned
about as unknown keys, and a block tool the skill cannot call is named in a warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evalcore.definitions import load_project, rasa_errors

MINI = Path(__file__).parent / "fixtures" / "definitions" / "mini_mantle"

_SKILL = """---
description: Check an order's status.
import_tools:
  - lookup_customer
  - mcp/crm:get_cards
---
Run @block.main.

:::ordered_block id=main
tools:
{tools}
complete_when: {complete_when}
steps:
  - id: ask
    instructions: Ask for the order and look it up.
    complete_when: session.order_status.order_id
:::
"""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "bank"
    shutil.copytree(MINI, target)
    return target


def _write_skill(root: Path, tools: str, complete_when: str) -> None:
    folder = root / "skills" / "order_status"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(
        _SKILL.format(tools=tools, complete_when=complete_when), encoding="utf-8"
    )
    (folder / "tools.py").write_text(
        "from rasa.mantle.tools.decorator import tool\n\n\n"
        "@tool\ndef find_order(order_id: str) -> dict:\n    return {}\n",
        encoding="utf-8",
    )


def _warnings(project_warnings: list[str]) -> list[str]:
    """The reader's own warnings on the skill (Rasa's project check left aside)."""
    rasa = set(rasa_errors(project_warnings))
    return [w for w in project_warnings if w.startswith("skills/order_status/") and w not in rasa]


def test_block_tools_and_complete_when_are_read_without_warnings(copy: Path) -> None:
    tools = "  - find_order\n  - lookup_customer\n  - get_cards\n  - search_knowledge"
    _write_skill(copy, tools, "session.order_status.order_id")
    project = load_project(copy)
    block = project.mantle.skills["order_status"].blocks["main"]
    assert block.tools == ["find_order", "lookup_customer", "get_cards", "search_knowledge"]
    assert block.complete_when == "session.order_status.order_id"
    assert _warnings(project.warnings) == []
    # Rasa offers a framework tool only as an `@tool.x` prose token, never as a block gate.
    [refused] = [w for w in rasa_errors(project.warnings) if "order_status" in w]
    assert (
        "[mantle.validation.tools.unresolved_tool]" in refused and "'search_knowledge'" in refused
    )


def test_block_complete_when_as_a_map(copy: Path) -> None:
    _write_skill(
        copy,
        "  - find_order",
        "{condition: session.order_status.order_id, criteria: [The order is found.]}",
    )
    block = load_project(copy).mantle.skills["order_status"].blocks["main"]
    assert block.complete_when == {
        "condition": "session.order_status.order_id",
        "criteria": ["The order is found."],
    }


def test_unknown_and_unimported_block_tools_are_warned_about(copy: Path) -> None:
    # `lookup_customer` is a shared tool; this skill imports it, so drop the import first.
    _write_skill(copy, "  - find_ordr\n  - lookup_customer", "session.order_status.order_id")
    skill_md = copy / "skills" / "order_status" / "skill.md"
    skill_md.write_text(
        skill_md.read_text(encoding="utf-8").replace("  - lookup_customer\n  - mcp", "  - mcp"),
        encoding="utf-8",
    )
    warnings = _warnings(load_project(copy).warnings)
    assert warnings == [
        "skills/order_status/skill.md:8: ordered block 'main': tool 'find_ordr' in 'tools': "
        "no such tool (the skill's tools: find_order, get_cards, mcp/crm:get_cards)",
        "skills/order_status/skill.md:8: ordered block 'main': tool 'lookup_customer' in "
        "'tools': 'lookup_customer' is a shared tool: list it in the skill's 'import_tools'",
    ]


def test_bad_block_key_shapes_are_warned_about(copy: Path) -> None:
    _write_skill(copy, "  - {name: find_order}", "[a, b]")
    project = load_project(copy)
    block = project.mantle.skills["order_status"].blocks["main"]
    assert (block.tools, block.complete_when) == ([], None)
    warnings = _warnings(project.warnings)
    assert any("a tool in 'tools' is a name" in w for w in warnings), warnings
    assert any("'complete_when' is a condition or {condition, criteria}" in w for w in warnings)


def test_other_block_keys_are_still_unknown(copy: Path) -> None:
    _write_skill(copy, "  - find_order", "session.order_status.order_id")
    skill_md = copy / "skills" / "order_status" / "skill.md"
    text = skill_md.read_text(encoding="utf-8").replace(
        "id=main\ntools:", "id=main\ntoolz: []\ntools:"
    )
    skill_md.write_text(text, encoding="utf-8")
    warnings = _warnings(load_project(copy).warnings)
    assert len(warnings) == 1 and "unknown ordered block 'main' key 'toolz'" in warnings[0]
    assert "known: complete_when, name, steps, tools" in warnings[0]
