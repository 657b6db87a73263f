"""A Mantle walk read off the reference agent: its engine run with a scripted user.

    walk = reference_walk(project, "file_claim", Setup(confirm={"submit_claim": False}))

The reference agent (`evalcore.agents.reference`) is the executable reading of a skill that
verification replays drafts on. Here it runs one skill for one `Setup`, and the user is a
script, not text: each time the agent waits, the script hands the value the behaviour chose
(`Setup.values`, else a plausible one), the confirmation answer (`Setup.confirm`), yes to a
yes/no question, and identity details from what is known. The tools the behaviour makes fail
(`Setup.failing`) error, the checks it makes come back negative (`Setup.negative`) write
false (or nothing), and a value a tool writes that the behaviour fixed (the record the user
picks) is that value. What the engine records is returned as the planner's `Walk`: where it
waited (`Ask`), the runtime's events in order (`Event`), the elements covered, the outcome.

So the asks and events of this walk are those a replay of the draft on the reference agent
sees. The walk keeps the planner's terms: an ask's prompt is what the definitions tell the
agent to ask (the response's text, the instruction, the prose sentence), a value the
behaviour leaves open is `SET` wherever it shows (the drafter's user gives their own), and
the skill is `completed` only where its `complete_when` holds (the events also record a
completion the model judges, which no case can count on).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from evalcore.agents.reference import (
    Frame,
    ModelBrain,
    Mutant,
    ReferenceEngine,
    SkillContext,
    placeholder,
)
from evalcore.definitions import Project, Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import (
    UNKNOWN,
    SkillModel,
    branch_values,
    completion_instruction,
    paragraphs,
    skill_model,
)

from ._mantle_prose import prose_items
from ._mantle_tools import tool_writes
from ._mantle_vocab import first_text, seen_text
from ._mantle_walk_records import SET, Ask, Event, Setup, Walk, sample_value

RecordSets = dict[str, list[dict[str, Any]]]

_MADE_UP = re.compile(r"[A-Z0-9]+(?:-[A-Z0-9]+)*-0001")
"""A placeholder value (`placeholder`): what only the real tool or the user would know."""

_MAX_TURNS = 200
"""Answers one walk gives at most (a retry loop nothing in the script ends stops there)."""
_MAX_ACTIVATIONS = 12
"""Skills one walk activates at most (`link:`s that go round stop there)."""


@dataclass(frozen=True)
class _Answer:
    """The scripted answer to a free-text question: every field it is read for gets the
    script's value (no words to misread)."""

    field: str | None


class _Script:
    """The scripted user: the behaviour's answers, typed as the engine reads them."""

    def __init__(self, project: Project, setup: Setup, records: RecordSets) -> None:
        assert project.mantle is not None
        self.defs = project.mantle
        self.setup = setup
        self.records = records
        self.invented: dict[str, Any] = {}
        """Values the script made up for fields the behaviour leaves open (the walk says
        `SET` for them: the drafter's user gives their own)."""

    def value(self, key: str) -> Any:
        """The behaviour's value for `key`, else a plausible one: the record of the
        project's data holding a field of that name (the one holding most of the
        behaviour's values), else one typed by the field (never the unknown mark: the
        engine passes it on)."""
        value = self.setup.values.get(key)
        if value is None:
            declared = self.defs.memory_field(key)
            value = sample_value(self.defs, declared) if declared is not None else SET
        if value is not SET:
            return value
        value = self.recorded(key.rsplit(".", 1)[-1])
        if value is None:
            value = placeholder(self.defs.memory_field(key), key)
        self.invented[key] = value
        return value

    def known(self, key: str | None, value: Any) -> Any:
        """`SET` for a value only the real tool or the user knows: one the script made up
        for an open field, or a placeholder the reference agent's backend wrote."""
        if key is not None and key in self.invented and self.invented[key] == value:
            return SET
        return _known(value)

    def recorded(self, name: str) -> Any:
        """The field `name` of the record that holds most of the behaviour's values (the
        home policy for a home claim), else of the first record that has it."""
        fixed = {_norm(v) for v in self.setup.values.values() if isinstance(v, str | int)}
        best, score = None, -1
        for records in self.records.values():
            for record in records:
                value = record.get(name)
                if value in (None, "") or isinstance(value, dict | list):
                    continue
                held = len(fixed & {_norm(v) for v in record.values() if isinstance(v, str | int)})
                if held > score:
                    best, score = value, held
        return best

    def picked(self, choices: list[Any]) -> Any:
        """The choice the behaviour fixed among `choices` (the record the user picks holds
        it), or None."""
        fixed = [v for v in self.setup.values.values() if isinstance(v, str | int | bool)]
        return next((v for v in fixed if v in choices), None)


