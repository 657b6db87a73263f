"""Structure rules: checks that say less than the project lets them say.

`text_matches` breaks when a response is reworded and matches other responses by accident;
the response's name does neither. An initial slot that pre-fills what the skill under test
collects (or what the case asserts gets set) turns the scenario into one that never runs the
step it claims to test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from evalcore import pointer as ptr
from evalcore.dialects import END_STATE_CHECKS, EVENT_ASSERTIONS
from evalcore.lint import as_dict, as_list

from .._views import CaseView, ReviewEnv
from ._registry import Hit, define_rule, review_rule

_BOT_KEYS = ("bot_uttered", "bot_did_not_utter")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@review_rule(
    "text-matches-over-structure",
    severity="warning",
    checks=EVENT_ASSERTIONS,
    summary="bot_uttered / bot_did_not_utter with text_matches whose pattern matches a "
    "known response's text: name the response (utter_name) instead.",
)
def text_matches_over_structure(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    defs = env.project.mantle if env.project is not None else None
    if defs is None:
        return
    texts: dict[str, list[str]] | None = None  # only for a case with a pattern to weigh
    for path, key, body in _bot_checks(case.data):
        pattern = body.get("text_matches")
        if not isinstance(pattern, str) or "utter_name" in body:
            continue
        if texts is None:
            texts = {
                name: [_sample(v.text) for v in response.variants if v.text]
                for name, response in defs.all_responses().items()
            }
        try:
            regex = re.compile(pattern, re.IGNORECASE)
        except re.error:
            continue  # validate reports it as bad-regex
        matched = sorted(n for n, variants in texts.items() if any(map(regex.search, variants)))
        if not matched:
            continue
        shown = ", ".join(matched[:4]) + (" …" if len(matched) > 4 else "")
        if key == "bot_uttered":
            suggestion = f"use `bot_uttered: {{utter_name: {matched[0]}}}`" + (
                f" (the pattern also matches {', '.join(matched[1:4])})" if len(matched) > 1 else ""
            )
        else:
            suggestion = "use `bot_did_not_utter: {utter_name: …}` for each of: " + shown
        yield Hit(
            ptr.join(path, "text_matches"),
            f"text_matches '{pattern}' matches the text of {shown}: it breaks when the "
            "wording changes and says less than the response name",
            suggestion=suggestion,
            value=pattern,
        )


def _bot_checks(data: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    goals = as_dict(as_dict(data.get("scenario")).get("goals"))
    for i, item in enumerate(as_list(goals.get("assertions"))):
        base = ptr.join("/scenario/goals/assertions", i)
        yield from _bot_in(as_dict(item), base)
        for j, inner in enumerate(as_list(as_dict(item).get("sequencing"))):
            yield from _bot_in(as_dict(inner), ptr.join(base, "sequencing", j))


def _bot_in(item: dict[str, Any], base: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for key in _BOT_KEYS:
        if isinstance(item.get(key), dict):
            yield ptr.join(base, key), key, item[key]


def _sample(text: str) -> str:
    """A response text with `{slot}` placeholders filled by their names, as a render would."""
    return _PLACEHOLDER.sub(lambda m: m.group(1).replace("_", " "), text)


# --- slots ---------------------------------------------------------------------------------


SLOT_SKIPS_STEP = define_rule(
    "slot-skips-step",
    severity="error",
    summary="Starting state that pre-fills what the skill under test collects or what the "
    "case asserts gets set: the scenario skips the step it tests.",
)


@SLOT_SKIPS_STEP.written_for(EVENT_ASSERTIONS)
def _mantle_slots(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    scenario = as_dict(case.data.get("scenario"))
    slots = as_dict(as_dict(scenario.get("setup")).get("initial_slots"))
    if not slots:
        return
    collected = _collected(case, env)
    asserted = _asserted_memory(scenario)
    for key in slots:
        name = key if "." in key else f"project.{key}"
        path = ptr.join("/scenario/setup/initial_slots", key)
        if name in collected:
            skill, step = collected[name]
            yield Hit(
                path,
                f"initial slot '{key}' pre-fills what step '{step}' of {skill} collects, so "
                "the scenario never runs the step it tests",
                suggestion="drop the slot and let the simulated user give the value (say it "
                "in simulation_context)",
                value=key,
            )
        elif name in asserted:
            yield Hit(
                path,
                f"initial slot '{key}' seeds the memory the case asserts is set: the "
                "assertion no longer shows the agent set it",
                suggestion="drop the slot, or drop the memory_was_set assertion on it",
                value=key,
            )


def _collected(case: CaseView, env: ReviewEnv) -> dict[str, tuple[str, str]]:
    """Memory the skill(s) under test collect in a `collect:` step -> (skill, step id)."""
    defs = env.project.mantle if env.project is not None else None
    if defs is None:
        return {}
    skills = {case.source} if case.source else set()
    goals = as_dict(as_dict(case.data.get("scenario")).get("goals"))
    for item in as_list(goals.get("assertions")):
        for key, body in as_dict(item).items():
            if key.startswith(("skill_", "ordered_block_")):
                skills.add(as_dict(body).get("skill_id"))
    out: dict[str, tuple[str, str]] = {}
    for skill_id in skills:
        skill = defs.skills.get(skill_id) if isinstance(skill_id, str) else None
        for block in skill.blocks.values() if skill else []:
            for step in block.steps:
                if step.kind == "collect" and isinstance(step.target, str):
                    target = step.target.removeprefix("session.")
                    name = target if "." in target else f"{skill_id}.{target}"
                    out.setdefault(name, (skill_id, step.id))
    return out


def _asserted_memory(scenario: dict[str, Any]) -> set[str]:
    goals = as_dict(scenario.get("goals"))
    out: set[str] = set()
    for item in as_list(goals.get("assertions")):
        item = as_dict(item)
        for entry in as_list(item.get("memory_was_set")):
            if isinstance(as_dict(entry).get("name"), str):
                out.add(entry["name"])
        for inner in as_list(item.get("sequencing")):
            if isinstance(inner, dict) and isinstance(inner.get("memory_was_set"), str):
                out.add(inner["memory_was_set"])
    return out


@SLOT_SKIPS_STEP.written_for(END_STATE_CHECKS)
def _anychat_person(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    expect = as_dict(as_dict(case.data.get("expect")).get("checks")).get("personFields")
    persona = as_dict(as_dict(case.data.get("scenario")).get("persona"))
    fields = as_dict(as_dict(persona.get("preset")).get("fields"))
    custom = as_dict(fields.get("customFields"))
    base = "/scenario/persona/preset/fields"
    for key, wanted in as_dict(expect).items():
        if key in custom:
            seeded, path = custom[key], ptr.join(base, "customFields", key)
        elif key in fields and key != "customFields":
            seeded, path = fields[key], ptr.join(base, key)
        else:
            continue
        if str(seeded).strip().lower() == str(wanted).strip().lower():
            yield Hit(
                path,
                f"the Person record already holds {key} = {seeded!r}, so the personFields "
                "check passes without the conversation",
                suggestion=f"leave {key} out of the persona preset, or drop it from personFields",
                value=key,
            )


__all__: list[str] = []
