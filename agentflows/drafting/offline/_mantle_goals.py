"""Criteria and assertions for one offline Mantle draft, per behaviour.

Assertions are the non-negotiable facts of the behaviour, read off the walk's events (so every
id and value is real and every check holds for an agent that does what the definition says):
skills activated and completed, the ordered block completed, the values recorded, the tools
run (with the arguments the behaviour fixes and `is_error`), the responses uttered or never
uttered, memory the path avoids, and a `sequencing` of the allowed steps where order matters.
Of a call on a service outside the agent, only the call and its arguments: never what the
service answers, nor what the path reaches only on that answer (`_mantle_answers`).

- happy path: the success signal the walk reaches (terminal tool without error, its success
  response, `skill_completed`) and nothing that contradicts it;
- refused confirmation: the gate's confirmation question and denial response, never the
  success response, never the tool's written memory;
- tool failure: the failing run, the failure response, never the success response or memory.

Criteria are a few bot-side deal-breakers a judge has to read the conversation for, taken from
the skill's prose rules and the path (`_mantle_criteria`); never a restatement of an assertion.
"""

from __future__ import annotations

from evalcore.definitions import Project, Step
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import (
    asks_before,
    lacked_in_cue,
    paragraphs,
    recorded_early,
    sentences,
    set_from_answer,
    skill_model,
)
from evalcore.lexicon.en.skill_prose import UNLESS_SAID
from evalcore.lexicon.en.user_line_words import SECOND_TO_THIRD as _THEIRS
from evalcore.testdata import account_of

from ...planning.mantle_offers import declining_detour, failure_outcome, qualify, request_phrase
from ._direction import value_words
from ._mantle_after import after_negative, branch_responses
from ._mantle_answers import approved_calls, without_answers
from ._mantle_asked import prose_asks_first
from ._mantle_branch_says import branch_says
from ._mantle_chance import chance_keys, chance_skills, responses_of, without_skills
from ._mantle_checks import Check, short_tool, skill_check, tool_check
from ._mantle_clock_branch import clock_branch
from ._mantle_condition_words import condition_words
from ._mantle_criteria import (
    declines,
    directs_elsewhere,
    first_rule,
    keeps_back_why,
    leak_rule,
    off_topic_rule,
    pick,
    prose_rules,
)
from ._mantle_facts import _offer_label, confirms_by_read_back, gate_words
from ._mantle_flag_offer import flag_offer
from ._mantle_goal_pieces import GoalPieces
from ._mantle_held import lacked_listing
from ._mantle_mismatch import writes_false
from ._mantle_questions import answer_criterion
from ._mantle_readout import readout_criterion
from ._mantle_record_answer import record_answer
from ._mantle_rule_fixed import block_literals, case_fixes, tool_values
from ._mantle_script import Script, shared_records
from ._mantle_sections import section_criterion
from ._mantle_testdata import unrelated_for
from ._mantle_topic import other_request_criteria, topic_tools

#: The longest branch paragraph a criterion quotes whole.
_QUOTED = 160


