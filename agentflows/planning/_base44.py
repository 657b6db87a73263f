"""The base44 planner: which prompts an agent skill's eval should hold.

    plan = plan_base44(project, "base44-cli", direction=None)

One behaviour per prompt (the flow merges a skill's prompts into one multi-prompt
`eval.json`). From the skill's SKILL.md (`base44_skillmd`, `base44_targets`):

- `trigger` (happy_path), one per trigger phrase of the description, as one of
  - `resource`: the resource the phrase asks for, at its prescribed path, with the naming
    rule, `valid-json` for JSON/JSONC files, the Base44 config check of the kind (entity →
    `entity-config`, agent → `agent-config`, function → `function-def`), the WRONG → CORRECT
    pairs about that resource, and the command a pair prescribes after writing it;
  - `command`: the CLI command the phrase asks for (`contains`);
  - `code`: app code (`src/components/<Name>.jsx`) using the SDK calls the phrase asks for,
    with their pairs and an import of the client file the skill prescribes;
- `adversarial` (adversarial): the person asks for up to three WRONG forms outright (pairs no
  trigger prompt covers first, then pairs whose CORRECT form no chosen pair has, all of one
  table); the checks want the CORRECT form and not the wrong one; where the table's heading
  names its subject ("Authentication - WRONG vs CORRECT"), the component is for that, and a
  skill whose tables each name one gets one such prompt per subject (`MAX_ADVERSARIAL_TOPICS`);
- `route` (out_of_scope), one per other skill the body sends work to ("use the base44-sdk
  skill"): that skill's first trigger, asked here, expecting that skill;
- no separate negative prompt. The format has no way to say "this skill must not run": an
  empty `expectedSkills` passes whatever skills the agent used, so a prompt outside the skill
  cannot fail an agent that triggers it, and a check on the answer to an unrelated question
  tests general knowledge, not the skill. The sound boundary prompts are the `route` ones
  (work the skill's own text sends elsewhere, expecting that skill, with its file checks); a
  skill with none gets a `negative` behaviour planned only to be reported not written
  (`NOT_WRITTEN`, with that reason), so the generate report says why there is none.

Element grammar (`Behavior.covers`, `Plan.elements`): `skill:<name>`, `trigger:<phrase>`,
`path:<template>` (prescribed paths, `<name>` kept), `json:<template>` (JSON/JSONC files),
`pair:<n>` (WRONG → CORRECT rows, 1-based in body order), `command:<command>`,
`route:<skill>`, `task:<phrase> (<language>)`, `resource:<kind>`.

A skill that quotes no trigger phrases, names no task and no practice, but prescribes where a
kind of JSON definition lives (`base44/entities/{kebab-case-name}.jsonc`) gets one `resource`
(happy_path) prompt per such kind: a person asks for a new one, checked as a trigger's
resource is.

A skill whose description quotes no trigger phrases gets one `task` (happy_path) prompt per
task its text says it supports, in a language its code is written in (`_base44_tasks`):
the person asks for that work in a file at a path the prompt names. A practice skill (how
code work is done, its samples tests: `_base44_practice`) instead gets one `practice` prompt
per kind of work it names (`practice:<kind>`), done on a starter project whose files the
behaviour's `starter` fact carries (`base44_starter`; written into the fixture's `project/`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from evalcore.definitions import Project
from evalcore.errors import UserError

from ..drafting.offline import Direction, parse_direction
from ._base44_practice import Practice, practice_tasks
from ._base44_tasks import Task, kind_name, skill_tasks, task_words
from ._behavior import NOT_WRITTEN, Behavior, Plan
from .base44_skillmd import Command, Pair, Resource, SkillText, read_skill
from .base44_starter import INPUT_FILES, INPUT_JOBS, STARTER_FILES, SUBJECT_FILES
from .base44_targets import (
    Instance,
    client_path,
    code_pairs,
    component_name,
    file_for,
    instantiate,
    is_import,
    method_names,
    pair_kind,
    pair_resource,
    trigger_target,
    word_set,
)

DIALECT = "base44"
DIRECTION_BOOST = 100
MAX_ADVERSARIAL_PAIRS = 3
#: At most this many adversarial prompts, one per titled WRONG → CORRECT table.
MAX_ADVERSARIAL_TOPICS = 5
#: Why a skill whose text sends no work to another skill gets no negative prompt.
NO_NEGATIVE = (
    "no negative prompt: an empty expectedSkills passes whatever skills ran, so a prompt "
    "outside the skill cannot fail an agent that uses it anyway, and the skill sends no work "
    "to another skill that a routing prompt could ask for"
)


def plan_base44(project: Project, skill_name: str, direction: str | None) -> Plan:
    """The coverage plan for one agent skill (UserError when the project lacks it)."""
    defs = project.agent_skills
    if defs is None or skill_name not in defs.skills:
        raise UserError(f"{project.root} has no agent skill '{skill_name}'")
    known = set(defs.skills) | {s for f in defs.fixtures for s in f.skills}
    texts = {name: read_skill(project, skill, known) for name, skill in defs.skills.items()}
    text = texts[skill_name]
    # A skill that quotes no trigger phrases is asked for the tasks it is read to support;
    # a practice skill (how code work is done) for the kinds of work it governs.
    skill = defs.skills[skill_name]
    practices = [] if text.triggers else practice_tasks(skill)
    tasks = [] if text.triggers or practices else skill_tasks(project, skill)
    builder = _Builder(text, texts, sorted(defs.skills), tasks, practices)
    behaviors = builder.build()
    parsed = parse_direction(direction, skills=sorted(known))
    return Plan(
        source=skill_name,
        dialect=DIALECT,
        behaviors=_rank(behaviors, parsed),
        elements=elements(text, tasks, practices),
    )


def elements(
    text: SkillText, tasks: list[Task] | None = None, practices: list[Practice] | None = None
) -> list[str]:
    """Every element the skill's eval could cover; example files of a `<name>` template
    (`base44/entities/todo.jsonc`) count as the template."""
    templates = [
        re.compile("^" + re.escape(p).replace(re.escape("<name>"), "[^/]+") + "$")
        for r in text.resources
        for p in r.paths
        if "<name>" in p
    ]
    paths = [
        p
        for p in text.paths
        if "/" in p and ("<name>" in p or not any(t.match(p) for t in templates))
    ]
    out = [f"skill:{text.name}"]
    out += [f"trigger:{t}" for t in text.triggers]
    out += [task_element(t) for t in tasks or ()]
    out += [f"practice:{p.kind}" for p in practices or ()]
    if not (text.triggers or tasks or practices):
        out += [f"resource:{r.kind}" for r in definition_resources(text)]
    out += [f"path:{p}" for p in paths]
    out += [f"json:{p}" for p in paths if p.endswith((".json", ".jsonc"))]
    out += [f"pair:{p.index}" for p in text.pairs]
    out += [f"command:{c.command}" for c in text.commands]
    out += [f"route:{r.skill}" for r in text.routes]
    return list(dict.fromkeys(out))


#: Prompt kinds that ask for work in an existing project ("In this Base44 project, ...").
_IN_PROJECT = frozenset({"resource", "code", "adversarial", "command"})


def definition_resources(text: SkillText) -> list[Resource]:
    """Resources with a named JSON/JSONC definition file (`<folder>/<name>.jsonc`): the kinds
    a trigger-less skill is asked to create, checked as definitions (valid JSON, the kind's
    config check, the `"name"`); a named source file is left to the task reader."""
    return [
        r
        for r in text.resources
        if any("<name>" in p and p.endswith((".json", ".jsonc")) for p in r.paths)
    ]


#: Elements a prompt's checks verify as a whole (the skill answered that prompt).
_PROMPT_KINDS = (
    "skill:",
    "trigger:",
    "task:",
    "practice:",
    "resource:",
    "pair:",
    "command:",
    "route:",
)


def asserted_elements(
    project: object, source: str, data: dict[str, Any], covers: list[str]
) -> set[str]:
    """The elements a base44 prompt entry's checks verify: a covered path or JSON file only
    when a check names its `filePath`; the prompt's own elements (its trigger, pair,
    command, route) when it has any check at all."""
    entries = data.get("prompts") if isinstance(data.get("prompts"), list) else [data]
    found: set[str] = set()
    for entry in entries:
        checks = [c for c in (entry or {}).get("checks") or [] if isinstance(c, dict)]
        if not checks:
            continue
        files = {str(c["filePath"]) for c in checks if c.get("filePath")}
        for element in covers:
            kind, _, value = element.partition(":")
            if element.startswith(_PROMPT_KINDS) or (kind in ("path", "json") and value in files):
                found.add(element)
    return found


def _rank(behaviors: list[Behavior], direction: Direction) -> list[Behavior]:
    """Behaviours sharing words with the direction move ahead (one boost per shared word)."""
    if direction.empty:
        return behaviors
    texts = [word_set(f"{b.title} {b.description} {b.case.replace('_', ' ')}") for b in behaviors]
    common = set.intersection(*texts) if texts else set()
    wanted = word_set(" ".join([*direction.persona_clauses, *direction.criteria])) - common
    adversarial = "adversarial" in direction.themes
    out = []
    for behavior, words in zip(behaviors, texts, strict=True):
        score = len(words & wanted) + (adversarial and behavior.type == "adversarial")
        if score:
            behavior = behavior.model_copy(
                update={"priority": behavior.priority - DIRECTION_BOOST * score}
            )
        out.append(behavior)
    return out


def slug(text: str) -> str:
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", text)]
    kept = [w for w in words if w not in ("a", "an", "the", "to", "my", "of")] or words
    return "_".join(kept[:5]) or "prompt"


#: Task facts that name the task (its words, its file, where it was read), not what is asked
#: of the agent or checked.
_TASK_NAMING = frozenset({"phrase", "path", "source", "example", "prompt_name"})


def _same_job(facts: dict[str, Any], made: list[Behavior]) -> Behavior | None:
    """An earlier task of the skill with the same job and the same checks, but for its
    words and file: two fixtures a reviewer cannot tell apart (one test, not two)."""
    if not (facts.get("jobs") or facts.get("reads")):
        return None  # the task's words are its job: different words ask different things
    job = {k: v for k, v in facts.items() if k not in _TASK_NAMING}
    for behavior in made:
        if behavior.facts.get("kind") != "task":
            continue
        if {k: v for k, v in behavior.facts.items() if k not in _TASK_NAMING} == job:
            return behavior
    return None


class _Builder:
    def __init__(
        self,
        text: SkillText,
        texts: dict[str, SkillText],
        skills: list[str],
        tasks: list[Task] | None = None,
        practices: list[Practice] | None = None,
    ) -> None:
        self.text = text
        self.tasks = tasks or []
        self.practices = practices or []
        self.texts = texts
        self.skills = skills
        self.out: list[Behavior] = []
        self.covered: set[int] = set()

    def build(self) -> list[Behavior]:
        for index, trigger in enumerate(self.text.triggers):
            self.trigger(trigger, 10 + index)
        for index, task in enumerate(self.tasks):
            self.task(task, 10 + index)
        for index, practice in enumerate(self.practices):
            self.practice(practice, 10 + index)
        if not (self.text.triggers or self.tasks or self.practices):
            for index, resource in enumerate(definition_resources(self.text)):
                self.resource(resource, 10 + index)
        self.adversarial()
        for index, route in enumerate(self.text.routes):
            self.route(route.skill, route.condition, 40 + index)
        if not any(b.facts.get("kind") == "route" for b in self.out):
            self.negative()
        return self.out

    def add(
        self,
        case: str,
        type_: str,
        title: str,
        description: str,
        covers: list[str],
        facts: dict[str, Any],
        priority: int,
    ) -> None:
        name = self.text.name
        if self.text.presumed and facts.get("kind") in _IN_PROJECT and "starter" not in facts:
            # the prompt speaks of an existing project: the files the skill checks for first
            facts = facts | {"starter": dict(self.text.presumed)}
        taken = {b.case for b in self.out}
        base, n = case, 2
        while case in taken:
            case, n = f"{base}_{n}", n + 1
        self.out.append(
            Behavior(
                id=f"{name}:{case}",
                source=name,
                dialect=DIALECT,
                type=type_,
                case=case,
                title=title,
                description=description,
                covers=list(dict.fromkeys([f"skill:{name}", *covers])),
                facts={"prompt_name": f"{name}-{case.replace('_', '-')}"} | facts,
                priority=priority,
            )
        )

    # --- triggers ---------------------------------------------------------------------------

    def trigger(self, trigger: str, priority: int) -> None:
        facts, covers, what = target_facts(trigger, self.text)
        self.covered |= {p["index"] for p in facts.get("pairs", [])}
        self.add(
            slug(trigger),
            "happy_path",
            f"{self.text.name}: “{trigger}” — {what}",
            f"A prompt that says “{trigger}” should use the {self.text.name} skill; the checks "
            f"verify {what} as the skill prescribes.",
            [f"trigger:{trigger}", *covers],
            facts,
            priority,
        )

    def resource(self, resource: Resource, priority: int) -> None:
        """A skill that quotes no trigger phrases but prescribes where a kind of file lives:
        a person asks for a new one, the checks verify its path, naming and content."""
        facts, covers, what = _resource_facts("", resource, self.text)
        self.covered |= {p["index"] for p in facts.get("pairs", [])}
        label = facts["resource"]["label"]
        self.add(
            slug(f"new {label}"),
            "happy_path",
            f"{self.text.name}: a new {label} — {what}",
            f"The skill prescribes where {label} files live ({', '.join(resource.paths)}); a "
            f"person asks for a new one, and the checks verify {what} as the skill prescribes.",
            [f"resource:{label}", *covers],
            facts,
            priority,
        )

    def task(self, task: Task, priority: int) -> None:
        language = kind_name(task)
        facts = self._task_facts(task, language)
        same = _same_job(facts, self.out)
        if same is not None:  # another name for the same job on the same file
            same.covers.append(task_element(task))
            return
        self.add(
            slug(" ".join([*task_words(task.phrase)[:4], task.format or task.language])),
            "happy_path",
            f"{self.text.name}: {task.phrase} ({language})",
            (
                f"The skill shows how to {task.phrase} ({task.file}:{task.line}) with a sample "
                f"of the {language} it produces; a person asks for it at `{task.path}`, and "
                "the checks verify the file, that it parses and the sample's structure."
            )
            if task.format
            else (
                f"The skill supports {task.phrase} ({task.file}:{task.line}); a person asks for "
                f"it in {language} at `{task.path}`, and the checks verify the file and what "
                "the skill prescribes for its code."
            ),
            [task_element(task)],
            facts,
            priority,
        )

    def _task_facts(self, task: Task, language: str) -> dict[str, Any]:
        return {
            "kind": "task",
            "phrase": task.phrase,
            "language": language,
            "path": task.path,
            "imports": task.imports,
            "uses": task.uses,
            "do": list(task.do),
            "dont": list(task.dont),
            "unset": [{"pattern": p, "keeps": k} for p, k in task.unset],
            "source": f"{task.file}:{task.line}",
            "example": task.example,
            "format": task.format,
            "tags": list(task.tags),
            "context": task.context,
            "inputs": list(task.inputs),
            "own": list(task.own),
            "decorator": task.decorator,
            "output": (
                Path(task.inputs[0] if task.inputs else task.path).stem + task.saves
                if task.saves
                else ""
            ),
            # a task that names no act of its own (verifying, debugging) is given the
            # input file's job; one that does (a screenshot, console logs) is that act
            "jobs": [
                {"request": j.request, "done": j.done, "says": j.done_says}
                for j in (INPUT_JOBS.get(name) for name in task.inputs)
                if j and not any(p.startswith((r"\.", "['")) for p in task.own)
            ],
            "thing": task.thing,
            "reads": [
                {
                    "about": j.about,
                    "request": "" if task.format else j.request,
                    "done": "" if task.format else j.done,
                    "says": j.done_says,
                    "subject": j.subject,
                }
                for j in (INPUT_JOBS.get(name) for name in task.reads)
                if j
            ],
            "starter": {
                name: text
                for name, text in [*INPUT_FILES.values(), *SUBJECT_FILES.values()]
                if name in task.inputs or name in task.reads
            },
        }

    def practice(self, practice: Practice, priority: int) -> None:
        what = {"bug_fix": "a bug fix", "feature": "a new feature", "refactor": "a refactoring"}
        self.add(
            practice.kind,
            "happy_path",
            f"{self.text.name}: {what[practice.kind]} on a starter project",
            f"The skill governs “{practice.phrase}” ({practice.file}:{practice.line}); a person "
            f"asks for {what[practice.kind]} in a small starter project, and the checks verify "
            "the work and that a test catching the change was written (the tests fail when the "
            "old code is put back).",
            [f"practice:{practice.kind}"],
            {
                "kind": "practice",
                "work": practice.kind,
                "phrase": practice.phrase,
                "source": f"{practice.file}:{practice.line}",
                "starter": dict(STARTER_FILES),
            },
            priority,
        )

    def adversarial(self) -> None:
        """One prompt for the skill's wrong forms; one per subject where its WRONG → CORRECT
        tables each name one ("Authentication - ...", "Entities - ...")."""
        topics = list(dict.fromkeys(p.topic for p in self.text.pairs))
        if len(topics) < 2 or "" in topics:
            self._adversarial(_adversarial_pairs(self.text, self.covered), "wrong_apis", 30)
            return
        for index, topic in enumerate(topics[:MAX_ADVERSARIAL_TOPICS]):
            chosen = _adversarial_pairs(self.text, self.covered, topic)
            self._adversarial(chosen, slug(f"wrong {topic} apis"), 30 + index)

    def _adversarial(self, chosen: list[Pair], case: str, priority: int) -> None:
        if not chosen:
            return
        first = chosen[0]
        resource = pair_resource(first, self.text)
        instance = instantiate(resource) if resource else None
        if instance is not None and file_for(first, instance) is None:
            instance = None
        pairs = []
        # a table that names its subject ("Authentication") names the component's job
        topic = first.topic.split()[0].capitalize() if first.topic else ""
        component = f"src/components/{topic or (self.text.entities or ('Item',))[0]}Tools.jsx"
        client = client_path(self.text)
        for pair in chosen:
            if instance is not None:
                target = file_for(pair, instance)
            elif is_import(pair) and client:
                target = client
            else:
                target = component
            if target:
                pairs.append({"index": pair.index, "file": target, "methods": method_names(pair)})
        facts: dict[str, Any] = {
            "kind": "adversarial",
            "pairs": pairs,
            "entity": (self.text.entities or (None,))[0],
        }
        if first.topic:
            facts["topic"] = first.topic
        if instance is not None:
            facts["resource"] = _instance_facts(instance)
        about = f" ({first.topic})" if first.topic else ""
        self.add(
            case,
            "adversarial",
            f"{self.text.name}: the prompt asks for APIs the skill lists as wrong{about}",
            "The person asks outright for forms the skill's WRONG → CORRECT table rejects; the "
            "checks want the correct forms in the files and none of the wrong ones.",
            [f"pair:{p['index']}" for p in pairs]
            + [f"path:{t}" for t in (instance.templates if instance else ())],
            facts,
            priority,
        )

    def route(self, skill: str, condition: str, priority: int) -> None:
        other = self.texts.get(skill)
        if other is None or not other.triggers:
            return
        trigger = other.triggers[0]
        facts, _, _ = target_facts(trigger, other)
        self.add(
            f"route_to_{slug(skill)}",
            "out_of_scope",
            f"{self.text.name}: work the skill sends to {skill}",
            f"The skill says “{condition}” belongs to {skill}; a prompt like that (“{trigger}”) "
            f"should use {skill}, not {self.text.name}.",
            [f"route:{skill}"],
            {
                "kind": "route",
                "skill": skill,
                "condition": condition,
                "trigger": trigger,
                "target": facts,
            },
            priority,
        )

    def negative(self) -> None:
        """Planned only to be reported: no prompt outside the skill can be checked soundly."""
        self.add(
            "unrelated",
            "out_of_scope",
            f"{self.text.name}: a prompt outside the skill",
            "A prompt the skill does not cover; not written, because nothing in the eval "
            "format can fail an agent that uses the skill anyway.",
            [],
            {"kind": "negative", NOT_WRITTEN: NO_NEGATIVE},
            50,
        )


def task_element(task: Task) -> str:
    return f"task:{task.phrase} ({kind_name(task)})"


def target_facts(trigger: str, text: SkillText) -> tuple[dict[str, Any], list[str], str]:
    """Facts, covered elements and a short "what" for a trigger prompt of `text`'s skill."""
    target = trigger_target(trigger, text)
    if isinstance(target, Resource):
        return _resource_facts(trigger, target, text)
    if isinstance(target, Command):
        return (
            {"kind": "command", "trigger": trigger, "command": target.command, "says": target.says},
            [f"command:{target.command}"],
            f"the answer names `{target.command}`",
        )
    return _code_facts(trigger, text)


