"""Junk never crashes a loader, a validator or repair: it only produces clean findings."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalcore.definitions import Project, load_project
from evalcore.dialects import all_dialects, get_dialect
from evalcore.documents import parse_text
from evalcore.findings import FINDING_CODES, Finding
from evalcore.repair import repair_data
from evalcore.validation import validate_document
from evalcore.yamlio import dump_yaml

PROJECTS = {"mantle": "bank", "anychat": "clinic", "base44": "skills"}
SAMPLES = {
    "mantle": EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml",
    "anychat": EXAMPLES / "clinic/cases",
    "base44": EXAMPLES / "skills/evals/todo-entities/eval.json",
}


@cache
def project_for(dialect: str) -> Project:
    return load_project(EXAMPLES / PROJECTS[dialect])


@cache
def sample(dialect: str) -> Any:
    path = SAMPLES[dialect]
    if path.is_dir():
        path = sorted(path.glob("*.json"))[0]
    return parse_text(path.read_text(), "json" if path.suffix == ".json" else "yaml").data


def assert_clean(findings: list[Finding]) -> None:
    for finding in findings:
        assert finding.code in FINDING_CODES, finding
        assert finding.severity in ("error", "warning")
        assert finding.path == "" or finding.path.startswith("/")
        assert isinstance(finding.message, str) and finding.message
        json.dumps(finding.to_json(), default=str)


junk_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=15), children, max_size=4)
    ),
    max_leaves=15,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=300), fmt=st.sampled_from(["yaml", "json"]))
def test_any_text_parses_to_findings_not_exceptions(text: str, fmt: str) -> None:
    doc = parse_text(text, fmt)
    assert_clean(doc.findings)
    for dialect in all_dialects():
        assert_clean(validate_document(doc, dialect, project_for(dialect.name)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=junk_values, dialect=st.sampled_from(["mantle", "anychat", "base44"]))
def test_any_structure_validates_and_repairs_cleanly(value: Any, dialect: str) -> None:
    chosen = get_dialect(dialect)
    project = project_for(dialect)
    text = dump_yaml(value) if chosen.file_format == "yaml" else json.dumps(value)
    doc = parse_text(text, chosen.file_format)
    assert_clean(validate_document(doc, chosen, project))
    outcome = repair_data(doc.data, chosen, project)
    assert_clean(outcome.findings)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, child in node.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            out += _paths(child, (*prefix, index))
    return out


def _replace(node: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = copy.deepcopy(node)
    cursor = node
    for key in path[:-1]:
        cursor = cursor[key]
    cursor[path[-1]] = value
    return node


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    dialect=st.sampled_from(["mantle", "anychat", "base44"]),
    pick=st.integers(min_value=0, max_value=10_000),
    value=junk_values,
)
def test_mutated_real_cases_give_clean_findings(dialect: str, pick: int, value: Any) -> None:
    """Replace one node of a real, valid case with junk: lint and repair stay well-behaved."""
    base = sample(dialect)
    paths = _paths(base)
    mutated = _replace(base, paths[pick % len(paths)], value)
    chosen = get_dialect(dialect)
    text = dump_yaml(mutated) if chosen.file_format == "yaml" else json.dumps(mutated)
    doc = parse_text(text, chosen.file_format, path=Path(f"case{chosen.suffixes[0]}"))
    assert_clean(validate_document(doc, chosen, project_for(dialect)))
    assert_clean(repair_data(doc.data, chosen, project_for(dialect)).findings)
