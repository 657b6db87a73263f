"""The line reader (`evalcore._yamllines`) reads what PyYAML's SafeLoader-based case loader
reads, or declines: on every committed YAML file, on generated data written by casegen's and
PyYAML's dumpers, on mutated case files, and on the irregular YAML it must leave to the
composer (anchors, merge keys, tags, duplicate keys, comments, flow, odd scalars)."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalcore import documents, yamlio
from evalcore._yamllines import _LINE, read_lines
from evalcore._yamlquick import quick_read, resolve_plain
from evalcore.limits import DEFAULT_LIMITS, InputLimits

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(yamlio._FAST is None, reason="PyYAML built without libyaml")


def _read(text: str, max_depth: int = DEFAULT_LIMITS.max_depth) -> Any:
    return read_lines(text, max_depth, resolve_plain)


def _full(text: str, limits: InputLimits = DEFAULT_LIMITS) -> documents.Document:
    """The document as the full walk reads it (quick read and line reader off)."""
    saved = documents.quick_read
    documents.quick_read = lambda text, limits: None  # type: ignore[assignment]
    try:
        return documents.parse_text(text, "yaml", limits=limits)
    finally:
        documents.quick_read = saved


def _same_as_pyyaml(text: str, limits: InputLimits = DEFAULT_LIMITS) -> bool:
    """Whether the line reader took `text`; if so, it read what the case loader (a
    SafeLoader) and the full walk read, and `parse_text` gives the full walk's document."""
    got = _read(text, limits.max_depth)
    if got is None:
        return False
    full = _full(text, limits)
    assert full.findings == [], text
    assert repr(got) == repr(full.data) == repr(yaml.load(text, Loader=yamlio.CaseLoader)), text
    doc = documents.parse_text(text, "yaml", limits=limits)
    assert repr(doc.data) == repr(full.data) and doc.findings == [], text
    assert list(doc.lines.items()) == list(full.lines.items()), text
    return True


@functools.cache
def _committed_yaml() -> list[Path]:
    return sorted(
        path
        for folder in ("examples", "generated_cases", "tests/data", "tests/fixtures")
        for path in (REPO / folder).rglob("*")
        if path.suffix in {".yml", ".yaml"} and path.is_file()
    )


@functools.cache
def _case_files() -> list[Path]:
    return [f for f in _committed_yaml() if "scenarios" in f.parts or "mantle" in f.parts]


def test_committed_files_read_as_pyyaml_reads_them() -> None:
    files = _committed_yaml()
    taken = [file for file in files if _same_as_pyyaml(file.read_text("utf-8"))]
    assert len(taken) > 100
    assert set(_case_files()) <= set(taken)  # every Mantle case file is within the reader's part


def test_full_line_comments_are_skipped_as_libyaml_skips_them() -> None:
    """The comments casegen writes above each check keep a case file in the reader's part."""
    text = (
        "scenario:\n  goals:\n    criteria:\n      # instructed: skills/a/skill.md:3 x\n"
        "      - >-\n        a long criterion\n        on two lines\n"
        "      # no definition element found\n      - short one\n    assertions:\n"
        "# at the margin\n      # enforced: skills/a/skill.md:3 routing\n"
        "      - skill_activated:\n          # inside\n          skill_id: a\n"
    )
    assert _same_as_pyyaml(text)
    assert _read(text, DEFAULT_LIMITS.max_depth)["scenario"]["goals"]["criteria"] == [
        "a long criterion on two lines",
        "short one",
    ]


_TEXTS = [
    "yes", "no", "on", "true", "False", "1", "-1", "+1", "1.5", ".5", "1e3", "0o17", "0x1F",
    "~", "null", "Null", "", " lead", "trail ", "a: b", "a #b", "#x", "- x", "-x", "'q'",
    '"d"', "multi\nline", "multi\n\nline\n", "  indented\nmore", "x:", "é ü", "2026-10-14",
    ".inf", ".NaN", "<<", "---", "...", "a,b", "[x]", "{x}", "!x", "&x", "*x", "%x", "@x",
    "`x", "|", ">", "long words " * 12, "text\n", "text\n\n", "\n", "\nlead", " \n", "x\n  y\n",
    "a\\b", "a'b", 'a"b', "it's: here", "url http://x.y/z?q=1", "a  b", "9" * 30,
]  # fmt: skip
_KEYS = st.sampled_from(["name", "a", "b_c", "skill.id", "x-y", "on"] * 3 + ["true", "1", "a b"])
_SCALARS = (
    st.sampled_from(_TEXTS)
    | st.sampled_from(["plain text", "x", "it's", "a-b"])
    | (st.integers() | st.booleans() | st.none() | st.floats())
)
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


def _dump(data: Any, style: int, width: int) -> str:
    if style == 0:
        return yamlio.dump_yaml(data)
    options = {"indent": 2 + style % 3, "width": width, "allow_unicode": style % 2 == 0}
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, **options)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(_KEYS, _DATA, min_size=1, max_size=5),
    st.integers(0, 5),
    st.integers(20, 100),
    st.sampled_from([2, 3, 5, 64]),
)
def test_dumped_data_reads_as_pyyaml_reads_it(
    data: dict[str, Any], style: int, width: int, depth: int
) -> None:
    text = _dump(data, style, width)
    _same_as_pyyaml(text, InputLimits(max_depth=depth))


