"""Fixtures travel to Ray workers as objects: a tar of the fixture and its skills.

A `command:` run and its base44 checks work in a copy of the fixture's `project/`, so the
worker needs the fixture's files. The driver packs each fixture once (the fixture folder
without its case files, plus every skill `FixtureContext` would install) into the bytes of a
tar, puts them in Ray's object store, and each worker unpacks a fixture once into a private
temporary folder, reused by every run of that fixture on that worker. The pack is held to the
file-size limit of `evalcore/limits.py` (`max_file_mb`, 8 MiB by default, read from the
settings near the fixture): a fixture over it is refused before any run, with the hint to
raise the limit or to put the fixtures on a path every node shares
(`CASEGEN_RAY_SHARED_PATHS=1`, the paths then go to the workers as they are).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents import CONTEXT_KEY, SKILLS_PROJECT_KEY, FixtureContext
from ..errors import UserError
from ..limits import limits_for
from ..runcase import RunCase

SHARED_PATHS_ENV = "CASEGEN_RAY_SHARED_PATHS"
_SKIP = {".git"}


@dataclass(frozen=True)
class FixturePack:
    """One fixture, packed: what the worker unpacks and the context it runs under."""

    digest: str
    data: bytes
    context: dict[str, Any]
    """`FixtureContext.to_json()`, skill paths relative to the pack (`skills/<name>`)."""


def shared_paths() -> bool:
    return os.environ.get(SHARED_PATHS_ENV, "").strip().lower() in {"1", "true", "yes"}


def _members(root: Path, leave_out: set[Path]) -> Iterable[tuple[Path, str]]:
    """(path on disk, name in the pack) of every folder and file: links to files inside are
    followed, links leading out are left out."""
    real_root = root.resolve()
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and not (here / d).is_symlink())
        yield here, here.relative_to(root).as_posix()  # folders too: an empty one counts
        for name in sorted(files):
            path = here / name
            real = path.resolve()
            if real in leave_out or not real.is_relative_to(real_root) or not real.is_file():
                continue
            yield real, path.relative_to(root).as_posix()


def _under(prefix: str, name: str) -> str:
    return prefix if name == "." else f"{prefix}/{name}"


def pack_fixture(
    fixture: Path, case_paths: Iterable[str], project: str | None = None
) -> FixturePack:
    """The fixture and its skills (from `project`, the case's Agent Skills project, when the
    runner named one) as tar bytes, within the fixture's `max_file_mb`.

    Raises:
        UserError: the pack is over the size limit.
    """
    context = FixtureContext.resolve(fixture, next(iter(case_paths), None), project)
    leave_out = {Path(p).resolve() for p in case_paths}
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for real, name in _members(fixture, leave_out):
            tar.add(real, arcname=_under("fixture", name), recursive=False)
        for skill, folder in sorted(context.skills.items()):
            for real, name in _members(Path(folder), set()):
                tar.add(real, arcname=_under(f"skills/{skill}", name), recursive=False)
    data = buffer.getvalue()
    limits = limits_for(fixture / "eval.json")
    if len(data) > limits.max_file_bytes:
        raise UserError(
            f"{fixture}: the fixture and its skills pack to {len(data) / 2**20:.1f} MiB, over "
            f"the {limits.max_file_mb:g} MiB limit for shipping it to Ray workers",
            hint="raise `max_file_mb` in [tool.casegen.limits], or put the fixtures on a path "
            f"every Ray node shares and set {SHARED_PATHS_ENV}=1",
        )
    shipped = FixtureContext(
        max_output_bytes=context.max_output_bytes,
        pass_env=context.pass_env,
        vocabulary=context.vocabulary,
        skills={name: f"skills/{name}" for name in context.skills},
    )
    return FixturePack(hashlib.sha256(data).hexdigest(), data, shipped.to_json())


def fixture_of(case: RunCase) -> Path | None:
    fixture = (case.setup or {}).get("fixture")
    return Path(fixture) if fixture else None


def pack_fixtures(cases: Iterable[RunCase]) -> dict[str, FixturePack]:
    """fixture path → pack, for every fixture the cases name (once each)."""
    paths: dict[str, list[str]] = {}
    projects: dict[str, str | None] = {}
    for case in cases:
        fixture = fixture_of(case)
        if fixture is not None:
            paths.setdefault(str(fixture), []).append(case.path)
            projects.setdefault(str(fixture), case.setup.get(SKILLS_PROJECT_KEY))
    return {
        fixture: pack_fixture(Path(fixture), sorted(set(p)), projects[fixture])
        for fixture, p in paths.items()
    }


def shared_context(case: RunCase) -> RunCase:
    """The case with its fixture context resolved here (fixtures on a shared path)."""
    fixture = fixture_of(case)
    if fixture is None:
        return case
    context = FixtureContext.resolve(fixture, case.path, case.setup.get(SKILLS_PROJECT_KEY))
    return case.model_copy(update={"setup": {**case.setup, CONTEXT_KEY: context.to_json()}})


# --- on the worker ----------------------------------------------------------------------

_UNPACKED: dict[str, Path] = {}


@atexit.register
def _remove_unpacked() -> None:
    for folder in _UNPACKED.values():
        shutil.rmtree(folder, ignore_errors=True)
    _UNPACKED.clear()


def unpack(pack: FixturePack) -> Path:
    """The pack's folder on this worker (unpacked on first use)."""
    folder = _UNPACKED.get(pack.digest)
    if folder is not None and folder.is_dir():
        return folder
    folder = Path(tempfile.mkdtemp(prefix="casegen-ray-fixture-"))
    with tarfile.open(fileobj=io.BytesIO(pack.data), mode="r") as tar:
        tar.extractall(folder, filter="data")
    _UNPACKED[pack.digest] = folder
    return folder


def case_on_worker(case: RunCase, pack: FixturePack) -> RunCase:
    """The case pointing at the unpacked fixture; `path` stays the driver's (for records)."""
    folder = unpack(pack)
    context = dict(pack.context)
    context["skills"] = {name: str(folder / rel) for name, rel in context["skills"].items()}
    setup = {**case.setup, "fixture": str(folder / "fixture"), CONTEXT_KEY: context}
    return case.model_copy(update={"setup": setup})


__all__ = [
    "SHARED_PATHS_ENV",
    "FixturePack",
    "case_on_worker",
    "pack_fixtures",
    "shared_context",
    "shared_paths",
    "unpack",
]
