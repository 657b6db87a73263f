"""Values kept between processes (`evalcore._valuecache.ValueCache`): the `@tool` definitions of a
Python file and parsed settings files come back exactly as the readers work them out, cold,
warm and with a corrupt cache file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore import _valuecache, limits
from evalcore._valuecache import ValueCache
from evalcore.definitions import _tools_ast
from evalcore.definitions._context import ReadContext

REPO = Path(__file__).resolve().parents[1]

#: Every kind of value a tool's signature can give: literal defaults of each type ast can
#: evaluate (tuples stay tuples, -0.0, bytes, complex, Ellipsis, a set), expressions kept as
#: source text, `Literal` choices, docstring sections, a repeated name, a non-literal name.
ODD_TOOLS = '''
from typing import Literal, Optional
@tool(name="odd_one", description="  ")
def odd(a: int = 3, b: Literal["x", "y", 3] = "x", c=(1, 2.5, None, -0.0),
        d: Optional[Literal[True, False]] = None, *, e=b"by", f={"k": [1, {2: 3}]},
        g=1+2j, h={1, 2, 3}, i=..., j=os.sep, context: ToolContext = None):
    """Does odd things.

    Second paragraph.

    Args:
        a: the first
          continued here.
        b (str): bee
    Returns:
        nothing
    """
@tool
async def other(x: "Literal['q']", y: float = float("inf")): ...
@decorator.tool()
def odd(z): "dup"
@tool(name=123)
def numbered(): pass
'''

#: Loads a project and prints everything its tools and warnings hold (types included).
PROBE = """
import json, sys
from pathlib import Path
from evalcore.definitions import load_project
project = load_project(Path(sys.argv[1]))
tools = {
    name: [repr(t.model_dump()) for t in tools]
    for name, tools in sorted(
        (s, list(skill.tools.values())) for s, skill in project.mantle.skills.items()
    )
}
shared = [repr(t.model_dump()) for t in project.mantle.shared_tools.values()]
print(json.dumps({"tools": tools, "shared": shared, "warnings": project.warnings}))
print(sorted(m for m in ("tomllib", "hashlib", "_hashlib") if m in sys.modules))
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    shutil.copytree(REPO / "examples" / "bank", root)
    (root / "skills" / "card_replace" / "tools.py").write_text(ODD_TOOLS)
    (root / "tools" / "broken.py").write_text("def broken(:\n")
    (root / "skills" / "check_balance" / "tools.py").write_text('x = "\0"\n')
    (root / "pyproject.toml").write_text("[tool.casegen.limits]\nmax_depth = 50\n")
    return root


