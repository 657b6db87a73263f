"""Expectations of offline-drafted Anychat cases: `expect.checks` and judge criteria.

Checks say only what follows from the definitions:

- the job's tools (`toolsCalled`, each at least once) are the Playbook's lookup tools its body
  names, its availability tool when it sends a time picker, and its action tool;
- `toolsNotCalled` lists the tools the Playbook does not list (a booking Playbook never
  cancels), or every state-changing tool of the agent when nothing may change;
- `activeAppointments` counts the seeded appointments after the job's effect (create +1,
  cancel -1, move ±0); moving or cancelling also means `appointmentCreated: false`;
- `replyCount.max` allows one message per turn the agent answers (an AMF message carries the
  text and its picker together), or as many as the personality or the body lets it send at
  once ("in one or two short messages": two), plus the opener of an Outreach or reminder
  start;
- `maxModelCallsPerTurn` allows one call per tool the Playbook lists, plus three (routing,
  the reply and one retry).

Judge criteria quote the definitions instead of paraphrasing them: the Playbook's own
sentence about confirming, its "never"/"only" rules, a guardrail, the agent's personality.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook
from evalcore.lexicon.en.message_counts import MESSAGE_COUNT, stated_count
from evalcore.lexicon.en.playbook_prose import ASKS_FOR as _ASKS_FOR
from evalcore.lexicon.en.playbook_prose import CONFIRM as _CONFIRM
from evalcore.lexicon.en.playbook_prose import RULE_NEGATION as _FORBIDS
from evalcore.lexicon.en.playbook_prose import RULE_WORD as _RULE

from ...planning.anychat_elements import PlaybookFacts, tool_roles, words

_NUMBERED = re.compile(r"^\s*\d+[.)]\s*")
_PICKERS = ("ask.time", "ask.choice")


def state_tools(defs: AnychatDefinitions) -> list[str]:
    """Every tool some Playbook acts with (books, renews, cancels), not only each one's job:
    nothing else changes state, so a conversation that must change nothing calls none."""
    found = {t for p in defs.playbooks.values() for t in tool_roles(p, defs).actions}
    return sorted(found)


def job_tools(facts: PlaybookFacts) -> list[str]:
    roles = facts.roles
    body = facts.playbook.body
    tools = [t for t in roles.lookup if t in body]
    if "ask.time" in facts.playbook.pickers:
        tools += list(roles.availability)
    if roles.action:
        tools.append(roles.action)
    return tools


def looked_up_before_asking(facts: PlaybookFacts) -> list[str]:
    """Lookup tools the body calls before its first question: a conversation resumed after
    that question may already hold the lookup's result, so a correct agent may skip it."""
    body = facts.playbook.body
    asked = _ASKS_FOR.search(body)
    if asked is None:
        return []
    return [t for t in facts.roles.lookup if 0 <= body.find(t) < asked.start()]


def messages_per_turn(defs: AnychatDefinitions | None, *playbooks: Playbook) -> int:
    """The most messages a correct agent may send for one turn: the largest count the
    personality or a body of `playbooks` states ("one or two short messages" → 2), at least 1.
    A cap below it would fail an agent that does what its definitions say."""
    texts = [p.body for p in playbooks]
    if defs is not None:
        texts.append(str(defs.agent.get("personality") or ""))
    counts = [stated_count(m) for t in texts for m in MESSAGE_COUNT.finditer(t)]
    return max([1, *counts])


