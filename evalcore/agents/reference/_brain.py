"""What a model would do from a skill's prose, read from the skill model instead of by hand.

`ModelBrain` is the `Brain` of the reference agent. A skill's procedure is its prose in
reading order, as the skill model reads it: a sentence that runs `@block.x` runs the block,
one the model reads as asking a field asks it (unless it is known), one that calls a tool
calls it once its trigger and `requires` hold (confirmation-gated tools through their gate;
a "no" or a failing gated tool ends the procedure), `if:` paragraphs only on their branch.
A skill with blocks the prose never runs is guided: its blocks run in order. An
`instructions` step asks what its `complete_when` waits for, with the question the model
recorded, and reads every field of that question from the answer by its type. Where the
run reaches something the model recorded as uncertain, the engine keeps a note.
"""

from __future__ import annotations

import re
from typing import Any

from ...definitions import Project, Skill, Step
from ...definitions.conditions import condition_keys
from ...definitions.skill_model import FieldSpec, SkillModel, skill_model
from ...definitions.skill_model._text import sentences
from ..demo._mantle_engine import (
    NO_ANSWER,
    Procedure,
    SkillContext,
    ToolResult,
    parse_amount,
    stems,
    yes_or_no,
)
from ._asking import answer_parts, question_for
from ._backend import FakeBackend

_RUN_BLOCK = re.compile(r"@block\.(\w+)")
_NEGATED = re.compile(r"\b(?:do\s+not|don't|never|without)\b[^.@]*$", re.I)


def _at(text: str, name: str) -> int:
    at = text.find(name)
    return at if at >= 0 else len(text)


def _trigger(call: Any) -> str | None:
    """The call's trigger as a condition; "Unless X is true" waits for X to be false."""
    when = getattr(call, "when", None)
    said = str(getattr(call, "trigger", None) or "")
    if when and said.lower().startswith("unless") and not when.strip().startswith("not "):
        return f"not ({when})"
    return when


def said_value(text: str, name: str) -> str:
    """The part of an answer that gives `name` (a labelled part of a compound answer, else
    the whole answer); a one-word answer loses the full stop a sentence gave it."""
    parts = answer_parts(text)
    if parts:
        wanted = set(stems(name.replace("_", " ")))
        best = max(parts, key=lambda label: len(wanted & set(stems(label))))
        if wanted & set(stems(best)):
            text = parts[best]
    value = text.strip()
    if " " not in value and value.endswith(".") and not value.endswith(".."):
        value = value[:-1]
    return value


