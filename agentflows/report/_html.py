"""The report as one self-contained HTML page.

Everything shown comes from results files, which hold what agents, simulators and case
authors wrote: every value passes through `html.escape` (quotes included) on its way into
the page, and the page's Content-Security-Policy lets nothing load and only its own inline
style and script run.
"""

from __future__ import annotations

import re
from html import escape

from evalcore.runner import RunRecord
from evalcore.workdir import shown_path

from ._assets import SCRIPT, STYLE, content_security_policy
from ._compare import Change, Comparison
from ._load import Batch, CaseRuns
from ._turns import Verdict, layout

_LABELS = {"passed": "PASS", "failed": "FAIL", "errored": "ERROR"}
_MARKS = {"pass": "✓", "fail": "✗", "inconclusive": "?", "unjudged": "–"}
#: Lists shown unfolded however long they are; the others fold past five entries.
_ALWAYS_OPEN = ("regressed", "fixed", "now_errored")
CHANGE_TITLES = {
    "regressed": "Regressions",
    "fixed": "Fixes",
    "now_errored": "Now erroring",
    "still_failing": "Still failing",
    "added": "New cases",
    "removed": "Cases no longer run",
}


def e(value: object) -> str:
    return escape(str(value), quote=True)


def case_ids(batch: Batch) -> dict[str, str]:
    """A unique, safe element id per case slug (`case-card_replace_lost`)."""
    out: dict[str, str] = {}
    for case in batch.cases:
        base = "case-" + re.sub(r"[^A-Za-z0-9_-]", "-", case.slug)
        name, n = base, 2
        while name in out.values():
            name, n = f"{base}-{n}", n + 1
        out[case.slug] = name
    return out


def render_html(batch: Batch, comparison: Comparison | None = None) -> str:
    """The whole page."""
    ids = case_ids(batch)
    title = f"casegen report · {batch.summary.timestamp or batch.dir.name}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{e(content_security_policy())}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{e(title)}</title>",
        f"<style>{STYLE}</style></head><body><main>",
        _header(batch),
        _summary(batch),
    ]
    if comparison is not None:
        parts.append(_comparison(comparison, ids))
    parts.append(_index(batch, ids))
    parts.append(_cases(batch, ids))
    parts.append(
        f'<footer>casegen report of <span class="mono">{e(shown_path(batch.dir))}</span></footer>'
        f"</main><script>{SCRIPT}</script></body></html>\n"
    )
    return "\n".join(parts)


def _header(batch: Batch) -> str:
    s = batch.summary
    engines = batch.engines
    meta = [
        ("results", shown_path(batch.dir)),
        ("target", s.target or "?"),
        ("timestamp", s.timestamp or batch.dir.name),
        ("wall clock", f"{s.wall_clock_s:.1f}s"),
        ("simulator", ", ".join(engines["simulator"]) or "?"),
        ("judge", ", ".join(engines["judge"]) or "?"),
    ]
    rows = " · ".join(f"{e(k)} <b>{e(v)}</b>" for k, v in meta)
    note = f'<p class="meta">note: {e(s.target_note)}</p>' if s.target_note else ""
    return f'<header><h1>{e("casegen report")}</h1><p class="meta">{rows}</p>{note}</header>'


def _stat(key: str, label: str, value: object) -> str:
    zero = " zero" if value == 0 else ""
    return (
        f'<div class="stat {e(key)}{zero}" data-stat="{e(key)}"><dt>{e(label)}</dt>'
        f"<dd>{e(value)}</dd></div>"
    )


