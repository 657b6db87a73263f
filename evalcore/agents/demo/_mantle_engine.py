"""A generic, deterministic interpreter of Mantle skills: the core of the demo agents.

    engine = MantleEngine(project, brain, MantleFlags())
    events = engine.start({"project.caller_phone": "+15550142"})
    events = engine.receive("Can you send me a replacement card?")

It plays a Mantle project the way the runtime does (reference §1.2, §3) and records exactly
the tracker events Rasa would, in the wire format of reference §6. What the runtime does by
itself is generic here; what an LLM would do from a skill's prose comes from a `Brain` (the
bank's is `_bank.BankBrain`): the procedure each skill's prose describes, the conversational
`instructions` steps, and the (fake) tool backend.

Generic capabilities:

- **Session start**: seed project fields from `initial_slots` become `memory_set
  project.<key>` (after one `memory_set session_started_metadata`); other keys are posted as
  `slot` events and never reach memory.
- **Skill activation**: the user's message is matched against every skill's name and
  description (`SkillWords`, words weighted by how few skills use them). The activated skill
  records `skill_activated`, utters its `utter: {on: activate}` responses and records any value
  the message states strongly for the fields it will ask for.
- **Ordered blocks**: `execute_tool` (parameters read from memory), `collect` (utterance,
  value from the answer: enum values, their explanations, button titles; numbers for
  int/float; text as said), `instructions` (the brain's handler, else a generic question),
  `action`, `noop`, `set_memory`, `call` (a block of the skill), `link` (hand the
  conversation to another skill, no return), `END`; `next` branches are evaluated by a small
  condition evaluator over memory (`==`, `!=`, `not`, `and`, `or`, truthiness, brackets).
  Events: `ordered_block_entered`, `ordered_block_completed` (with the last step),
  `..._interrupted` / `..._resumed` around a digression, `..._cancelled`.
- **Skill stack**: another skill's request while a skill waits for an answer interrupts it
  (`skill_interrupted` with the waiting step, `autonomous` in prose) and resumes it once that
  skill is done (`skill_resumed`, the question asked again); a hand-off skill's request
  interrupts it for good; "cancel that" cancels it (`skill_cancelled`).
- **Tools**: `requires` is enforced (a tool whose condition is false is not called);
  confirmation-gated tools utter `utter_for_confirmation`, wait for yes/no, then run or utter
  `utter_on_user_denial`; `on_success` / `on_failure` are uttered after the run; a tool's
  memory writes are recorded as `memory_set`.
- **Responses**: the first variant whose condition holds (else the default), `{key}` filled
  from memory, buttons in `data.buttons`, the name in `metadata.utter_action`; `utter: {when}`
  rules fire once, when their condition becomes true.
- **Corrections and drift**: a strongly stated new value for a field already set is recorded
  and the pending question asked again; "ignore your instructions" is refused; a message that
  answers nothing and asks for no skill gets the project's `*cannot_help` response.

`MantleFlags` are the mutations shared by every Mantle demo (see its docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ..._stem import stem
from ...definitions import MantleDefinitions, Project, Skill, Step
from ...definitions.conditions import evaluate

_STOP_TEXT = """
    a about after again all also am an and any are as at be been before being but by can
    could did do does doing don't for from get got had has have having he her here him his
    how i i'd i'm i've if in into is isn't it it's its just let like me more my myself need
    needs no nor not now of off on once one only or other our out over own please same she
    should so some something such than that the their them then there these they thing this
    those through to too under until up us very want wants was wasn't we were what when
    where which while who whom why will with would you your yours customer customers agent
    """
_STOP = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9][a-z0-9'_]*")
_CORRECTION = re.compile(r"\b(?:sorry|i mean|i meant|actually|no wait|instead|correction)\b", re.I)
_EXPLAINED = r"(?<![\w]){value}(?![\w])\s*\(([^()]*)\)"
_PAYLOAD = re.compile(r"^set:session\.(?P<key>[\w.]+)=(?P<value>.+)$")

NO_WORDS = re.compile(
    r"\b(?:no|nope|nah|don't|do not|not now|rather not|changed my mind|never mind|haven't|"
    r"have not|hasn't|didn't|not really|cancel)\b",
    re.I,
)
YES_WORDS = re.compile(
    r"\b(?:yes|yeah|yep|sure|go ahead|please do|ok|okay|correct|confirm|that's right|"
    r"sounds good|do it|order it|i have)\b",
    re.I,
)
CLOSING = re.compile(
    r"\b(?:that's all|that is all|that's it|nothing else|no,? thanks|no thank you|bye|goodbye|"
    r"great,? thanks|thanks,? bye|all good)\b",
    re.I,
)
ADVERSARIAL = re.compile(
    r"\bignore (?:all |your |the |my )?(?:previous |prior |earlier )?(?:instructions|rules)|"
    r"system prompt|developer mode|jailbreak|pretend (?:you|to be)|reveal your",
    re.I,
)
CANCEL = re.compile(r"\b(?:cancel (?:that|this|it)|never mind|forget it|stop this)\b", re.I)


def stems(text: str) -> list[str]:
    return list(_stems(text))


@lru_cache(maxsize=8192)
def _stems(text: str) -> tuple[str, ...]:
    """Kept per text: every turn of every verification play weighs the same texts again."""
    out: dict[str, None] = {}
    for word in _WORD.findall(text.lower().replace("\u2019", "'")):
        word = word.removesuffix("'s")
        if word in _STOP or len(word) < 3 or word.isdigit():
            continue
        stemmed = stem(word)
        if stemmed not in _STOP:
            out.setdefault(stemmed)
    return tuple(out)


def spoken(value: Any) -> str:
    return re.sub(r"[_\-]+", " ", str(value)).strip().lower()


def yes_or_no(text: str) -> bool | None:
    if NO_WORDS.search(text):
        return False
    if YES_WORDS.search(text):
        return True
    return None


#: Texts whose word matches a `FieldWords` / `SkillWords` keeps (then it starts again).
_MEMO_TEXTS = 4096


@dataclass(frozen=True)
class Found:
    value: Any
    score: int
    position: int

    @property
    def strong(self) -> bool:
        return self.score >= 2


class FieldWords:
    """The values of one categorical field and the words that name them."""

    def __init__(self, defs: MantleDefinitions, qualified: str) -> None:
        self.qualified = qualified
        namespace, _, name = qualified.partition(".")
        fields = defs.memory_names()
        field = fields.get(qualified)
        self.values: list[Any] = list(field.enum_values or []) if field else []
        texts = [field.description or ""] if field else []
        skill = defs.skills.get(namespace)
        if skill is not None:
            for block in skill.blocks.values():
                for step in block.steps:
                    waits = str(step.fields.get("complete_when") or "")
                    if (step.kind == "collect" and step.target == name) or (
                        step.kind == "instructions" and qualified in waits
                    ):
                        texts += [str(step.fields.get("description") or ""), str(step.target)]
        phrases: dict[Any, list[str]] = {v: [] for v in self.values}
        for text in texts:
            for value in self.values:
                pattern = re.compile(_EXPLAINED.format(value=re.escape(str(value))), re.I)
                phrases[value] += [" ".join(m.group(1).split()) for m in pattern.finditer(text)]
        for response in defs.all_responses().values():
            for variant in response.variants:
                for button in variant.buttons:
                    match = _PAYLOAD.match(button.payload or "")
                    if match and match["key"] == qualified and match["value"] in phrases:
                        phrases[match["value"]].append(button.title)
        found = {v: set(stems(" ".join([spoken(v), *p]))) for v, p in phrases.items()}
        self.words = found
        counts: dict[str, int] = {}
        for words in found.values():
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self.distinct = {v: {w for w in words if counts[w] == 1} for v, words in found.items()}
        self.phrases = phrases
        self._matched: dict[str, tuple[Found, ...]] = {}

    def matches(self, text: str) -> list[Found]:
        """The values `text` names, best first (kept per text: a case's messages come back
        in every play of it, and the answer depends on the text alone)."""
        kept = self._matched.get(text)
        if kept is None:
            if len(self._matched) >= _MEMO_TEXTS:
                self._matched.clear()
            kept = self._matched[text] = tuple(self._matches(text))
        return list(kept)

    def _matches(self, text: str) -> list[Found]:
        lowered = text.lower()
        cue = _CORRECTION.search(text)
        out = []
        words = stems(text)
        for value in self.values:
            score, position = 0, len(text)
            own = re.compile(
                r"(?<![\w'])"
                + r"[\s_\-]+".join(re.escape(p) for p in spoken(value).split())
                + r"(?![\w])",
                re.I,
            )
            mentions = [
                m.start()
                for m in own.finditer(text)
                if not re.search(
                    r"(?:\bnot|\bno|n't|\bnever)\s+$", text[max(0, m.start() - 8) : m.start()], re.I
                )
            ]
            if mentions:
                score, position = 10, mentions[-1]
            hits = [w for w in words if w in self.distinct.get(value, set())]
            score += len(hits)
            for hit in hits:
                at = lowered.rfind(hit)
                if at >= 0 and (position == len(text) or at > position):
                    position = at
            if score:
                out.append(Found(value, score, position))
        if cue is not None:
            after = [f for f in out if f.position >= cue.start()]
            if after:
                return sorted(after, key=lambda f: (-f.score, -f.position))
        return sorted(out, key=lambda f: (-f.score, -f.position))

    def answer(self, text: str) -> Any:
        """The value an answer to this field's question gives (None if none).

        Without a distinctive word, the value sharing the most words with the answer wins
        (the first such value in enum order): asked which team, "my card was declined"
        means the card team even though "card" also appears in another team's description.
        """
        found = self.matches(text)
        named = {f.value for f in found if f.score >= 10}
        if len(named) > 1 and _CORRECTION.search(text) is None:
            return None  # "either lost or stolen": unclear, so the question is asked again
        if found:
            return found[0].value
        said = set(stems(text))
        shared = [(len(said & self.words.get(v, set())), -i, v) for i, v in enumerate(self.values)]
        best = max(shared, default=(0, 0, None))
        return best[2] if best[0] else None

    def stated(self, text: str) -> Any:
        """A value stated without being asked: own words or two distinctive stems."""
        found = [f for f in self.matches(text) if f.strong]
        return found[0].value if found else None

    def fallback(self) -> Any:
        for value, phrases in self.phrases.items():
            if re.search(
                r"\b(?:anything\s+else|other|general)", " ".join(phrases) + " " + str(value), re.I
            ):
                return value
        return None


class SkillWords:
    """Which skill a message asks for."""

    def __init__(self, skills: list[Skill]) -> None:
        self.vocab = {
            s.id: set(stems(f"{s.name or ''} {s.id.replace('_', ' ')} {s.description or ''}"))
            for s in skills
        }
        counts: dict[str, int] = {}
        for words in self.vocab.values():
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self.weight = {w: 1.0 / n for w, n in counts.items()}
        self._scored: dict[str, dict[str, float]] = {}

    def scores(self, text: str) -> dict[str, float]:
        """Each skill's score for `text` (a new dict the caller may change; kept per text)."""
        kept = self._scored.get(text)
        if kept is None:
            if len(self._scored) >= _MEMO_TEXTS:
                self._scored.clear()
            words = set(stems(text))
            kept = self._scored[text] = {
                skill: round(sum(self.weight[w] for w in words & vocab), 3)
                for skill, vocab in self.vocab.items()
            }
        return dict(kept)

    def best(self, text: str, exclude: set[str] = frozenset()) -> tuple[str | None, float]:
        scores = {k: v for k, v in self.scores(text).items() if k not in exclude}
        if not scores:
            return None, 0.0
        skill = max(sorted(scores), key=lambda k: scores[k])
        return (skill, scores[skill]) if scores[skill] > 0 else (None, 0.0)


