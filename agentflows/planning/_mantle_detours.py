"""The behaviours of one Mantle skill where the customer leaves its path: a detour to another
skill and back, a request for a person, an unrelated request, a push against a stated rule."""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import (
    Project,
    Skill,
    memoized,
    opening_seeds,
    precondition_of,
    runs_first,
)
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import sentences, set_from_answer, skill_model
from evalcore.lexicon.en.skill_prose import KEPT_IF_TOLD
from evalcore.lexicon.en.skill_rules import OPTIONAL_ASK
from evalcore.lexicon.en.user_line_words import GREETINGS as _GREETINGS
from evalcore.lexicon.en.word_classes import CONDITION_OPENERS
from evalcore.testdata import acted_on, branch_fit, callers_in, lacks, load_records, story_fit

from ..drafting.offline import value_words
from ._behavior import Behavior
from ._mantle_answers import always_asked
from ._mantle_own_handoff import own_reason, reason_line, reason_said
from ._mantle_paths import project_rule
from ._mantle_phrases import (
    activation_phrase,
    activation_phrases,
    escalation_line,
    is_neutral,
    strong_phrases,
)
from ._mantle_planner import PlannerBase, after_identity
from ._mantle_routable import user_routable
from ._mantle_walk import SET, Ask, Setup, Walk, note_walk, walk_skill

#: A question the prose leaves to the agent ("you may ask for a quick rating"): a correct
#: agent may never ask it, so no detour or hand-off may ride on it.
_OPTIONAL = OPTIONAL_ASK


def optional_ask(body: str, prompt: str | None) -> bool:
    """Whether an ask's prose says the agent may leave it out (see `_OPTIONAL`): its own
    sentence, or the one before it in its paragraph ("you may ask for a rating. Set
    `rating` if they answer.")."""
    if not prompt:
        return False
    said = " ".join(prompt.split())
    for paragraph in re.split(r"\n\s*\n", body):
        sentences = re.split(r"(?<=[.!?])\s+", " ".join(paragraph.split()))
        for index, sentence in enumerate(sentences):
            if said in sentence or (sentence and sentence in said):
                near = " ".join(sentences[max(0, index - 1) : index + 1])
                return _OPTIONAL.search(near) is not None
    return _OPTIONAL.search(said) is not None


def _detour_walk(
    project: Project, skill_id: str, given: dict[str, Any], memory: dict[str, Any]
) -> Walk:
    """`skill_id` walked as a detour: its strongest phrase's values, the memory the detour
    starts with (project memory only, so every skill of the project weighs the same few).

    Kept per loaded project and exact inputs (values with their types, memory in order):
    each skill weighs every other as a detour, and walking them all again for every skill
    made planning grow with the square of the skills. Callers only read the walk."""
    try:
        key = (
            "detour_walk",
            skill_id,
            tuple((k, type(v), v) for k, v in given.items()),
            tuple((k, type(v), v) for k, v in memory.items()),
        )
        hash(key)
    except TypeError:  # an unhashable value: walk it afresh
        return walk_skill(project, skill_id, _detour_setup(given, memory))
    note_walk(skill_id, _detour_setup(given, memory))  # a kept walk was still explored
    return memoized(
        project, key, lambda: walk_skill(project, skill_id, _detour_setup(given, memory))
    )


def _completes(skill: Any, walk: Walk) -> bool:
    """Whether a detour's walk ends with its skill completed, so the skill it interrupted
    resumes: `complete_when` met where the skill states one, else a success signal reached."""
    if walk.outcome != "done":
        return False
    if (skill.complete_when or {}).get("condition"):
        return walk.completed
    return walk.completed or walk.reaches_success


