"""Writing files: normal permissions, clear errors on bad disks, a manifest that matches."""

from __future__ import annotations

import errno
import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES

from evalcore.manifest import ManifestError, load_manifest
from evalcore.writer import WriteError, atomic_write_text
from evalcore.writer import _files as files

BANK = EXAMPLES / "bank"


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_files_get_the_umask_mode(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        atomic_write_text(tmp_path / "case.yml", "a: 1\n")
    finally:
        os.umask(old)
    assert (tmp_path / "case.yml").stat().st_mode & 0o777 == mode


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "case.yml"
    path.write_text("old\n")
    path.chmod(0o640)
    atomic_write_text(path, "new\n")
    assert path.stat().st_mode & 0o777 == 0o640 and path.read_text() == "new\n"


def test_stale_temp_files_of_a_killed_write_are_removed(tmp_path: Path) -> None:
    stale = tmp_path / ".case.yml.k1ll3d00.tmp"
    fresh = tmp_path / ".case.yml.wr1t1ng0.tmp"
    other = tmp_path / ".other.yml.k1ll3d00.tmp"
    for leftover in (stale, fresh, other):
        leftover.write_text("")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    atomic_write_text(tmp_path / "case.yml", "a: 1\n")
    assert not stale.exists()
    assert fresh.exists()  # maybe another process writing right now
    assert other.exists()  # not this file's


@pytest.mark.parametrize(
    ("code", "hint"), [(errno.EACCES, "not writable"), (errno.ENOSPC, "disk is full")]
)
def test_os_errors_become_write_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, hint: str
) -> None:
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(WriteError) as caught:
        atomic_write_text(tmp_path / "case.yml", "a: 1\n")
    assert caught.value.exit_code == 1
    assert str(tmp_path / "case.yml") in caught.value.message
    assert hint in (caught.value.hint or "")


def _generate(run_cli, out: Path, *extra: str) -> tuple[int, dict, str]:
    code, stdout, err = run_cli(
        "generate",
        "card_replace",
        "--project",
        BANK,
        "--model",
        "offline",
        "--out",
        out,
        *extra,
        "--json",
    )
    return code, json.loads(stdout), err


def _cases(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob("*.yml"))


def test_read_only_folder_is_a_clear_error(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    code, error, err = _generate(run_cli, tmp_path / "out")
    assert "Traceback" not in err
    assert code == 1 and error["exit_code"] == 1
    assert "Permission denied" in error["error"] and error["hint"]


def test_full_disk_keeps_the_manifest_in_step_with_the_files(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tempfile.mkstemp
    calls = {"cases": 0}

    def fill_up(*args, **kwargs):
        if not str(kwargs.get("prefix", "")).startswith(".manifest"):
            calls["cases"] += 1
            if calls["cases"] > 2:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(files.tempfile, "mkstemp", fill_up)
    out = tmp_path / "out"
    code, error, err = _generate(run_cli, out)
    assert "Traceback" not in err
    assert code == 1 and "No space left" in error["error"] and "disk is full" in error["hint"]
    on_disk = _cases(out)
    assert len(on_disk) == 2
    manifest = load_manifest(out / "manifest.json")
    assert sorted(manifest.cases) == on_disk
    assert not list(out.glob(".*.tmp"))


def test_manifest_with_conflict_markers_stops_before_writing(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "out"
    out.mkdir()
    broken = '<<<<<<< HEAD\n{"version": 1, "cases": {}}\n=======\n{}\n>>>>>>> branch\n'
    (out / "manifest.json").write_text(broken)
    code, error, err = _generate(run_cli, out)
    assert "Traceback" not in err
    assert code == 1 and "merge-conflict" in error["error"]
    assert _cases(out) == []
    assert (out / "manifest.json").read_text() == broken


def test_a_foreign_manifest_is_never_replaced(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "public"
    out.mkdir()
    web = json.dumps({"name": "My app", "icons": [{"src": "icon.png"}]})
    (out / "manifest.json").write_text(web)
    code, error, _ = _generate(run_cli, out)
    assert code == 1
    assert "not a casegen manifest" in error["error"] and "--manifest" in error["hint"]
    assert (out / "manifest.json").read_text() == web and _cases(out) == []

    elsewhere = tmp_path / "provenance.json"
    code, _, err = _generate(run_cli, out, "--manifest", str(elsewhere))
    assert code == 0, err
    assert (out / "manifest.json").read_text() == web
    assert sorted(load_manifest(elsewhere).cases) == [f"public/{n}" for n in _cases(out)]


def test_load_manifest_recognises_its_own_shape(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text('{"version": 1, "cases": {}}')
    assert load_manifest(path).cases == {}
    for foreign in ('{"name": "x"}', "{}", "[]", '{"version": 1, "cases": {}, "icons": []}'):
        path.write_text(foreign)
        with pytest.raises(ManifestError):
            load_manifest(path)