def _norm(value: Any) -> str:
    return "".join(c for c in str(value).lower() if c.isalnum())


class _ScriptedBackend:
    """The project's fake backend, where the user's pick holds the value the behaviour
    fixed when no record says which."""

    def __init__(self, inner: Any, script: _Script) -> None:
        self.inner = inner
        self.script = script

    def call(self, *args: Any) -> Any:
        return self.inner.call(*args)

    def record_choice(self, answers: dict[str, Any], choices: list[Any]) -> Any:
        found = self.inner.record_choice(answers, choices)
        return found if found is not None else self.script.picked(choices)


class _ScriptedBrain(ModelBrain):
    """The reference agent's brain reading the script's answers as given, and playing the
    behaviour's tool outcomes (negative checks, values of the record the user picks)."""

    def read(self, ctx: Any, spec: Any, text: Any) -> Any:
        if isinstance(text, _Answer):
            return ctx.engine.script.value(spec.qualified)
        return super().read(ctx, spec, text)

    def from_request(self, ctx: Any, spec: Any) -> Any:
        """A field set "from the request": the scripted user's opening states it."""
        if ctx.entry == "user" and isinstance(ctx.engine, _ScriptedEngine):
            ctx.engine.remember(spec.qualified, ctx.engine.script.value(spec.qualified))
            return
        yield from super().from_request(ctx, spec)

    def chosen(self, ctx: Any, key: str) -> Any:
        """A value the agent records without a question the walk reads ("and for how long
        (set duration_hours)"): the behaviour's, where it fixed one (the user said it)."""
        if isinstance(ctx.engine, _ScriptedEngine):
            value = ctx.engine.script.setup.values.get(key)
            if value is not None and value is not SET:
                return value
        return super().chosen(ctx, key)

    def uncertain(self, engine: Any, model: Any, line: int) -> None:
        if isinstance(engine, _ScriptedEngine):
            engine.line = line
        super().uncertain(engine, model, line)

    def ask_for(
        self, ctx: Any, asked: str, text: str, keys: list[str], step: Any, block: Any
    ) -> Any:
        ctx.engine.prompt = text
        outcome = yield from super().ask_for(ctx, asked, text, keys, step, block)
        return outcome

    def ask_group(self, ctx: Any, specs: list[Any], step: Any, block: Any) -> Any:
        ctx.engine.prompt = specs[0].question
        outcome = yield from super().ask_group(ctx, specs, step, block)
        return outcome

    def ask_details(self, ctx: Any, name: str, details: list[str], *, again: bool = False) -> Any:
        """The identity question; the check's arguments come from memory only (the
        behaviour fixes no details: the drafter gives the user the project's)."""
        if not isinstance(ctx.engine, _ScriptedEngine):
            yield from super().ask_details(ctx, name, details, again=again)
            return
        yield from ctx.ask("identity", lambda: ctx.say("What are your details?"), str)

    def tool(self, ctx: Any, name: str, arguments: dict[str, Any]) -> Any:
        result = super().tool(ctx, name, arguments)
        script: _Script = ctx.engine.script
        writes = {(k if "." in k else f"{ctx.skill.id}.{k}"): v for k, v in result.writes.items()}
        fixed = {
            k: script.setup.values[k] for k in writes if script.setup.values.get(k) is not None
        }
        writes.update({k: v for k, v in fixed.items() if v is not SET})
        negative = script.setup.negative.get(name, frozenset())
        if negative:
            flags = branch_values(self.project, ctx.skill.id)
            for key in negative:
                declared = self.project.mantle.memory_field(key) if self.project.mantle else None
                if declared is not None and declared.type == "bool":
                    writes[key] = not flags.get(key, True)
                else:
                    writes.pop(key, None)
            ctx.frame.scratch["_negative"] = name
        result.writes = writes
        return result


