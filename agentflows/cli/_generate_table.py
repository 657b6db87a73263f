"""The `casegen generate` result tables.

One target: a row per case. Several targets (`generate all`): a row per skill (cases,
file status, verification, mutants killed), then rows only for the cases that need a look
(weak, repaired, not verified, not written), so the header stays on screen.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich import box
from rich.markup import escape
from rich.table import Table

from ._output import print_table, stdout

_STATUS_COLOUR = {"conflict": "red", "unchanged": "dim"}
_VERIFIED_COLOUR = {
    "yes": "green",
    "repaired": "yellow",
    "weak": "yellow",
    "skipped": "dim",
    "needs-review": "red",
}


def print_cases(report: dict[str, Any]) -> None:
    rows = report["cases"]
    folders = sorted({str(Path(row["path"]).parent) for row in rows})
    title = f"{len(rows)} cases · engine {report['engine']} · " + ", ".join(folders)
    sources = {row["source"] for row in rows}
    if len(sources) > 1:
        title = f"{len(rows)} cases in {len(sources)} targets · engine {report['engine']}"
        print_table(_by_source(rows, report, title))
        attention = [r for r in rows if _needs_look(r, report)]
        if attention:
            print_table(
                _case_table(
                    attention,
                    f"{len(attention)} to look at (needs review, weak, repaired, not verified "
                    "or not written)",
                )
            )
    else:
        print_table(_case_table(rows, title))
    _print_verification(report)
    _print_edits(report)


def _needs_look(row: dict[str, Any], report: dict[str, Any]) -> bool:
    enabled = (report.get("verification") or {}).get("enabled", True)
    verified = row.get("verified", "skipped")
    return (
        row["status"] == "conflict"
        or verified in ("weak", "repaired", "needs-review")
        or (enabled and verified == "skipped")
    )


def _case_table(rows: list[dict[str, Any]], title: str) -> Table:
    """One row per case. The counts and verdicts never wrap (each column is as wide as its
    header or value); the case's name, with the prefix all names share left out, and its
    behaviour under it take what is left, wrapping or folding: readable at 80 columns."""
    names = [Path(row["path"]).stem for row in rows]
    prefix = _shared_prefix(names)
    if prefix:
        title += f" · files {prefix}*"
    # The type column only where a name does not end with its type (`..._happy_path`).
    typed = any(not name.endswith(str(row["type"])) for row, name in zip(rows, names, strict=True))
    table = _table(title)
    table.add_column("case", overflow="fold", min_width=16)
    columns = ("type", "assert", "crit", "fix", "verified", "variants", "killed", "status")
    for column in columns if typed else columns[1:]:
        table.add_column(column, no_wrap=True)
    for row, name in zip(rows, names, strict=True):
        colour = _STATUS_COLOUR.get(row["status"], "green")
        table.add_row(
            f"{escape(name[len(prefix) :] or name)}\n[dim]{escape(row['title'])}[/]",
            *([row["type"]] if typed else []),
            str(row["assertions"]),
            str(row["criteria"]),
            str(len(row["repairs"])),
            _verified(row),
            _variants(row),
            _killed(row),
            f"[{colour}]{row['status']}[/]",
        )
    return table


def _table(title: str) -> Table:
    """A table with a rule under the header and no column borders: the borders of nine
    columns took a third of an 80-column terminal."""
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1, 0, 0),
    )


def _shared_prefix(names: list[str]) -> str:
    """The part up to and including an `_` that every name starts with (`card_replace_`),
    when there are two names or more."""
    if len(names) < 2:
        return ""
    first, last = min(names), max(names)  # the shared prefix of all is theirs
    pairs = enumerate(zip(first, last, strict=False))
    size = next((i for i, (a, b) in pairs if a != b), len(first))
    return first[: first.rfind("_", 0, size) + 1]


def _by_source(rows: list[dict[str, Any]], report: dict[str, Any], title: str) -> Table:
    table = _table(title)
    table.add_column("target", overflow="fold", min_width=12)
    table.add_column("cases", no_wrap=True)
    table.add_column("files")
    table.add_column("verified")
    table.add_column("killed", no_wrap=True)
    table.add_column("left out", no_wrap=True)
    left_out = Counter(
        str(item["behavior"]).partition(":")[0] for item in report["dropped"] + report["failed"]
    )
    for source in dict.fromkeys(r["source"] for r in rows):
        mine = [r for r in rows if r["source"] == source]
        statuses = Counter(r["status"] for r in mine)
        verified = Counter(r.get("verified", "skipped") for r in mine)
        played = sum(r.get("mutants_played", 0) for r in mine)
        killed = sum(r.get("mutants_killed", 0) for r in mine)
        table.add_row(
            escape(source),
            str(len(mine)),
            ", ".join(f"{n} {s}" for s, n in statuses.items()),
            ", ".join(
                f"[{_VERIFIED_COLOUR.get(v, 'white')}]{n} {v}[/]" for v, n in verified.items()
            ),
            f"{killed}/{played}" if played else "–",
            str(left_out.get(source, 0) or ""),
        )
    return table


def _verified(row: dict[str, Any]) -> str:
    label = row.get("verified", "skipped")
    return f"[{_VERIFIED_COLOUR.get(label, 'white')}]{label}[/]"


def _variants(row: dict[str, Any]) -> str:
    """Allowed variants passed / played (`–`: none on the case's path)."""
    played = row.get("variants_played", 0)
    return f"{row.get('variants_passed', 0)}/{played}" if played else "–"


def _killed(row: dict[str, Any]) -> str:
    played = row.get("mutants_played", 0)
    return f"{row.get('mutants_killed', 0)}/{played}" if played else "–"


def _print_verification(report: dict[str, Any]) -> None:
    summary = report.get("verification")
    if not summary:
        return
    if not summary["enabled"]:
        stdout.print("[dim]verification skipped (--no-verify)[/]")
        return
    against = ", ".join(summary["against"]) or "nothing"
    line = (
        f"verified against {against}: {summary['yes']} yes, {summary['repaired']} repaired, "
        f"{summary['weak']} weak, {summary['dropped']} dropped, {summary['skipped']} skipped"
        + (f" ({summary['failed']} because verification failed)" if summary.get("failed") else "")
        + (
            f", {summary['needs_review']} written for review (the verifier fails them, or"
            " nothing in the definitions checks their goal)"
            if summary.get("needs_review")
            else ""
        )
    )
    if summary.get("variants_played"):
        line += (
            f" · allowed variants passed {summary['variants_passed']}/"
            f"{summary['variants_played']} ({summary.get('loosened', 0)} cases loosened)"
        )
    if summary["mutants_played"]:
        line += f" · mutants killed {summary['mutants_killed']}/{summary['mutants_played']} played"
    stdout.print(escape(line))
    for row in report["cases"]:
        record = row.get("verification") or {}
        if row.get("verified") in ("weak", "skipped", "needs-review") and record.get("reason"):
            if record.get("reason") == "--no-verify":
                continue
            stdout.print(
                f"[yellow]{row['verified']}[/] {escape(row['behavior'])}: "
                f"{escape(str(record['reason']))}"
            )


def _print_edits(report: dict[str, Any]) -> None:
    """The model's plan edits: how many were kept, and each refused one with the reason
    (nothing when the model proposed none)."""
    rows = [*report["cases"], *report["dropped"]]
    edits = [(row["behavior"], e) for row in rows for e in row.get("edits", [])]
    if not edits:
        return
    kept = sum(1 for _, e in edits if e.get("status") == "accepted")
    stdout.print(f"plan edits: {kept} accepted, {len(edits) - kept} refused")
    for behavior, e in edits:
        if e.get("status") != "accepted":
            line = f"{behavior} {e.get('op')}: {e.get('reason') or e.get('status')}"
            stdout.print(f"[yellow]refused edit[/] {escape(line)}")


__all__ = ["print_cases"]
