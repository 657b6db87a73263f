"""The Mantle project reader: root files, shared tools, then every `skills/<id>/` folder.

Layout (reference: Rasa Mantle 3.22): `agent.yml`, `integrations.yml` (`mcp_servers`),
`memory.yml`, `responses.yml`, `tools/*.py` at the root; `skills/<id>/skill.md` plus optional
`memory.yml`, `responses.yml`, `tools.py` / `tools/*.py` per skill. Python is read with `ast`
and never imported.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._context import ReadContext
from ._mantle_memory import read_project_memory, read_responses
from ._mantle_rasa_rules import apply_rasa_rules
from ._mantle_set_fields import warn_undeclared_set_fields
from ._mantle_skill import collect_tools, read_skill
from ._model import MantleDefinitions, Skill

SCENARIO_DIR = "eval/scenarios"


def read_mantle(ctx: ReadContext) -> MantleDefinitions:
    root = ctx.root
    defs = MantleDefinitions(
        agent=agent_view(_read_mapping(ctx, root / "agent.yml")),
        integrations=_read_mapping(ctx, root / "integrations.yml"),
    )
    defs.mcp_servers = _mcp_servers(ctx, root / "integrations.yml", defs.integrations)
    if ctx.present(root / "memory.yml"):
        defs.memory = read_project_memory(ctx, root / "memory.yml")
    if ctx.present(root / "responses.yml"):
        defs.responses = read_responses(ctx, root / "responses.yml", "project")
    if (root / "tools").is_dir():
        defs.shared_tools = collect_tools(ctx, sorted((root / "tools").glob("*.py")), "shared")
    defs.skills = _read_skills(ctx, root / "skills", set(defs.shared_tools), set(defs.mcp_servers))
    if (root / SCENARIO_DIR).is_dir():
        defs.scenario_dir = SCENARIO_DIR
    apply_rasa_rules(ctx, defs)
    warn_undeclared_set_fields(ctx, defs)
    return defs


def agent_view(document: dict[str, Any]) -> dict[str, Any]:
    """`agent.yml` as casegen reads it, in the shape Rasa 3.22 defines.

    Rasa nests the identity under `agent:` (`persona`, `language`, `id`; a `name` is kept)
    and binds preconditions under `orchestrator.preconditions` as `{name: {satisfied_when,
    resolve_with}}`; a top-level `preconditions:` is not Rasa's and is ignored, as Rasa
    ignores it. The view lifts the identity keys beside `rules`, and gives `preconditions`
    as `{name: satisfied_when}` and `precondition_resolvers` as `{name: resolve_with}`.
    """
    view = {key: value for key, value in document.items() if key not in ("agent", "preconditions")}
    identity = document.get("agent")
    if isinstance(identity, dict):
        view.update(identity)
    orchestrator = document.get("orchestrator")
    bindings = orchestrator.get("preconditions") if isinstance(orchestrator, dict) else None
    if isinstance(bindings, dict):
        view["preconditions"] = {
            str(name): str(binding["satisfied_when"])
            for name, binding in bindings.items()
            if isinstance(binding, dict) and binding.get("satisfied_when")
        }
        view["precondition_resolvers"] = {
            str(name): str(binding["resolve_with"])
            for name, binding in bindings.items()
            if isinstance(binding, dict) and binding.get("resolve_with")
        }
    return view


def _read_mapping(ctx: ReadContext, path: Path) -> dict[str, Any]:
    if not ctx.present(path):
        return {}
    doc = ctx.read_yaml(path)
    if doc is None or doc.data is None:
        return {}
    if not isinstance(doc.data, dict):
        ctx.warn(path, 1, f"{path.name} must be a YAML mapping")
        return {}
    return doc.data


def _mcp_servers(ctx: ReadContext, path: Path, integrations: dict[str, Any]) -> list[str]:
    """Server names from `mcp_servers: [{name, url, token}]` (a `{name: {...}}` map also works)."""
    servers = integrations.get("mcp_servers")
    if servers is None:
        return []
    if isinstance(servers, dict):
        return [str(name) for name in servers]
    if not isinstance(servers, list):
        ctx.warn(path, None, "'mcp_servers' must be a list of {name, url, token}")
        return []
    names = []
    for index, server in enumerate(servers):
        if isinstance(server, dict) and isinstance(server.get("name"), str):
            names.append(server["name"])
        else:
            ctx.warn(path, None, f"mcp_servers entry {index} has no 'name'")
    return names


def _read_skills(
    ctx: ReadContext, folder: Path, shared_tools: set[str], mcp_servers: set[str]
) -> dict[str, Skill]:
    skills: dict[str, Skill] = {}
    if not folder.is_dir():
        return skills
    for child in sorted(folder.iterdir()):
        if not child.is_dir() or child.name.startswith((".", "_")):
            continue
        if not os.path.lexists(child / "skill.md"):
            ctx.warn(child, None, "skill folder has no skill.md; skipped")
            continue
        skills[child.name] = read_skill(
            ctx, child, shared_tools=shared_tools, mcp_servers=mcp_servers
        )
    return skills
