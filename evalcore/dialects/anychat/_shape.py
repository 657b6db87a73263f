"""What the engine reads off an Anychat case without interpreting it (the facts that tell one
case from another, how many checks and criteria it makes) and the provenance it carries."""

from __future__ import annotations

import copy
from typing import Any

from ...dedupe import canon
from ...writer import anychat_case_key
from .._base import Provenance


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def fingerprint_facts(data: dict[str, Any]) -> tuple[set[str], str]:
    """How it starts, each check, each structured turn; its scripted turns and brief as text."""
    scenario = _dict(data.get("scenario"))
    facts = {"start:" + canon(scenario.get("start"))}
    checks = _dict(_dict(data.get("expect")).get("checks"))
    for name, value in checks.items():
        facts.add(f"check:{name}={canon(value)}")
    turns = data.get("turns") if isinstance(data.get("turns"), list) else []
    for turn in turns:
        if not isinstance(turn, str):
            facts.add("turn:" + canon(turn))
    brief = str(_dict(data.get("brief")).get("scenario", ""))
    text = " ".join(t for t in turns if isinstance(t, str)) + " " + brief
    return facts, text


def count_checks(data: dict[str, Any]) -> int:
    return len((data.get("expect") or {}).get("checks") or {})


def count_criteria(data: dict[str, Any]) -> int:
    return len(((data.get("expect") or {}).get("judge") or {}).get("criteria") or [])


def with_provenance(data: dict[str, Any], provenance: Provenance) -> dict[str, Any]:
    """`data` with its `key` and its `origin`: generated (unless it retells a playbook
    example), from which playbook file at which hash, by which engine, when."""
    data = copy.deepcopy(data)
    data["key"] = anychat_case_key(provenance.source, provenance.case, provenance.case_type)
    origin = data.get("origin") if isinstance(data.get("origin"), dict) else {}
    if origin.get("kind") != "playbookExample":
        origin["kind"] = "generated"
    sources = provenance.sources
    playbook_file = next((p for p in sources if p.startswith("playbooks/")), None)
    origin["generatedFrom"] = (
        f"{provenance.engine}: {playbook_file or provenance.source}"
        + (f"@sha256:{sources[playbook_file][:12]}" if playbook_file else "")
        + f" behaviour {provenance.behavior}"
    )[:4000]
    origin["generatedAt"] = provenance.generated_at
    data["origin"] = origin
    return data


def same_but_time(old: Any, new: dict[str, Any]) -> bool:
    """True when `old` is `new` with only `origin.generatedAt` different."""
    if not isinstance(old, dict) or not isinstance(new.get("origin"), dict):
        return False
    old = copy.deepcopy(old)
    if isinstance(old.get("origin"), dict):
        old["origin"]["generatedAt"] = new["origin"].get("generatedAt")
    return old == new
