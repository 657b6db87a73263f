"""The offline simulator for fact-sheet contexts: it answers what the agent asks.

Each turn it reads the agent's messages since the user last spoke and decides, in order:

1. the first turn: the `Open with` line, else the intent in the persona's words
   ("You want to replace a card" → "Hi, I'd like to replace a card.");
2. the second turn, when given: the `After the agent's first answer` line;
3. a `When the agent asks <cue>` line whose cue the message matches (once each; a cue that
   names a field also matches the project's own question for it: "the destination city"
   ↔ "Where to?"); one written `…, then answer it` is owed an answer: the next message
   that asks nothing gets the cue's fact (an off-topic question comes before the answer);
   after a digression (a context that goes back to its task): an offer to go back is
   taken, and an "anything else?" before the interrupted question comes again is answered
   by asking to go back; before all of these, a `When the agent next speaks after you say`
   line right after its first line was said (whatever the agent said in between);
4. a hand-off ("passing you to a colleague") when the stopping point is about one: done
   (an offer to hand over that asks, "Shall I connect you?", is a confirmation: rule 5);
5. a read-back confirmation ("Shall I place the order?"): agree or decline, as the context says
   (a `decline` is for the confirmation before the action: where the project has gated
   tools, their own read-back is declined and a details check before it agreed to);
6. "anything else?": the `Before you finish` line if unsaid, else a closing; then done;
7. the facts the message asks for, by their labels (and, when the run knows the project,
   the questions the project asks for that field): one fact, or every fact the message
   names in full ("your date of birth and postcode");
8. a message that asks nothing: the `Before you finish` line if unsaid, else done;
9. a question it cannot place: "Sorry, I don't know that." once, with a note; asked again
   without progress, it stops with a note. It never answers with a fact it did not place.

Only the sentences of the agent's message that ask something (a question mark, "please tell
me …", a request that opens with its verb: "Describe the defect in a sentence.") are
matched, so "Your checking has $1,842 available. Anything else?" is a closing question, not a
second ask for the account.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..lexicon.en import agent_turns as en
from ..lexicon.en.agent_line_words import GO_BACK as _BACK
from ..llm.usage import Usage
from ._base import SimulatorStep, Utterance
from ._context import ContextFact, FactContext
from ._pronouns import first_person
from ._words import stems

CLOSING = "No, that's all, thanks."
AGREE = "Yes, that's right. Please go ahead."
DECLINE = "No, please don't. I've changed my mind."
UNKNOWN = "Sorry, I don't know that."

RESUME_YES = "Yes, please, let's go back to it."


def _hands_over(message: str) -> bool:
    """Whether the agent says it hands over: a statement ("I'm passing you to a colleague"),
    not an offer it asks about ("Shall I connect you to a specialist?"), which is a
    confirmation to answer first."""
    return any(
        en.HANDOFF.search(s) and not en.ASKING.search(s)
        for s in re.split(r"(?<=[.!?])\s+", message)
    )


def opening_line(intent: str) -> str:
    """The first message from the intent (`want to file a claim` → `Hi, I'd like to file a
    claim.`)."""
    words = first_person(intent.strip().rstrip("."))
    head, _, rest = words.partition(" ")
    lead = {"want": "I'd like", "would": "I would", "'d": "I'd", "need": "I need"}
    text = f"{lead.get(head.lower(), 'I ' + head)} {rest}".strip()
    return f"Hi, {text}."


class FactSimulator:
    """Plays a `FactContext` (see module doc)."""

    engine = "offline"
    model: str | None = None

    def __init__(
        self,
        context: FactContext,
        *,
        questions: Mapping[str, Sequence[str]] | None = None,
        confirmations: Sequence[str] = (),
    ) -> None:
        self.context = context
        self.source = "fact-sheet context"
        self.questions = {k: [stems(q) for q in v] for k, v in (questions or {}).items()}
        """Fact label -> stems of the project's questions for that field."""
        self.verbatim = {k: {_plain(q) for q in v} for k, v in (questions or {}).items()}
        """Fact label -> the project's questions word for word ("where to")."""
        self.readbacks = [_template(t) for t in confirmations if _literal_words(t) >= 2]
        """The project's read-back confirmations, as patterns (`{amount}` matches anything)."""
        self._placed: dict[str, tuple[ContextFact, ...]] = {}
        """`placed` per question, shared with the `fresh` copies (same context, same
        answer)."""
        self._read: dict[str, tuple[bool, bool]] = {}
        """Per agent message: (one of the project's read-backs, any read-back), shared
        like `_placed`."""
        self._cued: dict[tuple[str, str, str], bool] = {}
        """`_matches` per (cue, question, message), shared like `_placed`."""
        self._start()

    def _start(self) -> None:
        """The state of one conversation (everything else is read from the context)."""
        self.usage = Usage()
        self._played: set[int] = set()
        self._said_before_end = False
        self._closed = False
        self._unplaced = 0
        self._turns = 0
        self._followed: set[int] = set()
        self._last = ""
        """The user's last line (a follow-up line is said on the turn after it)."""
        self._owed: str | None = None
        """The cue whose answer the user gives next (a line said before it, not instead)."""
        self._detour: str | None = None
        """The cue a digression interrupted, until the agent asks it again or goes back to
        the task ("" once it has)."""

    def fresh(self) -> FactSimulator:
        """A simulator for a new conversation with the same context, without reading the
        context and the project's questions again (a case is played once per mutant)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._start()
        return other

    def state(self) -> dict[str, Any]:
        """A copy of this conversation's state (see `_start`), for `resumed`."""
        return {
            "usage": self.usage.model_copy(),
            "_played": set(self._played),
            "_followed": set(self._followed),
            "_last": self._last,
            "_said_before_end": self._said_before_end,
            "_closed": self._closed,
            "_unplaced": self._unplaced,
            "_turns": self._turns,
            "_owed": self._owed,
            "_detour": self._detour,
        }

    def resumed(self, state: Mapping[str, Any]) -> FactSimulator:
        """A simulator for a conversation that went as far as `state` was taken (`state()`):
        the next step is decided from the history alone, so a conversation known to have
        gone the same way up to there goes on without its opening steps asked again."""
        other = self.fresh()
        other.__dict__.update(state)
        other._played = set(state["_played"])
        other._followed = set(state["_followed"])
        other.usage = state["usage"].model_copy()
        return other

    async def next_step(self, history: Sequence[Utterance]) -> SimulatorStep:
        self._turns += 1
        if self._turns == 1:
            return self._say(self.context.opening or opening_line(self.context.intent))
        if self._turns == 2 and self.context.after_first:
            return self._say(self.context.after_first)
        if self._closed:
            return SimulatorStep("", True, note="offline: closed the conversation")
        message = _since_user(history)
        return self.reply(message)

    def reply(self, message: str) -> SimulatorStep:
        """The answer to the agent's latest message(s) (rules 3–9)."""
        question = asked(message)
        said = stems(question)
        owed, self._owed = self._owed, None
        for index, follow in enumerate(self.context.follow_ups):
            if index not in self._followed and follow.after == self._last:
                self._followed.add(index)
                return self._say(follow.line)
        for index, cue in enumerate(self.context.cues):
            if index not in self._played and self._cue_matches(cue.cue, question, message):
                self._played.add(index)
                self._owed = cue.cue if cue.then_answer else None
                if cue.first and self.context.resume and self._detour is None:
                    self._detour = cue.cue  # the digression: the task waits on this ask
                return self._say(cue.line)
        if _hands_over(message) and en.PERSON_STOP.search(self.context.until or ""):
            return SimulatorStep("", True, note="offline: handed over, as the context says")
        back = self._back(question, message)
        if back is not None:
            return self._say(back)
        facts = self.placed(question)
        own, reads_back = self._read_back(message)
        if own or (reads_back and not self._names_in_full(facts, said)):
            # "decline" is for the confirmation before the action: where the project has
            # its own (a gated tool's read-back), a details check before it is agreed to
            declines = self.context.confirm == "decline" and (own or not self.readbacks)
            return self._say(DECLINE if declines else AGREE)
        # "anything else you want on file?" is a fact's question when it names the fact in
        # full; "anything else I can help with?" is the closing one
        if en.ANYTHING_ELSE.search(question) and not any(stems(f.label) <= said for f in facts):
            return self._finish(CLOSING)
        if facts:
            return self._say(_answer(facts))
        if not question and owed is not None:
            answer = self._owed_answer(owed)
            if answer is not None:  # the agent did not ask again: the user answers anyway
                return self._say(answer)
        if not question:
            return self._finish(None)
        self._unplaced += 1
        note = f"offline: no fact answers the agent's question ({' '.join(question.split())[:80]})"
        if self._unplaced > 1:
            return SimulatorStep("", True, note=note)
        return SimulatorStep(UNKNOWN, False, note=note)

    def _back(self, question: str, message: str) -> str | None:
        """After a digression, the way back to the task: the interrupted question asked
        again ends the detour (answered as usual); an offer to go back is taken; an
        "anything else?" before either is declined with a request to go back, and so is a
        turn that asks nothing (the detour's skill told its outcome and stopped): either
        would otherwise end the conversation before the task is done."""
        if not self._detour or not self.context.resume:
            return None
        if self._cue_matches(self._detour, question, message):
            self._detour = ""
            return None
        if any(f" {words} " in f" {_plain(question)} " for words in _BACK):
            self._detour = ""
            return RESUME_YES
        if en.ANYTHING_ELSE.search(question):
            self._detour = ""
            return f"No, thanks. Can we go back to {first_person(self.context.resume)}?"
        if not question and message.strip():
            self._detour = ""
            return f"Thanks. Can we go back to {first_person(self.context.resume)}?"
        return None

    def _owed_answer(self, cue: str) -> str | None:
        """The answer to the ask `cue` names, from the facts (its own fact, else the facts
        its words place)."""
        wanted = stems(cue)
        own = [f for f in self.context.facts if stems(f.label) == wanted]
        facts = own or self.placed(cue)
        return _answer(facts) if facts else None

    def _read_back(self, message: str) -> tuple[bool, bool]:
        """Whether `message` is one of the project's own read-backs, and whether it is any
        read-back (kept per message: every play of a case reads the same messages)."""
        kept = self._read.get(message)
        if kept is None:
            plain = " ".join(message.split())
            own = any(p.search(plain) for p in self.readbacks)
            kept = self._read[message] = (own, own or self._reads_back(message))
        return kept

    def _cue_matches(self, cue: str, question: str, message: str) -> bool:
        key = (cue, question, message)
        kept = self._cued.get(key)
        if kept is None:
            kept = self._cued[key] = self._matches(cue, question, message)
        return kept

    def _reads_back(self, message: str) -> bool:
        """A read-back confirmation: the usual words, or one of the project's own."""
        plain = " ".join(message.split())
        return en.CONFIRMATION.search(plain) is not None or any(
            p.search(plain) for p in self.readbacks
        )

    def _finish(self, closing: str | None) -> SimulatorStep:
        """Rules 7 and 8: the `Before you finish` line once, then the closing or done."""
        if self.context.before_end and not self._said_before_end:
            self._said_before_end = True
            return self._say(self.context.before_end)
        if closing is None:
            return SimulatorStep("", True, note="offline: the agent asked nothing more")
        self._closed = True
        return self._say(closing)

    def placed(self, message: str) -> list[ContextFact]:
        """The facts the message asks for (see rule 6)."""
        kept = self._placed.get(message)
        if kept is None:
            kept = self._placed[message] = tuple(self._place(message))
        return list(kept)

    def _place(self, message: str) -> list[ContextFact]:
        said = stems(message)
        scored = [(self._score(f, said, message), i, f) for i, f in enumerate(self.context.facts)]
        scored = [s for s in scored if s[0] >= 2]
        if not scored:
            return []
        full = [f for _, _, f in scored if stems(f.label) and stems(f.label) <= said]
        if len(full) > 1:
            # labels that share their words ("what happened", "when it happened and
            # where"): the ones the question says word for word, when it says any
            labels = [stems(f.label) for f in full]
            shared = any(a & b for i, a in enumerate(labels) for b in labels[i + 1 :])
            asked = f" {_plain(message)} "
            named = [f for f in full if f" {_plain(f.label)} " in asked]
            return named if named and shared else full
        # equal scores: the fact whose whole label the question says ("…, and how much it
        # weighs (the substance)" names the substance, not the animal it mentions on the way)
        whole = {id(f) for f in full}
        best = max(scored, key=lambda s: (s[0], id(s[2]) in whole, -s[1]))
        return [best[2]]

    def _names_in_full(self, facts: list[ContextFact], said: set[str]) -> bool:
        return any(stems(f.label) and stems(f.label) <= said for f in facts)

    def _score(self, fact: ContextFact, said: set[str], question: str = "") -> int:
        asked = _plain(question)
        if asked and any(q and q in asked for q in self.verbatim.get(fact.label, ())):
            return 10
        label = _plain(fact.label)
        if " " in label and f" {label} " in f" {asked} ":
            return 10  # the label said word for word ("what is the defect on")
        score = 2 * len(stems(fact.label) & said)
        score += len(stems(fact.value) & said) if score else 0
        value = _plain(fact.value)
        if not score and value and " or " in asked and re.search(rf"\b{re.escape(value)}\b", asked):
            score = 3  # a choice question ("cards or disputes?") that names this fact's value
        for question in self.questions.get(fact.label, ()):
            overlap = len(question & said)
            if overlap >= max(2, len(question) // 2):
                score = max(score, 2 + overlap)
        return score

    def _matches(self, cue: str, question: str, message: str) -> bool:
        """A cue naming a fact fires when that fact is what the question asks for; `you to
        confirm` at a read-back confirmation; any other cue when the question holds at
        least half its words."""
        wanted = stems(cue)
        if wanted == {"confirm"}:
            return self._reads_back(message)
        fact = next((f for f in self.context.facts if stems(f.label) == wanted), None)
        if fact is not None:
            return fact in self.placed(question)
        said = stems(question)
        plain = _plain(question)
        if plain and any(q and q in plain for q in self.verbatim.get(cue, ())):
            return True  # the project's own question for the field the cue names
        for words in self.questions.get(cue, ()):
            if len(words & said) >= max(2, len(words) // 2):
                return True
        return bool(wanted) and len(wanted & said) * 2 >= max(2, len(wanted))

    def _say(self, line: str) -> SimulatorStep:
        self._unplaced = 0
        self._last = line
        return SimulatorStep(line, False)


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@lru_cache(maxsize=4096)
def asked(message: str) -> str:
    """The sentences of `message` that ask something (a question mark or a request); kept
    per message (every play of a case reads the same agent messages)."""
    parts = _SENTENCE.split(" ".join(message.split()))
    return " ".join(p for p in parts if en.ASKING.search(p))


def _literal_words(text: str) -> int:
    return len(re.sub(r"\{[^{}]*\}", " ", text).split())


def _template(text: str) -> re.Pattern[str]:
    """A response text as a pattern: its `{slots}` match any words."""
    parts = re.split(r"\{[^{}]*\}", " ".join(text.split()))
    pieces = [re.escape(p.strip()).replace(r"\ ", r"\s+") for p in parts]
    return re.compile(r"\s*.*?\s*".join(pieces), re.I | re.S)


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", text.lower()).split())


def _since_user(history: Sequence[Utterance]) -> str:
    lines: list[str] = []
    for utterance in reversed(history):
        if utterance.role == "user":
            break
        lines.append(utterance.text)
    return " ".join(reversed(lines))


def _answer(facts: list[ContextFact]) -> str:
    """One fact: its value exactly as the sheet lists it (the value a case asserts);
    several: one sentence naming each ("My date of birth is … and my postcode is …")."""
    if len(facts) == 1:
        return facts[0].value.strip()
    parts = [f"my {f.label} is {f.value}" for f in facts]
    return _sentence(", ".join(parts[:-1]) + f" and {parts[-1]}")


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".?!" else text + "."


__all__ = ["AGREE", "CLOSING", "DECLINE", "UNKNOWN", "FactSimulator", "opening_line"]
