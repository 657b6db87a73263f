"""What `validate` keeps between files is dropped when what it was built from changes: lint
tables when the project is loaded again or its maps change, per-folder answers with each
command, and the schema's fast check says "valid" exactly where jsonschema finds nothing."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from mantle_fixtures import bank_project, case_with

from evalcore.definitions import ToolDef, load_project
from evalcore.dialects import get_dialect
from evalcore.dialects.mantle._lint import lint_mantle
from evalcore.manifest import Manifest, ManifestEntry, save_manifest
from evalcore.schemas import _fast_check, _for_fast_check, make_validator
from evalcore.validation import ProjectCache, validate_paths

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "examples" / "bank" / "eval" / "scenarios"


def _codes(data: Any, project: Any) -> list[tuple[str, str]]:
    return [(f.code, f.path) for f in lint_mantle(data, project)]


def test_lint_tables_follow_a_tool_added_to_the_loaded_project() -> None:
    project = bank_project()
    data = case_with(
        {"tool_executed": {"tool_name": "brand_new", "source": "local", "skill_id": "card_replace"}}
    )
    before = _codes(data, project)
    assert ("unknown-tool", "/scenario/goals/assertions/0/tool_executed/tool_name") in before
    assert project.mantle is not None
    project.mantle.skills["card_replace"].tools["brand_new"] = ToolDef(name="brand_new")
    assert _codes(data, project) == []
    assert _codes(data, bank_project()) == before  # a project built again starts afresh


def test_lint_tables_follow_a_response_added_to_the_loaded_project() -> None:
    project = bank_project()
    data = case_with({"bot_uttered": {"utter_name": "utter_brand_new"}})
    assert [c for c, _ in _codes(data, project)] == ["unknown-response"]
    assert project.mantle is not None
    response = next(iter(project.mantle.responses.values()))
    project.mantle.responses["utter_brand_new"] = response.model_copy(
        update={"name": "utter_brand_new"}
    )
    assert _codes(data, project) == []


def test_a_project_changed_on_disk_is_seen_by_the_next_command(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples" / "bank", tmp_path / "bank")
    case = tmp_path / "bank" / "eval" / "scenarios" / "card_replace_stolen.yml"
    [report] = validate_paths([case])
    assert report.valid
    tools = tmp_path / "bank" / "skills" / "card_replace" / "tools.py"
    tools.write_text(tools.read_text().replace("def block_card(", "def freeze_card("))
    [report] = validate_paths([case])
    assert "unknown-tool" in {f.code for f in report.findings}


def _manifest(root: Path, project: Path, files: list[Path]) -> None:
    entry = {
        "dialect": "mantle",
        "source": "s",
        "behavior": "b",
        "type": "happy_path",
        "engine": "offline",
        "generated_at": "2026-01-01T00:00:00Z",
        "run_id": "r",
        "content_sha256": "0" * 64,
    }
    cases = {
        f.relative_to(root).as_posix(): ManifestEntry(project=str(project), **entry) for f in files
    }
    save_manifest(root / "manifest.json", Manifest(cases=cases))


def test_manifest_is_read_again_by_each_command(tmp_path: Path) -> None:
    root = tmp_path / "generated_cases"
    folder = root / "mantle" / "x"
    folder.mkdir(parents=True)
    case = folder / "a.yml"
    shutil.copyfile(SCENARIOS / "card_replace_stolen.yml", case)
    _manifest(root, REPO / "examples" / "bank", [])
    [report] = validate_paths([root])
    assert "no-project" in {f.code for f in report.findings}
    _manifest(root, REPO / "examples" / "bank", [case])
    [report] = validate_paths([root])
    assert report.valid and report.findings == []


def test_manifest_keys_of_nested_folders_and_linked_files(tmp_path: Path) -> None:
    """A case two folders down and a case that is a link to a file elsewhere are looked up
    by the path the manifest records (the link by its target's), as before the caches."""
    root = tmp_path / "generated_cases"
    deep = root / "mantle" / "a" / "b"
    deep.mkdir(parents=True)
    nested = deep / "nested.yml"
    shutil.copyfile(SCENARIOS / "card_replace_stolen.yml", nested)
    target = root / "mantle" / "elsewhere.yml"
    shutil.copyfile(SCENARIOS / "card_replace_damaged.yml", target)
    link = deep / "link.yml"
    link.symlink_to(target)
    _manifest(root, REPO / "examples" / "bank", [nested, target])
    projects = ProjectCache()
    mantle = get_dialect("mantle")
    bank = (REPO / "examples" / "bank").resolve()
    for case in (nested, link, target):
        found = projects.for_file(case, mantle)
        assert found is not None and found.root.resolve() == bank
    assert projects.limits_for(link) == projects.limits_for(nested)


def test_limits_are_looked_up_per_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "casegen.toml").write_text("[limits]\nmax_depth = 7\n")
    projects = ProjectCache()
    assert projects.limits_for(tmp_path / "a" / "x.yml").max_depth == 100
    assert projects.limits_for(tmp_path / "b" / "x.yml").max_depth == 7
    assert projects.limits_for(tmp_path / "b" / "y.yml").max_depth == 7


