"""Golden outputs: what casegen writes, file by file, for every project we ship (docs/testing.md).

A change to what casegen writes must show in the commit that makes it. The examples'
offline `generate all` output is committed whole in `generated_cases/` (bank → `mantle/`,
clinic → `anychat/`, skills → `base44/`) and compared byte for byte; the corpus projects'
output is too large to commit, so `tests/data/goldens/<project>.json` holds one sha256 per
written file, and a commit that changes a case changes a line of that file (the manifest
is digested without its run id and project path: they name the run, not its output).
`run`, `report` and `assert` on fixed inputs are compared with
`tests/data/goldens/commands/`, the run's measured times pinned.

    python -m benchmarks goldens                      # compare; exit 1 listing each difference
    python -m benchmarks goldens --update             # rewrite tests/data/goldens/
    python -m benchmarks goldens --project forge_platform --project clinic --project commands

Every project is generated in this one process with the generation day pinned
(`SOURCE_DATE_EPOCH`: 2026-01-01), so the check costs what generation costs. `--update`
never touches `generated_cases/`: an example is refreshed with `casegen generate all
--project examples/<name> --model offline --force` (the same day pinned), which also keeps
its manifest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import io
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from agentflows.cli import main as cli_main
from agentflows.generate import build_request, run_generation
from evalcore.definitions import load_project
from evalcore.dialects.mantle.citations import misplaced_citations
from evalcore.writer import atomic_write_text
from evalcore.yamlio import load_yaml

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
GOLDENS = REPO / "tests" / "data" / "goldens"
#: The generation day every golden was written on (2026-01-01).
GENERATED_ON = "1767225600"
#: Each example and the folder of `generated_cases/` holding its committed output.
EXAMPLES = {
    "bank": REPO / "generated_cases" / "mantle",
    "clinic": REPO / "generated_cases" / "anychat",
    "skills": REPO / "generated_cases" / "base44",
}
MANIFEST = "manifest.json"
EXAMPLES_MANIFEST = REPO / "generated_cases" / MANIFEST
#: Manifest fields that name the run (its id, the path it was given), not what it wrote.
RUN_FIELDS = ("run_id", "project")
REFRESH_EXAMPLES = (
    "SOURCE_DATE_EPOCH=1767225600 casegen generate all --project examples/{name} "
    "--model offline --force (and remove the manifest entries of cases no longer written)"
)


def corpus_names() -> list[str]:
    """The corpus projects (folders with an `agent.yml` under `tests/data/corpus`)."""
    return sorted(p.name for p in CORPUS.iterdir() if (p / "agent.yml").is_file())


def project_dir(name: str) -> Path:
    return REPO / "examples" / name if name in EXAMPLES else CORPUS / name


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_digest(data: bytes) -> str:
    """The manifest's sha256 with the run's own fields dropped from every entry."""
    manifest = json.loads(data)
    for entry in manifest.get("cases", {}).values():
        for field in RUN_FIELDS:
            entry.pop(field, None)
    return _sha(json.dumps(manifest, indent=2, sort_keys=True).encode())


def digests(root: Path, *, manifest: bool = True) -> dict[str, str]:
    """{path relative to `root`: sha256} for every file under `root` (POSIX separators)."""
    found: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        if name == MANIFEST:
            if manifest:
                found[name] = manifest_digest(path.read_bytes())
            continue
        found[name] = _sha(path.read_bytes())
    return found


async def generate(project: Path, out: Path) -> dict[str, Any]:
    """`casegen generate all --project PROJECT --model offline --out OUT`, as the command runs
    it (verification included), with the generation day pinned."""
    os.environ["SOURCE_DATE_EPOCH"] = GENERATED_ON
    request = build_request(["all"], project=project, model="offline", out=str(out / "cases"))
    return await run_generation(request, checkpoints=out / "checkpoints.sqlite")


def expected(name: str) -> dict[str, str]:
    """The golden of one project: the committed example output, or the corpus digest file."""
    if name in EXAMPLES:
        return digests(EXAMPLES[name], manifest=False)
    path = GOLDENS / f"{name}.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["files"]


def manifest_differences(name: str, written: dict[str, str], manifest: dict[str, Any]) -> list[str]:
    """An example's entries in `generated_cases/manifest.json` are its written cases: an
    entry left for a case `generate` no longer writes makes `casegen status` report it."""
    folder = EXAMPLES[name].name + "/"
    listed = {
        key.removeprefix(folder) for key in manifest.get("cases", {}) if key.startswith(folder)
    }
    lines = [f"{name}: the manifest lists {f}, not written" for f in sorted(listed - set(written))]
    return lines + [f"{name}: the manifest lacks {f}" for f in sorted(set(written) - listed)]


def differences(name: str, written: dict[str, str], golden: dict[str, str]) -> list[str]:
    """One line per file written differently, written but not in the golden, or missing."""
    lines = [f"{name}: changed {f}" for f in written if f in golden and written[f] != golden[f]]
    lines += [f"{name}: new {f}" for f in written if f not in golden]
    lines += [f"{name}: no longer written {f}" for f in golden if f not in written]
    return lines


#: `run`, `report` and `assert` on fixed inputs: a suite of two cases (one passes against
#: `demo:bank`, one fails), the recorded batch and the recorded tracker under tests/data.
COMMANDS_NAME = "commands"
COMMANDS = GOLDENS / COMMANDS_NAME
SUITE = COMMANDS / "cases"
BATCH = REPO / "tests" / "data" / "results" / "2026-03-02_14-05-11"
EVENTS = REPO / "tests" / "data" / "events"
#: What a run measures rather than decides: a time stamp, a duration or latency (free text
#: "0.4s", "3 ms"; a field named `*_s` or `*_ms`). Each is pinned to a fixed value.
_STAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T_]\d{2}[:-]\d{2}[:-]\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?"
)
_MEASURED_FIELD = re.compile(r'(\b\w+_m?s"?\s*[:=]\s*)-?\d+(?:\.\d+)?')
_DURATION = re.compile(r"\b\d+(?:\.\d+)?(\s?m?s)\b")
PINNED_STAMP = "2026-01-01T00:00:00+00:00"


def pinned(text: str, folders: dict[Path, str]) -> str:
    """`text` with every time stamp, duration and latency pinned and each folder of
    `folders` written as its placeholder (the results of a run land in a fresh folder)."""
    for folder, name in folders.items():
        text = text.replace(str(folder), name)
    text = _STAMP.sub(PINNED_STAMP, text)
    text = _MEASURED_FIELD.sub(r"\g<1>0", text)
    return _DURATION.sub(r"0\1", text)


def _cli(*args: str | Path) -> tuple[int, str]:
    """`casegen ARGS`, in this process; (exit code, stdout)."""
    with (
        contextlib.redirect_stdout(io.StringIO()) as out,
        contextlib.redirect_stderr(io.StringIO()),
    ):
        code = cli_main([str(a) for a in args])
    return code, out.getvalue()


def command_outputs(tmp: Path) -> dict[str, str]:
    """{golden file under tests/data/goldens/commands: its text} for `report` (terminal,
    JSON, HTML) on the recorded batch, `assert` on the recorded tracker, and `run` of the
    fixed suite against `demo:bank` offline (stdout and every results file, measured
    times pinned)."""
    found: dict[str, str] = {}
    for name, extra in (("report.txt", ()), ("report.json", ("--json",))):
        code, out = _cli("report", BATCH, *extra)
        found[name] = f"exit {code}\n{out}"
    _cli("report", BATCH, "--html", tmp / "report.html")
    found["report.html"] = (tmp / "report.html").read_text(encoding="utf-8")
    scenario = EVENTS / "card_replace_damaged.scenario.yml"
    code, out = _cli("assert", scenario, "--events", EVENTS / "card_replace_damaged.json", "--json")
    found["assert.json"] = f"exit {code}\n{out}"
    results = tmp / "results"
    args = ("--target", "demo:bank", "--model", "offline", "--judge-model", "offline")
    args += ("--parallel", "1")
    code, out = _cli("run", SUITE, *args, "--results", results)
    folders = {results: "<results>", REPO: "."}
    found["run/stdout.txt"] = pinned(f"exit {code}\n{out}", folders)
    for path in sorted(p for p in results.rglob("*") if p.is_file()):
        name = "run/" + "/".join(path.relative_to(results).parts[1:])  # without the stamp
        found[name] = pinned(path.read_text(encoding="utf-8"), folders)
    return {name: text.replace(str(REPO), ".") for name, text in found.items()}


def command_goldens() -> dict[str, str]:
    """The committed outputs of `command_outputs` (the suite's cases are inputs)."""
    return {
        p.relative_to(COMMANDS).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(COMMANDS.rglob("*"))
        if p.is_file() and SUITE not in p.parents
    }


def write_command_goldens(outputs: dict[str, str]) -> None:
    """Replace the committed command outputs with `outputs` (each file atomically)."""
    for name in set(command_goldens()) - set(outputs):
        (COMMANDS / name).unlink()
    for name, text in outputs.items():
        path = COMMANDS / name
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)