def _summary(batch: Batch) -> str:
    t = batch.summary.totals
    failing = sum(c.status != "passed" for c in batch.cases)
    rate = f"{t.passed / t.total:.0%}" if t.total else "–"
    stats = [
        _stat("cases", "cases", len(batch.cases)),
        _stat("total", "runs", t.total),
        _stat("passed", "passed", t.passed),
        _stat("failed", "failed", t.failed),
        _stat("errored", "errored", t.errored),
        _stat("pass-rate", "pass rate", rate),
        _stat("failing-cases", "cases not passing", failing),
    ]
    notes = []
    if t.assertions_only:
        notes.append(
            f"{t.assertions_only} passing run(s) cover assertions only: no judge model was "
            "configured, so their criteria were not judged."
        )
    if batch.summary.interrupted:
        notes.append(
            f"Interrupted: {t.total} of {batch.summary.runs_planned} planned runs finished."
        )
    if batch.older_batches:
        notes.append(
            f"{batch.older_batches} older batch(es) lie beside this one; give a timestamp "
            "folder to report on one of them."
        )
    html = [
        '<section id="summary"><h2>Summary</h2>',
        f'<dl class="stats">{"".join(stats)}</dl>',
        *(f'<p class="note">{e(n)}</p>' for n in notes),
    ]
    for problem in batch.problems:
        html.append(
            f'<p class="note bad problem">could not read <span class="mono">{e(problem.path)}'
            f"</span>: {e(problem.message)}</p>"
        )
    html.append("</section>")
    return "\n".join(html)


def _comparison(comparison: Comparison, ids: dict[str, str]) -> str:
    counts = comparison.counts
    head = ", ".join(f"{counts[k]} {CHANGE_TITLES[k].lower()}" for k in CHANGE_TITLES if counts[k])
    html = [
        '<section id="compare"><h2>Compared with the baseline</h2>',
        f'<p class="meta">baseline <b>{e(comparison.baseline)}</b> · '
        f"{e(head or 'no case changed status')} · {counts['unchanged']} unchanged</p>",
        *(f'<p class="note bad">warning: {e(w)}</p>' for w in comparison.warnings),
    ]
    for kind, title in CHANGE_TITLES.items():
        changes = comparison.of(kind)
        if not changes:
            continue
        items = "".join(_change_item(c, ids) for c in changes)
        opened = " open" if kind in _ALWAYS_OPEN or len(changes) <= 5 else ""
        html.append(
            f'<section class="changes" id="compare-{e(kind)}" data-kind="{e(kind)}">'
            f"<details{opened}><summary><h3>{e(title)} ({len(changes)})</h3></summary>"
            f"<ul>{items}</ul></details></section>"
        )
    html.append("</section>")
    return "\n".join(html)


def _change_item(change: Change, ids: dict[str, str]) -> str:
    name = e(change.name)
    if change.slug in ids:
        name = f'<a href="#{e(ids[change.slug])}">{name}</a>'
    before = f"{change.before} {change.before_runs}" if change.before else "not in baseline"
    after = f"{change.after} {change.after_runs}" if change.after else "not run"
    flips = ""
    if change.newly_failing:
        flips += '<div class="flips">now failing: ' + e("; ".join(change.newly_failing)) + "</div>"
    if change.newly_passing:
        flips += '<div class="flips">now passing: ' + e("; ".join(change.newly_passing)) + "</div>"
    return (
        f'<li data-slug="{e(change.slug)}">{name} <span class="meta">'
        f"{e(before)} → {e(after)}</span>{flips}</li>"
    )


def _index(batch: Batch, ids: dict[str, str]) -> str:
    rows = []
    for case in sorted(batch.cases, key=lambda c: c.status == "passed"):
        rows.append(
            f'<tr data-status="{e(case.status)}"><td>{_badge(case.status)}</td>'
            f'<td class="name"><a href="#{e(ids[case.slug])}">{e(case.name)}</a></td>'
            f"<td>{case.passed_runs}/{len(case.runs)}</td></tr>"
        )
    return (
        '<section id="index"><h2>Cases</h2>'
        '<div class="controls"><label><input type="checkbox" id="only-failing"> only cases '
        'not passing</label><button type="button" id="expand-all">expand all</button>'
        '<button type="button" id="collapse-all">collapse all</button></div>'
        '<table class="index"><thead><tr><th>status</th><th>case</th><th>runs</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></section>"
    )


def _badge(status: str) -> str:
    label = _LABELS.get(status, status.upper())
    return f'<span class="badge {e(status)}">{e(label)}</span>'


def _cases(batch: Batch, ids: dict[str, str]) -> str:
    return (
        '<section id="cases">'
        + "\n".join(_case(c, ids[c.slug]) for c in batch.cases)
        + ("</section>")
    )