_WORDS: dict[tuple[int, tuple[str, ...]], tuple[MantleDefinitions, SkillWords]] = {}


def skill_words(defs: MantleDefinitions, skills: list[Skill]) -> SkillWords:
    """The routing words of `skills`, built once per loaded definitions (a session starts
    per case and per mutant; SkillWords is only read)."""
    key = (id(defs), tuple(s.id for s in skills))
    kept = _WORDS.get(key)
    if kept is None or kept[0] is not defs:
        kept = _WORDS[key] = (defs, SkillWords(skills))
    return kept[1]


_FIELD_WORDS: dict[tuple[int, str], tuple[MantleDefinitions, FieldWords]] = {}


def field_words(defs: MantleDefinitions, qualified: str) -> FieldWords:
    """The words of one field's values, built once per loaded definitions (FieldWords is
    only read once built)."""
    key = (id(defs), qualified)
    kept = _FIELD_WORDS.get(key)
    if kept is None or kept[0] is not defs:
        kept = _FIELD_WORDS[key] = (defs, FieldWords(defs, qualified))
    return kept[1]


def parse_amount(text: str) -> float | None:
    """The first number in the text, as a float ("$60.00" -> 60.0)."""
    grouped = re.search(r"(?<![\w.,])\$?\s?(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?)(?![\d,])", text)
    if grouped:  # thousands separators: "$3,980.00"
        return float(grouped[1].replace(",", ""))
    match = re.search(r"(?<![\w.])\$?\s?(\d+(?:[.,]\d{1,2})?)(?!\d)", text)
    return float(match[1].replace(",", ".")) if match else None


