"""Prohibition criteria whose trigger the case never brings about, left out.

A rule that forbids an act on something that only turns up in some conversations holds
vacuously where it never does: "does not paste environment variables from logs" in a case
that never shows a log, "never deploy a branch name or a commit sha" where the user gives
a tag, "do not answer the clinical question" where nobody asks one. Every agent passes it,
so it says nothing and a reviewer strikes it. What brings the trigger about, read from the
skill's own definitions:

- a thing only a tool of the case's skills answers with (the `logs` of `get_deploy_logs`):
  the case runs no tool of that name and the user never speaks of it;
- a value of another form than the one the rule's sentence shows (`v2.41.0`: "never deploy
  a branch name"): the user gives a value of the form shown;
- a question the rule's sentence quotes as its example ("is it OK to take two?"): the user
  never asks it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from evalcore.definitions import MantleDefinitions
from evalcore.definitions.skill_model import sentences

from ._mantle_script import Script

#: What a prohibition criterion says before the forbidden act.
_FORBIDS = (" does not ", " never ")
#: A value in backticks a sentence shows as the form it takes (`v2.41.0`).
_SHOWN = re.compile(r"`([^`\s]+)`")
#: A question a sentence quotes as its example ("is it OK to take two?").
_QUOTED_QUESTION = re.compile(r"[\"“]([^\"”]+\?)[\"”]")
_WORD = re.compile(r"[a-z0-9]+")


def provoked(defs: MantleDefinitions, script: Script, criteria: list[str], said: str) -> list[str]:
    """`criteria` without the prohibitions whose trigger the case never brings about (see
    the module); `said`: everything the simulated user knows and says."""
    skills = _skills(defs, script)
    ran = {e.tool for w in _walks(script) for e in w.tools() if e.tool and not e.error}
    # the words the agent's own description uses (its users: "customer") name no thing
    # only a tool answers with, even where a tool's name has them (`load_customer_profile`)
    said_words = _words(said) | _words(" ".join(_texts(defs.agent)))
    return [c for c in criteria if not _unprovoked(defs, skills, ran, c, said, said_words)]


def _unprovoked(
    defs: MantleDefinitions,
    skills: list[str],
    ran: set[str],
    criterion: str,
    said: str,
    said_words: set[str],
) -> bool:
    text = " " + " ".join(criterion.split())
    found = [(text.lower().find(m), m) for m in _FORBIDS if m in text.lower()]
    if not found:
        return False
    at, marker = min(found)
    act = text[at + len(marker) :]
    if _only_from_unrun_tool(defs, skills, ran, act, said_words):
        return True
    for sentence in _sources(defs, skills, act):
        shown = _SHOWN.findall(sentence)
        if shown and any(_shape(s).search(said) for s in shown):
            return True  # the user gives the form the sentence shows, never the other
        asked = _QUOTED_QUESTION.findall(sentence)
        if asked and not any(q.lower().rstrip("?") in said.lower() for q in asked):
            return True  # nobody asks the question the rule is about
    return False


def _only_from_unrun_tool(
    defs: MantleDefinitions, skills: list[str], ran: set[str], act: str, said_words: set[str]
) -> bool:
    """Whether the act names a thing only a tool the case does not run answers with (the
    words of a tool's name after its verb: `get_deploy_logs` -> deploy, logs)."""
    tools = {name for skill in skills for name in defs.tools_for(skill)}
    ran_words = {w for name in ran for w in _words(name.replace("_", " "))}
    unrun: set[str] = set()
    for name in tools - ran:
        unrun |= set(_words(" ".join(name.split("_")[1:])))
    named = _words(act) & unrun
    return bool(named - ran_words - said_words)


def _sources(defs: MantleDefinitions, skills: list[str], act: str) -> Iterable[str]:
    """The sentences of the skills' prose that state the act (by its first words)."""
    lead = " ".join(act.lower().split()[:3])
    for skill in skills:
        for sentence in sentences(defs.skills[skill].body or ""):
            if lead and lead in " ".join(sentence.text.lower().split()):
                yield sentence.text


def _shape(value: str) -> re.Pattern[str]:
    """A pattern for values of the form `value` shows (`v2.41.0` -> letters, digits, dots)."""
    parts = re.findall(r"[A-Za-z]+|\d+|[^A-Za-z\d]", value)
    body = "".join(
        "[A-Za-z]+" if p.isalpha() else r"\d+" if p.isdigit() else re.escape(p) for p in parts
    )
    return re.compile(rf"(?<![\w.-]){body}(?![\w-])")


def _texts(value: object) -> list[str]:
    """Every string inside a loaded YAML value (agent.yml's persona, rules, …)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _words(text: str) -> set[str]:
    """Lower-case words of `text`, a plural as its singular (`logs` -> `log`)."""
    out = set()
    for word in _WORD.findall(text.lower()):
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return out


def _walks(script: Script) -> list[Any]:
    """The case's walks: the sign-in's, its own, a detour's or hand-off's."""
    return [w for w in (script.prelude, script.walk, script.other) if w is not None]


def _skills(defs: MantleDefinitions, script: Script) -> list[str]:
    """The skills the case's walks enter (a skill a block calls too)."""
    out: dict[str, None] = {}
    for walk in _walks(script):
        out.setdefault(walk.skill)
        for event in walk.events:
            if event.skill:
                out.setdefault(event.skill)
    return [s for s in out if s in defs.skills]


__all__ = ["provoked"]