_FRAGMENTS = [
    " ", "  ", "- ", "-", ":", ": ", "#", " #", "'", "''", '"', "|", "|-", ">", ">-", "|+",
    "|2", "\n", "\n\n", "\n  ", "key: ", "true", "1", "~", "[]", "{}", "[", "{", "?", "!",
    "&a", "*a", "<<: ", "x:y", "\\", "é", "...", "---", "0x1F", "-5", ".inf", "%", "@",
    "!!str ", "!!python/name:os.system ", "'a: b'",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([3, 4, 64]))
def test_mutated_case_files_read_as_pyyaml_reads_them(rng: random.Random, depth: int) -> None:
    lines = rng.choice(_case_files()).read_text("utf-8").split("\n")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(lines))
        operation = rng.randrange(5)
        if operation == 0:
            del lines[at]
        elif operation == 1:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif operation == 2:
            lines[at] = " " * rng.randint(1, 3) + lines[at]
        elif operation == 3:
            lines[at] = lines[at][rng.randint(1, 2) :]
        else:
            cut = rng.randint(0, len(lines[at]))
            lines[at] = lines[at][:cut] + rng.choice(_FRAGMENTS) + lines[at][cut:]
    text = "\n".join(lines)
    text = text.rstrip("\n") if rng.random() < 0.2 else text
    limits = InputLimits(max_depth=depth)
    if not _same_as_pyyaml(text, limits):
        doc, full = documents.parse_text(text, "yaml", limits=limits), _full(text, limits)
        assert (doc.data, doc.lines, doc.findings) == (full.data, full.lines, full.findings)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: 2\na: 3\n",  # duplicate key
        "a:\n  b: 1\n  b: 2\n",  # duplicate key, nested
        "a: &x 1\nb: 2\n",  # anchor
        "base: &b {x: 1}\nd:\n  <<: *b\n",  # merge key, alias
        "d:\n  <<: {y: 2}\n",  # merge key
        "a: <<\n",  # `<<` as a value: no constructor
        "a: !!str 12\n",  # explicit tag
        "a: !!python/object/apply:os.system ['echo']\n",  # a tag SafeLoader rejects
        "a: !custom x\n",  # an unknown tag
        "a: x # comment\n",  # comment after a value
        "a: {b: 1}\n",  # flow mapping
        "a: [1, 2]\n",  # flow sequence
        "'a': 1\n",  # quoted key
        "1: one\n",  # a key that is not a string
        "true: x\n",
        "a b: 1\n",  # a key with a space
        "a: b\n  c\n",  # multi-line plain scalar
        "a: 'b\n  c'\n",  # multi-line quoted scalar
        'a: "b\\tc"\n',  # an escape
        "a: |+\n  x\n\n",  # keep chomping
        "a: |2\n   x\n",  # explicit indentation
        "a: >\n  x\n    more\n  y\n",  # folded around a more-indented line
        "a: |\n\n  x\n",  # a blank first line
        "a: |\nb: 1\n",  # an empty block
        "a:\n  - x\n - y\n",  # irregular indentation
        "a:\n-\n  - x\n",  # a nested block after `-`
        "a:\n- - x\n",
        "a: - x\n",
        "a: b: c\n",
        "- a\n- b\n",  # a sequence at the root
        "a: 1\n---\nb: 2\n",  # two documents
        "%YAML 1.1\n---\na: 1\n",  # a directive
        "a:\tb\n",  # tab
        "a: b\r\n",  # CRLF
        "a: x\u2028y\n",  # a line separator
        "",
        "   \n",
        "big: " + "9" * 5000 + "\n",  # an int the constructor refuses
    ],
)
def test_irregular_yaml_is_declined(text: str) -> None:
    assert _read(text) is None
    doc, full = documents.parse_text(text, "yaml"), _full(text)
    assert (doc.data, doc.lines, doc.findings) == (full.data, full.lines, full.findings)


@pytest.mark.parametrize(
    "text",
    [
        "a: 'it''s: here'\nb: \"x y\"\nc: plain text, with commas\n",
        "a: |\n  x\n\n    y\n  z\nb: 1\n",  # literal: blank and more-indented lines
        "a: >-\n  x\n  y\n\n  z\n\n\nb: 2\n",  # folded: spaces and kept breaks
        "a: |\n  x",  # no final line break
        "a: >\n  x\n  y",
        "a:\n- 1\n- b: 2\n  c:\n  - d\nd: 4\n",  # indentless sequences
        "a:\n    - x:   1\n      y: ~\n    -   z\nb:\n",  # wider indentation, null at the end
        "a: yes\nb: on\nc: 0o17\nd: 0x1F\ne: -2\nf: .inf\ng: 2026-10-14\nh: ~\ni:\nj: []\nk: {}\n",
        "a: trailing   \nb: 'q'   \nc: |  \n  x\n",
        "a:\n  b:\n    c: 1\n",
    ],
)
def test_the_reader_takes_block_case_yaml(text: str) -> None:
    assert _same_as_pyyaml(text)


def test_the_depth_limit_is_the_full_walks() -> None:
    for depth in (1, 2, 3, 4):
        limits = InputLimits(max_depth=depth)
        for text in ("a: 1\n", "a:\n  b: 1\n", "a:\n- b: 1\n", "a:\n  b:\n    c: []\n"):
            doc, full = documents.parse_text(text, "yaml", limits=limits), _full(text, limits)
            assert (doc.data, doc.lines, doc.findings) == (full.data, full.lines, full.findings)
            assert _read(text, depth) is None or quick_read(text, limits) is not None


@given(st.text(st.characters(blacklist_characters="\r\x85\u2028\u2029"), max_size=60))
def test_one_row_per_line(text: str) -> None:
    """Block scalars index the raw lines by row: the search gives one row per line."""
    assert len(_LINE.findall(text)) == len(text.split("\n"))