def write_golden(name: str, written: dict[str, str]) -> Path:
    """`tests/data/goldens/<name>.json`, written atomically."""
    GOLDENS.mkdir(parents=True, exist_ok=True)
    path = GOLDENS / f"{name}.json"
    body = {
        "project": f"tests/data/corpus/{name}",
        "command": "python -m benchmarks goldens --update",
        "generated_on": GENERATED_ON,
        "files": written,
    }
    part = path.with_suffix(".json.part")
    part.write_text(json.dumps(body, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    part.replace(path)
    return path


def misplaced(name: str, cases: Path) -> list[str]:
    """`<project>: <case> <check>: <why>` for each written citation that points at a line
    not backing its check (`misplaced_citations`): another skill's file, another tool's
    entry, another branch's paragraph. Not a digest: `--update` does not clear it."""
    project = load_project(project_dir(name))
    if project.mantle is None:
        return []
    out: list[str] = []
    for path in sorted(cases.rglob("*.yml")):
        data = load_yaml(path.read_text(encoding="utf-8"))
        rel = path.relative_to(cases)
        out += [f"{name}: {rel} {line}" for line in misplaced_citations(data, project)]
    return out


async def check(names: list[str], *, update: bool = False) -> tuple[list[str], list[str]]:
    """(differences, updated golden files) over `names`, each generated once here."""
    found: list[str] = []
    updated: list[str] = []
    with tempfile.TemporaryDirectory(prefix="casegen-goldens-") as tmp:
        for name in names:
            out = Path(tmp) / name
            if name == COMMANDS_NAME:
                out.mkdir()
                outputs = await asyncio.to_thread(command_outputs, out)
                diff = differences(name, outputs, command_goldens())
                if update and diff:
                    write_command_goldens(outputs)
                    updated.append(str(COMMANDS.relative_to(REPO)))
                    continue
                found += diff
                continue
            await generate(project_dir(name), out)
            example = name in EXAMPLES
            written = digests(out / "cases", manifest=not example)
            diff = differences(name, written, expected(name))
            diff += misplaced(name, out / "cases")
            if example:
                committed = json.loads(EXAMPLES_MANIFEST.read_text(encoding="utf-8"))
                diff += manifest_differences(name, written, committed)
            if update and not example:
                if diff:
                    updated.append(str(write_golden(name, written).relative_to(REPO)))
                continue
            found += diff
    return found, updated


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks goldens")
    parser.add_argument(
        "--project",
        action="append",
        help="only this project: a corpus project, bank, clinic, skills, or commands "
        "(run, report and assert on fixed inputs); repeat",
    )
    parser.add_argument(
        "--update", action="store_true", help="rewrite the corpus digests that differ"
    )
    args = parser.parse_args(argv)
    every = [*EXAMPLES, *corpus_names(), COMMANDS_NAME]
    names = args.project or every
    unknown = [n for n in names if n not in every]
    if unknown:
        print(f"no project {', '.join(unknown)} (projects: {', '.join(every)})")
        return 2
    started = time.perf_counter()
    found, updated = await check(names, update=args.update)
    for line in updated:
        print(f"updated {line}")
    for line in found:
        print(line)
    spent = time.perf_counter() - started
    if found:
        stale = sorted({line.split(":", 1)[0] for line in found})
        for name in stale:
            fix = (
                REFRESH_EXAMPLES.format(name=name)
                if name in EXAMPLES
                else "python -m benchmarks goldens --update"
            )
            print(f"{name}: if the change is meant, refresh with: {fix}")
        return 1
    noun = "project writes its golden" if len(names) == 1 else "projects write their goldens"
    print(f"{len(names)} {noun} ({spent:.1f} s)")
    return 0


# `python -m benchmarks.goldens` runs it without importing every other benchmark.
if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