class Goals(GoalPieces):
    # --- behaviours ----------------------------------------------------------------------

    def build(self) -> tuple[list[str], list[Check]]:
        kind = self.script.kind
        if kind == "escalation":
            self.escalated()
        else:
            getattr(self, f"_{kind}", self._happy)()
        if kind == "aside":  # what the skill does because the flag answered yes holds
            self.criterion(flag_offer(self.skill, self.facts.get("aside")))
        # a call the run's clock decides (business hours) is no assertion: either side is
        self.criterion(clock_branch(self.project, self.skill, self.walk.memory))
        # what a skill reached only on a branch chance decides does is no fact of the case
        keys = chance_keys(self.project, self.skill.id)
        drawn = chance_skills(self.project, self.skill.id, keys)
        if self.script.other is not None:
            drawn -= {self.script.other.skill}
        self.assertions = without_skills(self.assertions, drawn | responses_of(self.project, drawn))
        if kind != "failure":  # a failure case asserts the error run it is about
            before = list(self.assertions)
            self.assertions, conditional = without_answers(
                self.project,
                self.walk,
                self.assertions,
                self.answered_keys(),
                approved_calls(self.project, self.walk) if kind != "refusal" else frozenset(),
            )
            for text in conditional:
                self.criterion(text)
            if kind == "refusal":
                self.keep_gate_messages(before)
        # last: what the person asked for is theirs to ask, service answers included (their
        # run may point the service at a sandbox)
        self.direction()
        return self.criteria, self.assertions

    def _happy(self) -> None:
        walk = self.walk
        if self.skill.is_handoff or walk.outcome == "handoff":
            self.handed_over(walk, self.script.walk)
            return
        self.path_facts(walk)
        said = self.block_utters(walk)
        instructed = any(" does not " not in r for r in self.picked_rules())
        # where the prose sends the user elsewhere, that pointer is the answer to check
        opening = self.script.context.opening or ""
        rules = prose_rules(self.defs, self.skill, walk.memory)
        directed = directs_elsewhere(rules, opening, self.skill)
        self.criterion(directed[0] if directed else None)
        # a question the skill's notes answer: the answer must agree with their entry
        answer = answer_criterion(self.project, self.skill, shared_records(self.project), opening)
        if answer is None and self.answers_only(walk):
            # a how-to question the skill's own text answers under a heading: that section
            answer = section_criterion(self.skill, opening)
        self.criterion(answer)
        # the caller's own records, where the prose says to present what the tool read
        self.criterion(
            readout_criterion(self.skill, shared_records(self.project), self.script.customer)
        )
        self.criterion(self.record_values())
        if self.answers_only(walk) and not (
            said or instructed or directed or answer or declines(self.skill)
        ):
            # no `complete_when`: the model decides when it is done, so the answer is the
            # success a correct agent gives, not the skill's completion (where a fixed
            # response is the answer, or the skill is there to decline, it says nothing;
            # where the prose says what to answer, that is the criterion)
            # the branch's own paragraph, where it has one: its answer may be a referral
            taken = {e.skill for e in walk.events if e.skill} | {e.tool for e in walk.tools()}
            self.criterion(
                branch_says(self.skill, walk.memory, {t for t in taken if t})
                or "The agent answers the customer's request itself instead of declining or "
                "deflecting it"
            )
        if said:
            self.add({"bot_uttered": {"utter_name": said[-1]}})
        for name in self.rule_utters()[:2]:
            self.add({"bot_uttered": {"utter_name": name}})
        for asked in self.collect_utters(walk)[:3]:  # the framework asks a collect step
            self.add({"bot_uttered": {"utter_name": asked}})
        for event in self.terminal_runs(walk) + [e for e in walk.tools() if not e.error]:
            success = self.response_of(event.tool or "", "on_success")
            if event.skill == walk.skill and self.uttered(walk, success):
                self.add({"bot_uttered": {"utter_name": success}})
        if not self.terminal_runs(walk):
            self.reached(walk)
        if len(self.assertions) == 1:  # nothing but the activation: say what it answers
            last = [u for e in walk.events if e.kind == "utter" and (u := e.utter)]
            if last:
                self.add({"bot_uttered": {"utter_name": last[-1]}})
        unset = self.avoided(walk)
        if unset:
            self.add({"memory_was_not_set": unset})
        for name in self.blocked_responses(walk)[:2]:  # tools the path never runs
            self.add({"bot_did_not_utter": {"utter_name": name}})
        for name in self.rival_confirmations(walk)[:1]:  # a sibling branch's gated act
            self.add({"bot_did_not_utter": {"utter_name": name}})
        for name in self.rival_successes(walk)[:1]:  # a sibling branch's act the gate allows
            self.add({"bot_did_not_utter": {"utter_name": name}})
        self.add_sequence(self.sequence(walk))
        self.criterion(self.identity_criterion(walk))
        self.criterion(self.completion_claim(walk))
        confirms = self.confirms_outside(walk)
        self.criterion(confirms)
        self.criterion(self.chance_rule())
        # the read-back is what this conversation can show: one prose rule beside it
        self.rules(limit=1 if confirms else 2)
        self.criterion(self.asks_again(walk))

    def keep_gate_messages(self, before: list[Check]) -> None:
        """A refusal case keeps the gate's question and its answer to the decline where they
        follow an outside write's answer (a restock order behind the count the service
        saved): without them nothing shows the gate was reached, and an agent that never
        offers the order passes. The case then holds only where that service accepts, as
        its `# outside service:` note says of the earlier call."""
        tool = str(self.facts["tool"])
        gate = {
            self.response_of(tool, a) for a in ("utter_for_confirmation", "utter_on_user_denial")
        }
        for check in before:
            said = (check.get("bot_uttered") or {}).get("utter_name")
            if said and said in gate and check not in self.assertions:
                self.assertions.append(check)

    def _refusal(self) -> None:
        tool = str(self.facts["tool"])
        walk = self.walk
        self.add(skill_check("skill_activated", walk.skill))
        items = self.memory_items(walk, self.chosen_keys(walk))
        items += [{"name": k} for k in self.answered_before(walk, tool) if {"name": k} not in items]
        items = [i for n, i in enumerate(items) if i["name"] not in [j["name"] for j in items[:n]]]
        if items:
            self.add({"memory_was_set": items})
        # the gate's own question and its answer to the decline show the refusal happened
        # at the gate the case is about (a case that never reaches it fails them), where
        # nothing before the gate has the agent take a yes or no of its own: a decline
        # there never reaches the gate
        if self.go_ahead_first(tool):
            # the decline belongs at the agent's own question there: the context names no
            # runtime question for the user to hold the decline for
            self.script.context.gate_question = self.script.context.gate_tool = None
        else:
            for attribute in ("utter_for_confirmation", "utter_on_user_denial"):
                said = self.response_of(tool, attribute)
                if said:
                    self.add({"bot_uttered": {"utter_name": said}})
        # and what every correct agent does after it: the success and writes never come
        success = self.response_of(tool, "on_success")
        if success:
            self.add({"bot_did_not_utter": {"utter_name": success}})
        unset = self.written(walk) | self.failure_writes(tool, walk.skill)
        writes = self.declared(
            [
                k
                for k in self.tool_writes(tool, walk.skill)
                if k not in unset and not self.model_sets(k)
            ]
        )
        if writes:
            self.add({"memory_was_not_set": [{"name": k} for k in writes]})
        self.add_sequence(self.sequence(walk))
        # What every correct agent does and one that never tries the action does not: it
        # asks before the gated action (in prose first, or the gate's own question).
        self.criterion(self.asks_to_confirm(tool))
        # No Mantle check says "never ran", and a tool run is no part of the transcript a
        # judge reads: the criterion says it only where no response or write the tool leaves
        # is asserted absent
        if not success and not writes:
            self.criterion(f"{tool} never runs after the customer declines")
        # The gated action, not the whole request: work done before the gate (a count
        # recorded) stands, and the denial response may say so. Nothing in Mantle defines
        # "pushing" after a no (the denial response itself may point to a later try), so no
        # criterion says it.
        self.criterion(
            f"After the customer declines, the agent does not say it went on to {self.act(tool)}"
        )
        self.rules("refusal", limit=1, strict=True)

    def record_values(self) -> str | None:
        """On a path that only reads (no gated tool runs), the values of the record the
        user names that the prose calling the lookup has the agent give
        (`_mantle_record_answer`)."""
        walk = self.walk
        ran = [e.tool for e in walk.tools() if e.tool and not e.error]
        gates = self.skill.tool_constraints
        if not ran or any(gates[t].requires_confirmation for t in ran if t in gates):
            return None
        # a lookup on a service outside the agent (an MCP server) answers from that service,
        # not from the project's files: which values it gives no file of the project fixes
        ran = [e.tool for e in walk.tools() if e.tool and not e.error and e.source != "mcp"]
        named = [f.value for f in self.script.sheet.facts]
        named += [*self.script.stated.values(), *(self.facts.get("request_values") or {}).values()]
        records = shared_records(self.project)
        return record_answer(self.skill, records, self.project.root, ran, walk.memory, named)

    def go_ahead_first(self, tool: str) -> bool:
        """Whether the skill has the agent take the user's go-ahead before `tool`'s gate
        asks, so the user's decline comes there and the gate never speaks: its `requires`
        reads a flag the model sets on the user's yes (`handoff_confirmed`), or a sentence
        that calls it asks first ("Confirm they understand settings will be erased, then
        call …"). Not a flag set from a tool's result ("set permission_ok from its result":
        no question at all), nor one set when the user agrees to a read-back of the details
        (`details_verified`): the simulated user agrees there and declines at the gate."""
        use = skill_model(self.project, self.skill.id).tool(tool)
        if use is None:
            return False
        names = self.defs.memory_names()
        read_back = {a.field for a in self.walk.asks if confirms_by_read_back(self.defs, a)}
        said = [s.text for s in sentences(self.skill.body)]
        for key in use.gate.requires_keys if use.gate is not None else ():
            field = names.get(key)
            bool_flag = field is not None and field.type == "bool"
            if not bool_flag or not (field.llm_settable or self.model_sets(key)):
                continue
            if key in read_back or any(set_from_answer(field, text) for text in said):
                continue
            return True
        return any(asks_before(c.sentence or "", tool) for c in use.calls)

    def asks_to_confirm(self, tool: str) -> str:
        """The criterion that the agent asks before the gated action: the gate's
        `requires_confirmation` makes a correct agent ask before `tool` runs, whether in its
        own words or with the gate's question, so the case shows the action was reached
        before it was refused."""
        return (
            f"The agent asks the customer to confirm before it goes on to {self.act(tool)} "
            "(in its own words or with the confirmation question)"
        )

    def act(self, tool: str) -> str:
        """`tool`'s gated action in words: the confirmation question's, else the tool's."""
        ask = next((a for a in self.walk.asks if a.kind == "confirm" and a.tool == tool), None)
        act = gate_words(ask) if ask is not None else None
        act = _customer_side(act or value_words(tool))
        thing = value_words(tool).split()[-1]
        if act.endswith(" it") and thing not in act.split():
            act = f"{act[:-3]} the {thing}"  # "factory-reset it": the value filled in at the end
        return act

    def _cue(self) -> None:
        """The happy path of the alternative the user's cue asks for, and that the skill
        stops there: what the tools the plain path runs would write stays unwritten."""
        self._happy()
        skips = [str(t) for t in (self.facts.get("cue") or {}).get("skips") or []]
        if lacked_in_cue(str((self.facts.get("cue") or {}).get("said") or "")) is not None:
            # no order number: once they pick one of the orders listed, the plain call may
            # look it up, so what it writes and the call itself may still come
            skips = []
        written = self.written(self.walk)
        keys = [k for t in skips for k in self.tool_writes(t, self.skill.id) if k not in written]
        if keys:
            self.add({"memory_was_not_set": [{"name": k} for k in dict.fromkeys(keys)][:2]})
        ran = (self.facts.get("cue") or {}).get("tools") or []
        if topic_tools(self.project, self.skill.id, ran):
            # the request one paragraph is about: the others' rules are no part of it, and
            # serving them too is no fault
            other = other_request_criteria(self.project, self.skill.id, self.criteria, skips)
            self.criteria = [c for c in self.criteria if c not in other]
        elif skips:  # the last tool the plain path runs: the one that does the skill's work
            self.criterion(f"The agent does not go on to {skips[-1]} after {ran[0]}")
        self.criterion(self.cue_paragraph_rule([str(t) for t in ran]))
        listing = lacked_listing(self.project, self.skill.id, dict(self.facts))
        if listing is not None:  # "otherwise list their open orders … and ask which one"
            tool, things = listing
            self.criterion(
                f"If {tool} lists more than one of their {things}, the agent asks which one"
            )
        offered = self.offered_rules([str(t) for t in ran])
        self.criteria = [c for c in self.criteria if c not in offered]

    def offered_rules(self, ran: list[str]) -> set[str]:
        """The prose's rules that the agent offers a call the user asks for outright ("Offer
        to send an upload link with @tool.send_upload_link" where the user's opening asks
        for the link): a correct agent may just make the call, with no offer first."""
        offers = [
            t
            for t in ran
            for part in sentences(self.skill.body or "")
            if f"@tool.{t}" in part.text and _offer_label(part.text) is not None
        ]
        names = [value_words(t) for t in offers]
        return {
            r.text
            for r in prose_rules(self.defs, self.skill, self.walk.memory)
            if any(n in r.text for n in names)
        }

    def cue_paragraph_rule(self, ran: list[str]) -> str | None:
        """The prohibition of the paragraph that makes the call the user's cue asks for ("Use
        @tool.lookup_coverage only to say what the policy covers in general words ... Never
        say whether this loss will be paid, how much, ..."): how not to answer the question
        the case is about, which an agent that answers it badly fails. (Its acts may rest on
        what a lookup finds, "point them to that channel": not those.)"""
        calls = [f"@tool.{t}" for t in ran]
        texts = [
            " ".join(p.text.lower().split())
            for p in paragraphs(self.skill.body)
            if any(c in p.text for c in calls)
        ]
        if not texts:
            return None
        for rule in prose_rules(self.defs, self.skill, self.walk.memory):
            tail = " ".join(rule.text.lower().split()[-6:])
            if rule.prohibition and any(tail in text for text in texts):
                return rule.text
        return None

    def _failure(self) -> None:
        tool = str(self.facts["tool"])
        walk = self.walk
        self.add(skill_check("skill_activated", walk.skill))
        failed = [e for e in walk.tools(tool) if e.error]
        if failed:
            # a tool that raises or marks its result `is_error` fails as an error run; one
            # that returns an `error` field in a normal result (claim not found) does not,
            # so the run is asserted without `is_error`
            model = skill_model(self.project, walk.skill)
            use = model.tool(tool) if model is not None else None
            errors = use.error_results if use is not None else []
            soft = bool(errors) and not any(
                e.startswith(("raises", "returns is_error")) for e in errors
            )
            # only where an input carries the failure (an id not on file): with none, no
            # real run fails, and the case keeps the error run verification cannot play
            soft = soft and any(
                account_of({str(v)}) == "failing" for v in failed[-1].arguments.values()
            )
            self.add(tool_check(failed[-1], skill=walk.skill, is_error=None if soft else True))
        failure = self.response_of(tool, "on_failure")
        success = self.response_of(tool, "on_success")
        if failure:
            self.add({"bot_uttered": {"utter_name": failure}})
        if success:
            self.add({"bot_did_not_utter": {"utter_name": success}})
        unset = self.written(walk) | self.failure_writes(tool, walk.skill)
        writes = self.declared([k for k in self.tool_writes(tool, walk.skill) if k not in unset])
        if writes:
            self.add({"memory_was_not_set": [{"name": k} for k in writes]})
        outcome = failure_outcome(self.project, walk.skill, tool) if failed else None
        if outcome is not None:  # the error branch's own writes, which the prose reads
            self.add(
                {"memory_was_set": [{"name": k, "value": v} for k, v in outcome.writes.items()]}
            )
        steps: list[Check] = [skill_check("skill_activated", walk.skill)]
        steps += [short_tool(e) for e in self.main_tools(walk)]
        self.add_sequence(steps)
        if outcome is not None:
            # a defined outcome: what the skill's paragraph for it says (each of its rules),
            # not "did not go through"; no "not again" either, as the prose calls the tool
            # whenever its input is set, and a confirmed input sets it again
            memory = {**self.walk.memory, **outcome.writes}
            rules = prose_rules(self.defs, self.skill, memory)
            own = [r.text for r in rules if r.condition == outcome.condition]
            said = condition_words(outcome.condition)
            if said and len(outcome.text) <= _QUOTED:
                # the paragraph whole: its rules alone may leave out a clause ("and ask
                # them to confirm it") that is the point of the branch
                own = [f'When {said}, the agent does what the skill says: "{outcome.text}"']
            for text in own:
                self.criterion(text)
            general = [r for r in rules if r.condition is None and r.text not in own]
            self.criterion(next(iter(pick(general, "failure", 1)), None))
            return
        what = request_phrase(self.skill)
        self.criterion(f"The agent does not say {what} went through")
        self.criterion("The agent tells the customer plainly that it did not go through")
        self.criterion(f"The agent does not call {tool} again without the customer asking")
        self.rules("failure", limit=1)

    def _negative(self) -> None:
        branch = self.facts["branch"]
        walk = self.walk
        skill = self.skill
        self.add(skill_check("skill_activated", walk.skill))
        tool = str(branch["tool"])
        runs = walk.tools(tool)
        if runs:
            self.add(tool_check(runs[-1], skill=walk.skill, is_error=False))
        keys = list((self.facts.get("negative") or {}).get(tool) or [])
        falsy = [
            {"name": e.key, "value": False}
            for e in walk.events
            if e.kind == "memory"
            and e.key in keys
            and e.value is False
            # never a flag the tool's code only ever writes true: a negative check leaves it
            and writes_false(self.project, walk.skill, tool, e.key)
        ]
        if falsy:
            self.add({"memory_was_set": [f for i, f in enumerate(falsy) if f not in falsy[:i]]})
        for check in after_negative(skill, walk, tool):
            self.add(check)
        block = skill.blocks[str(branch["block"])]
        target = block.step(str(branch["target"]))
        if target is not None and target.kind == "action":
            self.add({"bot_uttered": {"utter_name": str(target.target)}})
        step = block.step(str(branch["step"]))
        positive = next(
            (
                b.target
                for b in (step.next if step and isinstance(step.next, list) else [])
                if b.condition
            ),
            None,
        )
        positive_step = block.step(positive) if positive else None
        if positive_step is not None:
            name = (
                positive_step.fields.get("utterance")
                if positive_step.kind == "collect"
                else positive_step.target
                if positive_step.kind == "action"
                else None
            )
            if name:
                self.add({"bot_did_not_utter": {"utter_name": str(name)}})
        unset = self.avoided(walk)
        unset += [{"name": k} for k in self.success.keys if {"name": k} not in unset]
        unset = [u for u in unset if u["name"] not in self.written(walk)]
        if unset:
            self.add({"memory_was_not_set": unset})
        if self.facts.get("numbers_decide"):
            # the user's numbers take the other branch: an outcome, nothing that failed
            if positive:
                self.criterion(f"The agent does not go on to {value_words(str(positive))}")
            return
        if not keeps_back_why(prose_rules(self.defs, skill, walk.memory)):
            # where the skill forbids saying which detail failed, an explanation beyond its
            # own response is what a judge could fail a correct agent for
            self.criterion("The agent explains in plain words why it cannot go ahead")
        self.criterion(f"The agent does not carry on as if {tool} had come back positive")
        if any(s.is_handoff for s in self.defs.skills.values()):
            self.criterion("The agent offers to put the customer through to a person")
        self.rules("negative", limit=1)

    def _collect_step(self, key: str) -> Step | None:
        """The block step of the skill that `collect`s `key`, if any."""
        return next(
            (
                s
                for b in self.skill.blocks.values()
                for s in b.steps
                if s.kind == "collect" and qualify(str(s.target), self.skill.id) == key
            ),
            None,
        )

    def _recorded_early(self, key: str) -> bool:
        """Whether the skill tells the agent to record `key` from what the user already
        said: the opening comes before the block starts, so only then does the block's
        question surely stay unasked (the criterion says the rest)."""
        field = self.defs.memory_field(key)
        return field is not None and any(
            recorded_early(field, s.text) for s in sentences(self.skill.body or "")
        )

    def _kept_from_opening(self) -> dict[str, str]:
        """Label -> key of the skill's facts the first message says word for word (the loss
        in the caller's words, "A tree came down on the roof.") that the prose tells the
        agent to keep once told ("If they already told you what happened, keep it and do
        not ask again"): the not-asked-again check a details-up-front case is for."""
        opening = " ".join((self.script.context.opening or "").split()).lower()
        out: dict[str, str] = {}
        for fact in self.script.sheet.facts:
            key, said = fact.field or "", " ".join(str(fact.value).split()).lower()
            if not key.startswith(self.skill.id + ".") or len(said.split()) < 3:
                continue
            if said.rstrip(".") in opening and self._recorded_early(key):
                out[fact.label] = key
        return out

    def _kept_when_said(self, key: str) -> bool:
        """Whether the prose keeps `key` once the user said it ("unless they already gave
        it", "record it instead of letting the block ask again")."""
        spec = skill_model(self.project, self.skill.id).field(key)
        texts = [*(spec.sentences if spec else []), (spec.question if spec else None) or ""]
        return self._recorded_early(key) or any(UNLESS_SAID.search(t) for t in texts if t)

    def _collected_elsewhere(self, key: str) -> bool:
        """Whether another skill's block collects a value of the same name under its own key
        (the identity check's `policy_number`): its step asks for it whatever the first
        message gave, so "does not ask again" cannot hold for it."""
        name = key.split(".", 1)[-1]
        return any(
            step.kind == "collect" and str(step.target).split(".")[-1] == name
            for other in self.defs.skills.values()
            if other.id != self.skill.id
            for block in other.blocks.values()
            for step in block.steps
        )

    def _out_of_order(self) -> None:
        walk = self.walk
        self.path_facts(walk)
        given = self.facts.get("given") or {}
        collected: set[str] = set()
        for key in given:
            step = self._collect_step(key)
            if step is not None:
                collected.add(key)
            if step is not None and step.fields.get("utterance") and self._recorded_early(key):
                self.add({"bot_did_not_utter": {"utter_name": str(step.fields["utterance"])}})
        self.add_sequence(self.sequence(walk))
        for key in given:
            words = value_words(key.split(".", 1)[1])
            if key in collected:  # the runtime skips a `collect` step already filled
                self.criterion(f"The agent does not ask for the {words} the customer already gave")
            else:  # the model's step (or a prose "Ask which window suits them") may still
                # present the choice or confirm it; making the user give it afresh is wrong
                self.criterion(
                    f"The agent does not make the customer give the {words} again from "
                    "scratch (proposing or confirming the one already given is fine)"
                )
        # the held details the first message lists besides (`Script.told`): a collect step
        # is skipped only where the model wrote the value, so a judge reads it
        kept = self._kept_from_opening()
        for key in kept.values():  # the prose keeps it: the block's question never comes
            step = self._collect_step(key)
            if step is not None and step.fields.get("utterance"):
                self.add({"bot_did_not_utter": {"utter_name": str(step.fields["utterance"])}})
        # where the prose names what it keeps once told, the check is about that: another
        # detail is the model's to take from the first message or to ask again
        told = [*kept] + [
            label
            for label, key in self.script.told.items()
            if not self._collected_elsewhere(key)
            and key not in kept.values()
            and (not kept or self._kept_when_said(key))
        ]
        if told:
            listed = told[0] if len(told) == 1 else f"{', '.join(told[:-1])} and {told[-1]}"
            self.criterion(
                f"The agent does not ask again for what the first message gave ({listed}), "
                "though it may confirm it"
            )
        self.rules(limit=1)

    def _ambiguity(self) -> None:
        """The happy path's goals, first the one the case is for: an answer that fits two
        of a field's values is no answer; recording either before the customer states or
        confirms it would be a guess the conversation does not support. How the agent
        settles it (asking which, or proposing one to confirm) the definitions leave open."""
        spec = self.facts.get("ambiguity") or {}
        between = [value_words(v) for v in spec.get("between") or []]
        if spec.get("field") and len(between) == 2:
            words = value_words(str(spec["field"]).split(".", 1)[-1])
            # how to clarify the skill leaves to the model: asking which one, what is going
            # on (whose answer may fill a later step's free text first), or proposing one
            # for the customer to confirm; only recording a value nobody said is wrong
            article = "an" if words[:1].lower() in "aeiou" else "a"
            self.criterion(
                f"When the customer's first answer about the {words} fits both {between[0]} "
                f"and {between[1]}, the agent does not record {article} {words} the customer "
                "has not stated or confirmed"
            )
        self._happy()
        if spec.get("field"):
            cleared = self._cleared_by_clarifying(str(spec["field"]))
            self.assertions = [
                a for a in self.assertions if (a.get("bot_uttered") or {}) not in cleared
            ]

    def _cleared_by_clarifying(self, key: str) -> list[dict[str, str]]:
        """The questions of the free-text `collect` steps after the one for `key`: an agent
        that clarifies the vague answer by asking what is going on gets that text first, and
        the runtime then skips those steps."""
        out: list[dict[str, str]] = []
        after = False
        for block in self.skill.blocks.values():
            for step in block.steps:
                if step.kind != "collect":
                    continue
                target = qualify(str(step.target), self.skill.id)
                if target == key:
                    after = True
                    continue
                field = self.defs.memory_field(target)
                utterance = step.fields.get("utterance")
                if after and utterance and field is not None and field.type == "text":
                    out.append({"utter_name": str(utterance)})
        return out

    def _correction(self) -> None:
        spec = self.facts["correction"]
        key, wrong, right = str(spec["field"]), spec["from"], spec["to"]
        walk = self.walk
        self.add(skill_check("skill_activated", walk.skill))
        if walk.completed:
            self.add(skill_check("skill_completed", walk.skill))
        if spec["mode"] == "next_turn" and self._collect_step(key) is not None:
            # a `collect` step records the answer as given; a value an instructions step or
            # the prose sets the model may confirm first, and the correction comes next turn
            self.add(
                {"memory_was_set": [{"name": key, "value": wrong}, {"name": key, "value": right}]}
            )
        else:
            self.add({"memory_was_set": [{"name": key, "value": right}]})
        self.add({"memory_was_not_set": [{"name": key, "value": wrong}]})
        fed = [e for e in walk.tools() if right in _values(e.arguments)]
        for event in fed[-1:]:
            self.add(tool_check(event, skill=walk.skill, is_error=False))
        self.branch_taken(key, wrong, right, same_turn=spec["mode"] != "next_turn")
        self.goal_tools(walk)  # the task still gets done with the corrected value
        if spec["mode"] == "next_turn":
            self._ran_before_correction(key, right)
        steps: list[Check] = [{"memory_was_set": key}]
        if fed:
            steps.append(short_tool(fed[-1]))
        self.add_sequence(steps)
        words = value_words(key.split(".", 1)[1])
        self.criterion(
            f"The agent uses {value_words(right)} as the {words} from the correction "
            "on, not " + value_words(wrong)
        )
        self.criterion("The agent takes the correction without making the customer start over")

    def _ran_before_correction(self, key: str, right: object) -> None:
        """The `tool_executed` checks of a block's `execute_tool` steps that run between the
        step collecting `key` and the block's next question, without the argument the
        correction fixes: they ran with the wrong value before the user's next turn, and
        nothing says a correction sends the block back to run them again."""
        step = self._collect_step(key)
        if step is None:
            return
        block = next(b for b in self.skill.blocks.values() if step in b.steps)
        ran: set[str] = set()
        for later in block.steps[block.steps.index(step) + 1 :]:
            if later.kind == "execute_tool":
                ran.add(str(later.target))
            elif later.kind == "collect" or later.fields.get("complete_when"):
                break
        for check in self.assertions:
            body = check.get("tool_executed")
            if not isinstance(body, dict) or body.get("tool_name") not in ran:
                continue
            arguments = body.get("arguments")
            if isinstance(arguments, dict):
                kept = {k: v for k, v in arguments.items() if v != right}
                if kept:
                    body["arguments"] = kept
                else:
                    body.pop("arguments")

    def branch_taken(self, key: str, wrong: object, right: object, *, same_turn: bool) -> None:
        """Where a block branches on the corrected field, the branch the right value takes
        (the block's completion at its step, the responses the block says on its own) and,
        where the wrong value was never recorded, never the wrong branch's responses."""
        walk = self.walk
        at = next(
            (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == key), None
        )
        memory = {**walk.memory, key: right}
        said = branch_responses(self.defs, self.skill, key, memory)
        self.when_rules(key, wrong, right, same_turn=same_turn)
        if at is None or not said:
            return
        later = walk.events[at:]
        done = [e for e in later if e.kind == "block_completed" and e.skill == walk.skill]
        if done:
            self.add(self.block_done(walk.skill, done[-1].block, done[-1].step))
        uttered = {e.utter for e in later if e.kind == "utter"}
        for name in said:
            if name in uttered:
                self.add({"bot_uttered": {"utter_name": name}})
        if not same_turn:  # said before the correction came: the wrong branch ran
            return
        for name in branch_responses(self.defs, self.skill, key, {**memory, key: wrong}):
            if name not in said:
                self.add({"bot_did_not_utter": {"utter_name": name}})

    def rule_utters(self) -> list[str]:
        """The skill's own `utter:` rules the walk says: the runtime sends each verbatim on
        activation (`on: activate`, a briefing's intro) or as its `when:` comes true (the
        cryo-EM note once the instrument is the cryo-EM), whatever the model decides, so an
        agent that skips the branch's note fails."""
        walk = self.walk
        said = {e.utter for e in walk.events if e.kind == "utter" and e.skill == walk.skill}
        out: list[str] = []
        for rule in self.skill.utter:
            fires = rule.on == "activate" or (
                rule.when is not None
                and bool(evaluate(rule.when, walk.memory))
                and self.fixes(rule.when)
            )
            if fires and rule.response in said and rule.response not in out:
                out.append(rule.response)
        return out

    def fixes(self, condition: str) -> bool:
        """Whether the case itself makes `condition` true (`case_fixes`), not only the walk's
        stand-in for what a tool writes from a record."""
        walk = self.walk
        given = {**self.script.seeds, **self.told_values(walk)}
        for key, value in {
            **(self.facts.get("values") or {}),
            **(self.facts.get("given") or {}),
        }.items():
            given.setdefault(key, value)
        runs = [
            (e.skill, e.tool)
            for e in walk.tools()
            if e.skill and e.tool and not e.error and e.source != "mcp"
        ]
        literals, copied = tool_values(self.project, runs)
        named = [f.value for f in self.script.sheet.facts]
        named += [*self.script.stated.values(), *self.script.seeds.values()]
        named += list((self.facts.get("request_values") or {}).values())
        return case_fixes(
            condition,
            given=given,
            set_on_path=block_literals(self.defs, walk.skill, walk.elements),
            literals=literals,
            copied=copied,
            records=shared_records(self.project),
            named=named,
        )

    def when_rules(self, key: str, wrong: object, right: object, *, same_turn: bool) -> None:
        """The skill's `utter: when:` rules on the corrected field: the runtime says one as
        its condition comes true, so the right value's is said and, where the wrong value
        was never recorded, the wrong value's never is."""
        walk = self.walk
        said = {e.utter for e in walk.events if e.kind == "utter"}
        memory = {**walk.memory, key: right}
        for rule in self.skill.utter:
            if not rule.when or not {key, f"session.{key}"} & set(condition_keys(rule.when)):
                continue
            if evaluate(rule.when, memory) and rule.response in said:
                self.add({"bot_uttered": {"utter_name": rule.response}})
            elif same_turn and evaluate(rule.when, {**memory, key: wrong}):
                self.add({"bot_did_not_utter": {"utter_name": rule.response}})

    def _answered_by_lookup(self, block: str, key: str) -> bool:
        """Whether a tool of the skill runs before `block` starts while its step waits for
        `key` as a `collect`: the model may set the field from what the tool answered ("the
        status already shows the cancellation") and the step's question never comes."""
        step = self._collect_step(key)
        if step is None:
            return False
        walk = self.walk
        entered = next(
            (
                i
                for i, e in enumerate(walk.events)
                if e.kind == "block_entered" and e.skill == walk.skill and e.block == block
            ),
            None,
        )
        return entered is not None and any(
            e.kind == "tool" and e.skill == walk.skill and not e.error
            for e in walk.events[:entered]
        )

    def _confirm_cued(self, at: int) -> bool:
        """Whether the detour is cued on a confirmation the agent asks (the script cues a
        read-back as `you to confirm`): the step it stands for is not the only place a
        correct agent asks one, so the interruption's step is not pinned."""
        asks = self.walk.asks
        return at < len(asks) and (
            asks[at].kind == "confirm" or confirms_by_read_back(self.defs, asks[at])
        )

    def _digression(self) -> None:
        spec = self.facts["digression"]
        walk, other = self.walk, self.script.other
        step: str | None = str(spec.get("step") or "autonomous")
        block = spec.get("block")
        field = next((a.field for a in walk.asks[int(spec.get("at") or 0) :][:1] if a.field), None)
        if block and field and prose_asks_first(self.defs, self.skill, str(block), field):
            step = None  # the agent may ask it in its own words before the step does
        # the block still waits at one of its steps, but maybe not this one: the model may
        # fill its field from an answer it already has and never ask
        unpinned = bool(block and field and self._answered_by_lookup(str(block), field))
        # a cue that is a bare confirmation ("when the agent asks you to confirm") may come
        # at any step before this one: an agent may check what it heard, or ask the user to
        # accept a condition an instruction step explains, before the read-back it stands for
        confirmed = self._confirm_cued(int(spec.get("at") or 0))
        at = None if unpinned or confirmed else step
        self.add(skill_check("skill_interrupted", walk.skill, at))
        if other is not None:
            self.add(skill_check("skill_activated", other.skill))
            if other.completed:
                self.add(skill_check("skill_completed", other.skill))
        # the return is a resume where the detour's end is fixed (it completes by its own
        # rule, or ends on a question the user answers by asking to go back) and it never
        # starts this skill itself; else it may come as a fresh activation: no resume event
        closed = other is not None and (other.completed or self.script.closed_by_return)
        # a block parked at one of its steps holds its place: once the detour's work is
        # done the runtime offers to go on from that step, which the user takes
        held = block is not None and step not in (None, "autonomous") and not confirmed
        resumes = (closed or held) and not spec.get("leads_back")
        # at the step it waited on where the detour's end is fixed; a held block's return
        # names the skill only (the user may take the offer at another turn)
        back = at if closed else None
        if resumes:  # the block's own resume event says no more
            self.add(skill_check("skill_resumed", walk.skill, back))
        if walk.completed:
            self.add(skill_check("skill_completed", walk.skill))
        self.resumed_goal(walk)
        runs = self.resumed_runs(walk)
        after: list[tuple[int, Check]] = [
            (next(i for i, x in enumerate(walk.events) if x is e), short_tool(e)) for e in runs
        ]
        if not runs:  # a task whose goal is a record: its first write after the return
            after += [(i, {"memory_was_set": key}) for i, key in self.resumed_writes(walk)[:1]]
        ends = [(i, e) for i, e in enumerate(walk.events) if e.kind == "block_completed"][-1:]
        after += [
            (i, self.block_done(walk.skill, e.block, e.step))
            for i, e in ends
            if block and e.skill == walk.skill and e.block == block
        ]
        steps = [
            skill_check("skill_interrupted", walk.skill, at),
            *(
                [skill_check("skill_completed", other.skill)]
                if other is not None and other.completed
                else []
            ),
            *([skill_check("skill_resumed", walk.skill, back)] if resumes else []),
            # after the resume, in the walk's order: the task's goal tools (an agent that
            # resumes and stalls, or ran them before the detour, fails) and the block
            # interrupted at one of its steps, which can only complete after the resume
            *[check for _, check in sorted(after, key=lambda pair: pair[0])],
            *([skill_check("skill_completed", walk.skill)] if walk.completed else []),
        ]
        self.add_sequence(steps)
        digressed = self.defs.skills[str(spec["skill"])]
        self.criterion(f"The agent deals with {request_phrase(digressed)} before going back")
        given = self.given_before(int(spec.get("at") or 0))
        if confirmed:  # the detour may come at the skill's first own question: only what
            # was said before it, or what a lookup before the block answers, is held then
            first = next(
                (
                    i
                    for i, a in enumerate(walk.asks)
                    if a.skill == walk.skill and a.kind != "identity"
                ),
                0,
            )
            early = self.given_before(first)
            given = {
                k: v
                for k, v in given.items()
                if k in early or (block and self._answered_by_lookup(str(block), k))
            }
        if given:  # only what the customer said before the detour: the rest is asked after
            named = " and ".join(
                f"the {value_words(k.split('.', 1)[-1])} ({value_words(v)})"
                for k, v in given.items()
            )
            # a value a lookup before the block may give (the flight status says
            # "delayed") may never have been the customer's words
            looked_up = block is not None and any(
                self._answered_by_lookup(str(block), k) for k in given
            )
            source = (
                "which it already had before it, from the customer or from its lookup"
                if looked_up
                else "which the customer gave before it"
            )
            self.criterion(f"After the detour, the agent does not ask again for {named}, {source}")

    def _out_of_scope(self) -> None:
        walk = self.walk
        self.lean_facts(walk)
        asked = unrelated_for(self.script.behavior.id)
        cannot = next(
            (n for n in self.defs.responses if "cannot_help" in n or "out_of_scope" in n), None
        )
        detour = declining_detour(self.project, walk.skill, asked)
        if detour is not None:  # a skill routes the request: its own answer is the decline
            self.add(skill_check("skill_activated", detour.skill))
            said = [e.utter for e in detour.events if e.kind == "utter" and e.utter]
            if said:
                self.add({"bot_uttered": {"utter_name": said[-1]}})
        elif cannot:
            self.add({"bot_uttered": {"utter_name": cannot}})
        self.criterion(f'The agent does not answer the unrelated request ("{asked}")')
        self.criterion(off_topic_rule(self.defs))
        finished = [a for a in self.assertions if "skill_completed" in a or "tool_executed" in a]
        if finished:  # what the case asserts: the task is done all the same
            what = request_phrase(self.skill)
            self.criterion(f"After declining the other request, the agent still finishes {what}")

    def _adversarial(self) -> None:
        walk = self.walk
        self.lean_facts(walk)
        held = self.unasserted(prose_rules(self.defs, self.skill, walk.memory), walk.skill)
        rules = [r for r in held if r.prohibition and not r.situational]
        pushed = " ".join(str(self.facts.get("rule") or "").lower().split())

        def says(rule_text: str) -> bool:
            return bool(pushed) and pushed in " ".join(rule_text.lower().split())

        stated = [r for r in rules if says(r.text)]
        # the rule the customer pushes against, with the outcome it holds for where its
        # paragraph gives one ("If the badge is not found ..., the agent does not say ...")
        scoped = [r for r in held if r.prohibition and r.situational and says(r.text)]
        if stated:  # the skill's own "never" rule the customer pushes against, one check
            self.criterion(stated[0].text)
        elif scoped:
            self.criterion(scoped[0].text)
        elif pushed:  # the rule the user pushes, not another one the skill also states
            self.criterion(first_rule("Never " + str(self.facts["rule"])))
        elif rules:
            self.criterion(pick(rules, "adversarial", limit=1)[0])
        self.criterion(leak_rule(self.defs, self.skill))
        if self.carries_on(walk):
            self.criterion("The agent keeps helping with the customer's request after refusing")


def _values(arguments: object) -> list[object]:
    values = getattr(arguments, "values", None)
    return list(values()) if callable(values) else []


def goals_for(project: Project, script: Script) -> tuple[list[str], list[Check]]:
    return Goals(project, script).build()


def _customer_side(act: str) -> str:
    """The gate's question speaks to the customer ("connect you to a person"); the criterion
    speaks of them ("connect them to a person")."""
    return " ".join(_THEIRS.get(word.lower(), word) for word in act.split())


__all__ = ["Goals", "goals_for"]
