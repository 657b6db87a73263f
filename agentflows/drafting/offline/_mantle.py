"""The offline Mantle drafter: one scenario document per planned behaviour, no model.

    data = draft_mantle(DraftContext(project, "mantle", behavior))
    data["scenario"]["simulation_context"]   # persona, intent, facts, stopping point

Deterministic: the behaviour's facts are walked again (`_mantle_script`) with test data
drawn by `evalcore.testdata` from an RNG keyed by the behaviour id, and nothing reads the
clock, so the same plan gives byte-identical files. Every id and value is the project's own;
the document validates against the Mantle schema and lint.

- `name`: the behaviour's title; `type`: its scenario type.
- `simulation_context`: a fact-sheet context (docs/simulation-contexts.md): who the user is
  (a persona that fits the agent's users), what they want, what they know (one fact per
  question the walk asks), quoted lines only where the behaviour needs exact words, how
  they answer a confirmation, and when they stop.
- `setup.initial_slots`: seed project fields that are channel context only (caller phone,
  language), never a field the scenario tests.
- `goals`: criteria and structural assertions (`_mantle_goals`).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Project
from evalcore.testdata import account_of, users_word

from .._engine import DraftContext
from ._mantle_chained import chain_of, chained
from ._mantle_goals import goals_for
from ._mantle_script import Script, build_script
from ._mantle_triggers import provoked


def suite_slot(ctx: DraftContext) -> int | None:
    """The case's place among the suite's cases of its skill (by title), when the flow says
    which the others are; None for a case drafted on its own."""
    if not ctx.siblings:
        return None
    titles = sorted({*ctx.siblings, ctx.behavior.title})
    return titles.index(ctx.behavior.title)


def draft_mantle(ctx: DraftContext) -> dict[str, Any]:
    """The scenario document (`{"scenario": {...}}`) for `ctx.behavior`."""
    return draft_mantle_reviewed(ctx)[0]


def draft_mantle_scripted(ctx: DraftContext) -> tuple[dict[str, Any], Script]:
    """`draft_mantle`'s document and the script it was written from: a model's draft is
    prompted with both, and walking the behaviour again cost as much as the document."""
    script = build_script(ctx.project, ctx.behavior, slot=suite_slot(ctx))
    return _document(ctx, script), script


def draft_mantle_reviewed(ctx: DraftContext) -> tuple[dict[str, Any], str | None]:
    """`draft_mantle`'s document, and why the case needs review where its facts cannot
    keep it on its path (no record of the project's data fits: `FactSheet.misfits`)."""
    script = build_script(ctx.project, ctx.behavior, slot=suite_slot(ctx))
    return _document(ctx, script), "; ".join(dict.fromkeys(script.sheet.misfits)) or None


def _document(ctx: DraftContext, script: Script) -> dict[str, Any]:
    criteria, assertions = goals_for(ctx.project, script)
    chain = chain_of(ctx.behavior.facts)
    if chain is not None and ctx.project.mantle is not None:
        criteria, assertions = chained(ctx.project.mantle, script, chain, criteria, assertions)
    criteria = in_users_words(ctx.project, criteria)
    context = simulation_context(ctx, script)
    if ctx.project.mantle is not None:  # a rule whose trigger the case never brings about
        criteria = provoked(ctx.project.mantle, script, criteria, context)
    scenario: dict[str, Any] = {
        "name": _title(ctx, script),
        "type": ctx.behavior.type,
        "simulation_context": context,
    }
    if script.seeds:
        scenario["setup"] = {"initial_slots": dict(script.seeds)}
    goals: dict[str, Any] = {}
    if criteria:
        goals["criteria"] = criteria
    if assertions:
        goals["assertions"] = assertions
    if goals:
        scenario["goals"] = goals
    return {"scenario": scenario}


def in_users_words(project: Project, criteria: list[str]) -> list[str]:
    """Criteria that speak of "the customer" in the agent's own word for its users, where
    agent.yml names them ("Employees reach you ..." -> "the employee's request"): a judge
    reads the criterion against a conversation with that person."""
    agent = (project.mantle.agent if project.mantle else None) or {}
    text = " ".join(str(agent.get(k) or "") for k in ("name", "description", "persona"))
    word = users_word(text)
    if not word or word == "customer":
        return criteria
    return [_renamed(c, word) for c in criteria]


def _renamed(criterion: str, word: str) -> str:
    """`criterion` with "the customer('s)", "a customer" and "customers" as `word`."""
    words = criterion.split(" ")
    for at, token in enumerate(words):
        head = token.rstrip(".,;:")
        tail = token[len(head) :]
        if head.lower() in ("customers", "customers'"):
            words[at] = f"{word}s{head[len('customers') :]}{tail}"
        elif head.lower() in ("customer", "customer's") and at > 0:
            article = words[at - 1]
            if article.lower() in ("a", "an"):
                fit = "an" if word[:1] in "aeiou" else "a"
                words[at - 1] = fit.capitalize() if article[:1].isupper() else fit
            elif article.lower() != "the":
                continue
            words[at] = f"{word}{head[len('customer') :]}{tail}"
    return " ".join(words)


def _title(ctx: DraftContext, script: Script) -> str:
    """The behaviour's title; a failure case's names the input that makes the tool fail
    (`… fails for claim number CLAIM0150`), so a reader sees why a real run fails."""
    title = ctx.behavior.title
    tool = ctx.behavior.facts.get("tool")
    if ctx.behavior.facts.get("kind") != "failure" or not tool:
        return title
    failed = [e for e in script.walk.tools(str(tool)) if e.error and e.arguments]
    if not failed:
        return title
    arguments = failed[-1].arguments
    marked = [k for k, v in arguments.items() if account_of({str(v)}) == "failing"]
    if not marked:  # the failing account is the session's (a seeded caller), not an answer
        return title
    return f"{title} for {marked[0].replace('_', ' ')} {arguments[marked[0]]}"


def simulation_context(ctx: DraftContext, script: Script) -> str:
    """The fact-sheet context (docs/simulation-contexts.md) the script wrote."""
    return script.context.render()


__all__ = ["draft_mantle", "simulation_context"]
