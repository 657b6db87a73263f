"""`command:` target: private project copy, prompt quoting, files, skills, timeout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from evalcore.agents import FinalRecord, UserTurn, parse_target
from evalcore.agents._command import discard_workdir
from evalcore.agents._errors import AgentError, AgentTimeout
from evalcore.agents._skills import detect_skills, load_vocabulary, parse_stream
from evalcore.errors import ConfigError, UserError
from evalcore.runner import RunCase

CODER = Path(__file__).with_name("scripted_coder.py")
PROMPT = """Create the Todo entity; don't "break" $(rm -rf /) it's `fine` & done"""


def _fixture(tmp_path: Path, *, with_project: bool = True) -> Path:
    fixture = tmp_path / "fixtures" / "todo"
    project = fixture / "project" if with_project else fixture
    (project / "src").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"permissions": {}}', "utf-8")
    (project / "package.json").write_text('{"name": "todo"}', "utf-8")
    (project / "src" / "app.js").write_text("export {}\n", "utf-8")
    (fixture / "eval.json").write_text('{"name": "todo", "description": "x"}', "utf-8")
    (fixture / "AGENTS.md").write_text("secret notes", "utf-8")
    (tmp_path / "outside.txt").write_text("outside", "utf-8")
    (project / "escape.txt").symlink_to(tmp_path / "outside.txt")
    (project / "inside.txt").symlink_to(project / "package.json")
    return fixture


def _case(fixture: Path, expected: list[str] | None = None) -> RunCase:
    return RunCase(
        slug="todo-entities-schema",
        name="schema",
        dialect="base44",
        path=str(fixture / "eval.json"),
        setup={"fixture": str(fixture)},
        checks={"checks": [], "expectedSkills": expected or []},
        prompt=PROMPT,
    )


def _spec(mode: str) -> str:
    return f'command:"{sys.executable} {CODER} {mode} {{prompt}}"'


async def _run(spec: str, case: RunCase, **kwargs) -> FinalRecord:
    target = parse_target(spec, **kwargs)
    session = await target.open(case, 1)
    await session.send(UserTurn(type="start", setup=case.setup))
    reply = await session.send(UserTurn(type="text", text=case.prompt))
    assert reply.ended
    return await session.close()


async def test_agent_sees_only_a_copy_of_project(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path)
    final = await _run(_spec("stream"), _case(fixture, ["base44-cli"]))
    try:
        workdir = Path(final.workdir)
        assert workdir.name == "project" and not workdir.is_relative_to(tmp_path)
        seen = json.loads(final.files["seen.json"])
        assert seen["parent"] == ["project"]  # nothing beside or above the project
        assert "eval.json" not in seen["here"] and "AGENTS.md" not in seen["here"]
        assert "escape.txt" not in seen["here"]  # a link leading outside is left out
        assert final.files["inside.txt"] == '{"name": "todo"}'  # links inside are copied
        assert final.files["prompt.txt"] == PROMPT  # quoted: no shell expansion
        assert (fixture / "project" / "src" / "app.js").is_file()
        assert not (fixture / "project" / "prompt.txt").exists()  # the original is untouched
    finally:
        discard_workdir(final)
    assert not Path(final.workdir).exists()
    assert not Path(final.workdir).parent.exists()


async def test_stream_output_files_and_skills(tmp_path: Path) -> None:
    final = await _run(_spec("stream"), _case(_fixture(tmp_path), ["base44-cli"]))
    discard_workdir(final)
    assert final.output.startswith("Done: base44/entities/todo.jsonc.")
    assert final.meta["skills_detected_by"] == "stream"
    # A Skill tool use and a read of a SKILL.md count; a mention in a tool result does not.
    assert final.meta["skills_invoked"] == ["base44-cli", "base44-sdk"]
    assert final.meta["exit_code"] == 0
    assert "base44/entities/todo.jsonc" in final.files
    assert "blob.bin" not in final.files and "blob.bin" in final.meta["files_not_read"]
    assert final.meta["files_created"] == [
        "base44/entities/todo.jsonc",
        "blob.bin",
        "prompt.txt",
        "seen.json",
    ]
    assert final.meta["files_modified"] == [] and final.meta["files_deleted"] == []
    assert final.meta["stream_records"] == 6


async def test_plain_output_uses_vocabulary(tmp_path: Path) -> None:
    final = await _run(_spec("text"), _case(_fixture(tmp_path), ["base44-cli"]))
    discard_workdir(final)
    assert final.output.startswith("Created the entity.")
    assert final.meta["skills_detected_by"] == "vocabulary"
    assert final.meta["skills_invoked"] == ["base44-cli"]


async def test_configured_vocabulary_and_none(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.casegen.skills.todo-helper]\nvocabulary = ["entity\\\\b", "upload"]\n', "utf-8"
    )
    final = await _run(_spec("text"), _case(fixture, ["todo-helper"]))
    discard_workdir(final)
    assert final.meta["skills_detected_by"] == "vocabulary"
    assert final.meta["skills_invoked"] == ["base44-cli", "todo-helper"]
    final = await _run(_spec("text"), _case(fixture, ["unknown-skill"]))
    discard_workdir(final)
    assert final.meta["skills_detected_by"] == "none"
    assert final.meta["skills_invoked"] == []


async def test_failing_command_is_recorded_not_raised(tmp_path: Path) -> None:
    final = await _run(_spec("fail"), _case(_fixture(tmp_path)))
    discard_workdir(final)
    assert final.meta["exit_code"] == 3
    assert final.output == "npm ERR! missing script\n"  # stdout empty: stderr, as the original


async def test_timeout_kills_the_agent(tmp_path: Path) -> None:
    target = parse_target(_spec("sleep"), timeout_s=0.5)
    session = await target.open(_case(_fixture(tmp_path)), 1)
    with pytest.raises(AgentTimeout, match=r"longer than 0\.5s"):
        await session.send(UserTurn(type="text", text="go"))
    discard_workdir(str(session.workdir))


async def test_fixture_without_project_folder_hides_eval_json(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path, with_project=False)
    target = parse_target(_spec("text"))
    session = await target.open(_case(fixture), 1)
    final = await session.close()  # no text turn: the case prompt is used
    discard_workdir(final)
    seen = json.loads(final.files["seen.json"])
    assert "eval.json" not in seen["here"] and "AGENTS.md" in seen["here"]
    assert final.files["prompt.txt"] == PROMPT


async def test_one_prompt_per_run_and_text_only(tmp_path: Path) -> None:
    target = parse_target(_spec("text"))
    session = await target.open(_case(_fixture(tmp_path)), 1)
    with pytest.raises(AgentError, match="one text prompt"):
        await session.send(UserTurn(type="chip", chip="x"))
    await session.send(UserTurn(type="text", text="a"))
    with pytest.raises(AgentError, match="second text turn"):
        await session.send(UserTurn(type="text", text="b"))
    discard_workdir(str(session.workdir))


async def test_case_without_fixture_is_refused() -> None:
    target = parse_target(_spec("text"))
    case = RunCase(slug="x", name="x", dialect="anychat", path="x.json")
    with pytest.raises(UserError, match="no fixture"):
        await target.open(case, 1)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("command:", "needs a command line"),
        ('command:"claude -p"', r"no \{prompt\} placeholder"),
    ],
)
def test_command_spec_errors(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_target(spec)


def test_stream_detection_is_not_fooled_by_json_answers() -> None:
    entity = json.dumps({"name": "Todo", "type": "object", "properties": {}})
    assert parse_stream(entity + "\n") is None
    assert parse_stream("plain text\n") is None
    stream = parse_stream(
        '{"skill": "my-skill"}\n{"type": "item.completed", "item": '
        '{"type": "command_execution", "command": "cat skills/x-y/SKILL.md"}}'
    )
    assert stream is not None and stream.skills == ["my-skill", "x-y"]
    assert detect_skills(stream, "", {}) == (["my-skill", "x-y"], "stream")


def test_bad_vocabulary_config_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "casegen.toml").write_text('[skills.x]\nvocabulary = ["(unclosed"]\n', "utf-8")
    with pytest.raises(ConfigError, match="bad regex"):
        load_vocabulary(tmp_path)
    (tmp_path / "casegen.toml").write_text('[skills.x]\nvocabulary = "word"\n', "utf-8")
    with pytest.raises(ConfigError, match="list of strings"):
        load_vocabulary(tmp_path)
