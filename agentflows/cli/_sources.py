"""`casegen sources`: what the definition readers found in a project."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..commands import explain_payload, resolve_project, sources_payload
from ._app import app
from ._output import print_json, stdout
from ._plain import escape

if TYPE_CHECKING:
    from evalcore.definitions import Project


def _print_human(project: "Project") -> None:
    stdout.print(f"[bold]{escape(str(project.root))}[/]  [dim]{project.kind} project[/]")
    if project.mantle is not None:
        m = project.mantle
        for skill in m.skills.values():
            tag = " [magenta](hand-off)[/]" if skill.is_handoff else ""
            stdout.print(f"\n[bold]{escape(skill.id)}[/]{tag}  [dim]{escape(skill.name or '')}[/]")
            for block in skill.blocks.values():
                steps = " → ".join(s.id for s in block.steps)
                stdout.print(f"  block [cyan]{escape(block.id)}[/]: {escape(steps)}")
            if not skill.blocks:
                stdout.print("  [dim]prose only[/]")
            memory = [
                f"{f.name} ({f.type}"
                + (": " + "|".join(map(str, f.enum_values)) if f.enum_values else "")
                + ")"
                for f in skill.memory.values()
            ]
            stdout.print(escape(f"  memory: {', '.join(memory) or '-'}"))
            gated = {t for t, c in skill.tool_constraints.items() if c.requires_confirmation}
            tools = [f"{t}{'*' if t in gated else ''}" for t in sorted(m.tools_for(skill.id))]
            stdout.print(escape(f"  tools: {', '.join(tools) or '-'}"))
            stdout.print(escape(f"  responses: {', '.join(sorted(skill.responses)) or '-'}"))
        stdout.print("\n[dim]* confirmation-gated[/]")
        seeds = [f"{f.name}{' (seed)' if f.seed else ''}" for f in m.memory.values()]
        stdout.print(escape(f"project memory: {', '.join(seeds) or '-'}"))
        stdout.print(escape(f"project responses: {', '.join(sorted(m.responses)) or '-'}"))
        stdout.print(escape(f"shared tools: {', '.join(sorted(m.shared_tools)) or '-'}"))
        if m.mcp_servers:
            stdout.print(escape(f"MCP servers: {', '.join(m.mcp_servers)}"))
    if project.anychat is not None:
        a = project.anychat
        for p in a.playbooks.values():
            tag = " [dim](default)[/]" if p.default else ""
            stdout.print(f"\n[bold]{escape(p.id)}[/]{tag}  [dim]{escape(p.name or '')}[/]")
            stdout.print(f"  activation: {escape(p.activation or '-')}")
            stdout.print(escape(f"  tools: {', '.join(p.tools) or '-'}"))
            stdout.print(escape(f"  outcomes: {', '.join(p.outcomes) or '-'}"))
            stdout.print(escape(f"  pickers: {', '.join(p.pickers) or '-'}"))
            stdout.print(f"  examples: {len(p.examples)}")
        stdout.print("")
        for o in a.outreaches.values():
            stdout.print(
                escape(f"outreach {o.id} → playbook {o.playbook} (inputs: {', '.join(o.inputs)})")
            )
        stdout.print(escape(f"person fields: {', '.join(sorted(a.person_fields))}"))
        stdout.print(escape(f"tools: {', '.join(sorted(a.tools))}"))
    if project.agent_skills is not None:
        g = project.agent_skills
        for s in g.skills.values():
            stdout.print(f"\n[bold]{escape(s.name)}[/]  {escape(s.description or '')}")
            if s.references:
                stdout.print(escape(f"  references: {', '.join(s.references)}"))
        for f in g.fixtures:
            stdout.print(escape(f"base44 fixture {f.path} ({f.name})"))
    for warning in project.warnings:
        stdout.print(f"[yellow]warning:[/] {escape(warning)}")


@app.command()
def sources(
    project: Annotated[
        Path | None, typer.Option("--project", "-p", help="Project folder (default: nearest).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    explain: Annotated[
        str | None,
        typer.Option(
            "--explain",
            metavar="SKILL",
            help="Print what casegen understood of one Mantle skill (its skill model).",
        ),
    ] = None,
) -> None:
    """List what the project defines: skills, blocks, memory, tools, responses, playbooks."""
    loaded = resolve_project(project)
    if explain is not None:
        from ._explain import print_explain  # start-up: pydantic, yaml, rich and 75 casegen modules

        payload = explain_payload(loaded, explain)
        if as_json:
            print_json(payload)
        else:
            # start-up: pydantic, yaml, hashlib and 74 casegen modules
            from evalcore.definitions.skill_model import skill_model

            print_explain(skill_model(loaded, explain))
        return
    if as_json:
        print_json(sources_payload(loaded))
    else:
        _print_human(loaded)
