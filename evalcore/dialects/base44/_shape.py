"""What the engine reads off a base44 eval without interpreting it: the cases it holds (one
per prompt), the facts that tell one from another, how many checks they make."""

from __future__ import annotations

import re
from typing import Any

from ...dedupe import canon


def prompt_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The prompt entries of an eval: its `prompts`, or the eval itself where it is one
    prompt at the top level."""
    if isinstance(data.get("prompts"), list) and data["prompts"]:
        return [e for e in data["prompts"] if isinstance(e, dict)]
    if "prompt" in data:
        return [{k: data[k] for k in ("name", "prompt", "expectedSkills", "checks") if k in data}]
    return []


def fingerprint_facts(data: dict[str, Any]) -> tuple[set[str], str]:
    """Each check and the expected skills of each prompt; the prompts as text."""
    facts: set[str] = set()
    text = ""
    entries = data.get("prompts") if isinstance(data.get("prompts"), list) else [data]
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for check in entry.get("checks") or []:
            facts.add("check:" + canon(check))
        facts.add("skills:" + canon(sorted(map(str, entry.get("expectedSkills") or []))))
        text += " " + str(entry.get("prompt", ""))
    return facts, text


def count_checks(data: dict[str, Any]) -> int:
    return sum(len(e.get("checks") or []) for e in data.get("prompts") or [])


def assemble(
    source: str, entries: list[dict[str, Any]], skill_description: str | None
) -> dict[str, Any]:
    """One multi-prompt `eval.json` per agent skill, prompts in plan order."""
    return {
        "name": f"{source}-generated",
        "description": (
            f"Generated evals for the {source} skill"
            + (f": {_first_sentence(skill_description)}" if skill_description else "")
        )[:300],
        "prompts": entries,
    }


def _first_sentence(text: str) -> str:
    """Up to the first sentence end (a dot followed by a space or the end), not any dot:
    descriptions are full of `base44.entities` and `config.jsonc`."""
    match = re.search(r"\.(\s|$)", text)
    return text[: match.start()] if match else text