class ModelBrain:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.backend = FakeBackend(project)
        self._models: dict[str, SkillModel | None] = {}

    def model(self, skill_id: str) -> SkillModel | None:
        if skill_id not in self._models:
            try:
                self._models[skill_id] = skill_model(self.project, skill_id)
            except Exception:  # a skill the model cannot read is played from its blocks
                self._models[skill_id] = None
        return self._models[skill_id]

    # --- Brain protocol ----------------------------------------------------------------------

    def asked_fields(self, skill: Skill) -> list[str]:
        model = self.model(skill.id)
        return [f.qualified for f in model.fields] if model is not None else []

    def tool(self, ctx: SkillContext, name: str, arguments: dict[str, Any]) -> ToolResult:
        result = self.backend.call(ctx.skill.id, name, arguments, ctx.engine.memory)
        if getattr(ctx.engine, "account", None) == "negative":
            result.writes = {k: (False if v is True else v) for k, v in result.writes.items()}
        return result

    def procedure(self, ctx: SkillContext) -> Procedure:
        skill, model = ctx.skill, self.model(ctx.skill.id)
        engine = ctx.engine
        items = self.items(skill, model)
        ran: set[str] = set()
        early = getattr(engine, "mutant", None)
        if early is not None and early.kind == "ignore_requires" and early.skill == skill.id:
            ctx.tool(str(early.target), self.arguments(ctx, str(early.target)))
        for spec in model.fields if model is not None else []:
            if spec.asked_by == "request" and ctx.get(spec.qualified) is None:
                yield from self.from_request(ctx, spec)
        if skill.blocks and not any(kind == "block" for kind, *_ in items):
            items = [("block", None, b, None) for b in skill.blocks] + items
        for kind, condition, name, sentence in items:
            if condition and not ctx.holds(condition):
                continue
            self._uncertain(engine, model, sentence)
            if kind == "block" and name in skill.blocks and name not in ran:
                ran.add(name)
                outcome = yield from ctx.run_block(name)
                if outcome.startswith("linked:"):
                    return outcome
            elif kind == "field" and model is not None and ctx.get(name) is None:
                spec = model.field(name)
                if spec is not None:
                    yield from self.ask_group(ctx, [spec], None, None)
            elif kind == "tool":
                outcome = yield from self.call_tool(ctx, name, when=sentence)
                if outcome in ("denied", "failed"):
                    return "completed" if outcome == "denied" else "open"
        done = (skill.complete_when or {}).get("condition")
        return "completed" if done is None or ctx.holds(done) else "open"

    def from_request(self, ctx: SkillContext, spec: FieldSpec) -> Procedure:
        """A field set "from the request": read from the opening message, else asked."""
        value = self.read(ctx, spec, ctx.context)
        if value is NO_ANSWER or (spec.type not in ("categorical", "bool") and value):
            if spec.type != "categorical":
                return
            values = ", ".join(str(v).replace("_", " ") for v in spec.enum_values)
            ctx.engine.note(
                f"{spec.qualified} is set from the request, which did not say it: asked for it"
            )
            question = f"Which would you like: {values}?"
            yield from self.ask_group(
                ctx, [spec.model_copy(update={"question": question})], None, None
            )
            return
        ctx.engine.remember(spec.qualified, value)

    def instructions(self, ctx: SkillContext, step: Step) -> Procedure | None:
        model = self.model(ctx.skill.id)
        if model is None or not ctx.frame.blocks:
            return None
        block = ctx.frame.blocks[-1]
        specs = [f for f in model.fields if f.block == block and f.step == step.id]
        if not specs:
            return None
        return self._instructions(ctx, step, block, specs)

    # --- reading --------------------------------------------------------------------------

    def items(self, skill: Skill, model: SkillModel | None) -> list[tuple[str, Any, Any, Any]]:
        """(kind, condition, name, sentence) for the prose, in reading order."""
        out: list[tuple[str, Any, Any, Any]] = []
        prose_fields = [f for f in (model.fields if model else []) if f.asked_by == "prose"]
        calls = {
            (c.sentence, use.name): c
            for use in (model.tools if model else [])
            for c in use.calls
            if c.kind == "prose" and not c.optional
        }
        for sentence in sentences(skill.body):
            text = sentence.text
            found: list[tuple[int, tuple[str, Any, Any, Any]]] = []
            for match in _RUN_BLOCK.finditer(text):
                if not _NEGATED.search(text[: match.start()]):
                    item = ("block", sentence.condition, match.group(1), sentence)
                    found.append((match.start(), item))
            for spec in prose_fields:
                if text in (spec.sentences or [spec.question]):
                    item = ("field", sentence.condition, spec.qualified, sentence)
                    found.append((_at(text, spec.name), item))
            for (said, name), call in calls.items():
                if said == text:
                    condition = call.condition or sentence.condition
                    if _trigger(call) != call.when and condition == call.when:
                        condition = sentence.condition
                    item = ("tool", condition, name, call)
                    found.append((_at(text, name), item))
            out += [item for _, item in sorted(found, key=lambda f: f[0])]
        return out

    def _uncertain(self, engine: Any, model: SkillModel | None, where: Any) -> None:
        line = getattr(where, "line", None) or getattr(getattr(where, "where", None), "line", 0)
        for doubt in model.uncertainties if model else []:
            if line and doubt.where.line == line:
                engine.note(f"{doubt.where.label()}: {doubt.what} ({doubt.why})")

    def _instructions(
        self, ctx: SkillContext, step: Step, block: str, specs: list[FieldSpec]
    ) -> Procedure:
        waits = set(condition_keys(step.fields.get("complete_when") or ""))
        waits = {k.removeprefix("session.") for k in waits}
        groups: dict[str, list[FieldSpec]] = {}
        for spec in specs:
            groups.setdefault(spec.question or spec.qualified, []).append(spec)
        for _ in range(3):
            pending = [
                group
                for group in groups.values()
                if any(
                    s.qualified in waits
                    and ctx.get(s.qualified) in (None, False)
                    and (not s.condition or ctx.holds(s.condition))
                    for s in group
                )
            ]
            if not pending:
                break
            for group in pending:
                live = [s for s in group if not s.condition or ctx.holds(s.condition)]
                yield from self.ask_group(ctx, live, step.id, block)
        return "done"

    def ask_group(
        self, ctx: SkillContext, specs: list[FieldSpec], step: str | None, block: str | None
    ) -> Procedure:
        """Ask one question, then read each of its fields from the answer by type."""
        spec = specs[0]
        question = question_for(
            spec.question, spec.name.replace("_", " "), boolean=spec.type == "bool"
        )
        answer = yield from ctx.ask(
            "instructions",
            lambda: ctx.say(question),
            lambda text: text,
            step=step,
            block=block,
            field=specs[0].qualified,
        )
        for spec in specs:
            value = self.read(ctx, spec, answer)
            if value is not NO_ANSWER:
                ctx.engine.remember(spec.qualified, value)
            else:
                ctx.engine.note(f"could not read {spec.qualified} from {answer!r}")
        return "done"

    def read(self, ctx: SkillContext, spec: FieldSpec, text: str) -> Any:
        kind = spec.type
        record = self.record_for(ctx, text)
        if kind == "categorical":
            value = ctx.words(spec.qualified).answer(text)
            if value is not None:
                return value
            for candidate in (record or {}).values():
                if candidate in spec.enum_values:
                    return candidate
            return NO_ANSWER
        if kind == "bool":
            answer = yes_or_no(text)
            return NO_ANSWER if answer is None else answer
        if kind in ("int", "float"):
            number = parse_amount(text)
            if number is None:
                return NO_ANSWER
            return int(number) if kind == "int" else number
        if record is not None and spec.name in record:
            return record[spec.name]
        return said_value(text, spec.name)

    def record_for(self, ctx: SkillContext, text: str) -> dict[str, Any] | None:
        """The listed record the answer names (by shared words), else the first listed."""
        listed = [
            r
            for result in ctx.frame.results.values()
            if isinstance(result, dict)
            for value in result.values()
            if isinstance(value, list)
            for r in value
            if isinstance(r, dict)
        ]
        if not listed:
            return None
        said = set(stems(text))
        scored = [
            (len(said & set(stems(" ".join(map(str, r.values()))))), -i)
            for i, r in enumerate(listed)
        ]
        best = max(range(len(listed)), key=lambda i: scored[i])
        return listed[best]

    # --- tools --------------------------------------------------------------------------------

    def arguments(self, ctx: SkillContext, name: str) -> dict[str, Any]:
        model = self.model(ctx.skill.id)
        use = model.tool(name) if model is not None else None
        tool = ctx.defs.tools_for(ctx.skill.id).get(name)
        params = [p.name for p in tool.parameters if p.name != "context"] if tool else []
        memory = ctx.engine.memory
        out: dict[str, Any] = dict(ctx.frame.scratch.get("asked", {}).get(name) or {})
        for param in params or list((use.arguments if use else {}).keys()):
            source = (use.arguments if use else {}).get(param)
            keys = [source, f"{ctx.skill.id}.{param}", f"project.{param}"]
            keys += [k for k in memory if k.endswith("_" + param) and k.startswith(ctx.skill.id)]
            keys += [k for k in memory if k.endswith("_" + param) and k.startswith("project.")]
            for key in keys:
                if key and memory.get(key) is not None:
                    out.setdefault(param, memory[key])
                    break
        return out

    def ask_missing(self, ctx: SkillContext, name: str) -> Procedure:
        """Required arguments nothing in memory holds are asked for, in one question."""
        tool = ctx.defs.tools_for(ctx.skill.id).get(name)
        if tool is None:
            return
        have = self.arguments(ctx, name)
        fields = ctx.defs.memory_names()
        missing = [
            p.name
            for p in tool.parameters
            if p.required
            and p.name not in ("context", *have)
            and not any(k.endswith(("." + p.name, "_" + p.name)) for k in fields)
        ]
        if not missing:
            return
        words = " and ".join(m.replace("_", " ") for m in missing)
        answer = yield from ctx.ask(
            "question", lambda: ctx.say(f"What are your {words}?"), lambda text: text
        )
        asked = ctx.frame.scratch.setdefault("asked", {}).setdefault(name, {})
        for param in missing:
            asked[param] = said_value(answer, param)

    def call_tool(
        self, ctx: SkillContext, name: str, *, when: Any = None, quiet: bool = False
    ) -> Procedure:
        """done | denied | failed | blocked | waiting (its trigger does not hold)."""
        model = self.model(ctx.skill.id)
        use = model.tool(name) if model is not None else None
        trigger = _trigger(when)
        if trigger and not ctx.holds(trigger):
            ctx.engine.note(f"{name} not called: its trigger ({trigger}) does not hold")
            return "waiting"
        if not quiet:
            yield from self.ask_missing(ctx, name)
        if use is not None and use.gated:
            outcome = yield from ctx.gated(name, lambda: self.arguments(ctx, name))
            return outcome
        tool = ctx.defs.tools_for(ctx.skill.id).get(name)
        needs = [p for p in tool.parameters if p.name != "context"] if tool else []
        if quiet and needs and not self.arguments(ctx, name):
            return "blocked"
        result = ctx.tool(name, self.arguments(ctx, name))
        if result is None:
            return "blocked"
        if result.error and use is not None and use.terminal:
            return "failed"
        return "done"


__all__ = ["ModelBrain"]
