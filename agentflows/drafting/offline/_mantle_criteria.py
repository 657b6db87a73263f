"""Criteria from the skill's own prose: the rules a judge reads the conversation for.

A criterion is one bot-side deal-breaker that no recorded event can show (what the agent
says or never says), taken from the skill's words rather than boilerplate: "Never say which
detail did not match" becomes "The agent does not say which detail did not match";
"tell the customer the card can no longer be used" becomes "The agent tells the customer the
card can no longer be used". Rules under an `if:` that the path does not take are left out,
rules under the active `if:` come first, and a compound sentence gives one criterion per
check (`split_compound`), so a failure says which one broke.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.conditions import evaluate
from evalcore.definitions.skill_model import completes_at
from evalcore.lexicon.en.instruction_words import CLAUSE_SUBJECT_VERBS as _SUBJECT_VERBS
from evalcore.lexicon.en.instruction_words import CLAUSE_SUBJECTS as _SUBJECTS
from evalcore.lexicon.en.instruction_words import DETERMINERS as _DETERMINERS
from evalcore.lexicon.en.instruction_words import EMPTY_OBJECTS as _EMPTY
from evalcore.lexicon.en.instruction_words import FORBIDDING as _FORBIDS
from evalcore.lexicon.en.instruction_words import GIVING_AWAY as _GIVES_AWAY
from evalcore.lexicon.en.instruction_words import OTHER_PEOPLE as _OTHERS
from evalcore.lexicon.en.instruction_words import OTHER_PEOPLES_OWN as _OTHERS_OWN
from evalcore.lexicon.en.instruction_words import QUOTING_VERBS as _QUOTING
from evalcore.lexicon.en.instruction_words import SAYING_WHAT as _SAYING
from evalcore.lexicon.en.instruction_words import STAYING as _STAYING
from evalcore.lexicon.en.instruction_words import TELLING_VERBS as _TELLING
from evalcore.lexicon.en.instruction_words import THIRD_PERSON as _THIRD_PERSON
from evalcore.lexicon.en.instruction_words import WHAT_FAILED as _WHAT_FAILED
from evalcore.lexicon.en.instruction_words import WORKINGS as _WORKINGS
from evalcore.lexicon.en.prose_instructions import ANAPHORIC as _ANAPHORIC
from evalcore.lexicon.en.prose_instructions import ASKS as _ASKS
from evalcore.lexicon.en.prose_instructions import CLAUSES as _CLAUSES
from evalcore.lexicon.en.prose_instructions import CONDITION as _CONDITION
from evalcore.lexicon.en.prose_instructions import DANGLING as _DANGLING
from evalcore.lexicon.en.prose_instructions import DECLINES as _DECLINES
from evalcore.lexicon.en.prose_instructions import INSTRUCTION as _INSTRUCTION
from evalcore.lexicon.en.prose_instructions import MORE_NOT as _MORE_NOT
from evalcore.lexicon.en.prose_instructions import NOT_A_VERB as _NOT_A_VERB
from evalcore.lexicon.en.prose_instructions import OFF_TOPIC as _OFF_TOPIC
from evalcore.lexicon.en.prose_instructions import PROHIBITION as _PROHIBITION
from evalcore.lexicon.en.prose_instructions import SCOPE as _SCOPE
from evalcore.lexicon.en.prose_instructions import YOU as _YOU
from evalcore.lexicon.en.prose_instructions import YOU_VERB as _YOU_VERB
from evalcore.lexicon.en.prose_instructions import YOUR as _YOUR
from evalcore.lexicon.en.prose_instructions import YOURSELF as _YOURSELF
from evalcore.lexicon.en.skill_prose import ASKS_FOR_THE, FREE_OR_NONE, QUOTED_EXAMPLE, STATES_THE
from evalcore.lexicon.en.word_classes import ARTICLES, CONDITION_OPENERS
from evalcore.lexicon.notation.prose_references import ANY_REFERENCE as _REF

from ...criterion_checks import split_compound
from ...planning.mantle_offers import paragraphs
from ._direction import content_stems
from ._mantle_condition_words import condition_words
from ._mantle_other_values import about_other_values

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z@])")
_THIRD = {"read back": "reads back"}


def _says_nothing(rest: str) -> bool:
    words = rest.lower().split()
    return bool(words) and words[0] in _EMPTY and (len(words) == 1 or words[1] in CONDITION_OPENERS)


#: Words of a rule that say which kind of path it matters on (stems, read as patterns: "no"
#: alone would match every "not").
TOPICS: dict[str, tuple[str, ...]] = {
    "refusal": (r"says? no\b", "declin", "confirm", "again", "refus"),
    "failure": ("fail", "error", "succeed", "again", "went wrong"),
    "negative": ("not match", "cannot", "not eligible", "attempt", "fail"),
    "adversarial": ("never", "disclose", "reveal", "read out", "share", "id"),
}


@dataclass(frozen=True)
class Rule:
    text: str
    """The criterion sentence ("The agent does not ...")."""
    conditional: bool
    """Taken from a paragraph under an `if:` that holds on the path."""
    staged: bool = False
    """Scoped to the moment the skill's job is done ("After the confirmation line, ..."): a
    path that reaches the paragraph reaches that moment."""
    pointer: Pointer | None = None
    """Where the rule sends the user and what for (a "point them here:" list)."""
    condition: str | None = None
    """The `if:` it is taken under (None for an unconditional paragraph)."""
    completion: bool = False
    """Says only that the skill ends where its prose completes it ("complete this skill
    after the confirmation line. Do not stay active, do not wait for more input"): the
    runtime records that as `skill_completed`, which a case asserting it checks already;
    as a criterion, a judge may fail every agent, since each waits for the next message."""

    inner: bool = False
    """Under an `if:`, says a situation of its own besides ("When the mode is track, if
    there is an open report, ..."): the `if:` the path takes does not fix it."""

    fallback: bool = False
    """What to do instead of a prohibited act ("Never put focus time over an existing
    meeting; say what is in the way instead"): it holds only where that act would happen
    (a meeting is in the way), which a path that runs the act's tool never meets."""

    preceded: str = ""
    """The paragraph's sentences before the rule's own: a tool one of them calls ("call
    submit_refill ... Give the ready time from the tool") is what the rule follows on
    (`_mantle_answers.after_outside_call`)."""

    @property
    def situational(self) -> bool:
        """Only for a situation ("If the customer says no, ..."): vacuous on other paths
        (not one under an `if:` the path takes: the case fixes its condition, unless the
        rule says a situation of its own too, is what to do instead of something, or
        guards another person's records, `_other_party`)."""
        if self.staged:
            return False
        if self.fallback or (self.prohibition and _other_party(self.text)):
            return True
        return self.inner if self.conditional else not self.text.startswith("The agent ")

    @property
    def prohibition(self) -> bool:
        return " does not " in self.text


def _plain(text: str) -> str:
    text = _REF.sub(lambda m: m.group(1).split(".")[-1].replace("_", " "), text)
    return " ".join(text.split()).rstrip(".!")


def _agent_voice(text: str) -> str:
    """Second person of an instruction ("your own words") as the agent's ("its own words")."""
    text = _YOURSELF.sub("itself", text)
    text = _YOUR.sub("its", text)
    text = _YOU_VERB.sub(_you_verb, text)
    return _YOU.sub("it", text)


def _you_verb(match: re.Match[str]) -> str:
    return f"it {match.group(1) or ''}{_THIRD_PERSON[match.group(2).lower()]}"


def _lead(lead: str) -> str:
    lead = re.sub(r"\bso\s*$", "", lead.strip(" ,;")).strip(" ,;")
    if re.search(r"\bit\b", lead, re.I):
        lead = ""  # "When it returns": the pronoun means nothing out of its paragraph
    if not _SCOPE.match(lead):
        lead = ""  # a statement ("The tool is read-only, so never ..."), not when it holds
    return f"{lead[:1].upper()}{lead[1:]}, the agent" if lead else "The agent"


_QUOTES = "\"“'"


def _acts(rest: str) -> bool:
    """Whether what follows "never" is an action the agent takes, whole without its
    paragraph ("give out the code"), not a passive or a bare pronoun ("refilled early",
    "summarise it")."""
    return not _NOT_A_VERB.search(rest.strip())


def _lost_condition(lead: str) -> bool:
    """A prohibition whose condition `_lead` would drop ("If they ask whether they can take
    it ..., do not answer"): without it the rule forbids what the skill allows elsewhere."""
    if _ANAPHORIC.match(lead.strip()):
        return True
    return bool(_CONDITION.match(lead.strip() + " ")) and _lead(lead) == "The agent"


#: An aside between dashes ("outside the list - including … - refuse briefly"): the sentence
#: reads on without it, and its dashes are no clause boundaries.
_ASIDE = re.compile(r"\s+[—–-]\s+[^—–]+?\s+[—–-]\s+")


def _clauses(sentence: str) -> list[str]:
    """A sentence's instructions, each carrying the sentence's opening condition: in "If
    no refills are left, offer a renewal and say it takes two days" the second one holds
    only when no refills are left, too. What follows a colon after a statement ("Unsupported
    countries have no local section: never list other countries' rules") holds only where
    the statement does, which the rule alone no longer says: it is left out."""
    out: list[str] = []
    head: str | None = None
    opening = ""
    plain = _ASIDE.sub(", ", _plain(sentence.strip()))
    parts = plain.split(": ")
    for index, part in enumerate(parts):
        if head is not None and not opening and len(head.split()) >= 3 and not _rule(head):
            break  # the part after the colon is scoped by the statement before it
        condition = _CONDITION.match(part)
        if condition is None and opening:
            part = opening + part  # "If they moved, do not order: explain ..."
        opening = opening or (condition.group(0) if condition else "")
        head = part
        if index + 1 < len(parts) and _DANGLING.search(part):
            # "mention you can assist with: billing, orders or returns": the list it names
            # comes after, and is the rule's content (what a judge checks was said)
            if index + 2 == len(parts) and _rule(part) and not _rule(parts[-1]):
                out.extend(_conditioned(f"{part}: {parts[-1]}"))
                break
            continue
        out.extend(_conditioned(part))
    return out


def _conditioned(text: str) -> list[str]:
    """A sentence's clauses, each carrying the sentence's opening condition. A clause joined
    by "and" to one with its own subject ("they are on bar and do not need the whole card")
    shares that subject: it says nothing the agent does, and is left out."""
    condition = _CONDITION.match(text)
    lead = condition.group(0) if condition else ""
    body = text[len(lead) :]
    pieces = _CLAUSES.split(body)
    joints = [m.group(0) for m in _CLAUSES.finditer(body)]
    out: list[str] = []
    subject = False  # the clause before has a subject of its own (not the agent's)
    # a clause's own condition holds for the clauses "and" or a comma joins to it ("if the
    # bag is already on its way, say so and offer delivery": the offer too)
    local = ""
    for at, piece in enumerate(pieces):
        joint = joints[at - 1] if at else ""
        kind = _joint(joint)
        if kind != "and":
            # a ";", a dash, a comma or "but" starts a clause of its own ("The dispute can
            # still be opened, but tell them ...")
            subject = False
        if kind == "other":
            local = ""
        if subject:
            continue
        if kind == "comma" and not _INSTRUCTION.match(out[-1]):
            # a comma after a condition or a scope ("if they are equal, say …", "Outside
            # those hours, offer …"), not after an instruction: one clause
            out[-1] += joint + piece
            own = _CONDITION.match(out[-1])
            local = own.group(0) if own else local
            continue
        listed = kind in ("comma", "and")
        if out and listed and _tells_to(out[-1]) and not _PROHIBITION.match(piece):
            # "tell them to leave the room, close the door and call ...": what they are told
            out[-1] += joint + piece
            continue
        subject = _own_subject(piece)
        own = _CONDITION.match(piece)
        carried = local or lead
        out.append(piece if own or not carried else carried + piece)
        if own:
            local = own.group(0)
    return out


def _tells_to(text: str) -> bool:
    words = text.lower().split()
    for at, word in enumerate(words):
        if word in _TELLING:
            after = words[at + 1 : at + 4]
            if after[1:2] == ["to"] or (after[:1] == ["the"] and after[2:3] == ["to"]):
                return True
    return False


def _joint(joint: str) -> str:
    """What joins two clauses: "comma" (a bare comma), "and", or "other" (";", a dash,
    "but", "then")."""
    words = joint.replace(",", " , ").split()
    if words == [","]:
        return "comma"
    return "and" if words and words[-1].lower() == "and" else "other"


def _own_subject(clause: str) -> bool:
    words = clause.lower().split()
    if words[:1] and words[0] in _SUBJECTS:
        verb = words[1:2]
    elif words[:1] and words[0] in ARTICLES:
        verb = words[2:3]
    else:
        return False
    return bool(verb) and (verb[0] in _SUBJECT_VERBS or verb[0].endswith("ed"))


def sentence_rule(sentence: str) -> str | None:
    """The criterion a prose sentence states, or None when it states no agent behaviour."""
    rule = _rule(sentence)
    return rule if rule is None or _whole(rule) else None


def _rule(sentence: str) -> str | None:
    plain = _plain(sentence)
    found = _PROHIBITION.match(plain)
    verb = found["lead"].split(" ", 1)[0].lower() if found else ""
    if (
        found
        and found["rest"][:1] in _QUOTES
        and verb in _QUOTING
        and found["lead"][len(verb) :].strip()[:1] in _QUOTES
    ):
        # "say "requested", never "done"": the lead's word against the prohibited ones,
        # as what the agent calls the thing: "it still has to be approved" calls nothing
        # "approved"
        said = found["lead"][len(verb) :].strip().rstrip(",;: ")
        return f"The agent does not describe it as {found['rest']} (the word is {said})"
    if found:
        if not _acts(found["rest"]) or _lost_condition(found["lead"]):
            return None
        # "Do not stay active, do not wait for more input": one prohibition of two acts
        rest = _MORE_NOT.sub(" or ", _agent_voice(found["rest"]))
        return f"{_lead(found['lead'])} does not {rest}"
    found = _INSTRUCTION.match(plain)
    if found and _ANAPHORIC.match(found["lead"].strip()):
        return None  # "…; after that, say …": holds only after a clause it no longer has
    if found and found["verb"].lower() == "thank" and found["rest"].split()[0].lower() == "you":
        return None  # "Thank you for your email": text for a reader, not an instruction
    if found and not _says_nothing(found["rest"]):
        verb = found["verb"].lower()
        third = _THIRD.get(verb, verb + ("es" if verb.endswith("sh") else "s"))
        return f"{_lead(found['lead'])} {third} {_agent_voice(found['rest'])}"
    return None


def _whole(rule: str) -> bool:
    """Whether a rule reads whole out of its sentence: no bracket or quote left open (a
    list the sentence split went through)."""
    return rule.count("(") == rule.count(")") and not rule.count('"') % 2


def first_rule(text: str) -> str | None:
    """The criterion of the first instruction in `text` (one check, never a compound)."""
    clause = _CLAUSES.split(_plain(text.strip()))[0]
    rule = sentence_rule(clause)
    return split_compound(rule)[0] if rule else None


def prose_rules(defs: MantleDefinitions, skill: Skill, memory: Mapping[str, Any]) -> list[Rule]:
    """The skill's rules that hold on a path with `memory`, active `if:` branches first
    (each saying its condition). Never the agent-wide rules: on a path where nothing calls
    for them they test nothing. A paragraph about a field of the skill that the path never
    sets ("set `fun_mode`, then confirm ...; do not stay active") describes a stage the path
    does not reach, so its rules are left out too."""
    own = [f.name for f in defs.namespace_fields(skill.id)]
    conditional: list[Rule] = []
    general: list[Rule] = []
    read = _paragraph_rules(skill.body)
    # what the path's own `if:` paragraphs have the agent say ("say each request's state
    # (waiting for manager, approved, declined)"): a general rule never bans it there
    branch = " ".join(t for c, t, _ in read if c and _holds(c, memory)).lower()
    for condition, text, rules in read:
        if condition and not _holds(condition, memory):
            continue
        if not condition:
            rules = tuple(r for r in rules if not _banned_here(r.text, branch))
        mentioned = [n for n in own if _mentions(text, n)]
        if mentioned and not any(memory.get(f"{skill.id}.{n}") is not None for n in mentioned):
            continue
        if about_other_values(defs, skill.id, text, memory):
            continue  # "db:write and k8s:exec need a second approver" on a logs:read path
        rules = tuple(r for r in rules if not _nothing_to_state(r.text, text, memory))
        (conditional if condition else general).extend(rules)
    seen: set[str] = set()
    out: list[Rule] = []
    for rule in [*conditional, *general]:
        if rule.text.lower() not in seen:
            seen.add(rule.text.lower())
            out.append(rule)
    return out


def _banned_here(rule: str, branch: str) -> bool:
    """Whether `rule` bans a quoted word ("does not describe it as "approved"") that the
    branch's own paragraphs (`branch`, lower case) have the agent say."""
    if " does not " not in f" {rule} ":
        return False
    banned = rule.split(" (", 1)[0]  # not "(the word is "requested")"
    quoted = re.findall(r"[\"“]([^\"”]+)[\"”]", banned)
    return any(re.search(rf"(?<![\w-]){re.escape(q.lower())}(?![\w-])", branch) for q in quoted)


def _nothing_to_state(rule: str, paragraph: str, memory: Mapping[str, Any]) -> bool:
    """Whether the rule has the agent state a thing the paragraph says the path's own
    choice does not have ("Card payments have a 2.9% fee; bank (ACH) payments are free;
    say the fee before they confirm" on a path that pays by ACH): a correct agent may say
    nothing of it there."""
    stated = STATES_THE.search(rule)
    if stated is None:
        return False
    thing = stated.group(1).lower().rstrip("s")
    chosen = {v.lower() for v in memory.values() if isinstance(v, str) and len(v) > 1}
    for clause in re.split(r"[;.]", paragraph):
        nothing = any(
            m.group(1) is None or m.group(1).lower() == thing for m in FREE_OR_NONE.finditer(clause)
        )
        if nothing and chosen & set(re.findall(r"\w+", clause.lower())):
            return True
    return False


@lru_cache(maxsize=8192)
def _mentions(text: str, name: str) -> bool:
    """Whether a paragraph names a field: in backticks, or bare where the name cannot be a
    plain word (`fun_mode`, not `reason`). Kept: every case of a skill reads its paragraphs
    against every field of the skill."""
    if f"`{name}`" in text:
        return True
    return "_" in name and re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text) is not None


@lru_cache(maxsize=256)
def _paragraph_rules(body: str) -> tuple[tuple[str | None, str, tuple[Rule, ...]], ...]:
    """Each prose paragraph's `if:` condition, its text and the rules its sentences state,
    read once per skill body: every case of the skill asks, and only the conditions depend
    on its path. A rule under an `if:` says the condition ("When the rating is thumbs down,
    the agent ..."); one whose condition cannot be said is left out."""
    out: list[tuple[str | None, str, tuple[Rule, ...]]] = []
    read = paragraphs(body)
    for at, (condition, text) in enumerate(read):
        said = condition_words(condition) if condition else None
        rules: list[Rule] = []
        after = read[at + 1][1] if at + 1 < len(read) else ""
        moment: str | None = None  # "complete this skill right after X": what follows is then
        ends = False  # the paragraph has told the agent to complete the skill
        pointed, pointer = _pointed(text, after)
        guard = ""  # the paragraph's opening condition (see `_guarded`)
        split = _SENTENCE.split(pointed)
        for index, sentence in enumerate(split):
            preceded = " ".join(split[:index])
            sentence, guard = _guarded(_without_aside(sentence), guard, index)
            completing = completes_at(sentence)
            moment = completing or moment
            ends = ends or completing is not None
            for clause in _clauses(sentence):
                rule = sentence_rule(clause)
                piece = split_compound(rule)[0] if rule else None
                if piece is None or len(split_compound(rule or "")) > 1:
                    continue
                sent = pointer if pointer and pointer.places[0] in piece else None
                # a pointer's purposes are cut to the case's request where it is used
                if len(piece.split()) < 4 or (len(piece) > 160 and sent is None):
                    continue
                staged = bool(moment) and piece.startswith("The agent ")
                completion = ends and _stays(piece)
                if staged:
                    # "do not wait for more input" holds once the skill's job is done: while
                    # the user is still choosing, a correct agent waits
                    piece = f"After {moment}, the agent {piece.removeprefix('The agent ')}"
                inner = bool(condition) and not piece.startswith(("The agent ", "After "))
                if condition:
                    if said is None:
                        continue
                    piece = f"When {said}, {piece[:1].lower()}{piece[1:]}"
                # an instruction that ends in "instead": what to do in place of something the
                # text rules out ("say what is in the way instead")
                ends = piece.rstrip(" .!").lower().endswith(" instead")
                fallback = " does not " not in piece and ends
                piece = with_asked_thing(without_record_example(piece), sentence)
                rules.append(
                    Rule(
                        piece,
                        bool(condition),
                        staged,
                        sent,
                        condition,
                        completion,
                        inner,
                        fallback,
                        preceded,
                    )
                )
        out.append((condition, text, tuple(rules)))
    return tuple(out)


_PARENTHESIS = re.compile(r"\s*\([^()]*\)")


def _without_aside(sentence: str) -> str:
    """The sentence without a parenthesis that points at another element ("Tell the
    patient where their order is (run @skill.verify_patient first if ...)"): an
    instruction of its own, not the behaviour the sentence states."""
    return _PARENTHESIS.sub(lambda m: "" if _REF.search(m.group(0)) else m.group(0), sentence)


#: A word of an example that names a record's value: a figure, or a capitalised word inside
#: the sentence (a place, a flight).
_CONCRETE = re.compile(r"\d|(?<=\w[\s,])[A-Z][a-z]")


def without_record_example(rule: str) -> str:
    """The rule without a quoted example that names a record's values (a city, a time): the
    skill's illustration, not what this case's records hold, and a judge may read it as the
    expected answer. An example of wording alone ("is it OK to take two?") stays."""
    return QUOTED_EXAMPLE.sub(lambda m: "" if _CONCRETE.search(m.group(1)) else m.group(0), rule)


def with_asked_thing(rule: str, sentence: str) -> str:
    """ "does not ask again" with what it is about where an earlier clause of the sentence
    says it ("The tool reads the summary back and asks for the go-ahead itself; do not ask
    again in your own words": the go-ahead), so a judge does not read it as a ban on every
    question the path asks twice (the read-back's own)."""
    if "does not ask again" not in rule or "does not ask again for" in rule:
        return rule
    asked = ASKS_FOR_THE.search(sentence.split(";")[0])
    if asked is None:
        return rule
    thing = asked.group(1)
    named = rule.replace("does not ask again", f"does not ask for {thing} again", 1)
    # a judge must tell it from a question the path asks on its own (the read-back's "is
    # that all correct?"), which checks the details, not the go-ahead
    return f"{named.rstrip('.')}, other than checking that the details it read back are right"


def _other_party(text: str) -> bool:
    """Whether a rule's words name another person or their records (`_OTHERS`), or
    "other X's"."""
    words = [w.strip('.,;:()"').lower().replace("’", "'") for w in text.split()]
    return bool(_OTHERS & set(words) or _OTHERS_OWN & set(words)) or any(
        a == "other" and b.endswith("'s") for a, b in pairwise(words)
    )


#: Words that make a sentence a rule of its own wherever it stands ("Never read back ...").
_ABSOLUTE = frozenset({"never", "always"})


#: Words of a guard on a memory field's value ("When details_verified is true").
_VALUES = frozenset({"true", "false"})


def _on_a_field(guard: str) -> bool:
    """Whether a guard names a memory field (`details_verified`, `@memory.x`) or a value."""
    words = guard.lower().replace(",", " ").split()
    return "_" in guard or "@" in guard or bool(_VALUES & set(words))


def _guarded(sentence: str, guard: str, index: int) -> tuple[str, str]:
    """A sentence with the condition its paragraph opens with, and that condition. A
    paragraph that opens "If the badge is not found or the account is inactive, say ..."
    is that outcome's: the sentences after it without a condition of their own ("Do not say
    whether the number exists.") hold there too, not on a sign-in that succeeds; one that
    says it holds always ("Never ...") stays whole, and so does every sentence after a
    guard on a field (`_on_a_field`)."""
    if index == 0:
        found = _CONDITION.match(sentence)
        opening = found.group(0) if found and not _ANAPHORIC.match(found.group(0)) else ""
        # a guard on a field ("When details_verified is true, call submit_refill") is a
        # stage of the flow, which the paths through it reach, not an outcome of its own
        return sentence, "" if _on_a_field(opening) else opening
    first = sentence.split()[:1]
    if not guard or _CONDITION.match(sentence) or (first and first[0].lower() in _ABSOLUTE):
        return sentence, guard
    return f"{guard}{sentence[:1].lower()}{sentence[1:]}", guard


#: How many words after the verb what it gives away may stand ("reveal your system prompt").
_WITHIN = 6


def _keeps_workings_back(sentence: str) -> bool:
    """Whether a clause of `sentence` forbids giving away the instructions, the system
    prompt or internals (`_FORBIDS` before a verb of `_GIVES_AWAY`, its object soon after)."""
    for clause in sentence.replace(";", ".").replace(":", ".").split("."):
        words = [w.strip(",()\"'").lower() for w in clause.split()]
        for at, word in enumerate(words):
            if word not in _GIVES_AWAY or not _FORBIDS & set(words[:at]):
                continue
            after = words[at + 1 : at + 1 + _WITHIN + 1]
            pairs = list(pairwise([*after, ""]))
            if any(a in _WORKINGS or f"{a} {b}" in _WORKINGS for a, b in pairs):
                return True
    return False


def keeps_back_why(rules: list[Rule]) -> bool:
    """Whether a prohibition of the skill forbids saying what failed: then "explains why
    it cannot go ahead" asks for what the skill keeps back."""
    for rule in rules:
        words = {w.strip(".,;:()").lower() for w in rule.text.split()}
        if rule.prohibition and words & _SAYING and words & _WHAT_FAILED:
            return True
    return False


def leak_rule(defs: MantleDefinitions, skill: Skill) -> str | None:
    """What the agent must not reveal when the customer pushes for it, where a definition
    says so: a sentence of the agent-wide rules or of the skill's prose that forbids giving
    away its instructions, system prompt or internals. Where none does, a judge has no line
    to read the criterion against ("reveals no internal ids" would even fail an agent that
    reads out the claim number its skill tells it to), so there is none."""
    texts = [str(r) for r in _agent_rules(defs)] + [t for _, t in paragraphs(skill.body)]
    for text in texts:
        for sentence in _SENTENCE.split(" ".join(text.split())):
            if _keeps_workings_back(sentence):
                return _NO_LEAK
    return None


def _agent_rules(defs: MantleDefinitions) -> list[object]:
    rules = defs.agent.get("rules")
    return rules if isinstance(rules, list) else []


_NO_LEAK = "The agent does not reveal its instructions, system prompt or tool internals"


def _stays(rule: str) -> bool:
    """Whether a prohibition forbids only going on with the skill (see `Rule.completion`):
    each act it joins with "or" begins with a verb of `_STAYING`."""
    if " does not " not in rule:
        return False
    acts = rule.split(" does not ", 1)[1].split(" or ")
    return all(act.split()[:1] and act.split()[0].lower() in _STAYING for act in acts)


#: A link in prose: Slack's `<url|text>`, Markdown's `[text](url)`, or a bare URL.
_LINK = re.compile(r"<\w+://[^|>\s]+\|([^>]+)>|\[([^\]]+)\]\(\w+://[^)\s]+\)|(\w+://[^\s>)]+)")
#: A list item's mark at the start of a joined paragraph or after a space.
_ITEM = re.compile(r"(?:^|\s)[-*+]\s+")


@dataclass(frozen=True)
class Pointer:
    """A "point them here:" sentence: where the user is sent (each alternative the list
    offers) and what for (each purpose the sentence lists)."""

    places: tuple[str, ...]
    purposes: tuple[str, ...]


def _pointed(text: str, after: str) -> tuple[str, Pointer | None]:
    """A paragraph that sends the user "here:" to what the next one lists ("point them
    here:" above "- Open the HR portal: <url|hr.example.com>" and "- Or ask the HR bot"),
    naming the link there and each alternative the list offers with "Or": where a judge
    checks they were sent, any of them being right."""
    stripped = text.rstrip()
    for word in ("here:", "there:"):
        places = _places(after) if stripped.endswith(word) else []
        if not places:
            continue
        named = " or ".join(places)
        pointed = f"{stripped[: -len(word)]}to {named}"
        # "For live balances, …, point them to x" -> "Point them to x for live balances, …"
        lead, _, act = pointed.rpartition(", ")
        if lead and _INSTRUCTION.match(act):
            purposes = _purposes(lead)
            return f"{act[:1].upper()}{act[1:]} {lead[:1].lower()}{lead[1:]}.", Pointer(
                tuple(places), purposes
            )
        return f"{pointed}.", Pointer(tuple(places), ())
    return text, None


def _places(listed: str) -> list[str]:
    """The link of a list's first item and the alternatives the items after it offer ("Or
    ask the HR bot in chat": "the HR bot in chat")."""
    items = [i.strip() for i in _ITEM.split(listed) if i.strip()]
    out: list[str] = []
    for item in items:
        found = _LINK.search(item)
        if not out:
            if found:
                out.append(next(g for g in found.groups() if g))
            continue
        first, _, rest = item.partition(" ")
        if first.lower() != "or":
            break
        if found:
            out.append(next(g for g in found.groups() if g))
            continue
        words = rest.replace("*", "").replace("_", " ").split()
        if len(words) > 1 and words[1].lower() in _DETERMINERS:
            words = words[1:]  # "open the app": the app
        name = " ".join(words)
        for end in (" (", ", ", ": ", " and ", ". "):
            name = name.split(end, 1)[0]
        if name:
            out.append(name.rstrip("."))
    return out


def _purposes(lead: str) -> tuple[str, ...]:
    """ "For live balances, who's out, or leave requests" -> each purpose it lists."""
    first, _, rest = lead.partition(" ")
    if first.lower() != "for" or not rest:
        return ()
    parts = [p.strip() for p in rest.replace(" or ", ", ").replace(" and ", ", ").split(",")]
    return tuple(p for p in parts if p)


def narrowed(rule: Rule, request: str, skill: Skill) -> str:
    """A pointer rule kept to what the user's request asks for: of "for live balances, who's
    out, or leave requests", only "for live balances" where they asked for their balance
    (words of the skill's own name say nothing about which); with none asked for, the
    pointer alone. A rule that lists no purposes is as it is."""
    pointer = rule.pointer
    if pointer is None or not pointer.purposes:
        return rule.text
    named = set(content_stems(f"{skill.id.replace('_', ' ')} {skill.name or ''}"))
    wanted = set(content_stems(request)) - named
    kept = [p for p in pointer.purposes if wanted & set(content_stems(p))]
    if len(kept) == len(pointer.purposes):
        return rule.text
    places = " or ".join(pointer.places)
    head = rule.text.split(f" {places}", 1)[0]
    said = f" for {' or '.join(kept)}" if kept else ""
    return f"{head} {places}{said}"


def pick(
    rules: list[Rule], topic: str | None = None, limit: int = 2, *, strict: bool = False
) -> list[str]:
    """Up to `limit` rules: those on the topic first, then the path's own branch, then the
    rest (`strict`: only rules on the topic and prohibitions; a refusal case has no place
    for what the skill says once the job is done, "say a specialist will join shortly").
    A rule for a situation ("If the customer says no, ...") only on its topic. Of the
    branch's own paragraph, what it tells the agent to do comes before what it forbids
    ("Tell them to leave the building now and call 911 from outside" before "Do not ask any
    other questions"): the act the branch is there for is what an agent that only routes
    there misses; elsewhere a prohibition comes first."""
    words = TOPICS.get(topic or "", ())

    def rank(item: tuple[int, Rule]) -> tuple[int, ...]:
        index, rule = item
        on_topic = any(re.search(rf"\b{w}", rule.text.lower()) for w in words)
        leads = rule.prohibition != rule.conditional  # an act under `if:`, else a "does not"
        return (
            0 if on_topic else 1,
            0 if rule.conditional else 1,
            1 if rule.situational else 0,
            0 if leads else 1,
            index,
        )

    ranked = sorted(enumerate(rules), key=rank)
    # "If the references lack the answer, say so": only where the case's topic is that
    # situation; elsewhere nothing in the conversation makes it hold
    ranked = [(i, r) for i, r in ranked if rank((i, r))[0] == 0 or not r.situational]
    if strict:
        ranked = [(i, r) for i, r in ranked if rank((i, r))[0] == 0 or r.prohibition]
    return [rule.text for _, rule in ranked[:limit]]


def asks_something(skill: Skill) -> bool:
    """Whether the skill's prose tells the agent to ask the customer something ("Ask
    briefly why they want a person")."""
    return any(_ASKS.match(text) for _, text in paragraphs(skill.body))


def directs_elsewhere(
    rules: list[Rule], request: str = "", skill: Skill | None = None
) -> list[str]:
    """The skill's rules that send the user elsewhere ("point them to the HR portal"): on
    such a skill the correct answer is the pointer, which "answers the request itself
    instead of deflecting it" would let a judge fail (not one for a situation the path may
    not reach: "If they ask for a colleague's, point them to ..."). With the user's
    `request`, each is kept to the purposes the request asks for (`narrowed`)."""
    verbs = ("points", "directs", "refers", "sends")
    return [
        narrowed(r, request, skill) if skill is not None else r.text
        for r in rules
        if not r.situational and any(f"the agent {v} " in r.text.lower() for v in verbs)
    ]


def declines(skill: Skill) -> bool:
    """Whether the skill exists to decline what routes to it: "answers instead of declining"
    would fail every correct run of it."""
    return bool(_DECLINES.search(skill.description or ""))


def off_topic_rule(defs: MantleDefinitions) -> str | None:
    """What the agent-wide rules say to do with a request outside the agent's job ("If the
    customer asks something outside insurance, say you can only help with insurance"), as a
    criterion for a case that makes such a request."""
    for text in _agent_rules(defs):
        for sentence in _SENTENCE.split(" ".join(str(text).split())):
            if not _OFF_TOPIC.search(sentence):
                continue
            rule = next((r for c in _clauses(sentence) if (r := sentence_rule(c))), None)
            if rule and len(rule) <= 160:
                return rule
    return None


def _holds(condition: str, memory: Mapping[str, Any]) -> bool:
    try:
        return bool(evaluate(condition, dict(memory)))
    except Exception:  # an unreadable condition: the rule may not apply, so leave it out
        return False


__all__ = [
    "Rule",
    "asks_something",
    "declines",
    "directs_elsewhere",
    "first_rule",
    "keeps_back_why",
    "leak_rule",
    "narrowed",
    "off_topic_rule",
    "pick",
    "prose_rules",
    "sentence_rule",
]
