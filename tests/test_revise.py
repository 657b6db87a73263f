"""`revise`: a case revised from a reviewer's comment by the model, validated and repaired.

The library function runs against a scripted fake chat model; the CLI runs end to end
against the stub OpenAI server (the real ChatOpenAI client).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from stub_openai import StubOpenAI, ok, stub_fixture
from test_review_support import BANK, SCENARIOS, as_edits, bank_case, fake_model

from agentflows.review import MAX_MODEL_REPAIR_ROUNDS, ReviseError, revise_case
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

openai_stub = stub_fixture()
MANTLE = get_dialect("mantle")
COMMENT = "Make it a happy path and pin the shipping method to standard."


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


def revised_damaged(**changes: Any) -> dict[str, Any]:
    case = bank_case("card_replace_damaged")
    case["scenario"]["type"] = "happy_path"
    case["scenario"]["goals"]["assertions"][2]["tool_executed"]["arguments"] = {
        "shipping": "standard"
    }
    for pointer, value in changes.items():
        node = case
        *parents, last = pointer.split("/")
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[int(last) if isinstance(node, list) else last] = value
    return case


def _tool(case: dict[str, Any]) -> dict[str, Any]:
    return case["scenario"]["goals"]["assertions"][2]["tool_executed"]


# --- revise_case ----------------------------------------------------------------------------


#: What a model answers for COMMENT: two edits, never the case re-typed.
EDITS = {
    "edits": [
        {"op": "set", "path": "/scenario/type", "value": "happy_path"},
        {
            "op": "set",
            "path": "/scenario/goals/assertions/2/tool_executed/arguments",
            "value": {"shipping": "standard"},
        },
    ]
}


async def test_revision_applies_the_scripted_change(bank) -> None:
    model = fake_model(EDITS)
    revision = await revise_case(
        model,
        data=bank_case("card_replace_damaged"),
        dialect=MANTLE,
        comment=COMMENT,
        project=bank,
        path=SCENARIOS / "card_replace_damaged.yml",
    )
    assert revision.valid and revision.data == revised_damaged()
    assert revision.model_rounds == 0 and revision.usage.calls == 1
    prompt = model.chat_model.prompts[0]
    assert COMMENT in prompt
    assert "Customer replaces a damaged card" in prompt  # the case
    assert "Help the customer replace a card" in prompt  # the skill definition
    assert "order_replacement" in prompt  # the real ids
    assert "One behaviour per scenario" in prompt  # the conventions
    assert "{{" not in prompt
    assert "JSON Pointer" in prompt  # asked for edits


async def test_an_edit_that_cannot_be_applied_gets_a_round(bank) -> None:
    lost = {"edits": [{"op": "set", "path": "/scenario/goals/assertions/40/x", "value": 1}]}
    model = fake_model(lost, EDITS)
    revision = await revise_case(
        model, data=bank_case("card_replace_damaged"), dialect=MANTLE, comment=COMMENT, project=bank
    )
    assert revision.valid and revision.model_rounds == 1 and revision.data == revised_damaged()
    assert "revise-edit" in model.chat_model.prompts[1]


async def test_invalid_revision_is_repaired_by_the_rules(bank) -> None:
    answer = revised_damaged()
    answer["scenario"]["goals"]["assertions"][1]["memory_was_set"][0]["value"] = "Damaged"
    _tool(answer)["tool_name"] = "order_replacment"
    revision = await revise_case(
        fake_model(as_edits(answer)),
        data=bank_case("card_replace_damaged"),
        dialect=MANTLE,
        comment=COMMENT,
        project=bank,
    )
    assert revision.valid and revision.model_rounds == 0
    assert revision.data == revised_damaged()
    assert {r["by"] for r in revision.repairs} == {"rules"} and len(revision.repairs) == 2


async def test_invalid_revision_gets_a_model_repair_round(bank) -> None:
    wrong = revised_damaged()
    _tool(wrong)["tool_name"] = "teleport_card"  # nothing close: rules cannot fix it
    # the second round fixes the finding on the earlier revision it is shown
    fix = {"op": "set", "path": "/scenario/goals/assertions/2/tool_executed/tool_name"}
    model = fake_model(
        as_edits(wrong), {"edits": [fix | {"value": _tool(revised_damaged())["tool_name"]}]}
    )
    revision = await revise_case(
        model, data=bank_case("card_replace_damaged"), dialect=MANTLE, comment=COMMENT, project=bank
    )
    assert revision.valid and revision.model_rounds == 1 and revision.usage.calls == 2
    assert revision.data == revised_damaged()
    second = model.chat_model.prompts[1]
    assert "unknown-tool" in second and "teleport_card" in second and COMMENT in second
    assert revision.repairs[-1]["by"] == "model"


async def test_revision_still_invalid_is_reported(bank) -> None:
    wrong = revised_damaged()
    _tool(wrong)["tool_name"] = "teleport_card"
    model = fake_model(*[as_edits(wrong)] * (MAX_MODEL_REPAIR_ROUNDS + 1))
    revision = await revise_case(
        model, data=bank_case("card_replace_damaged"), dialect=MANTLE, comment=COMMENT, project=bank
    )
    assert not revision.valid and revision.model_rounds == MAX_MODEL_REPAIR_ROUNDS
    assert [f.code for f in revision.findings if f.severity == "error"] == ["unknown-tool"]
    assert revision.usage.calls == MAX_MODEL_REPAIR_ROUNDS + 1


async def test_model_failure_raises(bank) -> None:
    with pytest.raises(ReviseError, match="did not revise"):
        await revise_case(
            fake_model("{not json"),
            data=bank_case("card_replace_damaged"),
            dialect=MANTLE,
            comment=COMMENT,
            project=bank,
        )


# --- the CLI ----------------------------------------------------------------------------------


@pytest.fixture
def case_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("CASEGEN_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    target = tmp_path / "card_replace_damaged.yml"
    shutil.copy(SCENARIOS / "card_replace_damaged.yml", target)
    return target


@pytest.fixture
def stub_model(openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch) -> StubOpenAI:
    monkeypatch.setenv("CASEGEN_MODEL", "stub-model")
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "stub-key")
    return openai_stub


def test_no_model_exits_2(case_file: Path, run_cli) -> None:
    code, out, err = run_cli("revise", case_file, "--comment", COMMENT, "--project", BANK)
    assert code == 2 and out == ""
    assert "revise needs a model: set CASEGEN_MODEL or pass --model" in err


def test_yes_writes(case_file: Path, stub_model: StubOpenAI, run_cli) -> None:
    stub_model.script(ok(EDITS))
    code, out, _ = run_cli(
        "revise",
        case_file,
        "--comment",
        COMMENT,
        "--project",
        BANK,
        "--yes",
        "--json",
        "--no-cache",
    )
    assert code == 0
    payload = json.loads(out)
    assert set(payload) >= {"path", "diff", "written", "valid", "findings", "usage"}
    assert payload["written"] is True and payload["valid"] is True
    assert "+  type: happy_path" in payload["diff"]
    assert payload["usage"]["calls"] == 1
    assert yaml.safe_load(case_file.read_text("utf-8")) == revised_damaged()
    assert COMMENT in stub_model.requests[0].text


def test_without_yes_and_no_terminal_nothing_is_written(
    case_file: Path, stub_model: StubOpenAI, run_cli
) -> None:
    before = case_file.read_text("utf-8")
    stub_model.script(ok(EDITS))
    code, out, _ = run_cli(
        "revise", case_file, "--comment", COMMENT, "--project", BANK, "--no-cache"
    )
    assert code == 0
    assert "type: happy_path" in out  # the diff is shown
    assert "not written" in out and "--yes" in out
    assert case_file.read_text("utf-8") == before


def test_invalid_revision_is_never_written(
    case_file: Path, stub_model: StubOpenAI, run_cli
) -> None:
    before = case_file.read_text("utf-8")
    wrong = revised_damaged()
    _tool(wrong)["tool_name"] = "teleport_card"
    stub_model.script(*[ok(as_edits(wrong))] * (MAX_MODEL_REPAIR_ROUNDS + 1))
    code, out, _ = run_cli(
        "revise",
        case_file,
        "--comment",
        COMMENT,
        "--project",
        BANK,
        "--yes",
        "--json",
        "--no-cache",
    )
    assert code == 1
    payload = json.loads(out)
    assert payload["valid"] is False and payload["written"] is False
    assert [f["code"] for f in payload["findings"]] == ["unknown-tool"]
    assert payload["findings"][0]["line"] is not None
    assert case_file.read_text("utf-8") == before