class _ScriptedEngine(ReferenceEngine):
    """The reference engine for one walk: the behaviour's failing tools, its opening, and
    notes of what the walk covers that the events do not say (steps, delegations)."""

    def __init__(
        self, project: Project, brain: ModelBrain, setup: Setup, mutant: Mutant | None = None
    ) -> None:
        super().__init__(project, brain, mutant)
        self.script = _Script(project, setup, brain.backend.records)
        self.backend = _ScriptedBackend(brain.backend, self.script)
        self.gating: str | None = None
        self.covered: list[str] = []
        self.links: list[tuple[int, str, str, str | None]] = []
        """(event index, linking skill, target, link step) of each `link:`."""
        self.finished: list[tuple[str, str, str | None]] = []
        """(skill, outcome, why it stopped) of each skill that ended."""
        self.activations = 0
        self.line = 0
        """The line of the prose item the plan is at (the brain is told it)."""
        self.prompt: str | None = None
        """What the brain was last told to ask (an instruction or a field's question)."""
        self.opened_with: dict[str, Any] = {}
        """Memory as the walk opened its skill."""

    def prose_item(self, skill_id: str, kind: str) -> Any:
        """The prose item of `skill_id` the plan is at, if it asks (`kind`)."""
        kinds = {"identity": ("identity",), "question": ("question",)}.get(kind, ("ask_field",))
        skill = self.defs.skills[skill_id]
        items = prose_items(skill, self.brain.model(skill_id))
        return next((i for i in items if i.line == self.line and i.kind in kinds), None)

    def activate(self, skill_id: str, text: str, *, entry: str) -> None:
        self.activations += 1
        if self.activations <= _MAX_ACTIVATIONS:
            super().activate(skill_id, text, entry=entry)

    def fails(self, skill_id: str, name: str, arguments: dict[str, Any]) -> bool:
        return name in self.script.setup.failing

    def gated(self, ctx: Any, name: str, arguments: Any) -> Any:
        self.gating = name
        outcome = yield from super().gated(ctx, name, arguments)
        return outcome

    def run_step(self, ctx: Any, block: Any, step: Any) -> Any:
        self.covered.append(f"step:{ctx.skill.id}.{block.id}.{step.id}")
        if step.kind == "link":
            self.links.append((len(self.events), ctx.skill.id, str(step.target), step.id))
        outcome = yield from super().run_step(ctx, block, step)
        return outcome

    def call_skill(self, ctx: Any, skill_id: str) -> Any:
        self.covered.append(f"delegate:{ctx.skill.id}.{skill_id}")
        outcome = yield from super().call_skill(ctx, skill_id)
        return outcome

    def answers(self, text: Any) -> Any:
        return text if isinstance(text, _Answer) else super().answers(text)

    def read_field(self, key: str, text: Any) -> Any:
        if isinstance(text, _Answer):
            return self.script.value(key)
        return super().read_field(key, text)

    def utter_first(self, word: str) -> None:
        """The session's own replies between skills ("anything else?") are no skill's."""

    def finish(self, frame: Any, outcome: str) -> None:
        self.finished.append((frame.skill.id, outcome, frame.scratch.get("_stopped")))
        if outcome.startswith("linked:"):
            skill, target = frame.skill.id, outcome.split(":", 1)[1]
            if not any(s == skill and t == target for _, s, t, _ in self.links):
                self.links.append((len(self.events), skill, target, None))
            self.covered.append(f"delegate:{skill}.{target}")
        super().finish(frame, outcome)

    def open_skill(self, skill_id: str) -> None:
        """Activate the skill as the behaviour opens it: the values the user states up
        front recorded right after the activation (`Setup.given`), then its procedure."""
        setup = self.script.setup
        if setup.entry != "user":
            self.activate(skill_id, setup.context, entry=setup.entry)
            return
        skill = self.defs.skills[skill_id]
        model = self.brain.model(skill_id)
        cues = [i.cue for i in prose_items(skill, model) if i.cue and i.name in setup.cues]
        if cues:  # the user's opening says what the alternative's cue names
            self.emit("user", text=". ".join(cues))
        frame = Frame(skill=skill, entry="user", context=self.script.setup.context)
        self.stack.append(frame)
        self.emit("skill_activated", skill_id=skill_id)
        for rule in skill.utter:
            if rule.on == "activate":
                self.utter(rule.response, skill_id)
        for key in sorted(self.script.setup.given):
            if key.startswith(skill_id + "."):
                self.remember(key, self.script.value(key))
        frame.procedure = self.brain.procedure(SkillContext(self, frame))
        self.advance(frame, None, first=True)


_BRAINS: dict[int, tuple[Project, _ScriptedBrain]] = {}


def _brain(project: Project) -> _ScriptedBrain:
    """One brain per loaded project (it reads the definitions only; every walk shares it)."""
    kept = _BRAINS.get(id(project))
    if kept is None or kept[0] is not project:
        if len(_BRAINS) >= 8:
            _BRAINS.clear()
        kept = _BRAINS[id(project)] = (project, _ScriptedBrain(project))
    return kept[1]


