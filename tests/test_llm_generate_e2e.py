"""`casegen generate` end to end with the LLM engine against the stub server.

Of the planned `card_replace` behaviours, the first is drafted with a schema error (fixed by
deterministic repair), the second names a tool that does not exist and has no close match
(fixed by a model repair round), and the third always gets invalid JSON (reported failed);
every other case is valid at once. The run must write all cases but the failed one.
"""

from __future__ import annotations

import json
import re
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


def _case(
    behavior: dict[str, Any],
    *,
    tool: str = "place_replacement_order",
    memory: str = "card_replace.replacement_reason",
) -> dict[str, Any]:
    """A valid, distinct scenario for `behavior` (its id makes the assertions unique)."""
    return {
        "scenario": {
            "name": behavior["title"],
            "type": behavior["type"],
            "simulation_context": (
                f"You are a customer ({behavior['id']}). {behavior['description']} "
                '1. Say: "I need a new card" 2. Stop once the agent answers.'
            ),
            "goals": {
                "criteria": [f"The agent handles this: {behavior['title']}"],
                "assertions": [
                    {"skill_activated": {"skill_id": "card_replace"}},
                    {"memory_was_set": [{"name": memory}]},
                    {"tool_executed": {"tool_name": tool, "source": "local"}},
                    {"bot_did_not_utter": {"text_matches": re.escape(behavior["id"])}},
                ],
            },
        }
    }


class Script:
    """Answers plan, draft and repair requests; the fault depends on the behaviour."""

    def __init__(self, schema_error: str, bad_tool: str, failing: str) -> None:
        self.schema_error, self.bad_tool, self.failing = schema_error, bad_tool, failing
        self.repairs: list[RecordedRequest] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        if request.schema_name == "RefinedPlan":
            return ok({"behaviors": []})  # keep the plan as it is
        behavior = _behavior(request)
        if "<Findings>" in request.text:
            self.repairs.append(request)
            return ok(_case(behavior))
        if behavior["id"] == self.failing:
            return invalid_json()
        if behavior["id"] == self.schema_error:
            return ok(_case(behavior, memory="session.card_replace.replacement_reason"))
        if behavior["id"] == self.bad_tool:
            return ok(_case(behavior, tool="teleport_card"))
        return ok(_case(behavior))


def test_generate_repairs_what_it_can_and_reports_the_rest(
    openai_stub: StubOpenAI, run_cli_json: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planned = _planned_ids()
    schema_error, bad_tool, failing = planned[:3]
    script = Script(schema_error, bad_tool, failing)
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
        "--concurrency",
        "4",
    )

    assert code == 1  # one case failed
    assert report["engine"] == "llm:stub-model"
    assert [f["behavior"] for f in report["failed"]] == [failing]
    assert "invalid MantleCase output" in report["failed"][0]["error"]

    rows = {row["behavior"]: row for row in report["cases"]}
    written = set(planned) - {failing} - {d["behavior"] for d in report["duplicates"]}
    assert set(rows) == written and schema_error in rows and bad_tool in rows
    for row in rows.values():
        assert row["valid"] and Path(row["path"]).is_file()

    by_rules = [r for r in rows[schema_error]["repairs"] if r["by"] == "rules"]
    assert by_rules and by_rules[0]["after"] == "card_replace.replacement_reason"
    assert any(r["by"] == "model" for r in rows[bad_tool]["repairs"])
    assert not rows[planned[3]]["repairs"]

    # the model repair round was told what to fix
    assert len(script.repairs) == 1
    findings = script.repairs[0].text
    assert "unknown-tool" in findings and "teleport_card" in findings
    assert report["llm"]["calls"] >= len(planned) + 1
