"""What the engine reads off a Mantle scenario without interpreting it: the facts that tell
one case from another, how many assertions and criteria it makes, the skills it names."""

from __future__ import annotations

from typing import Any

from ...dedupe import canon


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def fingerprint_facts(data: dict[str, Any]) -> tuple[set[str], str]:
    """Its type, each assertion, each seeded slot; its simulation context as text."""
    scenario = _dict(data.get("scenario"))
    facts = {"type:" + str(scenario.get("type"))}
    for item in _dict(scenario.get("goals")).get("assertions") or []:
        facts.add("assert:" + canon(item))
    for key, value in (_dict(scenario.get("setup")).get("initial_slots") or {}).items():
        facts.add(f"slot:{key}={canon(value)}")
    return facts, str(scenario.get("simulation_context", ""))


def goals(data: dict[str, Any]) -> dict[str, Any]:
    return (data.get("scenario") or {}).get("goals") or {}