def _case(case: CaseRuns, element_id: str) -> str:
    opened = "" if case.status == "passed" else " open"
    runs = "".join(_run(r) for r in case.runs)
    return (
        f'<article class="case" id="{e(element_id)}" data-slug="{e(case.slug)}" '
        f'data-status="{e(case.status)}"><details{opened}><summary>{_badge(case.status)}'
        f'<b>{e(case.name)}</b> <span class="meta">{case.passed_runs}/{len(case.runs)} runs'
        "</span></summary>"
        f'<div class="case-inner"><p class="meta"><span class="mono">{e(case.path)}</span> · '
        f"{e(case.dialect)} · slug {e(case.slug)}</p>{runs}</div></details></article>"
    )


def _run(record: RunRecord) -> str:
    plan = layout(record)
    facts = (
        f"{record.verdict_label} · {record.turns} turn{'' if record.turns == 1 else 's'} · "
        f"{record.duration_s:.2f}s · "
        f"stopped: {record.stop_reason} · target {record.target}"
    )
    html = [
        f'<section class="run" data-run="{record.run_index}" data-status="{e(record.status)}">',
        f'<h4>Run {record.run_index} <span class="meta">{e(facts)}</span></h4>',
    ]
    if record.error:
        html.append(f'<p class="error">error: {e(record.error)}</p>')
    html.append(_metrics(record))
    # What failed without a turn to point at (an expected event that never happened) is
    # the first thing a reader needs: above the transcript, not under it.
    failing = [v for v in plan.unplaced if v.outcome in ("fail", "inconclusive")]
    if failing:
        html.append(
            '<div class="unplaced failing"><h5>Failed, at no turn (it never happened)</h5>'
            + _verdicts(failing)
            + "</div>"
        )
    html.append('<ol class="turns">')
    for turn in plan.turns:
        html.append(f'<li class="turn" data-turn="{turn.number}">')
        html.append(f'<div class="turn-no">T{turn.number}</div><div class="turn-body">')
        for role, text in turn.messages:
            html.append(
                f'<p class="msg {e(role)}"><span class="role">{e(role)}</span>{e(text)}</p>'
            )
        if turn.events:
            lines = "".join(f"<li><code>{e(line)}</code></li>" for line in turn.events)
            html.append(
                f'<details class="events"><summary>{len(turn.events)} event(s)</summary>'
                f"<ul>{lines}</ul></details>"
            )
        if turn.verdicts:
            html.append(_verdicts(turn.verdicts))
        html.append("</div></li>")
    html.append("</ol>")
    rest = [v for v in plan.unplaced if v not in failing]
    if rest:
        html.append(
            '<div class="unplaced"><h5>Whole run (no turn named)</h5>' + _verdicts(rest) + "</div>"
        )
    html.append("</section>")
    return "".join(html)


def _metrics(record: RunRecord) -> str:
    """Rasa's quality metrics when a metrics judge scored the run (recorded, never gating),
    else why they are missing."""
    if record.scale_metrics:
        scores = " · ".join(f"{k} {v:g}" for k, v in record.scale_metrics.items())
        done = (
            "" if record.task_completion is None else f" · task_completion {record.task_completion}"
        )
        reason = f" — {record.metrics_reason}" if record.metrics_reason else ""
        return f'<p class="meta metrics">quality metrics: {e(scores + done + reason)}</p>'
    if record.metrics_note:
        return f'<p class="meta metrics">quality metrics: {e(record.metrics_note)}</p>'
    return ""


def _verdicts(items: list[Verdict]) -> str:
    out = []
    for v in items:
        head = f"{v.kind} {v.number} · {v.label}"
        turns = f" (turns {', '.join(map(str, v.turns))})" if len(v.turns) > 1 else ""
        out.append(
            f'<li class="verdict {e(v.outcome)}" data-kind="{e(v.kind)}" data-index="{v.index}" '
            f'data-outcome="{e(v.outcome)}"><span class="badge {e(v.outcome)}">'
            f"{_MARKS.get(v.outcome, '')} {e(v.outcome)}</span><b>{e(head)}</b>{e(turns)}"
            f'<span class="detail">{e(v.detail)}</span></li>'
        )
    return '<ul class="verdicts">' + "".join(out) + "</ul>"


__all__ = ["CHANGE_TITLES", "case_ids", "render_html"]
