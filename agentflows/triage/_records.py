"""Reading a results folder: which runs exist, and what each run_N.json says.

The layout is the runner's (reference/mantle.md §4): `<results>/<timestamp>/<slug>/run_N.json`
next to `run_N.txt`, with `summary.json` per timestamp. Any folder in that tree may be given:
the whole `results/`, one timestamp, or one case. Field names follow the Mantle results file
and what casegen's runner adds (transcript, events, judge verdicts); alternatives seen in
other writers are accepted so that a renamed key degrades a diagnosis instead of losing it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalcore.documents import UnreadableFile, read_json
from evalcore.errors import UserError
from evalcore.lexicon.notation.file_names import RUN_FILE

from ._ledger import Ev, Line, parse_ledger, parse_transcript


@dataclass(frozen=True)
class CheckResult:
    """One assertion result (`{index, type, passed, detail}`)."""

    index: int
    type: str
    passed: bool
    detail: str
    spec: Any = None
    """The assertion as written in the case, when the record or the case file has it."""


@dataclass(frozen=True)
class CriterionResult:
    """One judge verdict (`{criterion, verdict, reason}` or Mantle's `{criterion, passed}`)."""

    index: int
    text: str
    verdict: str
    """`pass`, `fail` or `inconclusive`."""
    reason: str

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"


@dataclass
class RunRecord:
    """One run of one case, as recorded."""

    file: Path
    slug: str
    case: str
    run: int
    raw: Mapping[str, Any]
    events: list[Ev]
    transcript: list[Line]
    assertions: list[CheckResult]
    criteria: list[CriterionResult]
    errored: bool
    error: str | None
    passed: bool
    warnings: list[str] = field(default_factory=list)

    @property
    def case_path(self) -> str | None:
        for key in ("path", "case_path", "scenario_path", "file"):
            value = self.raw.get(key)
            if isinstance(value, str) and value:
                return value
        return None

    @property
    def stop_reason(self) -> str | None:
        """Why the conversation ended (runner: simulator_done, script_done, max_turns,
        simulate_max_turns, agent_ended, error)."""
        value = self.raw.get("stop_reason")
        return value if isinstance(value, str) else None

    @property
    def simulator_failed(self) -> bool:
        """The run errored because the simulated user could not go on (`simulator: ...`),
        which is the case's problem; a simulator *model* error is the harness's."""
        return bool(self.errored and self.error and self.error.startswith("simulator:"))

    @property
    def last_turn(self) -> int:
        turns = [e.turn for e in self.events] + [line.turn for line in self.transcript]
        return max(turns, default=0)

    def user_text(self, turn: int) -> str | None:
        for line in self.transcript:
            if line.turn == turn and line.role == "user":
                return line.text
        return None


def find_run_files(results_dir: Path) -> list[Path]:
    """Every `run_N.json` at or below `results_dir`, in timestamp, case, run order.

    Raises:
        UserError: the folder does not exist or holds no run files (exit 2).
    """
    if not results_dir.exists():
        raise UserError(f"no such results folder: {results_dir}")
    if not results_dir.is_dir():
        raise UserError(
            f"{results_dir} is not a folder",
            hint="give a results folder: <results>/<timestamp>/ or the folder above it",
        )
    files = [p for p in results_dir.rglob("run_*.json") if RUN_FILE.match(p.name)]
    if not files:
        raise UserError(
            f"no run results in {results_dir}",
            hint="expected <timestamp>/<case>/run_N.json files, as `casegen run` writes them",
        )
    return sorted(files, key=lambda p: (p.parent.parent.name, p.parent.name, _run_number(p)))


def _run_number(path: Path) -> int:
    match = RUN_FILE.match(path.name)
    return int(match.group(1)) if match else 0


def load_run(path: Path) -> RunRecord:
    """Parse one run file (UserError when it is not a JSON object)."""
    try:
        raw = read_json(path)
    except UnreadableFile as exc:
        raise UserError(str(exc)) from None
    if not isinstance(raw, Mapping):
        raise UserError(f"{path} is not a run record (a JSON object)")
    events = parse_ledger(raw.get("events") or raw.get("tracker_events") or [])
    transcript = parse_transcript(raw.get("transcript"), events)
    assertions = _assertions(raw.get("assertions"))
    criteria = _criteria(raw.get("criteria"))
    status = str(raw.get("status") or "").lower()
    errored = raw.get("errored") is True or status in ("errored", "error")
    error = raw.get("error")
    return RunRecord(
        file=path,
        slug=str(raw.get("scenario_slug") or raw.get("slug") or path.parent.name),
        case=str(
            raw.get("scenario_name")
            or raw.get("case")
            or raw.get("name")
            or raw.get("scenario_slug")
            or path.parent.name
        ),
        run=_int(raw.get("run_index"), raw.get("run"), default=_run_number(path)),
        raw=raw,
        events=events,
        transcript=transcript,
        assertions=assertions,
        criteria=criteria,
        errored=errored,
        error=str(error) if error else None,
        passed=_passed(raw, assertions, criteria, errored, status),
    )


def _passed(
    raw: Mapping[str, Any],
    assertions: Sequence[CheckResult],
    criteria: Sequence[CriterionResult],
    errored: bool,
    status: str,
) -> bool:
    if errored:
        return False
    for key in ("eval_passed", "passed"):
        if isinstance(raw.get(key), bool):
            return raw[key]
    overall = raw.get("overall_result")
    if isinstance(overall, str):
        return overall.upper() == "PASS"
    if status in ("passed", "failed"):
        return status == "passed"
    return all(a.passed for a in assertions) and all(
        c.passed or c.verdict == "unjudged" for c in criteria
    )


def _assertions(items: Any) -> list[CheckResult]:
    out: list[CheckResult] = []
    if not isinstance(items, Sequence) or isinstance(items, str):
        return out
    for position, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        out.append(
            CheckResult(
                index=_int(item.get("index"), default=position),
                type=str(item.get("type") or item.get("label") or "assertion"),
                passed=item.get("passed") is True,
                detail=str(item.get("detail") or item.get("reason") or ""),
                spec=item.get("assertion", item.get("spec")),
            )
        )
    return out


def _criteria(items: Any) -> list[CriterionResult]:
    out: list[CriterionResult] = []
    if not isinstance(items, Sequence) or isinstance(items, str):
        return out
    for position, item in enumerate(items):
        if isinstance(item, str):
            continue
        if not isinstance(item, Mapping):
            continue
        verdict = item.get("verdict")
        if not isinstance(verdict, str):
            verdict = "pass" if item.get("passed") is True else "fail"
        out.append(
            CriterionResult(
                index=_int(item.get("index"), item.get("criterion_index"), default=position),
                text=str(
                    item.get("criterion") or item.get("text") or item.get("criterion_text") or ""
                ),
                verdict=verdict.lower(),
                reason=str(
                    item.get("reason") or item.get("rationale") or item.get("reasoning") or ""
                ),
            )
        )
    return out


def _int(*values: Any, default: int = 0) -> int:
    for value in values:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return default


__all__ = ["CheckResult", "CriterionResult", "RunRecord", "find_run_files", "load_run"]
