"""base44 checks against a temp project left by a scripted coding agent (docs/checks.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from evalcore.agents import FinalRecord, UserTurn, parse_target
from evalcore.agents._command import discard_workdir
from evalcore.runner import RunCase
from evalcore.runner.checks._base44 import check_types, evaluate_base44
from evalcore.runner.checks._jsontext import JsonTextError, extract_json, loads, strip_jsonc

CODER = Path(__file__).with_name("scripted_coder.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder as an agent might leave it."""
    root = tmp_path / "project"
    files = {
        "base44/entities/todo.jsonc": (CODER.parent / "scripted_coder.py")
        .read_text("utf-8")
        .split('TODO = """', 1)[1]
        .split('"""', 1)[0],
        "base44/entities/bad.jsonc": '{"name": "Bad", "properties": {"due": {"type": "date"}},'
        ' "fields": {}}',
        "base44/agents/order_assistant.jsonc": json.dumps(
            {
                "name": "order_assistant",
                "description": "Helps with orders",
                "instructions": "Be brief.",
                "tool_configs": [
                    {"entity_name": "Order", "allowed_operations": ["read"]},
                    {"function_name": "cancel_order", "description": "Cancel"},
                ],
            }
        ),
        "base44/functions/cancel-order/function.jsonc": '{"name": "cancel-order", '
        '"entrypoint": "index.ts"}',
        "base44/functions/cancel-order/index.ts": "Deno.serve(async (req) => {\n"
        "  const body = await req.json();\n"
        "  return Response.json({ok: true});\n});\n",
        "data/config.json": '{"mode": "prod", "port": 8080, "tags": ["a"]}',
        "data/commented.json": '{"a": 1 // note\n}',
        "data/nan.json": '{"a": NaN}',
        "data/empty.json": "",
        "data/broken.json": '{\n  "a": 1\n  "b": 2\n}',
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


def _final(project: Path, output: str = "", **meta: Any) -> FinalRecord:
    return FinalRecord(output=output, workdir=str(project), meta=meta)


def _one(check: dict[str, Any], final: FinalRecord) -> tuple[bool, str]:
    result = evaluate_base44({"checks": [check], "expectedSkills": []}, final)[0]
    assert result.index == 0 and result.type == check.get("type", "invalid")
    return result.passed, result.detail


ANSWER = """Created the files.

```bash
npx base44 entities push
```

```jsonc
// the entity
{"name": "Todo", "count": 2, "url": "https://x.y//z",}
```
and also {"other": true}
"""

TABLE = [
    # contains: case-insensitive over the answer
    ({"type": "contains", "value": "ENTITIES PUSH"}, True, "the answer contains"),
    ({"type": "contains", "value": "deploy"}, False, "'deploy' not in the answer"),
    ({"type": "contains", "value": ""}, False, "cannot check: needs `value`"),
    # file-exists: a file, inside the project
    ({"type": "file-exists", "filePath": "base44/entities/todo.jsonc"}, True, "exists"),
    ({"type": "file-exists", "filePath": "base44/entities"}, False, "is a directory"),
    (
        {"type": "file-exists", "filePath": "base44/entities/todos.jsonc"},
        False,
        "did you mean base44/entities/todo.jsonc",
    ),
    ({"type": "file-exists", "filePath": "../eval.json"}, False, "leaves the project"),
    ({"type": "file-exists", "filePath": "/etc/passwd"}, False, "must be relative"),
    # file-content: pattern (flags default i) and/or exact value
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r'"name"\s*:\s*"todo"',
        },
        True,
        '/"name"\\s*:\\s*"todo"/i at line 3',
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r'"name"\s*:\s*"todo"',
            "flags": "",
        },
        False,
        "has no match",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r"^\s*\"required\"",
            "flags": "im",
        },
        True,
        "line 12",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r"(?<key>title).*\k<key>",
            "flags": "is",
        },
        True,
        "matches",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r"(?<key>title).*\k<key>",
            "flags": "i",
        },
        False,
        "has no match",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r"(?<q>\")title\k<q>",
        },
        True,
        "matches",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "value": '"type": "object"',
        },
        True,
        'matches \'"type": "object"\' at line 4',
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "value": '"TYPE": "object"',
        },
        False,
        'has no match for \'"TYPE": "object"\'',
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": "priority",
            "value": "PRIORITY",
        },
        False,
        "has no match for 'PRIORITY'",
    ),
    (
        {"type": "file-content", "filePath": "base44/entities/todo.jsonc"},
        False,
        "needs `pattern` or `value`",
    ),
    (
        {"type": "file-content", "filePath": "missing.js", "pattern": "x"},
        False,
        "missing.js does not exist",
    ),
    (
        {"type": "file-content", "filePath": "missing.js", "pattern": "(x"},
        False,
        "bad regular expression",
    ),
    (
        {
            "type": "file-content",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": "x",
            "flags": "g",
        },
        False,
        "`flags` must be letters from imsx",
    ),
    # file-content-excluded: a missing file passes
    (
        {
            "type": "file-content-excluded",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r'"fields"\s*:',
        },
        True,
        "has no match",
    ),
    (
        {
            "type": "file-content-excluded",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": r'"TYPE"\s*:\s*"object"',
        },
        False,
        "contains /",
    ),
    (
        {"type": "file-content-excluded", "filePath": "src/Nope.jsx", "pattern": r"Todo\.find\("},
        True,
        "does not exist, so it cannot contain",
    ),
    # valid-json: JSONC aware of strings
    ({"type": "valid-json", "filePath": "base44/entities/todo.jsonc"}, True, "valid JSON/JSONC"),
    (
        {"type": "valid-json", "filePath": "data/commented.json", "strict": True},
        False,
        "is not valid JSON: line 1 column 9",
    ),
    ({"type": "valid-json", "filePath": "data/nan.json"}, False, "NaN is not JSON"),
    ({"type": "valid-json", "filePath": "data/empty.json"}, False, "empty"),
    (
        {"type": "valid-json", "filePath": "data/broken.json"},
        False,
        "line 3 column 3: Expecting ',' delimiter",
    ),
    # json-schema: the file when filePath is given, full JSON Schema
    (
        {
            "type": "json-schema",
            "filePath": "data/config.json",
            "schema": {
                "type": "object",
                "required": ["mode"],
                "additionalProperties": False,
                "properties": {
                    "mode": {"enum": ["dev", "prod"]},
                    "port": {"type": "integer"},
                    "tags": {"type": "array", "items": {"pattern": "^[a-z]+$"}},
                },
            },
        },
        True,
        "data/config.json matches the schema",
    ),
    (
        {
            "type": "json-schema",
            "filePath": "data/config.json",
            "schema": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "mode": {"enum": ["dev", "staging"]},
                    "tags": {"type": "array", "items": {"pattern": "^[0-9]+$"}},
                },
            },
        },
        False,
        "(root): Additional properties are not allowed ('port' was unexpected); "
        "/mode: 'prod' is not one of ['dev', 'staging']; /tags/0: 'a' does not match",
    ),
    (
        {
            "type": "json-schema",
            "schema": {
                "type": "object",
                "required": ["name", "count"],
                "properties": {"count": {"type": "integer", "minimum": 1}},
            },
        },
        True,
        "the answer (a fenced block) matches the schema",
    ),
    (
        {"type": "json-schema", "schema": {"type": "object", "required": ["other"]}},
        False,
        "'other' is a required property",
    ),
    (
        {
            "type": "json-schema",
            "filePath": "data/config.json",
            "schema": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "properties": {"when": {"format": "date"}, "port": {"maximum": 80}},
            },
        },
        False,
        "/port: 8080 is greater than the maximum of 80",
    ),
    (
        {"type": "json-schema", "filePath": "data/config.json", "schema": {"type": "nope"}},
        False,
        "`schema` is not a valid JSON Schema",
    ),
    # config checks
    (
        {"type": "entity-config", "filePath": "base44/entities/todo.jsonc", "target": "file"},
        True,
        "base44/entities/todo.jsonc is valid",
    ),
    (
        {"type": "entity-config", "filePath": "base44/entities/bad.jsonc", "target": "file"},
        False,
        "/properties/due/type: 'date' is not one of",
    ),
    (
        {
            "type": "entity-config",
            "filePath": "base44/entities/bad.jsonc",
            "target": "file",
            "expectedValid": False,
        },
        True,
        "expected an invalid Base44 entity config",
    ),
    (
        {"type": "entity-config", "filePath": "base44/entities/bad.jsonc"},
        False,
        "/fields: unknown key; write properties",
    ),
    ({"type": "entity-config"}, False, "no Base44 entity config found in the answer"),
    ({"type": "entity-config", "target": "file"}, False, '`target: "file"` needs a `filePath`'),
    (
        {
            "type": "agent-config",
            "filePath": "base44/agents/order_assistant.jsonc",
            "target": "file",
        },
        True,
        "is valid",
    ),
    (
        {"type": "agent-config", "target": "output", "filePath": "base44/agents/x.jsonc"},
        False,
        "the answer (a fenced block) is invalid: (root): 'description' is a required property",
    ),
    (
        {
            "type": "function-def",
            "filePath": "base44/functions/cancel-order/function.jsonc",
            "target": "file",
        },
        False,
        "/entrypoint: unknown key; write entry",
    ),
    (
        {
            "type": "function-def",
            "filePath": "base44/functions/nope/function.jsonc",
            "target": "file",
        },
        False,
        "does not exist",
    ),
    # badly written checks
    ({"type": "file-exist", "filePath": "x"}, False, "did you mean 'file-exists'"),
    ({"type": "command-passes"}, False, "cannot check: needs `command`"),
]


