"""The tools a skill runs and from where: `execute_tool` steps, block `tools:`, prose and
instruction sentences ("call submit_claim", "use @tool.lookup"), and `tool_constraints`.

A prose mention of a tool the skill can call is a call site unless the sentence negates it
before the name ("do not call x", "never use x"). A leading "When/Once/After <clause>," is
kept as the call's trigger and, where it names a memory field, read as a condition.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ...lexicon.en.skill_prose_words import AFTER_TRIGGERS as _AFTER_WORDS
from ...lexicon.en.skill_prose_words import ALTERNATIVE_TRIGGERS as _ALTERNATIVE
from ...lexicon.en.skill_prose_words import ANSWERING_VERBS as _ANSWERING
from ...lexicon.en.skill_prose_words import CLAUSE_NOISE
from ...lexicon.en.skill_prose_words import MAY_WORDS as _MAY_WORDS
from ...lexicon.en.skill_prose_words import NEGATIONS as _NEGATIONS
from ...lexicon.en.skill_prose_words import OFFER_VERBS as _OFFER_WORDS
from ...lexicon.en.skill_prose_words import QUESTION_CLAUSE_ENDS as _CLAUSE_ENDS
from ...lexicon.en.skill_tool_calls import CALL_WORD as _CALL_WORD
from ...lexicon.en.skill_tool_calls import NEGATED as _NEGATED
from ...lexicon.en.skill_tool_calls import NEGATIVE_STATE as _NEGATIVE_STATE
from ...lexicon.en.skill_tool_calls import TOOL_AFTER as _TOOL_AFTER
from ...lexicon.en.skill_tool_calls import TRIGGER as _TRIGGER
from ...lexicon.en.skill_tool_calls import VERB_BEFORE as _VERB_BEFORE
from ...lexicon.notation.reference_mentions import BLOCK_ID as _BLOCK_ID
from ...lexicon.notation.reference_mentions import field_mention, tool_mention
from .._memo import memoized
from .._model import Block, MantleDefinitions, MemoryField, Project, Skill, Step
from ..conditions import condition_keys
from ._arguments import parameter_fields, step_arguments
from ._block_keys import block_complete_when, raw_block_keys, raw_block_tools
from ._code import UNKNOWN, code_facts, qualify
from ._held import lacking_cue
from ._text import Sentence, sentences
from ._tool_words import ToolWords, described_calls, indefinite, stems
from ._types import CallSite, Gate, MemoryWrite, ToolUse, Uncertainty, Where
from .cues import topic_cue, user_cue

#: Words that, between two calls of one sentence, make the second the first's alternative
#: ("If they have an order number use @tool.a; otherwise list them with @tool.b").
_OTHERWISE = frozenset({"otherwise", "else"})


def _after_trigger(rest: str) -> re.Match[str] | None:
    """The trigger a call's own words go on with ("… `list_channels` when they are unsure of
    the names."), read up to the clause's end as `_TRIGGER` reads a leading one."""
    head = rest.lstrip("`").strip()
    for stop in ".;,":
        head = head.split(stop, 1)[0]
    found = _TRIGGER.match(head + ",")
    if found is None or " ".join(found["word"].lower().split()) not in _AFTER_WORDS:
        return None
    return found


def _only_permitted(before: str, after: str = "") -> bool:
    """Whether the words of a sentence around its call offer it, let the agent choose it
    ("you may", "the agent can") or only limit what it is for ("Use @tool.x only to say
    what the policy covers"); a subject's ability ("if they can't …") or what the agent
    says ("say you could not find it") does not."""
    if re.findall(r"[a-z']+", after.lower())[:1] == ["only"]:
        return True
    words = re.findall(r"[a-z']+", before.lower())
    if _OFFER_WORDS & set(words):
        return True
    padded = ["", *words, "", ""]
    return any(
        padded[i] in ("you", "agent", "we")
        and padded[i + 1] in _MAY_WORDS
        and padded[i + 2] != "not"  # "say you could not find it": what is said
        and padded[i - 1] not in ("say", "tell", "that")
        for i in range(1, len(words) + 1)
    )


def _offer_cue(before: str) -> str | None:
    """What the user says to take an offered call, as a cue (`cues.user_cue`): "Offer to
    send an upload link with @tool.x" -> `they want you to send an upload link`, "offer a
    replacement with @tool.y" -> `they want a replacement`. A case that plays a user who
    takes the offer says it, and the agent then makes the call; None where no offer word
    stands before the call."""
    words = before.split()
    at = max((i for i, w in enumerate(words) if w.lower() in _OFFER_WORDS), default=None)
    if at is None:
        return None
    what = words[at + 1 :]
    while what and what[-1].lower().strip("`") in ("with", "via", "using", "through", "tool"):
        what = what[:-1]
    if not what or any("@" in w for w in what):
        return None
    said = " ".join(what).strip(" ,;:")
    return user_cue(f"they want you {said}" if what[0].lower() == "to" else f"they want {said}")


