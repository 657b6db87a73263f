"""Which value of a field and which skill a message names (word matching, kept per text).

`FieldWords` reads a categorical field's answer; `SkillWords` routes a message to a skill;
both are built once per loaded definitions (`field_words`, `skill_words`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..._stem import stem
from ...definitions import MantleDefinitions, Skill, memoized
from ...lexicon.en.customer_replies import CORRECTION as _CORRECTION
from ...lexicon.en.negated_mentions import WORD_BEFORE as _NEGATED
from ...lexicon.en.skill_routing import CATCH_ALL
from ...lexicon.notation.mantle_references import SET_PAYLOAD as _PAYLOAD
from ...testdata import caught_by
from ._example_modes import field_examples
from ._mantle_text import _EXPLAINED, routing_description, spoken, stems

#: A quoted phrasing in a description: "I'm sick", “book time off”.
_QUOTED = re.compile(r"[\"“]([^\"“”]{2,80})[\"”]")


def _plain(text: str) -> str:
    """Lower-case words, typographic apostrophes made plain, punctuation dropped."""
    return " ".join(re.findall(r"[a-z0-9']+", text.lower().replace("’", "'")))


#: Texts whose word matches a `FieldWords` / `SkillWords` keeps (then it starts again).
_MEMO_TEXTS = 4096
#: A value written in digits is also said in words ("Six, please." names `6`).
_NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen twenty"
)
_NUMBER_WORDS = dict(enumerate(_NUMBERS.split())) | {
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    90: "ninety",
    100: "hundred",
}


def _said_as(value: Any) -> list[str]:
    """The ways a value is said: its own words, and a number's name for a digit value."""
    out = [spoken(value)]
    text = str(value).strip()
    if text.isdigit() and int(text) in _NUMBER_WORDS:
        out.append(_NUMBER_WORDS[int(text)])
    return out


def _said_pattern(example: str) -> re.Pattern[str]:
    """The words of `example` in a message, whatever the punctuation and case between; a
    detail of the example (a name inside it, a number, a hyphened id: "Raj", "3pm",
    "push-gateway") any one such word, since one case's request names its own ("roll back
    checkout-api" asks for the rollback as "roll back push-gateway" does)."""
    parts: list[str] = []
    for index, token in enumerate(example.replace("’", "'").split()):
        token = token.strip('.,;:!?"()')
        capital = index > 0 and token[:1].isupper() and not token.startswith("I'") and token != "I"
        if token and (capital or any(c.isdigit() for c in token) or "-" in token.strip("-")):
            parts.append(r"[\w'.-]+")
            continue
        parts += [re.escape(w) for w in re.findall(r"[a-z0-9']+", token.lower())]
    return re.compile(r"(?<![\w'])" + r"\W+".join(parts) + r"(?![\w'])", re.I)


def _joined_at(value: Any, text: str) -> list[int]:
    """Where two words of `text` say a one-word value as the compound it writes them as
    ("locked out" says `lockout`, "log in" `login`, "check-in" `checkin`): the first word
    or its stem, then the second, with only a space or a hyphen between."""
    word = spoken(value)
    if " " in word or len(word) < 5:
        return []
    lowered = text.lower()
    tokens = list(re.finditer(r"[a-z]+", lowered))
    return [
        first.start()
        for first, second in pairwise(tokens)
        if re.fullmatch(r"[\s-]+", lowered[first.end() : second.start()])
        and word in (first[0] + second[0], stem(first[0]) + second[0])
    ]


@dataclass(frozen=True)
class Found:
    value: Any
    score: int
    position: int

    @property
    def strong(self) -> bool:
        return self.score >= 2


def button_titles(defs: MantleDefinitions) -> dict[str, list[tuple[str, str]]]:
    """(value, title) of every button whose payload sets a memory key, by key, in the
    responses' order: read once per loaded definitions (each field's words looked through
    every response of the project, so building them all grew with the skills squared)."""
    return memoized(defs, "button_titles", lambda: _button_titles(defs))


def _button_titles(defs: MantleDefinitions) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for response in defs.all_responses().values():
        for variant in response.variants:
            for button in variant.buttons:
                match = _PAYLOAD.match(button.payload or "")
                if match:
                    out.setdefault(match["key"], []).append((match["value"], button.title))
    return out