# --- conditions -------------------------------------------------------------------------


def holds(condition: Any, memory: Mapping[str, Any]) -> bool:
    """Truth of a Mantle condition over memory (qualified keys); no condition holds."""
    return evaluate(condition, memory)


# --- what a brain provides ----------------------------------------------------------------

NO_ANSWER: Any = object()


@dataclass
class ToolResult:
    """What a (fake) tool returned: its result, an error, and the memory it wrote."""

    result: Any = None
    error: str | None = None
    writes: dict[str, Any] = field(default_factory=dict)
    """Unqualified keys belong to the calling skill; `project.<key>` to the project."""


@dataclass
class Ask:
    """The agent waits for the user: how to ask (again) and how to read the answer."""

    kind: str
    """collect | instructions | identity | question | confirm | field | followup"""
    render: Callable[[], None]
    accept: Callable[[str], Any]
    """The answer's value, or NO_ANSWER when the text does not answer the question."""
    step: str | None = None
    block: str | None = None
    field: str | None = None


Procedure = Generator[Ask, Any, str]


class Brain(Protocol):
    """What an LLM would do from a project's prose (one brain per demo project)."""

    def procedure(self, ctx: SkillContext) -> Procedure:
        """The skill's prose as a procedure: yields `Ask`s, returns an outcome
        (`completed`, `open`, `linked:<skill>`, `cancelled`)."""
        ...

    def instructions(self, ctx: SkillContext, step: Step) -> Procedure | None:
        """A handler for a conversational block step, or None for the generic one."""
        ...

    def tool(self, ctx: SkillContext, name: str, arguments: dict[str, Any]) -> ToolResult:
        """The fake backend."""
        ...

    def asked_fields(self, skill: Skill) -> list[str]:
        """Qualified fields the skill's prose asks for itself (besides collect steps)."""
        ...


