"""The pull-request description: what a reviewer needs to judge drafted cases quickly.

Plain markdown, so it pastes into GitHub, GitLab or Gerrit, and reads fine in a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evalcore.dialects import Dialect, dialect_names, get_dialect
from evalcore.findings import FileReport

from ..outside_services import outside_by_tool
from ._run import RunOutcome
from ._verification import verification_lines


def _known(dialect: str) -> Dialect | None:
    return get_dialect(dialect) if dialect in dialect_names() else None


@dataclass(frozen=True)
class DescriptionInput:
    """What the description is built from; paths are repository-relative."""

    branch: str
    base: str
    base_sha: str
    targets: list[str]
    project: str
    dialect: str
    report: dict[str, Any]
    """The generation report, with paths already as the person sees them."""
    committed: list[str]
    validation: list[tuple[str, FileReport]]
    run: RunOutcome | None
    """None without --run."""
    dirty_definitions: tuple[str, ...] = ()
    review: list[tuple[str, list[Any]]] | None = None
    """`casegen review`'s rule comments per committed file (None: not reviewed)."""


def commit_message(targets: list[str], report: dict[str, Any], files: list[str]) -> str:
    """Subject plus the list of committed files (the branch's only commit)."""
    cases = [f for f in files if not f.endswith("manifest.json")]
    subject = f"Draft {len(cases)} test case{'s' if len(cases) != 1 else ''} for " + ", ".join(
        targets
    )
    engine = report["engine"] + (f" ({report['model']})" if report.get("model") else "")
    body = [f"casegen generate, engine {engine}, run {report['run_id']}.", ""]
    body += [f"- {f}" for f in files]
    return subject + "\n\n" + "\n".join(body) + "\n"


def describe(data: DescriptionInput) -> str:
    report = data.report
    lines: list[str] = []
    lines += _summary(data)
    lines += _caveats(data)
    lines += _cases(report)
    lines += _coverage(report)
    lines += verification_lines(report, data.committed)
    lines += _validation(data.validation)
    lines += _review(data.review)
    lines += _left_out(report)
    lines += _run(data)
    lines += _checklist(data)
    return "\n".join(lines).rstrip() + "\n"


def _summary(data: DescriptionInput) -> list[str]:
    report = data.report
    statuses = [c["status"] for c in report["cases"] if c["path"] in data.committed]
    created = statuses.count("created")
    changed = len(statuses) - created
    known = _known(data.dialect)
    dialect = known.cases_noun if known is not None else data.dialect
    lines = [
        f"# Drafted test cases: {', '.join(data.targets)}",
        "",
        f"casegen drafted {len(statuses)} {dialect} for {_code(', '.join(data.targets))} from "
        f"{_code(data.project)}: {created} new, {changed} changed. Branch {_code(data.branch)} "
        f"from {_code(data.base)} ({data.base_sha[:10]}).",
        "",
        f"- engine: {report['engine']}",
        f"- model: {report.get('model') or 'none (offline drafter)'}",
        f"- run: {_code(report['run_id'])}",
    ]
    if report["engine"] != "offline":
        llm = report["llm"]
        lines.append(
            f"- model calls: {llm['calls']} (cache hits {llm['cache_hits']}), tokens "
            f"{llm['input_tokens']} in / {llm['output_tokens']} out, ${llm['cost_usd']:.4f}"
        )
    if data.dirty_definitions:
        lines += [
            "",
            "> **Warning:** drafted from definition files with uncommitted changes, which this "
            "branch does not contain: "
            + ", ".join(_code(p) for p in data.dirty_definitions)
            + ". Commit them too, or the manifest will call these cases stale.",
        ]
    return [*lines, ""]


