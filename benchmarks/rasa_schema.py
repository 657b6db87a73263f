"""Validate Mantle scenarios with Rasa's own packaged pykwalify schema (`make rasa-check`).

casegen's schema (`evalcore/dialects/mantle/schema.json`) is written from Rasa's reference;
this check asks the real thing. The `rasa-pro` wheel ships the scenario schema that its
`validate_scenario` tool uses (`rasa/builder/copilot/mcp_server/schema/scenario_schema.yml`)
and the pykwalify extension it needs (`rasa/e2e_test/pykwalify_extensions.py`). The wheel
(about 23 MB) is downloaded once with pip, the two files are kept under
`.casegen/rasa-pro/<version>/` (ignored by git) and the wheel is thrown away.

    python -m benchmarks rasa-schema [PATHS...] [--offline] [--version V]

PATHS (files or folders; default `examples` and `generated_cases/mantle`) are searched for
Mantle scenarios. Each file is read as Rasa reads it (ruamel.yaml, YAML 1.2, duplicate keys
rejected, `${VAR}` kept literal) and validated with pykwalify; one line per file, exit 1 when
a file is invalid, 2 when the schema cannot be had. pykwalify is an optional dependency:
`pip install -e '.[rasa-check]'`.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import tempfile
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RASA_PRO_VERSION = "3.22.0.dev1"
"""The newest 3.22 build on the package registry (the reference targets 3.22)."""
SCHEMA_MEMBER = "rasa/builder/copilot/mcp_server/schema/scenario_schema.yml"
EXTENSIONS_MEMBER = "rasa/e2e_test/pykwalify_extensions.py"
CACHE_ROOT = REPO / ".casegen" / "rasa-pro"
DEFAULT_PATHS = (REPO / "examples", REPO / "generated_cases" / "mantle")
_MAX_WHEEL_BYTES = 100 * 1024 * 1024


@dataclass(frozen=True)
class RasaSchema:
    """The two files pykwalify needs, as extracted from the wheel."""

    schema: Path
    extensions: Path

    def load(self) -> Any:
        return _yaml_load(self.schema.read_text(encoding="utf-8"))


def cache_dir(version: str = RASA_PRO_VERSION, root: Path | None = None) -> Path:
    return (root or CACHE_ROOT) / version


def cached_schema(version: str = RASA_PRO_VERSION, root: Path | None = None) -> RasaSchema | None:
    """The cached schema files, or None when they were never fetched."""
    folder = cache_dir(version, root)
    found = RasaSchema(folder / Path(SCHEMA_MEMBER).name, folder / Path(EXTENSIONS_MEMBER).name)
    return found if found.schema.is_file() and found.extensions.is_file() else None


def fetch_schema(version: str = RASA_PRO_VERSION, root: Path | None = None) -> RasaSchema:
    """Download the `rasa-pro` wheel once (no dependencies) and keep only the schema files."""
    existing = cached_schema(version, root)
    if existing is not None:
        return existing
    folder = cache_dir(version, root)
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pip", "download", f"rasa-pro=={version}"]
        command += ["--no-deps", "--only-binary", ":all:", "--quiet", "-d", tmp]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wheels = sorted(Path(tmp).glob("rasa_pro-*.whl"))
        if done.returncode != 0 or not wheels:
            detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no wheel"]
            raise RuntimeError(f"pip download rasa-pro=={version} failed: {detail[0]}")
        if wheels[0].stat().st_size > _MAX_WHEEL_BYTES:
            raise RuntimeError(f"{wheels[0].name} is over {_MAX_WHEEL_BYTES >> 20} MB; not kept")
        folder.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for member in (SCHEMA_MEMBER, EXTENSIONS_MEMBER):
                (folder / Path(member).name).write_bytes(wheel.read(member))
    fetched = cached_schema(version, root)
    assert fetched is not None
    return fetched


def _yaml_load(text: str) -> Any:
    """Read YAML the way Rasa reads scenarios: ruamel safe loader, YAML 1.2."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)
    yaml.allow_duplicate_keys = False
    return yaml.load(text)


