"""The project's own questions per fact: how the offline simulator recognises "What happened
to the card?" as the question a fact labelled "replacement reason" answers.

A fact label names a field when the field's words are all in the label, or the label's words
are all in the field's name (`replacement reason` ↔ `card_replace.replacement_reason`). The
questions are the texts of the responses the project asks that field with: a `collect`
step's `utterance`, and `utter_ask_<field>` by convention.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..definitions import MantleDefinitions, Project
from ._words import stems

_KEPT: dict[tuple[str, int], tuple[object, Any]] = {}


def _once(kind: str, owner: object, build: Callable[[], Any]) -> Any:
    """`build()` once per loaded definitions (a simulator starts per case and mutant)."""
    kept = _KEPT.get((kind, id(owner)))
    if kept is None or kept[0] is not owner:
        kept = _KEPT[(kind, id(owner))] = (owner, build())
    return kept[1]


def field_questions(defs: MantleDefinitions) -> dict[str, list[str]]:
    """Qualified field -> the texts of every response that asks for it."""
    found = _once("fields", defs, lambda: _field_questions(defs))
    return {k: list(v) for k, v in found.items()}


def _field_questions(defs: MantleDefinitions) -> dict[str, list[str]]:
    responses = defs.all_responses()
    out: dict[str, list[str]] = {}
    for skill in defs.skills.values():
        for block in skill.blocks.values():
            for step in block.steps:
                if step.kind != "collect":
                    continue
                key = f"{skill.id}.{step.target}"
                names = [str(step.fields.get("utterance") or ""), f"utter_ask_{step.target}"]
                for name in names:
                    response = responses.get(name)
                    if response is not None:
                        texts = [v.text for v in response.variants if v.text]
                        out.setdefault(key, []).extend(texts)
    return out


def questions_for(project: Project, labels: Sequence[str]) -> dict[str, list[str]]:
    """Fact label -> the project's questions for the field it names (see module doc)."""
    if project.mantle is None:
        return {}
    asked = field_questions(project.mantle)
    out: dict[str, list[str]] = {}
    for label in labels:
        wanted = stems(label)
        if not wanted:
            continue
        for key, texts in asked.items():
            name = stems(key.split(".", 1)[1].replace("_", " "))
            if name and (name <= wanted or wanted <= name):
                out.setdefault(label, []).extend(texts)
    return out


def confirmation_texts(project: Project) -> list[str]:
    """The texts of every response a gated tool reads back for confirmation
    (`requires_confirmation.utter_for_confirmation`): the offline user hears "Submit $40 as
    meals?" as a read-back to agree or decline, not as a question about a fact."""
    defs = project.mantle
    if defs is None:
        return []
    return list(_once("confirmations", defs, lambda: _confirmation_texts(defs)))


def _confirmation_texts(defs: MantleDefinitions) -> list[str]:
    responses = defs.all_responses()
    out: list[str] = []
    for skill in defs.skills.values():
        for constraint in skill.tool_constraints.values():
            gate = constraint.requires_confirmation
            if gate is None or not gate.enabled or not gate.utter_for_confirmation:
                continue
            response = responses.get(gate.utter_for_confirmation)
            if response is not None:
                out += [v.text for v in response.variants if v.text and v.text not in out]
    return out


__all__ = ["confirmation_texts", "field_questions", "questions_for"]