def reference_walk(project: Project, skill_id: str, setup: Setup | None = None) -> Walk:
    """Run the reference agent on `skill_id` with the scripted user of `setup` (see the
    module docstring) and return what it recorded as a `Walk`."""
    setup = setup or Setup()
    engine, asks, _ = _play(project, skill_id, setup, None)
    return _walk(project, skill_id, setup, engine, asks)


@dataclass(frozen=True)
class Played:
    """One scripted run as the runtime records it: the tracker events, the event index at
    which each of the user's answers came in (a turn starts there), and every fault site
    the run passed (`ReferenceEngine.reached`)."""

    events: list[dict[str, Any]]
    turns: list[int]
    reached: frozenset[tuple[str, str | None]]
    memory: dict[str, Any]
    """Memory as the skill opened (initial values, the setup's): the events write on it."""


def reference_play(
    project: Project, skill_id: str, setup: Setup, mutant: Mutant | None = None
) -> Played:
    """The scripted run of `reference_walk`, played by the reference agent or by one of its
    mutants, as raw events: what `casegen mutate` compares to tell whether a mutant can
    ever leave a different mark on a path the planner explores."""
    engine, _, turns = _play(project, skill_id, setup, mutant)
    return Played(list(engine.events), turns, frozenset(engine.reached), engine.opened_with)


def _play(
    project: Project, skill_id: str, setup: Setup, mutant: Mutant | None
) -> tuple[_ScriptedEngine, list[Ask], list[int]]:
    assert project.mantle is not None
    engine = _ScriptedEngine(project, _brain(project), setup, mutant)
    script = engine.script
    engine.start()
    for key, value in setup.memory.items():  # what the session holds already: no events
        engine.memory[key] = script.value(key) if value is SET else value
    asks: list[Ask] = []
    turns: list[int] = []
    engine.opened_with = dict(engine.memory)
    engine.open_skill(skill_id)
    for _ in range(_MAX_TURNS):
        frame = engine.top()
        ask = frame.pending if frame is not None else None
        if ask is None or ask.kind == "followup":
            break
        answer, recorded = _answer(engine, frame, ask)
        asks.append(recorded)
        turns.append(len(engine.events))
        engine.advance(frame, answer)
    engine.flush()
    return engine, asks, turns


def _tool_written(project: Project, events: list[dict[str, Any]]) -> set[str]:
    """Memory names a tool's call wrote last (a write its code makes, recorded right after
    the call, of a value the code does not spell out): their value is the fake backend's,
    not one the case fixes."""
    defs = project.mantle
    assert defs is not None
    written: set[str] = set()
    declared: set[str] = set()
    for record in events:
        kind = record.get("event")
        if kind == "tool_executed":
            skill = str((record.get("metadata") or {}).get("skill_id") or "")
            tool = defs.tools_for(skill).get(str(record.get("tool_name"))) if skill else None
            writes = tool_writes(project, tool) if tool is not None else ()
            # a literal the code writes (`memory.set("card_blocked", True)`) is known
            declared = {w.key.rsplit(".", 1)[-1] for w in writes if w.value is UNKNOWN}
        elif kind == "memory_set":
            key = str(record.get("key"))
            (written.add if key.rsplit(".", 1)[-1] in declared else written.discard)(key)
        elif kind != "bot":  # a response a write fires stays inside the tool's run
            declared = set()
    return written


