"""Agent Skills reader: `examples/skills` (base44) and a fixture with its own, misnamed skill."""

from __future__ import annotations

import json
import shutil
from pathlib import Path, PurePosixPath

import jsonschema
import pytest

from evalcore.definitions import Project, find_project, load_project, project_kind_of

REPO = Path(__file__).resolve().parents[1]
SKILLS = REPO / "examples" / "skills"
EVAL = SKILLS / "evals" / "todo-entities" / "eval.json"
MISMATCH = Path(__file__).parent / "fixtures" / "definitions" / "skills_mismatch"
SEED_SCHEMA = Path("/work/shared/seeds/base44-eval.schema.json")
BUNDLED_SCHEMA = REPO / "evalcore" / "dialects" / "base44" / "schema.json"


@pytest.fixture(scope="module")
def skills() -> Project:
    return load_project(SKILLS)


# --- examples/skills --------------------------------------------------------------------


def test_example_reads_without_warnings(skills: Project) -> None:
    assert skills.kind == "agent_skills"
    assert skills.warnings == []
    assert project_kind_of(SKILLS) == "agent_skills"
    assert find_project(EVAL) == SKILLS.resolve()


def test_skills(skills: Project) -> None:
    defs = skills.agent_skills
    assert set(defs.skills) == {"base44-cli", "base44-sdk"}
    cli = defs.skills["base44-cli"]
    assert cli.path == "skills/base44-cli"
    assert cli.frontmatter["name"] == "base44-cli"
    assert cli.frontmatter["metadata"] == {"sourcePackage": {"name": "base44", "version": "0.1.5"}}
    assert "create an entity" in cli.description
    assert cli.references == ["references/entities.md"]
    assert "base44/entities/<name>.jsonc" in cli.body
    assert "| WRONG | CORRECT |" in cli.body and "```jsonc" in cli.body
    sdk = defs.skills["base44-sdk"]
    assert sdk.references == [] and "entities.Todo.filter" in sdk.body


def test_fixture(skills: Project) -> None:
    fixtures = skills.agent_skills.fixtures
    assert [f.model_dump() for f in fixtures] == [
        {
            "path": "evals/todo-entities",
            "name": "todo-entities",
            "project_dir": "evals/todo-entities/project",
            "skills": [],
        }
    ]
    project = SKILLS / "evals" / "todo-entities" / "project"
    assert (project / "base44" / "config.jsonc").is_file()
    assert (project / "package.json").is_file()


def test_sources_include_references_not_eval_json(skills: Project) -> None:
    assert [s.path for s in skills.sources] == [
        "skills/base44-cli/SKILL.md",
        "skills/base44-cli/references/entities.md",
        "skills/base44-sdk/SKILL.md",
    ]


@pytest.mark.parametrize("schema_path", [SEED_SCHEMA, BUNDLED_SCHEMA], ids=["seed", "bundled"])
def test_eval_json_is_schema_valid(schema_path: Path) -> None:
    if not schema_path.is_file():
        pytest.skip(f"{schema_path} is not available")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    data = json.loads(EVAL.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(data))
    assert errors == [], [e.message for e in errors]


def test_eval_json_content(skills: Project) -> None:
    data = json.loads(EVAL.read_text(encoding="utf-8"))
    prompts = data["prompts"]
    assert len(prompts) >= 2
    checks = [c for p in prompts for c in p["checks"]]
    assert {"file-exists", "file-content", "file-content-excluded", "valid-json", "contains"} <= {
        c["type"] for c in checks
    }
    assert any(c["type"] == "file-content" and "pattern" in c for c in checks)
    for prompt in prompts:
        assert set(prompt["expectedSkills"]) <= set(skills.agent_skills.skills)
    for check in checks:
        if "filePath" in check:
            path = PurePosixPath(check["filePath"])
            assert not path.is_absolute() and ".." not in path.parts, check


# --- a fixture of our own: its skills, discovery rules and warnings ----------------------


@pytest.fixture
def mismatch(tmp_path: Path) -> Path:
    target = tmp_path / "mismatch"
    shutil.copytree(MISMATCH, target)
    hidden = target / ".cache" / "hidden"
    hidden.mkdir(parents=True)
    (hidden / "eval.json").write_text('{"name": "hidden", "description": "x"}', encoding="utf-8")
    return target


def test_fixture_discovery_rules(mismatch: Path) -> None:
    fixtures = load_project(mismatch).agent_skills.fixtures
    # Sorted; the dot-folder and the eval.json below a fixture are never found.
    assert [(f.path, f.name, f.project_dir, f.skills) for f in fixtures] == [
        ("evals/own", "own-fixture", "evals/own/project", ["other-name"]),
        ("evals/plain", "plain", None, []),
    ]


def test_fixture_skills_count_as_project_skills(mismatch: Path) -> None:
    skills = load_project(mismatch).agent_skills.skills
    assert set(skills) == {"good-skill", "other-name"}
    other = skills["other-name"]
    assert other.path == "evals/own/skills/other-name"
    assert other.frontmatter["name"] == "renamed-skill"
    assert other.frontmatter["allowed-tools"] == ["Read", "Write"]


def test_name_mismatch_and_unknown_key_warnings(mismatch: Path) -> None:
    warnings = load_project(mismatch).warnings
    assert warnings[0] == (
        "evals/own/skills/other-name/SKILL.md:5: unknown SKILL.md frontmatter key 'colour' "
        "(known: allowed-tools, compatibility, description, disable-model-invocation, license, "
        "metadata, name)"
    )
    assert warnings[1:] == [
        "evals/own/skills/other-name/SKILL.md:2: frontmatter name 'renamed-skill' differs from "
        "the folder name 'other-name'"
    ]


def test_skill_problems(mismatch: Path) -> None:
    (mismatch / "skills" / "good-skill" / "SKILL.md").write_text(
        "No frontmatter here.\n", encoding="utf-8"
    )
    bad = mismatch / "skills" / "Bad--Name"
    bad.mkdir()
    (bad / "SKILL.md").write_text(
        "---\nname: Bad--Name\ndescription: Use <this>\n---\nBody\n", encoding="utf-8"
    )
    (mismatch / "evals" / "plain" / "eval.json").write_text("{oops", encoding="utf-8")
    project = load_project(mismatch)
    assert (
        "skills/good-skill/SKILL.md:1: SKILL.md must start with a '---' line opening the "
        "YAML frontmatter" in project.warnings
    )
    assert (
        "skills/Bad--Name/SKILL.md:2: skill name 'Bad--Name' must be ≤64 characters of a-z, "
        "0-9 and single inner hyphens" in project.warnings
    )
    assert (
        "skills/Bad--Name/SKILL.md:3: description must be ≤1024 characters without < or >"
        in project.warnings
    )
    assert any(
        w.startswith("evals/plain/eval.json:1: eval.json cannot be read") for w in project.warnings
    )
    assert project.agent_skills.skills["good-skill"].body == "No frontmatter here.\n"


def test_an_eval_json_with_a_huge_integer_is_a_warning_not_a_crash(mismatch: Path) -> None:
    """Python refuses to parse integers of more than 4,300 digits (ValueError, not a
    JSONDecodeError): the project still loads and says which file it could not read."""
    (mismatch / "evals" / "plain" / "eval.json").write_text(
        '{"name": "plain", "n": ' + "9" * 5000 + "}", encoding="utf-8"
    )
    project = load_project(mismatch)
    assert any(
        w.startswith("evals/plain/eval.json:") and "cannot be read" in w and "digits" in w
        for w in project.warnings
    ), project.warnings
