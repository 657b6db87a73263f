"""A skill's procedure as the reference agent runs it: its prose plan (`_prose`), live.

Order: values stated up front, then the plan in reading order. A `block` runs the ordered
block (a skill whose prose runs none runs its first block no other block calls, after the
prose); `lookup` runs its tool when the key it fills is empty; `identity` asks for the
details in one question and runs the check unless its key is already true (again, three
times at most, while a check that writes the key leaves it unset: the details did not
match); `ask_field`
asks a field that is not known; `question` asks a yes/no question; `tool` calls the tool
once its trigger and `requires` hold (else it waits, and is retried after every step; at
the end of the prose, a waiting tool's missing inputs are asked for, or set when they are
flags the agent records itself). A gated tool goes through its confirmation; a "no", a
failing tool or a check that comes back negative ends the procedure. A call on the user's
cue ("If they ask about an existing request, check …") runs once their messages say it, and
the procedure ends there (`skill_model.cues`). `delegate` mentions
are offers, not followed on their own.

An allowed variant (`_variants.py`) takes its freedom here: an optional lookup, ask or
question skipped (`skip_optional`), the prose-only asks in the other order within each run
of asks under one condition (`reorder_asks`).


Instructions steps ask for what `complete_when` waits for (one question naming the first
missing field; once the step's choice is made, a field it does not ask for by name on that
side is set by the model, not asked), set a choice the step sets beside it from the record
the answer picks, then ask each field an `if:` line of the step asks whose condition holds; the
tools the step lets the model call run after it, and a block's `tools:` after its steps (but
not one that only steps the run skipped name).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from itertools import takewhile
from typing import Any, Protocol

from ...definitions import Step
from ...definitions.conditions import condition_keys
from ...definitions.skill_model import (
    FieldSpec,
    SkillModel,
    ToolUse,
    asks_for,
    code_facts,
    held_thing,
    instruction_prompt,
    kept_set_at,
    literal_sets,
    paragraphs,
    qualify,
    record_key,
    says_lacking,
    sentence_arguments,
)
from ...definitions.skill_model.cues import heard
from ...definitions.skill_model.prose_items import hands_over, with_entry_block
from ._asking import question_for
from ._mantle_engine import Procedure, SkillContext
from ._prose import ProseItem, prose_items
from ._variants import ask_runs, optional_target


class RunnerBrain(Protocol):
    """What a `Runner` asks of the brain that runs it (`_brain.ModelBrain`): the skill's
    model, the questions, and the values it picks. Typed by shape, so this module need not
    import the one that imports it."""

    def model(self, skill_id: str) -> SkillModel | None: ...

    def uncertain(self, engine: Any, model: SkillModel | None, line: int) -> None: ...

    def arguments(self, ctx: SkillContext, name: str) -> dict[str, Any]: ...

    def chosen(self, ctx: SkillContext, key: str) -> Any: ...

    def backend_of(self, ctx: SkillContext) -> Any: ...

    def ask_for(
        self,
        ctx: SkillContext,
        asked: str,
        text: str,
        keys: list[str],
        step: str | None,
        block: str | None,
    ) -> Procedure: ...

    def ask_group(
        self, ctx: SkillContext, specs: list[FieldSpec], step: str | None, block: str | None
    ) -> Procedure: ...

    def ask_details(
        self, ctx: SkillContext, name: str, details: list[str], *, again: bool = False
    ) -> Procedure: ...


_STOP = "_stopped"
_CHECK_TRIES = 3
"""Times a person is asked for identity details the check did not accept."""
_PENDING = "_pending"
_PLAN = "_plan"
"""The plan being run (its items in order), read where a cue's last item is found."""
FIXED = "_fixed_arguments"
"""Per tool, the arguments its calling sentence sets in so many words (`fix_arguments`)."""


def _words(key: str) -> str:
    return key.rsplit(".", 1)[-1].replace("_", " ")


def _other_side(text: str, key: str, holds: Any) -> bool:
    """Whether `key` belongs to another side of the step: every paragraph of its text that
    names the field is under an `if:` the session does not meet ("if: fulfilment ==
    "pickup" … Set pickup_store_id" in a delivery run), so a `complete_when` that waits for
    it or another side's field ("pickup_store_id or delivery_confirmed") is met on this
    side by the other one, and nobody asks for it."""
    name = re.compile(rf"\b{re.escape(key.rsplit('.', 1)[-1])}\b")
    naming = [p for p in paragraphs(text) if name.search(p.text)]
    return bool(naming) and all(p.condition and not holds(p.condition) for p in naming)