def _caveats(data: DescriptionInput) -> list[str]:
    """What the figures below do not show, as the terminal said it: who drafted each case,
    who played the user, and whether a pass covers the assertions only."""
    report = data.report
    lines: list[str] = []
    engines = report.get("engines") or {}
    fallback = {name: n for name, n in engines.items() if name != report["engine"]}
    if report["engine"] == "offline":
        lines.append(
            "- drafted by the offline drafter (no model): every word comes from the "
            "definitions and the coverage plan"
        )
    for name, count in fallback.items():
        lines.append(f"- {count} case(s) drafted as {name}, not by {report['engine']}")
    run = data.run
    if run is not None and run.note is None and run.rows:
        offline = sum(r.simulator == "offline" for r in run.rows)
        if offline:
            lines.append(
                f"- {offline}/{len(run.rows)} runs used the offline scripted simulator "
                "(the case's facts and quoted user lines, no model): the agent met a "
                "cooperative, predictable user"
            )
        unjudged = sum(r.status == "passed" and not r.judged for r in run.rows)
        if unjudged:
            lines.append(
                f"- {unjudged} passing run(s) cover the assertions only: no judge model was "
                "configured, so no criterion was judged"
            )
    lines += _outside(report, data.committed)
    if not lines:
        return []
    return ["## Caveats", "", *lines, ""]


def _outside(report: dict[str, Any], committed: list[str]) -> list[str]:
    """One line per tool acting on a real service that committed cases expect to run:
    merged and run with its credentials set, each of them does that for real (the case
    files say so above their scenario too)."""
    rows = [case for case in report.get("cases") or [] if case.get("path") in committed]
    lines = []
    for found in outside_by_tool(rows):
        where = f" ({', '.join(f'`{k}`' for k in found.credentials)})" if found.credentials else ""
        calls = ", ".join(f"`{c}`" for c in found.calls[:2])
        files = ", ".join(f"`{row['path']}`" for row in found.rows)
        lines.append(
            f"- `{found.tool}` acts on a real service ({calls}): with its credentials set{where}, "
            f"running {len(found.rows)} of these case(s) does that for real — point them at a "
            f"sandbox: {files}"
        )
    return lines


def _review(review: list[tuple[str, list[Any]]] | None) -> list[str]:
    """`casegen review`'s comments on the drafted cases, so a reviewer starts from them."""
    if review is None:
        return []
    lines = ["## Review findings", ""]
    if not review:
        return [*lines, "`casegen review` (rules) has no comment on the committed cases.", ""]
    errors = sum(c.severity == "error" for _, comments in review for c in comments)
    warnings = sum(c.severity == "warning" for _, comments in review for c in comments)
    lines += [f"`casegen review` (rules): {errors} error(s), {warnings} warning(s).", ""]
    for path, comments in review:
        lines.append(f"- {_code(path)}:")
        for comment in comments:
            hint = f" ({comment.suggestion})" if comment.suggestion else ""
            lines.append(
                f"  - {comment.severity} [{comment.code}] {_code(comment.path or '/')}: "
                f"{_cell(comment.message)}{_cell(hint)}"
            )
    return [*lines, ""]


def _cases(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Cases",
        "",
        "| file | type | behaviour | assertions | criteria | repairs |",
        "|---|---|---|---|---|---|",
    ]
    for case in report["cases"]:
        if case["status"] not in ("created", "overwritten"):
            continue
        repairs = len(case["repairs"])
        repair_note = str(repairs)
        if repairs:
            repair_note += " (" + ", ".join(sorted({r.get("code", "?") for r in case["repairs"]}))
            repair_note += ")"
        lines.append(
            f"| {_code(case['path'])} | {case['type']} | {_cell(case['title'])} | "
            f"{case['assertions']} | {case['criteria']} | {repair_note} |"
        )
    return [*lines, ""]


def _coverage(report: dict[str, Any]) -> list[str]:
    lines = ["## Coverage", ""]
    for source, cov in report["coverage"].items():
        line = f"- {_code(source)}: {cov['covered']}/{cov['elements']} elements asserted"
        touched = cov.get("touched") or []
        if touched:
            line += "; touched, no assertion checks it: " + ", ".join(_code(e) for e in touched)
        untouched = [e for e in cov["uncovered"] if e not in touched]
        if untouched:
            line += "; uncovered: " + ", ".join(_code(e) for e in untouched)
        lines.append(line)
        lines += [
            f"  - not testable by a scenario: {_code(item['element'])}: {_cell(item['reason'])}"
            for item in cov.get("untestable") or []
        ]
    if len(lines) == 2:
        lines.append("- no coverage plan was recorded")
    return [*lines, ""]