def _mutants(data: Any) -> list[Any]:
    """`data` with each value in turn replaced by null, a session. name, a number, an empty
    map and a list, plus each key removed: shapes both sides of every rule."""
    out: list[Any] = []

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            for replacement in (None, "session.x", 3, {}, [value], "", "mcp", "local"):
                copied = copy.deepcopy(data)
                target = copied
                for part in path:
                    target = target[part]
                target[key] = replacement
                out.append(copied)
            if isinstance(node, dict):
                copied = copy.deepcopy(data)
                target = copied
                for part in path:
                    target = target[part]
                del target[key]
                out.append(copied)
            if isinstance(value, (dict, list)):
                visit(value, (*path, key))

    visit(data, ())
    return out


@pytest.mark.parametrize("name", ["mantle", "anychat", "base44"])
def test_fast_check_accepts_exactly_what_jsonschema_accepts(name: str) -> None:
    import fastjsonschema
    import yaml

    dialect = get_dialect(name)
    check = _fast_check(dialect.schema)  # as validate builds it (generated code, disk cache)
    direct = fastjsonschema.compile(
        _for_fast_check(dialect.schema), use_formats=False, use_default=False
    )
    validator = make_validator(dialect.schema)
    if name == "mantle":
        samples = [yaml.safe_load(p.read_text()) for p in sorted(SCENARIOS.glob("*.yml"))[:3]]
    elif name == "anychat":
        cases = sorted((REPO / "examples" / "clinic" / "cases").glob("*.json"))
        samples = [json.loads(p.read_text()) for p in cases[:2]]
    else:
        evals = sorted((REPO / "examples" / "skills" / "evals").glob("*/eval.json"))
        samples = [json.loads(p.read_text()) for p in evals[:1]]
    assert samples
    checked = 0
    for sample in samples:
        for data in [sample, *_mutants(sample)]:
            verdicts = []
            for gate in (check, direct):
                try:
                    gate(data)
                    verdicts.append(True)
                except fastjsonschema.JsonSchemaException:
                    verdicts.append(False)
            valid = next(validator.iter_errors(data), None) is None
            assert verdicts == [valid, valid], data
            checked += 1
    assert checked > 100


