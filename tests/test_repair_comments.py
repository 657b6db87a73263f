"""`casegen repair` never drops a reviewer's comments silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES

from evalcore.yamlio import has_comments

BANK = EXAMPLES / "bank"
STOLEN = BANK / "eval/scenarios/card_replace_stolen.yml"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Reviewed by Ana\na: 1\n", True),
        ("a: 1  # keep\n", True),
        ('a: "x # not a comment"\n', False),
        ("a: |\n  line # text\n  # still text\n", False),
        ("a: x#y\n", False),
        ("a: 1\n", False),
    ],
)
def test_has_comments(text: str, expected: bool) -> None:
    assert has_comments(text) is expected


def _broken(tmp_path: Path, header: str) -> Path:
    case = tmp_path / "case.yml"
    text = STOLEN.read_text().replace("skill_id: card_replace", "skill_id: card_replac")
    case.write_text(header + text)
    return case


def test_commented_file_is_not_rewritten_without_force(tmp_path: Path, run_cli) -> None:
    case = _broken(tmp_path, "# Reviewed by Ana, 2026-11-30\n")
    before = case.read_text()
    code, out, _ = run_cli("repair", case, "--project", BANK, "--json")
    [record] = json.loads(out)["files"]
    assert case.read_text() == before
    assert code == 1 and record["written"] is False and "--force" in record["skipped"]
    assert record["repairs"]  # what would be fixed is still reported

    code, out, _ = run_cli("repair", case, "--project", BANK)
    assert code == 1 and "comments" in out and case.read_text() == before

    code, out, _ = run_cli("repair", case, "--project", BANK, "--force", "--json")
    assert code == 0 and json.loads(out)["files"][0]["written"] is True
    assert "Reviewed by" not in case.read_text()
    assert "skill_id: card_replace\n" in case.read_text()


def test_uncommented_file_is_repaired_as_before(tmp_path: Path, run_cli) -> None:
    case = _broken(tmp_path, "")
    code, out, _ = run_cli("repair", case, "--project", BANK, "--json")
    [record] = json.loads(out)["files"]
    assert code == 0 and record["written"] is True and record["skipped"] is None