def _resource_facts(
    trigger: str, resource: Resource, text: SkillText
) -> tuple[dict[str, Any], list[str], str]:
    instance = instantiate(resource)
    pairs: list[dict[str, Any]] = []
    commands: list[str] = []
    covers = [f"path:{t}" for t in instance.templates]
    covers += [f"json:{t}" for t in instance.templates if t.endswith((".json", ".jsonc"))]
    for pair in text.pairs:
        if pair_resource(pair, text) != resource:
            continue
        kind = pair_kind(pair)
        if kind in ("json", "code"):
            target = file_for(pair, instance)
            if target:
                pairs.append({"index": pair.index, "file": target})
                covers.append(f"pair:{pair.index}")
        else:
            covers.append(f"pair:{pair.index}")
            commands += [c for c in pair.correct if c.startswith(("npx ", "npm "))]
    covers += [f"command:{c}" for c in commands if any(c == k.command for k in text.commands)]
    facts = {
        "kind": "resource",
        "trigger": trigger,
        "resource": _instance_facts(instance),
        "pairs": pairs,
        "commands": list(dict.fromkeys(commands)),
    }
    return facts, covers, f"the {instance.label} files, their naming and content"


def _instance_facts(instance: Instance) -> dict[str, Any]:
    """JSON-friendly facts (lists, not tuples: facts travel through the flow's checkpoints)."""
    return {
        "kind": instance.kind,
        "label": instance.label,
        "files": list(instance.files),
        "name": instance.name,
        "templates": list(instance.templates),
    }