def test_fast_check_is_compiled_once_per_schema(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    schema = copy.deepcopy(get_dialect("mantle").schema)
    schema["title"] = "not a shipped schema"  # compiled here, not imported
    results = [_fast_check(schema) for _ in range(40)]
    assert results[0] is not None and all(r is results[0] for r in results)
    other = _fast_check(copy.deepcopy(schema))  # another schema object: its own check
    assert other is not None and other is not results[0]


def test_fast_check_keeps_no_compiled_code_on_disk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The check is compiled in the process that uses it: a cache file that is executed is
    code anyone who can write it can plant. The check still rejects what it should."""
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    check = _fast_check(copy.deepcopy(get_dialect("mantle").schema))
    assert list(tmp_path.rglob("*")) == []
    sample = yaml.safe_load(sorted(SCENARIOS.glob("*.yml"))[0].read_text())
    import fastjsonschema

    check(sample)
    with pytest.raises(fastjsonschema.JsonSchemaException):  # a yes/no gate: no message
        check({**sample, "no_such_key": 1})


def test_project_loaded_once_per_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import evalcore.validation as validation

    for i in range(3):
        shutil.copyfile(SCENARIOS / "card_replace_stolen.yml", tmp_path / f"c{i}.yml")
    calls: list[Path] = []

    def counting(root: Path) -> Any:
        calls.append(root)
        return load_project(root)

    monkeypatch.setattr(validation, "load_project", counting)
    reports = validate_paths([tmp_path], project=REPO / "examples" / "bank")
    assert len(reports) == 3 and all(r.valid for r in reports)
    assert len(calls) == 1


def test_a_searched_manifest_is_parsed_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The folder's manifest.json is read once as a searched file (it is not a case) and
    that data gives the manifest: `read_json` is not asked for it again."""
    from evalcore import manifest as manifest_module

    root = tmp_path / "generated_cases"
    folder = root / "mantle" / "x"
    folder.mkdir(parents=True)
    cases = [folder / f"c{i}.yml" for i in range(3)]
    for case in cases:
        shutil.copyfile(SCENARIOS / "card_replace_stolen.yml", case)
    _manifest(root, REPO / "examples" / "bank", cases[:2])
    reads: list[Path] = []
    read_json = manifest_module.read_json
    monkeypatch.setattr(manifest_module, "read_json", lambda p: reads.append(p) or read_json(p))
    reports = validate_paths([root])
    assert [[f.code for f in r.findings] for r in reports] == [[], [], ["no-project"]]
    assert reads == []
    [named] = validate_paths([cases[0]])  # a named case: the manifest is read for it
    assert named.valid and len(reads) == 1


def test_depth_is_checked_level_by_level_at_the_same_limit() -> None:
    """The level-by-level check refuses exactly what a walk of every value refuses: any
    dict or list, empty or not, deeper than the limit."""
    from evalcore.limits import DEFAULT_LIMITS, LimitExceeded, check_depth

    def too_deep(value: Any, depth: int = 1) -> bool:
        if not isinstance(value, (dict, list)):
            return False
        if depth > DEFAULT_LIMITS.max_depth:
            return True
        children = value.values() if isinstance(value, dict) else value
        return any(too_deep(child, depth + 1) for child in children)

    def nested(depth: int, leaf: Any) -> Any:
        value = leaf
        for i in range(depth):
            value = [1, value] if i % 2 else {"k": value, "n": "x"}
        return value

    limit = DEFAULT_LIMITS.max_depth
    for depth in range(limit - 2, limit + 3):
        for leaf in ([], {}, "x", [[]]):
            for value in (nested(depth, leaf), [nested(2, "x"), {"a": nested(depth, leaf)}]):
                refused = False
                try:
                    check_depth(value, DEFAULT_LIMITS)
                except LimitExceeded:
                    refused = True
                assert refused == too_deep(value), (depth, leaf)


def test_the_shipped_schema_checks_match_the_schemas() -> None:
    """`evalcore/_fastchecks` is what `python -m evalcore.dialects.schema_checks` writes now:
    regenerate it after changing a dialect's schema or the gate (or upgrading fastjsonschema)."""
    from evalcore import _fastcheck
    from evalcore._fastchecks import SHIPPED
    from evalcore.dialects import all_dialects

    folder = Path(_fastcheck.__file__).with_name("_fastchecks")
    for dialect in all_dialects():
        shipped = (folder / f"{dialect.name}.py").read_text("utf-8")
        assert shipped == _fastcheck.shipped_module(dialect.name, dialect.schema), dialect.name
        key = _fastcheck.definition_key(_fastcheck.for_fast_check(dialect.schema))
        assert SHIPPED[key] == dialect.name


def test_a_dialect_s_check_is_imported_not_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    from evalcore import _fastcheck

    def refuse(definition: object) -> None:
        raise AssertionError("compiled at run time")

    monkeypatch.setattr(_fastcheck, "_compile", refuse)
    for name in ("mantle", "anychat", "base44"):
        check = _fast_check(copy.deepcopy(get_dialect(name).schema))
        assert check is not None and check.__module__ == f"evalcore._fastchecks.{name}"
    other = copy.deepcopy(get_dialect("mantle").schema)
    other["title"] = "another schema"
    assert _fast_check(other) is None  # not shipped: compiled here (refused in this test)
