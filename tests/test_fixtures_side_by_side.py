"""The side-by-side of two base44 fixture sets counts per skill from each prompt's
`expectedSkills`, reads both eval shapes (one top-level prompt, or `prompts`), and prints counts
only, never a prompt's or a check's words."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.__main__ import run
from benchmarks.fixtures_side_by_side import ALL, NO_SKILL, count, render, skill_order


def _write(path: Path, data: dict[str, object]) -> None:
    path.mkdir(parents=True, exist_ok=True)
    (path / "eval.json").write_text(json.dumps(data), encoding="utf-8")


def _check(kind: str) -> dict[str, str]:
    return {"type": kind, "description": "secret words", "filePath": "x.txt", "value": "y"}


def _two_sets(tmp_path: Path) -> tuple[Path, Path]:
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    _write(
        theirs / "fixtures" / "one",
        {
            "name": "one",
            "prompt": "make the widget secret words",
            "expectedSkills": ["alpha"],
            "checks": [_check("file-exists"), _check("file-content"), _check("file-content")],
        },
    )
    _write(
        theirs / "fixtures" / "two",
        {
            "name": "two",
            "prompts": [
                {
                    "prompt": "both",
                    "expectedSkills": ["beta", "alpha"],
                    "checks": [_check("contains")],
                },
                {"prompt": "beta only", "expectedSkills": ["beta"], "checks": []},
            ],
        },
    )
    _write(
        theirs / "fixtures" / "neg",
        {
            "name": "neg",
            "prompt": "unrelated",
            "expectedSkills": [],
            "checks": [_check("contains")],
        },
    )
    (theirs / "fixtures" / "two" / "project").mkdir()
    (theirs / "fixtures" / "two" / "project" / "package.json").write_text("{}")
    _write(
        ours / "alpha",
        {
            "name": "alpha-generated",
            "prompts": [
                {"prompt": "p1", "expectedSkills": ["alpha"], "checks": [_check("file-exists")]},
                {
                    "prompt": "p2",
                    "expectedSkills": ["alpha"],
                    "checks": [_check("file-content-excluded"), _check("file-exists")],
                },
            ],
        },
    )
    return theirs, ours


def test_counts_per_skill_from_each_prompts_expected_skills(tmp_path: Path) -> None:
    theirs, ours = _two_sets(tmp_path)
    got = count(theirs)
    assert (got["alpha"].fixtures, got["alpha"].prompts, got["alpha"].checks) == (2, 2, 4)
    assert (got["beta"].fixtures, got["beta"].prompts, got["beta"].checks) == (1, 2, 1)
    assert (got[NO_SKILL].fixtures, got[NO_SKILL].prompts, got[NO_SKILL].checks) == (1, 1, 1)
    # `all` counts the two-skill prompt once: 4 prompts, 5 checks, 3 fixtures.
    assert (got[ALL].fixtures, got[ALL].prompts, got[ALL].checks) == (3, 4, 5)
    assert got["alpha"].types == {"file-exists": 1, "file-content": 2, "contains": 1}
    assert got["alpha"].checks_per_prompt == 2.0
    mine = count(ours)
    assert (mine["alpha"].fixtures, mine["alpha"].prompts, mine["alpha"].checks) == (1, 2, 3)
    assert skill_order(got, mine) == ["alpha", "beta", NO_SKILL, ALL]


def test_the_table_shows_both_sides_and_no_text_of_either(tmp_path: Path) -> None:
    theirs, ours = _two_sets(tmp_path)
    a, b = count(theirs), count(ours)
    table = render(a, b, skill_order(a, b))
    assert "| alpha | 2 / 1 | 2 / 2 | 4 / 3 | 2.0 / 1.5 |" in table
    assert "| beta | 1 / 0 | 2 / 0 | 1 / 0 | 0.5 / 0.0 |" in table
    assert "| `file-content-excluded` | 0 / 1 | 0 / 0 | 0 / 0 | 0 / 1 |" in table
    assert "secret words" not in table and "widget" not in table


def test_the_command_prints_json_for_the_skills_asked(tmp_path: Path, capsys) -> None:
    theirs, ours = _two_sets(tmp_path)
    argv = ["fixtures-side-by-side", "--theirs", str(theirs), "--ours", str(ours)]
    assert run([*argv, "--skill", "alpha", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert list(payload) == ["alpha", ALL]
    assert payload["alpha"]["theirs"]["prompts"] == 2
    assert payload["alpha"]["ours"]["types"] == {"file-content-excluded": 1, "file-exists": 2}