def _answer(engine: _ScriptedEngine, frame: Any, ask: Any) -> tuple[Any, Ask]:
    """The script's answer to `ask`, and the ask as the planner records it: the prompt is
    what the definitions tell the agent to ask (a response's text, the instruction, the
    prose sentence), not the reference agent's wording of it."""
    script, skill_id = engine.script, _running(engine.events) or frame.skill.id
    defs, skill = engine.defs, engine.defs.skills[_running(engine.events) or frame.skill.id]
    kind = ask.kind
    if kind == "confirm":
        tool = engine.gating
        yes = script.setup.confirm.get(tool or "", True)
        constraint = skill.tool_constraints.get(tool or "")
        gate = constraint.requires_confirmation if constraint is not None else None
        response = defs.response(gate.utter_for_confirmation or "") if gate else None
        # a value the case gives a tool's write (the record it sets up) is the case's own
        fixed = {k for k, v in script.setup.values.items() if v is not None and v is not SET}
        untold = _tool_written(engine.project, engine.events) - fixed
        prompt, untold = seen_text(response, engine.memory, untold)
        return yes, Ask(
            "confirm", skill_id, tool=tool, confirm=yes, prompt=prompt, prompt_untold=untold
        )
    item = engine.prose_item(skill_id, kind)
    if kind in ("question", "identity"):
        details = item.details if item is not None else ()
        prompt = item.sentence if item is not None else None
        answer = True if kind == "question" else "My details."
        return answer, Ask(kind, skill_id, details=details, prompt=prompt)
    field = ask.field
    value = script.value(field) if field else None
    answer = value if kind in ("collect", "field") else _Answer(field)
    if kind == "collect":
        step = (
            next(
                (s for s in skill.blocks[ask.block].steps if s.id == ask.step),
                None,
            )
            if ask.block in skill.blocks
            else None
        )
        utterance = step.fields.get("utterance") if step is not None else None
        prompt = first_text(defs.response(str(utterance or "")))
        shown = "collect"
    elif ask.step is not None:
        prompt, shown = engine.prompt, "instructions"
    else:
        own = item is not None and item.kind == "ask_field" and item.name == field
        prompt = item.sentence if own and item is not None else engine.prompt
        shown = "ask_field"
    return answer, Ask(
        shown, skill_id, ask.step, ask.block, field, script.known(field, value), prompt=prompt
    )


def _known(value: Any) -> Any:
    """`SET` for a placeholder value (`_MADE_UP`), else the value."""
    made_up = isinstance(value, str) and _MADE_UP.fullmatch(value) is not None
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
        made_up = _MADE_UP.fullmatch(value[0]) is not None
    return SET if made_up else value


def _running(events: list[dict[str, Any]]) -> str | None:
    """The innermost skill activated and not ended yet (a `call:`ed skill waits in its
    caller's frame, but the step waiting is its own)."""
    running: list[str] = []
    for event in events:
        if event["event"] == "skill_activated":
            running.append(event["skill_id"])
        elif event["event"] in ("skill_completed", "skill_cancelled") and (
            event["skill_id"] in running
        ):
            running.remove(event["skill_id"])
    return running[-1] if running else None


def _walk(
    project: Project, skill_id: str, setup: Setup, engine: _ScriptedEngine, asks: list[Ask]
) -> Walk:
    defs = project.mantle
    assert defs is not None
    walk = Walk(
        skill_id, asks=asks, memory={k: engine.script.known(k, v) for k, v in engine.memory.items()}
    )
    links = {index: (skill, target, step) for index, skill, target, step in engine.links}
    current: list[str] = []
    for index, event in enumerate(engine.events):
        if index in links:
            skill, target, step = links[index]
            walk.events.append(Event("link", skill=skill, step=step, key=target))
        for item in _events(event, current, engine.script):
            walk.events.append(item)
    if len(engine.events) in links:
        skill, target, step = links[len(engine.events)]
        walk.events.append(Event("link", skill=skill, step=step, key=target))
    for item in _elements(defs, walk, engine):
        walk.cover(item)
    _outcome(walk, skill_id, engine)
    model = skill_model(project, skill_id)
    _score(walk, model)
    return walk


def _events(event: dict[str, Any], current: list[str], script: _Script) -> Iterator[Event]:
    kind = event["event"]
    skill = current[-1] if current else None
    if kind == "skill_activated":
        current.append(event["skill_id"])
        yield Event("skill_activated", skill=event["skill_id"])
    elif kind in ("skill_completed", "skill_cancelled"):
        if event["skill_id"] in current:
            current.remove(event["skill_id"])
        if kind == "skill_completed":
            yield Event("skill_completed", skill=event["skill_id"])
    elif kind == "ordered_block_entered":
        yield Event("block_entered", skill=event["skill_id"], block=event["block_id"])
    elif kind == "ordered_block_completed":
        yield Event(
            "block_completed",
            skill=event["skill_id"],
            block=event["block_id"],
            step=event.get("step_id"),
        )
    elif kind == "memory_set" and event.get("key") != "session_started_metadata":
        key = event["key"]
        yield Event("memory", skill=skill, key=key, value=script.known(key, event.get("value")))
    elif kind == "tool_executed":
        invented = [v for v in script.invented.values() if isinstance(v, str)]
        yield Event(
            "tool",
            skill=(event.get("metadata") or {}).get("skill_id", skill),
            tool=event["tool_name"],
            source=event.get("source"),
            server=event.get("mcp_server"),
            arguments={
                k: v
                for k, v in (event.get("arguments") or {}).items()
                if v not in invented and _known(v) is not SET
            },
            error=bool(event.get("is_error")),
        )
    elif kind == "bot" and (event.get("metadata") or {}).get("utter_action"):
        yield Event("utter", skill=skill, utter=event["metadata"]["utter_action"])


