"""base44 dialect: model, sniffing, schema findings with lines, lint, repair."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dialect_fixtures import (
    expected_line,
    skills_project,
    valid_base44_eval,
    valid_multi_prompt_eval,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from pydantic import ValidationError

from evalcore import pointer as ptr
from evalcore.dialects import detect_dialect, get_dialect
from evalcore.dialects.base44._lint import js_regex_error, lint_base44
from evalcore.documents import parse_text
from evalcore.repair import repair_data
from evalcore.validation import check_data, validate_document

DIALECT = get_dialect("base44")
PROJECT = skills_project()
SCHEMA = DIALECT.schema
Base44Eval = DIALECT.model

Mutation = Callable[[dict[str, Any]], object]


def single(change: Mutation) -> dict[str, Any]:
    data = valid_base44_eval()
    change(data)
    return data


def multi(change: Mutation) -> dict[str, Any]:
    data = valid_multi_prompt_eval()
    change(data)
    return data


def _set(path: str, value: Any) -> Mutation:
    return lambda data: ptr.replace(data, path, value)


def _drop(path: str) -> Mutation:
    return lambda data: ptr.remove(data, path)


def dump(model: Any) -> dict[str, Any]:
    from evalcore.dialects.base44 import dump_eval

    return dump_eval(model)


# --- model --------------------------------------------------------------------------------

EVERY_CHECK_TYPE: dict[str, Any] = {
    "name": "every-check",
    "description": "One check of each type",
    "prompt": "Build it.",
    "expectedSkills": [],
    "checks": [
        {"type": "contains", "description": "c", "value": "base44"},
        {"type": "file-exists", "description": "e", "filePath": "a.txt"},
        {"type": "file-content", "description": "v", "filePath": "a.txt", "value": "x"},
        {"type": "file-content-excluded", "description": "x", "filePath": "a", "pattern": "y"},
        {"type": "valid-json", "description": "j", "filePath": "base44/config.jsonc"},
        {"type": "command-passes", "description": "p", "command": "npm test"},
        {"type": "json-schema", "description": "s", "filePath": "o.json", "schema": {}},
        {"type": "entity-config", "description": "en", "target": "output"},
        {
            "type": "agent-config",
            "description": "ag",
            "filePath": "a.jsonc",
            "target": "file",
            "expectedValid": False,
        },
        {"type": "function-def", "description": "fn", "expectedValid": True},
    ],
}


@pytest.mark.parametrize(
    "doc",
    [
        valid_base44_eval(),
        valid_multi_prompt_eval(),
        EVERY_CHECK_TYPE,
        {"name": "only", "description": "name and description"},
        # The schema leaves objects open and types a field only for the check types that use it.
        {
            "name": "open",
            "description": "d",
            "owner": "qa",
            "prompts": [],
            "checks": [
                {
                    "type": "file-exists",
                    "description": "d",
                    "filePath": "a",
                    "value": 3,
                    "note": None,
                    "target": "anywhere",
                }
            ],
        },
    ],
    ids=["single", "multi", "every-check-type", "minimal", "open-objects"],
)
def test_model_round_trips(doc: dict[str, Any]) -> None:
    assert list(Draft7Validator(SCHEMA).iter_errors(doc)) == []
    model = Base44Eval.model_validate(doc)
    assert dump(model) == doc
    assert DIALECT.validate_model(doc) == model


def test_model_reads_schema_alias_and_defaults() -> None:
    model = Base44Eval.model_validate(valid_base44_eval())
    assert model.schema_ref == "../../eval.schema.json"
    checks = model.checks or []
    assert checks[4].schema_ == {"type": "object", "required": ["name"]}
    assert checks[3].expects_valid is True
    assert dump(model)["$schema"] == "../../eval.schema.json"


def test_model_json_schema_lists_check_types_and_field_types() -> None:
    schema = Base44Eval.model_json_schema()
    check = schema["$defs"]["Check"]
    assert set(check["required"]) == {"type", "description"}
    assert len(check["properties"]["type"]["enum"]) == 10
    assert check["properties"]["schema"]["type"] == "object"
    assert check["properties"]["target"]["enum"] == ["output", "file"]
    assert "$schema" in schema["properties"]


# --- sniffing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        (None, "eval.json", "base44"),
        ({"name": "n"}, "eval.json", "base44"),
        ({"name": "n", "prompt": "p"}, "other.json", "base44"),
        ({"name": "n", "prompts": []}, "other.json", "base44"),
        ({"checks": []}, "other.json", "base44"),
        ({"expectedSkills": []}, "other.json", "base44"),
        ({"name": "n", "description": "d"}, "other.json", None),
        ({"title": "t", "turns": []}, "other.json", "anychat"),
    ],
)
def test_sniff(data: Any, name: str, expected: str | None, tmp_path: Path) -> None:
    found = detect_dialect(data, tmp_path / name)
    assert (found.name if found else None) == expected


def test_case_title() -> None:
    assert DIALECT.case_title(valid_base44_eval()) == "nextjs-todo-entities"
    assert DIALECT.case_title({"name": 3}) is None


# --- schema findings ----------------------------------------------------------------------

INVALID: list[tuple[str, dict[str, Any], str, str | None]] = [
    # (name, document, JSON pointer of the one error, text in its suggestion)
    ("missing-description", single(_drop("/description")), "/description", "add 'description'"),
    ("missing-name", multi(_drop("/name")), "/name", "add 'name'"),
    ("contains-without-value", single(_drop("/checks/2/value")), "/checks/2/value", "add 'value'"),
    (
        "excluded-without-pattern",
        multi(_drop("/prompts/0/checks/0/pattern")),
        "/prompts/0/checks/0/pattern",
        "add 'pattern'",
    ),
    (
        "unknown-check-type",
        single(_set("/checks/0/type", "file-exist")),
        "/checks/0/type",
        "did you mean 'file-exists'?",
    ),
    ("check-without-type", single(_drop("/checks/0/type")), "/checks/0/type", "add 'type'"),
    (
        "check-without-description",
        single(_drop("/checks/0/description")),
        "/checks/0/description",
        "add 'description'",
    ),
    (
        "prompt-without-skills",
        multi(_drop("/prompts/1/expectedSkills")),
        "/prompts/1/expectedSkills",
        "add 'expectedSkills'",
    ),
    (
        "json-schema-without-schema",
        single(_drop("/checks/4/schema")),
        "/checks/4/schema",
        "add 'schema'",
    ),
    (
        "command-without-command",
        single(_set("/checks/0", {"type": "command-passes", "description": "tests pass"})),
        "/checks/0/command",
        "add 'command'",
    ),
    (
        "bad-target",
        single(_set("/checks/3/target", "disk")),
        "/checks/3/target",
        "valid values: file, output",
    ),
    ("skills-not-a-list", single(_set("/expectedSkills", "base44-cli")), "/expectedSkills", None),
    ("file-path-not-text", single(_set("/checks/0/filePath", 3)), "/checks/0/filePath", None),
]


@pytest.mark.parametrize(
    ("name", "doc", "path", "suggestion"), INVALID, ids=[i[0] for i in INVALID]
)
def test_invalid_document_is_rejected_at_the_exact_place(
    name: str, doc: dict[str, Any], path: str, suggestion: str | None
) -> None:
    text = json.dumps(doc, indent=2)
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    assert [(f.code, f.path, f.severity) for f in findings] == [("schema", path, "error")]
    if suggestion is not None:
        assert suggestion in (findings[0].suggestion or "")
    assert findings[0].line == expected_line(text, path)


@pytest.mark.parametrize(
    ("name", "doc"), [(i[0], i[1]) for i in INVALID], ids=[i[0] for i in INVALID]
)
def test_model_rejects_what_the_schema_rejects(name: str, doc: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        Base44Eval.model_validate(doc)


def test_duplicate_key_is_a_parse_error_with_its_line() -> None:
    text = (
        '{\n  "name": "dup",\n  "description": "d",\n  "prompt": "p",\n'
        '  "checks": [\n    {"type": "contains", "description": "a",\n'
        '     "value": "x", "value": "y"}\n  ]\n}\n'
    )
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    assert [(f.code, f.path, f.line) for f in findings] == [("parse", "/checks/0/value", 7)]


def test_json_syntax_error_is_a_parse_error_with_its_line() -> None:
    text = '{\n  "name": "broken",\n  "description": "d",\n  "checks": [\n    {"type": }\n  ]\n}\n'
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    assert [(f.code, f.line) for f in findings] == [("parse", 5)]


def test_keys_the_runner_ignores_are_warnings_with_a_suggestion() -> None:
    data = single(_set("/checks/0/filepath", "x"))
    data["expectedSkill"] = ["base44-cli"]
    findings = check_data(data, DIALECT, PROJECT)
    assert [(f.severity, f.path, f.suggestion) for f in findings] == [
        ("warning", "/expectedSkill", "did you mean 'expectedSkills'?"),
        ("warning", "/checks/0/filepath", "did you mean 'filePath'?"),
    ]


# --- lint ---------------------------------------------------------------------------------

LINT: list[tuple[str, dict[str, Any], str, str, str | None]] = [
    # (name, document, code, path, text in the suggestion)
    (
        "skill",
        single(_set("/expectedSkills", ["base44-cl"])),
        "unknown-agent-skill",
        "/expectedSkills/0",
        "did you mean 'base44-cli'",
    ),
    (
        "prompt-skill",
        multi(_set("/prompts/1/expectedSkills", ["base44-sdk", "base44-sdx"])),
        "unknown-agent-skill",
        "/prompts/1/expectedSkills/1",
        "did you mean 'base44-sdk'",
    ),
    (
        "unrelated-skill",
        single(_set("/expectedSkills", ["deploy"])),
        "unknown-agent-skill",
        "/expectedSkills/0",
        "valid skills: base44-cli, base44-sdk",
    ),
    (
        "climbing-path",
        single(_set("/checks/0/filePath", "../eval.json")),
        "path-outside-project",
        "/checks/0/filePath",
        "relative to the fixture's project/",
    ),
    (
        "climbing-after-descending",
        single(_set("/checks/1/filePath", "src/../../x.js")),
        "path-outside-project",
        "/checks/1/filePath",
        "relative to the fixture's project/",
    ),
    (
        "absolute-path",
        single(_set("/checks/0/filePath", "/tmp/todo.jsonc")),
        "path-outside-project",
        "/checks/0/filePath",
        "relative to the fixture's project/",
    ),
    (
        "absolute-project-path",
        single(_set("/checks/0/filePath", "/home/me/fixtures/todo/project/src/App.jsx")),
        "path-outside-project",
        "/checks/0/filePath",
        "use 'src/App.jsx'",
    ),
    (
        "windows-path",
        single(_set("/checks/0/filePath", "C:\\fixtures\\todo.jsonc")),
        "path-outside-project",
        "/checks/0/filePath",
        "relative",
    ),
    (
        "bad-regex",
        single(_set("/checks/1/pattern", '"title"\\s*:\\s*{(')),
        "bad-regex",
        "/checks/1/pattern",
        "escape",
    ),
    (
        "bad-excluded-regex",
        multi(_set("/prompts/0/checks/0/pattern", "Product\\.find(")),
        "bad-regex",
        "/prompts/0/checks/0/pattern",
        "escape",
    ),
    (
        "bad-inner-schema",
        single(_set("/checks/4/schema", {"type": "objekt"})),
        "schema",
        "/checks/4/schema",
        None,
    ),
    (
        "bad-inner-required",
        single(_set("/checks/4/schema", {"required": "name"})),
        "schema",
        "/checks/4/schema",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "doc", "code", "path", "suggestion"), LINT, ids=[i[0] for i in LINT]
)
def test_each_lint_code_fires_alone(
    name: str, doc: dict[str, Any], code: str, path: str, suggestion: str | None
) -> None:
    found = check_data(doc, DIALECT, PROJECT)
    assert [(f.code, f.path, f.severity) for f in found] == [(code, path, "error")], found
    if suggestion is not None:
        assert suggestion in (found[0].suggestion or "")


def test_bad_regex_message_names_the_regex_dialect() -> None:
    (finding,) = check_data(single(_set("/checks/1/pattern", "a(")), DIALECT, PROJECT)
    assert "IGNORECASE" in finding.message and "JavaScript" in finding.message


def test_inner_schema_message_says_where() -> None:
    doc = single(_set("/checks/4/schema", {"properties": {"name": {"type": 3}}}))
    (finding,) = check_data(doc, DIALECT, PROJECT)
    assert finding.path == "/checks/4/schema"
    assert "/properties/name/type" in finding.message


@pytest.mark.parametrize(
    "pattern",
    [
        "(?<year>\\d{4})-\\k<year>",  # JavaScript named group and back-reference
        "(?<=\\$\\s*)\\d+",  # variable-width look-behind, fine in JavaScript
        "Deno\\.serve",
        "loginWithProvider\\s*\\(\\s*['\"]google['\"]",
    ],
)
def test_javascript_regexes_are_not_reported(pattern: str) -> None:
    assert js_regex_error(pattern) is None


def test_paths_inside_the_project_are_fine() -> None:
    doc = single(_set("/checks/0/filePath", "./src/../base44/entities/todo.jsonc"))
    assert check_data(doc, DIALECT, PROJECT) == []


def test_lint_codes_cover_the_documented_ones() -> None:
    codes = {code for _, _, code, _, _ in LINT}
    assert codes == {"unknown-agent-skill", "path-outside-project", "bad-regex", "schema"}


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 5)
    | st.text(max_size=6)
    | st.sampled_from(["contains", "file-content", "json-schema", "../x", "/abs", "a("]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "name",
                    "description",
                    "prompt",
                    "prompts",
                    "expectedSkills",
                    "checks",
                    "type",
                    "filePath",
                    "pattern",
                    "schema",
                    "value",
                    "$schema",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON)
def test_lint_and_schema_never_raise(data: Any) -> None:
    lint_base44(data, PROJECT)
    check_data(data, DIALECT, PROJECT)
    repair_data(data, DIALECT, PROJECT)


# --- repair -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "path", "after"),
    [
        (single(_set("/expectedSkills", ["base44-cl"])), "/expectedSkills/0", "base44-cli"),
        (
            multi(_set("/prompts/0/expectedSkills", ["Base44-SDK"])),
            "/prompts/0/expectedSkills/0",
            "base44-sdk",
        ),
        (single(_set("/checks/0/type", "file_exists")), "/checks/0/type", "file-exists"),
        (single(_set("/checks/1/type", "fileContent")), "/checks/1/type", "file-content"),
        (single(_set("/checks/3/target", "FILE")), "/checks/3/target", "file"),
        (single(_set("/expectedSkills", "base44-cli")), "/expectedSkills", ["base44-cli"]),
    ],
)
def test_repair_fixes_a_value(doc: dict[str, Any], path: str, after: Any) -> None:
    outcome = repair_data(doc, DIALECT, PROJECT)
    assert outcome.valid, outcome.findings
    assert [(a.path, a.after) for a in outcome.actions] == [(path, after)]


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        (single(_set("/expectedSkills", ["deploy"])), "/expectedSkills/0"),
        (single(_set("/checks/0/filePath", "../eval.json")), "/checks/0/filePath"),
        (single(_set("/checks/1/pattern", "a(")), "/checks/1/pattern"),
        (single(_drop("/checks/2/value")), "/checks/2/value"),
    ],
)
def test_repair_leaves_what_it_cannot_decide(doc: dict[str, Any], path: str) -> None:
    outcome = repair_data(doc, DIALECT, PROJECT)
    assert outcome.actions == []
    assert outcome.data == doc
    assert [f.path for f in outcome.findings] == [path]


# --- the shipped example, when there is one -----------------------------------------------


def test_skills_example_evals_validate_clean(repo: Path) -> None:
    from evalcore.definitions import load_project
    from evalcore.validation import validate_paths

    example = repo / "examples" / "skills"
    if not example.is_dir():
        pytest.skip("examples/skills is not there")
    try:
        load_project(example)
    except NotImplementedError:
        pytest.skip("the Agent Skills reader is not there yet")
    reports = [r for r in validate_paths([example]) if r.dialect == "base44"]
    assert reports, "no eval.json found under examples/skills"
    assert [(r.path, r.findings) for r in reports if r.findings] == []
    for report in reports:
        data = json.loads(Path(report.path).read_text(encoding="utf-8"))
        assert dump(Base44Eval.model_validate(data)) == data
