"""Caches hold data, never code, and a cache file someone else could have written is ignored."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest

from evalcore import _valuecache
from evalcore._valuecache import ValueCache, text_key
from evalcore.llm.cache import ResponseCache

REPO = Path(__file__).resolve().parents[1]
VALIDATE = (
    "import sys; from agentflows.cli import main; "
    "sys.exit(main(['validate', 'examples/bank/eval', '--project', 'examples/bank']))"
)


def _validate(cache: Path) -> None:
    env = {**os.environ, "CASEGEN_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-c", VALIDATE], cwd=REPO, env=env, capture_output=True)


def _plant(value: object, payload: CodeType) -> object:
    """`value` with every code object in it replaced by `payload`."""
    if isinstance(value, CodeType):
        return payload
    if isinstance(value, dict):
        return {k: _plant(v, payload) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_plant(v, payload) for v in value)
    return value


def test_no_cache_file_executes_planted_code(tmp_path: Path) -> None:
    cache, marker = tmp_path / "cache", tmp_path / "ran"
    _validate(cache)  # every cache a light command writes
    payload = compile(f"import os\nos.system('touch {marker}')\n", "<planted>", "exec")
    for path in cache.rglob("*"):
        if path.is_file():
            try:
                planted = _plant(marshal.loads(path.read_bytes()), payload)
            except (ValueError, EOFError, TypeError):
                continue
            path.write_bytes(marshal.dumps(planted))
    _validate(cache)
    assert not marker.exists(), "a cache file's code ran"
    for path in cache.rglob("*"):  # what is kept is JSON
        if path.is_file():
            json.loads(path.read_text("utf-8"))


def _poisoned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: int) -> ValueCache:
    monkeypatch.setenv("CASEGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_valuecache, "_WARNED", set())
    cache = ValueCache("values")
    cache.put(text_key("toml", sys.version, "x = 1\n"), {"x": "planted"})
    cache.save()
    cache.path.chmod(mode)
    return ValueCache("values")


def test_a_cache_file_others_may_write_is_ignored_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh = _poisoned(monkeypatch, tmp_path, 0o666)
    assert fresh.get(text_key("toml", sys.version, "x = 1\n")) is None
    err = capsys.readouterr().err
    assert "ignoring the cache file" in err and "others may write to it" in err
    fresh = _poisoned(monkeypatch, tmp_path, 0o600)
    assert fresh.get(text_key("toml", sys.version, "x = 1\n")) == {"x": "planted"}
    assert oct(fresh.path.stat().st_mode & 0o777) == "0o600"  # written for this user only


def test_a_cache_file_another_user_owns_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh = _poisoned(monkeypatch, tmp_path, 0o600)
    monkeypatch.setattr(os, "getuid", lambda: fresh.path.stat().st_uid + 1)
    assert fresh.get(text_key("toml", sys.version, "x = 1\n")) is None
    assert "owned by another user" in capsys.readouterr().err


def test_a_response_cache_entry_others_may_write_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_valuecache, "_WARNED", set())
    cache = ResponseCache(tmp_path)
    key = "ab" * 32
    path = cache.put(key, {"answer": {"text": "kept"}})
    assert cache.get(key) == {"answer": {"text": "kept"}, "key": key}
    path.chmod(0o646)
    assert cache.get(key) is None
    assert "others may write to it" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_cache_entry_that_is_not_a_file_is_a_miss(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = "cd" * 32
    cache.path_for(key).parent.mkdir(parents=True)
    os.mkfifo(cache.path_for(key))
    assert cache.get(key) is None  # no hang
    cache.path_for(key).unlink()
    cache.path_for(key).symlink_to("/dev/zero")
    assert cache.get(key) is None  # no endless read