def job_checks(
    facts: PlaybookFacts, *, seeded: int, replies: int, per_turn: int | None = None
) -> dict[str, Any]:
    """Checks of a conversation that takes the Playbook's job to its outcome: `replies` turns
    answered, each with up to `per_turn` messages (by default what the body allows)."""
    pb = facts.playbook
    effect = facts.roles.effect
    checks: dict[str, Any] = {"finalReplyNonEmpty": True}
    if any(p in pb.pickers for p in _PICKERS) and facts.roles.availability:
        checks["pickerShown"] = True
    if effect is not None:
        checks["appointmentCreated"] = effect == "create"
        checks["activeAppointments"] = max(
            0, seeded + (1 if effect == "create" else -1 if effect == "cancel" else 0)
        )
    if facts.outcome:
        # an action that records its own outcome beside the job's (a status desk that then
        # delivers) records both where the case takes it that far
        checks["outcomes"] = [facts.outcome, *filter(None, [facts.action_outcome])]
    checks["activePlaybookAtEnd"] = pb.id
    tools = job_tools(facts)
    if tools:
        checks["toolsCalled"] = {t: 1 for t in tools}
    if facts.other_tools:
        checks["toolsNotCalled"] = list(facts.other_tools)
    checks["noWarnings"] = True
    checks["maxModelCallsPerTurn"] = len(pb.tools) + 3
    if per_turn is None:
        per_turn = messages_per_turn(None, pb)
    checks["replyCount"] = {"max": replies * per_turn}
    return checks


def body_sentences(playbook: Playbook) -> list[str]:
    """The body's sentences, list numbers dropped and whitespace collapsed."""
    lines = [_NUMBERED.sub("", line) for line in playbook.body.splitlines()]
    text = re.sub(r"\s+", " ", " ".join(lines)).strip()
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def playbook_criteria(
    playbook: Playbook,
    *,
    confirm: bool = True,
    rules: int = 2,
    skip: tuple[str, ...] = (),
    acts: bool = True,
) -> list[tuple[str, str]]:
    """Criteria quoting the Playbook: its sentence about confirming and its first rules.

    A sentence naming a tool of `skip` (the Playbook's other actions) is about another job
    than the case's: quoting it would ask the agent to do what the person never asked for.
    In a case where the agent rightly acts on nothing (`acts=False`), only a rule that forbids
    ("Never renew ...", "Do not cancel ...") is quoted: one on how to do the job ("Ask for
    their card number first if you do not have it, then ...") says nothing there."""
    out: list[tuple[str, str]] = []
    sentences = [s for s in body_sentences(playbook) if not any(t in s for t in skip)]
    if confirm:
        said = next((s for s in sentences if _CONFIRM.search(s)), None)
        if said:
            out.append(("playbook-confirmation", f"As the playbook asks: “{said}”"))
    kept = [s for s in sentences if _RULE.search(s) and (acts or _FORBIDS.match(s))]
    for index, sentence in enumerate(kept[:rules]):
        out.append(
            (f"playbook-rule-{index + 1}", f"The agent keeps the playbook's rule: “{sentence}”")
        )
    return out


def answer_criterion(playbook: Playbook, topic: str) -> list[tuple[str, str]]:
    """The body's sentence that answers a question about `topic` ("opening hours" → "Open
    Tuesday to Saturday 9:00-18:00."), quoted: every correct answer agrees with it. Words
    match on their first four letters ("opening" ~ "Open"); none in common quotes nothing."""
    asked = _stems(topic)
    scored = [(len(asked & _stems(s)), -i, s) for i, s in enumerate(body_sentences(playbook))]
    best = max(scored, default=(0, 0, ""))
    if best[0] == 0:
        return []
    return [
        (
            "answer-matches-playbook",
            f"The agent's answer agrees with what the {playbook.name or playbook.id} playbook "
            f"says: “{best[2]}”",
        )
    ]


def _stems(text: str) -> set[str]:
    return {w[:4] for w in words(text) if len(w) >= 4}


def tone_criterion(defs: AnychatDefinitions) -> list[tuple[str, str]]:
    personality = defs.agent.get("personality")
    if not personality:
        return []
    text = re.sub(r"\s+", " ", str(personality)).strip()
    return [("on-brand-tone", f"The agent sounds like its personality: “{text}”")]


__all__ = [
    "answer_criterion",
    "body_sentences",
    "job_checks",
    "job_tools",
    "messages_per_turn",
    "playbook_criteria",
    "state_tools",
    "tone_criterion",
]
