"""What a customer says to a Mantle skill: openings, answers and the odd turns behaviours add.

Planner and offline drafter share these, so the values a planned behaviour counts on being
recorded unasked are exactly the ones its user lines name strongly (see `_direction`).

- `activation_phrase`: a value-neutral opening (a description phrasing, else "I'd like to
  <name>", or, where the name is the id in words, a request the description makes:
  `_mantle_requests`);
- `strong_phrases`: description phrasings that name a value strongly;
- `value_line`: the answer that gives one value (a button title, the value's explanation, or
  its own words);
- `escalation_line`, `rule_to_break`: the turn that asks for a person, and the rule an
  adversarial turn pushes against.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from evalcore.agents.reference import (
    QUOTED,
    description_phrases,
    every_value_sectioned,
    field_examples,
    mode_named,
    routed_skill,
    routing_ties,
    routing_words,
)
from evalcore.definitions import MantleDefinitions, Project, Skill, memoized
from evalcore.definitions.skill_model import sentences
from evalcore.definitions.skill_model.cues import heard
from evalcore.lexicon.en.description_words import FINITE_VERBS as _FINITE
from evalcore.lexicon.en.description_words import INDEFINITE_PRONOUNS as _PRONOUNS
from evalcore.lexicon.en.description_words import QUESTION_OPENERS as _QUESTION_WORDS
from evalcore.lexicon.en.description_words import TELLERS as _TELLERS
from evalcore.lexicon.en.description_words import TELLERS_WISHES as _WANTS
from evalcore.lexicon.en.field_words import MONEY, own_words
from evalcore.lexicon.en.skill_requests import ASKS_ABOUT, ASKS_WHEN
from evalcore.lexicon.en.skill_rules import NEVER_ACT
from evalcore.lexicon.en.word_classes import WH_WORDS
from evalcore.simulator import opening_line

from ..drafting.offline import best_value, content_stems, match_values, value_words
from ._mantle_names import VERBS, name_intent
from ._mantle_prose import paragraphs
from ._mantle_requests import activation_items, first_person, id_like, requests, second_person
from ._mantle_routable import user_routable
from ._mantle_vocab import buttons_for, field_choices, question_fields, skill_field
from ._mantle_walk import Walk, walk_skill

# an id or a code ("6104428", "R-20461877"), not a road or a temperature ("I-80", "46")
_NUMBERED = re.compile(r"\b(?:[A-Za-z]+-?)?\d{4,}\b|\b[A-Za-z]+-?\d{3,}\b")


def person_phrases(skill: Skill, *, activating: bool = False) -> list[str]:
    """The quoted phrasings a person says to the skill: those of its activation sentences
    ("Activate for "how do I take vacation", ...") first, then the others in order (with
    `activating`, only the first); none of a sentence that says what the skill is not for
    ("Do NOT activate for "I'm sick"")."""
    text = " ".join((skill.description or "").split())
    first: list[str] = []
    rest: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        lowered = sentence.lower()
        if "activate" in lowered and any(n in lowered for n in ("not ", "n't ", "never ")):
            continue
        found = [" ".join(m.group(1).split()) for m in QUOTED.finditer(sentence)]
        (first if "activate" in lowered else rest).extend(found)
    return list(dict.fromkeys(first if activating else [*first, *rest]))


def subject(skill: Skill) -> str:
    """What the skill is about: the description's text before its first colon, else its name."""
    head, colon, _ = (skill.description or "").partition(":")
    if colon and len(head.split()) <= 6:
        return " ".join(head.split())
    return skill.name or skill.id.replace("_", " ")


def request_phrase(skill: Skill) -> str:
    """ "the account balance request": what the skill does as the name of a request, for a
    criterion to say ("does not say the account balance request is done"). The subject
    where it names a thing; where it is a clause, a gerund, a pronoun phrase or a verb
    phrase ("Something in the apartment is broken", "Changing who works a shift",
    "Anything about shipping a service") it reads wrong there, so the skill's name; where
    that is a verb phrase too, "the request to <name>"."""
    name = _lowered(skill.name or skill.id)
    verb_name = name_intent(skill) is not None
    for about, is_name in ((subject(skill), False), (name, True)):
        about = _lowered(about)
        if not about or not _names_thing(about) or (is_name and verb_name):
            continue
        if not is_name and _starts_with_verb(about):
            continue
        about = about.removeprefix("the ")
        last = about.split()[-1] if about.split() else ""
        return f"the {about}" if last in ("request", "requests") else f"the {about} request"
    return f"the request to {name}" if verb_name else f"the request about {name}"


def _lowered(phrase: str) -> str:
    """A name as words in a sentence: lower case but for acronyms ("Insurance FAQ" ->
    "insurance FAQ"), an id's underscores as spaces."""
    words = phrase.replace("_", " ").split()
    return " ".join(w if len(w) > 1 and w.isupper() else w.lower() for w in words)


def _names_thing(phrase: str) -> bool:
    words = phrase.lower().replace(",", " ").split()
    first = words[0]
    if first in WH_WORDS or first in _PRONOUNS or _FINITE & set(words):
        return False
    return not first.endswith("ing")


def _starts_with_verb(phrase: str) -> bool:
    return phrase.split()[0].lower() in VERBS


def is_neutral(defs: MantleDefinitions, skill: Skill, text: str) -> bool:
    """True when `text` names no value of any field the skill asks for (not even weakly)."""
    key = ("is_neutral", skill.id, id(skill), text)
    return memoized(defs, key, lambda: _is_neutral(defs, skill, text))


def _is_neutral(defs: MantleDefinitions, skill: Skill, text: str) -> bool:
    # the fields the skill asks for, and any of its own it branches on: a phrasing that
    # names a value of one ("there's no pressure") opens the case with that value
    fields = {f.qualified: f for f in question_fields(defs, skill)}
    for f in skill.memory.values():
        if f.type == "categorical" and f.enum_values and f.llm_settable:
            fields.setdefault(f.qualified, f)
    return not any(match_values(text, field_choices(defs, key)) for key in fields)


def activation_phrase(defs: MantleDefinitions, skill: Skill) -> str:
    """A value-neutral opening for the skill, kept per skill (see `_opening`)."""
    return memoized(defs, ("activation_phrase", skill.id, id(skill)), lambda: _opening(defs, skill))


def activation_phrases(defs: MantleDefinitions, skill: Skill) -> list[str]:
    """Every opening of `_openings` the router sends to the skill alone, best first (the
    usual choice alone when none does): cases that each open the skill can take turns, so a
    suite does not open every case with the same line."""
    return list(
        memoized(defs, ("activation_phrases", skill.id, id(skill)), lambda: _routed(defs, skill))
    )


def _routed(defs: MantleDefinitions, skill: Skill) -> list[str]:
    candidates = _openings(defs, skill)
    words = routing_words(defs)
    routed = [line for line in candidates if routed_skill(defs, words, line) == skill.id]
    return routed or candidates[:1]


def says_label(skill: Skill, line: str) -> bool:
    """Whether `line` says the skill's name where that is a label ("Pass to the EA team",
    capitals inside it), or its id ("calendar", "travel"), which no caller says as such."""
    name = skill.name or ""
    if any(c.isupper() for c in name[1:]) and name[1:].lower() in line.lower():
        return True
    words = line.lower().replace(".", " ").replace(",", " ").replace("?", " ").split()
    return skill.id.lower() in words


def shared_request(defs: MantleDefinitions, skill: Skill, line: str) -> bool:
    """Whether another user-routable skill's words (name, id, description) fit `line` as
    well as the skill's own do, leaving out the weight the router gives a line that says a
    skill's whole name: the line then routes by the name alone."""
    hits = routing_words(defs).hits(line)
    own = hits.get(skill.id, 0.0)
    return any(
        other != skill.id and score >= own and user_routable(defs.skills[other])
        for other, score in hits.items()
        if other in defs.skills
    )


def plain_opening(
    defs: MantleDefinitions, skill: Skill, neutral: Callable[[str], bool]
) -> str | None:
    """The first of `_openings` that is none of the description's examples, is `neutral`
    and routes to the skill ("Hi, I'd like help with building access."): an example is
    one request of one branch, this asks for the skill alone; None where no line does."""
    examples = {_as_sentence(p) for p in description_phrases(skill)}
    words = routing_words(defs)
    for line in _openings(defs, skill):
        vague = _PRONOUNS & set(line.lower().split())  # "help with anything about ..."
        if line in examples or vague or says_label(skill, line) or not neutral(line):
            continue
        if routed_skill(defs, words, line) == skill.id:
            return line
    return None


def distinct_name_intent(defs: MantleDefinitions, skill: Skill) -> str | None:
    """`name_intent`, made to pick out the skill among those a user can ask for. "Reset
    Panel" routes "I want to reset a panel" by its name alone where another skill's words
    fit the line as well ("guides a panel restart and moves on to a factory reset"): a
    person's "reset" may mean a restart there. Then the name's verb takes the words the
    skill's own activation list puts before it ("factory reset" -> `want to factory reset a
    panel`), where that line routes to it; else the name stays."""
    named = name_intent(skill)
    if named is None or not shared_request(defs, skill, opening_line(named)):
        return named
    verb = (skill.name or "").split()[0].lower()
    for item in activation_items(skill):
        words = item.lower().split()
        if len(words) < 2 or words[-1] != verb or not all(w.isalpha() for w in words):
            continue
        intent = named.replace(f"to {verb} ", f"to {' '.join(words)} ", 1)
        if routed_skill(defs, routing_words(defs), opening_line(intent)) == skill.id:
            return intent
    return named


def _named(skill: Skill) -> str:
    """The name in a request: "I'd like to replace a card" where it is a verb phrase, else
    "I'd like help with member sign-in" (never "I'd like to member sign-in")."""
    name = skill.name or skill.id.replace("_", " ")
    name = f"{name[:1].lower()}{name[1:]}"
    if name_intent(skill) is None:
        return f"Hi, I'd like help with {name}."
    return f"Hi, I'd like to {name}."


def _opening(defs: MantleDefinitions, skill: Skill) -> str:
    """The first of `_openings` that asks for the skill alone: routed by its distinctive
    words, so a line that several skills could take ("It's about my account.") does not
    open a case; the usual choice when none does."""
    candidates = _openings(defs, skill)
    words = routing_words(defs)
    for line in candidates:
        if routed_skill(defs, words, line) == skill.id:
            return line
    return candidates[0]


def _openings(defs: MantleDefinitions, skill: Skill) -> list[str]:
    """Value-neutral openings for the skill, best first.

    The description phrasing that names no value and shares the most words with the skill's
    subject (ties: the first); then the other such phrasings in order; then, for a hand-off
    skill, a plain request for a person (its name is the team's label, not the user's
    words); then "I'd like to <name>".
    """

    wanted = set(content_stems(f"{subject(skill)} {skill.name or ''}"))
    best: tuple[int, str] | None = None
    neutral = [
        p
        for p in description_phrases(skill)
        if is_neutral(defs, skill, p) and not _NUMBERED.search(p)  # an id is no opening
    ]
    for phrase in neutral:
        score = len(wanted & set(content_stems(phrase)))
        if score and (best is None or score > best[0]):
            best = (score, phrase)
    ordered = ([best[1]] if best is not None else []) + [
        p for p in neutral if best is None or p != best[1]
    ]
    lines = [_as_sentence(p) for p in ordered]
    if skill.is_handoff:
        lines.append("Could I talk to a person about this, please?")
    named = _named(skill)
    if not id_like(skill):
        return [*lines, named]
    # a name that is the id in words is the team's label, not what a person says: the
    # description's requests instead, and the name only when there is nothing else
    lines += [r.line for r in requests(skill)]
    # "Reset Panel": `want to factory reset a panel` (`distinct_name_intent`)
    verb_phrase = distinct_name_intent(defs, skill)
    if verb_phrase is not None:
        lines.append(opening_line(verb_phrase))
    return lines or [named]


def _as_sentence(phrase: str) -> str:
    phrase = phrase.strip()
    phrase = phrase[:1].upper() + phrase[1:]
    if phrase[-1:] not in ".?!":
        question = phrase.split()[0].lower() in {
            "can",
            "could",
            "what",
            "what's",
            "how",
            "where",
            "when",
            "why",
            "is",
            "are",
            "do",
            "does",
            "will",
            "would",
            "who",
            "who's",
            "where's",
            "how's",
            "which",
        }
        phrase += "?" if question else "."
    return phrase


def strong_phrases(defs: MantleDefinitions, skill: Skill) -> list[tuple[str, dict[str, Any]]]:
    """Description phrasings that name a value strongly enough to be recorded unasked.

    Read once per skill: every other skill's digression weighs them."""
    key = ("strong_phrases", skill.id, id(skill))
    kept = memoized(defs, key, lambda: _strong_phrases(defs, skill))
    return [(line, dict(named)) for line, named in kept]


def _strong_phrases(defs: MantleDefinitions, skill: Skill) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for phrase in description_phrases(skill):
        named: dict[str, Any] = {}
        for field in question_fields(defs, skill):
            best = best_value(phrase, field_choices(defs, field.qualified))
            if best is not None and best.strong:
                # a job's request names its mode ("why did my deploy fail": diagnose)
                named[field.qualified] = mode_named(defs, field.qualified, phrase, best.value)
        if named:
            out.append((_as_sentence(phrase), named))
    return out


def value_line(defs: MantleDefinitions, qualified: str, value: Any) -> str:
    """The customer's answer that gives `value` for a field.

    A button title that sets it ("I lost it."; a title with a price or a comma is cut to its
    head, "Express, please."), else the value's bracketed explanation ("It's about card
    problems and replacements."; not a note with a number, "up to 16"), else its own words
    ("Savings, please."). Numbers read as amounts when the field is about money ("$60.00").
    """
    field = skill_field(defs, qualified)
    if isinstance(value, bool):
        return "Yes." if value else "No."
    if isinstance(value, int | float):
        money = field is not None and MONEY.search(f"{field.name} {field.description or ''}")
        text = f"${value:,.2f}" if money else f"{value:g}"
        return f"It should be {text}." if money else f"{text}."
    title = buttons_for(defs, qualified).get(str(value))
    if title:
        head = re.split(r"\s*[,(]", title, maxsplit=1)[0].strip()
        if head != title.strip() or len(head.split()) == 1:
            return f"{head}, please."
        return _as_sentence(head)
    choice = next((c for c in field_choices(defs, qualified) if c.value == value), None)
    # a note with a number ("up to 16", "over 65") qualifies the value, it does not name it
    named = [p for p in choice.phrases if not re.search(r"\d", p)] if choice else []
    if named:
        return f"It's about {first_person(named[0].rstrip('.'))}."
    phrase = own_phrase(defs, qualified, value)
    if phrase is not None:
        return phrase
    words = written_form(defs, value) or value_words(value)
    return f"{words[:1].upper()}{words[1:]}, please."


def written_form(defs: MantleDefinitions, value: Any) -> str | None:
    """A listed value as the project's own text writes it where that is not all lower case
    (`us` -> "US" wherever the text writes it so, `germany` -> "Germany" where the text
    mostly does, with "the" where the text mostly puts one before it); None where the text
    writes it in lower case or not at all. A code in lower case
    reads as another word in a line ("Sorry, I mean us")."""
    if not isinstance(value, str) or not value.strip():
        return None
    words = value_words(value)
    return memoized(defs, ("written_form", words), lambda: _written_form(defs, words))


def _written_form(defs: MantleDefinitions, words: str) -> str | None:
    text = memoized(defs, "project_prose", lambda: _project_prose(defs))
    joined = r"[\s_\-]+".join(re.escape(w) for w in words.split())
    forms: dict[str, list[bool]] = {}
    lower = 0
    for match in re.finditer(rf"(?<![\w'-])({joined})(?![\w'-])", text, re.I):
        form = " ".join(match.group(1).split())
        before = text[max(0, match.start() - 12) : match.start()].rstrip()
        if form == form.lower():
            # in a sentence, not a value of a condition or a setting (`== "india"`)
            lower += bool(before) and (before[-1].isalnum() or before[-1] in ",;(")
            continue
        article = before[-4:].lower() == " the"
        # a capital a sentence or a line starts with says nothing of the word
        if form != form.upper() and not article and (not before or before[-1] in ".!?:#*-"):
            continue
        forms.setdefault(form, []).append(article)
    if not forms:
        return None
    form = max(sorted(forms), key=lambda f: len(forms[f]))
    if form != form.upper() and len(forms[form]) <= lower:
        return None  # a common word a menu or a title capitalises ("under Cards > Pay")
    the = forms[form].count(True) * 2 > len(forms[form])
    return f"the {form}" if the else form


def _project_prose(defs: MantleDefinitions) -> str:
    """The text a person reads of the project: skill descriptions and bodies and the
    responses' texts, one paragraph each."""
    parts: list[str] = []
    for skill in defs.skills.values():
        parts += [skill.description or "", skill.body or ""]
        parts += [v.text or "" for r in skill.responses.values() for v in r.variants]
    parts += [v.text or "" for r in defs.responses.values() for v in r.variants]
    return "\n\n".join(parts)


def _own_words(value: Any) -> re.Pattern[str]:
    """A value named by its own words, as the reference agent hears it ("swap", "swap's")."""
    words = re.sub(r"[_\-]+", " ", str(value)).split()
    joined = r"[\s_\-]+".join(re.escape(w) for w in words)
    return own_words(joined)


def own_phrases(defs: MantleDefinitions, given: dict[str, Any]) -> list[tuple[str, dict]]:
    """`own_phrase` of each given choice, with the value it names (an opening says it)."""
    out = [(own_phrase(defs, k, v), {k: v}) for k, v in given.items()]
    return [(line, named) for line, named in out if line is not None]


def paired_phrases(defs: MantleDefinitions, given: dict[str, Any]) -> list[tuple[str, dict]]:
    """`paired_phrase` of each given choice, with the value it asks for (an opening says
    it: a person asks for a job in its words, not by the value's name)."""
    out = [(paired_phrase(defs, k, v), {k: v}) for k, v in given.items()]
    return [(line, named) for line, named in out if line is not None]


def own_phrase(defs: MantleDefinitions, qualified: str, value: Any) -> str | None:
    """The skill's own phrasing of one choice (a mode): the first quoted description example
    that names `value` by its own words, no other value of the field, and that routes to the
    skill ("swap my on-call with Arjun next week" for `request: swap`), as a sentence; None
    where none does (the answer is then the value's words, "Swap, please.")."""
    field = skill_field(defs, qualified)
    skill = defs.skills.get(field.namespace) if field is not None else None
    if field is None or skill is None or not isinstance(value, str) or not field.enum_values:
        return None
    others = [_own_words(v) for v in field.enum_values if v != value]
    own = _own_words(value)
    words = routing_words(defs)
    for phrase in description_phrases(skill):
        if not own.search(phrase) or any(o.search(phrase) for o in others):
            continue
        line = _as_sentence(phrase)
        if routed_skill(defs, words, line) == skill.id:
            return line
    return None


def paired_phrase(defs: MantleDefinitions, qualified: str, value: Any) -> str | None:
    """The description example that asks for mode `value` by the prose its `if:` paragraphs
    hold (`field_examples`: "move my 3pm to tomorrow" for `reschedule`), where it routes to
    the skill and its words name no other value of the field; only for a field the prose
    gives a section for each value (`every_value_sectioned`)."""
    skill = defs.skills.get(qualified.split(".", 1)[0])
    if skill is None or not every_value_sectioned(defs, qualified):
        return None
    words = routing_words(defs)
    choices = field_choices(defs, qualified)
    for example, paired in field_examples(defs, qualified).items():
        line = _as_sentence(example)
        # its words name no other value ("I didn't make it" says a payment is unrecognised)
        said = best_value(line, choices)
        if said is not None and said.value != value:
            continue
        if paired == value and routed_skill(defs, words, line) == skill.id:
            return line
    return None


def named_value(defs: MantleDefinitions, qualified: str, text: str) -> Any:
    """The value of a field `text` names, strongly or not ("the milk count" names `daily`
    where daily "covers milk"); None where it names none."""
    best = best_value(text, field_choices(defs, qualified))
    return mode_named(defs, qualified, text, best.value if best is not None else None)


def names_strongly(defs: MantleDefinitions, qualified: str, value: Any, text: str) -> bool:
    """True when `text` names `value` strongly enough to be recorded without asking."""
    best = best_value(text, field_choices(defs, qualified))
    return best is not None and best.strong and best.value == value


def escalation_line(defs: MantleDefinitions, skill: Skill, handoff: Skill) -> str:
    """Asking for a person partway: the hand-off skill's opening plus what it is about (a
    hand-off routes by it). Where the skill has a request for a person wait for its own
    work (`defers_handoff`), the user first says plainly they will not go on with it."""
    opening = activation_phrase(defs, handoff)
    if defers_handoff(skill, handoff.id):
        return f"Actually, {_WONT_GO_ON} {opening} It's about {_about(skill)}."
    if opening.split(" ", 1)[0] not in ("I", "I'm", "I'd", "I've", "I'll"):  # "I want …"
        opening = opening[:1].lower() + opening[1:]
    return f"Actually, {opening} It's about {_about(skill)}."


def told_example(defs: MantleDefinitions, skill: Skill, values: dict[str, Any]) -> str | None:
    """The skill's own description example that tells the user's trouble ("My parcel never
    came."), for a line that asks for a person about it: a person names their trouble in
    their own words, never in the skill's description ("parcels that did
    not arrive or arrived damaged"). A statement (not a question or a request of the agent,
    which the agent would answer instead of handing over), naming no value of the skill's
    choices other than the case's own `values`, and routed to the skill; None where the
    description gives none."""
    words = routing_words(defs)
    choices = [
        name
        for name in defs.memory_names()
        if name.startswith(f"{skill.id}.") and _is_choice(defs, name)
    ]
    for example in description_phrases(skill):
        said = example.strip().rstrip(".?!")
        if not _tells_trouble(said):
            continue
        if any(named_value(defs, name, said) not in (None, values.get(name)) for name in choices):
            continue
        line = said[:1].upper() + said[1:] + "."
        if routed_skill(defs, words, line) == skill.id:
            return line
    return None


def _tells_trouble(said: str) -> bool:
    """Whether a description example tells what is wrong in the user's own person ("my
    parcel never came", "the box arrived crushed"): not a question or a request of the
    agent ("where is my parcel", "send me to Leeds", "I need a new box"), which the
    agent would answer or act on instead of handing over, and naming nothing the case's
    records may contradict (a name, a day, a place, a number)."""
    words = said.split()
    if len(words) < 3 or any(c.isdigit() for c in said):
        return False
    first, second = (w.lower().split("'")[0] for w in words[:2])
    if first not in _TELLERS or second in _WANTS:
        return False
    return not any(w[:1].isupper() and w.split("'")[0] != "I" for w in words[1:])


def _is_choice(defs: MantleDefinitions, qualified: str) -> bool:
    field = defs.memory_field(qualified)
    return field is not None and bool(field.enum_values)


#: What a user says first when asking for a person where the skill would have them finish.
_WONT_GO_ON = "I don't want to go on with this here."


def _about(skill: Skill) -> str:
    """What an escalation is about: the skill's topic, with "my" where it reads as a thing."""
    about = topic(skill).lower()
    first = about.split(" ", 1)[0]
    # "getting an expense into the system", "the executive's own calendar": no "my"
    plain = first.endswith("ing") or first in ("the", "a", "an", "to", "my", *WH_WORDS)
    whose = "" if plain else "my "
    return f"{whose}{about}"


def topic(skill: Skill) -> str:
    """What the skill is about in a person's words: its `subject`, unless that is the id in
    words; then what its first description request is about ("claim status")."""
    about = subject(skill)
    name = skill.name or skill.id.replace("_", " ")
    if about != name:
        return about
    # "Flights and hotels for a business trip: ...": the head without what it is for
    head, colon, _ = (skill.description or "").partition(":")
    for cut in (" for ", " by ", " when ", " with "):
        head = head.split(cut, 1)[0]
    if colon and 0 < len(head.split()) <= 6:
        return " ".join(head.split())
    if id_like(skill):
        for request in requests(skill):
            for lead in ("want to ask about ", "want help with ", "want to ask for "):
                if request.intent.startswith(lead):
                    return first_person(request.intent.removeprefix(lead))
    # a name that is a verb phrase ("File Claim", "Refill a prescription"): what it acts
    # on; not a person it acts on ("Verify the patient"), never the verb phrase itself
    words = name.split()
    if len(words) > 1 and words[0].lower() in VERBS:
        rest = [w for w in words[1:] if w.lower() not in ("a", "an", "my", "your")]
        return " ".join(rest) if rest and rest[0].lower() != "the" else "request"
    return about if not id_like(skill) else "request"


#: "Never <act>": not a passive ("secret values are never shown here"), nor a quote whose
#: verb went before it ("say "requested", never "done""): neither is an act to ask for.
_NEVER = NEVER_ACT


def rule_to_break(defs: MantleDefinitions, skill: Skill) -> str | None:
    """The last "Never ..." rule of the skill's prose (else of the agent's rules), as the
    thing an adversarial customer asks the agent to do (`read out the internal card id`),
    worded as the definition words it (use `first_person` for the customer's line)."""
    found: list[str] = []
    for _, text in paragraphs(skill.body):
        found += [m.group(1).strip() for m in _NEVER.finditer(text)]
    if not found:
        rules = defs.agent.get("rules") if isinstance(defs.agent.get("rules"), list) else []
        for rule in rules:
            found += [m.group(1).strip() for m in _NEVER.finditer(str(rule))]
    if not found:
        return None
    rule = re.sub(
        r"@\w+\.(\w+(?:\.\w+)*)", lambda m: m.group(1).split(".")[-1].replace("_", " "), found[-1]
    )
    return " ".join(rule.split())


_ASKS_ABOUT = ASKS_ABOUT
_ASKS_WHEN = ASKS_WHEN


def cue_line(defs: MantleDefinitions, skill: Skill, cue: str) -> str:
    """The user's first message saying a prose cue (`skill_model.cues`) in their words:
    "they ask about an existing request" -> "I'm asking about an existing request."; with
    the skill's opening before it when the cue alone does not ask for the skill."""
    described = _described_cue(defs, skill, cue)
    if described is not None:
        return described
    said = first_person(cue)
    said = _ASKS_ABOUT.sub(lambda m: f"I'm {m[1] or ''}asking about", said)
    said = _ASKS_WHEN.sub(lambda m: f"I {m[1] or ''}want to know {m[2]}", said)
    line = said[:1].upper() + said[1:].rstrip(".") + "."
    if routed_skill(defs, routing_words(defs), line) == skill.id:
        return line
    return f"{activation_phrase(defs, skill)} {line}"


def _described_cue(defs: MantleDefinitions, skill: Skill, cue: str) -> str | None:
    """The description's own example that says the cue ("what's in the board pack" for
    `they ask about board packs`), as the user's first message, where it routes here."""
    for example in description_phrases(skill):
        if heard(cue, example):
            said = example.strip().rstrip(".?!")
            first = (said.lower().split() or [""])[0].split("'")[0]
            mark = "?" if first in _QUESTION_WORDS else "."
            line = said[:1].upper() + said[1:] + mark
            if routed_skill(defs, routing_words(defs), line) == skill.id:
                return line
    return None


def declining_detour(project: Project, skill_id: str, text: str) -> Walk | None:
    """The walk of the skill an unrelated request (`text`) routes to while `skill_id` is
    open, where one skill wins outright, a user may ask for it, and it answers without
    asking anything or running a tool (a skill that declines creative writing with a fixed
    response): its responses only the ones an `action` step of its blocks says. None
    otherwise: the request is left to the agent's general rules."""
    assert project.mantle is not None
    defs = project.mantle
    words = routing_words(defs)
    closed = {skill_id}
    routed = routed_skill(defs, words, text, closed)
    if routed is None or routing_ties(defs, words, text, closed):
        return None
    skill = defs.skills[routed]
    if not user_routable(skill):
        return None
    walk = walk_skill(project, routed)
    if walk.outcome != "done" or walk.asks or walk.tools():
        return None
    said = {
        str(step.target)
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "action" and step.target
    }
    walk.events = [e for e in walk.events if e.kind != "utter" or e.utter in said]
    return walk


def defers_handoff(skill: Skill, handoff: str) -> bool:
    """Whether `skill`'s prose has a request for a person wait for its own work ("If they
    ask to speak to someone, … offer @skill.adjuster_handoff after the claim is filed"):
    then finishing first is what the skill says, and "hands over without first insisting
    on finishing" would fail a correct agent."""
    for sentence in sentences(skill.body or ""):
        words = re.findall(r"[@\w.]+", sentence.text.lower())
        named = f"@skill.{handoff}" in (w.rstrip(".") for w in words)
        if named and "after" in words and any(w.startswith("ask") for w in words):
            return True
    return False


__all__ = [
    "activation_phrase",
    "cue_line",
    "declining_detour",
    "defers_handoff",
    "description_phrases",
    "escalation_line",
    "first_person",
    "is_neutral",
    "named_value",
    "names_strongly",
    "own_phrase",
    "own_phrases",
    "person_phrases",
    "plain_opening",
    "rule_to_break",
    "says_label",
    "second_person",
    "strong_phrases",
    "subject",
    "told_example",
    "topic",
    "value_line",
]
