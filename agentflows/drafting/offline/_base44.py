"""The offline base44 drafter: one eval prompt per planned behaviour, no model.

    data = draft_base44(DraftContext(project, "base44", behavior))

Each draft is a complete multi-prompt `eval.json` with exactly one entry in `prompts`; the
flow merges a skill's entries into one file. The planner (`agentflows.planning._base44`)
chose the files, pairs and commands in `behavior.facts`; this module writes the prompt and
its checks. Paths in checks are relative to the fixture's `project/` folder, regexes are
built by `_base44_patterns`.

Checks by prompt kind:

- resource: `file-exists` per file, `valid-json` per JSON/JSONC file, the kind's Base44 config
  check (`entity-config` / `agent-config` / `function-def`, `target: file`), the `"name"` the
  naming rule gives, per pair `file-content` for each correct form and
  `file-content-excluded` for each wrong one, `contains` for a command the skill says to run;
- command: `contains` the command;
- code: `file-exists`, an import of the client file the skill prescribes, the pairs;
- adversarial: `file-exists` per file, then the pairs;
- route: the other skill's request with only its `file-exists` / `contains` checks, and
  `expectedSkills` naming the other skill;
- negative: none is drafted (the planner reports it not written: an empty
  `expectedSkills` cannot fail an agent that uses the skill anyway);
- task: a task of a skill that quotes no trigger phrases (`_base44_tasks`);
- practice: code work on the starter project for a skill about how such work is done
  (`_base44_practice`).

A direction's persona and plain requirements are added to the prompt text ("Keep in mind:",
"Also:"); a requirement that a known skill is used or completes adds it to `expectedSkills`.
"""

from __future__ import annotations

import re
from typing import Any

from ...planning.base44_skillmd import Pair, read_skill, skill_body
from .._engine import DraftContext
from ._base44_patterns import code_pattern, declared_names, json_keys, json_patterns, loose
from ._base44_practice import draft_practice
from ._base44_tasks import draft_task
from ._direction import parse_direction

CONFIG_CHECKS = {"entity": "entity-config", "agent": "agent-config", "function": "function-def"}
_ENTITY_METHODS = {"list", "filter", "get", "create", "update", "delete"}
Check = dict[str, Any]


def draft_base44(ctx: DraftContext) -> dict[str, Any]:
    """A schema-valid, lint-clean eval with one prompt for `ctx.behavior` (deterministic)."""
    defs = ctx.project.agent_skills
    if defs is None:
        raise ValueError(f"{ctx.project.root} is not an Agent Skills project")
    behavior = ctx.behavior
    facts = behavior.facts
    skill = defs.skills[behavior.source]
    known = set(defs.skills) | {s for f in defs.fixtures for s in f.skills}
    pairs = {p.index: p for p in read_skill(ctx.project, skill, known).pairs}
    local = declared_names(skill_body(ctx.project, skill))
    kind = facts["kind"]
    expected = [behavior.source]
    if kind == "route":
        other = defs.skills[facts["skill"]]
        prompt, checks = _target(
            facts["target"],
            _pairs_of(ctx, other, known),
            where_only=True,
            local=declared_names(skill_body(ctx.project, other)),
        )
        expected = [facts["skill"]]
    elif kind == "adversarial":
        prompt, checks = _adversarial(facts, pairs, local)
    elif kind == "task":
        prompt, checks = draft_task(facts)
    elif kind == "practice":
        prompt, checks = draft_practice(facts)
    else:
        prompt, checks = _target(facts, pairs, where_only=False, local=local)
    direction = parse_direction(ctx.direction, skills=sorted(known))
    prompt = _with_direction(prompt, direction.persona_clauses, direction.criteria)
    wanted = direction.checks("skill_activated") + direction.checks("skill_completed")
    expected += [s for s in wanted if s in known and s not in expected]
    entry = {
        "name": facts["prompt_name"],
        "description": behavior.description,
        "prompt": prompt,
        "expectedSkills": expected,
        "checks": checks,
    }
    return {
        "name": f"{behavior.source}-generated",
        "description": f"Generated evals for the {behavior.source} skill: {behavior.title}",
        "prompts": [entry],
    }


def _pairs_of(ctx: DraftContext, skill: Any, known: set[str]) -> dict[int, Pair]:
    return {p.index: p for p in read_skill(ctx.project, skill, known).pairs}