def _elements(defs: Any, walk: Walk, engine: _ScriptedEngine) -> Iterator[str]:
    """The definition elements the run exercised, named as the planner's walk names them."""
    steps = iter(engine.covered)
    for event in walk.events:
        if event.kind == "skill_activated":
            yield f"skill:{event.skill}"
        elif event.kind == "utter":
            yield f"response:{event.utter}"
        elif event.kind == "block_entered":
            yield f"block:{event.skill}.{event.block}"
        elif event.kind == "tool":
            yield f"tool:{event.tool}"
            if event.error:
                yield f"failure:{event.tool}"
        elif event.kind == "memory" and event.key:
            declared = defs.memory_field(event.key)
            if declared is not None and declared.type == "categorical":
                yield f"value:{event.key}={event.value}"
    for ask in walk.asks:
        if ask.kind == "confirm" and ask.tool:
            yield f"{'confirm' if ask.confirm else 'deny'}:{ask.tool}"
    yield from steps


def _outcome(walk: Walk, skill_id: str, engine: _ScriptedEngine) -> None:
    """done | declined | failed | negative | handoff, as the root skill (and the skill it
    handed the conversation to) ended."""
    ends = {skill: (outcome, why) for skill, outcome, why in engine.finished}
    outcome, why = ends.get(skill_id, ("open", None))
    top = engine.top()
    if top is not None and top.skill.id == skill_id:  # still waiting: a follow-up
        why = top.scratch.get("_stopped")
    reasons = {"denied": "declined", "failed": "failed", "negative": "negative"}
    walk.outcome = reasons.get(str(why), "done")
    linked = outcome.startswith("linked:") or str(why).startswith("linked:")
    if linked:
        target = (outcome if outcome.startswith("linked:") else str(why)).split(":", 1)[1]
        walk.outcome, walk.handoff = "handoff", target
        _, inner_why = ends.get(target, ("open", None))
        if reasons.get(str(inner_why)):
            walk.outcome = reasons[str(inner_why)]
    # the runtime's own completion: `complete_when` holds, or the prose tells the agent to
    # complete the skill and the path reached that stage (a completion the model judges is
    # recorded in the events, but no case can count on it)
    skill = engine.defs.skills[skill_id]
    condition = (skill.complete_when or {}).get("condition")
    walk.completed = (
        walk.outcome == "done"
        and (evaluate(condition, walk.memory) if condition else _told_to_complete(skill, walk))
        and any(e.kind == "skill_completed" and e.skill == skill_id for e in walk.events)
    )


def _told_to_complete(skill: Skill, walk: Walk) -> bool:
    """Whether the prose tells the agent to complete the skill and the path reached the
    stage it speaks of: where that paragraph (or the one before, which it follows on from)
    names fields of the skill, the path set one of them ("set `fun_mode`, then confirm …;
    complete this skill right after"): a path that only listed the choices never got there."""
    told = completion_instruction(skill)
    if told is None:
        return False
    at = told.sentence.paragraph
    text = " ".join(p.text for p in paragraphs(skill.body or "")[max(at - 1, 0) : at + 1])
    named = [n for n in skill.memory if f"`{n}`" in text or ("_" in n and n in text)]
    return not named or any(walk.memory.get(f"{skill.id}.{n}") is not None for n in named)


def _score(walk: Walk, model: SkillModel) -> None:
    """Which of the model's success signals apply to this path, and which it reaches."""
    tools = {e.tool for e in walk.tools() if not e.error}
    utters = set(walk.utters())
    for signal in model.success:
        label = f"{signal.kind}:{signal.name}"
        if signal.condition and not evaluate(signal.condition, walk.memory):
            continue
        if label not in walk.expected:
            walk.expected.append(label)
        reached = {
            "tool": signal.name in tools,
            "memory": walk.memory.get(signal.name) not in (None, False),
            "response": signal.name in utters,
            "skill_completed": walk.completed,
        }[signal.kind]
        if reached and label not in walk.success:
            walk.success.append(label)


__all__ = ["Played", "reference_play", "reference_walk"]