@pytest.mark.parametrize(
    ("check", "passes", "detail"),
    TABLE,
    ids=[f"{row[0]['type']}-{i}" for i, row in enumerate(TABLE)],
)
def test_check_table(project: Path, check: dict[str, Any], passes: bool, detail: str) -> None:
    passed, text = _one({**check, "description": "D"}, _final(project, ANSWER))
    assert text.startswith("D: ")
    assert passed is passes, text
    assert detail in text


@pytest.mark.parametrize(
    ("command", "passes", "detail"),
    [
        (
            "grep -c title base44/entities/todo.jsonc | grep -q 2 && echo ok | tr a-z A-Z",
            True,
            "exited 0",
        ),
        ("test -f base44/entities/todo.jsonc && test ! -e ../eval.json", True, "exited 0"),
        ("echo 'no such thing' >&2; exit 3", False, "exited 3: no such thing"),
        ("cat missing.txt | wc -l && false", False, "exited 1"),
    ],
)
def test_command_passes_runs_through_a_shell_in_the_project(
    project: Path, command: str, passes: bool, detail: str
) -> None:
    passed, text = _one(
        {"type": "command-passes", "command": command, "description": "D"}, _final(project)
    )
    assert passed is passes, text
    assert detail in text


def test_command_passes_timeout_and_missing_project(project: Path) -> None:
    passed, text = _one(
        {"type": "command-passes", "command": "sleep 5", "timeout": 0.3}, _final(project)
    )
    assert not passed and "ran longer than 0.3s" in text
    passed, text = _one(
        {"type": "command-passes", "command": "true"}, FinalRecord(output="", files={"a.txt": "x"})
    )
    assert not passed and "project folder is gone" in text