def _with_direction(prompt: str, persona: tuple[str, ...], criteria: list[str]) -> str:
    if persona:
        prompt += " Keep in mind: " + "; ".join(persona) + "."
    for text in criteria:
        prompt += f" Also: {text[0].lower()}{text[1:]}."
    return prompt


# --- prompts --------------------------------------------------------------------------------


def _target(
    facts: dict[str, Any],
    pairs: dict[int, Pair],
    *,
    where_only: bool,
    local: frozenset[str] = frozenset(),
) -> tuple[str, list[Check]]:
    kind = facts["kind"]
    if kind == "resource":
        return _resource(facts, pairs, where_only=where_only, local=local)
    if kind == "command":
        return (
            f"In a Base44 project: {facts['trigger']}. Which command does that? Reply with the "
            "exact command line.",
            [_contains(facts["command"])],
        )
    return _code(facts, pairs, where_only=where_only, local=local)


def _spec(resource: dict[str, Any]) -> str:
    """What to create, without repeating its kind (the prompt has already named it)."""
    name, kind = resource["name"], resource["kind"]
    if kind == "entity":
        return f"a {name} with title (string, required), body (string) and remind_on (a date)"
    if kind == "function":
        return (
            f"{name}, which reads a noteId from the JSON request body and answers with "
            '{"archived": true}'
        )
    if kind == "agent":
        return f"{name}, which answers questions about the user's notes"
    return name or resource["label"]


def _kind_phrase(resource: dict[str, Any]) -> str:
    label = "entity" if resource["kind"] == "entity" else resource["label"]
    return ("an " if label[:1].lower() in "aeiou" else "a ") + label


def _resource(
    facts: dict[str, Any], pairs: dict[int, Pair], *, where_only: bool, local: frozenset[str]
) -> tuple[str, list[Check]]:
    resource = facts["resource"]
    # a resource planned from the skill's file naming, not a trigger phrase: asked for plainly
    request = facts["trigger"] or f"create {_kind_phrase(resource)}"
    prompt = (
        f"In this Base44 project, {request}: {_spec(resource)}. Put it where the "
        "base44 CLI expects it."
    )
    if facts.get("commands"):
        prompt += " Then tell me which command uploads it."
    checks = _files(resource)
    if not where_only:
        checks += _definition(resource)
        for item in facts.get("pairs", []):
            checks += _pair_checks(pairs[item["index"]], item["file"], local)
    checks += [_contains(c) for c in facts.get("commands", [])]
    return prompt, checks


def _code(
    facts: dict[str, Any], pairs: dict[int, Pair], *, where_only: bool, local: frozenset[str]
) -> tuple[str, list[Check]]:
    items = facts.get("pairs", [])
    methods = [m for item in items for m in item.get("methods", [])]
    entity = facts.get("entity")
    about = ""
    if entity and set(methods) & _ENTITY_METHODS and entity.lower() not in facts["trigger"]:
        about = f" ({entity} records)"
    uses = (
        f" with the Base44 SDK's {_and([f'{m}()' for m in methods])}"
        if methods
        else " with the Base44 SDK"
    )
    client = facts.get("client")
    prompt = (
        f"In this Base44 app, {facts['trigger']}{about}: write {facts['file']}, a React "
        f"component that does it{uses}"
        + (f", using the existing client from {client}." if client else ".")
    )
    checks: list[Check] = [_exists(facts["file"], "Component file created")]
    if where_only:
        return prompt, checks
    if client:
        stem = client.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        checks.append(
            {
                "type": "file-content",
                "description": f"Imports the existing client from {client}",
                "filePath": facts["file"],
                "pattern": r"from\s*['\"][^'\"]*" + stem + r"['\"]",
            }
        )
    for item in items:
        checks += _pair_checks(pairs[item["index"]], item["file"], local)
    return prompt, checks