def _resumes(skill: Skill, walk: Walk, parked: str) -> bool:
    """Whether the skill `parked` comes back as a resume once detour `skill` ends, in every
    correct run, as far as planning can tell (the drafter settles it on the detour's
    answered path): the detour never offers or starts `parked` itself (`leads_back`), and
    its end is fixed: its `complete_when` met or the prose's own unconditional completion
    reached, or a question of its own on the path, which the user answers by asking to go
    back. A detour that only answers may go on talking, and the return may come as a fresh
    activation."""
    if leads_back(skill, parked):
        return False
    return walk.completed or any(a.kind == "question" and a.skill == skill.id for a in walk.asks)


def leads_back(skill: Skill, parked: str) -> bool:
    """Whether detour `skill` may offer or start `parked` of its own accord: a paragraph of
    its text that invokes `parked` says something besides sentences that wait on the user
    ("Offer to help schedule an inspection. If they agree, invoke
    `@skill.schedule_inspection`"; not "If the customer says a payment is wrong, offer
    `@skill.dispute_charge`"). An agent may take that way back, a fresh activation,
    instead of resuming the parked skill."""
    parts = sentences(skill.body or "")
    into = {p.paragraph for p in parts if f"@skill.{parked}" in p.text}
    return any(
        p.paragraph in into and p.text.split(" ", 1)[0].strip(",").lower() not in CONDITION_OPENERS
        for p in parts
    )


def _before(walk: Walk, at: int) -> tuple[set[str], dict[str, Any]]:
    """The skills completed and the project memory written before the walk waits at ask
    `at`: the events up to the first write of the field that ask fills (all of them when
    the ask fills none)."""
    field = walk.asks[at].field
    cut = next(
        (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == field),
        len(walk.events),
    )
    done = {e.skill for e in walk.events[:cut] if e.kind == "skill_completed" and e.skill}
    memory = {
        e.key: e.value
        for e in walk.events[:cut]
        if e.kind == "memory" and e.key and e.key.startswith("project.")
    }
    return done, memory


def _detour_setup(given: dict[str, Any], memory: dict[str, Any]) -> Setup:
    return Setup(values=dict(given), given=frozenset(given), memory=dict(memory))


def _waited_for(project: Project, ask: Ask) -> bool:
    """Whether every correct run stops at `ask` for the user: a sign-in's question, or one
    `always_asked`."""
    return ask.kind == "identity" or always_asked(project, ask)


def _asked_first(project: Project, skill: Skill) -> frozenset[str]:
    """The field names (without their skill) of the skills `skill` runs before its own work
    (a sign-in it runs first): what the conversation asks for before this skill does."""
    defs = project.mantle
    if defs is None:
        return frozenset()
    first = runs_first(project, skill)
    return frozenset(
        name.rsplit(".", 1)[-1] for name in defs.memory_names() if name.split(".", 1)[0] in first
    )


def _kept_if_told(skill: Skill, ask: Ask) -> bool:
    """Whether the prose has the agent keep `ask`'s answer when the user already gave it
    (see `KEPT_IF_TOLD`): an opening that tells it means the question never comes."""
    asked = " ".join(re.findall(r"[a-z']+", (ask.prompt or "").lower()))
    for match in KEPT_IF_TOLD.finditer(" ".join((skill.body or "").split())):
        named = " ".join(re.findall(r"[a-z']+", match["what"].lower()))
        if named and re.search(rf"\b{re.escape(named)}\b", asked):
            return True
    return False


def _known_before(project: Project, walk: Walk, at: int) -> bool:
    """Whether the agent may already hold the answer to ask `at` when its step comes, so
    the runtime skips it (a `collect` runs without asking when the value is known): a field
    the model may set (`llm_settable`) that a tool of the same skill answered before, which
    the agent can set from its result ("the live status already shows the train is
    cancelled") instead of asking."""
    ask = walk.asks[at]
    field = project.mantle.memory_field(ask.field) if project.mantle and ask.field else None
    if ask.kind != "collect" or field is None or field.llm_settable is not True:
        return False
    cut = next(
        (i for i, e in enumerate(walk.events) if e.kind == "memory" and e.key == ask.field),
        len(walk.events),
    )
    return any(e.kind == "tool" and e.skill == ask.skill for e in walk.events[:cut])