def _probe(root: Path, cache: Path) -> tuple[str, str]:
    env = {**os.environ, "CASEGEN_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(root)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    facts, modules = done.stdout.splitlines()
    return facts, modules


def test_a_project_s_tools_and_warnings_are_the_same_cold_warm_and_corrupt(
    tmp_path: Path,
) -> None:
    root, cache = _project(tmp_path), tmp_path / "cache"
    cold, cold_modules = _probe(root, cache)
    assert "tomllib" in cold_modules  # worked out, then kept
    (kept,) = cache.glob("values*.json")
    warm, warm_modules = _probe(root, cache)
    assert warm == cold
    assert warm_modules == "[]"  # no TOML parser, no OpenSSL: everything from the file
    # what the tools are, not the files' text (the odd file has a set default: not kept)
    assert b"Find the customer record that belongs to a phone number." in kept.read_bytes()
    assert b"async def lookup_customer(" not in kept.read_bytes()
    assert (
        b"max_depth = 50" not in kept.read_bytes() and b"Does odd things" not in kept.read_bytes()
    )
    kept.write_bytes(b"not JSON data")
    assert _probe(root, cache)[0] == cold
    facts = json.loads(cold)
    assert any("syntax error" in w for w in facts["warnings"])
    assert any("(1, 2.5, None, -0.0)" in t and "b'by'" in t for t in facts["tools"]["card_replace"])


def test_read_tool_file_gives_what_the_reader_works_out_of_the_text(tmp_path: Path) -> None:
    """Warm or cold, the same `ToolDef`s: the kept facts are the uncached reader's."""
    path = tmp_path / "tools.py"
    path.write_text(ODD_TOOLS)
    first = _tools_ast.read_tool_file(ReadContext(root=tmp_path), path, "local")
    again = _tools_ast.read_tool_file(ReadContext(root=tmp_path), path, "local")
    assert first == again and [t.name for t in first] == ["odd_one", "other", "odd", "numbered"]
    assert _tools_ast.tool_facts(ODD_TOOLS) == _tools_ast._tool_facts(ODD_TOOLS)
    odd = first[0]
    defaults = {p.name: p.default for p in odd.parameters}
    assert type(defaults["c"]) is tuple and str(defaults["c"][3]) == "-0.0"
    assert defaults["e"] == b"by" and defaults["g"] == 1 + 2j and defaults["i"] is Ellipsis
    assert defaults["h"] == {1, 2, 3} and defaults["j"] == "os.sep"
    assert first[0].parameters[0].description == "the first continued here."
    # a kept default is never shared between two reads
    assert defaults["f"] is not again[0].parameters[5].default


def test_a_file_that_does_not_parse_warns_the_same_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text("def broken(:\n")
    warnings = []
    for _ in range(2):
        ctx = ReadContext(root=tmp_path)
        assert _tools_ast.read_tool_file(ctx, path, "shared") == []
        warnings.append(ctx.warnings)
    assert (
        warnings[0]
        == warnings[1]
        == ["bad.py:1: Python syntax error: invalid syntax; its tools are not read"]
    )


@pytest.mark.parametrize(
    "text",
    [
        "[tool.casegen.limits]\nmax_file_mb = 2\n",
        '[tool.casegen]\nlimits = { max_depth = "9" }\n',
        "not = [toml\n",
        "when = 2026-01-01\n[tool.casegen.limits]\nmax_depth = 5\n",  # a date: not kept
        "",
    ],
)
def test_a_settings_file_parses_as_tomllib_parses_it(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tomllib

    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_valuecache, "VALUES", ValueCache("toml-probe"))
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        expected = {}
    assert limits._parsed_toml(text) == expected
    _valuecache.VALUES.save()
    monkeypatch.setattr(_valuecache, "VALUES", ValueCache("toml-probe"))
    assert limits._parsed_toml(text) == expected  # read back (or parsed again: dates)


def test_values_come_back_fresh_and_only_plain_ones_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    cache = ValueCache("probe")
    value = {"a": [1, (2, 3)], "b": b"x", "c": None}
    cache.put("k", value)
    got = cache.get("k")
    assert got == value and got is not value and got["a"] is not cache.get("k")["a"]
    cache.put("date", [datetime.date(2026, 1, 1)])
    cache.put("set", {"s": {1, 2}})
    assert cache.get("date") is None and cache.get("set") is None
    cache.save()
    again = ValueCache("probe")
    assert again.get("k") == value and again.get("missing") is None and not again._dirty


def test_a_corrupt_entry_or_an_unwritable_cache_only_means_working_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    cache = ValueCache("probe")
    cache.path.parent.mkdir(parents=True, exist_ok=True)
    document = {"format": _valuecache.FORMAT, "values": {"k": {"~": "bytes", "v": "zz"}}}
    cache.path.write_text(json.dumps(document))
    cache.path.chmod(0o600)
    assert cache.get("k") is None and cache.get(3) is None  # type: ignore[arg-type]
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(blocked))
    unwritable = ValueCache("probe")
    unwritable.put("k", 1)
    unwritable.save()  # no error
    assert unwritable.get("k") == 1


def test_the_values_file_stays_small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_valuecache, "MAX_VALUES", 3)
    for n in range(5):
        cache = ValueCache("grow")
        cache.put(_valuecache.text_key("t", "1", f"text {n}"), n)
        cache.save()
    kept = ValueCache("grow")._read()
    assert len(kept) <= 3 and _valuecache.text_key("t", "1", "text 4") in kept


def test_without_the_reader_s_source_nothing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_tools_ast, "__file__", str(tmp_path / "gone.py"))
    monkeypatch.setattr(_valuecache, "VALUES", ValueCache("unkeyed"))
    _tools_ast._version.cache_clear()
    try:
        assert _tools_ast._version() is None
        assert _tools_ast.tool_facts(ODD_TOOLS) == _tools_ast._tool_facts(ODD_TOOLS)
        assert _valuecache.VALUES._values is None  # never consulted
    finally:
        _tools_ast._version.cache_clear()
