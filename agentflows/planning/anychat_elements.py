"""What an Anychat Playbook is made of, read once for the planner and the offline drafter.

Element grammar (the ids in `Behavior.covers` and `Plan.elements` of an Anychat plan):

| element | meaning |
|---|---|
| `playbook:<id>` | the Playbook itself (every behaviour of it covers this) |
| `tool:<name>` | a tool the Playbook lists |
| `outcome:<id>` | an outcome the Playbook records |
| `picker:<part>` | an interactive part the Playbook sends (`picker:ask.time`) |
| `outreach:<id>` | an Outreach whose Playbook this is |
| `example:<playbook>#<index>` | one of the Playbook's examples (0-based) |
| `field:<key>` | a People field the Playbook reads or writes (named in its body or examples) |
| `handoff:<id>` | a hand-off from this Playbook to Playbook `<id>` |
| `guardrail:<index>` | one of the agent's guardrails (0-based), `guardrail:injection` without any |
| `start:<kind>` | a way the conversation starts: `inbound`, `outreach`, `reminder`, `resume` |
| `system:<event>` | a platform event the Playbook must handle (`system:optOut`) |

Everything here reads only the definitions, so the same project always gives the same answer.
Words such as "lookup" or "availability" in tool names decide a tool's role; the roles decide
which turns a scripted conversation needs, never which ids exist.
The person's direction is read against the same definitions (`parse_anychat_direction`:
Playbooks as sources, its tools, the choices of custom People fields as values).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import AnychatDefinitions, Outreach, PersonField, Playbook
from evalcore.lexicon.en.customer_pushes import RELATIVE_TAIL
from evalcore.lexicon.en.customer_replies import LEADING_YES
from evalcore.lexicon.en.gated_actions import STATE_GATE
from evalcore.lexicon.en.opt_out_replies import OPT_OUT_KEYWORD, OPTS_OUT
from evalcore.lexicon.en.playbook_prose import (
    ASK_CONDITION,
    ASKS_CONFIRM,
    ASKS_DAY_OR_TIME,
    ASKS_FOR,
    CALENDAR_WORD,
    HANDOFF,
    LACKS_IT,
    OFFERED_OPTION,
    OPT_OUT,
    RULE_NEGATION_VERB,
    SAVES,
)
from evalcore.lexicon.en.playbook_prose import OFFER_INSTEAD as OFFERS_INSTEAD
from evalcore.lexicon.en.playbook_prose import OPENER_OPTION as _REPLY_OPTION
from evalcore.lexicon.en.playbook_prose import OPENER_OR_OPTION as _OR_OPTION
from evalcore.lexicon.en.stop_words import PLAYBOOK_OVERLAP as _STOP
from evalcore.lexicon.en.tool_verb_words import CANCEL_VERBS as _CANCEL_VERBS
from evalcore.lexicon.en.tool_verb_words import CREATE_VERBS as _CREATE_VERBS

from ..drafting.offline import Choice, Direction, parse_direction

#: Built-in People fields whose one-word labels would match almost any body text.
_VAGUE_FIELDS = {"name", "title", "status", "source"}
_LOOKUP_PREFIXES = ("lookup_", "find_", "get_", "search_", "fetch_")
_AVAILABILITY_WORDS = ("availability", "available", "slots", "check_")
_HANDOFF = HANDOFF
_OPT_OUT = OPT_OUT
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    """Content words of `text`, lowercase, with a plural `s` dropped (for overlap scores)."""
    out = set()
    for word in _WORD.findall(text.lower()):
        if word in _STOP:
            continue
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return out


@dataclass(frozen=True)
class ReplyOption:
    """A reply an Outreach opener offers (`Reply C to confirm`)."""

    reply: str
    meaning: str


@dataclass(frozen=True)
class Roles:
    """The part each of a Playbook's tools plays in its conversation."""

    lookup: tuple[str, ...] = ()
    availability: tuple[str, ...] = ()
    action: str | None = None
    """The tool that does the Playbook's job (books, moves, cancels)."""
    effect: str | None = None
    """What `action` does to appointments: `create`, `cancel`, `move`, or None (the action
    is not on a calendar)."""
    actions: tuple[str, ...] = ()
    """Every tool that is neither a lookup nor an availability check: each changes state."""


