"""base44 fixtures install the project's Agent Skills into the agent's copy of `project/`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evalcore.agents import UserTurn, parse_target
from evalcore.agents._command import discard_workdir
from evalcore.agents._fixture_context import CONTEXT_KEY, FixtureContext, skill_sources
from evalcore.runner import RunCase

LISTER = """
import json, pathlib, sys
here = pathlib.Path.cwd()
found = {
    where: sorted(p.parent.name for p in (here / where).glob("*/SKILL.md"))
    for where in ("skills", ".claude/skills")
}
refs = sorted(str(p.relative_to(here)) for p in here.rglob("references/*.md"))
sdk = (here / ".claude/skills/base44-sdk/SKILL.md").read_text()
print(json.dumps({"found": found, "refs": refs, "sdk": sdk}))
"""


def _skill(folder: Path, name: str, body: str = "") -> Path:
    (folder / name).mkdir(parents=True)
    (folder / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Use for {name} work.\n---\n{body}\n", "utf-8"
    )
    return folder / name


def _project(tmp_path: Path) -> Path:
    """An Agent Skills project: two root skills, one fixture with a skill of its own."""
    root = tmp_path / "repo"
    cli = _skill(root / "skills", "base44-cli", "root copy")
    (cli / "references").mkdir()
    (cli / "references" / "entities.md").write_text("# entities\n", "utf-8")
    (tmp_path / "secret.txt").write_text("do not copy", "utf-8")
    (cli / "leak.txt").symlink_to(tmp_path / "secret.txt")
    _skill(root / "skills", "base44-sdk", "root sdk")
    fixture = root / "evals" / "todo"
    project = fixture / "project"
    project.mkdir(parents=True)
    (project / "package.json").write_text('{"name": "todo"}', "utf-8")
    _skill(fixture / "skills", "base44-cli", "fixture copy")  # the project's own wins
    _skill(fixture / "skills", "todo-helper", "fixture only")
    # The fixture's project already ships its own Claude copy of one skill: kept as it is.
    _skill(project / ".claude" / "skills", "base44-sdk", "the fixture's own")
    (fixture / "eval.json").write_text('{"name": "todo", "description": "x"}', "utf-8")
    (tmp_path / "lister.py").write_text(LISTER, "utf-8")
    return fixture


def _case(fixture: Path, **setup: object) -> RunCase:
    return RunCase(
        slug="todo-skills",
        name="skills",
        dialect="base44",
        path=str(fixture / "eval.json"),
        setup={"fixture": str(fixture), **setup},
        checks={"checks": [], "expectedSkills": []},
        prompt="list the skills",
    )


async def _run(case: RunCase, lister: Path):
    target = parse_target(f'command:"{sys.executable} {lister} {{prompt}}"')
    session = await target.open(case, 1)
    await session.send(UserTurn(type="text", text=case.prompt))
    return await session.close()


def test_sources_are_the_projects_skills_then_the_fixtures_own(tmp_path: Path) -> None:
    fixture = _project(tmp_path)
    sources = skill_sources(fixture)
    assert sorted(sources) == ["base44-cli", "base44-sdk", "todo-helper"]
    assert sources["base44-cli"] == (tmp_path / "repo" / "skills" / "base44-cli").resolve()
    assert sources["todo-helper"].parent == (fixture / "skills").resolve()


async def test_the_agent_sees_the_skills_where_it_reads_them(tmp_path: Path) -> None:
    fixture = _project(tmp_path)
    final = await _run(_case(fixture), tmp_path / "lister.py")
    try:
        seen = json.loads(final.output)
        workdir = Path(final.workdir)
        assert seen["found"] == {
            "skills": ["base44-cli", "base44-sdk", "todo-helper"],
            ".claude/skills": ["base44-cli", "base44-sdk", "todo-helper"],
        }
        assert "root copy" in (workdir / "skills" / "base44-cli" / "SKILL.md").read_text()
        assert "the fixture's own" in seen["sdk"]  # not overwritten by the project's copy
        assert "skills/base44-cli/references/entities.md" in seen["refs"]
        assert ".claude/skills/base44-cli/references/entities.md" in seen["refs"]
        assert not (workdir / "skills" / "base44-cli" / "leak.txt").exists()
        assert final.meta["skills_installed"] == ["base44-cli", "base44-sdk", "todo-helper"]
        # Installed before the agent ran: they are not files the agent created.
        assert not any("SKILL.md" in p for p in final.meta["files_created"])
        assert "skills/todo-helper/SKILL.md" in final.files
    finally:
        discard_workdir(final)
    assert not (fixture / "project" / "skills").exists()  # the fixture itself is untouched


async def test_a_shipped_context_is_used_instead_of_looking_around(tmp_path: Path) -> None:
    """A Ray worker gets the context resolved by the driver; it names its own skill copies."""
    fixture = _project(tmp_path)
    elsewhere = _skill(tmp_path / "shipped", "only-shipped", "from the driver")
    context = FixtureContext(
        max_output_bytes=1000, pass_env=[], vocabulary={}, skills={"only-shipped": str(elsewhere)}
    )
    restored = FixtureContext.from_json(json.loads(json.dumps(context.to_json())))
    assert restored == context
    final = await _run(_case(fixture, **{CONTEXT_KEY: context.to_json()}), tmp_path / "lister.py")
    try:
        seen = json.loads(final.output)
        assert seen["found"]["skills"] == ["only-shipped"]
        assert final.meta["skills_vocabulary"] == []
    finally:
        discard_workdir(final)


def test_a_fixture_outside_any_skills_project_installs_its_own(tmp_path: Path) -> None:
    fixture = tmp_path / "lonely"
    (fixture / "project").mkdir(parents=True)
    assert FixtureContext.resolve(fixture).skills == {}
    _skill(fixture / "skills", "mine")
    assert list(FixtureContext.resolve(fixture).skills) == ["mine"]
