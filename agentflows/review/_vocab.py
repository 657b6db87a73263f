"""The ids a project defines, and where a piece of prose names one.

Review rules ask "does this criterion (or persona) name a tool, a response, a memory key?".
Ids that look like identifiers (`block_card`, `card_replace.order_id`, `insuranceProvider`,
`utter_x`) are found anywhere; ids that are plain words (`book`, `booked`, `lookup`) only
next to the noun that says what they are ("the book playbook", "the booked outcome") or in
backticks, so ordinary English is not mistaken for an id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from evalcore.definitions import Project
from evalcore.lexicon.notation.mantle_references import INTERNAL_TOKEN as _INTERNAL_TOKEN
from evalcore.lexicon.notation.response_names import RESPONSE_NAME as _UTTER

IdKind = Literal["response", "memory", "tool", "skill", "block", "playbook", "outcome", "field"]

#: When two kinds share a name, the first kind in this order wins.
_KIND_ORDER: tuple[IdKind, ...] = (
    "response",
    "memory",
    "tool",
    "skill",
    "block",
    "playbook",
    "outcome",
    "field",
)
#: The noun that makes a plain-word id recognisable in prose.
_NOUNS: dict[IdKind, str] = {
    "response": r"response|message",
    "memory": r"memory|slot|key|field",
    "tool": r"tool|function|action",
    "skill": r"skill",
    "block": r"block",
    "playbook": r"playbook",
    "outcome": r"outcome",
    "field": r"field",
}


#: Texts whose mentions a vocabulary keeps (then it starts again).
_KEPT_TEXTS = 4096


@dataclass(frozen=True)
class Mention:
    """An id named in a text, with where it starts and ends."""

    id: str
    kind: IdKind
    start: int
    end: int
    qualified: str
    """For a bare memory key: the `<ns>.<key>` it stands for; otherwise the id itself."""


@dataclass
class Vocabulary:
    """Every id of one project, by kind, plus the values a case may name."""

    ids: dict[str, tuple[IdKind, str]] = field(default_factory=dict)
    """id -> (kind, qualified name)."""
    values: set[str] = field(default_factory=set)
    """Enum values, tool choices, outcomes: concrete things a criterion may name."""
    _by_length: list[str] | None = None
    _by_start: dict[str, list[str]] | None = None
    """First three characters → the ids starting with them (ids shorter than three
    characters under "")."""
    _rank: dict[str, int] = field(default_factory=dict)
    _patterns: dict[tuple[str, ...], re.Pattern[str]] = field(default_factory=dict)
    _mentioned: dict[str, tuple[Mention, ...]] = field(default_factory=dict)
    """`mentions` per text (a suite's cases share their criteria; dropped by `add`)."""

    def add(self, name: str, kind: IdKind, qualified: str | None = None) -> None:
        if not name:
            return
        current = self.ids.get(name)
        if current is None or _KIND_ORDER.index(kind) < _KIND_ORDER.index(current[0]):
            self.ids[name] = (kind, qualified or name)
        self._by_length = None
        self._by_start = None
        self._patterns.clear()
        self._mentioned.clear()

    def mentions(self, text: str) -> list[Mention]:
        """Ids named in `text`, longest first where they overlap, in text order."""
        kept = self._mentioned.get(text)
        if kept is None:
            if len(self._mentioned) >= _KEPT_TEXTS:
                self._mentioned.clear()
            kept = self._mentioned[text] = tuple(self._mentions(text))
        return list(kept)

    def _mentions(self, text: str) -> list[Mention]:
        found: list[Mention] = []
        taken: list[tuple[int, int]] = []
        for match in sorted(self._matches(text), key=lambda m: -(m[2] - m[1])):
            name, start, end = match
            if any(start < e and s < end for s, e in taken):
                continue
            kind, qualified = self.ids.get(name, ("response", name))
            found.append(Mention(name, kind, start, end, qualified))
            taken.append((start, end))
        return sorted(found, key=lambda m: m.start)

    def _matches(self, text: str) -> list[tuple[str, int, int]]:
        out = [(m.group(0), m.start(), m.end()) for m in _UTTER.finditer(text)]
        if self.ids:
            for m in self._regex(text).finditer(text):
                name = next(g for g in m.groups() if g)
                out.append((name, m.start(m.lastindex or 0), m.end(m.lastindex or 0)))
        return out

    def _regex(self, text: str) -> re.Pattern[str]:
        """The alternation of the ids `text` contains (each alternative captures its id as
        written, so an id that is not a substring of `text` can never match: leaving it out
        finds the same matches, and a short pattern is much faster than one of every id)."""
        if self._by_length is None or self._by_start is None:
            self._by_length = sorted(self.ids, key=len, reverse=True)
            self._rank = {name: i for i, name in enumerate(self._by_length)}
            self._by_start = {}
            for name in self._by_length:
                self._by_start.setdefault(name[:3] if len(name) >= 3 else "", []).append(name)
        # An id of three characters or more inside `text` starts with three characters of
        # `text`: only the ids under those starts (and the shorter ids) are looked for, in
        # `_by_length` order as before.
        # The starts present are found by looking each one up in the text (a search in C)
        # when there are fewer of them than the text has characters to slice into grams.
        starts = self._by_start
        if len(starts) * 8 < len(text):
            candidates = [name for gram, names in starts.items() if gram in text for name in names]
        else:
            grams = {text[i : i + 3] for i in range(len(text) - 2)}
            grams.add("")
            candidates = [name for gram in grams & starts.keys() for name in starts[gram]]
        present = tuple(sorted((n for n in candidates if n in text), key=self._rank.__getitem__))
        pattern = self._patterns.get(present)
        if pattern is None:
            pattern = self._patterns[present] = self._compile(present)
        return pattern

    def _compile(self, names: tuple[str, ...]) -> re.Pattern[str]:
        if not names:
            return re.compile(r"(?!)")
        alternatives: list[str] = []
        for name in names:
            kind = self.ids[name][0]
            word = re.escape(name)
            if looks_like_id(name):
                alternatives.append(rf"(?<![\w.-])({word})(?![\w-]|\.\w)")
            else:
                noun = _NOUNS[kind]
                alternatives.append(
                    rf"`({word})`|\b({word})\s+(?i:{noun})s?\b"
                    rf"|\b(?i:{noun})s?\s+['\"]?({word})\b"
                )
        return re.compile("|".join(alternatives))


def looks_like_id(name: str) -> bool:
    """True for names no English word spells: snake_case, dotted, kebab-case or camelCase."""
    return bool(re.search(r"[_.]|[a-z][A-Z]|\w-\w", name))


def internal_tokens(text: str) -> list[re.Match[str]]:
    """`@tool.x`, `@memory.ns.key` and `session.ns.key` tokens (skill.md syntax)."""
    return list(_INTERNAL_TOKEN.finditer(text))


def vocabulary(project: Project | None) -> Vocabulary:
    """The vocabulary of `project` (empty without one: only `utter_…` names are found)."""
    vocab = Vocabulary()
    if project is None:
        return vocab
    if project.mantle is not None:
        _mantle(vocab, project)
    if project.anychat is not None:
        _anychat(vocab, project)
    if project.agent_skills is not None:
        for name in project.agent_skills.skills:
            vocab.add(name, "skill")
    return vocab


def _mantle(vocab: Vocabulary, project: Project) -> None:
    defs = project.mantle
    assert defs is not None
    for name in defs.all_responses():
        vocab.add(name, "response")
    for qualified, memory_field in defs.memory_names().items():
        vocab.add(qualified, "memory")
        vocab.add(memory_field.name, "memory", qualified)
        vocab.values |= {str(v) for v in memory_field.enum_values or [] if len(str(v)) > 2}
    for skill_id, skill in defs.skills.items():
        vocab.add(skill_id, "skill")
        for block_id in skill.blocks:
            vocab.add(block_id, "block")
        for tool in defs.tools_for(skill_id).values():
            vocab.add(tool.name, "tool")
            for parameter in tool.parameters:
                vocab.values |= {str(v) for v in parameter.choices or [] if len(str(v)) > 2}
    for tool in defs.shared_tools.values():
        vocab.add(tool.name, "tool")


def _anychat(vocab: Vocabulary, project: Project) -> None:
    defs = project.anychat
    assert defs is not None
    for playbook in defs.playbooks.values():
        vocab.add(playbook.id, "playbook")
        vocab.values |= set(playbook.outcomes)
    for tool in defs.tools.values():
        vocab.add(tool.name, "tool")
    for outcome in defs.outcomes:
        vocab.add(outcome, "outcome")
        vocab.values.add(outcome)
    for person_field in defs.person_fields.values():
        if not person_field.builtin:
            vocab.add(person_field.key, "field")
        vocab.values |= set(person_field.choices or [])


__all__ = ["IdKind", "Mention", "Vocabulary", "internal_tokens", "looks_like_id", "vocabulary"]