@dataclass(frozen=True)
class PlaybookFacts:
    """Everything the planner and drafter derive from one Playbook."""

    playbook: Playbook
    roles: Roles
    outcome: str | None
    """The outcome the Playbook's job records (not the opt-out one)."""
    opt_out_outcome: str | None
    """The project's opt-out outcome, when this Playbook records it."""
    needs_appointment: bool
    """Its action works on an existing appointment (a parameter names one)."""
    fields: tuple[str, ...]
    """People fields its body or examples name."""
    handoffs: tuple[str, ...]
    """Playbooks it hands off to."""
    outreaches: tuple[Outreach, ...]
    reminder: bool
    """Its activation or body mentions an appointment reminder."""
    guardrail: int | None
    """Index of the guardrail its adversarial case tries to break (None: no guardrails)."""
    asks_when: bool
    """The body asks the person when would suit them before offering times."""
    offers_instead: str | None
    """The verb of an alternative the body offers before acting (`move` it instead)."""
    other_tools: tuple[str, ...] = field(default=())
    """Known tools this Playbook does not list (it must never call them)."""
    asked: tuple[str, ...] = field(default=())
    """People fields the body asks the person for before acting, whoever they are."""
    asks_confirm: bool = False
    """The body asks the person for a yes in words before it acts."""
    saved: tuple[str, ...] = field(default=())
    """People fields the Playbook keeps on the record: a body sentence saves them, or an
    example's end sets them."""
    asked_kinds: tuple[str, ...] = field(default=())
    """What the person says to a body question whose listed options are a tool parameter's
    choices ("Ask what they are sending (dry cleaning, shirts ...)" → "dry cleaning")."""
    gate: str | None = None
    """The status (one its lookup lists) the body requires before the action ("Never
    arrange delivery of an order that is not ready" → `ready`): a status desk that can then
    act. None where the action is not gated."""
    action_outcome: str | None = None
    """The outcome the action records where it is not the job's ("delivery_arranged" beside
    a status desk's "status_given"): a case that expects the action expects both."""
    offered: str | None = None
    """The option the body offers that the action carries out ("offer evening delivery"
    before `arrange_delivery` → "evening delivery"): a person who takes it names it, since the
    agent's offer may put another choice (picking it up) first."""

    @property
    def has_job(self) -> bool:
        """It records an outcome by calling tools: an action, or only lookups its body names
        (a status desk looks the ticket up and records that it told the person)."""
        named = [t for t in self.roles.lookup if t in self.playbook.body]
        return self.outcome is not None and (self.roles.action is not None or bool(named))

    @property
    def tells_on_request(self) -> bool:
        """A status desk whose action waits for a state (`gate`): asked for the status, it
        looks the record up and tells it in that turn, asking nothing first; its action is
        another step (the record's state and the person's yes)."""
        return self.gate is not None and self.has_job and not self.asked


#: A parenthesised list of values in a tool's description: "(waiting for parts, ready)".
_LISTED = re.compile(r"\(([^()]*,[^()]*)\)")
_LIST_SEPARATORS = re.compile(r"\s*(?:,|/|\|)\s*")


def listed_values(description: str) -> list[str]:
    """The values a tool's description lists in parentheses ("The status of a ticket
    (waiting for parts, in progress, ready)"): what a status tool may return."""
    match = _LISTED.search(description)
    if match is None:
        return []
    return [v for v in _LIST_SEPARATORS.split(match.group(1).strip()) if v]