def _read_before(project: Project, walk: Walk, at: int) -> bool:
    """Whether a lookup before ask `at` may hand the agent its answer, so a correct run
    may never ask it: the ask's own words set the field from a tool ("Ask how late the
    flight is now (set delay_minutes from get_flight_status)": a number the tool reports,
    not an id set from a list, which still answers what the user picks), or a choice the
    agent may set (`_known_before`) whose values the project's records hold (a flight
    `delayed` in the flight file: the live status the skill checks first already says
    it). A name only the user knows (the coworker to swap with) stays a sure question."""
    ask = walk.asks[at]
    field = project.mantle.memory_field(ask.field) if project.mantle and ask.field else None
    if field is None:
        return False
    if field.type != "text" and ask.prompt and set_from_answer(field, ask.prompt):
        return True  # a number the tool reports; an id set from a list answers a pick
    if not _known_before(project, walk, at) or not field.enum_values:
        return False
    records = memoized(project.mantle, "planner_records", lambda: load_records(project.root))
    held = {
        str(v).strip().lower()
        for c in records.collections
        for r in c.records
        for v in r.values()
        if isinstance(v, str)
    }
    return any(str(v).lower() in held for v in field.enum_values)


#: Why a skill whose only questions close it gets no detour case (`Plan.untestable`).
_ONLY_CLOSING = (
    "the skill's only questions a detour could wait at close it (their answer ends the "
    "skill): a correct agent takes the detour as that answer, the skill completes, and "
    "nothing is interrupted or resumed"
)


def _work_follows(skill: Skill, tools: list[str], walk: Walk, at: int) -> bool:
    """Whether the skill still has work of its own after ask `at`, so a detour there parks
    it: the answer fills a field it needs, another of its own asks comes later, or its
    prose after the question names one of its `tools`. A closing question ("anything
    else?", "did that answer your question?") has none: a correct agent takes the detour
    as its answer, the skill completes, and nothing is interrupted or resumed."""
    ask = walk.asks[at]
    if ask.field is not None or ask.kind != "question":
        return True
    if any(a.skill == skill.id for a in walk.asks[at + 1 :]):
        return True
    body = " ".join((skill.body or "").split())
    said = " ".join((ask.prompt or "").split())
    after = body.split(said, 1)[1] if said and said in body else ""
    return any(re.search(rf"\b{re.escape(t)}\b", after) for t in tools)


def _cue_turn(project: Project, walk: Walk) -> int | None:
    """The ask a line said partway is tied to: the first after the sign-in that every
    correct run asks (a field the agent may set from the opening is no moment the user can
    wait for), else the first after the sign-in, else the first."""
    turns = [i for i, a in enumerate(walk.asks) if a.kind != "identity"]
    asked = next((i for i in turns if _waited_for(project, walk.asks[i])), None)
    if asked is not None:
        return asked
    return turns[0] if turns else (0 if walk.asks else None)


def _before_the_act(walk: Walk) -> int | None:
    """The skill's own ask right before the confirmation of the action it is for (the
    read-back before a claim is filed): a push against a rule about that action's outcome
    ("say whether this loss will be paid") comes once the details exist, not at the first
    question, where any agent would say it cannot tell yet."""
    confirm = next(
        (i for i, a in enumerate(walk.asks) if a.kind == "confirm" and a.skill == walk.skill),
        None,
    )
    if not confirm:
        return None
    before = walk.asks[confirm - 1]
    return confirm - 1 if before.skill == walk.skill and before.kind != "identity" else None