def _adversarial(
    facts: dict[str, Any], pairs: dict[int, Pair], local: frozenset[str]
) -> tuple[str, list[Check]]:
    items = facts["pairs"]
    wrong = _and([f"`{w}`" for item in items for w in pairs[item["index"]].wrong])
    files = list(dict.fromkeys(item["file"] for item in items))
    resource = facts.get("resource")
    if resource:
        prompt = (
            f"In this Base44 project, create {_kind_phrase(resource)}: {_spec(resource)}. "
            f"I was told to write {wrong} in it, so please do it exactly that way."
        )
        checks = _files(resource)
    else:
        entity = facts.get("entity") or "the app's"
        job = (
            f"for {facts['topic'].lower()}"
            if facts.get("topic")
            else f"that loads and deletes {entity} records"
        )
        prompt = (
            f"In this Base44 app, write {_and(files)} with the Base44 SDK: a React "
            f"component {job}, and the client it needs. I was told to use {wrong}, so "
            "please use exactly those."
        )
        checks = [_exists(f, "File created") for f in files]
    for item in items:
        checks += _pair_checks(pairs[item["index"]], item["file"], local)
    # two pairs with one correct form check it once
    return prompt, _unique(checks)


# --- checks ---------------------------------------------------------------------------------


def _exists(path: str, what: str) -> Check:
    return {"type": "file-exists", "description": f"{what}: {path}", "filePath": path}


def _contains(command: str) -> Check:
    return {
        "type": "contains",
        "description": f"The answer names the command `{command}`",
        "value": command,
    }


def _files(resource: dict[str, Any]) -> list[Check]:
    label = resource["label"]
    checks = [
        _exists(
            path,
            f"{label[0].upper()}{label[1:]} file at the path the skill prescribes ({template})",
        )
        for path, template in zip(resource["files"], resource["templates"], strict=False)
    ]
    checks += [
        {
            "type": "valid-json",
            "description": f"{path} is valid JSON (comments allowed)",
            "filePath": path,
        }
        for path in resource["files"]
        if path.endswith((".json", ".jsonc"))
    ]
    return checks


def _definition(resource: dict[str, Any]) -> list[Check]:
    json_file = next((f for f in resource["files"] if f.endswith((".json", ".jsonc"))), None)
    if json_file is None:
        return []
    checks: list[Check] = []
    config = CONFIG_CHECKS.get(resource["kind"])
    if config:
        checks.append(
            {
                "type": config,
                "description": f"{json_file} is a valid Base44 {resource['label']} definition",
                "filePath": json_file,
                "target": "file",
            }
        )
    if resource.get("name"):
        checks.append(
            {
                "type": "file-content",
                "description": f'"name" is {resource["name"]}, cased as the skill\'s naming rule '
                "says",
                "filePath": json_file,
                "pattern": r'"name"\s*:\s*"' + resource["name"] + '"',
            }
        )
    return checks


def _pair_checks(pair: Pair, path: str, local: frozenset[str] = frozenset()) -> list[Check]:
    """`file-content` for the correct forms, `file-content-excluded` for the wrong ones; a
    correct call on one of the skill's own variables (`local`) is wanted by its method alone,
    a wrong one keeps its receiver (checks never reject more than the skill's wrong form)."""
    checks: list[Check] = []
    is_json = any('":' in c or '" :' in c for c in pair.correct)
    right_keys = json_keys(pair.correct) if is_json else set()
    for form in pair.correct:
        for pattern in json_patterns(form) if is_json else [code_pattern(form, local)]:
            checks.append(
                {
                    "type": "file-content",
                    "description": f"Uses {form} (the skill's correct form)",
                    "filePath": path,
                    "pattern": pattern,
                }
            )
    for form in pair.wrong:
        wrong_keys = json_keys((form,)) - right_keys if is_json else set()
        for pattern in (
            json_patterns(form, keys_only=wrong_keys) if is_json else [code_pattern(form)]
        ):
            if any(re.search(pattern, right, re.IGNORECASE) for right in pair.correct):
                # the runner matches without case: `sendEmail\(` would reject the correct
                # `Core.SendEmail(`, so this wrong form cannot be told apart; not checked
                continue
            checks.append(
                {
                    "type": "file-content-excluded",
                    "description": f"Does not use {form} (wrong per the skill)",
                    "filePath": path,
                    "pattern": pattern,
                }
            )
    return _unique(checks)


def _unique(checks: list[Check]) -> list[Check]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for check in checks:
        key = (check["type"], check.get("filePath", ""), check.get("pattern", ""))
        if key not in seen:
            seen.add(key)
            out.append(check)
    return out


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"


__all__ = ["draft_base44", "loose"]
