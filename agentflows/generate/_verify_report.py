"""The verification fields of the generate report (per case, per dropped case, per run)."""

from __future__ import annotations

from typing import Any

LABELS = ("yes", "repaired", "weak", "skipped", "needs-review")


def row_fields(work: dict[str, Any], enabled: bool) -> dict[str, Any]:
    """`verified` (yes / repaired / weak / skipped / needs-review), `verified_against`,
    `mutants_killed`, `mutants_played`, `variants_passed`, `variants_played` (allowed
    variants of the reference agent: a sound case passes every one), the whole
    `verification` record of a written case, and `needs_review`: why it is written
    unverified (a case the suite must have that the verifier fails, or one whose
    verification failed), else None."""
    record = work.get("verification") or {
        "verified": "skipped",
        "outcome": "skipped",
        "weak": False,
        "against": "none",
        "method": "none",
        "reason": "--no-verify" if not enabled else "not verified (run started before verify)",
        "mutants_played": [],
        "mutants_killed": [],
        "variants_played": [],
        "variants_passed": [],
        "repairs": [],
        "notes": [],
        "failed": False,
    }
    if not work.get("verification") and work.get("needs_review"):  # unverified: still said
        record = {**record, "verified": "needs-review", "reason": work["needs_review"]}
    # the case is written unverified where the verifier failed, and says why at its top
    unverified = record["verified"] == "needs-review" or record.get("failed")
    return {
        "verified": record["verified"],
        "verified_against": record["against"],
        "mutants_killed": len(record["mutants_killed"]),
        "mutants_played": len(record["mutants_played"]),
        "variants_passed": len(record.get("variants_passed") or []),
        "variants_played": len(record.get("variants_played") or []),
        "verification": record,
        "needs_review": record.get("reason") if unverified else None,
    }


def drop_stage(work: dict[str, Any]) -> dict[str, Any]:
    """Which step dropped the case: `plan` (no sound case exists), `review` (a rule) or
    `verify` (the verifier, and what)."""
    if any(f.get("code") == "not-written" for f in work.get("findings") or []):
        return {"stage": "plan"}
    record = work.get("verification")
    if record and record.get("outcome") == "dropped":
        return {"stage": "verify", "against": record["against"]}
    return {"stage": "review"}


def verification_summary(
    rows: list[dict[str, Any]], dropped: list[dict[str, Any]], enabled: bool
) -> dict[str, Any]:
    counts = {
        label.replace("-", "_"): sum(r["verified"] == label for r in rows) for label in LABELS
    }
    return {
        "enabled": enabled,
        **counts,
        "dropped": sum(d.get("stage") == "verify" for d in dropped),
        "failed": sum(bool(r["verification"].get("failed")) for r in rows),
        "against": sorted({r["verified_against"] for r in rows} - {"none"}),
        "mutants_played": sum(r["mutants_played"] for r in rows),
        "mutants_killed": sum(r["mutants_killed"] for r in rows),
        "variants_played": sum(r.get("variants_played", 0) for r in rows),
        "variants_passed": sum(r.get("variants_passed", 0) for r in rows),
        "loosened": sum(
            any(str(f.get("code", "")).startswith("variant:") for f in r.get("repairs") or [])
            for r in rows
        ),
    }


__all__ = ["drop_stage", "row_fields", "verification_summary"]