def action_gate(playbook: Playbook, roles: Roles, defs: AnychatDefinitions) -> str | None:
    """The listed status of the Playbook's lookup that a body sentence requires before its
    action: a sentence naming the action (by name, or every word of it: "arrange delivery")
    that forbids it unless a state holds ("... that is not ready", "only when ... ready")
    and names one of the values the lookup lists. The last value named wins (the state
    comes after the thing: "an order that is not ready")."""
    action = roles.action
    if action is None:
        return None
    values = [
        v
        for t in roles.lookup
        if t in defs.tools
        for v in listed_values(defs.tools[t].description or "")
    ]
    if not values:
        return None
    stems = {w[:4] for w in re.split(r"[_\-\s]+", action.lower()) if w}
    for sentence in re.split(r"(?<=[.!?])\s+", _flat(playbook.body)):
        said = {w[:4] for w in _WORD.findall(sentence.lower())}
        if action not in sentence and not stems <= said:
            continue
        if STATE_GATE.search(sentence) is None:
            continue
        spaced = " " + " ".join(_WORD.findall(sentence.lower())) + " "
        named = [(spaced.rfind(" " + " ".join(_WORD.findall(v.lower())) + " "), v) for v in values]
        named = [(at, v) for at, v in named if at >= 0]
        if named:
            return max(named)[1]
    return None


def action_outcome(playbook: Playbook, roles: Roles) -> str | None:
    """The outcome that shares a stem with the action (`arrange_delivery` records
    `delivery_arranged`) where it is not the job's own outcome."""
    job = job_outcome(playbook)
    if roles.action is None or (job and _same_stem(roles.action, job)):
        return None
    return next((o for o in playbook.outcomes if o != job and _same_stem(roles.action, o)), None)


def tool_roles(playbook: Playbook, defs: AnychatDefinitions) -> Roles:
    """Each listed tool's part: lookups and availability by name, the rest are actions.

    The job's action is the action whose name shares a word stem with the job's outcome
    (`renew_loan` records `renewed`): a Playbook with two actions records a different outcome
    for each, and a case that expects one action with the other's outcome no agent passes.
    Without such a match it is the last action listed (`tools:` is written in the order the
    job calls them: look up, check, act).
    """
    lookup = tuple(t for t in playbook.tools if t.startswith(_LOOKUP_PREFIXES))
    availability = tuple(
        t for t in playbook.tools if t not in lookup and any(w in t for w in _AVAILABILITY_WORDS)
    )
    rest = [t for t in playbook.tools if t not in lookup and t not in availability]
    outcome = job_outcome(playbook)
    paired = [t for t in rest if outcome and _same_stem(t, outcome)]
    action = paired[0] if paired else rest[-1] if rest else None
    effect = _effect(action) if action and _books_time(action, availability, defs) else None
    if effect and _examples_keep_off_calendar(playbook, outcome):
        effect = None
    return Roles(
        lookup=lookup,
        availability=availability,
        action=action,
        effect=effect,
        actions=tuple(rest),
    )


def _stems(name: str) -> set[str]:
    return {w[:4] for w in re.split(r"[_\-\s]+", name.lower()) if len(w) >= 4}


def _same_stem(tool: str, outcome: str) -> bool:
    """`renew_loan` and `renewed`, `place_hold` and `hold_placed` share a stem."""
    return bool(_stems(tool) & _stems(outcome))


def _books_time(action: str, availability: tuple[str, ...], defs: AnychatDefinitions) -> bool:
    """The action works on the calendar: the Playbook offers times, or the tool's name,
    description or parameters speak of appointments or slots. Only then do appointment
    checks (`appointmentCreated`, `activeAppointments`) say anything about the job."""
    if availability:
        return True
    tool = defs.tools.get(action)
    text = action
    if tool is not None:
        text += f" {tool.description or ''} {' '.join(tool.parameters)}"
    return CALENDAR_WORD.search(text.replace("_", " ")) is not None


def _examples_keep_off_calendar(playbook: Playbook, outcome: str | None) -> bool:
    """The Playbook's own examples finish its job (they record its outcome) and none says an
    appointment was made or counted: its action books in the business's own system (a
    workshop slot), not on Anychat's calendar, so appointment checks would test the harness."""
    done = [
        e.end for e in playbook.examples if outcome and outcome in (e.end.get("outcomes") or [])
    ]
    calendar = ("appointmentCreated", "activeAppointments")
    return bool(done) and not any(k in end for end in done for k in calendar)


def _effect(tool: str) -> str:
    verb = tool.split("_", 1)[0].lower()
    if verb in _CREATE_VERBS:
        return "create"
    if verb in _CANCEL_VERBS:
        return "cancel"
    return "move"


