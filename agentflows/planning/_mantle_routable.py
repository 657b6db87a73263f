"""Which Mantle skills a user can ask for, and what starts the others.

Rasa's router offers a skill to the user only when it is neither `hidden`, `disabled` nor
`routing: engine_managed: true`. An engine-managed skill (session start, completed, silence
timeout, the unsupported-request handler) is run by the engine at its moment, never because
someone asked; a hidden skill runs only when something starts it: a `call:`/`link:` step of
another skill, an `@skill.<id>` its prose hands over to, or a precondition's `resolve_with`
in agent.yml. So none of them is a user's goal, a detour target or the subject of an
opening line: `generate all` plans cases for the user-routable skills, and a hidden skill is
covered through the cases of what starts it.
"""

from __future__ import annotations

from evalcore.definitions import MantleDefinitions, Project, Skill


def engine_managed(skill: Skill) -> bool:
    """True when the frontmatter says `routing: engine_managed: true`."""
    routing = skill.frontmatter.get("routing")
    return isinstance(routing, dict) and routing.get("engine_managed") is True


def user_routable(skill: Skill) -> bool:
    """True when the router may send a user's message to the skill."""
    return not (skill.hidden or skill.disabled or engine_managed(skill))


def why_not_routable(defs: MantleDefinitions, skill: Skill) -> str | None:
    """Why no case can have the skill as its user's goal (None when one can): the flag, and
    for a hidden skill what starts it, so its cases are looked for there."""
    if skill.disabled:
        return "it is disabled (disabled: true)"
    if engine_managed(skill):
        return "the engine runs it (routing: engine_managed: true); no user asks for it"
    if skill.hidden:
        starters = starters_of(defs, skill.id)
        where = (
            "it is covered through the cases of " + ", ".join(starters)
            if starters
            else "nothing in the project starts it"
        )
        return f"it is hidden (hidden: true): only what starts it runs it, so {where}"
    return None


def not_a_goal(project: Project, skill_id: str) -> str | None:
    """`why_not_routable` for a skill of the project (the planning registry's hook)."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return None
    return why_not_routable(defs, defs.skills[skill_id])


def starters_of(defs: MantleDefinitions, skill_id: str) -> list[str]:
    """The user-routable skills that start `skill_id`: by a `call:`/`link:` step, an
    `@skill.<id>` in their prose, or a precondition of theirs whose `resolve_with`
    (agent.yml) names it."""
    resolvers = defs.agent.get("precondition_resolvers")
    resolvers = resolvers if isinstance(resolvers, dict) else {}
    out = []
    for other in sorted(defs.skills.values(), key=lambda s: s.id):
        if other.id == skill_id or not user_routable(other):
            continue
        steps = [s for b in other.blocks.values() for s in b.steps]
        if any(s.kind in ("call", "link") and s.target == skill_id for s in steps) or (
            f"@skill.{skill_id}" in other.tokens
        ):
            out.append(other.id)
            continue
        precondition = other.frontmatter.get("precondition")
        if precondition and resolvers.get(str(precondition)) == skill_id:
            out.append(other.id)
    return out


__all__ = ["engine_managed", "not_a_goal", "starters_of", "user_routable", "why_not_routable"]
