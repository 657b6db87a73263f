"""Reading one batch of results: `<results>/<timestamp>/` with its run files and summary.

`casegen report` takes either a timestamp folder (it holds `summary.json` or case folders
with `run_N.json`) or the results folder above it, in which case the newest timestamp is
the batch and the older ones are counted, not merged. A run file that cannot be read is
kept as a problem the report shows, so one damaged file does not hide the other runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from evalcore.documents import UnreadableFile, read_json
from evalcore.errors import UserError
from evalcore.lexicon.notation.file_names import RUN_FILE
from evalcore.runner import RunRecord, Summary, summarize


@dataclass(frozen=True)
class Problem:
    """A file of the batch that could not be read, and why."""

    path: str
    message: str


@dataclass
class CaseRuns:
    """Every run of one case (one `<slug>/` folder) in a batch."""

    slug: str
    name: str
    path: str
    dialect: str
    runs: list[RunRecord]

    @property
    def status(self) -> str:
        """`passed` when every run passed, `failed` when any failed, else `errored`."""
        statuses = {r.status for r in self.runs}
        if statuses == {"passed"}:
            return "passed"
        return "failed" if "failed" in statuses else "errored"

    @property
    def passed_runs(self) -> int:
        return sum(r.passed for r in self.runs)


@dataclass
class Batch:
    """One results batch as the report shows it."""

    dir: Path
    summary: Summary
    cases: list[CaseRuns]
    problems: list[Problem] = field(default_factory=list)
    older_batches: int = 0
    """Other timestamp folders next to this one (when a results root was given)."""

    def case(self, slug: str) -> CaseRuns | None:
        return next((c for c in self.cases if c.slug == slug), None)

    @property
    def engines(self) -> dict[str, list[str]]:
        """Which simulators and judges ran, e.g. `{"simulator": ["offline"], ...}`."""
        out: dict[str, set[str]] = {"simulator": set(), "judge": set()}
        for case in self.cases:
            for run in case.runs:
                out["simulator"].add(_engine(run.simulator.engine, run.simulator.model))
                out["judge"].add(_engine(run.judge.engine, run.judge.model))
        return {k: sorted(v) for k, v in out.items()}


def _engine(engine: str, model: str | None) -> str:
    return f"{engine} ({model})" if model else engine


def batch_dir(path: Path) -> tuple[Path, int]:
    """The timestamp folder to report on, and how many other batches lie beside it.

    Raises:
        UserError: the folder is missing or holds no results (exit 2).
    """
    if not path.exists():
        raise UserError(f"no such results folder: {path}")
    if not path.is_dir():
        raise UserError(
            f"{path} is not a folder",
            hint="give a results folder: <results>/<timestamp>/ or the folder above it",
        )
    if _is_batch(path):
        return path, 0
    batches = sorted(p for p in path.iterdir() if p.is_dir() and _is_batch(p))
    if not batches:
        raise UserError(
            f"no run results in {path}",
            hint="expected <timestamp>/summary.json and <case>/run_N.json, as `casegen run` "
            "writes them",
        )
    return batches[-1], len(batches) - 1


def _is_batch(path: Path) -> bool:
    if (path / "summary.json").is_file():
        return True
    return any(
        RUN_FILE.match(f.name) for case in path.iterdir() if case.is_dir() for f in case.iterdir()
    )


def load_batch(path: Path) -> Batch:
    """Read the batch at or below `path` (see the module docstring)."""
    folder, older = batch_dir(Path(path))
    problems: list[Problem] = []
    records: list[RunRecord] = []
    for file in _run_files(folder):
        try:
            data = read_json(file)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            records.append(RunRecord.from_json(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "/".join(str(p) for p in first["loc"]) or "(top)"
            problems.append(Problem(str(file), f"/{where}: {first['msg']}"))
        except UnreadableFile as exc:
            problems.append(Problem(str(file), str(exc).replace(f"cannot read {file}: ", "")))
        except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
            problems.append(Problem(str(file), f"unreadable: {exc}"))
    summary = _summary(folder, records, problems)
    return Batch(
        dir=folder,
        summary=summary,
        cases=_group(records, summary),
        problems=problems,
        older_batches=older,
    )


def _run_files(folder: Path) -> list[Path]:
    files = [
        f
        for case in folder.iterdir()
        if case.is_dir()
        for f in case.iterdir()
        if RUN_FILE.match(f.name)
    ]
    return sorted(files, key=lambda f: (f.parent.name, int(RUN_FILE.match(f.name).group(1))))


def _summary(folder: Path, records: list[RunRecord], problems: list[Problem]) -> Summary:
    """`summary.json` when it is readable, else one computed from the run files."""
    file = folder / "summary.json"
    if file.is_file():
        try:
            return Summary.model_validate(read_json(file))
        except (OSError, ValueError) as exc:
            problems.append(Problem(str(file), f"unreadable, totals computed from runs: {exc}"))
    return summarize(
        records,
        timestamp=folder.name,
        target=", ".join(sorted({r.target for r in records})),
        wall_clock_s=sum(r.duration_s for r in records),
    )


def _group(records: list[RunRecord], summary: Summary) -> list[CaseRuns]:
    """Cases in the summary's order (the order they ran), then any it does not list."""
    by_slug: dict[str, CaseRuns] = {}
    for record in sorted(records, key=lambda r: r.run_index):
        case = by_slug.setdefault(
            record.scenario_slug,
            CaseRuns(
                slug=record.scenario_slug,
                name=record.scenario_name,
                path=record.case_path,
                dialect=record.dialect,
                runs=[],
            ),
        )
        case.runs.append(record)
    order = {e.scenario_slug: i for i, e in enumerate(summary.entries)}
    return sorted(by_slug.values(), key=lambda c: (order.get(c.slug, len(order)), c.slug))


__all__ = ["Batch", "CaseRuns", "Problem", "batch_dir", "load_batch"]