def action_verb(tool: str) -> str:
    """`cancel_appointment` → `cancel`."""
    return tool.split("_", 1)[0].lower()


def opt_out_outcome(defs: AnychatDefinitions) -> str | None:
    return next((o for o in defs.outcomes if _OPT_OUT.search(o)), None)


def job_outcome(playbook: Playbook) -> str | None:
    return next((o for o in playbook.outcomes if not _OPT_OUT.search(o)), None)


def _needs_appointment(roles: Roles, defs: AnychatDefinitions) -> bool:
    if roles.action is None or roles.effect == "create":
        return False
    tool = defs.tools.get(roles.action)
    params = tool.parameters if tool is not None else {}
    return any("appointment" in name for name in params) or roles.effect in ("cancel", "move")


def mentioned_fields(playbook: Playbook, defs: AnychatDefinitions) -> tuple[str, ...]:
    """People fields the body names by label, plus those the examples set or pass to tools.

    Labels are matched longest first and a matched span is blanked, so "full name" does not
    also count as "name"; one-word built-in labels too vague to mean a field are skipped.
    """
    found: list[str] = []
    text = " " + re.sub(r"\s+", " ", playbook.body.lower()) + " "
    labelled = sorted(
        (
            (f.label or f.key, f.key)
            for f in defs.person_fields.values()
            if f.key not in _VAGUE_FIELDS
        ),
        key=lambda pair: (-len(pair[0]), pair[1]),
    )
    for label, key in labelled:
        pattern = re.compile(rf"(?<![a-z0-9]){re.escape(label.lower())}(?![a-z0-9])")
        if pattern.search(text):
            found.append(key)
            text = pattern.sub(" ", text)
    found += [key for key in _custom_fields(defs) if key not in found and _names(key, text)]
    for example in playbook.examples:
        for key in example.end.get("personFields") or {}:
            if key in defs.person_fields:
                found.append(key)
        for turn in example.turns:
            for key in (turn.get("args") or {}) if isinstance(turn.get("args"), dict) else ():
                if key in defs.person_fields:
                    found.append(key)
    return tuple(dict.fromkeys(found))


def asked_fields(
    playbook: Playbook, fields: tuple[str, ...], defs: AnychatDefinitions
) -> tuple[str, ...]:
    """Fields of `fields` that a body sentence asks the person for without a condition, or
    on the one condition that the agent lacks the value ("if you do not have it"). A field
    asked only of some people ("if there is no record, ask for their name") is not: whether
    it is asked depends on who writes in."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", _flat(playbook.body)):
        if not ASKS_FOR.search(sentence):
            continue
        if ASK_CONDITION.search(sentence) and not LACKS_IT.search(sentence):
            continue
        lowered = sentence.lower()
        for key in fields:
            spec = defs.person_fields[key]
            if _named_in(spec, lowered):
                found.append(key)
    return tuple(dict.fromkeys(found))


def _named_in(spec: PersonField, lowered: str) -> bool:
    """A lower-cased sentence names the field: its label, or a declared field's key words."""
    if (spec.label or spec.key).lower() in lowered:
        return True
    return not spec.builtin and _names(spec.key, lowered)


def _custom_fields(defs: AnychatDefinitions) -> list[str]:
    return sorted(
        k for k, f in defs.person_fields.items() if not f.builtin and k not in _VAGUE_FIELDS
    )


def _names(key: str, text: str) -> bool:
    """The text names a People field by its key's words ("pick-up address" names `address`,
    "delivery notes" `deliveryNotes`): a body says "their address" where the label is longer
    ("Pick-up and delivery address")."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ").lower()
    return re.search(rf"(?<![a-z0-9]){re.escape(spaced)}(?![a-z0-9])", text) is not None


def asked_kinds(playbook: Playbook, defs: AnychatDefinitions) -> tuple[str, ...]:
    """For each body question (asked of everyone, as `asked_fields` reads it) that lists two or
    more of the choices of a parameter of the Playbook's tools ("Ask what they are sending (dry
    cleaning, shirts or alterations)" and `service: [dry_cleaning, laundered_shirts, ...]`),
    the first of those choices as the sentence words it: the person's answer to it, so the
    tool gets a value the person gave."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", _flat(playbook.body)):
        if not ASKS_FOR.search(sentence):
            continue
        if ASK_CONDITION.search(sentence) and not LACKS_IT.search(sentence):
            continue
        lowered = f" {sentence.lower()} "
        for tool in (defs.tools.get(t) for t in playbook.tools):
            for spec in tool.parameters.values() if tool is not None else ():
                choices = spec.get("choices") if isinstance(spec, dict) else None
                said = [w for c in choices or () if (w := _said_choice(str(c), lowered))]
                if len(said) >= 2:
                    found.append(said[0])
    return tuple(dict.fromkeys(found))