def _code_facts(trigger: str, text: SkillText) -> tuple[dict[str, Any], list[str], str]:
    pairs = code_pairs(trigger, text)
    component = f"src/components/{component_name(trigger)}.jsx"
    client = client_path(text)
    facts = {
        "kind": "code",
        "trigger": trigger,
        "file": component,
        "client": client,
        "entity": (text.entities or (None,))[0],
        "pairs": [{"index": p.index, "file": component, "methods": method_names(p)} for p in pairs],
    }
    covers = [f"pair:{p.index}" for p in pairs] + ([f"path:{client}"] if client else [])
    methods = [m for p in pairs for m in method_names(p)]
    calls = [f"{m}()" for m in methods]
    what = "app code that uses " + (
        ", ".join(calls[:-1]) + f" and {calls[-1]}"
        if len(calls) > 1
        else calls[0]
        if calls
        else "the SDK"
    )
    return facts, covers, what


def _adversarial_pairs(text: SkillText, covered: set[int], topic: str | None = None) -> list[Pair]:
    """Up to three checkable pairs (of the topic's table, where one is given), uncovered
    first, all about the same file kind."""
    checkable = [
        p
        for p in text.pairs
        if pair_kind(p) in ("json", "code") and (topic is None or p.topic == topic)
    ]
    ordered = [p for p in checkable if p.index not in covered] + [
        p for p in checkable if p.index in covered
    ]
    if not ordered:
        return []
    anchor = pair_resource(ordered[0], text)
    same = [p for p in ordered if pair_resource(p, text) == anchor and p.topic == ordered[0].topic]
    # pairs with a correct form not yet chosen first: each adds a check of its own
    distinct: list[Pair] = []
    for pair in same:
        if not any(pair.correct == p.correct for p in distinct):
            distinct.append(pair)
    rest = [p for p in same if p not in distinct]
    return [*distinct, *rest][:MAX_ADVERSARIAL_PAIRS]


__all__ = ["asserted_elements", "elements", "plan_base44", "target_facts"]
