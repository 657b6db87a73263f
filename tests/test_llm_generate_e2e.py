"""`casegen generate` end to end with the LLM engine against the stub server.

Mantle cases are drafted on the plan: the model answers words only. Of the planned
`card_replace` behaviours, the first gets a context that names internals (fixed by review
before writing) and a compound criterion (kept whole, with review's warning), the second
gets criteria a judge cannot use (a lookup and a vague one, dropped), and the third always
gets invalid JSON (reported failed); every other case is fine at once. The run must write
all cases but the failed one, each with the plan's assertions, and the written suite must
pass its own review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from stub_openai import RecordedRequest, Reply, StubOpenAI, invalid_json, ok, stub_fixture

from agentflows.planning import plan_source
from evalcore.definitions import load_project

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"

openai_stub = stub_fixture()


def _planned_ids() -> list[str]:
    try:
        plan = plan_source(load_project(BANK), "mantle", "card_replace", None)
    except ModuleNotFoundError as exc:
        pytest.skip(f"the Mantle planner is not there yet ({exc})")
    ids = [b.id for b in plan.behaviors]
    if len(ids) < 4:
        pytest.skip("the card_replace plan has fewer than four behaviours")
    return ids


def _section(request: RecordedRequest, tag: str) -> str:
    return request.text.split(f"<{tag}>", 1)[1].split(f"</{tag}>", 1)[0]


def _behavior(request: RecordedRequest) -> dict[str, Any]:
    text = _section(request, "Behavior")
    return json.loads(text[text.index("{") : text.rindex("}") + 1])


def _words(behavior: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "name": behavior["title"],
        "simulation_context": (
            f"You are a customer ({behavior['id']}). {behavior['description']}\n"
            '1. To start, say: "I need a new card"\n2. Stop once the agent answers.'
        ),
        "criteria": ["The agent does not read out the internal card id"],
    }
    return values | overrides


class Script:
    """Answers plan and draft requests; the fault depends on the behaviour."""

    def __init__(self, leaky: str, unusable: str, failing: str) -> None:
        self.leaky, self.unusable, self.failing = leaky, unusable, failing
        self.drafts: list[RecordedRequest] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        if request.schema_name == "RefinedPlan":
            return ok({"behaviors": []})  # keep the plan as it is
        behavior = _behavior(request)
        self.drafts.append(request)
        if behavior["id"] == self.failing:
            return invalid_json()
        if behavior["id"] == self.leaky:
            return ok(
                _words(
                    behavior,
                    simulation_context=_section(request, "Facts").strip()
                    + "\nYou want utter_order_placed after @tool.block_card ran.",
                    criteria=[
                        "The agent does not read out the internal card id and it never asks "
                        "for the PIN"
                    ],
                )
            )
        if behavior["id"] == self.unusable:
            return ok(
                _words(
                    behavior,
                    criteria=[
                        "The agent calls block_card",
                        "The agent responds appropriately",
                        "The agent does not say which detail did not match",
                    ],
                )
            )
        return ok(_words(behavior))


def test_generate_drafts_words_on_the_plan_and_reviews_before_writing(
    openai_stub: StubOpenAI, run_cli_json: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planned = _planned_ids()
    leaky, unusable, failing = planned[:3]
    script = Script(leaky, unusable, failing)
    openai_stub.handler = script
    monkeypatch.chdir(tmp_path)  # checkpoints and the cache stay in the temporary folder
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", openai_stub.api_key)
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "out"

    code, report = run_cli_json(
        "generate",
        "card_replace",
        "--project",
        BANK,
        "--model",
        "stub-model",
        "--out",
        out,
        "--no-cache",
        "--no-verify",  # about drafting and review; verification has test_generate_verify.py
        "--concurrency",
        "4",
    )

    assert code == 1  # one case failed
    assert report["engine"] == "llm:stub-model"
    assert [f["behavior"] for f in report["failed"]] == [failing]
    assert "invalid MantleWords output" in report["failed"][0]["error"]

    rows = {row["behavior"]: row for row in report["cases"]}
    written = set(planned) - {failing} - {d["behavior"] for d in report["duplicates"]}
    # nor the behaviours planned only to be reported (no sound case exists for them)
    written -= {d["behavior"] for d in report["dropped"] if d["reason"].startswith("not written:")}
    assert set(rows) == written and leaky in rows and unusable in rows
    for row in rows.values():
        assert row["valid"] and Path(row["path"]).is_file() and row["assertions"] >= 2

    leaky_text = Path(rows[leaky]["path"]).read_text("utf-8")
    assert "utter_order_placed" not in leaky_text.split("goals:")[0]
    # (the justification comments quote the skill's own prose, internals and all)
    said = "\n".join(line for line in leaky_text.splitlines() if not line.lstrip().startswith("#"))
    assert "@tool" not in said
    fixed = {r["code"] for r in rows[leaky]["repairs"] if r["by"] == "review"}
    assert fixed == {"review:leaky-context", "review:compound-criterion"}
    kept = next(r for r in rows[leaky]["repairs"] if r["code"] == "review:compound-criterion")
    assert kept["before"] == kept["after"] and kept["after"] in " ".join(leaky_text.split())
    unusable_text = Path(rows[unusable]["path"]).read_text("utf-8")
    assert "appropriately" not in unusable_text and "calls block_card" not in unusable_text
    assert "which detail did not match" in unusable_text

    # no draft request carries ids to copy: the path and assertions, not the definition
    assert all("<Ids>" not in r.text and "<Path>" in r.text for r in script.drafts)
    assert report["llm"]["calls"] >= len(planned)

    code, review = run_cli_json("review", out, "--project", BANK)
    assert review["summary"]["errors"] == 0
