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

from ...definitions import Project, Skill, Step, ToolParameter, memoized
from ...definitions.skill_model import (
    FieldSpec,
    SkillModel,
    asking_sentence,
    branch_values,
    code_facts,
    skill_model,
)
from ...lexicon.en.stated_values import named_value
from ...testdata import load_records, one_detail_off
from ._asking import answer_parts, question_for, wanted_clause
from ._backend import FakeBackend, placeholder
from ._mantle_engine import (
    NO_ANSWER,
    Procedure,
    SkillContext,
    ToolResult,
    parse_amount,
    stems,
    yes_or_no,
)
from ._procedure import FIXED, Runner
from ._shared import once

_CLARIFIED = ("categorical", "bool", "int", "float")
"""Field types whose answer must say one value: a vague one is asked again."""


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


def _record_field(record: dict[str, Any], name: str) -> str | None:
    """The field of a listed record that an answer picking it gives `name`: its own name,
    else the longest field name `name` ends with ("Set selected_card_id to the card_id of
    their choice": `selected_card_id` <- `card_id`)."""
    if name in record:
        return name
    ends = [f for f in record if isinstance(f, str) and name.endswith("_" + f)]
    return max(ends, key=len) if ends else None


def _detail_for(param: ToolParameter, details: list[str]) -> str | None:
    """The asked detail a tool parameter takes: one sharing a word with its name
    (`last_name` <- "last name"), else one whose words its docstring line opens with
    (`pnr: Booking reference, six characters` <- "booking reference"). Returned as the
    parameter's own words where its name matched, so the answer's part is read by them."""
    wanted = set(stems(param.name.replace("_", " ")))
    if any(wanted & set(stems(d)) for d in details):
        return param.name.replace("_", " ")
    opening = re.split(r"[,.;:(]", param.description or "", maxsplit=1)[0]
    described = set(stems(opening))
    return next((d for d in details if set(stems(d)) and set(stems(d)) <= described), None)


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

    def backend_of(self, ctx: SkillContext) -> Any:
        """The session's own backend (a demo's) where it has one, else the project's."""
        return getattr(ctx.engine, "backend", None) or self.backend

    # --- Brain protocol ----------------------------------------------------------------------

    def asked_fields(self, skill: Skill) -> list[str]:
        model = self.model(skill.id)
        return [f.qualified for f in model.fields] if model is not None else []

    def tool(self, ctx: SkillContext, name: str, arguments: dict[str, Any]) -> ToolResult:
        result = self.backend_of(ctx).call(ctx.skill.id, name, arguments, ctx.engine.memory)
        branching = ctx.frame.scratch.get("_branching") or set()
        # a skill another one calls (`call:`) is a sub-check the negative case does not
        # aim at (the planner negates a check of the skill the case is about)
        aimed = ctx.frame.entry != "call"
        negative = getattr(ctx.engine, "account", None) == "negative"
        if branching and aimed and (negative or self.detail_off(ctx.skill.id, name, arguments)):
            # the negative account's check: the step whose `next` branches on what it
            # writes comes back negative (a flag false, an id the branch tests not given)
            # (a computed flag: the value off the goal-reaching path, `branch_values`)
            flags = branch_values(self.project, ctx.skill.id)
            negated = {
                k: (not v if k in branching and v is flags.get(k, True) else v)
                for k, v in result.writes.items()
                if k not in branching or isinstance(v, bool | int | float) or not v
            }
            if negated != result.writes:
                ctx.frame.scratch["_negative"] = name
            result.writes = negated
        return result

    def detail_off(self, skill_id: str, name: str, arguments: dict[str, Any]) -> bool:
        """Whether the user's details for a check tool are one record's with one of them a
        character off (`evalcore.testdata.one_detail_off`): the tool's code finds no record,
        so its check comes back negative whatever the backend answers."""
        assert self.project.mantle is not None
        tool = self.project.mantle.tools_view(skill_id).get(name)
        compared = code_facts(self.project, tool).compared if tool is not None else ()
        if not compared:
            return False
        records = memoized(
            self.project, "reference-records", lambda: load_records(self.project.root)
        )
        # every play of a case calls the tool with the same details: the answer, read from
        # the definitions and the data records alone, is kept per tool and details (each
        # value with its type: `1`, `True` and `"1"` read differently)
        told = tuple((k, type(v), v) for k, v in arguments.items())
        try:
            hash(told)
        except TypeError:  # a list or a mapping among the details: read afresh
            return one_detail_off(arguments, compared, records)
        return once(
            "detail-off",
            self.project,
            (skill_id, name, told),
            lambda: one_detail_off(arguments, compared, records),
        )

    def procedure(self, ctx: SkillContext) -> Procedure:
        skill, model = ctx.skill, self.model(ctx.skill.id)
        starts = getattr(ctx.engine, "early_tool", None)  # the reference engine's mutant hook
        early = starts(skill.id) if starts is not None else None
        if early is not None:
            ctx.tool(early, self.arguments(ctx, early))
        if model is None:  # a skill the model cannot read: its blocks in order
            for block in skill.blocks:
                outcome = yield from ctx.run_block(block)
                if outcome.startswith("linked:"):
                    return outcome
            return "completed"
        if ctx.entry == "user" and ctx.engine.ran_before(skill.id):
            self.read_again(ctx, model)
        for spec in model.fields:
            if spec.asked_by == "request" and ctx.get(spec.qualified) is None:
                yield from self.from_request(ctx, spec)
        outcome = yield from Runner(self, ctx).run()
        return outcome

    def read_again(self, ctx: SkillContext, model: SkillModel) -> None:
        """A second request of a skill that already ran in this conversation ("now change
        where the bag is delivered" once the report is filed): the choice it states
        replaces the earlier one; what the first run recorded stays (the reference a tool
        just wrote is used, not asked for again)."""
        for spec in model.fields:
            if spec.type != "categorical" or spec.condition is not None:
                continue
            stated = ctx.words(spec.qualified).stated(ctx.context)
            if stated is not None and stated != ctx.get(spec.qualified):
                ctx.engine.remember(spec.qualified, stated)

    def from_request(self, ctx: SkillContext, spec: FieldSpec) -> Procedure:
        """A field set "from the request": read from the opening message, else asked."""
        if spec.type not in ("categorical", "bool"):
            named = named_value(spec.name.replace("_", " ")).search(ctx.context)
            if named is not None:  # "The service is checkout-api."
                ctx.engine.remember(spec.qualified, named[1])
            return
        value = self.read(ctx, spec, ctx.context)
        if value is NO_ANSWER:
            if spec.type != "categorical":
                return
            if ctx.entry != "user":  # handed the conversation: the model picks one itself
                if spec.enum_values:
                    ctx.engine.remember(spec.qualified, spec.enum_values[0])
                ctx.engine.note(f"{spec.qualified} is set from the request: none said it")
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
        if self.model(ctx.skill.id) is None or not ctx.frame.blocks:
            return None
        return Runner(self, ctx).instructions(ctx.frame.blocks[-1], step)

    def uncertain(self, engine: Any, model: SkillModel | None, line: int) -> None:
        """Keep a note where the run reaches something the skill model was unsure of."""
        for doubt in model.uncertainties if model else []:
            if line and doubt.where.line == line:
                engine.note(f"{doubt.where.label()}: {doubt.what} ({doubt.why})")

    def uncertain_about(self, engine: Any, skill_id: str, what: str) -> None:
        """The same, for a doubt about a part of the skill rather than a line: `completion`
        (no `complete_when`: the run decided the skill was done) or `requires of <tool>`
        (nothing the skill does makes it hold)."""
        model = self.model(skill_id)
        for doubt in model.uncertainties if model else []:
            if doubt.what == what:
                engine.note(f"{doubt.where.label()}: {doubt.what} ({doubt.why})")

    # --- asking ---------------------------------------------------------------------------

    def ask_for(
        self,
        ctx: SkillContext,
        asked: str,
        text: str,
        keys: list[str],
        step: str | None,
        block: str | None,
    ) -> Procedure:
        """One question for what an instructions step waits for, naming `asked`; every
        key is read from the answer by its type."""
        declared = ctx.defs.memory_field(asked)
        boolean = declared is not None and declared.type == "bool"
        # the step's own sentence for it, where one asks for it by name
        own = None if boolean else asking_sentence(text, declared, ctx.holds)
        words = asked.rsplit(".", 1)[-1].replace("_", " ")
        wanted = wanted_clause(declared.description) if declared is not None else None
        question = question_for(own or text, words, boolean=boolean, wanted=wanted)
        answer = yield from ctx.ask(
            "instructions",
            lambda: ctx.say(question),
            ctx.engine.answers,
            step=step,
            block=block,
            field=asked,
        )
        model = self.model(ctx.skill.id)
        primary = model.field(asked) if model is not None else None
        if primary is not None:
            answer = yield from self.clarify(ctx, primary, question, answer, step, block)
        for key in keys:
            spec = model.field(key) if model is not None else None
            if key != asked and asking_sentence(text, ctx.defs.memory_field(key), ctx.holds):
                continue  # asked on its own next ("Ask for the time ... Ask where it happened")
            value = self.read(ctx, spec, answer) if spec is not None else NO_ANSWER
            if value is NO_ANSWER and spec is None:
                value = ctx.engine.read_field(key, answer)
            if value is not NO_ANSWER:
                ctx.engine.remember(key, value)
            else:
                ctx.engine.note(f"could not read {key} from {answer!r}")
        return "done"

    def ask_details(
        self, ctx: SkillContext, name: str, details: list[str], *, again: bool = False
    ) -> Procedure:
        """Identity details in one question; each argument of `name` read from its part.
        `again`: the check did not accept the last ones (it says neither which one)."""
        if not details:
            return
        words = ", ".join(details[:-1]) + (" and " if len(details) > 1 else "") + details[-1]
        question = (
            f"Those details don't match our records. Could you check your {words} and "
            "tell me again?"
            if again
            else f"What are your {words}?"
        )
        answer = yield from ctx.ask("identity", lambda: ctx.say(question), ctx.engine.answers)
        tool = ctx.defs.tools_view(ctx.skill.id).get(name)
        asked = ctx.frame.scratch.setdefault("asked", {}).setdefault(name, {})
        for param in tool.parameters if tool else []:
            if param.name == "context" or "ToolContext" in (param.type or ""):
                continue
            detail = _detail_for(param, details)
            if detail is not None:
                asked[param.name] = said_value(answer, detail)

    def ask_group(
        self, ctx: SkillContext, specs: list[FieldSpec], step: str | None, block: str | None
    ) -> Procedure:
        """Ask one question, then read each of its fields from the answer by type."""
        spec = specs[0]
        declared = ctx.defs.memory_field(spec.qualified)
        question = question_for(
            spec.question,
            spec.name.replace("_", " "),
            boolean=spec.type == "bool",
            wanted=wanted_clause(declared.description) if declared is not None else None,
        )
        answer = yield from ctx.ask(
            "instructions",
            lambda: ctx.say(question),
            ctx.engine.answers,
            step=step,
            block=block,
            field=specs[0].qualified,
        )
        answer = yield from self.clarify(ctx, spec, question, answer, step, block)
        for spec in specs:
            value = self.read(ctx, spec, answer)
            if value is not NO_ANSWER:
                ctx.engine.remember(spec.qualified, value)
            else:
                ctx.engine.note(f"could not read {spec.qualified} from {answer!r}")
        return "done"

    def clarify(
        self,
        ctx: SkillContext,
        spec: FieldSpec,
        question: str,
        answer: Any,
        step: str | None,
        block: str | None,
    ) -> Procedure:
        """An answer that does not say which value (a choice, yes/no or a number) is asked
        again, twice at most, as the runtime's LLM clarifies; returns the last answer."""
        for _ in range(2):
            if spec.type not in _CLARIFIED or not isinstance(answer, str):
                break
            if self.read(ctx, spec, answer) is not NO_ANSWER:
                break
            ctx.engine.note(f"{spec.qualified}: {answer!r} does not say which; asked again")
            options = ", ".join(str(v).replace("_", " ") for v in spec.enum_values)
            again = f"Sorry, I need to be sure. {question}"
            if spec.type == "categorical" and options and options.lower() not in again.lower():
                again += f" ({options})"
            answer = yield from ctx.ask(
                "instructions",
                lambda text=again: ctx.say(text),
                ctx.engine.answers,
                step=step,
                block=block,
                field=spec.qualified,
            )
        return answer

    def read(self, ctx: SkillContext, spec: FieldSpec, text: str) -> Any:
        kind = spec.type
        record = self.record_for(ctx, text)
        if kind == "categorical":
            words = ctx.words(spec.qualified)
            value = words.answer(text)
            if value is not None:
                return value
            if words.undecided(text):
                return NO_ANSWER  # two values named: asked again, never the record guessed
            for candidate in (record or {}).values():
                if candidate in spec.enum_values:
                    return candidate
            return NO_ANSWER
        if kind == "bool":
            answer = yes_or_no(text)
            return NO_ANSWER if answer is None else answer
        if kind in ("int", "float"):  # "My rooms is 4 and my distance miles is 42": its part
            number = parse_amount(said_value(text, spec.name))
            if number is None:
                return NO_ANSWER
            return int(number) if kind == "int" else number
        if record is not None:
            named = _record_field(record, spec.name)
            if named is not None:
                return record[named]
        return said_value(text, spec.name)

    def chosen(self, ctx: SkillContext, key: str) -> Any:
        """A value the agent picks itself (the first listed option's field of that name,
        else one typed by the field): "set new_flight to the one they pick"."""
        name = key.rsplit(".", 1)[-1]
        # the listed record the case's other facts point at (the Car policy for a Car
        # claim), never simply the first one listed
        record = self.record_for(ctx, "", held=self._held(ctx))
        if record is not None:
            for field, value in record.items():
                if field == name or name.endswith("_" + field) or field.endswith("_" + name):
                    return value
        model = self.model(ctx.skill.id)
        spec = model.field(key) if model is not None else None
        if spec is not None and spec.examples:
            return spec.examples[0]
        declared = ctx.defs.memory_field(key)
        kind = declared.type if declared is not None else None
        if kind in ("int", "float"):  # a plausible amount, as the planner's walk assumes
            return 2 if kind == "int" else 60.0
        return placeholder(declared, key)

    @staticmethod
    def _held(ctx: SkillContext) -> frozenset[str]:
        """The values the running skill's memory holds (normalised): what a record the model
        picks itself must agree with."""
        prefix = ctx.skill.id + "."
        return frozenset(
            str(v).strip().lower()
            for k, v in ctx.engine.memory.items()
            if k.startswith(prefix) and isinstance(v, str | int) and not isinstance(v, bool)
        )

    def record_for(
        self, ctx: SkillContext, text: str, held: frozenset[str] = frozenset()
    ) -> dict[str, Any] | None:
        """The listed record the answer names (by shared words), else the one holding most
        of `held` (values the skill already knows), else the first listed."""
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
            (
                len(said & set(stems(" ".join(map(str, r.values()))))),
                sum(1 for v in r.values() if str(v).strip().lower() in held),
                -i,
            )
            for i, r in enumerate(listed)
        ]
        best = max(range(len(listed)), key=lambda i: scored[i])
        return listed[best]

    # --- tools --------------------------------------------------------------------------------

    def arguments(self, ctx: SkillContext, name: str) -> dict[str, Any]:
        model = self.model(ctx.skill.id)
        use = model.tool(name) if model is not None else None
        tool = ctx.defs.tools_view(ctx.skill.id).get(name)
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
        out.update(ctx.frame.scratch.get(FIXED, {}).get(name) or {})
        return out


__all__ = ["ModelBrain"]
