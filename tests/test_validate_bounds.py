"""The input limits hold on both YAML loaders (libyaml's and the pure-Python fallback) and on
both paths through the walk: text with a `*` has its node graph checked for alias bombs and
cycles first; text without one is a tree whose depth the walk itself measures."""

from __future__ import annotations

import time

import pytest

from evalcore import documents, yamlio
from evalcore.documents import parse_text
from evalcore.limits import DEFAULT_LIMITS, InputLimits, LimitExceeded, check_yaml_graph

BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.fixture(params=["libyaml", "pure-python"])
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with libyaml's loader (where PyYAML has it) and with the fallback."""
    if request.param == "libyaml" and yamlio._FAST is None:
        pytest.skip("PyYAML built without libyaml")
    if request.param == "pure-python":
        monkeypatch.setattr(yamlio, "_FAST", None)
    return str(request.param)


def _message(doc: documents.Document) -> str:
    [finding] = doc.findings
    assert finding.code == "parse" and doc.data is None
    return finding.message


def _block(depth: int) -> str:
    """Mappings nested `depth` levels in block style (no flow brackets: the text check
    before parsing does not see them), a scalar at the bottom."""
    return "".join("  " * i + f"k{i}:\n" for i in range(depth - 1)) + "  " * (depth - 1) + "v\n"


def test_fallback_loader_is_used_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "_FAST", None)
    assert type(yamlio.case_loader("a: 1\n")) is yamlio.CaseLoader
    doc = parse_text("a: 1\nb: [x, {c: on}]\n", "yaml")
    assert doc.data == {"a": 1, "b": ["x", {"c": "on"}]}
    assert doc.lines == {"": 1, "/a": 1, "/b": 2, "/b/0": 2, "/b/1": 2, "/b/1/c": 2}


def test_alias_bomb_is_refused_on_either_loader(loader: str) -> None:
    started = time.process_time()
    message = _message(parse_text(BOMB, "yaml"))
    assert time.process_time() - started < 2
    assert "aliases expand to" in message and "max_alias_nodes" in message


def test_recursive_alias_is_refused_on_either_loader(loader: str) -> None:
    assert "recursive alias" in _message(parse_text("a: &a [*a]\n", "yaml"))
    assert "recursive alias" in _message(parse_text("a: &a {b: *a}\n", "yaml"))


def test_a_star_inside_text_is_not_an_alias(loader: str) -> None:
    doc = parse_text("name: 'a * b'\nnote: \"*x\"\n", "yaml")
    assert doc.findings == [] and doc.data == {"name": "a * b", "note": "*x"}


@pytest.mark.parametrize("alias", [False, True])
def test_block_depth_limit_is_the_graph_checks(loader: str, alias: bool) -> None:
    """At the limit a file loads, one level deeper it is refused, whether the walk measures
    the depth (no `*` in the text) or check_yaml_graph does (an alias elsewhere)."""
    limits = InputLimits(max_depth=20)
    extra = "\nz: &z 1\ny: *z\n" if alias else ""
    for depth, refused in ((20, False), (21, True)):
        text = _block(depth) + extra
        doc = parse_text(text, "yaml", limits=limits)
        loader_ = yamlio.case_loader(text)
        node = loader_.get_single_node()
        try:
            check_yaml_graph(node, limits)
            graph_refuses = False
        except LimitExceeded:
            graph_refuses = True
        assert graph_refuses is refused
        if refused:
            assert "nested more than 20 levels" in _message(doc)
            assert doc.lines == {}
        else:
            assert doc.findings == [] and doc.parsed


def test_deep_complex_key_counts_toward_the_depth(loader: str) -> None:
    limits = InputLimits(max_depth=5)
    text = "? [[[[[1]]]]]\n: v\n"
    assert "nested more than 5 levels" in _message(parse_text(text, "yaml", limits=limits))
    assert parse_text("? [1]\n: v\n", "yaml", limits=limits).data is None  # unhashable key


def test_huge_block_nesting_is_a_clean_finding(loader: str) -> None:
    message = _message(parse_text(_block(400), "yaml", limits=DEFAULT_LIMITS))
    assert "nested more than 100 levels" in message


@pytest.mark.parametrize(
    "text",
    [
        "a: !!binary aGk=\nb: !!binary '%%%'\n",  # a constructor error after a good value
        "!!binary '%%%': 1\nb: 2\nb: 3\n",  # a bad key: still named, duplicates still found
        "x: &x {k: 1}\nm:\n  <<: *x\n  k: 2\n",  # merge key: the constructor builds it
        "s: !!set {a, b}\n",  # a custom collection tag
        "t: !nope 1\n",  # an unknown tag
        "? [1, 2]\n: v\nk: 1\nk: 2\n",  # a complex key, then a duplicate
        "~: 1\nnull: 2\n1: a\n'1': b\n",  # null and int keys next to string ones
    ],
)
def test_walk_and_build_agree_with_the_constructor(loader: str, text: str) -> None:
    """The single walk gives the data, lines and findings PyYAML's own constructor and the
    separate walk gave, on the odd documents where the direct build steps aside."""

    class ConstructorOnly(documents.Build):
        def value(self, node: object, built: object) -> object:
            self.loader.constructed_objects, self.loader.recursive_objects = {}, {}
            return self.loader.construct_document(node)

    fast = parse_text(text, "yaml")
    saved = documents.Build
    documents.Build = ConstructorOnly  # type: ignore[misc]
    try:
        slow = parse_text(text, "yaml")
    finally:
        documents.Build = saved  # type: ignore[misc]
    assert fast.data == slow.data
    assert fast.lines == slow.lines
    assert [(f.path, f.line, f.message) for f in fast.findings] == [
        (f.path, f.line, f.message) for f in slow.findings
    ]