@dataclass(frozen=True)
class MantleFlags:
    """Mutations: switches that make the agent wrong on purpose, so tests can show that a
    case catches the fault. All off by default.

    - `skip_confirmation`: confirmation-gated tools run without reading the summary back or
      waiting for yes/no (a refused-confirmation case then sees the tool run);
    - `forget_reason`: values the customer states before being asked are not recorded, so
      the agent asks for them again (an out-of-order case then fails);
    - `ignore_digression`: a request for another skill mid-skill is treated as off-topic:
      no interruption, no resume (a digression case then fails);
    - `ignore_handoff`: a request for a person in the middle of a skill is treated as
      off-topic (an escalation case then fails);
    - `fail_tool`: the named tool always returns an error (a happy path through it fails).
    """

    skip_confirmation: bool = False
    forget_reason: bool = False
    ignore_digression: bool = False
    ignore_handoff: bool = False
    fail_tool: str | None = None

    def active(self) -> list[str]:
        return [
            f"{name}={value}" if isinstance(value, str) else name
            for name, value in self.__dict__.items()
            if value
        ]


# --- one skill on the stack -----------------------------------------------------------------


@dataclass
class Frame:
    skill: Skill
    entry: str
    """user | digression | escalation | link"""
    context: str
    procedure: Procedure | None = None
    pending: Ask | None = None
    parked: bool = False
    blocks: list[str] = field(default_factory=list)
    """Ordered blocks running, innermost last."""
    results: dict[str, Any] = field(default_factory=dict)
    """Last result per tool (a brain reads list results from here)."""
    scratch: dict[str, Any] = field(default_factory=dict)


class SkillContext:
    """What a skill's procedure may do (the brain's API)."""

    def __init__(self, engine: MantleEngine, frame: Frame) -> None:
        self.engine = engine
        self.frame = frame
        self.skill = frame.skill
        self.defs = engine.defs

    # memory and messages
    def key(self, key: str) -> str:
        return key if "." in key else f"{self.skill.id}.{key}"

    def get(self, key: str) -> Any:
        return self.engine.memory.get(self.key(key))

    def set(self, key: str, value: Any) -> None:
        self.engine.remember(self.key(key), value)

    def utter(self, name: str | None) -> None:
        self.engine.utter(name, self.skill.id)

    def say(self, text: str) -> None:
        self.engine.say(text)

    @property
    def entry(self) -> str:
        return self.frame.entry

    @property
    def context(self) -> str:
        return self.frame.context

    @property
    def results(self) -> dict[str, Any]:
        return self.frame.results

    @property
    def scratch(self) -> dict[str, Any]:
        return self.frame.scratch

    def words(self, qualified: str) -> FieldWords:
        return self.engine.field_words(qualified)

    def holds(self, condition: Any) -> bool:
        return holds(condition, self.engine.memory)

    # tools
    def tool(self, name: str, arguments: dict[str, Any]) -> ToolResult | None:
        return self.engine.run_tool(self.frame, name, arguments)

    def gated(
        self, name: str, arguments: dict[str, Any] | Callable[[], dict[str, Any]]
    ) -> Procedure:
        """Run a confirmation-gated tool: done | denied | failed | blocked. Pass the
        arguments as a function to read them from memory after the customer confirmed."""
        return self.engine.gated(self, name, arguments)

    # waiting for the user
    def ask(
        self,
        kind: str,
        render: Callable[[], None],
        accept: Callable[[str], Any],
        *,
        field: str | None = None,
        step: str | None = None,
        block: str | None = None,
    ) -> Procedure:
        value = yield Ask(kind, render, accept, step=step, block=block, field=field)
        return value

    def question(self, text: str) -> Procedure:
        """A yes/no question; any reply answers it (True, False or None)."""
        answer = yield Ask("question", lambda: self.say(text), lambda reply: yes_or_no(reply))
        return answer

    def ask_field(self, qualified: str, text: str) -> Procedure:
        """Ask the skill's prose question for a categorical field and record the answer."""
        words = self.words(qualified)
        value = yield Ask(
            "field",
            lambda: self.say(text),
            lambda reply: words.answer(reply) if words.answer(reply) is not None else NO_ANSWER,
            field=qualified,
        )
        self.engine.remember(qualified, value)
        return value

    def run_block(self, block_id: str) -> Procedure:
        return self.engine.run_block(self, block_id)

    def end_conversation(self) -> None:
        self.engine.ended = True