def _purpose_cue(after: str) -> str | None:
    """What the user asks that a call limited to answering it waits for (`cues.user_cue`):
    "Use @tool.x only to say what the policy covers in general words" -> `they ask what the
    policy covers`; None where the call's purpose is no question of theirs."""
    words = after.split()
    if [w.lower() for w in words[:2]] != ["only", "to"] or len(words) < 4:
        return None
    if words[2].lower() not in _ANSWERING or words[3].lower() not in ("what", "whether", "how"):
        return None
    clause: list[str] = []
    for word in words[3:]:
        bare = word.strip(",;:.()\"'")
        if bare.lower() in _CLAUSE_ENDS or not bare:
            break
        clause.append(bare)
        if bare != word.rstrip():
            break  # punctuation closes the clause
    return user_cue(f"they ask {' '.join(clause)}") if len(clause) > 1 else None


@lru_cache(maxsize=4096)
def _mention_patterns(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """`@tool.name` and the bare name, compiled once per name (more than `re` caches)."""
    escaped = re.escape(name)
    return tool_mention(name), re.compile(rf"(?<![\w.@]){escaped}\b")


def _mentions(sentence: str, name: str) -> list[int]:
    """Positions where the sentence calls `name`: `@tool.name`, or the bare name right after a
    calling word ("call submit_claim", "with `lookup`") or before "tool" ("the x tool")."""
    if name not in sentence:  # both patterns spell the name as it is written
        return []
    tagged, bare = _mention_patterns(name)
    out = [m.start() for m in tagged.finditer(sentence)]
    for match in bare.finditer(sentence):
        before = sentence[: match.start()]
        after = sentence[match.end() :]
        if _VERB_BEFORE.search(before) or _TOOL_AFTER.match(after):
            out.append(match.start())
    return sorted(out)


def _instead_of(text: str, name: str, at: int, calls: dict[str, list[int]]) -> str | None:
    """The call of the same sentence that `name` is the alternative to: the nearest one
    before it when the words between them say "otherwise" or "else" (None: no such)."""
    earlier = [(p[0], other) for other, p in calls.items() if other != name and p[0] < at]
    if not earlier:
        return None
    start, other = max(earlier)
    between = re.findall(r"[a-z]+", text[start + len(other) : at].lower())
    return other if _OTHERWISE.intersection(between) else None


def trigger_condition(clause: str, skill: Skill, fields: list[MemoryField]) -> str | None:
    """`details_verified is true` -> `session.file_claim.details_verified` (None if unread).

    `fields`: the entries the skill reads, its own and the project's in the project's order
    (`MantleDefinitions.memory_in(skill.id, "project")`)."""
    named = [
        f
        for f in fields
        if f.name in clause  # both alternatives spell the name as it is written
        and field_mention(f.name, f.qualified).search(clause)
    ]
    if not named:
        return _values_condition(clause, skill) or _described_condition(clause, fields)
    if len(named) != 1:
        return None
    field = named[0]
    name = f"session.{field.qualified}"
    lowered = clause.lower()
    for value in field.enum_values or []:
        if re.search(rf"\b{re.escape(str(value).lower())}\b", lowered.replace(field.name, "")):
            return f"{name} == '{value}'"
    if _NEGATIVE_STATE.search(lowered):
        return f"not {name}"
    return name


_NOISE = frozenset(stems(" ".join(CLAUSE_NOISE)))


def _described_condition(clause: str, fields: list[MemoryField]) -> str | None:
    """`the car cannot be driven` -> `not session.file_claim.vehicle_drivable` where the
    clause names no field but says what exactly one flag the user answers is true of
    ("True when the car can still be driven safely"): every word of the clause is in the
    description, and a negation on one side only makes it the flag's false side."""
    words = re.findall(r"[a-z']+", clause.lower())
    said = set(stems(" ".join(w for w in words if w not in _NEGATIONS))) - _NOISE
    if not said:
        return None
    found = []
    for field in fields:
        if field.type != "bool" or not field.llm_settable or not field.description:
            continue
        described = field.description.lower()
        if said <= set(stems(described)):
            negated = bool(_NEGATIONS & set(re.findall(r"[a-z']+", described)))
            found.append((field, negated != bool(_NEGATIONS & set(words))))
    if len(found) != 1:
        return None
    field, false_side = found[0]
    return f"{'not ' if false_side else ''}session.{field.qualified}"


def _values_condition(clause: str, skill: Skill) -> str | None:
    """`deploy, rollback and promote` -> `session.x.mode == 'deploy' or ...` when the words
    are values of exactly one of the skill's categorical fields."""
    words = re.findall(r"[\w-]+", clause.lower())
    found = []
    connectors = {"and", "or", "the", "a", "an", "mode", "modes", "either", "both", "requests"}
    for field in skill.memory.values():
        values = [v for v in field.enum_values or [] if str(v).lower() in words]
        if values:
            found.append((field, values))
    if len(found) != 1:
        return None
    field, values = found[0]
    named = {str(v).lower() for v in values} | {field.name.lower()}
    if any(w not in named and w not in connectors for w in words):
        return None  # "If staging is ahead of prod": a circumstance, not a list of values
    name = f"session.{field.qualified}"
    return " or ".join(f"{name} == '{v}'" for v in values)


def _gate(skill: Skill, name: str) -> Gate | None:
    constraint = skill.tool_constraints.get(name)
    if constraint is None:
        return None
    confirmation = constraint.requires_confirmation
    return Gate(
        requires=constraint.requires,
        requires_keys=condition_keys(constraint.requires),
        confirmation=bool(confirmation and confirmation.enabled),
        utter_for_confirmation=confirmation.utter_for_confirmation if confirmation else None,
        utter_on_user_denial=confirmation.utter_on_user_denial if confirmation else None,
        on_success=constraint.on_success,
        on_failure=constraint.on_failure,
    )


class ToolReader:
    """Collects call sites per tool, in the order the definition mentions them."""

    def __init__(self, project: Project, defs: MantleDefinitions, skill: Skill, file: str):
        self.project = project
        self.defs = defs
        self.skill = skill
        self.file = file
        self.callable = defs.tools_for(skill.id)
        self.names = list(dict.fromkeys([*self.callable, *skill.tool_constraints]))
        self.calls: dict[str, list[CallSite]] = {}
        self.uncertainties: list[Uncertainty] = []
        self.memory = defs.memory_names()
        self.readable = defs.memory_in(skill.id, "project")
        self.words = [ToolWords.of(n, self.callable.get(n)) for n in self.names]
        #: Tools a block step runs (`execute_tool`, `tools:`): the framework calls them, so a
        #: sentence that describes one summarises the step rather than calling it again.
        self.stepped = {
            str(step.target)
            for block in skill.blocks.values()
            for step in block.steps
            if step.kind == "execute_tool"
        } | {t for tools in raw_block_tools(skill).values() for t in tools}
        self.kinds: set[tuple[str, str]] = set()
        """(tool, sentence) of described calls on "a"/"an" (kept only as a tool's one site)."""
        self.values: frozenset[str] = memoized(  # the project's: kept per definitions
            defs,
            "enum_strings",
            lambda: frozenset(
                str(v)
                for f in self.memory.values()
                for v in f.enum_values or []
                if isinstance(v, str)
            ),
        )

    def add(self, name: str, site: CallSite) -> None:
        self.calls.setdefault(name, []).append(site)

    def read_blocks(self) -> None:
        block_tools = raw_block_tools(self.skill)
        for block in self.skill.blocks.values():
            for name in block_tools.get(block.id, []):
                where = Where(file=self.file, line=block.line, part=f"block {block.id}")
                self.add(name, CallSite(kind="block_tools", block=block.id, where=where))
            for step in block.steps:
                self._read_step(block, step)

    def _read_step(self, block: Block, step: Step) -> None:
        where = Where(file=self.file, line=step.line, part=f"block {block.id} step {step.id}")
        if step.kind == "execute_tool":
            self.add(
                str(step.target),
                CallSite(kind="execute_tool", block=block.id, step=step.id, where=where),
            )
        for name in step.fields.get("tools") or []:
            if isinstance(name, str):
                self.add(
                    name, CallSite(kind="block_tools", block=block.id, step=step.id, where=where)
                )
        if step.kind == "instructions":
            line = step.line + 1 if step.line else None
            before: list[str] = []
            for sentence in sentences(str(step.target or ""), line or 1):
                self._read_sentence(sentence, "instructions", block.id, step.id, before)

    def read_prose(self, first_line: int) -> None:
        before: list[str] = []
        leads: dict[int, str] = {}
        for sentence in sentences(self.skill.body, first_line):
            lead = leads.setdefault(sentence.paragraph, sentence.text)
            topic = None
            if lead != sentence.text:  # the calls after a paragraph's statement of its topic
                topic = topic_cue(lead, self.skill.description)
            self._read_sentence(sentence, "prose", None, None, before, topic)

    def _read_sentence(
        self,
        sentence: Sentence,
        kind: str,
        block: str | None,
        step: str | None,
        before: list[str],
        topic: str | None = None,
    ) -> None:
        """The calls of one sentence; `before` holds the stems of the text before it (a
        pronoun's antecedent) and gets this sentence's; `topic` is the cue of the request
        its paragraph is about (`cues.topic_cue`), which an unconditional call waits for."""
        text = sentence.text
        part = "prose" if block is None else f"block {block} step {step}"
        where = Where(file=self.file, line=sentence.line if block is None else None, part=part)
        if block is not None:
            where = Where(file=self.file, line=sentence.line, part=part)
        calls = self._calls_in(text, where, before)
        before += stems(text)
        for name, positions in calls.items():
            trigger = _TRIGGER.match(text[: positions[0]])
            condition = sentence.condition
            trigger_text = None
            read = None
            optional = False
            cue = None
            instead = _instead_of(text, name, positions[0], calls)
            if instead is not None:
                trigger_text = "otherwise"
                optional = True
                cue = lacking_cue(text[: positions[0]])
                self.uncertainties.append(
                    Uncertainty(
                        what=f"when {name} is called",
                        where=where,
                        why=f"the prose calls it only where {instead} does not apply "
                        "('otherwise'); walks take the first and leave this call out",
                    )
                )
            elif trigger and trigger.end() <= positions[0] and "@tool." not in trigger.group(0):
                trigger_text = trigger.group(0).rstrip(",")
                read = trigger_condition(trigger["clause"], self.skill, self.readable)
                word = " ".join(trigger["word"].lower().split())
                if read is not None and word == "unless":
                    read = f"not ({read})"  # "Unless X is true, call y": y runs while X is not
                if read is None:
                    optional = word in _ALTERNATIVE
                    cue = user_cue(trigger["clause"]) if word == "if" else None
                    self.uncertainties.append(
                        Uncertainty(
                            what=f"when {name} is called",
                            where=where,
                            why=f"the prose says '{trigger_text}', which names no one memory "
                            "field; "
                            + (
                                "walks leave this call out (a window of time: no case "
                                "fixes which side of it the run falls on)"
                                if optional and word == "during"
                                else "walks leave this call out"
                                if optional
                                else "the walk calls it where the sentence stands"
                            ),
                        )
                    )
                else:
                    condition = f"({condition}) and {read}" if condition else read
            elif trigger is None:
                after = _after_trigger(text[positions[0] + len(name) :])
                if after is not None:
                    trigger_text = after.group(0).rstrip(",")
                    read = trigger_condition(after["clause"], self.skill, self.readable)
                    word = " ".join(after["word"].lower().split())
                    if read is not None and word == "unless":
                        read = f"not ({read})"
                    if read is None:
                        optional = True
                        cue = user_cue(after["clause"])
                        self.uncertainties.append(
                            Uncertainty(
                                what=f"when {name} is called",
                                where=where,
                                why=f"the prose calls it '{trigger_text}', which names no one "
                                "memory field; walks leave this call out",
                            )
                        )
                    else:
                        condition = f"({condition}) and {read}" if condition else read
            end = text.find(name, positions[0]) + len(name)
            if not optional and cue is None and _only_permitted(text[: positions[0]], text[end:]):
                optional = True
                trigger_text = trigger_text or "offer"
                cue = _offer_cue(text[: positions[0]]) or _purpose_cue(text[end:])
                self.uncertainties.append(
                    Uncertainty(
                        what=f"when {name} is called",
                        where=where,
                        why="the prose only offers or permits the call; it runs on the "
                        "user's yes, so walks leave this call out",
                    )
                )
            on_topic = topic is not None and not optional and cue is None
            if on_topic:
                optional, cue, trigger_text = True, topic, trigger_text or topic
                self.uncertainties.append(
                    Uncertainty(
                        what=f"when {name} is called",
                        where=where,
                        why=f"its paragraph is about a request the description lists ({topic}); "
                        "walks leave this call out unless the user asks for it",
                    )
                )
            self.add(
                name,
                CallSite(
                    kind=kind,  # type: ignore[arg-type]
                    block=block,
                    step=step,
                    condition=condition,
                    trigger=trigger_text,
                    when=read,
                    sentence=text,
                    where=where,
                    optional=optional,
                    cue=cue,
                    topic=on_topic,
                ),
            )
        for match in _CALL_WORD.finditer(text):
            word = match["name"]
            if (
                word in self.names
                or word in self.memory
                or f"{self.skill.id}.{word}" in self.memory
            ):
                continue
            if word in self.defs.skills or word in self.skill.blocks or word in self.values:
                continue
            self.uncertainties.append(
                Uncertainty(
                    what=f"'{word}' looks like a tool name",
                    where=where,
                    why="no tool of that name is defined or imported for this skill",
                )
            )

    def _calls_in(self, text: str, where: Where, before: list[str]) -> dict[str, list[int]]:
        """Tool -> where the sentence calls it: by name, else by what it does (one tool only:
        a sentence that reads as two calls none, recorded)."""
        named = {}
        for name in self.names:
            positions = _mentions(text, name)
            if positions and not all(_NEGATED.search(text[:p]) for p in positions):
                named[name] = positions
        # a name the sentence does not hold cannot match (the pattern spells it as written)
        if named or any(n in text and re.search(rf"\b{re.escape(n)}\b", text) for n in self.names):
            return named
        if "@tool." in text:  # it names the tool it calls, one this skill may not have
            return {}
        found = {
            name: [at]
            for name, at in described_calls(text, self.words, before).items()
            if not _NEGATED.search(text[:at]) and name not in self.stepped
        }
        if len(found) > 1:
            self.uncertainties.append(
                Uncertainty(
                    what="which tool the prose calls",
                    where=where,
                    why=f"'{text}' reads as a call of {' and of '.join(sorted(found))}; "
                    "walks call neither",
                )
            )
            return {}
        for name, (at,) in found.items():
            if indefinite(text, at):
                self.kinds.add((name, text))
        return found

    def block_entries(self, first_line: int) -> dict[str, str | None]:
        """Block id -> the condition every prose entry into it shares (None: unconditional)."""
        entries: dict[str, list[str | None]] = {}
        for sentence in sentences(self.skill.body, first_line):
            for block in _BLOCK_ID.findall(sentence.text):
                entries.setdefault(block, []).append(sentence.condition)
        out: dict[str, str | None] = {}
        for block, conditions in entries.items():
            if conditions and all(conditions):
                unique = list(dict.fromkeys(c for c in conditions if c))
                out[block] = " or ".join(f"({c})" if " or " in c else c for c in unique)
        return out

    def scope_blocks(self, first_line: int) -> None:
        """Call sites inside a block only a conditional prose paragraph runs inherit it."""
        scoped = self.block_entries(first_line)
        for name, calls in self.calls.items():
            self.calls[name] = [
                c.model_copy(update={"condition": scoped[c.block]})
                if c.block in scoped and c.condition is None
                else c
                for c in calls
            ]

    def uses(self) -> list[ToolUse]:
        for name in self.skill.tool_constraints:
            if name not in self.calls:
                where = Where(file=self.file, part="frontmatter")
                self.add(name, CallSite(kind="constraint", where=where))
        out = []
        for name, calls in self.calls.items():
            steps = [c for c in calls if (name, c.sentence or "") not in self.kinds]
            out.append(self._use(name, steps or calls))
        return out

    def _use(self, name: str, calls: list[CallSite]) -> ToolUse:
        tool = self.callable.get(name)
        if tool is None:
            return ToolUse(
                name=name, scope="unknown", calls=calls, gate=_gate(self.skill, name), defined=False
            )
        facts = code_facts(self.project, tool)
        writes = []
        for write in facts.writes:
            known = write.value is not UNKNOWN
            writes.append(
                MemoryWrite(
                    key=qualify(write.key, self.skill.id, self.project.mantle),
                    value=write.value if known else None,
                    known=known,
                )
            )
        arguments: dict[str, str] = {}
        for block in self.skill.blocks.values():
            for step in block.steps:
                if step.kind == "execute_tool" and str(step.target) == name:
                    arguments.update(step_arguments(step))
        if not arguments:
            fields = parameter_fields(self.skill, tool, self.defs.memory_view())
            arguments = {p: f.qualified for p, f in fields.items()}
        return ToolUse(
            name=name,
            scope=tool.scope,
            mcp_server=tool.mcp_server,
            description=tool.description,
            calls=calls,
            gate=_gate(self.skill, name),
            writes=writes,
            arguments=arguments,
            parameters=[p.name for p in tool.parameters if "ToolContext" not in (p.type or "")],
            error_results=list(facts.errors),
        )


def written_value(use: ToolUse, key: str) -> Any:
    return next((w.value for w in use.writes if w.key == key and w.known), UNKNOWN)


__all__ = [
    "ToolReader",
    "block_complete_when",
    "parameter_fields",
    "raw_block_keys",
    "raw_block_tools",
    "step_arguments",
    "trigger_condition",
    "written_value",
]
