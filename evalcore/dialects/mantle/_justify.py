"""The Mantle definition element behind each check of a scenario (see `evalcore.justify`).

Read from the definitions themselves (frontmatter, ordered blocks, prose sentences with their
lines, the tools' code), never from how casegen planned the case:

- `skill_activated`: routing by the skill's `description` (enforced);
- `skill_completed`: the skill's `complete_when` (enforced), else its prose (instructed);
- `skill_interrupted` / `_resumed` / `_cancelled`: the runtime's detour handling (enforced);
- ordered-block checks: the block, weighed with what enters it (a `call` step, prose);
- `tool_executed`: an `execute_tool` step (enforced), else the prose naming the tool;
- `memory_was_set`: a `set_memory` or collect step or a tool's code writing the entry
  (enforced, as strong as the tool's call), the case's own `initial_slots`, else the prose
  naming the entry; `memory_was_not_set`: enforced when only the runtime writes the entry;
- `bot_uttered`: an `utter:` rule (`on:` enforced, `when:` enforced when the case fixes the
  condition), a gate's utters and `on_success`/`on_failure` (as strong as the tool's call),
  an `action` step, else prose naming the response;
- `sequencing`: its weakest step, and conditional when two neighbouring steps are both left
  to the model (their order is the model's choice).

Prose is `conditional` when its paragraph's `if:` guard names memory the case does not fix,
or its sentence is permissive ("may", "optionally", "can") or guarded ("If ...", "when ...",
"unless ...", "only if ...") by words the case's conversation does not hold.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ..._readbytes import read_text
from ..._stem import stem
from ...agents.reference import example_mode
from ...definitions import memoized
from ...definitions.conditions import compared_values, condition_keys, evaluate
from ...definitions.conditions import evaluate as holds_on
from ...definitions.skill_model import (
    body_first_line,
    completion_instruction,
    held_thing,
    says_lacking,
    sentences,
    skill_model,
    tool_keys,
)
from ...justify import RANK, Judged, Justification, strongest, weakest
from ...lexicon.en.guard_clause_words import GUARD_DIALOG as _DIALOG
from ...lexicon.en.guard_clause_words import SPEECH_VERBS as _SPEECH
from ...lexicon.en.guard_conditions import CLAUSE_SUBJECT
from ...lexicon.en.guard_conditions import GUARD as _GUARD
from ...lexicon.en.guard_conditions import NOT_SAID as _NOT_SAID
from ...lexicon.en.guard_conditions import ONLY_WHEN_ASKED as _ONLY_WHEN_ASKED
from ...lexicon.en.guard_conditions import PERMISSIVE as _PERMISSIVE
from ...lexicon.en.skill_prose import OWN_REPLY_CLOSE, OWN_REPLY_OPEN
from ...lexicon.notation.mantle_conditions import equal_short
from ...lexicon.notation.mantle_references import FIELD_REFERENCE as _FIELD_REF
from ...lexicon.notation.mantle_references import block_reference
from ...simulator import parse_fact_context
from ...testdata import DataRecords, load_records
from ._prose_lines import SETTING, Line, agent_lines, likeness, locate, words

if TYPE_CHECKING:
    from ...definitions import MantleDefinitions, Project, Skill, Step

#: A permission in parentheses qualifies only what it stands beside, not the sentences
#: after it ("(the Rx number helps but is optional). Then call ...").
_OWN_SCOPE = re.compile(r"\([^()]*\)")
_WORD = re.compile(r"[a-z][a-z_]{2,}")
#: What a guard set off by commas follows when it scopes what comes after it, not the act
#: named before it ("call x with A and, if they gave one, a note").
_CONJUNCTIONS = ("and,", "or,", "then,")
#: A clause that opens the other branch of the guard before it.
_OTHERWISE = frozenset({"otherwise", "otherwise,", "else", "else,"})
#: What names an element in prose: a backticked name or an `@reference`.
_NAMES = re.compile(r"`[^`]+`|@\w+\.\w")
#: The words of `_DIALOG` (and their stems) that say nothing in a criterion ("does").
_NOISE = (_DIALOG | frozenset(stem(w) for w in _DIALOG)) - {
    w for s in _SPEECH for w in (s, stem(s))
}


def _after_success(text: str, case: _Case) -> tuple[str, str] | None:
    """The tool a criterion waits on and what it says the agent does once that tool, which
    the case runs, answers so ("If submit_refill succeeds, the agent gives the ready time"),
    said unconditionally ("The agent gives the ready time"); None for any other."""
    head, sep, rest = text.partition(", the agent ")
    said = head.split()
    if not sep or len(said) < 3 or said[0] != "If" or said[1] not in case.called:
        return None
    return said[1], f"The agent {rest}"


@dataclass
class _Case:
    """What the case itself fixes: its user's words and the memory it seeds or asserts."""

    text: str
    fields: set[str] = field(default_factory=set)
    slots: dict[str, Any] = field(default_factory=dict)
    values: dict[str, set[str]] = field(default_factory=dict)
    """Entry -> the values the case seeds or asserts for it (as lower-case text)."""
    asserted: dict[str, Any] = field(default_factory=dict)
    """Entry -> the value the case asserts it ends with (the last one asserted)."""
    passed: dict[str, list[Any]] = field(default_factory=dict)
    """Entry -> the values asserted before its last one: a case that takes one branch and
    then asks for another (the missing-bag report, then its delivery change) passes each."""
    ran: set[str] = field(default_factory=set)
    """Tools the case asserts ran without an error."""
    called: set[str] = field(default_factory=set)
    """Tools the case asserts were called: they ran, or their confirmation was asked."""
    refused: set[str] = field(default_factory=set)
    """Tools whose confirmation the case asserts was refused: they never run in it."""
    uttered: set[str] = field(default_factory=set)
    """Responses the case asserts the agent uttered."""
    later: dict[str, set[str]] = field(default_factory=dict)
    """Entry -> tools a sequencing of the case runs only after the entry is set."""
    activated: list[str] = field(default_factory=list)
    """Skills the case asserts were activated, in order (the first is the one asked for)."""
    requests: tuple[str, ...] = ()
    """The lines its user asks with (`Open with:`, the request after a sign-in)."""

    @classmethod
    def of(cls, data: dict[str, Any]) -> _Case:
        scenario = _dict(data.get("scenario"))
        setup = _dict(scenario.get("setup"))
        slots = _dict(setup.get("initial_slots"))
        fields = set(slots)
        values: dict[str, set[str]] = {k: {str(v).lower()} for k, v in slots.items()}
        asserted: dict[str, Any] = {}
        passed: dict[str, list[Any]] = {}
        for check in _walk_checks(_list(_dict(scenario.get("goals")).get("assertions"))):
            for item in _items(check.get("memory_was_set")):
                if isinstance(item.get("name"), str):
                    fields.add(item["name"])
                    if "value" in item:
                        values.setdefault(item["name"], set()).add(str(item["value"]).lower())
                        if item["name"] in asserted and asserted[item["name"]] != item["value"]:
                            passed.setdefault(item["name"], []).append(asserted[item["name"]])
                        asserted[item["name"]] = item["value"]
        words = str(scenario.get("simulation_context") or "")
        for name, value in slots.items():
            words += f" {name} {value}"
        later: dict[str, set[str]] = {}
        for check in _list(_dict(scenario.get("goals")).get("assertions")):
            steps = [_dict(s) for s in _list(_dict(check).get("sequencing"))]
            for index, step in enumerate(steps):
                for item in _items(step.get("memory_was_set")):
                    after = steps[index + 1 :]
                    ran = {str(_dict(s.get("tool_executed")).get("tool_name")) for s in after}
                    later.setdefault(str(item.get("name")), set()).update(ran - {"None"})
        activated = [
            str(_dict(check.get("skill_activated")).get("skill_id"))
            for check in _list(_dict(scenario.get("goals")).get("assertions"))
            if isinstance(check, dict) and "skill_activated" in check
        ]
        told = parse_fact_context(str(scenario.get("simulation_context") or ""))
        requests = tuple(r for r in (told.opening, told.after_first) if r)
        return cls(
            words.lower(),
            fields,
            dict(slots),
            values,
            asserted,
            passed=passed,
            later=later,
            activated=activated,
            requests=requests,
        )


#: Where a check rests on the Mantle runtime's own behaviour rather than a project file.
RUNTIME = "(Mantle runtime)"
_DETOUR = {
    "skill_interrupted": "detour handling: {} is parked when another skill starts mid-way",
    "skill_resumed": "detour handling: {} resumes once the skill that interrupted it ends",
    "skill_cancelled": "detour handling: {} is cancelled when the user abandons it",
}

#: When the runtime counts a tool's result as a failure (Rasa's skill executor: a raised
#: error, or a result whose `error`/`errors` key is set): the rule an `on_success` or
#: `on_failure` response rests on, where a reviewer may read `{"ok": false, "error": ...}`
#: as an ordinary answer.
_RESULT_RULE = {
    "on_success": (
        " (said only for a result without an `error` key: the runtime counts a result with"
        " one as a failure)"
    ),
    "on_failure": " (a raised error or a result with its `error` key set)",
}

#: A block's own detour events: the runtime records them with the skill's when the step
#: it parks or resumes is a step of that block (`ordered_block_resumed` beside
#: `skill_resumed`, with the same `step_id`).
_BLOCK_DETOUR = {
    "interrupted": "detour handling: parking {1} at a step of block {0} records this event too",
    "resumed": "detour handling: resuming {1} at a step of block {0} records this event too",
    "cancelled": "detour handling: cancelling {1} at a step of block {0} records this event too",
}

#: Which step a block's completion names: the runtime pops the block when the step it runs
#: goes on to END (its `next`, or no step after it) or links away, and the event carries
#: that step's id (the frame's cursor), never END itself.
_BLOCK_END = "the completion event names the last step run, {0}, never END"

