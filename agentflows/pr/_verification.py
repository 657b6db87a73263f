"""The PR description's "Verification" section: what each committed case was proven against."""

from __future__ import annotations

from typing import Any


def verification_lines(report: dict[str, Any], committed: list[str]) -> list[str]:
    """Per committed case: verified (yes / repaired / weak / skipped / needs-review), against
    what, mutants
    killed; then the cases verification dropped, with the reason."""
    summary = report.get("verification")
    if not summary:
        return []
    if not summary["enabled"]:
        return ["## Verification", "", "Skipped (`--no-verify`): no case was played.", ""]
    against = ", ".join(f"`{a}`" for a in summary["against"]) or "nothing"
    lines = [
        "## Verification",
        "",
        f"Each case was played before writing against {against} (offline simulator; "
        "criteria unjudged) and, for Mantle, against the allowed variants of the reference "
        "agent (what the definitions leave to the model: a sound case passes every one) and "
        "the mutants on its path. "
        f"{summary['yes']} yes, {summary['repaired']} repaired, {summary['weak']} weak, "
        f"{summary['dropped']} dropped, {summary['skipped']} skipped"
        + (f" ({summary['failed']} because verification failed)" if summary.get("failed") else "")
        + (
            f", {summary['needs_review']} needs-review (a case the suite must have that the "
            "verifier fails, or whose goal nothing in the definitions lets it check: written as "
            "drafted, for a person to decide)"
            if summary.get("needs_review")
            else ""
        )
        + f"; allowed variants passed {summary.get('variants_passed', 0)}/"
        f"{summary.get('variants_played', 0)}"
        + f"; mutants killed {summary['mutants_killed']}/{summary['mutants_played']} played.",
        "",
        "| file | verified | against | variants passed | mutants killed | note |",
        "|---|---|---|---|---|---|",
    ]
    for case in report["cases"]:
        if case["path"] not in committed:
            continue
        record = case.get("verification") or {}
        played = case.get("mutants_played", 0)
        killed = f"{case.get('mutants_killed', 0)}/{played}" if played else "–"
        tried = case.get("variants_played", 0)
        passed = f"{case.get('variants_passed', 0)}/{tried}" if tried else "–"
        note = record.get("reason") or ""
        if case.get("verified") == "repaired":
            note = "; ".join(
                f"{r['code']} {r['path']}".strip() for r in record.get("repairs") or []
            )
        lines.append(
            f"| `{case['path']}` | {case.get('verified', 'skipped')} | "
            f"`{case.get('verified_against', 'none')}` | {passed} | {killed} | {_cell(note)} |"
        )
    drops = [d for d in report.get("dropped", []) if d.get("stage") == "verify"]
    if drops:
        lines += ["", "Dropped by verification (not committed):", ""]
        lines += [f"- `{d['behavior']}`: {_cell(str(d['reason']))}" for d in drops]
    return [*lines, ""]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


__all__ = ["verification_lines"]