class FieldWords:
    """The values of one categorical field and the words that name them."""

    def __init__(self, defs: MantleDefinitions, qualified: str) -> None:
        self.qualified = qualified
        namespace, _, name = qualified.partition(".")
        self.name = name
        field = defs.memory_field(qualified)
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
        for value, title in button_titles(defs).get(qualified, ()):
            if value in phrases:
                phrases[value].append(title)
        found = {v: set(stems(" ".join([spoken(v), *p]))) for v, p in phrases.items()}
        self.words = found
        counts: dict[str, int] = {}
        for words in found.values():
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self.distinct = {v: {w for w in words if counts[w] == 1} for v, words in found.items()}
        self.phrases = phrases
        # a description example of one job names that job's value, whatever other value
        # its words say ("why did my deploy fail" asks to diagnose, not to deploy), and
        # where its words name none ("what's my day look like" asks for the agenda)
        self._matched: dict[str, tuple[Found, ...]] = {}
        self.examples: list[tuple[re.Pattern[str], Any]] = []
        for example, value in field_examples(defs, qualified).items():
            self.examples.append((_said_pattern(example), value))

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
        for pattern, value in self.examples:
            said = pattern.search(text)
            if said is None:
                continue
            # the example's words name no other value; what the rest says still counts
            blank = " " * (said.end() - said.start())
            found = self._scored(text[: said.start()] + blank + text[said.end() :])
            mine = next((f for f in found if f.value == value), None)
            score = max(10, mine.score if mine else 0)
            found = [f for f in found if f.value != value]
            found.append(Found(value, score, said.start()))
            return sorted(found, key=lambda f: (-f.score, -f.position))
        return self._scored(text)

    def _scored(self, text: str) -> list[Found]:
        lowered = text.lower()
        cue = _CORRECTION.search(text)
        out = []
        words = stems(text)
        for value in self.values:
            score, position = 0, len(text)
            own = re.compile(
                r"(?<![\w'])(?:"
                + "|".join(
                    r"[\s_\-]+".join(re.escape(p) for p in said.split()) for said in _said_as(value)
                )
                + r")(?![\w])",
                re.I,
            )
            starts = [m.start() for m in own.finditer(text)] + _joined_at(value, text)
            mentions = [at for at in starts if not _NEGATED.search(text[max(0, at - 8) : at])]
            if mentions:
                score, position = 10, max(mentions)
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
        if self.undecided(text):
            return None  # "either lost or stolen": unclear, so the question is asked again
        if found:
            return found[0].value
        said = set(stems(text))
        shared = [(len(said & self.words.get(v, set())), -i, v) for i, v in enumerate(self.values)]
        best = max(shared, default=(0, 0, None))
        if best[0]:
            return best[2]
        return caught_by(self.name, text, self.values)  # "Portugal": the choice's `other`

    def undecided(self, text: str) -> bool:
        """Whether `text` names two or more of the values without a correction picking one
        ("It's either Car or Homeowner, I'm not sure"): no correct agent guesses between
        them, whatever else (a listed record) the words match."""
        named = {f.value for f in self.matches(text) if f.score >= 10}
        return len(named) > 1 and _CORRECTION.search(text) is None

    def stated(self, text: str) -> Any:
        """A value stated without being asked: own words or two distinctive stems."""
        found = [f for f in self.matches(text) if f.strong]
        return found[0].value if found else None

    def fallback(self) -> Any:
        for value, phrases in self.phrases.items():
            if CATCH_ALL.search(" ".join(phrases) + " " + str(value)):
                return value
        return None


class SkillWords:
    """Which skill a message asks for."""

    def __init__(self, skills: list[Skill]) -> None:
        self.vocab = {
            s.id: set(
                stems(
                    f"{s.name or ''} {s.id.replace('_', ' ')} "
                    f"{routing_description(s.description or '')}"
                )
            )
            for s in skills
        }
        counts: dict[str, int] = {}
        for words in self.vocab.values():
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        self.weight = {w: 1.0 / n for w, n in counts.items()}
        self._scored: dict[str, dict[str, float]] = {}
        # Which skills hold a word, and whose names are which words: a message is scored
        # against the skills it shares a word with, not against every skill of the project.
        self.holders: dict[str, list[str]] = {}
        for skill, words in self.vocab.items():
            for word in words:
                self.holders.setdefault(word, []).append(skill)
        self.names = {s.id: frozenset(stems(s.name or "")) for s in skills}
        self.named: dict[str, list[str]] = {}
        for skill, name in self.names.items():
            if name:
                self.named.setdefault(min(name), []).append(skill)
        self._hits: dict[str, dict[str, float]] = {}
        #: `routed_skill`'s answer per (text, closed skills): the reference agent routes the
        #: same lines in every play of a case, and each answer weighs every skill they hit.
        self.routes: dict[tuple[str, frozenset[str]], str | None] = {}
        #: `routing_ties`' answer, kept the same way.
        self.ties: dict[tuple[str, frozenset[str]], tuple[str, ...]] = {}
        # The phrasings a description quotes ("Activate for phrases like "I'm sick""): a
        # message that says one of them asks for that skill as surely as one naming it.
        self.phrased: dict[str, list[tuple[str, str]]] = {}
        for s in skills:
            for quoted in _QUOTED.findall(routing_description(s.description or "")):
                phrase = _plain(quoted)
                if phrase:
                    self.phrased.setdefault(phrase.split()[0], []).append((phrase, s.id))

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

    def hits(self, text: str) -> dict[str, float]:
        """The skills that share a word with `text`, scored as `scores` scores them (every
        other skill scores 0); a new dict the caller may change, kept per text."""
        kept = self._hits.get(text)
        if kept is None:
            if len(self._hits) >= _MEMO_TEXTS:
                self._hits.clear()
            words = set(stems(text))
            near = {skill for word in words for skill in self.holders.get(word, ())}
            kept = self._hits[text] = {
                skill: round(sum(self.weight[w] for w in words & self.vocab[skill]), 3)
                for skill in near
            }
        return dict(kept)

    def named_in(self, said: set[str]) -> list[str]:
        """The skills whose whole name `said` holds (its stems)."""
        return [
            skill
            for stem in said
            for skill in self.named.get(stem, ())
            if self.names[skill] <= said
        ]

    def phrased_in(self, text: str) -> set[str]:
        """The skills one of whose quoted phrasings `text` says word for word."""
        plain = _plain(text)
        padded = f" {plain} "
        return {
            skill
            for word in set(plain.split())
            for phrase, skill in self.phrased.get(word, ())
            if f" {phrase} " in padded
        }

    def best(self, text: str, exclude: set[str] = frozenset()) -> tuple[str | None, float]:
        """The highest-scoring skill for `text` (first by name among ties) and its score;
        (None, 0.0) when none scores above 0. Only a skill sharing a word with `text` can
        score above 0, so the skills it hits are weighed (`hits`), not every skill."""
        scores = {k: v for k, v in self.hits(text).items() if k not in exclude}
        if not scores:
            return None, 0.0
        skill = max(sorted(scores), key=lambda k: scores[k])
        return (skill, scores[skill]) if scores[skill] > 0 else (None, 0.0)