#: The value of an entry the case sets or its user states without saying which value.
_STATED = "<stated>"


def _condition_words(clause: str) -> str:
    """What a guard clause tests, lower-case: without its parentheses ("(R- and eight
    digits)") and without the instruction that follows it where no comma parts them ("If
    they have an order number use @tool.get_order_status": its verb and the reference)."""
    text = _OWN_SCOPE.sub(" ", clause)
    reference = re.search(r"@\w+\.", text)
    if reference is not None:
        before = text[: reference.start()].split()
        if len(before) >= 2:
            text = " ".join(before[:-1])
    return text.lower()


def _lacked_guard(text: str, said: str) -> bool:
    """Whether `text` is "If they have an order number … use @tool.a; otherwise … @tool.b"
    and the case's user says they do not have the thing ("I don't have my order number"):
    the otherwise branch is then the one the prose tells the agent to take."""
    thing = held_thing(text)
    later = re.split(r"(?<=;)\s+", text)[1:]
    return (
        thing is not None
        and any(c.split()[:1] and c.split()[0].lower() in _OTHERWISE for c in later)
        and says_lacking(thing, said)
    )


def _compared(condition: str, name: str) -> set[str]:
    """The values `condition` compares entry `name` with (`== 'lost'`), lower-case."""
    short = re.escape(name.split(".", 1)[1])
    found = equal_short(short).findall(condition)
    return {next(v for v in groups if v).lower() for groups in found if any(groups)}


def _said(value: str, text: str) -> bool:
    """`value` (`not_received`) is a word of the case's text (as `not_received` or
    `not received`). Searched only where the text holds it at all: a criterion is tried
    against every entry of the skills its case runs."""
    return any(
        v in text and _word(v).search(text) is not None
        for v in {value, value.replace("_", " ")}
        if v
    )


@functools.lru_cache(maxsize=8192)
def _word(value: str) -> re.Pattern[str]:
    """A pattern finding `value` as a whole word (`_said`), kept: a project of many
    entries names more than `re`'s own cache holds."""
    return re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")


def _via(own: Justification, entry: Justification | None) -> Justification | None:
    """An element that acts only once something else leads to it (a block step once the
    block is entered, a gate's utter once the tool is called): as strong as the weaker of
    the two, cited at the element itself with where it is reached from."""
    if entry is None:
        return None
    if RANK[entry.kind] >= RANK[own.kind]:
        return own
    via = ", reached by "
    reach = entry.element.rsplit(via, 1)[1] if via in entry.element else entry.place
    return Justification(entry.kind, own.file, own.line, f"{own.element}{via}{reach}")


def _later_guards_cut(tail: str) -> str:
    """`tail` without the guards set off by commas after a conjunction (", and, if they gave
    one, a note"): each scopes what follows it."""
    cuts = [
        (m.start(), m.end())
        for m in _GUARD.finditer(tail)
        if tail[: m.start()].rstrip().lower().endswith(_CONJUNCTIONS)
        and tail[m.end() :].startswith(",")
    ]
    for start, end in reversed(cuts):
        tail = tail[:start] + tail[end + 1 :]
    return tail


def _spells(word: str, parts: list[str]) -> bool:
    """`word` is one of `parts` in some form (`replacement` of `replace`, `claims`)."""
    return any(word.startswith(p[: max(len(p) - 1, 3)]) for p in parts)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _items(value: Any) -> list[dict[str, Any]]:
    """A memory check's entries: a list of `{name, value}`, or one (in a sequencing)."""
    if isinstance(value, dict):
        return [value]
    if isinstance(value, str):  # `memory_was_set: skill.entry` in a sequencing
        return [{"name": value}]
    return [_dict(v) for v in _list(value)]


def _walk_checks(items: list[Any]) -> Iterator[dict[str, Any]]:
    for item in items:
        item = _dict(item)
        yield item
        yield from (_dict(i) for i in _list(item.get("sequencing")))


def _strongest(items: Iterator[Justification | None]) -> Justification | None:
    """`strongest(list(items))`, reading no further than the first of the strongest kind
    (`strongest` keeps the first of equals)."""
    best: Justification | None = None
    top = max(RANK.values())
    for item in items:
        if item is not None and (best is None or RANK[item.kind] > RANK[best.kind]):
            best = item
            if RANK[item.kind] == top:
                break
    return best


#: An id as `_id_pattern` finds it whole: letters, digits, `_` and `-`.
_PLAIN_ID = re.compile(r"[\w-]+")


