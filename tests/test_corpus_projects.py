"""The Mantle corpus under tests/data/corpus: every project reads cleanly and is consistent.

The corpus is what generation is measured on, so a broken reference in it (a tool, skill,
block, response or memory key that does not exist) would make a score meaningless. The
second half checks that the patterns the corpus README promises really occur.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus_patterns import (
    BLOCK_LEVEL_KEYS,
    SESSION_KEY,
    defs_of,
    patterns_of,
    raw_blocks,
    steps_of,
)

from evalcore.definitions import Block, MantleDefinitions, Project, Skill, load_project

CORPUS = Path(__file__).parent / "data" / "corpus"
PROJECTS = sorted(p for p in CORPUS.iterdir() if (p / "skills").is_dir())
_PROSE_CALL = re.compile(r"\b(?:call|calls|use|run)\s+@?(?:tool\.)?([a-z][a-z0-9]*_[a-z0-9_]+)")


def _load(root: Path) -> Project:
    project = load_project(root)
    assert project.kind == "mantle", f"{root.name} is read as {project.kind}"
    assert project.mantle is not None
    return project


@pytest.fixture(scope="module", params=PROJECTS, ids=[p.name for p in PROJECTS])
def project(request: pytest.FixtureRequest) -> Project:
    return _load(request.param)


@pytest.fixture(scope="module")
def corpus() -> dict[str, Project]:
    return {root.name: _load(root) for root in PROJECTS}


def _conditions(defs: MantleDefinitions, skill: Skill) -> Iterator[tuple[str, str]]:
    """(where, condition) for every condition the skill's files write."""
    for rule in skill.utter:
        if rule.when:
            yield f"utter {rule.response}", rule.when
    for name, constraint in skill.tool_constraints.items():
        if constraint.requires:
            yield f"requires of {name}", constraint.requires
    if skill.complete_when and skill.complete_when.get("condition"):
        yield "complete_when", str(skill.complete_when["condition"])
    for prose in skill.prose_conditions:
        yield f"if: line {prose.line}", prose.condition
    for block_id, raw in raw_blocks(skill).items():
        if isinstance(raw, dict) and raw.get("complete_when"):
            yield f"block {block_id} complete_when", str(raw["complete_when"])
    for block, step in steps_of(skill):
        if "complete_when" in step.fields:
            yield f"{block.id}.{step.id} complete_when", str(step.fields["complete_when"])
        for branch in step.next if isinstance(step.next, list) else []:
            if branch.condition:
                yield f"{block.id}.{step.id} next", branch.condition
        if isinstance(step.target, str) and step.kind == "instructions":
            for line in step.target.splitlines():
                if line.strip().startswith("if:"):
                    yield f"{block.id}.{step.id} instructions", line.strip()[3:]
        for value in (step.fields.get("parameters") or {}).values():
            if isinstance(value, str) and value.startswith("session."):
                yield f"{block.id}.{step.id} parameters", value
    for response in skill.responses.values():
        for variant in response.variants:
            if variant.condition:
                yield f"response {response.name}", variant.condition


def _memory_writes(path: Path) -> list[str]:
    """Keys written with `context.memory.set("<key>", ...)` in a tools file."""
    keys = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "set"
            and ast.unparse(node.func.value).endswith("memory")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            keys.append(str(node.args[0].value))
    return keys


def _block_keys_supported() -> bool:
    return set(Block.model_fields) >= BLOCK_LEVEL_KEYS


# --- each project on its own ------------------------------------------------------------


def test_project_reads_without_warnings(project: Project) -> None:
    warnings = [str(w) for w in project.warnings]
    if not _block_keys_supported():  # the reader learns block-level tools/complete_when
        warnings = [
            w
            for w in warnings
            if not re.search(r"ordered block '[^']+' key '(tools|complete_when)'", w)
        ]
    assert warnings == []


def test_every_reference_resolves(project: Project) -> None:
    defs = defs_of(project)
    memory = defs.memory_names()
    responses = defs.all_responses()
    bindings = defs.agent.get("preconditions") or {}
    problems: list[str] = []
    for skill in defs.skills.values():
        tools = defs.tools_for(skill.id)
        where = f"{project.root.name}/{skill.id}"
        problems += [
            f"{where}: constraint on unknown tool {t}"
            for t in skill.tool_constraints
            if t not in tools
        ]
        for token in skill.tokens:
            kind, _, name = token[1:].partition(".")
            known = {
                "tool": name in tools,
                "skill": name in defs.skills,
                "block": name in skill.blocks,
                "memory": name in memory,
            }[kind]
            if not known:
                problems.append(f"{where}: {token} does not resolve")
        for called in _PROSE_CALL.findall(skill.body):
            if called not in tools and called not in defs.skills:
                problems.append(f"{where}: prose calls {called}, which is no tool of the skill")
        precondition = skill.frontmatter.get("precondition")
        if precondition and precondition not in bindings:
            problems.append(f"{where}: precondition {precondition} is not bound in agent.yml")
        for at, condition in _conditions(defs, skill):
            for namespace, entry in SESSION_KEY.findall(condition):
                if f"{namespace}.{entry}" not in memory:
                    problems.append(f"{where}: {at} reads undeclared session.{namespace}.{entry}")
        utters = [r.response for r in skill.utter]
        for constraint in skill.tool_constraints.values():
            utters += [u for u in (constraint.on_success, constraint.on_failure) if u]
            confirmation = constraint.requires_confirmation
            if confirmation is not None:
                utters += [confirmation.utter_for_confirmation, confirmation.utter_on_user_denial]
        for block, step in steps_of(skill):
            at = f"{where}: step {block.id}.{step.id}"
            target = str(step.target)
            if step.kind == "execute_tool" and target not in tools:
                problems.append(f"{at} runs unknown tool {target}")
            if step.kind == "collect" and f"{skill.id}.{target}" not in memory:
                problems.append(f"{at} collects undeclared {target}")
            if step.kind == "set_memory":
                problems += [
                    f"{at} sets undeclared {k}"
                    for k in step.target
                    if f"{skill.id}.{k}" not in memory
                ]
            if step.kind == "call" and target not in skill.blocks and target not in defs.skills:
                problems.append(f"{at} calls unknown {target}")
            if step.kind == "link" and target not in defs.skills:
                problems.append(f"{at} links to unknown skill {target}")
            if step.kind == "action":
                utters.append(target)
            if "utterance" in step.fields:
                utters.append(str(step.fields["utterance"]))
            problems += [
                f"{at} goes to unknown step {t}"
                for t in step.next_targets
                if t not in {s.id for s in block.steps}
            ]
        problems += [f"{where}: response {u} is not defined" for u in utters if u not in responses]
    assert problems == []