def test_file_checks_fall_back_to_recorded_files() -> None:
    final = FinalRecord(output="", files={"src/a.js": "export const a = 1;\n"})
    assert _one({"type": "file-exists", "filePath": "src/a.js"}, final)[0]
    assert _one({"type": "file-exists", "filePath": "src"}, final) == (
        False,
        "file-exists: src is a directory, not a file",
    )
    assert _one({"type": "file-content", "filePath": "src/a.js", "pattern": "A = 1"}, final)[0]
    passed, text = _one({"type": "file-exists", "filePath": "src/b.js"}, final)
    assert not passed and "(among the recorded text files)" in text


@pytest.mark.parametrize(
    ("expected", "meta", "passes", "detail"),
    [
        ([], {"skills_invoked": [], "skills_detected_by": "none"}, True, "no skills expected"),
        (
            ["base44-cli"],
            {"skills_invoked": ["base44-cli", "base44-sdk"], "skills_detected_by": "stream"},
            True,
            "invoked (stream): base44-cli",
        ),
        (
            ["base44-sdk"],
            {"skills_invoked": ["base44-cli"], "skills_detected_by": "stream"},
            False,
            "not invoked: base44-sdk",
        ),
        (
            ["base44-cli", "mine"],
            {
                "skills_invoked": ["base44-cli"],
                "skills_detected_by": "vocabulary",
                "skills_vocabulary": ["base44-cli", "base44-sdk"],
            },
            False,
            "no vocabulary to detect mine",
        ),
        (
            ["mine"],
            {"skills_invoked": [], "skills_detected_by": "none"},
            False,
            "cannot tell which skills ran",
        ),
    ],
)
def test_expected_skills_result(
    expected: list[str], meta: dict[str, Any], passes: bool, detail: str
) -> None:
    results = evaluate_base44(
        {"checks": [{"type": "contains", "value": "x"}], "expectedSkills": expected},
        FinalRecord(output="x", meta=meta),
    )
    skills = results[-1]
    assert (skills.index, skills.type) == (1, "expectedSkills")
    assert skills.passed is passes and detail in skills.detail, skills.detail