def routed_skill(
    defs: MantleDefinitions, words: SkillWords, text: str, closed: set[str] = frozenset()
) -> str | None:
    """The skill a message asks for: description words weighted by how few skills use
    them, and a skill whose whole name the message says ("refill a prescription") first;
    None when no open skill scores 1.0. The reference agent routes with it, and drafting
    checks with it that an opening line asks for its skill."""
    key = (text, frozenset(closed))
    if key not in words.routes:
        if len(words.routes) >= _MEMO_TEXTS:
            words.routes.clear()
        scores = routing_scores(defs, words, text, closed)
        best = max(sorted(scores), key=lambda k: scores[k], default=None)
        words.routes[key] = best if best is not None and scores[best] >= 1.0 else None
    return words.routes[key]


def routing_ties(
    defs: MantleDefinitions, words: SkillWords, text: str, closed: set[str] = frozenset()
) -> list[str]:
    """The open skills that score as high as the routed one for `text`, itself first
    (empty when one skill wins outright): among them `routed_skill`'s pick is by name
    order only, where a real router would read the two descriptions as the same."""
    key = (text, frozenset(closed))
    if key not in words.ties:  # kept as `routed_skill`'s answer is
        if len(words.ties) >= _MEMO_TEXTS:
            words.ties.clear()
        words.ties[key] = _ties(defs, words, text, closed)
    return list(words.ties[key])


def _ties(
    defs: MantleDefinitions, words: SkillWords, text: str, closed: set[str]
) -> tuple[str, ...]:
    scores = routing_scores(defs, words, text, closed)
    routed = routed_skill(defs, words, text, closed)
    if routed is None:
        return ()
    tied = sorted(k for k, v in scores.items() if v == scores[routed] and k != routed)
    return (routed, *tied) if tied else ()


def routing_scores(
    defs: MantleDefinitions, words: SkillWords, text: str, closed: set[str] = frozenset()
) -> dict[str, float]:
    """The routing score for `text` of each open skill that scores at all (see
    `routed_skill`; the others score 0). Only the skills the text shares a word with are
    scored: doing every skill for every message made a case's cost grow with the skills."""
    said = set(stems(text))
    scores = words.hits(text)
    for skill_id in closed:
        scores.pop(skill_id, None)  # not routable while its precondition is false
    for skill_id in words.phrased_in(text) - closed:
        scores[skill_id] = scores.get(skill_id, 0.0) + 1.0
    for skill_id in words.named_in(said):
        if skill_id not in closed:
            scores[skill_id] = scores.get(skill_id, 0.0) + 1.0 + 0.1 * len(words.names[skill_id])
    return scores


def routing_words(defs: MantleDefinitions) -> SkillWords:
    """The routing words of every skill the agent can run (hidden ones too: a hidden skill
    is reached by the user's words alone). Kept per loaded definitions: every session (one
    per case and mutant) asks, and listing the skills each time grew with the skills."""
    return memoized(
        defs,
        ("routing_words", len(defs.skills)),
        lambda: skill_words(defs, [s for s in defs.skills.values() if not s.disabled]),
    )


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


__all__ = [
    "FieldWords",
    "Found",
    "SkillWords",
    "field_words",
    "routed_skill",
    "routing_ties",
    "routing_words",
    "skill_words",
]