def test_every_memory_write_is_declared(project: Project) -> None:
    defs = defs_of(project)
    memory = defs.memory_names()
    problems = []
    shared = sorted((project.root / "tools").glob("*.py"))
    for path in shared:
        for key in _memory_writes(path):
            if not key.startswith("project.") or key not in memory:
                problems.append(
                    f"{path.name} writes {key}: shared tools write declared project.<key>"
                )
    for skill in defs.skills.values():
        folder = project.root / "skills" / skill.id
        for path in [folder / "tools.py", *sorted((folder / "tools").glob("*.py"))]:
            if not path.is_file():
                continue
            for key in _memory_writes(path):
                qualified = key if "." in key else f"{skill.id}.{key}"
                if qualified not in memory:
                    problems.append(f"{skill.id}/{path.name} writes undeclared {qualified}")
    assert problems == []


def test_project_ships_data_files_and_documents_formats(project: Project) -> None:
    data = [p for p in (project.root / "data").glob("*") if p.suffix in {".json", ".csv"}]
    assert data, f"{project.root.name} has no data/*.json or data/*.csv"
    assert all(p.stat().st_size > 200 for p in data), "data files hold real records"
    users = str(defs_of(project).agent.get("persona", ""))
    assert len(users.split()) > 25, "agent.yml says who talks to the agent"
    routable = [s for s in defs_of(project).skills.values() if not s.hidden]
    assert 3 <= len(routable) <= 6, "three to six skills a user can ask for"


# --- the pattern table ------------------------------------------------------------------

_README_ROW = re.compile(r"^\|\s*`(?P<name>\w+)`\s*\|(?P<cells>.*)\|\s*$", re.M)


def _readme_rows() -> dict[str, list[str]]:
    text = (CORPUS / "README.md").read_text().split("## Patterns")[0]
    return {
        m["name"]: [c.strip() for c in m["cells"].split("|")] for m in _README_ROW.finditer(text)
    }


def test_readme_lists_every_project_with_patterns_that_hold(corpus: dict[str, Project]) -> None:
    rows = _readme_rows()
    assert set(rows) == set(corpus), "one README row per corpus project"
    for name, cells in rows.items():
        _domain, users, skills, listed = cells
        project = corpus[name]
        claimed = set(re.findall(r"`([a-z0-9-]+)`", listed))
        assert claimed, f"{name}: no patterns listed"
        assert claimed <= patterns_of(project), (
            f"{name}: README claims {claimed - patterns_of(project)}"
        )
        assert set(re.findall(r"`(\w+)`", skills)) == set(defs_of(project).skills), (
            f"{name}: skills column"
        )
        persona = str(defs_of(project).agent.get("persona", "")).lower()
        assert all(word in persona for word in re.findall(r"\*(\w+)\*", users)), (
            f"{name}: users column"
        )


REQUIRED_EVERYWHERE_SOME = {
    "prose-call-gated",
    "if-in-instructions",
    "modes-4plus",
    "block-tools",
    "block-complete_when",
    "collect-utterance-description",
    "execute-tool-parameters",
    "next-branches-else",
    "step-set_memory",
    "step-action",
    "step-call",
    "step-link",
    "mcp-tools",
    "shared-tools",
    "skill-call",
    "precondition",
    "tool-requires-project",
    "seed-memory",
    "utter-on-activate",
    "utter-when",
    "response-condition",
    "buttons-set",
    "prose-rule",
    "enum-values",
    "llm-settable",
    "type-bool",
    "type-int",
    "type-float",
    "type-text",
    "type-list",
}


def test_every_pattern_occurs_in_several_projects(corpus: dict[str, Project]) -> None:
    assert len(corpus) >= 7
    found = {name: patterns_of(project) for name, project in corpus.items()}
    rare = {p: [n for n in found if p in found[n]] for p in REQUIRED_EVERYWHERE_SOME}
    assert {p: names for p, names in rare.items() if len(names) < 2} == {}
    assert all("data-files" in f for f in found.values())
    with_handoff = [n for n, f in found.items() if "human-handoff" in f]
    assert 2 <= len(with_handoff) < len(corpus), "a human hand-off in some projects, none in others"


def test_users_are_not_all_customers(corpus: dict[str, Project]) -> None:
    personas = " ".join(str(defs_of(p).agent.get("persona", "")).lower() for p in corpus.values())
    for who in ("engineers", "baristas", "executives", "passengers", "patients", "tenants"):
        assert who in personas
