"""`casegen sources --explain SKILL`: the skill model, so a person sees what casegen understood
(what the skill asks, which tools it runs from where and behind which gate, its branches and
modes, the skills it calls, its success signals and what it could not read) before trusting
a generated case."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from evalcore.definitions import Project
from evalcore.definitions.skill_model import SkillModel, ToolUse, skill_model

from ._output import stdout


def _call_label(call: Any) -> str:
    where = call.where.label() if call.where else ""
    place = {
        "execute_tool": f"execute_tool step {call.block}.{call.step}",
        "block_tools": f"tools: of block {call.block}"
        + (f" step {call.step}" if call.step else ""),
        "prose": "prose",
        "instructions": f"instructions of {call.block}.{call.step}",
        "constraint": "tool_constraints only (the LLM may call it)",
    }[call.kind]
    text = place
    if call.condition:
        text += f" when {call.condition}"
    if call.trigger:
        text += f' ("{call.trigger}")'
    return f"{text}  [dim]{escape(where)}[/]"


def _tool(use: ToolUse) -> None:
    marks = []
    if use.terminal:
        marks.append("[green]terminal[/]")
    if use.gated:
        marks.append("[yellow]confirmation-gated[/]")
    if not use.defined:
        marks.append("[red]not defined[/]")
    scope = use.scope + (f" ({use.mcp_server})" if use.mcp_server else "")
    stdout.print(f"  [bold]{escape(use.name)}[/] {scope} {' '.join(marks)}")
    for call in use.calls:
        stdout.print(f"    called from {_call_label(call)}")
    gate = use.gate
    if gate is not None:
        if gate.requires:
            stdout.print(f"    requires: {escape(gate.requires)}")
        if gate.confirmation:
            stdout.print(
                f"    confirmation: {gate.utter_for_confirmation} / denial: "
                f"{gate.utter_on_user_denial}"
            )
        if gate.on_success or gate.on_failure:
            stdout.print(f"    on_success: {gate.on_success}  on_failure: {gate.on_failure}")
    if use.arguments:
        stdout.print("    arguments: " + ", ".join(f"{k} ← {v}" for k, v in use.arguments.items()))
    if use.writes:
        writes = [f"{w.key}={w.value!r}" if w.known else w.key for w in use.writes]
        stdout.print("    writes: " + ", ".join(writes))
    for error in use.error_results:
        stdout.print(f"    error result: {escape(error)}")


def _scoped(item: Any) -> str:
    """` when <its if:>` and where it is written, for a record or a delegation."""
    where = f" [dim]{escape(item.where.label())}[/]" if item.where else ""
    return (f" when {escape(item.condition)}" if item.condition else "") + where


def print_explain(model: SkillModel) -> None:
    stdout.print(
        f"[bold]{escape(model.skill)}[/]  {escape(model.name or '')}  [dim]{model.file}[/]"
    )
    if model.description:
        stdout.print(f"  {escape(' '.join(model.description.split()))}")
    if model.is_handoff:
        stdout.print("  hands the conversation to a person")
    stdout.print("\n[bold]asks[/]")
    for f in model.fields:
        where = f" [dim]{escape(f.where.label())}[/]" if f.where else ""
        scope = f" when {escape(f.condition)}" if f.condition else ""
        stdout.print(f"  {f.qualified} ({f.type}, {f.asked_by}{scope}){where}")
        if f.question:
            stdout.print(f"    question: {escape(f.question)}")
        if f.enum_values:
            values = [
                f"{v} ({escape(f.explained[str(v)])})" if str(v) in f.explained else str(v)
                for v in f.enum_values
            ]
            stdout.print("    values: " + ", ".join(values))
        if f.format:
            stdout.print(f"    format: {escape(f.format)}")
        if f.examples:
            stdout.print("    examples: " + ", ".join(escape(e) for e in f.examples))
    if not model.fields:
        stdout.print("  nothing")
    if model.records:
        stdout.print("\n[bold]records itself[/]")
    for r in model.records:
        stdout.print(f"  {r.qualified} = true{_scoped(r)}: {escape(r.sentence)}")
    stdout.print("\n[bold]tools[/]")
    for use in model.tools:
        _tool(use)
    if not model.tools:
        stdout.print("  none")
    if model.branches or model.modes:
        stdout.print("\n[bold]branches[/]")
    for branch in model.branches:
        where = f" [dim]{escape(branch.where.label())}[/]" if branch.where else ""
        place = f"{branch.block}.{branch.step}" if branch.block else "prose"
        stdout.print(f"  {branch.kind} at {place}{where}")
        for option in branch.options:
            stdout.print(f"    {escape(option.condition or 'else')} → {escape(option.target)}")
    for mode in model.modes:
        stdout.print(f"  mode {mode.field}:")
        for value in mode.values:
            tools = f" runs {', '.join(value.tools)}" if value.tools else ""
            stdout.print(f"    {value.value}{tools}")
        if mode.others:
            stdout.print(f"    (unscoped path: {', '.join(map(str, mode.others))})")
    if model.delegations:
        stdout.print("\n[bold]other skills[/]")
    for d in model.delegations:
        stdout.print(f"  {d.kind} {d.target}{_scoped(d)}")
    stdout.print("\n[bold]success signals[/]")
    if model.complete_when:
        stdout.print(f"  complete_when: {escape(model.complete_when)}")
    for block, condition in model.block_complete_when.items():
        stdout.print(f"  block {block} complete_when: {escape(condition)}")
    for s in model.success:
        value = f" = {s.value!r}" if s.value is not None else ""
        scope = f" when {escape(s.condition)}" if s.condition else ""
        stdout.print(f"  {s.kind} {s.name}{value}{scope}  [dim]{escape(s.why)}[/]")
    if model.rules:
        stdout.print("\n[bold]rules[/]")
    for rule in model.rules:
        stdout.print(f"  {escape(rule.text)}  [dim]{escape(rule.where.label())}[/]")
    if model.uncertainties:
        stdout.print("\n[bold yellow]uncertain[/]")
    for u in model.uncertainties:
        stdout.print(f"  {escape(u.where.label())}: {escape(u.what)}: {escape(u.why)}")


def explain(project: Project, skill_id: str) -> None:
    print_explain(skill_model(project, skill_id))


__all__ = ["explain", "print_explain"]