async def test_end_to_end_with_a_scripted_agent(tmp_path: Path) -> None:
    fixture = tmp_path / "fixtures" / "todo"
    (fixture / "project" / "base44").mkdir(parents=True)
    (fixture / "project" / "base44" / "config.jsonc").write_text('{"name": "todo"}', "utf-8")
    checks = {
        "expectedSkills": ["base44-cli"],
        "checks": [
            {
                "type": "file-exists",
                "description": "entity",
                "filePath": "base44/entities/todo.jsonc",
            },
            {
                "type": "valid-json",
                "description": "jsonc",
                "filePath": "base44/entities/todo.jsonc",
            },
            {
                "type": "entity-config",
                "description": "schema",
                "target": "file",
                "filePath": "base44/entities/todo.jsonc",
            },
            {
                "type": "file-content",
                "description": "name",
                "filePath": "base44/entities/todo.jsonc",
                "pattern": r'"name"\s*:\s*"Todo"',
            },
            {"type": "contains", "description": "push", "value": "entities push"},
            {
                "type": "json-schema",
                "description": "answer json",
                "schema": {"type": "object", "required": ["name"]},
            },
            {
                "type": "command-passes",
                "description": "prompt kept",
                "command": "grep -q 'Todo' prompt.txt && test -f base44/config.jsonc",
            },
            {"type": "file-exists", "description": "eval hidden", "filePath": "../eval.json"},
        ],
    }
    (fixture / "eval.json").write_text(
        json.dumps({"name": "todo", "description": "d", **checks, "prompt": "p"}), "utf-8"
    )
    case = RunCase(
        slug="todo-schema",
        name="schema",
        dialect="base44",
        path=str(fixture / "eval.json"),
        setup={"fixture": str(fixture)},
        checks=checks,
        prompt="Create the Todo entity",
    )
    target = parse_target(f'command:"{sys.executable} {CODER} stream {{prompt}}"')
    session = await target.open(case, 1)
    await session.send(UserTurn(type="text", text=case.prompt))
    final = await session.close()
    try:
        results = evaluate_base44(checks, final)
    finally:
        discard_workdir(final)
    verdicts = [(r.type, r.passed) for r in results]
    assert verdicts == [
        ("file-exists", True),
        ("valid-json", True),
        ("entity-config", True),
        ("file-content", True),
        ("contains", True),
        ("json-schema", True),
        ("command-passes", True),
        ("file-exists", False),
        ("expectedSkills", True),
    ], [r.detail for r in results]


def test_every_schema_type_is_implemented() -> None:
    schema = json.loads(
        (Path(__file__).parents[1] / "evalcore" / "dialects" / "base44" / "schema.json").read_text(
            "utf-8"
        )
    )
    enum = schema["definitions"]["check"]["properties"]["type"]["enum"]
    assert sorted(enum) == sorted(check_types())


def test_non_object_check_and_bad_checks_list() -> None:
    [bad, _skills] = evaluate_base44({"checks": ["contains"]}, FinalRecord())
    assert not bad.passed and bad.type == "invalid"
    [bad] = evaluate_base44({"checks": "contains"}, FinalRecord())
    assert not bad.passed and "must be a list" in bad.detail


# --- the JSON text helpers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"url": "https://example.com/a//b"}', {"url": "https://example.com/a//b"}),
        (
            '{"a": "/* not a comment */", // real\n "b": [1, 2,],}',
            {"a": "/* not a comment */", "b": [1, 2]},
        ),
        (
            '{"esc": "quote \\" // still string", "n": 1 /* c */}',
            {"esc": 'quote " // still string', "n": 1},
        ),
        ("\ufeff[1, /* x */ 2]", [1, 2]),
        ('{"a": [ {"b": 1,}, ], }', {"a": [{"b": 1}]}),
    ],
)
def test_jsonc_is_string_aware(text: str, value: Any) -> None:
    assert loads(text) == value


def test_jsonc_keeps_positions_and_reports_errors() -> None:
    stripped = strip_jsonc('{"a": 1, // x\n "b": 2 /* y\n z */}')
    assert stripped.count("\n") == 2 and len(stripped) == len('{"a": 1, // x\n "b": 2 /* y\n z */}')
    with pytest.raises(JsonTextError, match="unterminated"):
        loads('{"a": 1 /* open')
    with pytest.raises(JsonTextError, match="line 2 column 1"):
        loads('{"a": 1\n"b": 2}')


@pytest.mark.parametrize(
    ("text", "expected", "where"),
    [
        ('```json\n{"a": 1}\n```', {"a": 1}, "a fenced block"),
        ("```\n[1, 2]\n```", [1, 2], "a fenced block"),
        (
            '```js\nconst x = {a: 1}\n```\nthen {"b": "}"} done',
            {"b": "}"},
            "an object at line 4 of the answer",
        ),
        ("see [1] and [2, 3]", [1], "an array at line 1 of the answer"),
        ('{broken {"c": 3}', {"c": 3}, "an object at line 1 of the answer"),
    ],
)
def test_extract_json(text: str, expected: Any, where: str) -> None:
    assert extract_json(text) == (expected, where)


def test_extract_json_nothing() -> None:
    assert extract_json("no json here {") is None