@functools.lru_cache(maxsize=8192)
def _id_pattern(name: str) -> re.Pattern[str]:
    """A pattern finding `name` as a whole id (not inside a longer one). Kept here: a
    project of many skills names more ids than `re`'s own cache holds (512), and each
    check compiled its patterns again."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def _requires_entry(condition: Any, name: str) -> bool:
    """True when a step's `complete_when` cannot hold without `name` set: the entry is one
    of its `and`-joined terms (no `or`), and not one that negates it or compares it with
    `!=` (an unset entry is not equal to 'phone'); another term's `!=` takes nothing from
    it (`claim_number and channel != 'phone'` still needs the claim number)."""
    if not isinstance(condition, str) or "or" in condition.replace("(", " ").split():
        return False
    spaced = " ".join(condition.replace("(", " ( ").replace(")", " ) ").split())
    terms = [t for t in spaced.split(" and ") if name in condition_keys(t)]
    return bool(terms) and not any("not" in t.split() or "!" in t for t in terms)


#: Cases whose judgement a justifier keeps (the oldest is dropped first).
_MAX_JUDGED = 4096


class MantleJustifier:
    """Justifies the checks of Mantle scenarios against one project's definitions."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.defs: MantleDefinitions = project.mantle  # type: ignore[assignment]
        self._lines: dict[str, list[str]] = {}
        self._prose: dict[str, list[tuple[str, int, str | None, int]]] = {}
        self._agent: list[Line] | None = None
        self._writing: dict[str, list[Skill]] = {}
        self._judged: dict[bytes, tuple[Judged, ...]] = {}
        self.kept_cases: dict[str, tuple[Judged, ...]] = {}
        """`judge_case`'s cases, by their JSON."""
        self._uttering: dict[str, list[Skill]] = {}
        self._naming: dict[str, list[Skill]] | None = None
        self._data: DataRecords | None = None
        self._mentions: dict[
            tuple[str, str, bool], tuple[tuple[str, str | None, bool, int, str], ...]
        ] = {}
        self._named: dict[str, frozenset[str]] = {}
        self._constraint_index: dict[str, list[tuple[int, Skill, str, Any]]] | None = None
        self._keys_by_namespace: dict[str, list[tuple[str, str]]] | None = None

    # --- reading the definitions ---------------------------------------------------------

    def _file_lines(self, rel: str) -> list[str]:
        if rel not in self._lines:
            try:
                self._lines[rel] = read_text(self.project.root / rel).splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[rel] = []
        return self._lines[rel]

    @staticmethod
    def _md(skill: Skill) -> str:
        return f"{skill.path}/skill.md"

    def _frontmatter_line(self, skill: Skill, *needles: str) -> int | None:
        """The first frontmatter line holding every needle (as a whole word)."""
        lines = self._file_lines(self._md(skill))
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), len(lines))
        patterns = [re.compile(rf"(?<![\w.]){re.escape(n)}(?![\w])") for n in needles]
        for index in range(min(end, len(lines))):
            if all(p.search(lines[index]) for p in patterns):
                return index + 1
        return None

    def _sentences(self, skill: Skill) -> list[tuple[str, int, str | None, int]]:
        """(text, line, if-condition, paragraph) of the body's prose and of each block
        step's `instructions:` (which carry the step's line)."""
        if skill.id in self._prose:
            return self._prose[skill.id]
        lines = self._file_lines(self._md(skill))
        first = body_first_line("\n".join(lines)) if lines else 1
        out = [(s.text, s.line, s.condition, s.paragraph) for s in sentences(skill.body, first)]
        paragraph = 10_000
        for block in skill.blocks.values():
            for step in block.steps:
                text = step.target if step.kind == "instructions" else None
                text = text if isinstance(text, str) else step.fields.get("instructions")
                if isinstance(text, str):
                    paragraph += 1
                    line = step.line or block.line or first
                    for s in sentences(text, line):
                        # cited where the sentence is, not at the step's `id:` above it
                        at = locate(lines, s.text, line)
                        out.append((s.text, at, s.condition, paragraph + s.paragraph))
        self._prose[skill.id] = out
        return out

    def _names(self, skill: Skill, name: str) -> bool:
        """False when no sentence of `skill` names `name` as a whole id, from one set of the
        ids its prose holds: finding every skill that mentions an entry or a response by
        searching each one's sentences made a case cost more with every skill. True for a
        name that is no plain id (the sentences are searched as before)."""
        if not _PLAIN_ID.fullmatch(name):
            return True
        return name in self._named_ids(skill)

    def _named_ids(self, skill: Skill) -> frozenset[str]:
        """The plain ids `skill`'s sentences hold, read once per skill."""
        named = self._named.get(skill.id)
        if named is None:
            named = self._named[skill.id] = frozenset(
                token for text, *_ in self._sentences(skill) for token in _PLAIN_ID.findall(text)
            )
        return named

    def _prose_mentions(
        self,
        skill: Skill,
        pattern: re.Pattern[str],
        case: _Case,
        what: str,
        *,
        setting: bool = False,
    ) -> Justification | None:
        """The strongest prose sentence of `skill` matching `pattern`, classified; with
        `setting`, only a sentence that tells the model to set it (one that merely names
        it, "the voice persists via fun_mode", writes nothing)."""
        md = self._md(skill)
        found: list[Justification | None] = []
        for text, condition, conditional, line, quoted in self._mentioning(skill, pattern, setting):
            if condition is not None and self._contradicts(condition, case):
                continue  # another branch's paragraph: the case plays this one
            kind = (
                "conditional"
                if conditional and not _lacked_guard(text, case.text)
                else self._classify(text, condition, case, skill, pattern)
                if not conditional
                else "instructed"
            )
            found.append(Justification(kind, md, line, f'{what} "{quoted}"'))  # type: ignore[arg-type]
        return strongest(found)

    def _mentioning(
        self, skill: Skill, pattern: re.Pattern[str], setting: bool
    ) -> tuple[tuple[str, str | None, bool, int, str], ...]:
        """What `_prose_mentions` reads of each sentence matching `pattern`, none of which
        depends on the case: the text up to the clause that names it, the `if:` condition,
        whether it is conditional whatever the case (a permissive paragraph, an
        "otherwise" clause), its line and its quote. Kept per skill and pattern: a check
        of an entry every skill mentions read every skill's prose for each case."""
        slot = (skill.id, pattern.pattern, setting)
        kept = self._mentions.get(slot)
        if kept is not None:
            return kept
        out: list[tuple[str, str | None, bool, int, str]] = []
        permissive_paragraphs: set[int] = set()
        for text, line, condition, paragraph in self._sentences(skill):
            permissive = paragraph in permissive_paragraphs
            if _PERMISSIVE.search(_OWN_SCOPE.sub(" ", text)):
                permissive_paragraphs.add(paragraph)
            if not pattern.search(text):
                continue  # only a sentence that mentions it is classified
            if setting and not SETTING & words(text):
                continue
            # A guard scopes its own clause: "Run @block.x; it verifies first when needed."
            # (and the clauses before it), not the ones before: "If ..., record x; do
            # the same for y" keeps y under the "If".
            clauses = re.split(r"(?<=;)\s+", text)
            upto = next((i for i, c in enumerate(clauses) if pattern.search(c)), len(clauses))
            # "If A, use x; otherwise use y": y only where A fails
            otherwise = (
                bool(upto) and clauses[min(upto, len(clauses) - 1)].split()[0].lower() in _OTHERWISE
            )
            quoted = text if len(text) <= 70 else text[:67].rstrip() + "..."
            guarded = " ".join(clauses[: upto + 1])
            named = pattern.search(guarded)
            if named is not None:  # "call x with A and, if they gave one, B": B's guard
                guarded = guarded[: named.end()] + _later_guards_cut(guarded[named.end() :])
            out.append((guarded, condition, otherwise or permissive, line, quoted))
        found = self._mentions[slot] = tuple(out)
        return found

    def _entries_named(self, clause: str, skill: Skill | None) -> list[str]:
        """Qualified entries of `skill` (or the project) a guard clause names bare, or in
        words ("if there are order lines": `order_lines`)."""
        if skill is None:
            return []
        out = []
        words = set(re.findall(r"[a-z][a-z0-9]*_[a-z0-9_]+", clause))
        spaced = f" {' '.join(re.findall(r'[a-z0-9]+', clause.lower()))} "
        words |= {k for k in skill.memory if "_" in k and f" {k.replace('_', ' ')} " in spaced}
        # "When checked is True": a bare subject the skill declares is a field too
        subject = CLAUSE_SUBJECT.match(clause)
        if subject is not None:
            words.add(subject.group(1))
        for word in words:
            for name in (f"{skill.id}.{word}", f"project.{word}"):
                if self.defs.memory_field(name) is not None:
                    out.append(name)
                    break
        return sorted(out)

    def _classify(
        self,
        text: str,
        condition: str | None,
        case: _Case,
        skill: Skill | None = None,
        pattern: re.Pattern[str] | None = None,
    ) -> str:
        """`instructed` when the case fixes what the text is guarded by, else `conditional`.
        Alternatives ("Set `x` to true when A, or false if B") are guarded each on its own:
        one the case fixes is enough, where it names what `pattern` finds or names nothing
        else (the elided "or false if B"), never another's ("or call `y` if B")."""
        if condition is not None and not self._fixes(condition, case):
            return "conditional"
        if _PERMISSIVE.search(text):
            return "conditional"
        alternatives = re.split(r",\s+or\s+", text) if pattern is not None else [text]
        own = [
            a for a in alternatives if pattern is None or pattern.search(a) or not _NAMES.search(a)
        ]
        return (
            "instructed" if any(self._guards_fixed(a, case, skill) for a in own) else "conditional"
        )

    def _guards_fixed(self, text: str, case: _Case, skill: Skill | None) -> bool:
        for match in _GUARD.finditer(text):
            clause = match.group("clause")
            if _FIELD_REF.search(clause):
                if not self._fixes(clause, case, at_start=True):
                    return False
                continue
            if _NOT_SAID.search(clause) and _ONLY_WHEN_ASKED.search(case.text):
                continue
            entries = self._entries_named(clause, skill)
            if entries:  # "When details_verified is True": the case sets it, or it is open
                # ("If they have an order number": its user states it, or it is open)
                if not all(
                    e in case.fields or _said(e.split(".")[-1].replace("_", " "), case.text)
                    for e in entries
                ):
                    return False
                continue
            words = {w for w in _WORD.findall(_condition_words(clause)) if w not in _DIALOG}
            if any(w not in case.text and w.replace("_", " ") not in case.text for w in words):
                return False
        return True

    def _holds(self, condition: str, case: _Case, *, known: bool = False) -> bool | None:
        """Whether a Mantle condition (`if:`, `when:`, a branch) holds in the case: at the
        start (what it seeds, the values its user states, initial values, else unset) or
        at the end (what it asserts). None when the condition names no entry (with
        `known`, also when it names one the case neither seeds nor asserts a value of)."""
        names = condition_keys(condition)
        if not names or (known and not set(names) <= set(case.slots) | set(case.asserted)):
            return None
        start: dict[str, Any] = {}
        for name in names:
            if name in case.slots:
                start[name] = case.slots[name]
                continue
            compared = compared_values(condition, name)
            said = [v for v in compared if _said(str(v), case.text)]
            # "I lost my key fob": a description example of a mode asks for that value
            said += [
                m for r in case.requests if (m := example_mode(self.defs, name, r)) in compared
            ]
            if name in case.asserted:  # the value it ends with is the case's word on it
                said = []
            declared = self.defs.memory_field(name)
            if said:
                start[name] = said[0]
            elif declared is not None and declared.initial_value is not None:
                start[name] = declared.initial_value
            elif _said(name.split(".")[-1].replace("_", " "), case.text):
                start[name] = _STATED  # the user states it (its value is theirs)
        end = {**start, **{n: _STATED for n in case.fields if n in names}, **case.asserted}
        # a value asserted before the last one holds on the stretch of the case it took
        ways = [{**end, n: v} for n in names for v in case.passed.get(n, [])]
        return any(evaluate(condition, memory) for memory in [start, end, *ways])

    def _contradicts(self, condition: str, case: _Case) -> bool:
        """An `if:` condition the case rules out: every entry it names is one the case
        seeds or asserts a value of, and it holds neither at the start nor at the end (the
        cancel paragraph in a case that asserts the decline mode)."""
        return self._holds(condition, case, known=True) is False

    def _fixes(self, condition: str, case: _Case, *, at_start: bool = False) -> bool:
        """A condition the case fixes: every entry it names is one the case seeds or
        asserts, with a value it compares against where it compares one. With `at_start`
        (a guard read before anything runs: "If @memory.x is empty"), an entry the case
        neither seeds nor finds already set (no `initial_value`) is fixed too: empty."""
        holds = None if at_start else self._holds(condition, case)
        if holds is not None:
            return holds
        names = [
            (f"project.{m.group(3)}" if m.group(3) else f"{m.group(1)}.{m.group(2)}")
            for m in _FIELD_REF.finditer(condition)
        ]
        if not names:
            return False
        for name in names:
            compared = _compared(condition, name)
            if name not in case.fields and compared and any(_said(v, case.text) for v in compared):
                continue  # the user's words give the value the condition compares with
            if name in case.fields:
                compared = _compared(condition, name)
                seen = case.values.get(name)
                if compared and seen and not compared & seen:
                    return False
                continue
            declared = self.defs.memory_field(name)
            if not at_start or (declared is not None and declared.initial_value is not None):
                return False
        return True

    def _constraints_among(
        self, tools: set[str], said: set[str], skills: set[str]
    ) -> list[tuple[Skill, str, Any]]:
        """The tool constraints, in the project's order, on one of `tools`, asking or
        answering with one of the responses `said`, or of one of `skills`: the only ones
        `_gated_by` can find anything in, looked up by name rather than read from every
        skill for each case."""
        index = self._constraint_index
        if index is None:
            index = self._constraint_index = {}
            for skill in self.defs.skills.values():
                for tool, constraint in skill.tool_constraints.items():
                    entry = (len(index.get("", [])), skill, tool, constraint)
                    index.setdefault("", []).append(entry)
                    gate = constraint.requires_confirmation
                    names = {tool, f"skill:{skill.id}"}
                    if gate:
                        names |= {f"utter:{gate.utter_for_confirmation}"}
                        names |= {f"utter:{gate.utter_on_user_denial}"}
                    for name in names:
                        index.setdefault(name, []).append(entry)
        keys = tools | {f"utter:{u}" for u in said} | {f"skill:{s}" for s in skills}
        found = {entry[0]: entry for key in keys for entry in index.get(key, [])}
        return [found[at][1:] for at in sorted(found)]

    def _gated_by(self, data: dict[str, Any], case: _Case) -> set[str]:
        """Entries the runtime makes true before a tool the case asserts was called (it ran,
        or its confirmation was asked): its `requires` (a tool is not called until it
        holds), so "When details_verified is true, call request_swap" is fixed by a case
        that asserts request_swap ran or its confirmation was refused. Notes on `case` the
        tools it calls and the ones it refuses."""
        goals = _dict(_dict(data.get("scenario")).get("goals"))
        checks = list(_walk_checks(_list(goals.get("assertions"))))
        ran = {
            str(body.get("tool_name"))
            for check in checks
            for body in [_dict(check.get("tool_executed"))]
            if body.get("tool_name") and body.get("is_error") is not True
        }
        # a confirmation the case asserts was asked (or refused) means the tool was called
        said = {str(_dict(c.get("bot_uttered")).get("utter_name")) for c in checks}
        not_said = {str(_dict(c.get("bot_did_not_utter")).get("utter_name")) for c in checks}
        unset = {str(i.get("name")) for c in checks for i in _items(c.get("memory_was_not_set"))}
        activated = {str(_dict(c.get("skill_activated")).get("skill_id")) for c in checks}
        run_at_all = {str(_dict(c.get("tool_executed")).get("tool_name")) for c in checks}
        context = str(_dict(data.get("scenario")).get("simulation_context") or "")
        told = parse_fact_context(context)
        declined = told.confirm == "decline"
        unseen: list[str] = []
        shown: set[str] = set()  # refusals the case shows by the gate's denial response
        out: set[str] = set()
        for skill, tool, constraint in self._constraints_among(ran | run_at_all, said, activated):
            gate = constraint.requires_confirmation
            utters = {gate.utter_for_confirmation, gate.utter_on_user_denial} if gate else set()
            if tool in ran or utters & said:
                case.called.add(tool)
                if constraint.requires:
                    out |= set(condition_keys(constraint.requires))
            if gate and gate.utter_on_user_denial in said and tool not in ran:
                shown.add(tool)
            elif gate and declined and skill.id in activated and tool not in run_at_all:
                # a refusal the case shows by what never comes: the tool's success reply
                # or what its code writes (the agent may have asked in its own words)
                tool_def = self.defs.tools_for(skill.id).get(tool)
                writes = set(tool_keys(self.project, tool_def, skill.id)) if tool_def else set()
                if constraint.on_success in not_said or writes & unset:
                    unseen.append(tool)
        if len(shown) > 1:  # a denial reply several gates share: the gate whose question
            # the case asserts was asked, else the one its decline names
            asked = {
                tool
                for skill, tool, constraint in self._constraints_among(shown, said, activated)
                if constraint.requires_confirmation
                and constraint.requires_confirmation.utter_for_confirmation in said
            }
            act = words(told.gate or "")
            named = {t for t in shown if len(act & words(t.replace("_", " "))) > 1}
            shown = (asked & shown) or named or shown
        case.refused |= shown
        # of several, the one the user's decline names ("order the replacement"); none where
        # the denial response shows which gate the decline came at
        if unseen and not shown:
            act = words(told.gate or "")
            case.refused.add(max(unseen, key=lambda t: len(act & words(t)) / len(words(t) or {t})))
        case.ran |= ran
        case.uttered |= said
        case.called |= ran
        return out

    def _constraint_line(self, skill: Skill, tool: str, key: str | None = None) -> int | None:
        """The frontmatter line of `tool`'s entry under `tool_constraints` (of its `key`
        when given: `requires`, `requires_confirmation`, `on_success`)."""
        lines = self._file_lines(self._md(skill))
        anchor = self._frontmatter_line(skill, "tool_constraints")
        if anchor is None:
            return None
        start = None
        for index in range(anchor, len(lines)):
            if lines[index].strip() == "---":
                return None
            if re.search(rf"(?<![\w-]){re.escape(tool)}\s*:", lines[index]):
                start = index
                break
        if start is None or key is None:
            return start + 1 if start is not None else None
        indent = len(lines[start]) - len(lines[start].lstrip(" -"))
        for index in range(start + 1, len(lines)):
            text = lines[index]
            if text.strip() == "---" or (
                text.strip() and len(text) - len(text.lstrip(" -")) <= indent
            ):
                break
            if text.strip().startswith(f"{key}:"):
                return index + 1
        return start + 1

    # --- the checks ----------------------------------------------------------------------

    def judge(self, data: dict[str, Any]) -> list[Judged]:
        """Every assertion (and each part of a list-valued one) and criterion of `data`.

        Kept per case content (its `repr`: types and key order included): generation
        judges a draft when it reviews it, keeps what is justified, writes the comments
        and reports, mostly the same data each time (a new list each call; `Judged` is
        frozen)."""
        key = hashlib.blake2b(repr(data).encode(), digest_size=16).digest()
        kept = self._judged.get(key)
        if kept is None:
            kept = self._judged[key] = tuple(self._judge(data))
            while len(self._judged) > _MAX_JUDGED:
                del self._judged[next(iter(self._judged))]
        return list(kept)

    def _judge(self, data: dict[str, Any]) -> list[Judged]:
        case = _Case.of(data)
        case.fields |= self._gated_by(data, case)
        goals = _dict(_dict(data.get("scenario")).get("goals"))
        out: list[Judged] = []
        for index, item in enumerate(_list(goals.get("assertions"))):
            path = ptr.join("/scenario/goals/assertions", index)
            out += self._assertion(_dict(item), path, case)
        for index, text in enumerate(_list(goals.get("criteria"))):
            if isinstance(text, str):
                path = ptr.join("/scenario/goals/criteria", index)
                out.append(Judged(path, "criterion", self._criterion(text, data, case), True))
        return out

    def _assertion(
        self, item: dict[str, Any], path: str, case: _Case, not_yet: frozenset[str] = frozenset()
    ) -> list[Judged]:
        """The check `item` at `path`; `not_yet`: tools a sequencing runs only after it (no
        write of theirs can be the one it sees)."""
        if len(item) != 1:
            return [Judged(path, "?", None, True)]
        ((check, body),) = item.items()
        if check == "sequencing":
            return self._sequencing(_list(body), path, case)
        if check in ("memory_was_set", "memory_was_not_set", "memory_was_cleared"):
            if isinstance(body, (dict, str)):  # one entry (in a sequencing)
                entry = _items(body)[0]
                return [Judged(path, check, self._memory(check, entry, case, not_yet), True)]
            parts = [
                Judged(ptr.join(path, check, i), check, self._memory(check, _dict(m), case))
                for i, m in enumerate(_list(body))
            ]
            top = Judged(path, check, weakest([p.justification for p in parts]), True)
            return [top, *parts] if len(parts) > 1 else [top]
        if check == "tools_within_one_turn":
            tools = [_dict(t) for t in _list(_dict(body).get("tools", body))]
            found = [self._tool(_dict(t), case) for t in tools]
            return [Judged(path, check, weakest(found), True)]
        return [Judged(path, check, self._single(check, _dict(body), case), True)]

    def _single(self, check: str, body: dict[str, Any], case: _Case) -> Justification | None:
        skill = self.defs.skills.get(str(body.get("skill_id") or ""))
        if check == "skill_activated":
            return self._handed(skill, case) or self._routing(skill)
        if check == "skill_completed":
            return self._completion(skill, case)
        if check in ("skill_interrupted", "skill_resumed", "skill_cancelled"):
            if self._routing(skill) is None:
                return None
            # the skill's description routes to it; parking and resuming it is the runtime's
            return Justification("enforced", RUNTIME, None, _DETOUR[check].format(skill.id))  # type: ignore[union-attr]
        if check.startswith("ordered_block_"):
            block_id = str(body.get("block_id") or "")
            found = self._block(skill, block_id, case)
            event = check.removeprefix("ordered_block_")
            step_id = body.get("step_id")
            if found is not None and event == "completed" and step_id:
                return replace(found, element=f"{found.element} ({_BLOCK_END.format(step_id)})")
            if found is None or event not in _BLOCK_DETOUR:
                return found
            # the runtime records the block's event beside the skill's when the parked step
            # is a block step; the reviewer sees the rule, cited at the block
            rule = _BLOCK_DETOUR[event].format(block_id, skill.id)  # type: ignore[union-attr]
            return replace(found, element=f"{found.element} ({rule})")
        if check == "tool_executed":
            return self._tool(body, case)
        if check in ("bot_uttered", "bot_did_not_utter"):
            return self._utter(check, body, case)
        return None

    def _routing(self, skill: Skill | None) -> Justification | None:
        if skill is None or skill.disabled:
            return None
        line = self._frontmatter_line(skill, "description") or 1
        return Justification(
            "enforced", self._md(skill), line, "routing by the skill's description"
        )

    def _handed(self, skill: Skill | None, case: _Case) -> Justification | None:
        """A skill the case's own skill hands the work to in its prose ("Then invoke
        `@skill.run_diagnostics`"), cited there where the sentence instructs it: the user
        asked for the other skill, not this one."""
        if skill is None or not case.activated or case.activated[0] == skill.id:
            return None
        if skill.is_handoff:  # a person is asked for (or offered and taken): routed by that
            return None
        caller = self.defs.skills.get(case.activated[0])
        if caller is None:
            return None
        # a block step that calls it (`call: verify_patient`): the runtime starts it there
        for block in caller.blocks.values():
            for step in block.steps:
                if step.kind == "call" and str(step.target).removeprefix("@skill.") == skill.id:
                    called = self._step(caller, step, f"call {skill.id}", case)
                    if called.kind == "enforced":
                        return called
        pattern = re.compile(re.escape(f"@skill.{skill.id}") + r"\b")
        found = self._prose_mentions(caller, pattern, case, "invokes the skill:")
        return found if found is not None and found.kind == "instructed" else None

    def _completion(self, skill: Skill | None, case: _Case) -> Justification | None:
        if skill is None:
            return None
        if skill.complete_when:
            line = self._frontmatter_line(skill, "complete_when")
            return Justification("enforced", self._md(skill), line, "complete_when")
        lines = self._file_lines(self._md(skill))
        first = body_first_line("\n".join(lines)) if lines else 1
        told = completion_instruction(skill)
        if told is not None:  # the prose says to complete it ("complete this skill right after")
            text = told.sentence.text.split(": ")[-1]
            quoted = text if len(text) <= 70 else text[:67].rstrip() + "..."
            line = first + told.sentence.line - 1
            return Justification("instructed", self._md(skill), line, f'"{quoted}"')
        return Justification("instructed", self._md(skill), first, "the skill's instructions end")

    def _block(self, skill: Skill | None, block_id: str, case: _Case) -> Justification | None:
        if skill is None or block_id not in skill.blocks:
            return None
        block = skill.blocks[block_id]
        entered: list[Justification | None] = []
        for other in skill.blocks.values():
            for step in other.steps:
                if step.kind == "call" and str(step.target).removeprefix("@block.") == block_id:
                    entered.append(self._step(skill, step, f"call {block_id}", case))
        pattern = block_reference(block_id)
        mention = self._prose_mentions(skill, pattern, case, "invokes the block:")
        entry = strongest([*entered, mention])
        own = Justification("enforced", self._md(skill), block.line, f"ordered block {block_id}")
        if entry is None and not entered:
            aside = self._mentioning(skill, pattern, False)
            if aside:  # only another branch's paragraph enters it: this case never does
                line, quoted = aside[0][3], aside[0][4]
                why = f'invokes the block: "{quoted}" (a branch the case does not take)'
                return Justification("conditional", self._md(skill), line, why)
        if entry is None:
            return own
        return _via(own, entry)

    def _step(
        self, skill: Skill, step: Step, what: str, case: _Case | None = None, key: str = ""
    ) -> Justification:
        """A block step (cited at its `key:` line when given): enforced, unless a branch
        leads to it only on values the case rules out (a `next: if` on an entry the case
        asserts with another value)."""
        line = self._step_key_line(skill, step, key) if key else step.line
        if case is not None and not self._branch_open(skill, step, case):
            return Justification(
                "conditional",
                self._md(skill),
                line,
                f"step {step.id}: {what} (a branch the case does not take)",
            )
        return Justification("enforced", self._md(skill), line, f"step {step.id}: {what}")

    def _step_key_line(self, skill: Skill, step: Step, key: str) -> int | None:
        """The line of the step's own `key:` (its `complete_when:` below the `id:`)."""
        lines = self._file_lines(self._md(skill))
        if not step.line:
            return step.line
        for index in range(step.line, min(len(lines), step.line + 40)):
            text = lines[index].strip()
            if text.startswith(("- ", ":::")):
                break  # the next step, or the block's end
            if text.startswith(f"{key}:"):
                return index + 1
        return step.line

    def _branch_open(self, skill: Skill, step: Step, case: _Case) -> bool:
        """Whether some run of the step's block reaches it on a path the case leaves
        possible (each `next: if` taken only where the case does not rule it out)."""
        block = next((b for b in skill.blocks.values() if step in b.steps), None)
        if block is None or not block.steps:
            return True
        index = {s.id: i for i, s in enumerate(block.steps)}
        seen: set[str] = set()
        todo = [block.steps[0]]
        while todo:
            current = todo.pop()
            if current.id in seen:
                continue
            seen.add(current.id)
            if current is step:
                return True
            if current.kind == "end":
                continue
            for target in self._successors(block.steps, index, current):
                todo.append(block.steps[index[target]])
            if isinstance(current.next, list):
                conditions = [b.condition for b in current.next if b.condition]
                later = self._written_after(skill, block.steps, index, current)
                for branch in current.next:
                    gates = (
                        [branch.condition] if branch.condition else [f"!{c}" for c in conditions]
                    )
                    if branch.target in index and all(self._open(g, case, later) for g in gates):
                        todo.append(block.steps[index[branch.target]])
        return False

    @staticmethod
    def _successors(steps: list[Step], index: dict[str, int], current: Step) -> list[str]:
        """The steps a step without `next:` branches goes on to (its `next:`, else the
        following step)."""
        if isinstance(current.next, list):
            return []
        if isinstance(current.next, str):
            return [current.next] if current.next in index else []
        at = index[current.id] + 1
        return [steps[at].id] if at < len(steps) else []

    def _written_after(
        self, skill: Skill, steps: list[Step], index: dict[str, int], branching: Step
    ) -> set[str]:
        """Entries a step after `branching` writes (`set_memory`, `collect`): what the case
        ends with there says nothing of their value when the branch is taken ("if
        user_country is ... else ask, then set_memory user_country")."""
        out: set[str] = set()
        todo = list(branching.next_targets)
        seen: set[str] = {branching.id}
        while todo:
            target = todo.pop()
            if target in seen or target not in index:
                continue
            seen.add(target)
            current = steps[index[target]]
            keys = list(_dict(current.target)) if current.kind == "set_memory" else []
            if current.kind == "collect":
                keys.append(str(current.target))
            out |= {self._scoped(skill, key) for key in keys}
            if isinstance(current.next, list):
                todo += current.next_targets
            else:
                todo += self._successors(steps, index, current)
        return out

    def _scoped(self, skill: Skill, key: str) -> str:
        """A bare entry as Mantle resolves it: the skill's own when it declares it, else
        the project's."""
        if "." in key:
            return key
        return f"{skill.id}.{key}" if key in skill.memory else f"project.{key}"

    def _open(self, condition: str | None, case: _Case, unknown: set[str] | None = None) -> bool:
        """Whether the case leaves `condition` possible (a `!` one: its negation); one the
        case's values do not decide is open (a tool's result may take the branch), and so
        is one on an entry in `unknown` the case does not seed (it is written later)."""
        if not condition:
            return True
        negated = condition.startswith("!")
        condition = condition.removeprefix("!")
        for m in _FIELD_REF.finditer(condition):
            name = f"project.{m.group(3)}" if m.group(3) else f"{m.group(1)}.{m.group(2)}"
            seen = case.values.get(name)
            if unknown and name in unknown:
                seen = {str(case.slots[name]).lower()} if name in case.slots else None
            compared = _compared(condition, name)
            if compared and seen:
                matches = bool(compared & seen)
                return not matches if negated else matches
        return True

    def _skills_for_tool(self, name: str, skill_id: str | None) -> list[Skill]:
        if skill_id and skill_id in self.defs.skills:
            return [self.defs.skills[skill_id]]
        return [self.defs.skills[s] for s in self.defs.skills_calling(name)]

    @staticmethod
    def _of_case(skills: list[Skill], case: _Case) -> list[Skill]:
        """Of the skills that could do a check's act, those the case activates, in the
        order it does (a tool another skill also imports is cited in the skill that runs
        in the case, not in one that never starts); all of them where none is."""
        order = {skill_id: at for at, skill_id in enumerate(case.activated)}
        own = sorted((s for s in skills if s.id in order), key=lambda s: order[s.id])
        return own or skills

    def _tool(self, body: dict[str, Any], case: _Case) -> Justification | None:
        name = str(body.get("tool_name") or body.get("name") or "")
        skill_id = body.get("skill_id") if isinstance(body.get("skill_id"), str) else None
        found: list[Justification | None] = []
        for skill in self._of_case(self._skills_for_tool(name, skill_id), case):
            found.append(self._tool_in(skill, name, case))
        return strongest(found)

    def _tool_in(self, skill: Skill, name: str, case: _Case) -> Justification | None:
        found: list[Justification | None] = []
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind == "execute_tool" and str(step.target) == name:
                    entry = self._block(skill, block.id, case)
                    at = self._step(skill, step, f"execute_tool {name}", case, key="execute_tool")
                    found.append(_via(at, entry))
        pattern = _id_pattern(name)
        found.append(self._prose_mentions(skill, pattern, case, "calls the tool:"))
        return strongest(found)

    def _memory(
        self, check: str, item: dict[str, Any], case: _Case, not_yet: frozenset[str] = frozenset()
    ) -> Justification | None:
        name = str(item.get("name") or "")
        if check == "memory_was_set":
            value = item.get("value")
            found = _strongest(self._each_writer(name, case, not_yet=not_yet, value=value))
            skill = self.defs.skills.get(name.partition(".")[0])
            if found is None and value is not None and skill is not None:
                return self._scoping(skill, name, value)  # no line writes it: a paragraph's scope
            if found is not None and found.kind == "conditional" and value is not None:
                return self._requested_choice(name, value, case) or found
            return found
        # Not set (or cleared): sound when only the runtime writes the entry, so what the
        # case leaves out (a refused gate, a tool not run) keeps it unwritten.
        field = self.defs.memory_field(name)
        if field is None:
            return None
        writers: list[Justification] = []
        for writer in self._each_writer(name, case, own=True):
            if writer is None:
                continue
            if writer.kind == "conditional":  # the weakest kind: the first is the weakest
                return weakest([*writers, writer])
            writers.append(writer)
        if any(w.kind != "enforced" for w in writers):
            return weakest(list(writers))
        if writers:
            first = writers[0]
            return Justification(
                "enforced",
                first.file,
                first.line,
                f"only the runtime writes {name}: {first.element}",
            )
        where = field.source
        return Justification(
            "enforced",
            where.file if where else "memory.yml",
            where.line if where else None,
            f"nothing writes {name}",
        )

    def _writers(
        self,
        name: str,
        case: _Case,
        *,
        own: bool = False,
        not_yet: frozenset[str] = frozenset(),
        value: Any = None,
    ) -> list[Justification | None]:
        """Every element that writes the qualified memory entry `name`, those that write it
        first in a run ahead (so the strongest of equals is the one the case sees): the
        case's seed, block steps, prose that tells the model to set it, tools' code, prose
        that names it, then a called tool's `requires` (the entry is set before the
        runtime calls it). With `own`, a tool's write as the runtime's (not weakened by how
        the tool gets called); without, no tool the case never runs (`refused`), runs only
        after the entry is set (`not_yet`, or so in one of its sequencings) or needs the
        entry set to run."""
        return list(self._each_writer(name, case, own=own, not_yet=not_yet, value=value))

    def _each_writer(
        self,
        name: str,
        case: _Case,
        *,
        own: bool = False,
        not_yet: frozenset[str] = frozenset(),
        value: Any = None,
    ) -> Iterator[Justification | None]:
        """`_writers`, one at a time in its order: `_strongest` stops at the first of the
        strongest kind, so an entry every skill writes costs a case no more with more
        skills when one of the first writers is enforced."""
        namespace, _, key = name.partition(".")
        after = case.refused | not_yet | case.later.get(name, set())
        if name in case.slots:
            yield Justification("enforced", "(the case)", None, f"initial_slots {name}")
        skills = (
            self._may_write(name)
            if namespace == "project"
            else ([self.defs.skills[namespace]] if namespace in self.defs.skills else [])
        )
        for skill in skills:
            for block in skill.blocks.values():
                for step in block.steps:
                    what = None
                    if step.kind == "set_memory" and key in _dict(step.target):
                        what, at_key = f"set_memory {key}", "set_memory"
                    elif step.kind == "collect" and str(step.target).split(".")[-1] == key:
                        what, at_key = f"collect {key}", "collect"
                    elif _requires_entry(step.fields.get("complete_when"), name):
                        # the block goes on only once the step's `complete_when` holds
                        what, at_key = f"complete_when needs {key}", "complete_when"
                    if what is None:
                        continue
                    if own:  # the runtime's own write: it happens only where the run goes
                        yield self._step(skill, step, what, key=at_key)
                    else:
                        at = self._step(skill, step, what, case, key=at_key)
                        yield _via(at, self._block(skill, block.id, case))
        pattern = _id_pattern(key)
        mentions: dict[str, Justification | None] = {}

        def mention(skill: Skill) -> Justification | None:
            if skill.id not in mentions:
                mentions[skill.id] = self._prose_mentions(
                    skill, pattern, case, "sets the entry:", setting=self._sets(skill, pattern)
                )
            return mentions[skill.id]

        # prose that tells the model to set it ("Set `x` via `set_fields`") writes it
        # before a tool's code could; a mere mention ("Unless x is true, ...") does not
        for skill in skills:
            if self._sets(skill, pattern):
                yield mention(skill)
        for skill in skills:
            md = self._md(skill)
            for tool in self.defs.tools_for(skill.id).values():
                if name not in tool_keys(self.project, tool, skill.id):
                    continue
                constraint = skill.tool_constraints.get(tool.name)
                needs_it = constraint is not None and _requires_entry(constraint.requires, name)
                if not own and (tool.name in after or needs_it):
                    continue  # it never runs in the case, or only once the entry is set
                where = tool.source
                line = self._write_line(where.file, where.line, key, value) if where else None
                written = Justification(
                    "enforced",
                    where.file if where else md,
                    line,
                    f"tool {tool.name} writes {key}" + self._read_from(key, value, case),
                )
                yield written if own else _via(written, self._tool_in(skill, tool.name, case))
        for skill in skills:
            if not self._sets(skill, pattern):
                yield mention(skill)
        for skill in skills:
            for tool, constraint in skill.tool_constraints.items():
                if own or tool not in case.called:
                    continue
                if _requires_entry(constraint.requires, name):
                    line = self._constraint_line(skill, tool, "requires")
                    why = f"{tool} requires {key}: the runtime calls it only once it is set"
                    said = mention(skill)
                    if said is not None:  # and who sets it before
                        why += f" (set as {said.place} says)"
                    needs = Justification("enforced", self._md(skill), line, why)
                    yield _via(needs, self._tool_in(skill, tool, case))

    def _requested_choice(self, name: str, value: Any, case: _Case) -> Justification | None:
        """A choice the prose sets under a guard ("Set urgency to today if it is needed
        before end of day, else this_week") that the user's own request names ("Ask Priya to
        sort it: today"): the user settled the guard, so the value is instructed. Only an
        enum value of the entry, and only in a line the user asks with."""
        field = self.defs.memory_field(name)
        options = [str(v) for v in (field.enum_values or [])] if field is not None else []
        if str(value) not in options:
            return None
        if not any(_said(str(value).lower(), r.lower()) for r in case.requests):
            return None
        skill = self.defs.skills.get(name.partition(".")[0])
        md = self._md(skill) if skill is not None else "(the case)"
        return Justification("instructed", md, None, f"the user's request names {name} {value}")

    def _scoping(self, skill: Skill, name: str, value: Any) -> Justification | None:
        """The prose `if:` line whose paragraph holds once `name` is `value` and not before
        (`if: session.door_access.request == "lockout"`): the runtime strips a paragraph
        whose `if:` fails from the prompt (reference §1.2), so an agent that does what the
        paragraph says has written the value first."""
        model = skill_model(self.project, skill.id)
        for branch in model.branches if model is not None else []:
            if branch.kind != "prose_if" or name not in branch.keys:
                continue
            for option in branch.options:
                cond = option.condition
                if cond and holds_on(cond, {name: value}) and not holds_on(cond, {}):
                    where = branch.where
                    return Justification(
                        "instructed",
                        where.file if where else self._md(skill),
                        where.line if where else None,
                        f"the paragraph under `if: {cond}` is in the prompt only once "
                        f"{name.split('.', 1)[1]} is {value}",
                    )
        return None

    def _may_write(self, name: str) -> list[Skill]:
        """The skills, in the project's order, where `_writers` can find a writer of the
        project entry `name`: a block step, a prose sentence naming its key, a tool
        constraint requiring it or a tool whose code writes it. Every other skill gives it
        nothing, and looking through all of them for each check made a case cost more with
        every skill; the list is made once per entry (the definitions never change)."""
        if name in self._writing:
            return self._writing[name]
        key = name.partition(".")[2]
        pattern = _id_pattern(key)

        def writes(skill: Skill) -> bool:
            for block in skill.blocks.values():
                for step in block.steps:
                    if step.kind == "set_memory" and key in _dict(step.target):
                        return True
                    if step.kind == "collect" and str(step.target).split(".")[-1] == key:
                        return True
                    if _requires_entry(step.fields.get("complete_when"), name):
                        return True
            if self._names(skill, key) and any(
                pattern.search(text) for text, *_ in self._sentences(skill)
            ):
                return True
            if any(_requires_entry(c.requires, name) for c in skill.tool_constraints.values()):
                return True
            tools = self.defs.tools_for(skill.id).values()
            return any(name in tool_keys(self.project, tool, skill.id) for tool in tools)

        found = self._writing[name] = [s for s in self.defs.skills.values() if writes(s)]
        return found

    def _read_from(self, key: str, value: Any, case: _Case) -> str:
        """Where a written value comes from the project's own data: the record (of a file
        under `data/`) whose `key` field holds `value` and one of whose values the case's
        user names (`claim_status` "1" of the claim CLAIM1235 they ask about); else ""."""
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return ""
        said = case.text.lower()
        for collection in self._records().collections:
            for record in collection.records:
                if str(record.get(key, "\0")) != str(value):
                    continue
                named = [
                    v
                    for k, v in record.items()
                    if k != key and isinstance(v, str) and len(v) > 3 and v.lower() in said
                ]
                if named:
                    return f" ({json.dumps(value)}: {key} of {named[0]} in {collection.where})"
        return ""

    def _records(self) -> DataRecords:
        if self._data is None:
            self._data = load_records(self.project.root)
        return self._data

    def _write_line(self, rel: str, start: int | None, key: str, value: Any = None) -> int | None:
        """The line of a tool's code, from its definition at `start` on, that writes `key`
        (its `memory.set("key", ...)`), else `start`: the write itself, not the `def`. The
        last such write: early returns (a record not found) come before the main path;
        but the one that writes the asserted literal `value` (`"5"` on not-found) where
        one does."""
        lines = self._file_lines(rel)
        if not start:
            return start
        quoted = (f'"{key}"', f"'{key}'")
        literal = (json.dumps(value), repr(value)) if isinstance(value, str | int | bool) else ()
        found, exact = start, None
        for index in range(start, len(lines)):
            text = lines[index]
            if text.startswith(("def ", "async def ", "class ", "@")):
                break  # the next top-level definition
            if ".set(" in text and any(q in text for q in quoted):
                found = index + 1
                said = text.split(key, 1)[-1]
                if exact is None and any(v in said for v in literal):
                    exact = index + 1
        return exact or found

    def _sets(self, skill: Skill, pattern: re.Pattern[str]) -> bool:
        """Some sentence of `skill` tells the model to set the entry `pattern` finds."""
        return bool(self._mentioning(skill, pattern, True))

    def _utter(self, check: str, body: dict[str, Any], case: _Case) -> Justification | None:
        name = body.get("utter_name")
        if not isinstance(name, str):
            return None
        found: list[Justification | None] = []
        own = check != "bot_uttered"  # not uttered: the runtime's utters happen only where it goes
        # a response said is cited in a skill the case runs; one never said needs every
        # skill that could say it (one the case does not assert may still start)
        skills = self._may_utter(name)
        for skill in self._of_case(skills, case) if check == "bot_uttered" else skills:
            found += [j for j in self._utterers(skill, name, case, own=own) if j is not None]
        if check == "bot_uttered":
            return strongest(found)
        if self.defs.response(name) is None:
            return None
        if any(j is None or j.kind != "enforced" for j in found):
            return weakest(found)
        if found:
            first = found[0]
            return Justification(
                "enforced",
                first.file,
                first.line,
                f"only the runtime utters {name}: {first.element}",
            )  # type: ignore[union-attr]
        source = self.defs.response(name).source  # type: ignore[union-attr]
        return Justification(
            "enforced",
            source.file if source else "responses.yml",
            source.line if source else None,
            f"nothing utters {name}",
        )

    def _may_utter(self, name: str) -> list[Skill]:
        """The skills, in the project's order, where `_utterers` finds an element that
        utters response `name` (an `utter` rule, a tool constraint's response, a block
        step, a prose sentence naming it); kept per response, as `_may_write` is."""
        if name in self._uttering:
            return self._uttering[name]
        pattern = _id_pattern(name)

        def utters(skill: Skill) -> bool:
            if any(rule.response == name for rule in skill.utter):
                return True
            for constraint in skill.tool_constraints.values():
                confirm = constraint.requires_confirmation
                roles = [constraint.on_success, constraint.on_failure]
                if confirm:
                    roles += [confirm.utter_for_confirmation, confirm.utter_on_user_denial]
                if name in roles:
                    return True
            for block in skill.blocks.values():
                for step in block.steps:
                    said = step.target if step.kind == "action" else step.fields.get("utterance")
                    if step.kind == "collect" and not said:
                        said = f"utter_ask_{str(step.target).split('.')[-1]}"
                    if said == name:
                        return True
            return self._names(skill, name) and bool(self._mentioning(skill, pattern, False))

        found = self._uttering[name] = [s for s in self._may_name(name) if utters(s)]
        return found

    def _may_name(self, name: str) -> list[Skill]:
        """The skills, in the project's order, one of whose elements `_may_utter` reads says
        `name` (its `utter` rules, tool constraints' responses, block steps' utterances, the
        plain ids of its prose): every other skill utters none of it. Indexed once per
        project: asked per response, looking through every skill grew as skills²; every
        skill for a name that is no plain id (its prose is searched as before)."""
        if not _PLAIN_ID.fullmatch(name):
            return list(self.defs.skills.values())
        if self._naming is None:
            index: dict[str, list[Skill]] = {}
            for skill in self.defs.skills.values():
                for said in self._said_by(skill):
                    index.setdefault(said, []).append(skill)
            self._naming = index
        return self._naming.get(name, [])

    def _said_by(self, skill: Skill) -> set[str]:
        """Every response name `skill`'s elements say, and the plain ids of its prose."""
        said: set[str] = {r.response for r in skill.utter if isinstance(r.response, str)}
        for constraint in skill.tool_constraints.values():
            confirm = constraint.requires_confirmation
            roles = [constraint.on_success, constraint.on_failure]
            if confirm:
                roles += [confirm.utter_for_confirmation, confirm.utter_on_user_denial]
            said.update(r for r in roles if isinstance(r, str))
        for block in skill.blocks.values():
            for step in block.steps:
                text = step.target if step.kind == "action" else step.fields.get("utterance")
                if step.kind == "collect" and not text:
                    text = f"utter_ask_{str(step.target).split('.')[-1]}"
                if isinstance(text, str):
                    said.add(text)
        return said | self._named_ids(skill)

    def _utterers(
        self, skill: Skill, name: str, case: _Case, *, own: bool = False
    ) -> list[Justification | None]:
        """Every element of `skill` that utters response `name`; with `own`, the runtime's
        utters as its own (not weakened by how the run gets to them)."""
        out: list[Justification | None] = []
        md = self._md(skill)
        for rule in skill.utter:
            if rule.response != name:
                continue
            line = self._frontmatter_line(skill, name)
            if rule.when and not own and not self._fixes(rule.when, case):
                out.append(Justification("conditional", md, line, f"utter {name} when {rule.when}"))
            else:
                how = f"on {rule.on}" if rule.on else f"when {rule.when}"
                out.append(Justification("enforced", md, line, f"utter {name} {how}"))
        # of several gates sharing the response, the one the case calls is cited first
        gates = sorted(skill.tool_constraints.items(), key=lambda t: t[0] not in case.called)
        for tool, constraint in gates:
            confirm = constraint.requires_confirmation
            roles = {
                "on_success": constraint.on_success,
                "on_failure": constraint.on_failure,
                "utter_for_confirmation": confirm.utter_for_confirmation if confirm else None,
                "utter_on_user_denial": confirm.utter_on_user_denial if confirm else None,
            }
            for role, response in roles.items():
                if response == name:
                    # the tool's own entry: a response several gates share is cited where
                    # this tool names it, not where the first one does
                    line = self._constraint_line(skill, tool, role) or self._frontmatter_line(
                        skill, name
                    )
                    element = f"{tool} {role} {name}" + _RESULT_RULE.get(role, "")
                    at = Justification("enforced", md, line, element)
                    out.append(at if own else _via(at, self._tool_in(skill, tool, case)))
        for block in skill.blocks.values():
            for step in block.steps:
                said = step.target if step.kind == "action" else step.fields.get("utterance")
                key = "action" if step.kind == "action" else "utterance"
                if step.kind == "collect" and not said:
                    said, key = f"utter_ask_{str(step.target).split('.')[-1]}", "collect"
                if said == name and own:
                    out.append(self._step(skill, step, f"utter {name}", key=key))
                elif said == name:
                    at = self._step(skill, step, f"utter {name}", case, key=key)
                    out.append(_via(at, self._block(skill, block.id, case)))
        pattern = _id_pattern(name)
        mention = self._prose_mentions(skill, pattern, case, "utters the response:")
        if mention is not None:
            out.append(mention)
        return out

    def _sequencing(self, steps: list[Any], path: str, case: _Case) -> list[Judged]:
        parts: list[Judged] = []
        ran = [str(_dict(_dict(s).get("tool_executed")).get("tool_name") or "") for s in steps]
        for index, step in enumerate(steps):
            inner = ptr.join(path, "sequencing", index)
            later = frozenset(t for t in ran[index + 1 :] if t)
            judged = self._assertion(_dict(step), inner, case, later)
            parts.append(Judged(inner, judged[0].check, judged[0].justification))
        overall = weakest([p.justification for p in parts])
        for index, (left, right) in enumerate(itertools.pairwise(parts)):
            # Two entries the model sets from prose (`set_fields`): their order is its choice,
            # so the second is no step of the order (the rest of it may still stand).
            if all(
                p.check == "memory_was_set"
                and p.justification is not None
                and p.justification.element.startswith("sets the entry:")
                for p in (left, right)
            ):
                j = right.justification
                unordered = Justification(
                    "conditional",
                    j.file,  # type: ignore[union-attr]
                    j.line,  # type: ignore[union-attr]
                    "the order of two entries the model sets from prose is its choice",
                )
                parts[index + 1] = Judged(right.path, right.check, unordered)
                overall = weakest([overall, unordered])
                break
        return [Judged(path, "sequencing", overall, True), *parts]

    def _criterion(
        self,
        text: str,
        data: dict[str, Any],
        case: _Case,
        *,
        by_entry: bool = True,
        gated: bool = True,
    ) -> Justification | None:
        """The element a criterion restates: the gate or success reply of a tool it names,
        else the prose sentence sharing most of its words, of a skill the case runs or of
        `agent.yml` (its persona and rules hold in every skill); of equals, the sentence on
        a branch the case takes, then the one that reads most alike."""
        if text.endswith(OWN_REPLY_CLOSE):  # the aside allowing the project's own reply
            text = text[: text.rfind(OWN_REPLY_OPEN)]
        skills = sorted(
            str(_dict(v).get("skill_id"))
            for check in _walk_checks(
                _list(_dict(_dict(data.get("scenario")).get("goals")).get("assertions"))
            )
            for v in check.values()
            if str(_dict(v).get("skill_id")) in self.defs.skills
        )
        runs = [self.defs.skills[s] for s in dict.fromkeys(skills)]
        after = _after_success(text, case) if gated else None
        if after is not None:
            # "If submit_refill succeeds, the agent gives the ready time from the tool": the
            # prose sentence of the call's own paragraph saying what to do once it is made
            tool, rest = after
            said = self._criterion(rest, data, case, by_entry=by_entry, gated=False)
            # a success reply's wait ("If X succeeds, the agent tells them it went
            # through") is the gate's, unless the sentence stands beside the call
            quoted = said is not None and said.element.startswith('"')
            if quoted and (" succeeds, " not in text or self._beside_call(said, tool, runs)):
                return said
        if gated:
            gate = self._criterion_gate(text, runs, case)
            gate = gate or self._criterion_detour(text, data, runs)
            if gate is not None:
                return gate
        # a criterion that names a response of the project ("answers with the payslip
        # instructions (utter_payslip_uk)") restates the element that utters it
        for name in dict.fromkeys(re.findall(r"\w+", text)):
            if self.defs.response(name) is None:
                continue
            said = self._utter("bot_uttered", {"utter_name": name}, case)
            if said is not None:
                return said
        entry = self._entry_named(text, runs) if by_entry else None
        own = {w for w in words(text) if w not in _NOISE and w != "agent"}
        if len(own) < 2:
            return None
        # the skill's name in a criterion ("the file claim went through") is no match for
        # the skill's opening line ("Help the customer file a claim.")
        named = [part for s in runs for part in s.id.split("_") if len(part) > 2]
        candidates: list[tuple[str, Skill | None, tuple[str, int, str | None, int]]] = [
            (self._md(skill), skill, one) for skill in runs for one in self._sentences(skill)
        ]
        candidates += [
            ("agent.yml", None, (a.text, a.line, a.condition, a.paragraph))
            for a in self._agent_prose()
        ]
        scoped = _GUARD.match(text.strip()) is not None
        # the best so far: (score, branch taken) first, then how alike it reads, measured
        # only where two tie on the first (`likeness` is the costliest part of the loop)
        best: tuple[tuple[float, int], Justification | None] = ((0.0, 0), None)
        best_sentence: str | None = None
        best_like: float | None = 0.0
        for file, skill, (sentence, line, condition, _) in candidates:
            # the entries an `if:` compares, without its values ("still_slow_after_reboot"),
            # for a criterion that says its condition ("When the claim status is 1, ...")
            guard = re.sub(r"([\"']).*?\1", " ", condition) if condition and scoped else ""
            if entry is not None and not (entry[1].search(sentence) or entry[1].search(guard)):
                continue  # a criterion about an entry comes from a sentence about it
            # a sentence under an `if:` says its condition there ("When the claim status
            # is 1, the agent shares the contact" restates "Share the contact" under
            # `if: ...claim_status == "1"`)
            said = own & words(sentence)
            if guard and all(_spells(w, named) for w in said):
                continue  # the guard alone names what every sentence under it is about
            common = said | (own & words(guard))
            shared = len(common)
            score = round(shared / len(own), 2)
            # agent.yml speaks of everything: a rule must share most of the criterion's words
            least = 0.6 if skill is None else 0.34
            if shared < 2 or score < least or all(_spells(w, named) for w in common):
                continue
            taken = self._holds(condition, case) if condition else None
            if condition and self._contradicts(condition, case):
                continue  # a branch the case does not play backs nothing in it
            head = (score, {True: 1, None: 0, False: -1}[taken])
            like: float | None = None
            if head < best[0]:
                continue
            if head == best[0]:
                if best_like is None:
                    best_like = likeness(text, best_sentence or "")
                like = likeness(text, sentence)
                if like <= best_like:
                    continue
            kind = self._classify(sentence, condition, case, skill)
            quoted = sentence if len(sentence) <= 70 else sentence[:67].rstrip() + "..."
            best = (head, Justification(kind, file, line, f'"{quoted}"'))  # type: ignore[arg-type]
            best_sentence, best_like = sentence, like
        if best[1] is None and entry is not None:  # the element that takes it from the user
            found = self._writers(entry[0], case)
            writer = strongest([j for j in found if j and not j.element.startswith("tool ")])
            if writer is None:  # nothing on this case's branch writes it: a rule naming it
                return self._criterion(text, data, case, by_entry=False, gated=gated)
            return writer
        return best[1]

    def _beside_call(self, said: Justification | None, tool: str, runs: list[Skill]) -> bool:
        """Whether a prose sentence backing a criterion stands in a paragraph of a skill the
        case runs that also calls `tool` by its name: what that paragraph says after the
        call follows on its answer."""
        for skill in runs:
            if said is None or said.file != self._md(skill):
                continue
            read = self._sentences(skill)
            at = {p for _, line, _, p in read if line == said.line}
            if any(p in at and tool in text for text, _, _, p in read):
                return True
        return False

    def _entry_named(self, text: str, runs: list[Skill]) -> tuple[str, re.Pattern[str]] | None:
        """The memory entry of a skill the case runs that a criterion names (`the reset
        reason`, `reset_reason`), the longest named, with a pattern finding it in prose."""
        lower = text.lower()
        for skill in runs:  # "the check claim status" names the skill, not its claim_status
            lower = lower.replace(skill.id.replace("_", " "), " ").replace(skill.id, " ")
        spaces = self._keys_by_namespace
        if spaces is None:  # entries of several words (one word, `reason`, names nothing)
            spaces = self._keys_by_namespace = {}
            for name in self.defs.memory_names():
                namespace, _, key = name.partition(".")
                if "_" in key:
                    spaces.setdefault(namespace, []).append((name, key))
        found = [
            (name, key)
            for namespace in dict.fromkeys(["project", *(s.id for s in runs)])
            for name, key in spaces.get(namespace, [])
            if _said(key, lower)
        ]
        if not found:
            return None
        name, key = max(found, key=lambda f: (len(f[1]), f[0]))
        return name, _id_pattern(key)

    def _agent_prose(self) -> list[Line]:
        if self._agent is None:
            self._agent = agent_lines("\n".join(self._file_lines("agent.yml")))
        return self._agent

    def _criterion_detour(
        self, text: str, data: dict[str, Any], runs: list[Skill]
    ) -> Justification | None:
        """A criterion naming the skill a detour goes to, in a case whose skill is parked
        (and resumed): the runtime runs the detour before the parked one goes on, whether it
        resumes or, where the definitions leave the return open, starts again."""
        goals = _dict(_dict(data.get("scenario")).get("goals"))
        checks = list(_walk_checks(_list(goals.get("assertions"))))
        for event, goes_on in (("skill_resumed", "resumes"), ("skill_interrupted", "goes on")):
            parked = [str(_dict(c.get(event)).get("skill_id")) for c in checks if c.get(event)]
            lower = text.lower()
            for skill in runs:
                if parked and skill.id not in parked and _said(skill.id, lower):
                    why = f"detour handling: {skill.id} runs before {parked[0]} {goes_on}"
                    return Justification("enforced", RUNTIME, None, why)
        return None

    def _criterion_gate(self, text: str, runs: list[Skill], case: _Case) -> Justification | None:
        """A criterion naming a gated tool of a skill the case runs: a refused one never runs
        (its confirmation gate; named by its skill, the reply the runtime gives instead), a
        run one's success reply waits for its success."""
        lower = text.lower()
        asked = self._criterion_asks_to_confirm(lower, runs, case)
        if asked is not None:
            return asked
        named = set(re.findall(r"[\w-]+", text))
        act = self._declined_act(lower, named, runs, case)
        for skill in runs:
            md = self._md(skill)
            text_words = re.findall(r"[a-z]+", lower)
            by_skill = all(
                any(_spells(w, [part]) for w in text_words) for part in skill.id.split("_")
            )
            for tool, constraint in skill.tool_constraints.items():
                gate = constraint.requires_confirmation
                if tool in case.refused and gate is not None and tool in named:
                    line = self._constraint_line(skill, tool, "requires_confirmation")
                    why = f"{tool} requires_confirmation: the runtime runs it only after a yes"
                    return Justification("enforced", md, line, why)
                if tool in case.refused and gate is not None and (tool == act if act else by_skill):
                    denial = gate.utter_on_user_denial
                    line = self._constraint_line(skill, tool, "utter_on_user_denial")
                    why = f"{tool} utter_on_user_denial {denial}: said instead of running it"
                    return Justification("enforced", md, line, why)
                success = constraint.on_success
                # the success reply is asserted, or the criterion waits for the success
                # itself (a call on an outside service: "If <tool> succeeds, ...")
                waits = success in case.uttered or "succeed" in lower
                if success and tool in case.ran and tool in named and waits:
                    line = self._constraint_line(skill, tool, "on_success")
                    why = f"{tool} on_success {success}: said only once it succeeds"
                    return Justification("enforced", md, line, why)
        return None

    def _declined_act(
        self, lower: str, named: set[str], runs: list[Skill], case: _Case
    ) -> str | None:
        """The refused gated tool a criterion about the decline names by its act in words
        ("After the user declines, the agent does not say it went on to file the damage
        report"): the one whose name shares most words with it (file_damage_report, not
        file_missing_bag_report), or the only one refused; None where it names a tool by
        its id or does not speak of a decline."""
        refused = [
            tool
            for skill in runs
            for tool, constraint in skill.tool_constraints.items()
            if tool in case.refused and constraint.requires_confirmation is not None
        ]
        if "declines" not in lower or not refused or named & set(refused):
            return None
        said = words(lower)
        best = max(refused, key=lambda t: len(words(t.replace("_", " ")) & said))
        if len(refused) > 1 and not words(best.replace("_", " ")) & said:
            return None
        return best

    def _criterion_asks_to_confirm(
        self, lower: str, runs: list[Skill], case: _Case
    ) -> Justification | None:
        """A criterion that the agent asks before a gated action ("asks the customer to
        confirm before it goes on to <act>") restates the gated tool's
        `requires_confirmation` (the runtime asks its question before the tool runs; an
        agent may ask in its own words first). The gate is the refused one, else the one
        whose name the act says, else the only one of the skills the case runs."""
        before, asks, _ = lower.partition(" to confirm before")
        if not asks or " asks " not in f" {before} ":  # "asks the executive to confirm"
            return None
        said = words(lower)
        gates = [
            (skill, tool, constraint.requires_confirmation)
            for skill in runs
            for tool, constraint in skill.tool_constraints.items()
            if constraint.requires_confirmation is not None
        ]
        chosen = [g for g in gates if g[1] in case.refused]
        # of several refused (gates sharing one denial reply), the one the act names
        chosen = [g for g in chosen if len(words(g[1].replace("_", " ")) & said) > 1] or chosen
        chosen = chosen or [g for g in gates if len(words(g[1].replace("_", " ")) & said) > 1]
        chosen = chosen or (gates if len(gates) == 1 else [])
        if not chosen:
            return None
        skill, tool, gate = chosen[0]
        line = self._constraint_line(skill, tool, "requires_confirmation")
        why = (
            f"{tool} requires_confirmation: {gate.utter_for_confirmation or 'a question'} "
            "is asked before it runs (or the agent asks first in its own words)"
        )
        return Justification("enforced", self._md(skill), line, why)


def justifier_for(project: Project) -> MantleJustifier:
    """The project's justifier, made once per loaded project."""
    return memoized(project, ("mantle-justifier",), lambda: MantleJustifier(project))


def judge_case(data: Any, project: Project | None) -> list[Judged]:
    """The checks of one Mantle scenario with their justification (empty without Mantle
    definitions: there is nothing to justify against)."""
    if project is None or project.mantle is None or not isinstance(data, dict):
        return []
    justifier = justifier_for(project)
    # Generation asks this of one case up to four times (review, its rules, the written
    # comments, the report) with the same content: kept per project by the case's JSON.
    try:
        key = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON (a hand-written file's dates): not kept
        return justifier.judge(data)
    kept = justifier.kept_cases
    found = kept.get(key)
    if found is None:
        if len(kept) >= _KEPT_CASES:
            kept.clear()
        found = kept[key] = tuple(justifier.judge(data))
    return list(found)


#: Cases whose checks are kept per project (a generate run's cases, a review's files).
_KEPT_CASES = 512


__all__ = ["MantleJustifier", "judge_case", "justifier_for"]
