"""The records' code cache (`evalcore/_codecache.py`): same classes, cold or warm or corrupt."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore import _codecache
from evalcore._codecache import CodeCache
from evalcore._record import Record, record

REPO = Path(__file__).resolve().parents[1]

#: Builds the bank project and prints what its records do: fields, repr, equality, a copy.
PROBE = """
import dataclasses, inspect, json, sys
from pathlib import Path
from evalcore.definitions import load_project, Skill, MemoryField
from evalcore.findings import Finding
project = load_project(Path("examples/bank"))
skill = project.mantle.skills["card_replace"]
field = next(iter(skill.memory.values()))
print(json.dumps(project.model_dump(mode="json"), sort_keys=True, default=str)[:20000])
print(repr(field), field == field.model_copy(), field == MemoryField(name="x", namespace="y"))
print(str(inspect.signature(Skill)), MemoryField.__doc__, Finding.__doc__)
print(sorted(f.name for f in dataclasses.fields(Skill)), "exec" in vars(dataclasses))
try:
    MemoryField(name="x")
except TypeError as exc:
    print("TypeError", exc)
"""


def _probe(cache: Path) -> str:
    env = {**os.environ, "CASEGEN_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=REPO, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_records_are_the_same_cold_warm_and_with_a_corrupt_cache(tmp_path: Path) -> None:
    cold = _probe(tmp_path)
    files = list(tmp_path.glob("dataclasses.*.marshal"))
    assert len(files) == 1 and files[0].stat().st_size > 1000
    assert _probe(tmp_path) == cold  # warm: every method from the file
    files[0].write_bytes(b"not marshal data")
    assert _probe(tmp_path) == cold
    assert "False" in cold.splitlines()[-2]  # dataclasses' own `exec` is back
    # annotations are what dataclasses' own `exec` gives: the field types, not the names
    # of its generated code's locals
    assert "_type_" not in cold and "id: 'str'" in cold


def test_compile_gives_the_code_compile_gives_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    cache = CodeCache("probe")
    source = "def f(x):\n    return x * 2\n"
    code = cache.compile(source)
    assert code == compile(source, "<string>", "exec", dont_inherit=True)
    cache.save()
    again = CodeCache("probe")
    assert again.compile(source) == code and not again._dirty  # read back, not compiled
    namespace: dict[str, object] = {}
    again.exec(source, namespace)
    assert namespace["f"](21) == 42  # type: ignore[operator]


def test_a_file_that_only_grew_is_rewritten_with_what_was_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_codecache, "MAX_ENTRIES", 3)
    for n in range(5):
        cache = CodeCache("grow")
        cache.compile(f"x = {n}\n")
        cache.save()
    assert len(CodeCache("grow")._read()) <= 3
    assert "x = 4\n" in CodeCache("grow")._read()


def test_an_unwritable_cache_only_means_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(blocked))  # a file where the folder goes
    cache = CodeCache("probe")
    assert cache.compile("y = 1\n") == compile("y = 1\n", "<string>", "exec", dont_inherit=True)
    cache.save()  # no error


def test_a_record_made_here_is_a_dataclass_with_its_methods() -> None:
    @record
    class Point(Record):
        x: int
        y: int = 0

    assert Point(x=1) == Point(x=1, y=0) and repr(Point(x=2)).endswith("Point(x=2, y=0)")
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y"]
    assert "exec" not in vars(dataclasses)


def _point_class(make: object) -> type:
    @make  # type: ignore[operator]
    class Point:
        """A point."""

        x: int
        y: tuple[int, ...] = dataclasses.field(default_factory=tuple)
        label: str = dataclasses.field(default="p", repr=False, compare=False)

    return Point


@pytest.mark.parametrize(
    "options",
    [{}, {"frozen": True}, {"kw_only": True}, {"order": True}, {"frozen": True, "kw_only": True}],
    ids=str,
)
def test_a_cached_dataclass_is_the_dataclass_dataclasses_makes(
    options: dict[str, bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`evalcore._record.dataclass` (plain classes on the start-up path) changes where the
    generated methods' code comes from, nothing they do."""
    import inspect

    from evalcore._record import dataclass

    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_codecache, "RECORDS", CodeCache("records"))
    plain = _point_class(dataclasses.dataclass(**options))
    for _ in range(2):  # compiled, then from the cache
        cached = _point_class(dataclass(**options))
        assert str(inspect.signature(cached)) == str(inspect.signature(plain))
        assert cached.__doc__ == plain.__doc__ and cached.__match_args__ == plain.__match_args__
        assert repr(cached.__dataclass_params__) == repr(plain.__dataclass_params__)
        args = ({"x": 1, "y": (2,)}, {"x": 1, "y": (2,), "label": "q"}, {"x": 3})
        a, b, c = (cached(**kw) for kw in args)
        p, q, r = (plain(**kw) for kw in args)
        assert repr(a).split("Point")[1] == repr(p).split("Point")[1]
        assert (a == b, a == c, a != c) == (p == q, p == r, p != r)
        assert (cached.__hash__ is None) == (plain.__hash__ is None)
        if plain.__hash__ is not None:
            assert hash(a) == hash(b)
        if options.get("order"):
            assert (a < c) == (p < r)
        if options.get("frozen"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                a.x = 2  # type: ignore[misc]
        assert "exec" not in vars(dataclasses)
        _codecache.RECORDS.save()
        monkeypatch.setattr(_codecache, "RECORDS", CodeCache("records"))
