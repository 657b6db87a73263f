"""How `validate` reads files and a project's settings: the same bytes, limits and paths as
the plain standard-library calls they replace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalcore.definitions._context import ReadContext
from evalcore.documents import _read_bytes, load_document, parse_text
from evalcore.limits import DEFAULT_LIMITS, InputLimits, limits_for
from evalcore.validation._discover import iter_listed_files


def _limit(size: int) -> InputLimits:
    """Limits whose file-size limit is `size` bytes."""
    return InputLimits(max_file_mb=(size + 0.5) / (1024 * 1024))


@pytest.mark.parametrize("size", [0, 1, 4095, 64 * 1024 + 3, 300 * 1024])
def test_a_file_is_read_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "f.yml"
    path.write_bytes(bytes(i % 251 for i in range(size)))
    assert _read_bytes(path, DEFAULT_LIMITS) == (path.read_bytes(), None)


def test_a_file_over_the_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "f.yml"
    path.write_bytes(b"a: 1\n" * 300)
    limits = _limit(1000)
    content, too_big = _read_bytes(path, limits)
    assert content is None and too_big is not None and "limit" in too_big
    doc = load_document(path, limits=limits)
    assert [f.message for f in doc.findings] == [too_big] and doc.data is None


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_file_at_the_size_limit_parses_as_its_text_does(tmp_path: Path, bom: bytes) -> None:
    body = b"scenario:\n  name: x\n  simulation_context: y\n"
    path = tmp_path / "f.yml"
    path.write_bytes(bom + body)
    limits = _limit(len(bom + body))
    assert limits.max_file_bytes == len(bom + body)
    read = load_document(path, limits=limits)
    parsed = parse_text(body.decode(), "yaml", path=path, limits=limits)
    assert (read.data, read.findings) == (parsed.data, parsed.findings)
    assert read.data == {"scenario": {"name": "x", "simulation_context": "y"}}


def test_a_file_that_cannot_be_decoded_or_read_says_so(tmp_path: Path) -> None:
    latin = tmp_path / "latin.yml"
    latin.write_bytes("name: caf\xe9\n".encode("latin-1"))
    [finding] = load_document(latin).findings
    assert finding.message.startswith("file is not UTF-8 text") and finding.line == 1
    folder = tmp_path / "dir.yml"
    folder.mkdir()
    [finding] = load_document(folder).findings
    assert finding.message.startswith("cannot read file") and finding.line is None


def test_a_project_read_finds_each_folders_limits(tmp_path: Path) -> None:
    (tmp_path / "casegen.toml").write_text("[limits]\nmax_depth = 30\n", "utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "casegen.toml").write_text("[limits]\nmax_depth = 20\n", "utf-8")
    plain = tmp_path / "a.yml"
    plain.write_text("a: 1\n", "utf-8")
    (other / "b.yml").write_text("b: 1\n", "utf-8")
    link = tmp_path / "link.yml"
    link.symlink_to(other / "b.yml")  # a link's target's folder decides
    ctx = ReadContext(root=tmp_path)
    for path in (plain, other / "b.yml", link, plain, link):
        assert ctx.limits_for(path) == limits_for(path)
    assert ctx.limits_for(plain).max_depth == 30 and ctx.limits_for(link).max_depth == 20


def test_listed_paths_are_the_joined_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a/b/c.yml", "a/b/.d/e.yml", "a/node_modules/f.yml", "a/g.json", "h.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("a: 1\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    for root in (tmp_path, Path("."), Path("a")):
        listed = [file for file, _, _ in iter_listed_files([root])]
        expected = sorted(
            root.joinpath(*p.relative_to(root).parts)
            for p in root.rglob("*")
            if p.suffix in {".yml", ".yaml", ".json"}
            and not any(part.startswith(".") or part == "node_modules" for part in p.parts)
        )
        assert listed == expected
        assert [str(f) for f in listed] == [str(f) for f in expected]
        assert all(
            os.path.dirname(str(f)) == str(f.parent) for f in listed if f.parent != Path(".")
        )
