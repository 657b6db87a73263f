"""What a corpus project exercises, read from its files (used by test_corpus_projects.py).

`patterns_of` names each pattern of the corpus README (`prose-call-gated`, `modes-4plus`,
`block-tools`, ...) that a project's files really contain.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

from evalcore.definitions import Block, MantleDefinitions, Project, Skill, Step

SESSION_KEY = re.compile(r"(?:\bsession|@memory)\.([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)")
FENCE = re.compile(r"^:::\s*ordered_block\s+id=(\S+)\s*\n(.*?)^:::\s*$", re.M | re.S)
BLOCK_LEVEL_KEYS = {"tools", "complete_when"}
_MODE = re.compile(r"""^session\.(\w+)\.(\w+)\s*==\s*["'](\w+)["']$""")
_TOOL_MENTION = re.compile(r"@tool\.(\w+)|\b(?:call|calls|Call)\s+(\w+)")


def defs_of(project: Project) -> MantleDefinitions:
    assert project.mantle is not None
    return project.mantle


def raw_blocks(skill: Skill) -> dict[str, dict]:
    """Each ordered block's YAML as written (block-level keys included)."""
    return {m[1]: yaml.safe_load(m[2]) for m in FENCE.finditer(skill.body)}


def steps_of(skill: Skill) -> Iterator[tuple[Block, Step]]:
    for block in skill.blocks.values():
        for step in block.steps:
            yield block, step


def prose_of(skill: Skill) -> str:
    return FENCE.sub("", skill.body)


def mentioned_tools(text: str, tools: set[str]) -> list[str]:
    names = [a or b for a, b in _TOOL_MENTION.findall(text)]
    return [n for n in names if n in tools]


def mode_count(defs: MantleDefinitions, skill: Skill) -> int:
    """Modes of one field (`if: session.x.mode == "list"` ...) whose sections name own tools."""
    tools = set(defs.tools_for(skill.id))
    by_field: dict[str, dict[str, frozenset[str]]] = {}
    for prose in skill.prose_conditions:
        match = _MODE.match(prose.condition.strip())
        if match:
            named = frozenset(mentioned_tools(prose.paragraph, tools))
            if named:
                by_field.setdefault(f"{match[1]}.{match[2]}", {})[match[3]] = named
    return max((len(set(sections.values())) for sections in by_field.values()), default=0)


def _skill_patterns(defs: MantleDefinitions, skill: Skill) -> set[str]:
    found: set[str] = set()
    memory = defs.memory_names()
    tools = set(defs.tools_for(skill.id))
    executed = {str(s.target) for _, s in steps_of(skill) if s.kind == "execute_tool"}
    prose_tools = set(mentioned_tools(prose_of(skill), tools))
    for name, constraint in skill.tool_constraints.items():
        confirmation = constraint.requires_confirmation
        gated = (
            constraint.requires
            and confirmation is not None
            and confirmation.utter_for_confirmation
            and confirmation.utter_on_user_denial
            and constraint.on_success
            and constraint.on_failure
        )
        if gated and name in prose_tools and name not in executed:
            found.add("prose-call-gated")
        if constraint.requires and "session.project." in constraint.requires:
            found.add("tool-requires-project")
    for _, step in steps_of(skill):
        found.add(f"step-{step.kind}")
        if step.kind == "collect" and {"utterance", "description"} <= set(step.fields):
            found.add("collect-utterance-description")
        if step.kind == "execute_tool" and step.fields.get("parameters"):
            found.add("execute-tool-parameters")
        if isinstance(step.next, list) and step.next and step.next[-1].condition is None:
            found.add("next-branches-else")
        if step.kind == "instructions" and isinstance(step.target, str):
            for line in step.target.splitlines():
                if line.strip().startswith("if:"):
                    keys = SESSION_KEY.findall(line)
                    if any(memory[f"{ns}.{e}"].type == "categorical" for ns, e in keys):
                        found.add("if-in-instructions")
    for raw in raw_blocks(skill).values():
        if isinstance(raw, dict):
            found |= {f"block-{key}" for key in BLOCK_LEVEL_KEYS if raw.get(key)}
    if mode_count(defs, skill) >= 4:
        found.add("modes-4plus")
    if any(t.startswith("@skill.") for t in skill.tokens):
        found.add("skill-call")
    if any(name.startswith("mcp/") for name in skill.import_tools):
        found.add("mcp-tools")
    if any(name in defs.shared_tools for name in skill.import_tools):
        found.add("shared-tools")
    if skill.frontmatter.get("precondition"):
        found.add("precondition")
    if skill.is_handoff:
        found.add("human-handoff")
    found |= {"utter-on-activate" for r in skill.utter if r.on == "activate"}
    found |= {"utter-when" for r in skill.utter if r.when}
    if re.search(r"\bnever\b", prose_of(skill), re.I):
        found.add("prose-rule")
    return found


def patterns_of(project: Project) -> set[str]:
    """Every corpus pattern the project exercises, read from its files."""
    defs = defs_of(project)
    found = set().union(*(_skill_patterns(defs, s) for s in defs.skills.values()))
    fields = list(defs.memory_names().values())
    found |= {f"type-{f.type}" for f in fields}
    if any(f.enum_values for f in fields):
        found.add("enum-values")
    if any(f.llm_settable for f in fields):
        found.add("llm-settable")
    if any(f.seed for f in defs.memory.values()):
        found.add("seed-memory")
    variants = [v for r in defs.all_responses().values() for v in r.variants]
    if any(v.condition for v in variants):
        found.add("response-condition")
    if any(str(b.payload).startswith("set:") for v in variants for b in v.buttons):
        found.add("buttons-set")
    if list((project.root / "data").glob("*.json")) + list((project.root / "data").glob("*.csv")):
        found.add("data-files")
    return found