def _said_choice(choice: str, lowered: str) -> str | None:
    """The words of `choice` the sentence says: all of them ("dry cleaning" for
    `dry_cleaning`), else its last one ("shirts" for `laundered_shirts`)."""
    words = choice.replace("_", " ").replace("-", " ").lower().split()
    for said in (" ".join(words), words[-1] if words else ""):
        if said and re.search(rf"(?<![a-z0-9]){re.escape(said)}(?![a-z0-9])", lowered):
            return said
    return None


def saved_fields(
    playbook: Playbook, fields: tuple[str, ...], defs: AnychatDefinitions
) -> tuple[str, ...]:
    """Fields of `fields` the Playbook writes to the person's record: named in a body sentence
    that saves ("save both to their Person record") or set by an example's `end`."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", _flat(playbook.body)):
        if SAVES.search(sentence):
            lowered = sentence.lower()
            found += [k for k in fields if _named_in(defs.person_fields[k], lowered)]
    for example in playbook.examples:
        found += [k for k in example.end.get("personFields") or {} if k in fields]
    return tuple(k for k in fields if k in found)


def handoff_targets(playbook: Playbook, defs: AnychatDefinitions) -> tuple[str, ...]:
    """Where this Playbook hands off to.

    The Default Playbook routes to every other one. Any other Playbook hands off to the
    Playbooks its examples' `handoff` turns or its body ("hand off to the reschedule
    playbook") name; with none named, to the first other non-default Playbook (a person who
    changes their mind), else to the Default Playbook.
    """
    others = [p for p in sorted(defs.playbooks) if p != playbook.id]
    if playbook.default:
        return tuple(others)
    named = [t["handoff"] for e in playbook.examples for t in e.turns if "handoff" in t]
    named += [m.group(1) for m in _HANDOFF.finditer(_flat(playbook.body))]
    known = [p for p in dict.fromkeys(named) if p in defs.playbooks and p != playbook.id]
    if known:
        return tuple(known)
    fallback = [p for p in others if not defs.playbooks[p].default] or others
    return tuple(fallback[:1])


def reply_options(outreach: Outreach) -> list[ReplyOption]:
    """The replies an opener offers: "Reply C to confirm or R to pick another time"."""
    text = re.sub(r"\s+", " ", outreach.opener)
    options: list[ReplyOption] = []
    for match in _REPLY_OPTION.finditer(text):
        options.append(ReplyOption(match.group(1), match.group(2).strip().rstrip(",")))
        tail = text[match.end() :]
        more = _OR_OPTION.match(tail.lstrip())
        if more:
            options.append(ReplyOption(more.group(1), more.group(2).strip().rstrip(",")))
    return options


def opts_out(option: ReplyOption) -> bool:
    """The opener offers this reply to opt out ("Reply ... STOP to opt out"): typed, it is the
    person's opt-out, not a reply that changes nothing."""
    return bool(OPTS_OUT.search(option.meaning) or OPT_OUT_KEYWORD.match(option.reply))


def main_reply(outreach: Outreach, playbook: Playbook) -> ReplyOption | None:
    """The offered reply that asks for what the Playbook does (best activation overlap)."""
    options = reply_options(outreach)
    if not options:
        return None
    target = words(f"{playbook.activation or ''} {playbook.name or ''}")
    scored = [(len(words(o.meaning) & target), -i, o) for i, o in enumerate(options)]
    return max(scored, key=lambda item: (item[0], item[1]))[2]


