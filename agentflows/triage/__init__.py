"""Failure triage: for each failed run in a results folder, what broke, where, and what to fix.

    report = triage_results(Path("eval/results"))
    report["causes"][0]     # {"id", "bucket", "cause", "runs": [...], "evidence", "fix", ...}
    report["failures"][0]   # {"case", "slug", "run", "turn", "bucket", "cause": "C1", ...}

Each failed run gets the turn that broke, one bucket of the Mantle fix loop (reference §5:
**Skill**, **Instruction**, **Scenario** or **Tool**), the evidence it rests on and a proposed
fix; runs with one root cause are grouped into one diagnosis listing the runs it explains
(`_causes.py`). Deterministic rules always run (`_rules.py` documents them in order); when
a model is configured (`--model`, `CASEGEN_JUDGE_MODEL`, `CASEGEN_MODEL` or
`[tool.casegen]`), it reviews each diagnosis, except that deterministic Tool evidence is
never overridden.

The report is what `casegen triage --json` prints and the MCP tool `triage_results` returns.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalcore.errors import UserError
from evalcore.llm import LLMError

from ._case import CaseLoader
from ._causes import group_causes
from ._facts import Facts, gather
from ._llm import refine
from ._records import RunRecord, find_run_files, load_run
from ._rules import BUCKETS, Bucket, Diagnosis, Evidence, diagnose

if TYPE_CHECKING:
    from evalcore.llm import ModelConfig

#: Model calls in flight at once when a model reviews the diagnoses.
CONCURRENCY = 4


def triage_results(
    results_dir: str | Path,
    *,
    project: str | Path | None = None,
    model: str | None = None,
    no_cache: bool = False,
) -> dict[str, Any]:
    """Triage every failed run below `results_dir` (sync wrapper of `triage_results_async`)."""
    return asyncio.run(
        triage_results_async(results_dir, project=project, model=model, no_cache=no_cache)
    )


async def triage_results_async(
    results_dir: str | Path,
    *,
    project: str | Path | None = None,
    model: str | None = None,
    no_cache: bool = False,
) -> dict[str, Any]:
    """The triage report of a results folder.

    Raises:
        UserError: the folder is missing, or holds no run results (exit 2).
    """
    root = Path(results_dir)
    files = find_run_files(root)
    warnings: list[str] = []
    records: list[RunRecord] = []
    for file in files:
        try:
            records.append(load_run(file))
        except UserError as exc:
            warnings.append(exc.message)
    if not records:
        raise UserError(f"no readable run results in {root}", hint="; ".join(warnings[:3]))
    loader = CaseLoader(root, Path(project) if project is not None else None)
    failed = [r for r in records if not r.passed and not _harness_error(r)]
    diagnosed = [(r, *_rules(r, loader)) for r in failed]
    config, method = _model(model, loader, root, warnings)
    if config is not None:
        diagnosed = await _refine_all(diagnosed, config, no_cache, warnings)
    pairs = [
        (d, _failure(r, d, method if used else "rules"))
        for r, _, d, used in _with_flags(diagnosed, config)
    ]
    causes = group_causes(pairs)
    failures = [f for _, f in pairs]
    counts = Counter(f["bucket"] for f in failures)
    cause_counts = Counter(c["bucket"] for c in causes)
    return {
        "results_dir": str(root),
        "causes": causes,
        "failures": failures,
        "summary": {bucket: counts.get(bucket, 0) for bucket in BUCKETS},
        "cause_summary": {bucket: cause_counts.get(bucket, 0) for bucket in BUCKETS},
        "runs": {
            "total": len(records),
            "passed": sum(r.passed for r in records),
            "failed": len(failures),
            "errored": sum(_harness_error(r) for r in records),
            "causes": len(causes),
        },
        "errored": [
            {"case": r.case, "slug": r.slug, "run": r.run, "error": r.error, "file": str(r.file)}
            for r in records
            if _harness_error(r)
        ],
        "warnings": warnings,
    }


def _harness_error(record: RunRecord) -> bool:
    """An errored run the harness caused (agent unreachable, timeout): nothing to triage.
    A simulator that failed is the case's problem and is triaged (Scenario)."""
    return record.errored and not record.simulator_failed


def _rules(record: RunRecord, loader: CaseLoader) -> tuple[Facts, Diagnosis, bool]:
    facts = gather(record, loader.for_run(record))
    return facts, diagnose(facts), False


def _model(
    model: str | None, loader: CaseLoader, root: Path, warnings: list[str]
) -> tuple[ModelConfig | None, str]:
    if model == "offline":
        return None, "rules"
    try:
        from evalcore.llm import resolve_model_config  # start-up: not for rules-only triage
    except ImportError:
        return None, "rules"
    start = loader.explicit.root if loader.explicit is not None else root
    try:
        config = resolve_model_config(model, start=start, role="judge")
    except UserError as exc:
        warnings.append(f"no model review: {exc.message}")
        return None, "rules"
    if config is None:
        return None, "rules"
    return config, f"rules+llm:{config.model}"


async def _refine_all(
    diagnosed: list[tuple[RunRecord, Facts, Diagnosis, bool]],
    config: ModelConfig,
    no_cache: bool,
    warnings: list[str],
) -> list[tuple[RunRecord, Facts, Diagnosis, bool]]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(
        item: tuple[RunRecord, Facts, Diagnosis, bool],
    ) -> tuple[RunRecord, Facts, Diagnosis, bool]:
        record, facts, diagnosis, _ = item
        async with gate:
            try:
                return (
                    record,
                    facts,
                    await refine(facts, diagnosis, config, no_cache=no_cache),
                    True,
                )
            except (LLMError, UserError) as exc:
                warnings.append(f"{record.slug} run {record.run}: model review failed: {exc}")
                return item

    return list(await asyncio.gather(*(one(item) for item in diagnosed)))


def _with_flags(
    diagnosed: list[tuple[RunRecord, Facts, Diagnosis, bool]], config: ModelConfig | None
) -> list[tuple[RunRecord, Facts, Diagnosis, bool]]:
    return [(r, f, d, used and config is not None) for r, f, d, used in diagnosed]


def _failure(record: RunRecord, diagnosis: Diagnosis, method: str) -> dict[str, Any]:
    return {
        "case": record.case,
        "slug": record.slug,
        "run": record.run,
        "turn": diagnosis.turn,
        "bucket": diagnosis.bucket,
        "evidence": [e.to_json() for e in [*diagnosis.evidence, *diagnosis.notes]],
        "fix": diagnosis.fix,
        "method": method,
        "rule": diagnosis.rule,
        "file": str(record.file),
    }


__all__ = [
    "BUCKETS",
    "Bucket",
    "Diagnosis",
    "Evidence",
    "triage_results",
    "triage_results_async",
]