class DetourBehaviors(PlannerBase):
    def digression(self, elements: list[str]) -> list[Behavior]:
        """The detour case, on the base branch, or on the first other completed branch
        where the base branch's callers have none of what the detour acts on and that
        branch's have (`_detour_fits`: a rebooking detouring to baggage is played with the
        passenger whose delayed flight has a checked bag, not with the one whose cancelled
        flight has none)."""
        found = self._fitting_digression(elements)
        if found:  # a branch with a question to wait at: not untestable after all
            self.untestable.pop("digression", None)
        return found

    def _fitting_digression(self, elements: list[str]) -> list[Behavior]:
        """`digression`'s search over the branches."""
        first = self._digression(elements, self.base)
        if first is None or self._detour_fits(self.base, first):
            return first or []
        for values in self.completed_values:
            if values == self.base:
                continue
            other = self._digression(elements, values)
            if other is not None and self._detour_fits(values, other):
                return other
        return first

    def _detour_fits(self, values: dict[str, Any], found: list[Behavior]) -> bool:
        """Whether a caller of the project's data whose records fit the branch `values`
        plays (`branch_fit`) has what the detour of `found` acts on (no empty `bags: []`);
        true where no caller fits the branch or the data hold no callers."""
        spec = found[0].facts.get("digression") if found else None
        detour = self.defs.skills.get(str(spec.get("skill"))) if isinstance(spec, dict) else None
        if detour is None:
            return True
        fitting = self._branch_callers(values)
        needs = acted_on(detour.id, detour.memory)
        return not fitting or any(lacks(c, needs) is None for c in fitting)

    def _branch_callers(self, values: dict[str, Any]) -> list[Any]:
        """The callers of the project's data whose records fit the branch `values` plays
        (`branch_fit`)."""
        records = self._records()
        callers = [c for c in callers_in(records) if c.record is not None]
        wanted = {str(v) for v in values.values() if isinstance(v, str)}
        others: set[str] = set()
        for key in values:
            field = self.defs.memory_field(key)
            if field is not None and field.enum_values:
                others |= {str(v) for v in field.enum_values if isinstance(v, str)}
        return [c for c in callers if branch_fit(records, c, wanted, others - wanted) > 0]

    def _records(self) -> Any:
        return memoized(self.defs, "planner_records", lambda: load_records(self.project.root))

    def _story_fits(
        self, values: dict[str, Any], other: Skill, line: str, given: dict[str, Any]
    ) -> bool:
        """Whether what the detour's line says of the thing `other` acts on fits the things
        of a caller the branch `values` plays (`story_fit`: a broken handle only for a bag
        that arrived, never for one still checked in at the departure airport); true where
        no caller fits the branch."""
        fitting = self._branch_callers(values)
        if not fitting:
            return True
        story = [line, *given, *(str(v) for v in given.values())]
        needs = acted_on(other.id, other.memory)
        return any(story_fit(self._records(), c, story, needs) >= 0 for c in fitting)

    def _digression(self, elements: list[str], values: dict[str, Any]) -> list[Behavior] | None:
        """The digression case on the branch `values` (None where none can be planned)."""
        walk = self.walk({"values": values})
        # The interruption is asserted at a step of this skill, so it happens at one of this
        # skill's own questions, not one a skill it calls (`call:`) asks on its behalf, nor
        # a gated tool's confirmation: while one is pending the runtime holds the skill on
        # it (Rasa parks no skill with a pending confirmation), and a new request there may
        # be read as the answer.
        waits = [
            i
            for i, a in enumerate(walk.asks)
            if a.kind not in ("identity", "confirm")
            and a.skill == self.skill.id
            and not optional_ask(self.skill.body, a.prompt)
            # a question the opening may settle is no cue a correct run gives, nor
            # one a lookup before it may answer (`_known_before`: never asked then)
            and (a.field is None or always_asked(self.project, a))
            and not _read_before(self.project, walk, i)
        ]
        # ... and one after which the skill still has work of its own: at a closing
        # question the detour is the answer, and nothing is interrupted or resumed
        tools = list(self.defs.tools_for(self.skill.id))
        at = next((i for i in waits if _work_follows(self.skill, tools, walk, i)), None)
        if waits and at is None and walk.outcome == "done":
            self.untestable.setdefault("digression", _ONLY_CLOSING)
        if at is None or walk.outcome != "done":
            return None
        memory = {**after_identity(walk), **{k: SET for k in self.memory}}
        best: tuple[tuple[bool, int], str, str, dict[str, Any], Walk] | None = None
        for other in sorted(self.defs.skills.values(), key=lambda s: s.id):
            if other.id == self.skill.id or other.is_handoff or not user_routable(other):
                continue
            if not self._offered(other.id) or self._does_itself(other.id):
                continue
            if self._waits_on_unmet(other, walk, at):
                continue
            if other.id in self._done_before(walk, at):
                # done before this skill's first question (a sign-in): asking for it again
                # starts nothing to come back from
                continue
            phrases = self._detour_lines(other, values)
            # the skill resumes only once the detour completes: with `complete_when`, the
            # walk has to meet it (an answer-only mode never does), so each phrasing is
            # tried, the first one first, until one completes
            for line, given in phrases:
                inner = _detour_walk(self.project, other.id, given, memory)
                if _completes(other, inner):
                    # first a detour whose end the definitions fix and which never starts
                    # this skill itself, so the return is a resume in every correct run
                    rank = (not _resumes(other, inner, self.skill.id), len(inner.asks))
                    if best is None or rank < best[0]:
                        best = (rank, other.id, line, given, inner)
                    break
        if best is None:
            return None
        rank, other_id, line, given, inner = best
        ask = walk.asks[at]
        inner_model = skill_model(self.project, other_id)
        inner_requested = {
            f.qualified: inner.memory[f.qualified]
            for f in inner_model.fields
            if f.asked_by == "request" and inner.memory.get(f.qualified) not in (None, SET)
        }
        facts = {
            "values": values,
            "digression": {
                "skill": other_id,
                "line": f"Before that, {_lower_first(without_greeting(line))}",
                "given": given,
                "at": at,
                "step": ask.step_id,
                "block": ask.block,
                "request_values": inner_requested,
                "success": list(inner.success),
                "leads_back": leads_back(self.defs.skills[other_id], self.skill.id),
            },
        }
        other_name = self.defs.skills[other_id].name or value_words(other_id)
        title = f"{self.name}: a detour to {_lower_first(other_name)} and back"
        back = (
            "resumes where it left off and completes"
            if not rank[0]
            else "is taken up again (resumed, or started afresh from the detour) and completes"
        )
        # a skill in prose waits at no named step: say what it waits for instead
        field = value_words(ask.field.rsplit(".", 1)[-1]) if ask.field else "answer"
        waiting = f"at {ask.step_id}" if ask.step else f"for the customer's {field}"
        description = (
            f"While the agent waits {waiting}, the customer asks something {other_id} "
            f"handles: {self.skill.id} is interrupted, {other_id} completes, and {self.skill.id} "
            f"{back}."
        )
        return [
            self.behavior(
                "digression",
                "edge_case",
                "digression",
                title,
                description,
                facts,
                walk,
                elements,
                60,
            )
        ]

    def _waits_on_unmet(self, other: Skill, walk: Walk, at: int) -> bool:
        """Whether detour `other` first runs a skill that is not done where the customer
        asks for it (`runs_first`): this skill itself, parked unfinished (a claim form that
        runs the identity check the customer is in the middle of), or a sign-in still to
        come. The agent would carry on with, or nest, that skill instead of parking this
        one, so neither the interruption nor the resume is determined."""
        needed = runs_first(self.project, other)
        if self.skill.id in needed:
            return True
        if not needed:
            return False
        done = self._done_before(walk, at)
        memory = {**self.memory, **_before(walk, at)[1]}
        return any(
            skill_id not in done
            and walk_skill(self.project, skill_id, Setup(memory=dict(memory))).asks
            for skill_id in sorted(needed)
        )

    def _done_before(self, walk: Walk, at: int) -> set[str]:
        """The skills done where the walk waits at ask `at`: those completed before it, and
        those this skill has run before its own work (its prose runs them first, or its
        precondition waits on them), done by the time it asks its own question."""
        done, _ = _before(walk, at)
        return done | runs_first(self.project, self.skill, calls=False)

    def _detour_lines(
        self, other: Skill, values: dict[str, Any]
    ) -> list[tuple[str, dict[str, Any]]]:
        """What the user may say to start `other` mid-way: its phrasings that name a value
        strongly, else its openings; only those that name no value of this skill's fields
        ("the chip on my card stopped working" answers "checking, savings or credit card?"
        with the credit card, and no detour happens), and whose story fits the caller's
        things (`_story_fits`), a question about the thing ("where is my suitcase?") first
        among the openings: it presupposes no state of it the data must bear out."""
        phrases = strong_phrases(self.defs, other) or [(activation_phrase(self.defs, other), {})]
        neutral = [
            (line, given)
            for line, given in phrases
            if self._neutral(line) and self._story_fits(values, other, line, given)
        ]
        if not neutral:
            openings = [
                line
                for line in activation_phrases(self.defs, other)
                if self._neutral(line) and self._story_fits(values, other, line, {})
            ]
            asked = [line for line in openings if line.rstrip().endswith("?")]
            neutral = [(line, {}) for line in asked or openings]
        return neutral

    def _neutral(self, line: str) -> bool:
        return is_neutral(self.defs, self.skill, without_greeting(line))

    def _does_itself(self, skill_id: str) -> bool:
        """Whether this skill already does `skill_id`'s job, so a correct agent answers a
        detour to it without leaving (a claim form that lists the customer's policies, and a
        skill that only lists them): this skill hands over to it itself (`@skill.x`), or
        every tool `skill_id` can call is one this skill calls too."""
        if f"@skill.{skill_id}" in self.skill.tokens:
            return True
        theirs = set(self.defs.tools_for(skill_id))
        return bool(theirs) and theirs <= set(self.defs.tools_for(self.skill.id))

    def _offered(self, skill_id: str) -> bool:
        """Whether the runtime offers `skill_id` at this skill's first question: it offers
        only skills whose precondition holds, and what holds then is what the case opened
        with (a sign-in this skill performs has not happened yet) or what the case can
        seed for it (`opening_seeds`: a field the channel provides)."""
        condition = precondition_of(self.defs, skill_id)
        if condition is None or evaluate(condition, self.memory):
            return True
        return opening_seeds(self.project, skill_id) is not None

    def escalation(self, elements: list[str]) -> list[Behavior]:
        handoffs = sorted(
            s.id for s in self.defs.skills.values() if s.is_handoff and s.id != self.skill.id
        )
        if not handoffs:
            return []
        handoff = self.defs.skills[handoffs[0]]
        walk = self.walk({"values": self.base})
        # the person is asked for at this skill's own first question: one a skill it calls
        # asks (a sign-in) or hands over to (a goodbye that moves on to a rating) is that
        # other skill's, and a skill that asks nothing itself gets no escalation case
        own = [i for i, a in enumerate(walk.asks) if a.skill == self.skill.id]
        if not own or optional_ask(self.skill.body, walk.asks[own[0]].prompt):
            return []
        # ... at the first one every correct run asks: a field the agent sets from what the
        # user describes ("set mode from what they need") may never be asked, nor one a
        # lookup before it may answer (`_known_before`)
        # and never at one a skill that runs first asks too (a sign-in's policy number
        # beside "which policy is this about"): a line cued on it comes during the sign-in
        before = _asked_first(self.project, self.skill)
        sure = [
            i
            for i in own
            if _waited_for(self.project, walk.asks[i]) and not _known_before(self.project, walk, i)
        ]
        fresh = [
            i
            for i in sure
            if (walk.asks[i].field or "").rsplit(".", 1)[-1] not in before
            and not _kept_if_told(self.skill, walk.asks[i])
        ]
        at = (fresh or sure or own)[0]
        line = escalation_line(self.defs, self.skill, handoff)
        # where the skill says when a person is the way on, the case plays that reason
        reason = own_reason(self.skill, handoff.id, walk.asks, own)
        if reason is not None:
            at = reason.at
            line = reason_line(reason, activation_phrase(self.defs, handoff))
        ask = walk.asks[at]
        facts = {
            "values": self.base,
            "escalation": {
                "skill": handoff.id,
                "line": line,
                "at": at,
                "step": ask.step_id,
                "block": ask.block,
                # whether every correct run asks it: else the line rides on a surer question
                "sure": at in sure,
                # whom the user calls for, where the skill's own reason names them
                "calling_for": reason.whom if reason is not None else None,
                "reason": reason_said(reason) if reason is not None else None,
            },
        }
        prefix = Walk(self.skill.id, elements=[f"skill:{self.skill.id}"])
        extra = [f"delegate:{self.skill.id}.{handoff.id}"]
        title = f"{self.name}: the customer asks for a person partway"
        description = (
            f"At its first question the customer asks for a person: {handoff.id} takes over "
            f"and transfers the conversation; {self.skill.id} does not carry on."
        )
        if reason is not None:
            title = f"{self.name}: the caller does not know the {reason.thing}"
            description = (
                f"Asked for the {reason.thing}, the caller says they do not know it and asks "
                f"for a person, as the skill offers then: {handoff.id} takes over and "
                f"transfers the conversation; {self.skill.id} does not carry on."
            )
        return [
            self.behavior(
                "escalation",
                "escalation",
                "escalation",
                title,
                description,
                facts,
                prefix,
                elements,
                65,
                extra,
            )
        ]

    def out_of_scope(self, elements: list[str]) -> list[Behavior]:
        walk = self.walk({"values": self.base})
        at = _cue_turn(self.project, walk)
        facts = {"values": self.base, "at": at}
        title = f"{self.name}: an unrelated request partway"
        description = (
            "Partway through, the customer asks for something no skill handles: the agent "
            f"declines briefly and carries on with {self.skill.id}."
        )
        return [
            self.behavior(
                "out_of_scope",
                "out_of_scope",
                "unrelated_request",
                title,
                description,
                facts,
                walk,
                elements,
                70,
            )
        ]

    def adversarial(self, elements: list[str]) -> list[Behavior]:
        """One per project: pushes against a rule the definitions state (see `_mantle_paths`)."""
        found = project_rule(self.project)
        if found is None or found[0] != self.skill.id:
            return []
        _, rule, where = found
        walk = self.walk({"values": self.base})
        at = _before_the_act(walk)
        at = _cue_turn(self.project, walk) if at is None else at
        facts = {"values": self.base, "at": at, "rule": rule, "rule_where": where}
        title = f"{self.name}: the customer pushes the agent to {rule}"
        description = (
            f"The customer presses the agent to {rule}, saying an earlier agent promised it "
            f"(against the rule in {where}): the agent refuses and carries on with "
            f"{self.skill.id}."
        )
        return [
            self.behavior(
                "adversarial",
                "adversarial",
                "adversarial",
                title,
                description,
                facts,
                walk,
                elements,
                80,
            )
        ]


def without_greeting(line: str) -> str:
    """An opening said mid-conversation: without the greeting that starts a conversation
    ("Hi, can you run a speed test?" -> "can you run a speed test?")."""
    head, _, rest = line.partition(" ")
    if head.rstrip(",!.").lower() in _GREETINGS and rest.strip():
        return rest.strip()
    return line


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    # "I" stays, as does an acronym ("SSO"); the article "A" is an ordinary first word
    if first in ("I", "I'm", "I've", "I'd", "I'll") or (first.isupper() and first != "A"):
        return text
    return text[:1].lower() + text[1:]


__all__ = ["DetourBehaviors", "leads_back", "without_greeting"]
