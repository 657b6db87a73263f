"""`validate`'s faster paths give what the slower ones gave: the quick read of plain case
YAML the full walk's data and lines (in the walk's order), leaving every file that is not
plain to the full walk; discovery by `scandir` the files `sorted(rglob("*"))` found."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore import documents, yamlio
from evalcore._yamlquick import quick_read
from evalcore.limits import DEFAULT_LIMITS, InputLimits

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(yamlio._FAST is None, reason="PyYAML built without libyaml")


def _full(text: str, limits: InputLimits = DEFAULT_LIMITS) -> documents.Document:
    """The document as the full walk reads it (the quick read turned off)."""
    saved = documents.quick_read
    documents.quick_read = lambda text, limits: None  # type: ignore[assignment]
    try:
        return documents.parse_text(text, "yaml", limits=limits)
    finally:
        documents.quick_read = saved


def _case_files() -> list[Path]:
    files = [
        *sorted((REPO / "examples").rglob("*.yml")),
        *sorted((REPO / "generated_cases").rglob("*.yml")),
    ]
    assert len(files) > 20
    return files


def test_plain_case_files_are_read_quickly_with_the_full_walks_data_and_lines() -> None:
    quick_count = 0
    for file in _case_files():
        text = file.read_text(encoding="utf-8")
        quick, full = documents.parse_text(text, "yaml"), _full(text)
        quick_count += quick_read(text, DEFAULT_LIMITS) is not None
        assert quick.data == full.data, file
        assert list(quick.lines.items()) == list(full.lines.items()), file
        assert quick.findings == full.findings == [], file
    assert quick_count > 20


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb:\n  c: 2\na: 3\n",  # repeated key
        "a: &x {b: 1}\nc: *x\n",  # alias
        "a: !!str 12\n",  # explicit tag
        "? [1, 2]\n: v\n",  # complex key
        "1: one\n",  # a key that is not a string
        "base: {x: 1}\nd:\n  <<: {y: 2}\n",  # merge key
        "a:\tb\n",  # tab: the pure-Python reader
        "a: [1, 2\n",  # a parse error
        "a: 1\n---\nb: 2\n",  # two documents
        "",  # no document
        "big: " + "9" * 5000 + "\n",  # an int the constructor refuses
    ],
)
def test_irregular_text_is_left_to_the_full_walk(text: str) -> None:
    assert quick_read(text, DEFAULT_LIMITS) is None
    quick, full = documents.parse_text(text, "yaml"), _full(text)
    assert (quick.data, quick.lines, quick.findings) == (full.data, full.lines, full.findings)


def test_the_depth_limit_is_the_full_walks() -> None:
    limits = InputLimits(max_depth=3)
    for text in ("a:\n  b: 1\n", "a:\n  b:\n    c: 1\n", "a:\n  b:\n    c:\n      d: 1\n"):
        quick, full = documents.parse_text(text, "yaml", limits=limits), _full(text, limits)
        assert (quick.data, quick.lines, quick.findings) == (full.data, full.lines, full.findings)
    assert quick_read("a:\n  b:\n    c: 1\n", limits) is None


def test_scalars_resolve_as_the_case_loader_resolves_them() -> None:
    text = "a: yes\nb: 0o17\nc: 0x1F\nd: ~\ne: True\nf: .inf\ng: '1'\nh: 2026-10-14\ni: |\n  x\n"
    quick = quick_read(text, DEFAULT_LIMITS)
    assert quick is not None
    assert quick[0] == yamlio.load_yaml(text) == _full(text).data


def _rglob_candidates(root: Path) -> list[Path]:
    """What discovery found when it was `sorted(root.rglob("*"))` and a filter."""
    from evalcore.validation._discover import CASE_SUFFIXES, SKIP_DIRS

    depth = len(root.parts)
    return [
        file
        for file in sorted(root.rglob("*"))
        if file.suffix.lower() in CASE_SUFFIXES
        and not any(p.startswith(".") or p in SKIP_DIRS for p in file.parts[depth:-1])
        and file.is_file()
    ]


def test_discovery_finds_what_a_sorted_rglob_found(tmp_path: Path) -> None:
    from evalcore.validation._discover import iter_candidate_files

    root = tmp_path / "cases"
    for name in ("b/x.yml", "a/Z.YML", "a/z.json", "a-b/c.yaml", ".hidden/h.yml", "a/.yml"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("a: 1\n")
    for skipped in ("node_modules", "results", "a/.git"):
        (root / skipped).mkdir(parents=True, exist_ok=True)
        (root / skipped / "s.yml").write_text("a: 1\n")
    (root / "dir.yml").mkdir()
    (root / "notes.txt").write_text("x")
    (root / "link.yml").symlink_to(root / "b" / "x.yml")
    (root / "broken.yml").symlink_to(root / "missing.yml")
    (root / "linked_dir").symlink_to(root / "b", target_is_directory=True)
    (root / "loop.yml").symlink_to(root / "loop.yml")
    found = [file for file, explicit in iter_candidate_files([root]) if not explicit]
    assert found == _rglob_candidates(root)
    assert [str(f) for f in found] == [str(f) for f in _rglob_candidates(root)]
    assert root / "link.yml" in found and root / "linked_dir" / "x.yml" not in found


_SCALARS = [
    "true",
    "True",
    "false",
    "yes",
    "on",
    "1",
    "-2",
    "0o17",
    "0x1F",
    "1.5",
    ".5",
    "1e3",
    ".inf",
    ".NaN",
    "~",
    "null",
    "Null",
    "",
    "<<",
    "name",
    "tool_name",
    "nope",
    "2026-10-14",
    "+",
]


def test_plain_scalars_resolve_the_same_when_read_again() -> None:
    """The kept resolution of a plain scalar (`_yamlquick._RESOLVED`) gives the walk's
    value on the second and later reads too, as a value and as a key."""
    values = "\n".join(f"v{i}: {text}" for i, text in enumerate(_SCALARS) if text != "<<")
    items = "items:\n" + "".join(f"  - {text or '~'}\n" for text in _SCALARS if text != "<<")
    for text in (values, items, values, items):
        full, quick = _full(text).data, quick_read(text, DEFAULT_LIMITS)
        assert quick is not None
        assert repr(quick[0]) == repr(full)  # 1 and 1.0, True and 1 told apart
    for key in ("true", "1", "null", "~", "1.5", "<<"):
        for _ in range(2):  # a key that is not a string is never read quickly
            assert quick_read(f"{key}: x\nname: y\n", DEFAULT_LIMITS) is None


def test_the_control_character_check_matches_pyyamls_reader() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    refused = yamlio._NON_PRINTABLE

    @settings(max_examples=500)
    @given(
        st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=30)
        | st.text(max_size=30)
        | st.sampled_from(["\x85", "\xa0", "\ufeff", "\ud800", "\U0001f600", "a\x7fb", "\x0b"])
    )
    def same(text: str) -> None:
        assert yamlio.non_printable(text) == (refused.search(text) is not None)

    same()


def test_the_listing_says_which_files_are_links(tmp_path: Path) -> None:
    from evalcore.validation._discover import iter_candidate_files, iter_listed_files

    (tmp_path / "a.yml").write_text("x: 1\n", "utf-8")
    (tmp_path / "b.yml").symlink_to(tmp_path / "a.yml")
    listed = list(iter_listed_files([tmp_path]))
    assert [(f.name, explicit, link) for f, explicit, link in listed] == [
        ("a.yml", False, False),
        ("b.yml", False, True),
    ]
    assert list(iter_listed_files([tmp_path / "b.yml"])) == [(tmp_path / "b.yml", True, None)]
    assert list(iter_candidate_files([tmp_path])) == [(f, e) for f, e, _ in listed]
