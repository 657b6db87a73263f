"""`validate` at scale: libyaml composes with the same rules and marks as the pure-Python
loader, and a generated_cases manifest is parsed once per command, not once per file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evalcore import documents, manifest, yamlbuild, yamlio
from evalcore.validation import validate_paths

REPO = Path(__file__).resolve().parents[1]
SAMPLES = [
    "on: yes\ndate: 2026-10-14\noctal: 0o17\nhex: 0x1F\nnull_: ~\nflag: True\n",
    "steps:\n  - user: hi\n  - bot: hello\n    extra:\n      - 1\n      - 2.5\n",
    "a: 1\nb:\n  c: 2\na: 3\n",
    "a: 1\n  b: 2\n",
    "a: [1, 2\n",
    "a: *missing\n",
    "a:\tb\n",
    "k: 'unterminated\n",
    "a: \x07\n",
    "a: &x {b: 1}\nc: *x\n",
    "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n",
    "? [1, 2]\n: v\n",
    "a: !!str 12\nb: 1.5\nc: .inf\nd: ~\ne: !!binary aGk=\n",
]


class _ConstructorOnly(yamlbuild.Build):
    """The walk's lines and findings, but every value from PyYAML's own constructor."""

    def value(self, node: object, built: object) -> object:
        self.loader.constructed_objects, self.loader.recursive_objects = {}, {}
        return self.loader.construct_document(node)


def _both(text: str) -> tuple[documents.Document, documents.Document]:
    """libyaml and the direct builder, against the pure-Python loader and constructor."""
    fast = documents.parse_text(text, "yaml")
    saved, saved_build = yamlio._FAST, documents.Build
    yamlio._FAST = None
    documents.Build = _ConstructorOnly  # type: ignore[misc]
    try:
        slow = documents.parse_text(text, "yaml")
    finally:
        yamlio._FAST, documents.Build = saved, saved_build
    return fast, slow


@pytest.mark.skipif(yamlio._FAST is None, reason="PyYAML built without libyaml")
@pytest.mark.parametrize("text", SAMPLES)
def test_libyaml_reads_like_the_pure_python_loader(text: str) -> None:
    fast, slow = _both(text)
    assert fast.data == slow.data
    assert fast.lines == slow.lines
    assert [(f.code, f.path, f.line, f.message) for f in fast.findings] == [
        (f.code, f.path, f.line, f.message) for f in slow.findings
    ]


@pytest.mark.skipif(yamlio._FAST is None, reason="PyYAML built without libyaml")
def test_libyaml_is_used_for_plain_case_text() -> None:
    assert isinstance(yamlio.case_loader("a: 1\n"), yamlio._FAST)
    assert isinstance(yamlio.case_loader("a:\tb\n"), yamlio.CaseLoader)


def test_every_example_scenario_reads_the_same_with_both_loaders() -> None:
    files = sorted((REPO / "examples").rglob("*.yml"))
    assert files
    for file in files:
        fast, slow = _both(file.read_text(encoding="utf-8"))
        assert (fast.data, fast.lines) == (slow.data, slow.lines), file


def test_generated_cases_manifest_is_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    shutil.copytree(REPO / "generated_cases", tmp_path / "generated_cases")
    calls: list[Path] = []
    real = manifest.load_manifest

    def counting(path: Path) -> manifest.Manifest:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(manifest, "load_manifest", counting)
    reports = validate_paths([tmp_path / "generated_cases"])
    assert len(reports) > 3
    assert len(calls) == 1
    # The manifest did its job: each case was linted against the project it came from.
    assert not [f for r in reports for f in r.findings if f.code == "no-project"]


def test_schema_only_validation_never_builds_a_line_map(monkeypatch: pytest.MonkeyPatch) -> None:
    """`validate --no-project` on valid files: no finding to place, so no file's line map
    is built (the skipped lint's `no-project` note, never printed, used to build each)."""
    from agentflows.cli._validate import _schema_only

    built: list[object] = []
    real = documents.node_lines
    monkeypatch.setattr(documents, "node_lines", lambda node: built.append(node) or real(node))
    reports = _schema_only([REPO / "examples" / "bank" / "eval"], None)
    assert len(reports) > 3 and all(r.valid and not r.findings for r in reports)
    assert built == []
