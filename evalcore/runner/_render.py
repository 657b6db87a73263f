"""Text renderings of run results: `run_N.txt`, `summary.txt` and `summary.md`.

The `.txt` layouts follow Rasa's results folder (reference §4): a run file is a header, then
"Quality Criteria Results", "Quality Metrics", "Assertion Results", "Raw Transcript" and
"Latency"; the summary is "EXPERIMENT SUMMARY" with one `[PASS|FAIL] <name>  p/t  <secs>s
<dir>` line per scenario, `Total:`, `Time:` and "Scenarios requiring attention". casegen
adds what Rasa's files cannot show: ERROR runs, unjudged criteria ("assertions only"), and
the simulator and judge engines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..judge import ledger_lines
from ._record import EngineUse, RunRecord

if TYPE_CHECKING:
    from ._report import Summary

_MARK = {"pass": "PASS", "fail": "FAIL", "inconclusive": "INCONCLUSIVE", "unjudged": "UNJUDGED"}


def engine_text(use: EngineUse, role: str) -> str:
    if role == "judge" and use.engine == "none":
        return "none (no judge model configured: criteria unjudged)"
    text = use.engine + (f" {use.model}" if use.model else "")
    if use.samples and use.samples > 1:
        text += f" × {use.samples} samples (majority vote)"
    if use.usage.calls or use.usage.cache_hits:
        text += (
            f" · {use.usage.calls} calls, {use.usage.input_tokens} in / "
            f"{use.usage.output_tokens} out tokens"
        )
        if use.usage.cache_hits:
            text += f", {use.usage.cache_hits} cached"
        if use.usage.cost_usd:
            text += f", ${use.usage.cost_usd:.4f}"
    if use.note:
        text += f" ({use.note})"
    return text


def run_text(record: RunRecord) -> str:
    """The `run_N.txt` of one run."""
    lines = [
        f"scenario: {record.scenario_name}",
        f"slug: {record.scenario_slug}",
        f"case: {record.case_path}",
        f"run: {record.run_index}",
        f"timestamp: {record.timestamp}",
        f"conversation_id: {record.conversation_id or '-'}",
        f"target: {record.target}",
        f"overall_result: {record.verdict_label}",
        f"error: {record.error or 'none'}",
        f"stop_reason: {record.stop_reason}",
        f"turns: {record.turns}",
        f"duration: {record.duration_s:.2f}s",
        f"simulator: {engine_text(record.simulator, 'simulator')}",
        f"judge: {engine_text(record.judge, 'judge')}",
        "",
        "Quality Criteria Results",
    ]
    if not record.criteria:
        lines.append("  (no criteria)")
    for c in record.criteria:
        lines.append(f"  [{_MARK[c.verdict]}] {c.criterion}")
        lines.append(f"    rationale: {c.reason}")
        if c.votes:
            shown = ", ".join(f"{n} {v}" for v, n in c.votes.items())
            lines.append(f"    votes: {shown}" + ("  (samples disagree)" if c.disagreement else ""))
    if record.criteria and not record.judged:
        lines.append("  note: criteria were not judged; a PASS covers the assertions only")
    lines += ["", "Quality Metrics", *_metrics_lines(record), "", "Assertion Results"]
    if not record.assertions:
        lines.append("  (none evaluated)" if record.errored else "  (no assertions)")
    for a in record.assertions:
        mark = "PASS" if a["passed"] else "FAIL"
        lines.append(f"  [{mark}] {a['type']} — {a['detail']}")
    lines += ["", "Raw Transcript"]
    if not record.transcript:
        lines.append("  (empty)")
    for n, u in enumerate(record.transcript, start=1):
        lines.append(f"  {n}. [T{u.turn}] {u.role}: {u.text}")
    lines += ["", "Latency (not gating)"]
    for t in record.latency.per_turn:
        shown = f"{t.latency_ms:.0f} ms" if t.latency_ms is not None else "no answer"
        gap = f" (after {t.gap_ms:.0f} ms)" if t.gap_ms is not None else ""
        lines.append(f"  turn {t.turn} [{t.source}]: {shown}{gap}")
    lines.append(f"  avg_turn_latency_ms: {_ms(record.latency.avg_turn_latency_ms)}")
    lines.append(f"  avg_ttft_ms: {_ms(record.latency.avg_ttft_ms)}")
    lines.append(f"  avg_gap_ms: {_ms(record.latency.avg_gap_ms)}")
    inspector = record.meta.get("inspector_url") or record.meta.get("inspector")
    if inspector:
        lines += ["", f"Inspector: {inspector}"]
    lines += ["", "Event Ledger"]
    lines += [f"  {line}" for line in ledger_lines(record.events)] or ["  (no events)"]
    return "\n".join(lines) + "\n"


def _metrics_lines(record: RunRecord) -> list[str]:
    """`bot_quality: x/5` and each metric (Rasa's layout), or why there are none."""
    scores = record.scale_metrics
    if not scores:
        return [f"  {record.metrics_note or 'not measured'}"]
    lines = [f"  bot_quality: {scores.get('bot_quality', 0):g}/5"]
    lines += [f"  {name}: {value:g}/5" for name, value in scores.items() if name != "bot_quality"]
    if record.task_completion is not None:
        lines.append(f"  task_completion: {str(record.task_completion).lower()}")
    if record.metrics_reason:
        lines.append(f"  rationale: {record.metrics_reason}")
    return lines


def summary_text(summary: Summary, records: Sequence[RunRecord]) -> str:
    """The `summary.txt` of a results folder."""
    lines = ["EXPERIMENT SUMMARY", f"timestamp: {summary.timestamp}", f"target: {summary.target}"]
    if summary.target_note:
        lines.append(f"note: {summary.target_note}")
    if records:
        lines.append(f"simulator: {_engines(records, 'simulator')}")
        lines.append(f"judge: {_engines(records, 'judge')}")
    if summary.interrupted:
        lines.append(
            f"interrupted: {summary.totals.total} of {summary.runs_planned} planned runs "
            "finished; the others were not run"
        )
    lines.append("")
    for e in summary.entries:
        mark = "PASS" if e.runs_passed == e.runs_total and e.runs_total else "FAIL"
        lines.append(
            f"[{mark}] {e.scenario_name}  {e.runs_passed}/{e.runs_total}  "
            f"{e.duration_s:.1f}s  {e.scenario_slug}/"
        )
    t = summary.totals
    lines += ["", f"Total: {t.passed}/{t.total} passed", f"Time: {summary.wall_clock_s:.1f}s"]
    if t.failed or t.errored:
        lines.append(
            f"Failed: {t.failed} · Errored: {t.errored} (harness failures, not the agent's)"
        )
    if t.assertions_only:
        lines.append(
            f"Assertions only: {t.assertions_only} passing runs had criteria left "
            "unjudged (no judge model)"
        )
    attention = _attention(summary, records)
    lines += ["", "Scenarios requiring attention"]
    lines += attention or ["  none"]
    return "\n".join(lines) + "\n"


def summary_markdown(summary: Summary, records: Sequence[RunRecord]) -> str:
    """A Markdown summary for a pull-request comment."""
    t = summary.totals
    icon = "✅" if t.total and t.passed == t.total else ("❌" if t.failed else "⚠️")
    lines = [
        f"### {icon} casegen run: {t.passed}/{t.total} runs passed",
        "",
        f"Target `{summary.target}` · {summary.timestamp} · {summary.wall_clock_s:.1f}s"
        + (f" · {t.failed} failed" if t.failed else "")
        + (f" · {t.errored} errored" if t.errored else ""),
        "",
        *([f"> {summary.target_note}", ""] if summary.target_note else []),
        "| | Scenario | Passed | Pass rate | Errored | Time |",
        "|---|---|---|---|---|---|",
    ]
    for e in summary.entries:
        mark = (
            "✅"
            if e.runs_passed == e.runs_total and e.runs_total
            else ("❌" if e.runs_failed else "⚠️")
        )
        lines.append(
            f"| {mark} | {_md(e.scenario_name)} (`{e.scenario_slug}`) | "
            f"{e.runs_passed}/{e.runs_total} | {e.pass_rate:.0%} | {e.runs_errored} | "
            f"{e.duration_s:.1f}s |"
        )
    if t.assertions_only:
        lines += [
            "",
            f"> {t.assertions_only} passing runs cover **assertions only**: no judge "
            "model was configured, so their criteria are unjudged.",
        ]
    problems = [r for r in records if not r.passed]
    if problems:
        lines += ["", "<details><summary>Failures and errors</summary>", ""]
        for r in problems:
            lines.append(f"**{_md(r.scenario_name)}**, run {r.run_index}: {r.verdict_label}")
            if r.error:
                lines.append(f"- error: {_md(r.error)}")
            for a in r.assertions:
                if not a["passed"]:
                    lines.append(f"- assertion `{a['type']}`: {_md(a['detail'])}")
            for c in r.criteria:
                if c.verdict in ("fail", "inconclusive"):
                    lines.append(f"- criterion ({c.verdict}): {_md(c.criterion)}: {_md(c.reason)}")
            lines.append("")
        lines.append("</details>")
    return "\n".join(lines) + "\n"


def _attention(summary: Summary, records: Sequence[RunRecord]) -> list[str]:
    lines: list[str] = []
    for e in summary.entries:
        if e.runs_passed == e.runs_total and e.runs_total:
            continue
        lines.append(
            f"  {e.scenario_slug} ({e.scenario_name}): {e.runs_failed} failed, "
            f"{e.runs_errored} errored of {e.runs_total}"
        )
        for r in records:
            if r.scenario_slug != e.scenario_slug or r.passed:
                continue
            lines.append(f"    run {r.run_index} {r.verdict_label}: {_why(r)}")
    return lines


def _why(record: RunRecord) -> str:
    if record.error:
        return record.error
    reasons = [f"{a['type']} — {a['detail']}" for a in record.assertions if not a["passed"]]
    reasons += [
        f"criterion {c.verdict}: {c.criterion}"
        for c in record.criteria
        if c.verdict in ("fail", "inconclusive")
    ]
    return (
        reasons[0] + (f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else "")
        if reasons
        else "failed"
    )


def _engines(records: Sequence[RunRecord], role: str) -> str:
    """The distinct engines that played a role in these runs (what ran, not what it cost)."""
    names = set()
    for record in records:
        use: EngineUse = getattr(record, role)
        if role == "judge" and use.engine == "none":
            names.add("none (no judge model configured: criteria unjudged)")
        elif use.engine == "offline":
            names.add("offline (no simulator model configured: quoted user lines)")
        else:
            names.add(use.engine + (f" {use.model}" if use.model else ""))
    return "; ".join(sorted(names))


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _md(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


__all__ = ["engine_text", "run_text", "summary_markdown", "summary_text"]