def _validation(results: list[tuple[str, FileReport]]) -> list[str]:
    lines = ["## Validation", ""]
    invalid = [(path, r) for path, r in results if not r.valid]
    if not invalid:
        lines.append(
            f"All {len(results)} committed case files pass schema and reference lint "
            "against the project."
        )
    for path, result in invalid:
        lines.append(f"- {_code(path)}:")
        for finding in result.findings:
            where = f"line {finding.line} " if finding.line else ""
            hint = f" ({finding.suggestion})" if finding.suggestion else ""
            lines.append(
                f"  - {finding.severity} [{finding.code}] {where}{_code(finding.path or '/')}: "
                f"{finding.message}{hint}"
            )
    warnings = sum(1 for _, r in results for f in r.findings if f.severity == "warning")
    if warnings and not invalid:
        lines.append(f"({warnings} warning(s): run `casegen validate` on the files to see them.)")
    return [*lines, ""]


def _left_out(report: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for failure in report["failed"]:
        lines.append(f"- failed {_code(failure['behavior'])}: {failure['error']}")
    for dup in report["duplicates"]:
        lines.append(
            f"- dropped duplicate {_code(dup['behavior'])} ≈ {_code(dup['duplicate_of'])} "
            f"({dup['similarity']:.2f})"
        )
    for path in report["conflicts"]:
        lines.append(
            f"- not written {_code(path)}: the base has it with different content "
            "(edited by someone?); pass --force to replace it"
        )
    if not lines:
        return []
    return ["## Not included", "", *lines, ""]


def _run(data: DescriptionInput) -> list[str]:
    lines = ["## Run results", ""]
    run = data.run
    if run is None:
        lines.append(
            "Not run. Run the cases against the agent before merging "
            "(`casegen run FILES --target TARGET`, or `--run TARGET` with `--pr`)."
        )
        return [*lines, ""]
    if run.note is not None:
        return [*lines, f"Not run against {_code(run.target)}: {run.note}", ""]
    passed = sum(1 for r in run.rows if r.status == "passed")
    conditions = [
        "on assertions only (no judge model)"
        if passed and all(not r.judged for r in run.rows if r.status == "passed")
        else "",
        "with the offline scripted simulator"
        if run.rows and all(r.simulator == "offline" for r in run.rows)
        else "",
    ]
    condition = " ".join(c for c in conditions if c)
    lines += [
        f"Against {_code(run.target)}: {passed}/{len(run.rows)} runs passed"
        + (f" {condition}" if condition else "")
        + (f" (run files: {_code(run.results_dir)})." if run.results_dir else "."),
        "",
        "| file | result | detail |",
        "|---|---|---|",
    ]
    lines += [f"| {_code(r.path)} | {r.status} | {_cell(r.detail or '')} |" for r in run.rows]
    return [*lines, ""]


def _checklist(data: DescriptionInput) -> list[str]:
    known = _known(data.dialect)
    setup = known.setup_field if known is not None else "setup"
    items = [
        "Each persona is realistic: a customer this agent really gets, with the facts they "
        "need and a clear point to stop.",
        'Each criterion is a bot-side deal-breaker: not the user\'s outcome, not "offers …", '
        "not a closure gate; one per line.",
        "Assertions pin the non-negotiable facts (tool calls, memory values, completion); "
        "anything deterministic is an assertion, not a criterion.",
        "Structural assertions are preferred over text matches.",
        f"No {setup} skips the step the case tests.",
        "One behaviour per case, and none repeats a case the suite already has.",
        "File names, paths and titles say what each case shows.",
        "Uncovered elements above are acceptable for now (or get an issue).",
    ]
    if data.run is not None:
        items.append(
            "Failing runs are triaged: the turn that broke, and whether the fix belongs in "
            "the skill, the instructions, the case or a tool."
        )
    return ["## Reviewer checklist", "", *[f"- [ ] {item}" for item in items], ""]


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
