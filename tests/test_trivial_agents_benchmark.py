"""The trivial-agents benchmark counts Anychat cases too: it once read only Mantle `.yml`
scenarios, so an Anychat suite showed 0 goal-directed cases and 0 passes whatever it held."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.trivial_agents import _case_types, echo


def test_anychat_cases_are_typed_by_their_tags(tmp_path: Path) -> None:
    for stem, tags in (
        ("book-inbound-happy-path", ["book", "happy-path", "inbound"]),
        ("book-guardrail-adversarial", ["book", "adversarial", "guardrail"]),
        ("desk-off-topic-out-of-scope", ["desk", "out-of-scope"]),
    ):
        case = {"key": stem, "tags": tags, "turns": ["Hi"], "expect": {"checks": {}}}
        (tmp_path / f"{stem}.json").write_text(json.dumps(case))
    (tmp_path / "manifest.json").write_text(json.dumps({"cases": []}))
    assert _case_types(tmp_path) == {
        "book-guardrail-adversarial": "adversarial",
        "book-inbound-happy-path": "goal",
        "desk-off-topic-out-of-scope": "out_of_scope",
    }


def test_the_echo_agent_says_back_what_it_hears() -> None:
    assert echo({"turn": {"type": "start"}}) is None
    said = echo({"turn": {"type": "text", "text": "Can I renew my book?"}})
    assert said == {"messages": [{"text": "Can I renew my book?"}], "events": []}
    assert echo({"turn": {"type": "slot", "slot": 0}}) == {"messages": [], "events": []}
    assert echo({"close": True}) is None
