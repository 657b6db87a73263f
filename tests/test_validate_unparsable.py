"""`validate DIR`: a YAML file in the folder that does not parse is an error finding, never
left out of the count (a case nobody can read is not a pass)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

BROKEN = {
    "syntax.yml": "scenario:\n  name: [unclosed\n  - x: :\n",
    "loop.yaml": "a: &x [*x]\n",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_folder_with_an_unparsable_yaml_file_fails(tmp_path: Path, run_cli, name: str) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    good = EXAMPLES / "bank" / "eval" / "scenarios" / "card_replace_stolen.yml"
    shutil.copy(good, cases / good.name)
    (cases / name).write_text(BROKEN[name], encoding="utf-8")
    code, out, _ = run_cli("validate", cases, "--project", EXAMPLES / "bank")
    assert code == 1, out
    assert name in out and "[parse]" in out
    assert "1/2 files valid, 1 invalid" in out


def test_json_settings_that_do_not_parse_are_not_cases(tmp_path: Path, run_cli) -> None:
    """A JSON file may be any tool's settings (with comments): only YAML counts as a case."""
    cases = tmp_path / "cases"
    cases.mkdir()
    good = EXAMPLES / "bank" / "eval" / "scenarios" / "card_replace_stolen.yml"
    shutil.copy(good, cases / good.name)
    (cases / "tsconfig.json").write_text("{ // comment\n}", encoding="utf-8")
    code, out, _ = run_cli("validate", cases, "--project", EXAMPLES / "bank")
    assert code == 0, out
    assert "1/1 files valid" in out