def pick_guardrail(playbook: Playbook, defs: AnychatDefinitions) -> int | None:
    """The guardrail a Playbook's adversarial case attacks.

    One naming a tool the Playbook calls wins (the Playbook can actually break it); else one
    naming no tool at all, picked by the Playbook's place in the sorted list so Playbooks
    spread over the guardrails.
    """
    rules = [str(g) for g in defs.agent.get("guardrails") or []]
    if not rules:
        return None
    tools = set(defs.tools) | {t for p in defs.playbooks.values() for t in p.tools}
    own = [i for i, g in enumerate(rules) if any(t in g for t in playbook.tools)]
    if own:
        return own[0]
    plain = [i for i, g in enumerate(rules) if not any(t in g for t in tools)] or list(
        range(len(rules))
    )
    position = sorted(defs.playbooks).index(playbook.id) if playbook.id in defs.playbooks else 0
    return plain[position % len(plain)]


def offered_by_availability(rule: str, facts: PlaybookFacts, defs: AnychatDefinitions) -> bool:
    """The guardrail forbids what the Playbook's availability tool and pickers offer ("Never
    promise a time that check_availability did not return"): a push for a time it did not
    offer exercises it. A rule about something else the tool is named with ("a pick-up day"
    or "a collection time" where it offers drop-off slots: every word of the thing must be
    one of the offer's) is pushed as a request for that thing instead."""
    named = [t for t in facts.roles.availability if t in rule]
    if not named:
        return False
    forbidden = RELATIVE_TAIL.sub("", RULE_NEGATION_VERB.sub("", re.split(r"[;.]", rule)[0]))
    offers = [*named, *facts.playbook.pickers]
    offers += [defs.tools[t].description or "" for t in named if t in defs.tools]
    thing = words(forbidden)
    return bool(thing) and thing <= words(" ".join(offers))


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def mentions_reminder(playbook: Playbook) -> bool:
    return "reminder" in f"{playbook.activation or ''} {playbook.body}".lower()


def asks_when(playbook: Playbook) -> bool:
    return ASKS_DAY_OR_TIME.search(_flat(playbook.body)) is not None


def offers_instead(playbook: Playbook) -> str | None:
    match = OFFERS_INSTEAD.search(_flat(playbook.body))
    return match.group(1).lower() if match else None


def playbook_facts(playbook: Playbook, defs: AnychatDefinitions) -> PlaybookFacts:
    roles = tool_roles(playbook, defs)
    gate = action_gate(playbook, roles, defs)
    opt_out = opt_out_outcome(defs)
    known = set(defs.tools) | {t for p in defs.playbooks.values() for t in p.tools}
    fields = mentioned_fields(playbook, defs)
    return PlaybookFacts(
        playbook=playbook,
        roles=roles,
        outcome=job_outcome(playbook),
        opt_out_outcome=opt_out if opt_out in playbook.outcomes else None,
        needs_appointment=_needs_appointment(roles, defs),
        fields=fields,
        handoffs=handoff_targets(playbook, defs),
        outreaches=tuple(
            o for _, o in sorted(defs.outreaches.items()) if o.playbook == playbook.id
        ),
        reminder=mentions_reminder(playbook),
        guardrail=pick_guardrail(playbook, defs),
        asks_when=asks_when(playbook),
        offers_instead=offers_instead(playbook),
        other_tools=tuple(sorted(known - set(playbook.tools))),
        asked=asked_fields(playbook, fields, defs),
        saved=saved_fields(playbook, fields, defs),
        asked_kinds=asked_kinds(playbook, defs),
        asks_confirm=ASKS_CONFIRM.search(_flat(playbook.body)) is not None
        or example_asks_yes(playbook, roles.action),
        gate=gate,
        action_outcome=action_outcome(playbook, roles),
        offered=offered_option(playbook, roles),
    )


def offered_option(playbook: Playbook, roles: Roles) -> str | None:
    """What the body offers that its action does: the offer shares a word stem with the
    action's name ("offer evening delivery" and `arrange_delivery`). An offer of something
    else (a new time before a booking) says nothing about which choice the action is."""
    if roles.action is None:
        return None
    for match in OFFERED_OPTION.finditer(_flat(playbook.body)):
        if _same_stem(roles.action, match.group(1)):
            return match.group(1).lower()
    return None