def _memory_names(sentence: str) -> list[str]:
    """The entries a sentence names by `@memory.<name>` (`project.last_name`)."""
    out = []
    for part in sentence.split("@memory.")[1:]:
        name = "".join(takewhile(lambda c: c.isalnum() or c in "._", part)).rstrip(".")
        if name:
            out.append(name)
    return out


def _only_permitted(use: ToolUse) -> bool:
    """A block's tool whose every prose call only offers or permits it ("Use @tool.x only to
    say what the policy covers"): the block makes it available, the prose leaves its use to
    the user's yes or the agent's choice, so a run does not call it unasked."""
    prose = [c for c in use.calls if c.kind == "prose"]
    return bool(prose) and all(
        c.optional and (c.cue is None or c.trigger == "offer") for c in prose
    )


class Runner:
    """Runs one skill's plan for one frame (state lives in the frame's scratch)."""

    def __init__(self, brain: RunnerBrain, ctx: SkillContext) -> None:
        self.brain = brain
        self.ctx = ctx
        self.skill = ctx.skill
        self.model = brain.model(ctx.skill.id)
        self.tools = ctx.defs.tools_view(ctx.skill.id)

    # --- state ---------------------------------------------------------------------------

    @property
    def stopped(self) -> str | None:
        return self.ctx.frame.scratch.get(_STOP)

    def stop(self, why: str) -> None:
        self.ctx.frame.scratch.setdefault(_STOP, why)

    @property
    def pending(self) -> list[tuple[str, str | None]]:
        return self.ctx.frame.scratch.setdefault(_PENDING, [])

    def known(self, key: str) -> bool:
        return self.ctx.engine.memory.get(key) is not None

    def ran(self, name: str) -> bool:
        return name in self.ctx.frame.results

    def free(self, kind: str, target: str) -> bool:
        """Whether the engine's allowed variant takes this freedom here (`freedom`)."""
        freedom = getattr(self.ctx.engine, "freedom", None)
        return bool(freedom is not None and freedom(kind, target))

    def ready(self, name: str, when: str | None) -> bool:
        constraint = self.skill.tool_constraints.get(name)
        requires = constraint.requires if constraint else None
        return self.ctx.holds(when) and self.ctx.holds(requires)

    # --- the plan ------------------------------------------------------------------------

    def run(self) -> Procedure:
        ctx, skill = self.ctx, self.skill
        assert self.model is not None
        items = with_entry_block(skill, prose_items(skill, self.model))
        ctx.frame.scratch[_PLAN] = items
        runs = ask_runs(items)
        if runs and self.free("reorder_asks", skill.id):
            for run in runs:
                for n, item in zip(run, [items[n] for n in reversed(run)], strict=True):
                    items[n] = item
        ran_blocks: set[str] = set()
        for item in items:
            if self.stopped:
                break
            if item.condition and not ctx.holds(item.condition):
                continue
            self.brain.uncertain(ctx.engine, self.model, item.line)
            if item.kind == "block" and item.name in skill.blocks:
                if item.name in ran_blocks:
                    continue
                ran_blocks.add(item.name)
                outcome = yield from ctx.run_block(item.name)
                if outcome.startswith("linked:"):
                    return outcome
                if ctx.frame.scratch.get("_negative"):  # a check came back negative
                    self.stop("negative")
            else:
                yield from self.run_item(item)
                if str(self.stopped).startswith("linked:"):  # a skill it handed over to
                    return str(self.stopped)
            yield from self.retry_pending()
        if not self.stopped:
            yield from self.settle_pending()
        if self.stopped in ("denied", "negative"):
            return "ended"
        if self.stopped == "failed":
            return "open"
        done = (skill.complete_when or {}).get("condition")
        return "completed" if done is None or ctx.holds(done) else "open"

    def run_item(self, item: ProseItem) -> Procedure:
        ctx, memory = self.ctx, self.ctx.engine.memory
        if item.kind in ("lookup", "tool") and (item.kind == "lookup" or item.when):
            if self.free("skip_optional", f"{self.skill.id}.{item.name}"):
                return  # a lookup the prose makes conditional, left out
        elif item.kind in ("ask_field", "question") and self.free(
            "skip_optional", optional_target(self.skill.id, item)
        ):
            return  # an ask the prose only permits, left out
        if item.kind == "lookup":
            if memory.get(item.key or "") in (None, "") and item.name in self.tools:
                self.run_tool(item.name or "")
        elif item.kind == "identity":
            yield from self.check_identity(item)
        elif item.kind == "ask_field" and item.name and not self.known(item.name):
            spec = self.model.field(item.name) if self.model else None
            if spec is not None:
                yield from self.brain.ask_group(ctx, [spec], None, None)
        elif item.kind == "record" and item.cue:
            if item.name and not self.known(item.name) and heard(item.cue, self.user_text()):
                ctx.engine.remember(item.name, True)
                self.after_cue(item)
        elif item.kind == "record" and item.name and not self.known(item.name):
            ctx.engine.remember(item.name, True)  # the agent's own flag, never asked
        elif item.kind == "question":
            said = item.details[0] if item.details else item.sentence
            # a question of the prose fills no field: nothing to name after it
            yield from ctx.question(question_for(f"ask whether {said}", ""))
        elif item.kind == "tool" and item.cue:
            if item.name in self.tools and heard(item.cue, self.user_text()):
                yield from self.call_tool(item.name or "")
                # the user asked for it: what its `requires` still lacks is asked for now,
                # before the request ends ("send me an upload link" needs the claim number)
                yield from self.settle_pending(only=item.name)
                self.after_cue(item)
        elif item.kind == "tool" and item.name in self.tools and not self.other_topic():
            other = self.lacked_alternative(item)
            if other is not None:  # "otherwise list their open orders with @tool.b"
                yield from self.call_tool(other)
                return
            self.fix_arguments(item)
            yield from self.call_tool(item.name or "", item.when)
        elif (
            hands_over(item) or self.opens_gate(item.name or "")
        ) and item.name in ctx.engine.defs.skills:
            # `@skill.x` delegates and the parent resumes afterwards (reference §1.6)
            outcome = yield from ctx.engine.call_skill(ctx, item.name or "")
            if str(outcome).startswith("linked:"):
                self.stop(str(outcome))

    def lacked_alternative(self, item: ProseItem) -> str | None:
        """The sentence's other call where its call waits for a thing the user has and the
        user said they do not have it ("If they have an order number … use @tool.a;
        otherwise list their open orders with @tool.b" after "I don't have my order
        number"): a correct agent takes the other way in. None where the user did not say
        so (the call runs as the prose has it) or the sentence offers no other call."""
        thing = held_thing(item.sentence)
        if thing is None or self.model is None or not says_lacking(thing, self.user_text()):
            return None
        return next(
            (
                use.name
                for use in self.model.tools
                if use.name != item.name
                and use.name in self.tools
                and any(
                    c.kind == "prose" and c.sentence == item.sentence and c.trigger == "otherwise"
                    for c in use.calls
                )
            ),
            None,
        )

    def fix_arguments(self, item: ProseItem) -> None:
        """The arguments the calling sentence sets in so many words ("with urgent set to
        true"), kept for the call whenever it runs (`ModelBrain.arguments`)."""
        tool = self.ctx.defs.tools_view(self.skill.id).get(item.name or "")
        fixed = sentence_arguments(item.sentence, tool) if tool is not None else {}
        if fixed:
            self.ctx.frame.scratch.setdefault(FIXED, {})[item.name] = fixed

    def other_topic(self) -> bool:
        """Whether the user asked for the request a paragraph of the prose is about (a topic
        cue): the prose's plain calls serve its other requests and wait."""
        plan = self.ctx.frame.scratch.get(_PLAN) or []
        said = self.user_text()
        return any(i.topic and i.cue and heard(i.cue, said) for i in plan)

    def after_cue(self, item: ProseItem) -> None:
        """Stop once the last item waiting for `item`'s cue ran: the request the user asked
        for ends there ("check access first; only then read the board pack": both run)."""
        plan = self.ctx.frame.scratch.get(_PLAN) or []
        at = next((k for k, other in enumerate(plan) if other is item), len(plan))
        if not any(other.cue == item.cue for other in plan[at + 1 :]):
            self.stop("cue")

    def check_identity(self, item: ProseItem) -> Procedure:
        """Ask for the details in one message and run the check, unless its key is already
        true. Where the check's own code writes the key and this call did not (the details
        did not match), ask again, naming every detail and not which one failed; after
        `_CHECK_TRIES`, hand over to the hand-off skill the next sentence names (the
        prose's "When no attempts are left, hand over to …"), else stop."""
        ctx, name, key = self.ctx, item.name or "", item.key
        use = self.model.tool(name) if self.model else None
        writes_key = use is not None and any(w.key == key for w in use.writes)
        for attempt in range(_CHECK_TRIES):
            if key and ctx.engine.memory.get(key) is True:
                return
            yield from self.brain.ask_details(ctx, name, list(item.details), again=attempt > 0)
            self.keep_details(item)
            if not self.run_tool(name) or not writes_key:
                return
        if key and ctx.engine.memory.get(key) is True:
            return
        items = prose_items(self.skill, self.model) if self.model else []
        after = next((i for n, i in enumerate(items[1:]) if items[n] == item), None)
        named = after is not None and after.kind == "delegate"
        target = ctx.defs.skills.get(after.name or "") if named and after else None
        self.stop(f"linked:{target.id}" if target is not None and target.is_handoff else "failed")

    def keep_details(self, item: ProseItem) -> None:
        """The entries the identity sentence sets from what the user just gave ("Set
        @memory.project.last_name, then call @tool.find_booking"): each one named like a
        parameter the answer filled keeps that value, as a model does before the call."""
        ctx = self.ctx
        asked = (ctx.frame.scratch.get("asked") or {}).get(item.name or "") or {}
        for key in _memory_names(item.sentence):
            qualified = key if "." in key else f"{self.skill.id}.{key}"
            value = asked.get(qualified.rsplit(".", 1)[-1])
            known = ctx.engine.memory.get(qualified)
            if value and ctx.defs.memory_field(qualified) is not None and known != value:
                ctx.engine.remember(qualified, value)

    def user_text(self) -> str:
        """Everything the user said so far (what a cue is heard in)."""
        return " ".join(
            str(e.get("text") or "") for e in self.ctx.engine.events if e["event"] == "user"
        )

    # --- tools ---------------------------------------------------------------------------

    def run_tool(self, name: str) -> bool:
        """Run a tool past its gate; False when it failed or could not run."""
        result = self.ctx.tool(name, self.brain.arguments(self.ctx, name))
        if result is None:
            return False
        if result.error:
            self.stop("failed")
            return False
        return True

    def call_tool(self, name: str, when: str | None = None) -> Procedure:
        """The model calls a tool once its trigger and `requires` hold (else it waits)."""
        if name not in self.tools or self.ran(name) or self.stopped:
            return
        yield from self.settle_pending(only_requires=True, before=name)
        if self.stopped:
            return
        if not self.ready(name, when):
            if (name, when) not in self.pending:
                self.pending.append((name, when))
            return
        use = self.model.tool(name) if self.model else None
        if use is not None and use.gated:
            outcome = yield from self.ctx.gated(name, lambda: self.brain.arguments(self.ctx, name))
            if outcome in ("denied", "failed"):
                self.stop(outcome)
            return
        self.run_tool(name)

    def retry_pending(self) -> Procedure:
        for name, when in list(self.pending):
            if self.stopped:
                return
            if self.ready(name, when):
                self.pending.remove((name, when))
                yield from self.call_tool(name, when)

    def settle_pending(
        self, *, only_requires: bool = False, before: str | None = None, only: str | None = None
    ) -> Procedure:
        """A waiting tool's missing inputs: fields the skill asks are asked for, flags the
        agent records itself are set; then it runs (`only`: that tool alone)."""
        ctx = self.ctx
        for name, when in list(self.pending):
            if self.stopped:
                return
            if name == before or (only_requires and when is not None) or only not in (None, name):
                continue
            if (name, when) in self.pending:
                self.pending.remove((name, when))
            constraint = self.skill.tool_constraints.get(name)
            keys = condition_keys(when) + condition_keys(
                constraint.requires if constraint else None
            )
            skipped = ctx.frame.scratch.get("_skipped") or set()
            if any(k in skipped and ctx.engine.memory.get(k) in (None, False, "") for k in keys):
                continue  # it waits on a step a branch's END left out: not played from prose
            for key in dict.fromkeys(keys):
                if ctx.engine.memory.get(key) not in (None, False, ""):
                    continue
                spec = self.model.field(key) if self.model else None
                declared = ctx.defs.memory_field(key)
                if spec is not None:
                    yield from self.brain.ask_group(ctx, [spec], None, None)
                elif not self.settable(key):
                    continue  # the gate stays shut: nothing the model has can write it
                elif declared is not None and declared.type == "bool":
                    ctx.engine.remember(key, True)
                elif declared is not None:  # a value the agent records itself
                    ctx.engine.remember(key, self.brain.chosen(ctx, key))
            if self.ready(name, when):
                yield from self.call_tool(name, when)

    def opens_gate(self, skill_id: str) -> bool:
        """Whether the skill the prose names (`run @skill.verify_patient first`) is how a
        gate of this skill opens: its tools' code writes an entry a `requires` here reads,
        that is not yet set and the model cannot set itself (a sign-in)."""
        defs = self.ctx.defs
        if skill_id not in defs.skills:
            return False
        needed = {
            key
            for c in self.skill.tool_constraints.values()
            for key in condition_keys(c.requires)
            if self.ctx.engine.memory.get(key) in (None, False, "") and not self.settable(key)
        }
        if not needed:
            return False
        written = {
            qualify(w.key, skill_id, defs)
            for tool in defs.tools_for(skill_id).values()
            for w in code_facts(self.ctx.engine.project, tool).writes
        }
        return bool(needed & written)

    def settable(self, key: str) -> bool:
        """Whether the model can record `key` itself: Rasa's `set_fields` offers only the
        running skill's declared `llm_settable` fields and collect targets, never a project
        entry (`settable_fields_for_turn`); a project entry comes from the case's seeds,
        the initial value, a tool's code or a `set_memory` step, never from the model."""
        namespace, _, name = key.partition(".")
        field = self.skill.memory.get(name) if namespace == self.skill.id else None
        if field is None:
            return False
        return field.llm_settable is True or any(
            step.kind == "collect" and str(step.target).split(".")[-1] == name
            for block in self.skill.blocks.values()
            for step in block.steps
        )

    def step_tools(
        self, block: str, step: str | None, kind: str, unused: Collection[str] = ()
    ) -> Procedure:
        """Tools the model lets the LLM call at this step (instructions) or in this block
        (block-level `tools:`), when their scope holds; never one of `unused` (a block tool
        only steps the run skipped had a use for: `skipped_tools`)."""
        for use in self.model.tools if self.model else []:
            if use.name in unused or (kind == "block_tools" and _only_permitted(use)):
                continue
            for call in use.calls:
                if call.kind != kind or call.block != block or call.step != step:
                    continue
                scope = call.condition if call.when is None else None
                if self.ctx.holds(scope):
                    yield from self.call_tool(use.name, call.when)
                break

    # --- instructions steps --------------------------------------------------------------

    def instructions(self, block: str, step: Step) -> Procedure:
        ctx, skill = self.ctx, self.skill
        specs = [
            f
            for f in (self.model.fields if self.model else [])
            if f.asked_by == "instructions" and f.block == block and f.step == step.id
        ]
        keys = [
            k
            for k in condition_keys(str(step.fields.get("complete_when") or ""))
            if k.startswith(skill.id + ".")
        ]
        if not keys:
            keys = [f.qualified for f in specs if f.condition is None][:1]
        if self.model is not None:
            keys = self.model.step_waits(block, step.id, keys)
        text = str(step.target or "")
        when = step.fields.get("complete_when")
        sides = [k for k in keys if not _other_side(text, k, ctx.holds)]
        if sides and len(sides) < len(keys) and " or " in str(when or ""):
            keys = sides  # the other side's field never completes this side's step
        self.set_before_completion(text, keys)
        self.set_from_lookup(text, keys)
        for name, value, scope in literal_sets(text):
            key = f"{skill.id}.{name}"  # "Set customer_impact to "none reported"": no ask
            if key in keys and not self.known(key) and (scope is None or ctx.holds(scope)):
                ctx.engine.remember(key, value)
        for _ in range(3):
            missing = [k for k in keys if not self.known(k)]
            if not missing or (when is not None and missing != keys and ctx.holds(str(when))):
                break  # done, or its chosen side needs nothing more ("Homeowner, or ...")
            categorical = [k for k in missing if self._categorical(k)]
            handed = ctx.entry in ("link", "escalation", "call")
            if handed and text.lower().lstrip().startswith("if it is not clear"):
                for key in categorical:
                    value = ctx.words(key).answer(ctx.context)
                    ctx.engine.remember(
                        key, value if value is not None else ctx.words(key).fallback()
                    )
                continue
            if not categorical and any(self._categorical(k) for k in keys):
                # the step's choice is made: what it does not ask for by name on that
                # side ("If it is not clear yet, ask ..."), the model sets itself
                unasked = [
                    k for k in missing if not asks_for(text, ctx.defs.memory_field(k), ctx.holds)
                ]
                for key in unasked:
                    ctx.engine.remember(key, self.brain.chosen(ctx, key))
                missing = [k for k in missing if k not in unasked]
                if not missing:
                    continue
            asked = categorical[0] if categorical else missing[0]
            prompt = instruction_prompt(text, ctx.defs.memory_field(asked), ctx.holds)
            yield from self.brain.ask_for(ctx, asked, prompt, missing, step.id, block)
        self.set_from_pick(specs, keys)
        for spec in specs:
            if spec.condition is None or self.known(spec.qualified):
                continue
            if ctx.holds(spec.condition):
                yield from self.brain.ask_group(ctx, [spec], step.id, block)
        yield from self.step_tools(block, step.id, "instructions")
        return "done"

    def set_before_completion(self, text: str, keys: list[str]) -> None:
        """What the step sets from the user's pick before the field it completes on, for a
        tool's `requires` ("Set selected_flight_id from their pick, then read the whole
        trip back and set details_verified when they agree"): recorded there, in the order
        the text sets it, not only once the tool that needs it comes to run."""
        ctx = self.ctx
        marks = [at for key in keys if (at := _set_at(ctx.defs, key, text)) is not None]
        if not marks:
            return
        head = text[: min(marks)]
        needed = {
            key
            for constraint in self.skill.tool_constraints.values()
            for key in condition_keys(constraint.requires)
            if key not in keys and not self.known(key) and self.settable(key)
        }
        placed = []
        for key in needed:
            at = _set_at(ctx.defs, key, head)
            if at is not None and (self.model is None or self.model.field(key) is None):
                placed.append((at, key))
        for _, key in sorted(placed):
            ctx.engine.remember(key, self.brain.chosen(ctx, key))

    def set_from_lookup(self, text: str, keys: list[str]) -> None:
        """What the step sets from the one record a lookup it ran returned ("If
        find_coworker returned exactly one match, set coworker_id to its employee_id"): the
        record's own key, never asked (the user, who named the coworker, does not know
        it). Several records or none: left to the question the step asks then."""
        for key in keys:
            if self.known(key):
                continue
            own = record_key(key.split(".", 1)[-1], text)
            if own is None:
                continue
            listed = [
                record
                for name, result in self.ctx.frame.results.items()
                if name != "_ran" and re.search(rf"\b{re.escape(name)}\b", text)
                for record in _records(result)
            ]
            if len(listed) == 1 and listed[0].get(own) is not None:
                self.ctx.engine.remember(key, listed[0][own])

    def set_from_pick(self, specs: list, keys: list[str]) -> None:
        """A choice the step sets beside what it waits for ("Set policy_number and
        claim_type (auto for a car policy, home for a home policy) from the one they
        pick"): the enum value the picked record holds (the `data/` record matching the
        answers), else left unset and noted."""
        answers = {k: self.ctx.get(k) for k in keys if self.known(k)}
        if not answers:
            return
        for spec in specs:
            if spec.condition is not None or spec.qualified in keys or self.known(spec.qualified):
                continue
            if not self._categorical(spec.qualified) or not spec.enum_values:
                continue
            value = self.brain.backend_of(self.ctx).record_choice(answers, spec.enum_values)
            if value is not None:
                self.ctx.engine.remember(spec.qualified, value)
            else:
                self.ctx.engine.note(f"{spec.qualified} is set from the pick: no record says it")

    def _categorical(self, key: str) -> bool:
        declared = self.ctx.defs.memory_field(key)
        return declared is not None and declared.type == "categorical"


def _records(result: Any) -> list[dict[str, Any]]:
    """The records a tool's answer holds: itself (one record), or the items of its lists
    (`{"matches": [...]}`)."""
    if not isinstance(result, dict):
        return []
    lists = [v for v in result.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
    listed = [r for v in lists for r in v if isinstance(r, dict)]
    return listed if lists else [result]


def _set_at(defs: Any, key: str, text: str) -> int | None:
    """`set_at` of the declared field `key` in a step's `text` (None for an undeclared
    key), kept with the loaded definitions (`kept_set_at`): every play of a step reads the
    same text again."""
    field = defs.memory_field(key)
    return kept_set_at(defs, field, text) if field is not None else None


__all__ = ["FIXED", "Runner"]
