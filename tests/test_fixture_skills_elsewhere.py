"""A base44 fixture kept outside its Agent Skills project (`generate all --out DIR`, a copy)
still gets the project's skills installed for the agent, or the run stops saying which
skills it lacks; and `generate all --out DIR` writes every skill of a multi-skill project."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from evalcore.agents import UserTurn, parse_target
from evalcore.agents._command import discard_workdir
from evalcore.errors import UserError
from evalcore.runner import RunCase, collect_cases, no_skills_note

LISTER = """
import json, pathlib
here = pathlib.Path.cwd()
print(json.dumps(sorted(p.parent.name for p in (here / "skills").glob("*/SKILL.md"))))
"""


def _skills_project(root: Path) -> Path:
    """An Agent Skills project with two skills, each with a task a user asks for."""
    for name, task in (("csv-report", "summarise a CSV file"), ("git-notes", "write notes")):
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f'---\nname: {name}\ndescription: Use when the user says "{task}".\n---\n'
            f"# {name}\n\nHow to {task}.\n",
            "utf-8",
        )
    return root


def _fixture(folder: Path, expected: list[str]) -> Path:
    """A fixture (eval.json beside a project/) in `folder`, which is in no project."""
    (folder / "project").mkdir(parents=True)
    (folder / "project" / "README.md").write_text("starter\n", "utf-8")
    data = {
        "name": "report",
        "description": "Summarises the data file.",
        "prompt": "Summarise data.csv into report.md",
        "expectedSkills": expected,
        "checks": [{"type": "file-exists", "description": "the report", "filePath": "report.md"}],
    }
    (folder / "eval.json").write_text(json.dumps(data), "utf-8")
    return folder / "eval.json"


async def _installed(case: RunCase, tmp_path: Path) -> list[str]:
    """The skills the command agent finds in its project copy."""
    lister = tmp_path / "lister.py"
    lister.write_text(LISTER, "utf-8")
    target = parse_target(f'command:"{sys.executable} {lister} {{prompt}}"')
    session = await target.open(case, 1)
    await session.send(UserTurn(type="text", text=case.prompt or ""))
    final = await session.close()
    try:
        return json.loads(final.output)
    finally:
        discard_workdir(final)


async def test_project_option_installs_its_skills_for_a_fixture_kept_elsewhere(
    tmp_path: Path,
) -> None:
    root = _skills_project(tmp_path / "repo")
    case_file = _fixture(tmp_path / "elsewhere" / "report", ["csv-report"])
    [case] = collect_cases([case_file], project=root)
    assert await _installed(case, tmp_path) == ["csv-report", "git-notes"]


def test_a_missing_expected_skill_stops_the_run_naming_it(tmp_path: Path) -> None:
    case_file = _fixture(tmp_path / "elsewhere" / "report", ["csv-report"])
    with pytest.raises(UserError) as raised:
        collect_cases([case_file])
    message = str(raised.value)
    assert "csv-report" in message and str(case_file) in message
    assert "--project" in (raised.value.hint or "")
    root = _skills_project(tmp_path / "repo")  # a project without the skill is no better
    missing = _fixture(tmp_path / "elsewhere" / "other", ["sql-tuning"])
    with pytest.raises(UserError, match="sql-tuning"):
        collect_cases([missing], project=root)


def test_a_fixture_with_no_skills_at_all_is_named_in_a_note(tmp_path: Path, run_cli) -> None:
    case_file = _fixture(tmp_path / "elsewhere" / "report", [])
    cases = collect_cases([case_file])
    note = no_skills_note(cases)
    assert note is not None and cases[0].slug in note
    agent = f"command:{sys.executable} -c pass {{prompt}}"
    _, _, err = run_cli("run", case_file, "-t", agent, "--results", tmp_path / "r")
    assert "no Agent Skills are installed" in " ".join(err.split())
    _, out, _ = run_cli("run", case_file, "-t", agent, "--results", tmp_path / "r", "--json")
    assert json.loads(out)["no_skills"] == note
    root = _skills_project(tmp_path / "repo")
    assert no_skills_note(collect_cases([case_file], project=root)) is None


def test_generate_all_out_writes_every_skill_and_their_runs_get_the_skills(
    tmp_path: Path, run_cli_json, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    root = _skills_project(tmp_path / "repo")
    out = tmp_path / "out"
    code, report = run_cli_json(
        "generate", "all", "--project", root, "--model", "offline", "--out", out
    )
    assert code == 0, report
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("eval.json"))
    assert written == ["csv-report/eval.json", "git-notes/eval.json"]
    assert not report.get("conflicts")
    # Run from the output folder, outside the project: the manifest names the project.
    [case, *_] = collect_cases([out / "csv-report" / "eval.json"])
    assert asyncio.run(_installed(case, tmp_path)) == ["csv-report", "git-notes"]