def validate_data(data: Any, schema: RasaSchema, schema_data: Any | None = None) -> list[str]:
    """pykwalify's errors for one parsed scenario (empty when valid)."""
    from pykwalify.core import Core
    from pykwalify.errors import PyKwalifyException

    logging.getLogger("pykwalify").setLevel(logging.CRITICAL)
    with warnings.catch_warnings():  # pykwalify loads extensions with a deprecated API
        warnings.simplefilter("ignore", DeprecationWarning)
        core = Core(
            source_data=data if data is not None else {},
            schema_data=schema_data if schema_data is not None else schema.load(),
            extensions=[str(schema.extensions)],
        )
        try:
            core.validate(raise_exception=False)
        except PyKwalifyException as exc:  # a failing extension function raises instead
            return [str(getattr(exc, "msg", None) or exc)]
    return [str(error) for error in core.errors]


def validate_file(path: Path, schema: RasaSchema, schema_data: Any | None = None) -> list[str]:
    """Errors of one scenario file: YAML problems first, else the schema's."""
    try:
        data = _yaml_load(path.read_text(encoding="utf-8"))
    except Exception as exc:  # ruamel raises many types; every one makes the file invalid
        first = str(exc).strip().splitlines()
        return [f"YAML: {first[0] if first else type(exc).__name__}"]
    return validate_data(data, schema, schema_data)


def rasa_schema_errors(path: Path | str) -> list[str] | None:
    """Rasa's schema errors for one scenario file; None when the check is not available
    (schema never fetched, or pykwalify not installed). Never downloads anything."""
    schema = cached_schema()
    if schema is None or not pykwalify_available():
        return None
    return validate_file(Path(path), schema)


def pykwalify_available() -> bool:
    try:
        import pykwalify  # noqa: F401
        import ruamel.yaml  # noqa: F401
    except ImportError:
        return False
    return True


def scenario_files(paths: list[Path]) -> list[Path]:
    """Mantle scenario files under `paths` (a named file is always kept)."""
    from evalcore.dialects import get_dialect

    mantle = get_dialect("mantle")
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
            continue
        for candidate in sorted(p for p in path.rglob("*") if p.suffix in (".yml", ".yaml")):
            if any(part.startswith(".") for part in candidate.relative_to(path).parts):
                continue
            if _looks_like_scenario(candidate) or mantle.sniff(None, candidate):
                found.append(candidate)
    return found


def _looks_like_scenario(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.startswith("scenario:") for line in head.splitlines())


def check(paths: list[Path], schema: RasaSchema) -> tuple[int, int]:
    """Print one line per file; (valid, total)."""
    schema_data = schema.load()
    files = scenario_files(paths)
    valid = 0
    for file in files:
        errors = validate_file(file, schema, schema_data)
        shown = file.relative_to(REPO) if file.is_relative_to(REPO) else file
        if errors:
            print(
                f"INVALID {shown}: {errors[0]}" + (f" (+{len(errors) - 1})" if errors[1:] else "")
            )
        else:
            valid += 1
            print(f"valid   {shown}")
    print(f"{valid}/{len(files)} files valid under rasa-pro {schema.schema.parent.name}")
    return valid, len(files)


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks rasa-schema")
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders to check")
    parser.add_argument("--version", default=RASA_PRO_VERSION, help="rasa-pro version")
    parser.add_argument("--offline", action="store_true", help="use the cached schema only")
    args = parser.parse_args(argv)
    if not pykwalify_available():
        print("pykwalify is not installed: pip install -e '.[rasa-check]'", file=sys.stderr)
        return 2
    try:
        schema = cached_schema(args.version) if args.offline else fetch_schema(args.version)
    except (OSError, RuntimeError, KeyError) as exc:
        print(f"cannot get Rasa's scenario schema: {exc}", file=sys.stderr)
        return 2
    if schema is None:
        print(f"no cached schema under {cache_dir(args.version)}; run without --offline")
        return 2
    paths = [p.resolve() for p in args.paths] or [p for p in DEFAULT_PATHS if p.exists()]
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"no such file or folder: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    valid, total = check(paths, schema)
    return 0 if valid == total else 1