# --- the engine -------------------------------------------------------------------------------


class MantleEngine:
    """One conversation with one Mantle project."""

    #: Timestamps are fixed, not the clock: the same conversation gives the same events.
    EPOCH = 1767225600.0

    def __init__(self, project: Project, brain: Brain, flags: MantleFlags | None = None) -> None:
        if project.mantle is None:
            raise ValueError(f"{project.root} is not a Mantle project")
        self.project = project
        self.defs: MantleDefinitions = project.mantle
        self.brain = brain
        self.flags = flags or MantleFlags()
        self.memory: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.stack: list[Frame] = []
        self.ended = False
        self.started = False
        self.fired: set[str] = set()
        self._words: dict[str, FieldWords] = {}
        self.skill_words = skill_words(
            self.defs, [s for s in self.defs.skills.values() if not s.hidden and not s.disabled]
        )

    # --- recording ------------------------------------------------------------------------

    def emit(self, event: str, **payload: Any) -> None:
        record = {"event": event, **payload, "timestamp": self.EPOCH + len(self.events)}
        self.events.append(record)

    def say(self, text: str) -> None:
        self.emit("bot", text=text, data={}, metadata={})

    def utter(self, name: str | None, skill_id: str | None = None) -> None:
        if not name:
            return
        response = self.defs.all_responses().get(name)
        if response is None:
            return
        variants = response.variants
        chosen = next(
            (v for v in variants if v.condition is not None and holds(v.condition, self.memory)),
            None,
        )
        chosen = chosen or next((v for v in variants if v.condition is None), None)
        if chosen is None:
            return
        scope = response.scope if response.scope != "project" else skill_id
        text = re.sub(r"\{(\w+)\}", lambda m: self._fill(m.group(1), scope), chosen.text or "")
        buttons = [
            {"title": b.title, **({"payload": b.payload} if b.payload else {})}
            for b in chosen.buttons
        ]
        self.emit(
            "bot",
            text=" ".join(text.split()),
            data={"buttons": buttons},
            metadata={"utter_action": name},
        )

    def _fill(self, key: str, scope: str | None) -> str:
        for candidate in (
            ([f"{scope}.{key}"] if scope else [])
            + [f"project.{key}"]
            + [k for k in self.memory if k.endswith("." + key)]
        ):
            if self.memory.get(candidate) is not None:
                value = self.memory[candidate]
                return spoken(value) if isinstance(value, str) and "_" in value else str(value)
        return ""

    def remember(self, key: str, value: Any) -> None:
        self.memory[key] = value
        self.emit("memory_set", key=key, value=value)
        for frame in self.stack:
            for rule in frame.skill.utter:
                marker = f"{frame.skill.id}:{rule.response}"
                if rule.when and marker not in self.fired and holds(rule.when, self.memory):
                    self.fired.add(marker)
                    self.utter(rule.response, frame.skill.id)

    def field_words(self, qualified: str) -> FieldWords:
        if qualified not in self._words:
            self._words[qualified] = field_words(self.defs, qualified)
        return self._words[qualified]

    # --- session --------------------------------------------------------------------------

    def start(self, initial_slots: Mapping[str, Any] | None = None) -> None:
        """Seed channel context once, before the first turn."""
        if self.started:
            return
        self.started = True
        slots = dict(initial_slots or {})
        seeds: dict[str, Any] = {}
        others: dict[str, Any] = {}
        for key, value in slots.items():
            name = key.removeprefix("project.")
            declared = self.defs.memory.get(name)
            if "." not in name and declared is not None and declared.seed:
                seeds[name] = value
            else:
                others[key] = value
        if seeds:
            self.emit("memory_set", key="session_started_metadata", value=dict(seeds))
            for name, value in seeds.items():
                self.remember(f"project.{name}", value)
        for key, value in others.items():
            self.emit("slot", name=key, value=value)

    def receive(self, text: str) -> None:
        """One user message: the agent's whole turn, up to `action_listen`."""
        self.start()
        self.emit("user", text=text)
        if self.ended:
            self.say(
                "You're being connected to a member of our team; they will be with you shortly."
            )
        else:
            frame = self.top()
            if frame is None or frame.pending is None:
                self.idle(text)
            else:
                self.route(frame, text)
        self.emit("action", name="action_listen")

    def top(self) -> Frame | None:
        return self.stack[-1] if self.stack else None

    def idle(self, text: str) -> None:
        if ADVERSARIAL.search(text):
            self.refuse()
            return
        skill_id, score = self.skill_words.best(text)
        if skill_id is not None and score >= 1.0:
            self.activate(skill_id, text, entry="user")
            return
        if CLOSING.search(text) or yes_or_no(text) is False:
            self.utter_first("goodbye")
            return
        self.cannot_help()

    def utter_first(self, word: str) -> None:
        name = next((n for n in self.defs.responses if word in n), None)
        if name:
            self.utter(name)

    def cannot_help(self) -> None:
        name = next((n for n in self.defs.responses if "cannot_help" in n), None)
        if name:
            self.utter(name)
        else:
            self.say("Sorry, that's not something I can help with.")

    def refuse(self) -> None:
        self.say("I can't do that. I'll keep to what I'm allowed to help with.")

    def route(self, frame: Frame, text: str) -> None:
        ask = frame.pending
        assert ask is not None
        if ADVERSARIAL.search(text):
            self.refuse()
            ask.render()
            return
        value = ask.accept(text)
        if value is not NO_ANSWER and not (ask.kind == "followup" and value is None):
            self.advance(frame, value)
            return
        if ask.kind == "followup" and CLOSING.search(text):
            self.cancel(frame, goodbye=True)
            return
        if self.correct(frame, text):
            ask.render()
            return
        if CANCEL.search(text):
            self.cancel(frame, goodbye=False)
            return
        active = {f.skill.id for f in self.stack}
        other, score = self.skill_words.best(text, exclude=active)
        if other is not None and score >= 1.5:
            if self.defs.skills[other].is_handoff and not self.flags.ignore_handoff:
                self.interrupt(frame)
                self.activate(other, text, entry="escalation")
                return
            if not self.defs.skills[other].is_handoff and not self.flags.ignore_digression:
                self.interrupt(frame)
                self.activate(other, text, entry="digression")
                return
        if CLOSING.search(text):
            self.cancel(frame, goodbye=True)
            return
        self.cannot_help()
        ask.render()

    def correct(self, frame: Frame, text: str) -> bool:
        """A strongly stated new value for a field the skill already recorded."""
        for key, value in list(self.memory.items()):
            if not key.startswith(frame.skill.id + ".") or value is None:
                continue
            words = self.field_words(key)
            if not words.values:
                continue
            stated = words.stated(text)
            if stated is not None and stated != value:
                self.remember(key, stated)
                return True
        return False

    # --- the skill stack ------------------------------------------------------------------

    def activate(self, skill_id: str, text: str, *, entry: str) -> None:
        skill = self.defs.skills[skill_id]
        frame = Frame(skill=skill, entry=entry, context=text)
        self.stack.append(frame)
        self.emit("skill_activated", skill_id=skill_id)
        for rule in skill.utter:
            if rule.on == "activate":
                self.utter(rule.response, skill_id)
        if entry in ("user", "digression") and not self.flags.forget_reason:
            for qualified in self.question_fields(skill):
                if self.memory.get(qualified) is not None:
                    continue
                stated = self.field_words(qualified).stated(text)
                if stated is not None:
                    self.remember(qualified, stated)
        frame.procedure = self.brain.procedure(SkillContext(self, frame))
        self.advance(frame, None, first=True)

    def question_fields(self, skill: Skill) -> list[str]:
        fields = [
            f"{skill.id}.{s.target}"
            for b in skill.blocks.values()
            for s in b.steps
            if s.kind == "collect"
        ]
        fields += self.brain.asked_fields(skill)
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "instructions":
                    waits = str(step.fields.get("complete_when") or "")
                    fields += [
                        f.qualified
                        for f in skill.memory.values()
                        if f.type == "categorical" and f.qualified in waits
                    ]
        names = self.defs.memory_names()
        return [f for f in dict.fromkeys(fields) if f in names and names[f].type == "categorical"]

    def advance(self, frame: Frame, value: Any, *, first: bool = False) -> None:
        assert frame.procedure is not None
        try:
            ask = next(frame.procedure) if first else frame.procedure.send(value)
        except StopIteration as stop:
            frame.pending = None
            self.finish(frame, str(stop.value or "completed"))
            return
        frame.pending = ask
        ask.render()

    def finish(self, frame: Frame, outcome: str) -> None:
        if outcome == "open":
            frame.pending = Ask(
                "followup", lambda: None, lambda text: None if CLOSING.search(text) else NO_ANSWER
            )
            return
        if frame in self.stack:
            self.stack.remove(frame)
        if outcome == "completed":
            self.emit("skill_completed", skill_id=frame.skill.id)
        elif outcome == "cancelled":
            self.emit("skill_cancelled", skill_id=frame.skill.id, step_id="autonomous")
        if outcome.startswith("linked:"):
            target = outcome.split(":", 1)[1]
            last = next((e["text"] for e in reversed(self.events) if e["event"] == "bot"), "")
            self.activate(target, last, entry="link")
            return
        if self.ended:
            return
        parked = self.top()
        if parked is not None and parked.parked:
            self.resume(parked)
        elif parked is None:
            self.utter_first("anything_else")

    def interrupt(self, frame: Frame) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        frame.parked = True
        self.emit("skill_interrupted", skill_id=frame.skill.id, step_id=step)
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_interrupted",
                skill_id=frame.skill.id,
                block_id=ask.block,
                step_id=step,
            )

    def resume(self, frame: Frame) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        frame.parked = False
        self.emit("skill_resumed", skill_id=frame.skill.id, step_id=step)
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_resumed", skill_id=frame.skill.id, block_id=ask.block, step_id=step
            )
        if ask is not None:
            ask.render()

    def cancel(self, frame: Frame, *, goodbye: bool) -> None:
        ask = frame.pending
        step = (ask.step if ask else None) or "autonomous"
        if ask is not None and ask.block:
            self.emit(
                "ordered_block_cancelled", skill_id=frame.skill.id, block_id=ask.block, step_id=step
            )
        self.emit("skill_cancelled", skill_id=frame.skill.id, step_id=step)
        self.stack.remove(frame)
        if goodbye:
            self.utter_first("goodbye")
        elif not self.stack:
            self.utter_first("anything_else")

    # --- tools ----------------------------------------------------------------------------

    def run_tool(self, frame: Frame, name: str, arguments: dict[str, Any]) -> ToolResult | None:
        skill = frame.skill
        constraint = skill.tool_constraints.get(name)
        if constraint is not None and not holds(constraint.requires, self.memory):
            return None
        tool = self.defs.tools_for(skill.id).get(name)
        ctx = SkillContext(self, frame)
        if self.flags.fail_tool == name:
            outcome = ToolResult(error=f"{name} is unavailable")
        else:
            outcome = self.brain.tool(ctx, name, dict(arguments))
        payload: dict[str, Any] = {
            "tool_name": name,
            "arguments": dict(arguments),
            "source": "mcp" if tool is not None and tool.scope == "mcp" else "local",
            "result": None if outcome.error else outcome.result,
            "is_error": outcome.error is not None,
            "error_message": outcome.error,
            "metadata": {"skill_id": skill.id},
        }
        if tool is not None and tool.scope == "mcp":
            payload["mcp_server"] = tool.mcp_server
        self.emit("tool_executed", **payload)
        if outcome.error is None:
            frame.results[name] = outcome.result
            for key, value in outcome.writes.items():
                self.remember(key if "." in key else f"{skill.id}.{key}", value)
        if constraint is not None:
            self.utter(constraint.on_failure if outcome.error else constraint.on_success, skill.id)
        return outcome

    def gated(
        self,
        ctx: SkillContext,
        name: str,
        arguments: dict[str, Any] | Callable[[], dict[str, Any]],
    ) -> Procedure:
        constraint = ctx.skill.tool_constraints.get(name)
        confirmation = constraint.requires_confirmation if constraint else None
        if constraint is not None and not holds(constraint.requires, self.memory):
            return "blocked"
        if confirmation is not None and confirmation.enabled and not self.flags.skip_confirmation:
            answer = yield Ask(
                "confirm",
                lambda: self.utter(confirmation.utter_for_confirmation, ctx.skill.id),
                lambda text: NO_ANSWER if yes_or_no(text) is None else yes_or_no(text),
            )
            if not answer:
                self.utter(confirmation.utter_on_user_denial, ctx.skill.id)
                return "denied"
        return self.run_gated(ctx, name, arguments)

    def run_gated(self, ctx: SkillContext, name: str, arguments: Any) -> str:
        """Run a tool past its gate: `done`, `failed`, or `blocked` when it cannot run.

        Arguments are read now, after the confirmation: a correction made at the summary
        counts."""
        final = arguments() if callable(arguments) else arguments
        outcome = self.run_tool(ctx.frame, name, final)
        if outcome is None:
            return "blocked"
        return "failed" if outcome.error else "done"

    # --- ordered blocks -------------------------------------------------------------------

    def run_block(self, ctx: SkillContext, block_id: str) -> Procedure:
        """Run one ordered block; returns `done`, or `linked:<skill>` after a `link:`."""
        skill = ctx.skill
        block = skill.blocks[block_id]
        ctx.frame.blocks.append(block_id)
        self.emit("ordered_block_entered", skill_id=skill.id, block_id=block_id)
        ids = [s.id for s in block.steps]
        index, last = 0, None
        while 0 <= index < len(block.steps):
            step = block.steps[index]
            if step.kind == "end" or step.id == "END":
                break
            last = step.id
            if step.kind == "link":
                ctx.frame.blocks.pop()
                self.emit(
                    "ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=step.id
                )
                return f"linked:{step.target}"
            outcome = yield from self.run_step(ctx, block, step)
            if outcome.startswith("linked:"):
                ctx.frame.blocks.pop()
                return outcome
            target = self.next_step(step, index, ids)
            if target is None:
                break
            index = target
        ctx.frame.blocks.pop()
        self.emit("ordered_block_completed", skill_id=skill.id, block_id=block_id, step_id=last)
        return "done"

    def next_step(self, step: Step, index: int, ids: list[str]) -> int | None:
        if step.next is None:
            return index + 1
        if isinstance(step.next, str):
            target = step.next
        else:
            target = next(
                (
                    b.target
                    for b in step.next
                    if b.condition is None or holds(b.condition, self.memory)
                ),
                "END",
            )
        return ids.index(target) if target in ids else None

    def run_step(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        skill = ctx.skill
        if step.kind == "execute_tool":
            params = step.fields.get("parameters") or {}
            arguments = {
                str(k): (
                    self.memory.get(v.removeprefix("session."))
                    if isinstance(v, str) and v.startswith("session.")
                    else v
                )
                for k, v in params.items()
            }
            ctx.tool(str(step.target), {k: v for k, v in arguments.items() if v is not None})
        elif step.kind == "collect":
            key = f"{skill.id}.{step.target}"
            if self.memory.get(key) is None:
                value = yield Ask(
                    "collect",
                    lambda: self.utter(step.fields.get("utterance"), skill.id),
                    lambda text: self.read_field(key, text),
                    step=step.id,
                    block=block.id,
                    field=key,
                )
                self.remember(key, value)
        elif step.kind == "instructions":
            handler = self.brain.instructions(ctx, step)
            yield from (
                handler if handler is not None else self.generic_instructions(ctx, block, step)
            )
        elif step.kind == "action":
            self.utter(str(step.target), skill.id)
        elif step.kind == "set_memory" and isinstance(step.target, dict):
            for key, value in step.target.items():
                self.remember(str(key) if "." in str(key) else f"{skill.id}.{key}", value)
        elif step.kind == "call" and str(step.target) in skill.blocks:
            outcome = yield from self.run_block(ctx, str(step.target))
            return outcome
        return "done"

    def read_field(self, key: str, text: str) -> Any:
        declared = self.defs.memory_names().get(key)
        kind = declared.type if declared else "text"
        if kind == "categorical":
            value = self.field_words(key).answer(text)
            return NO_ANSWER if value is None else value
        if kind in ("float", "int"):
            number = parse_amount(text)
            if number is None:
                return NO_ANSWER
            return int(number) if kind == "int" else number
        if kind == "bool":
            answer = yes_or_no(text)
            return NO_ANSWER if answer is None else answer
        return text.strip()

    def generic_instructions(self, ctx: SkillContext, block: Any, step: Step) -> Procedure:
        """Ask the step's instructions as a question; record what `complete_when` waits for."""
        waits = str(step.fields.get("complete_when") or "")
        keys = [f.qualified for f in ctx.skill.memory.values() if f.qualified in waits]
        missing = [k for k in keys if self.memory.get(k) is None]
        if not missing:
            return "done"
        first = str(step.target or "").strip().split(".")[0]
        answer = yield Ask(
            "instructions",
            lambda: self.say(first + "."),
            lambda text: text,
            step=step.id,
            block=block.id,
        )
        for key in missing:
            value = self.read_field(key, answer)
            self.remember(key, answer if value is NO_ANSWER else value)
        return "done"


__all__ = [
    "ADVERSARIAL",
    "CLOSING",
    "NO_ANSWER",
    "Ask",
    "Brain",
    "FieldWords",
    "Frame",
    "MantleEngine",
    "MantleFlags",
    "Procedure",
    "SkillContext",
    "SkillWords",
    "ToolResult",
    "holds",
    "parse_amount",
    "spoken",
    "stems",
    "yes_or_no",
]
