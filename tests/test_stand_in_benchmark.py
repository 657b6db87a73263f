"""`python -m benchmarks stand-in` counts what a hand-answered model run wrote and changed."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.stand_in import measure, request_kind


def _request(q: Path, n: int, system: str, answer: str | None) -> None:
    body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": "x"}]}
    (q / f"{n:04d}.req.json").write_text(json.dumps(body))
    if answer is not None:
        (q / f"{n:04d}.ans.txt").write_text(answer)


def test_a_run_is_counted_from_its_summary_queue_and_cases(tmp_path: Path) -> None:
    q = tmp_path / "q"
    q.mkdir()
    kept, planned = "You are Ada.\nOpen with: hi", "You are Bo.\nOpen with: hello"
    _request(q, 1, "You refine a coverage plan for a skill.", '{"edits": []}')
    _request(q, 2, "You write the words of one scenario.", json.dumps({"simulation_context": kept}))
    _request(q, 3, "You write the words of one scenario.", json.dumps({"simulation_context": "x"}))
    _request(q, 4, "You fix the words of one scenario.", None)  # never answered
    cases = []
    for name, context in (("a.yml", kept), ("b.yml", planned)):
        (tmp_path / name).write_text(
            json.dumps({"scenario": {"simulation_context": context + "\n"}})
        )
        cases.append(
            {
                "path": str(tmp_path / name),
                "source": "order",
                "type": "happy_path" if name == "a.yml" else "edge_case",
                "edits": [{"op": "set_opener", "status": "accepted"}],
            }
        )
    dropped = [
        {"behavior": "order:x_fails", "reason": "not written: no scenario can make x fail"},
        {
            "behavior": "order:digression",
            "reason": "verification: the reference agent fails it",
            "edits": [{"op": "add_criterion", "status": "refused", "reason": "unjustified: none"}],
        },
    ]
    summary = {
        "planned": 5,
        "cases": cases,
        "dropped": dropped,
        "duplicates_dropped": 1,
        "verification": {"repaired": 0, "loosened": 0},
    }
    (tmp_path / "gen.json").write_text(json.dumps(summary))
    figures = measure(tmp_path)
    assert (figures["planned"], figures["written"], figures["duplicates"]) == (5, 2, 1)
    assert (figures["not_drafted"], figures["dropped_by_verification"]) == (1, 1)
    assert figures["model_contexts_kept"] == 1  # b.yml holds the planned context
    assert figures["edits"] == {"add_criterion refused": 1, "set_opener accepted": 2}
    assert figures["refusals"] == {"unjustified: none": 1}
    assert figures["happy_paths"] == ["order"]
    assert figures["calls"] == {"plan": 1, "draft": 2, "repair words": 1}


def test_an_unknown_prompt_is_counted_as_other() -> None:
    assert request_kind({"messages": [{"role": "system", "content": "Hello there"}]}) == "other"
    assert request_kind({"messages": []}) == "other"