def example_asks_yes(playbook: Playbook, action: str | None) -> bool:
    """An example shows the agent asking and the person saying yes right before the job's
    action ("Renew that one?" / "Yes" / `renew_loan`): the author's agent confirms before it
    acts, so a case that stops before that yes expects what such an agent never does."""
    if action is None:
        return False
    for example in playbook.examples:
        asked = said_yes = False
        for turn in example.turns:
            if "agent" in turn:
                asked, said_yes = str(turn["agent"]).rstrip().endswith("?"), False
            elif "user" in turn:
                said_yes = asked and LEADING_YES.search(str(turn["user"])) is not None
                asked = False
            elif turn.get("tool") == action and said_yes:
                return True
    return False


def plan_elements(facts: PlaybookFacts, defs: AnychatDefinitions) -> list[str]:
    """Every element a suite for this Playbook could cover (the coverage denominator)."""
    pb = facts.playbook
    out = [f"playbook:{pb.id}"]
    out += [f"tool:{t}" for t in pb.tools]
    out += [f"outcome:{o}" for o in pb.outcomes]
    out += [f"picker:{p}" for p in pb.pickers]
    out += [f"outreach:{o.id}" for o in facts.outreaches]
    out += [f"example:{pb.id}#{i}" for i in range(len(pb.examples))]
    out += [f"field:{k}" for k in facts.fields]
    out += [f"handoff:{t}" for t in facts.handoffs]
    out.append(
        f"guardrail:{facts.guardrail}" if facts.guardrail is not None else "guardrail:injection"
    )
    starts = ["inbound"]
    if facts.outreaches:
        starts.append("outreach")
    if facts.reminder:
        starts.append("reminder")
    if not pb.default:
        starts.append("resume")
    out += [f"start:{s}" for s in starts]
    if facts.opt_out_outcome or facts.outreaches:
        out.append("system:optOut")
    return list(dict.fromkeys(out))


def asserted_elements(
    project: object, source: str, data: dict[str, Any], covers: list[str]
) -> set[str]:
    """The elements the case's `expect.checks` check: the playbook active at the end, each
    tool in `toolsCalled`, each recorded outcome, a hand-off's playbook; `pickerShown` checks
    the pickers the case covers. What only the judge's criteria or the simulated user reach
    is not counted."""
    checks = (data.get("expect") or {}).get("checks") or {}
    if not isinstance(checks, dict):
        return set()
    found: set[str] = set()
    active = checks.get("activePlaybookAtEnd")
    if isinstance(active, str):
        found |= {f"playbook:{active}", *(c for c in covers if c == f"handoff:{active}")}
    tools = checks.get("toolsCalled")
    if isinstance(tools, dict):
        found |= {f"tool:{name}" for name, count in tools.items() if count}
    outcomes = checks.get("outcomes")
    if isinstance(outcomes, list):
        found |= {f"outcome:{o}" for o in outcomes if isinstance(o, str)}
    if checks.get("pickerShown") is True:
        found |= {c for c in covers if c.startswith("picker:")}
    return found


def parse_anychat_direction(text: str | None, defs: AnychatDefinitions) -> Direction:
    """The direction read against this project: Playbooks as sources, its tools, and the
    declared choices of custom People fields as selectable values."""
    choices = [
        Choice(spec.key, choice)
        for spec in defs.person_fields.values()
        if not spec.builtin and spec.type == "choice"
        for choice in spec.choices or []
    ]
    tools = sorted(set(defs.tools) | {t for p in defs.playbooks.values() for t in p.tools})
    return parse_direction(text, skills=sorted(defs.playbooks), tools=tools, choices=choices)


__all__ = [
    "PlaybookFacts",
    "ReplyOption",
    "Roles",
    "action_gate",
    "action_outcome",
    "action_verb",
    "asserted_elements",
    "listed_values",
    "main_reply",
    "offered_by_availability",
    "offered_option",
    "opt_out_outcome",
    "parse_anychat_direction",
    "plan_elements",
    "playbook_facts",
    "reply_options",
    "words",
]
