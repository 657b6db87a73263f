"""The pieces every kind of offline Mantle goal is made of: the facts a path asserts, what a
path short of success still does, the skill's prose rules, the direction's requirements."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import outside_effect, qualify, skill_model

from ...planning.mantle_offers import SET, Event, Walk
from ._direction import value_words
from ._mantle_answers import after_outside_call, on_unknown_id
from ._mantle_chance import chance_keys, on_chance, paired_rule
from ._mantle_checks import short_tool, skill_check, tool_check
from ._mantle_criteria import narrowed, pick, prose_rules
from ._mantle_facts import confirms, offers
from ._mantle_handoff import HandoffGoals
from ._mantle_held import lacked_listing, on_listed
from ._mantle_own_reply import allowing_reply
from ._mantle_readout import names_field, read_back_text
from ._mantle_said_form import either_form


def block_completed(skill: str, block: str | None, step: str | None) -> dict[str, Any]:
    """The block's completion at the step the path ends it on: which step a block ends at
    tells its branches apart, and a left-out last step shows only there."""
    body: dict[str, Any] = {"skill_id": skill, "block_id": block}
    if step:
        body["step_id"] = step
    return {"ordered_block_completed": body}


class GoalPieces(HandoffGoals):
    def block_done(self, skill: str, block: str | None, step: str | None) -> dict[str, Any]:
        """`block_completed`, without the step where the block has a block-level
        `complete_when` that an earlier step can make true (`incident_id`, written by the
        `open` step's tool before `done`): the definitions then let it end at whichever step
        the condition comes to hold, so which step the completion event names is not theirs
        to fix. A condition the last step itself waits for (`details_verified` at
        `read_back`) ends it there either way. Nor where the block writes out an `END` step
        of its own (`- id: END`): whether the completion event names the step before it or
        that step is not something the definitions say."""
        owner = self.defs.skills.get(skill)
        found = owner.blocks.get(block or "") if owner is not None else None
        if found is not None and found.step("END") is not None:
            return block_completed(skill, block, None)
        condition = skill_model(self.project, skill).block_complete_when.get(block or "")
        if condition is None or step is None:
            return block_completed(skill, block, step)
        last = found.step(step) if found is not None else None
        waits = set()
        if last is not None:
            waits = set(condition_keys(str(last.fields.get("complete_when") or "")))
            if last.kind == "collect":
                waits.add(f"session.{qualify(str(last.target), skill)}")
        keys = set(condition_keys(condition))
        own = bool(keys) and {k.removeprefix("session.") for k in keys} <= {
            k.removeprefix("session.") for k in waits
        }
        return block_completed(skill, block, step if own else None)

    def path_facts(self, walk: Walk, *, completes: bool = True) -> None:
        skill = walk.skill
        self.add(skill_check("skill_activated", skill))
        for callee in self.called(walk):
            self.add(skill_check("skill_activated", callee))
        if completes and walk.completed:
            self.add(skill_check("skill_completed", skill))
        blocks = [e for e in walk.events if e.kind == "block_completed" and e.skill == skill]
        if blocks:
            self.add(self.block_done(skill, blocks[-1].block, blocks[-1].step))
        items = self.recorded(walk)
        if items:
            self.add({"memory_was_set": items})
        for event in self.path_tools(walk):
            full = self.with_arguments(event, walk)
            self.add(tool_check(full, skill=skill, is_error=event.error))
        confirmed = {a.tool for a in walk.asks if a.kind == "confirm" and a.confirm is not False}
        for event in walk.tools():  # the runtime reads the summary back before a gated tool
            owner = self.defs.skills.get(event.skill or "")
            confirm = self.response_of(event.tool or "", "utter_for_confirmation", owner)
            if not event.error and event.tool in confirmed and self.gated_here(event) and confirm:
                self.add({"bot_uttered": {"utter_name": confirm}})

    def reached(self, walk: Walk, limit: int = 3) -> None:
        """What a path short of the success signal really does: the tools it runs and the
        fields it records (no value where the walk cannot know it). Not the success signal:
        only the walk reaching the terminal tool can assert that."""
        for event in [e for e in walk.tools() if not e.error and e.skill == walk.skill][:limit]:
            self.add(tool_check(event, skill=walk.skill, is_error=False))
        asked = [a.field for a in walk.asks if a.field and a.field.startswith(walk.skill + ".")]
        known = {i["name"] for a in self.assertions for i in a.get("memory_was_set") or []}
        known |= self.left_open()  # an ask left to the agent: a correct agent may skip it
        asked += [k for k in self.tool_written(walk) if k.startswith(walk.skill + ".")]
        fresh = self.declared([k for k in dict.fromkeys(asked) if k not in known])[: limit + 1]
        if fresh:
            self.add({"memory_was_set": [self.answered_item(walk, k) for k in fresh]})

    def answered_item(self, walk: Walk, key: str) -> dict[str, Any]:
        """A `memory_was_set` item for a field the path records: with its value where the
        value is a yes/no the user's own answer fixes ("Set `reboot_done` to true when they
        confirm success": the case's user confirms), so a write of the other value fails;
        by name alone otherwise (text an agent may word its own way, ids a backend picks)."""
        value = walk.memory.get(key)
        answered = any(a.field == key and a.value is value for a in walk.asks)
        if isinstance(value, bool) and answered:
            return {"name": key, "value": value}
        return {"name": key}

    def resumed_writes(self, walk: Walk) -> list[tuple[int, str]]:
        """The skill's own fields the user answers at or after the question the detour stood
        in for, each with the place of its first write: they can only be written after the
        return, so where no tool does the task's work, they show that it went on. Not a
        field a tool of the skill writes (a tool may write it at another time)."""
        at = int(self.facts["digression"].get("at") or 0)
        keys = [
            a.field
            for a in walk.asks[at:]
            if a.field and a.kind != "identity" and a.field.startswith(walk.skill + ".")
        ]
        left = self.left_open()
        left |= {
            k for t in self.defs.tools_for(walk.skill) for k in self.tool_writes(t, walk.skill)
        }
        out: list[tuple[int, str]] = []
        for key in self.declared([k for k in dict.fromkeys(keys) if k not in left]):
            place = next(
                (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == key),
                None,
            )
            if place is not None:
                out.append((place, key))
        return sorted(out)

    def answered_before(self, walk: Walk, tool: str, limit: int = 3) -> list[str]:
        """The skill's fields the user answers before the gate of `tool` (by name: an agent
        may word them its own way): the skill has them recorded as they come, whether the
        agent then asks in its own words or the gate asks."""
        answered = {f.field for f in self.script.sheet.facts if f.field}
        answered |= set(self.facts.get("given") or {})
        written = self.written(walk)
        keys: list[str] = []
        for ask in walk.asks:
            if ask.kind == "confirm" and ask.tool == tool:
                break
            field = ask.field
            if field and field.startswith(walk.skill + ".") and field in answered & written:
                keys.append(field)
        return self.declared(list(dict.fromkeys(keys)))[:limit]

    def resumed_goal(self, walk: Walk) -> None:
        """What the interrupted skill still does once it resumes, where the script fixes its
        inputs (the answers come after the detour): the block it completes and the response
        it ends on, the values the user chose, and the tools that do its work, so an agent
        that resumes and then stalls fails."""
        done = [e for e in walk.events if e.kind == "block_completed" and e.skill == walk.skill]
        if done:
            self.add(self.block_done(walk.skill, done[-1].block, done[-1].step))
        said = self.block_utters(walk)
        if said:
            self.add({"bot_uttered": {"utter_name": said[-1]}})
        items = self.memory_items(walk, self.chosen_keys(walk))
        if not self.resumed_runs(walk):  # no tool does the work: the records it leaves do
            named = {i["name"] for i in items}
            items += [
                self.answered_item(walk, k) for _, k in self.resumed_writes(walk) if k not in named
            ][:3]
        if items:
            self.add({"memory_was_set": items})
        self.goal_tools(walk)

    def goal_tools(self, walk: Walk) -> None:
        """The last run of each tool that does the skill's work (terminal, gated, MCP, fed
        a chosen value), with the arguments the user's answers fix, without an error."""
        runs: dict[str, Any] = {}
        for event in self.terminal_runs(walk) + self.main_tools(walk) + self.success_runs(walk):
            if not event.error and event.tool:
                runs[event.tool] = event
        for event in runs.values():
            full = self.with_arguments(event, walk)
            self.add(tool_check(full, skill=walk.skill, is_error=False))

    def resumed_runs(self, walk: Walk) -> list[Event]:
        """The goal tool runs (success signal, terminal) that come after the answer the
        detour stood in for (the ask at `at`: its field's first write): only those follow
        the resume in every run; a tool the skill runs before that question does not."""
        spec = self.facts["digression"]
        at = int(spec.get("at") or 0)
        ask = walk.asks[at] if at < len(walk.asks) else None
        start = next(
            (
                i
                for i, e in enumerate(walk.events)
                if ask is not None and e.kind == "memory" and e.key == ask.field
            ),
            None,
        )
        if start is None:
            return []
        runs: dict[str, Event] = {}
        for event in self.terminal_runs(walk) + self.success_runs(walk):
            place = next(i for i, e in enumerate(walk.events) if e is event)
            if event.tool and place > start:
                runs[event.tool] = event
        return list(runs.values())

    def confirms_outside(self, walk: Walk) -> str | None:
        """Where the path runs a tool that acts on a real service (`outside_effect`) and
        its `requires` waits for a yes/no the customer gives: that the agent reads back
        what it will send and where for them to confirm, before it runs it. An agent that
        acts at once fails it in this conversation, which a rule about what must never be
        sent cannot."""
        for event in walk.tools():
            tool = self.defs.tools_for(walk.skill).get(event.tool or "")
            effect = outside_effect(self.project, tool) if tool is not None else None
            constraint = self.skill.tool_constraints.get(event.tool or "")
            if effect is None or not effect.changes or constraint is None:
                continue
            keys = condition_keys(constraint.requires or "")
            names = self.defs.memory_names()
            # a yes that reads something back: the runtime's confirmation question, or an
            # ask that says it reads back or confirms; a yes to "have you pulled the items"
            # is a fact, and an agent that acts on it reads nothing back
            gate = constraint.requires_confirmation is not None
            asked = {
                a.field for a in walk.asks if a.value is True and (gate or confirms(self.defs, a))
            }
            flags = [k.removeprefix("session.") for k in keys]
            agreed = [
                f for f in flags if f in asked and getattr(names.get(f), "type", None) == "bool"
            ]
            if not agreed:
                continue
            # the step that asks for the yes says what it reads back: a field its text or
            # its completion does not name may be left out by a correct agent
            said = read_back_text(self.defs.skills.get(walk.skill), agreed[0])
            shown = [
                value_words(n.removesuffix("_id"))
                for n in effect.reads
                if f"{walk.skill}.{n}" in names
                and names[f"{walk.skill}.{n}"].type != "bool"
                and (
                    # on this path, and named by the step ("for home the damaged area")
                    f"{walk.skill}.{n}" in walk.memory and names_field(said, n)
                    if said is not None
                    else f"{walk.skill}.{n}" not in flags
                )
            ]
            what = " and the ".join(shown[::-1]) if shown else "details"
            # in words, not the tool's id (a criterion naming it is a lookup a judge can
            # only get wrong): `post_slack_message` -> "post the message"
            words = value_words(event.tool or "").split()
            act = " ".join(words) if len(words) < 2 else f"{words[0]} the {words[-1]}"
            return (
                f"Before it goes on to {act}, the agent reads the {what} back for the "
                "customer to confirm"
            )
        return None

    def rules(self, topic: str | None = None, limit: int = 2, *, strict: bool = False) -> None:
        for text in self.picked_rules(topic, limit, strict=strict):
            self.criterion(text)

    def picked_rules(
        self, topic: str | None = None, limit: int = 2, *, strict: bool = False
    ) -> list[str]:
        left = self.left_open()  # a rule on an ask left to the agent holds on no path
        memory = {k: v for k, v in self.walk.memory.items() if k not in left}
        rules = prose_rules(self.defs, self.skill, memory)
        # one that only says the skill ends gives way to the asserted completion, leaving
        # its place empty (not to a rule picked for the case's sake only)
        covered = {r.text for r in rules} - {r.text for r in self.unasserted(rules, self.skill.id)}
        # a pointer names only what this case's user asked for
        asked = self.request()
        rules = [replace(r, text=narrowed(r, asked, self.skill)) if r.pointer else r for r in rules]
        # a branch chance decides is no branch the case fixes: its rules come paired
        # (`chance_rule`), never alone
        keys = chance_keys(self.project, self.skill.id)
        rules = [r for r in rules if not on_chance(r.condition, keys)]
        # a number the rule spells out that a response the runtime sends gives in digits
        replies = [self.defs.response(n) for n in self.walk.utters()]
        sent = [v.text or "" for r in replies if r is not None for v in r.variants]
        picked = [t for t in pick(rules, topic, limit, strict=strict) if t not in covered]
        # a rule that follows an outside call in its paragraph holds where that call succeeds
        ran = [e.tool for e in self.walk.tools() if e.tool and not e.error]
        before = {r.text: r.preceded for r in rules}
        picked = [after_outside_call(self.project, t, before.get(t, ""), ran) for t in picked]
        # an id no data file holds, looked up outside: what is told of it holds where found
        unheld = list(self.script.unheld.values())
        picked = [on_unknown_id(self.project, t, ran, unheld) for t in picked]
        # a pick from a list the user is read out (they have no number): holds where it lists one
        listing = lacked_listing(self.project, self.skill.id, dict(self.facts))
        if listing is not None:
            picked = [on_listed(t, *listing) for t in picked]
        # a prohibition a reply the runtime sends on the path could be read as breaking
        return [allowing_reply(either_form(text, sent), sent) for text in picked]

    def chance_rule(self) -> str | None:
        """The skill's first rule on a branch chance decides, with the other branch's."""
        keys = chance_keys(self.project, self.skill.id)
        return paired_rule(self.project, self.skill.id, self.walk.memory, keys) if keys else None

    def request(self) -> str:
        """What the case's user opens with ("" where the script has no opening)."""
        context = getattr(self.script, "context", None)
        return str(getattr(context, "opening", "") or "")

    def given_before(self, at: int) -> dict[str, object]:
        """The values the customer gave before the turn at ask `at`: in the opening and in
        answers to the asks before it."""
        given: dict[str, object] = {
            **(self.facts.get("request_values") or {}),
            **self.script.stated,
        }
        for ask in self.walk.asks[:at]:
            if ask.field and ask.kind != "confirm" and _said(ask.value):
                given[ask.field] = ask.value
        return given

    def identity_criterion(self, walk: Walk) -> str | None:
        ask = next((a for a in walk.asks if a.kind == "identity"), None)
        if ask is None:
            return None
        details = " and ".join(ask.details) or "identity"
        return f"The agent checks the customer's {details} before it shares or changes anything"

    def completion_claim(self, walk: Walk) -> str | None:
        gated = [t for t in self.gated() if walk.tools(t)]
        if not gated:
            return None
        return (
            f"The agent does not tell the user it is done before {' or '.join(gated)} has succeeded"
        )

    def asks_again(self, walk: Walk) -> str | None:
        """ "Does not ask again" for the values the customer gave before a `collect` step
        of the path that waits for them: the runtime skips a step already filled, so only
        there do the definitions fix that a correct agent asks once (whether it asks the
        prose's or a step's own question twice they leave to the model)."""
        asked = [a for a in walk.asks if a.kind in ("collect", "ask_field", "instructions")]
        if len(asked) < 2:
            return None
        collected = self.collected_answers(walk)
        asked = [a for a in asked if a.field in collected]
        if not asked:
            return None
        excused: list[str] = []
        if any(a.kind == "confirm" for a in walk.asks) or "confirm" in self.skill.body.lower():
            # the runtime asks before a gated tool even where the prose asked for consent,
            # and prose may have the agent confirm in its own words too: neither is asking again
            excused.append(
                "asking to confirm before the action, in its own words or with the "
                "confirmation question"
            )
        if (self.facts.get("ambiguity") or {}).get("field"):
            # the case is about asking again: an answer that fits two values is no answer
            # (the field unnamed: a criterion naming it reads as restating its collect step)
            excused.append("asking which one they mean after an answer that fits two values")
        offered = offers(self.skill, walk.memory)
        if len(offered) > 1:
            # the skill itself offers more than once on this path ("offer a speed test", then
            # "offer to run diagnostics again"): a correct agent may ask a second time
            said = " or ".join(o.removeprefix("whether you want ") for o in offered)
            excused.append(f"asking whether they want {_their(said)}")
        again = self.asked_again_for(walk) | self.asked_twice_by_design(walk)
        again.add(str((self.facts.get("ambiguity") or {}).get("field")))
        # name only the details no result on this path can send the agent back for
        kept = [a.field for a in asked if a.field and a.field not in again and _said(a.value)]
        if not kept:
            return None
        what = " and ".join(f"the {value_words(k.split('.', 1)[-1])}" for k in dict.fromkeys(kept))
        lead = f"The agent does not ask again for {what}, which the customer already gave"
        if not excused:
            return lead
        verb = "does" if len(excused) == 1 else "do"
        return f"{lead} ({', and '.join(excused)}, {verb} not count, even twice)"

    def collected_answers(self, walk: Walk) -> set[str]:
        """The fields a `collect` step of a block the path enters waits for whose value the
        customer gave before the step came (to the prose's question, a step's
        instructions): the runtime finds them filled and skips the step."""
        entered = {e.block for e in walk.events if e.kind == "block_entered" and e.skill}
        collected = {
            qualify(str(step.target), self.skill.id)
            for block_id, block in self.skill.blocks.items()
            if block_id in entered
            for step in block.steps
            if step.kind == "collect"
        }
        return {
            str(a.field)
            for a in walk.asks
            if a.field in collected and a.kind != "collect" and _said(a.value)
        }

    def asked_twice_by_design(self, walk: Walk) -> set[str]:
        """The fields the path asks for whose value the customer already gave in answer to
        another ask, the sign-in's or an earlier one of the path (an error code the symptom
        already held, a damaged area the description named): a step that asks for it anyway
        is the skill's own design, and a correct agent following it asks again."""
        prelude = getattr(self.script, "prelude", None)
        earlier = list(prelude.asks) if prelude is not None and prelude is not walk else []
        out: set[str] = set()
        for ask in walk.asks:
            value = str(ask.value).lower() if isinstance(ask.value, str | int) else ""
            given = ask.field and _said(ask.value) and len(value) >= _GIVEN_LEAST
            if given and any(
                e.field != ask.field and _said(e.value) and value in str(e.value).lower()
                for e in earlier
            ):
                out.add(str(ask.field))
            earlier.append(ask)
        return out

    def asked_again_for(self, walk: Walk) -> set[str]:
        """The fields the path asks for that a tool it runs looks up on a service outside
        the agent and can come back unresolved on (`OutsideEffect.resolves`): whether the
        service knows the value no case can tell, and on that result a correct agent asks
        for it again (a tool on the project's own data resolves the case's value or not,
        as the walk ran it)."""
        out: set[str] = set()
        for event in walk.tools():
            tool = self.defs.tools_for(event.skill or walk.skill).get(event.tool or "")
            effect = outside_effect(self.project, tool) if tool is not None else None
            if effect is None:
                continue
            for ask in walk.asks:
                if ask.field and ask.field.rsplit(".", 1)[-1] in effect.resolves:
                    out.add(ask.field)
        return out

    def answers_only(self, walk: Walk) -> bool:
        """A path of a skill without `complete_when` whose mode runs no tool and waits for
        nothing the walk cannot give (guidance such as "the leasing office can let you in"):
        its success is that the skill finishes, which the runtime records."""
        return (
            walk.outcome == "done"
            and not walk.completed
            and not (self.skill.complete_when or {}).get("condition")
            and not walk.tools()
            and not [s for s in walk.expected if s.startswith("tool:")]
            and not self.skill.is_handoff
            and walk.handoff is None
        )

    def declared(self, keys: list[str]) -> list[str]:
        names = self.defs.memory_names()
        return [k for k in keys if k in names]

    def lean_facts(self, walk: Walk) -> None:
        """The task still gets done: activation, completion, the values, the terminal tool."""
        self.add(skill_check("skill_activated", walk.skill))
        if walk.completed:
            self.add(skill_check("skill_completed", walk.skill))
        items = self.memory_items(walk, self.chosen_keys(walk))
        if items:
            self.add({"memory_was_set": items})
        tools = self.terminal_runs(walk) or self.main_tools(walk) or self.success_runs(walk)
        if tools:
            self.add(tool_check(tools[-1], skill=walk.skill, is_error=tools[-1].error))

    def carries_on(self, walk: Walk) -> bool:
        """Whether there is an original request left to come back to after the turn."""
        return walk.completed or bool(self.main_tools(walk)) or len(walk.asks) > 1

    def direction(self) -> None:
        spec = self.facts.get("direction") or {}
        if not spec:
            return
        everything = Walk(
            self.walk.skill,
            events=[*self.walk.events, *(self.script.other.events if self.script.other else [])],
        )
        activated = {e.skill for e in everything.events if e.kind == "skill_activated"}
        completed = {e.skill for e in everything.events if e.kind == "skill_completed"}
        ran = {e.tool for e in everything.tools() if not e.error}
        for requirement in spec.get("requirements") or []:
            check, target, text = requirement["check"], requirement["target"], requirement["text"]
            if check == "skill_completed" and (
                target in completed or (target == self.walk.skill and self.script.kind == "refusal")
            ):
                self.add(skill_check("skill_completed", target))
            elif check == "skill_activated" and target in activated:
                self.add(skill_check("skill_activated", target))
            elif check == "tool_executed" and target in ran:
                event = next(e for e in everything.tools(target) if not e.error)
                self.add(short_tool(event))
            elif check == "tool_not_executed" and target not in ran:
                self.criterion(f"{target} is never called")
                constraint = self.defs.skills[self.walk.skill].tool_constraints.get(target)
                if constraint is not None and constraint.on_success:
                    self.add({"bot_did_not_utter": {"utter_name": constraint.on_success}})
            else:
                self.criterion(text[:1].upper() + text[1:] if check else text)


def _their(text: str) -> str:
    """An offer's words to the customer ("your router") as words about them."""
    return " ".join({"you": "they", "your": "their"}.get(w, w) for w in text.split())


#: The shortest value counted as given inside another answer ("E21"; not "1" or "no").
_GIVEN_LEAST = 3


def _said(value: object) -> bool:
    """A value the customer named (not a yes/no, not one the walk could not know)."""
    return value is not None and value is not SET and not isinstance(value, bool)


__all__ = ["GoalPieces"]
