"""What the engine reads off an Anychat case without interpreting it (the facts that tell one
case from another, how many checks and criteria it makes) and the provenance it carries."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...dedupe import canon
from ...lint import as_list
from ...writer import anychat_case_key
from .._base import CaseProse, Provenance

if TYPE_CHECKING:
    from ...definitions import Project


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


def named_playbooks(data: dict[str, Any], project: Project) -> list[str]:
    """`origin.playbookId`, the playbook the case expects active at its end, the playbook of
    the outreach it starts from, then its tags."""
    origin = _dict(data.get("origin"))
    checks = _dict(_dict(data.get("expect")).get("checks"))
    start = _dict(_dict(data.get("scenario")).get("start"))
    outreach_id = _dict(start.get("outreach")).get("outreachId")
    outreach = (
        project.anychat.outreaches.get(outreach_id)
        if project.anychat and isinstance(outreach_id, str)
        else None
    )
    candidates = [origin.get("playbookId"), checks.get("activePlaybookAtEnd")]
    candidates.append(outreach.playbook if outreach else None)
    candidates += as_list(data.get("tags"))
    return [c for c in candidates if isinstance(c, str)]


def expected_playbooks(data: dict[str, Any], project: Project | None) -> list[str]:
    """`activePlaybookAtEnd`; without it, the playbooks that alone can call a tool the case
    expects to be called (a tool shared by several says nothing)."""
    checks = _dict(_dict(data.get("expect")).get("checks"))
    end = checks.get("activePlaybookAtEnd")
    if isinstance(end, str) and end.strip():
        return [end.strip()]
    anychat = project.anychat if project is not None else None
    called = checks.get("toolsCalled")
    if anychat is None or not isinstance(called, dict):
        return []
    found: list[str] = []
    for tool in called:
        owners = [p.id for p in anychat.playbooks.values() if tool in p.tools]
        if len(owners) == 1:
            found.append(owners[0])
    return list(dict.fromkeys(found))


def case_prose(data: dict[str, Any]) -> CaseProse:
    """The title, the type its tags give, the judge's criteria, and the brief's scenario with
    each `simulate` turn's persona, goal and facts."""
    judge = _dict(_dict(data.get("expect")).get("judge"))
    criteria = tuple(
        (ptr.join("/expect/judge/criteria", i, "text"), item["text"])
        for i, item in enumerate(as_list(judge.get("criteria")))
        if isinstance(item, dict) and isinstance(item.get("text"), str)
    )
    contexts: list[tuple[str, str]] = []
    scenario = _dict(data.get("brief")).get("scenario")
    if isinstance(scenario, str):
        contexts.append(("/brief/scenario", scenario))
    for index, turn in enumerate(as_list(data.get("turns"))):
        simulate = _dict(_dict(turn).get("simulate"))
        base = ptr.join("/turns", index, "simulate")
        for key in ("persona", "goal"):
            if isinstance(simulate.get(key), str):
                contexts.append((ptr.join(base, key), simulate[key]))
        for k, fact in enumerate(as_list(simulate.get("knows"))):
            if isinstance(fact, str):
                contexts.append((ptr.join(base, "knows", k), fact))
    return CaseProse(
        base="",
        data=data,
        title=str(data.get("title") or ""),
        title_path="/title" if "title" in data else "",
        type=_case_type(data),
        criteria=criteria,
        contexts=tuple(contexts),
    )


#: The case type each tag stands for (Anychat cases have no type field; generated ones
#: carry it as a tag).
_TYPE_TAGS = {
    "happy_path": "happy_path",
    "happy-path": "happy_path",
    "sad-path": "sad_path",
    "sad_path": "sad_path",
    "edge-case": "edge_case",
    "edge_case": "edge_case",
    "escalation": "escalation",
    "out-of-scope": "out_of_scope",
    "out_of_scope": "out_of_scope",
    "adversarial": "adversarial",
    "ambiguity": "ambiguity",
}


def _case_type(data: dict[str, Any]) -> str | None:
    for tag in as_list(data.get("tags")):
        if isinstance(tag, str) and tag.lower() in _TYPE_TAGS:
            return _TYPE_TAGS[tag.lower()]
    return None
