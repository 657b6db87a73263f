"""The model's corrections to the plan: structured edits, each justified by a definition line,
kept only when they pass the justification check, validation and verification, and reported
per case with the reason for each one refused (issue 32, Deliver 1).

On the bank example's `card_replace:lost` case, against the stub model server.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
from stub_openai import RecordedRequest, Reply, StubOpenAI, ok, stub_fixture

from agentflows.cli._generate_table import print_cases
from agentflows.drafting import DraftContext
from agentflows.drafting.llm import EditRefused, LLMEngine, PlanEdit
from agentflows.drafting.llm._mantle_edits import apply_edit
from agentflows.drafting.offline import draft_mantle_scripted
from agentflows.generate._justified import lost_goal
from agentflows.planning import Behavior, plan_source
from evalcore.definitions import Project, load_project
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
SKILL = "skills/card_replace/skill.md"
TARGET = "card_replace:lost"

openai_stub = stub_fixture()


@pytest.fixture(scope="module")
def bank() -> Project:
    return load_project(BANK)


def _line(words: str) -> int:
    """The line of the skill file that holds `words` (the tests quote the file as it is)."""
    lines = (BANK / SKILL).read_text("utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if words in line)


def quote(words: str, line: int | None = None) -> dict[str, Any]:
    return {"file": SKILL, "line": line or _line(words), "quote": words}


#: A line of the skill that says what the customer wants.
WANTS = "Help the customer replace a card that is damaged, lost, stolen or never arrived."


def edit(op: str, value: Any, *, at: str = "", justification: Any = None) -> dict[str, Any]:
    return {
        "op": op,
        "target": TARGET,
        "at": at,
        "value": value,
        "justification": quote(WANTS) if justification is None else justification,
    }


def engine(stub: StubOpenAI, tmp_path: Path) -> LLMEngine:
    config = ModelConfig(
        model="stub-model",
        base_url=stub.base_url,
        api_key="stub-key",
        timeout_s=2.0,
        max_retries=0,
        retry_base_delay_s=0.001,
        cache_dir=tmp_path / "cache",
        refine_plan=True,
    )
    return LLMEngine(config, use_cache=False)


def planned(bank: Project) -> list[Behavior]:
    return plan_source(bank, "mantle", "card_replace", None).behaviors


def words_of(request: RecordedRequest) -> Reply:
    """A draft answer that keeps the planned context as the prompt shows it."""
    facts = request.text.split("<Facts>", 1)[1].split("</Facts>", 1)[0].strip()
    return ok({"name": "A lost card", "simulation_context": facts, "criteria": []})


async def refined(stub: StubOpenAI, tmp_path: Path, bank: Project, edits: list[Any]) -> Behavior:
    stub.script(ok({"behaviors": [], "edits": edits}))
    behaviors, _ = await engine(stub, tmp_path).refine_plan(
        bank, "mantle", "card_replace", planned(bank), None
    )
    return next(b for b in behaviors if b.id == TARGET)


async def test_plan_refinement_answers_with_justified_edits_on_their_behaviour(
    openai_stub: StubOpenAI, tmp_path: Path, bank: Project
) -> None:
    moved = quote(WANTS, line=3)  # the words stand on another line: the record names it
    lost = await refined(
        openai_stub,
        tmp_path,
        bank,
        [
            edit("set_intent", "want a new card after losing yours", justification=moved),
            edit("set_fact", "CARD-99817", at="card id"),
            edit(
                "add_criterion",
                "The agent says the card is blocked",
                justification=quote("The customer may order a card made of gold.", line=45),
            ),
            edit("set_fact", "yesterday", at="when", justification={}),
            {**edit("set_opener", "Hi"), "target": "card_replace:nowhere"},
            edit("rename_skill", "x"),
        ],
    )
    statuses = [(e["op"], e["status"], e.get("reason", "")) for e in lost.edits]
    assert statuses[0] == ("set_intent", "proposed", "")
    assert lost.edits[0]["justification"]["line"] == _line(WANTS)
    assert statuses[1][1] == "refused" and "not in the quoted line" in statuses[1][2]
    assert statuses[2][1] == "refused" and "does not hold the quoted words" in statuses[2][2]
    assert statuses[3][1] == "refused" and statuses[3][2].startswith("unjustified")
    assert statuses[4] == ("rename_skill", "refused", "unknown op 'rename_skill'")
    assert len(lost.edits) == 5  # the edit of no planned behaviour is on none
    # the prompt says where a quote comes from; nothing of the plan is asked back
    sent = openai_stub.requests[0].text
    assert f"<File>{SKILL}</File>" in sent and "set_fact" in sent


async def test_drafting_keeps_edits_that_pass_and_refuses_the_others_with_the_reason(
    openai_stub: StubOpenAI, tmp_path: Path, bank: Project
) -> None:
    lost = await refined(
        openai_stub,
        tmp_path,
        bank,
        [
            edit("set_intent", "want a new card after losing yours"),
            edit("set_opener", "I lost my debit card yesterday."),
            edit(
                "add_assertion",
                {"tool_executed": {"tool_name": "teleport_card", "source": "local"}},
            ),
            edit("add_criterion", "The agent names only the city of the address on file"),
            edit("remove_assertion", None, at="40"),
            edit("replace_criterion", "The agent sings a song about penguins", at="0"),
        ],
    )
    seen: list[tuple[str, str]] = []

    async def verify(before: dict[str, Any], after: dict[str, Any]) -> str | None:
        context = after["scenario"]["simulation_context"]
        seen.append((before["scenario"]["simulation_context"], context))
        failing = "I lost my debit card" in context
        return "fails verification: the reference agent fails it" if failing else None

    openai_stub.handler = words_of
    ctx = DraftContext(project=bank, dialect="mantle", behavior=lost, verify_edit=verify)
    result = await engine(openai_stub, tmp_path).draft(ctx)

    outcome = {e["op"]: (e["status"], e.get("reason", "")) for e in result.edits}
    assert outcome["set_intent"] == ("accepted", "")
    assert outcome["set_opener"] == (
        "refused",
        "fails verification: the reference agent fails it",
    )
    status, reason = outcome["add_assertion"]
    assert status == "refused" and reason.startswith("fails validation:") and "teleport" in reason
    assert outcome["add_criterion"] == ("accepted", "")
    status, reason = outcome["replace_criterion"]  # nothing in the definitions backs it
    assert status == "refused" and reason.startswith("unjustified: no definition element")
    assert (
        outcome["remove_assertion"][0] == "refused"
        and "no item 40" in outcome["remove_assertion"][1]
    )
    scenario = result.data["scenario"]
    # the accepted edits are in the case the model's words were merged into; the refused not
    assert "You want a new card after losing yours." in scenario["simulation_context"]
    assert "I lost my debit card" not in scenario["simulation_context"]
    assert "The agent names only the city of the address on file" in str(result.data)
    tools = [
        a["tool_executed"]["tool_name"]
        for a in scenario["goals"]["assertions"]
        if "tool_executed" in a
    ]
    assert "teleport_card" not in tools
    # the draft prompt shows the model the corrected plan
    draft = next(r for r in openai_stub.requests if r.schema_name == "MantleWords")
    assert "You want a new card after losing yours." in draft.text
    # a repair puts the accepted edits back, without judging them again
    kept = tuple(e for e in result.edits if e["status"] == "accepted")
    again = DraftContext(project=bank, dialect="mantle", behavior=lost, accepted_edits=kept)
    repaired = await engine(openai_stub, tmp_path).repair(again, result.data, [])
    assert "You want a new card after losing yours." in str(repaired.data)
    assert "The agent names only the city of the address on file" in str(repaired.data)


async def test_an_unjustified_assertion_is_refused(
    openai_stub: StubOpenAI, tmp_path: Path, bank: Project
) -> None:
    # a real tool, but nothing in the definitions has the lost-card case run it
    lost = await refined(
        openai_stub,
        tmp_path,
        bank,
        [
            edit(
                "add_assertion",
                {"tool_executed": {"tool_name": "order_replacement", "source": "local"}},
            )
        ],
    )
    openai_stub.handler = words_of
    result = await engine(openai_stub, tmp_path).draft(
        DraftContext(project=bank, dialect="mantle", behavior=lost)
    )
    (only,) = result.edits
    assert only["status"] == "refused"
    assert only["reason"].startswith("unjustified: the added assertion")


def generate(
    stub: StubOpenAI,
    run_cli_json: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    edits: list[dict[str, Any]],
    *options: str,
) -> tuple[int, dict[str, Any]]:
    """`casegen generate card_replace` on a copy of the bank with plan refinement on, the
    model answering `edits` to the plan and the planned context as the words."""
    project = tmp_path / "bank"
    shutil.copytree(BANK, project, ignore=shutil.ignore_patterns("eval"))
    (project / "casegen.toml").write_text("refine_plan = true\n", "utf-8")

    def answer(request: RecordedRequest) -> Reply:
        if request.schema_name == "RefinedPlan":
            return ok({"behaviors": [], "edits": edits})
        return words_of(request)

    stub.handler = answer
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", stub.api_key)
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "out"
    model = ("--model", "stub-model", "--out", str(out), "--no-cache")
    return run_cli_json("generate", "card_replace", "--project", project, *model, *options)


def test_generate_verifies_each_edit_and_reports_it_per_case(
    openai_stub: StubOpenAI,
    run_cli_json: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    neutral = edit("set_intent", "want a new card after losing yours")
    # the reason changes the case's path: the reference agent no longer blocks the card
    wrong = edit("set_fact", "damaged", at="what happened to the card")
    code, report = generate(
        openai_stub, run_cli_json, tmp_path, monkeypatch, [neutral, wrong], "--count", "1"
    )
    rows = {row["behavior"]: row for row in report["cases"]}
    assert TARGET in rows, report
    edits = rows[TARGET]["edits"]
    assert [(e["op"], e["status"]) for e in edits] == [
        ("set_intent", "accepted"),
        ("set_fact", "refused"),
    ]
    assert edits[1]["reason"].startswith("fails verification:")
    assert edits[0]["justification"]["quote"] == WANTS
    text = Path(rows[TARGET]["path"]).read_text("utf-8")
    assert "You want a new card after losing yours." in text
    assert "what happened to the card: lost" in text
    assert code == 0
    capsys.readouterr()
    print_cases(report)  # the plain output says it too
    out = " ".join(capsys.readouterr().out.split())
    assert "plan edits: 1 accepted, 1 refused" in out
    assert f"refused edit {TARGET} set_fact: fails verification: dropped" in out


def test_an_edit_never_takes_what_the_case_is_for(
    openai_stub: StubOpenAI,
    run_cli_json: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bank: Project,
) -> None:
    # a planned case with an assertion its goal rests on alone (review's `lost_goal`)
    behavior, index = next(
        (behavior, index)
        for behavior in planned(bank)
        if not behavior.facts.get("not_written")
        for document in [draft_mantle_scripted(DraftContext(bank, "mantle", behavior))[0]]
        for index in range(len(document["scenario"]["goals"]["assertions"]))
        if lost_goal(document, _without(document, index), bank)
    )
    removal = {**edit("remove_assertion", None, at=str(index)), "target": behavior.id}
    # the goal is weighed whether or not the run verifies
    options = ("--types", behavior.type, "--no-verify")
    _, report = generate(openai_stub, run_cli_json, tmp_path, monkeypatch, [removal], *options)
    rows = {row["behavior"]: row for row in [*report["cases"], *report["dropped"]]}
    (only,) = rows[behavior.id]["edits"]
    assert only["status"] == "refused"
    assert only["reason"].startswith("turns the case into another one")


def _without(document: dict[str, Any], index: int) -> dict[str, Any]:
    out = copy.deepcopy(document)
    del out["scenario"]["goals"]["assertions"][index]
    return out


async def test_the_draft_answer_may_correct_the_case_it_was_shown(
    openai_stub: StubOpenAI, tmp_path: Path, bank: Project
) -> None:
    lost = next(b for b in planned(bank) if b.id == TARGET)
    shown: list[str] = []

    def answer(request: RecordedRequest) -> Reply:
        criteria = request.text.split("<Criteria>", 1)[1].split("</Criteria>", 1)[0]
        shown.extend(line[2:] for line in criteria.splitlines() if line.startswith("- "))
        reply = words_of(request)
        reply.value["edits"] = [
            {**edit("remove_criterion", None, at="0"), "target": "anything"},
            edit("set_fact", "C-99999999", at="customer number"),
        ]
        return reply

    openai_stub.handler = answer
    result = await engine(openai_stub, tmp_path).draft(
        DraftContext(project=bank, dialect="mantle", behavior=lost)
    )
    removed, invented = result.edits
    assert removed["status"] == "accepted" and removed["target"] == TARGET
    assert invented["status"] == "refused" and "not in the quoted line" in invented["reason"]
    criteria = result.data["scenario"]["goals"]["criteria"]
    assert shown and shown[0] not in criteria and criteria == shown[1:]
    assert "C-99999999" not in str(result.data)


def test_a_context_edit_sets_its_line_and_keeps_every_other_line() -> None:
    context = (
        "You are Ana, calm.\n"
        "You want to replace a card.\n"
        'Open with: "Hello."\n'
        "If the agent suggests finishing first, say no.\n"
        "What you know (share each only when the agent asks):\n"
        "- postcode: 94110\n"
        "When the agent asks whether there is anything else, say no.\n"
    )
    document = {"scenario": {"type": "happy_path", "simulation_context": context, "goals": {}}}

    def applied(op: str, value: str, at: str = "") -> str:
        made = apply_edit(document, PlanEdit(op=op, target=TARGET, at=at, value=value))
        return made["scenario"]["simulation_context"]

    fact = applied("set_fact", "Everyday Debit", at="which card")
    assert fact == context.replace(
        "- postcode: 94110\n", "- postcode: 94110\n- which card: Everyday Debit\n"
    )
    assert applied("set_fact", "94117", at="Postcode") == context.replace("94110", "94117")
    assert applied("set_opener", 'My card is "gone".') == context.replace(
        '"Hello."', "\"My card is 'gone'.\""
    )
    assert applied("set_intent", "You want a new card.") == context.replace(
        "want to replace a card", "want a new card"
    )
    with pytest.raises(EditRefused, match="not an id"):
        applied("set_fact", "stolen", at="card_replace.replacement_reason")
    with pytest.raises(EditRefused, match="adversarial"):
        apply_edit(
            {"scenario": {**document["scenario"], "type": "adversarial"}},
            PlanEdit(op="set_opener", target=TARGET, value="Hi"),
        )


async def test_an_assertion_the_definitions_back_is_never_taken_back(bank: Project) -> None:
    """The model may remove an assertion the definitions leave to chance, never one they make
    certain (enforced or instructed): every correct agent produces that one."""
    from agentflows.drafting.llm import _edits, _mantle_edits
    from evalcore.dialects import get_dialect

    behavior = next(b for b in planned(bank) if b.id == TARGET)
    document = draft_mantle_scripted(DraftContext(bank, "mantle", behavior))[0]
    judged = {
        j.path: j
        for j in get_dialect("mantle").justify(document, bank)
        if j.top and "/assertions/" in j.path
    }
    backed = next(int(p.rsplit("/", 1)[1]) for p, j in judged.items() if j.assertable)
    removal = {**edit("remove_assertion", None, at=str(backed)), "target": behavior.id}
    proposing = behavior.model_copy(update={"edits": [removal]})
    kept, (outcome,) = await _edits.apply_edits(bank, "mantle", proposing, _mantle_edits, document)
    assert outcome["status"] == "refused"
    assert outcome["reason"].startswith("the definitions back the removed assertion")
    assert kept == document


def test_the_plan_view_shows_each_fact_once(bank: Project) -> None:
    """A value two of a behaviour's fact mappings hold (the choice, and the values given up
    front) is shown once: the model read it twice as two facts."""
    from agentflows.drafting.llm._plan import plan_view

    behavior = planned(bank)[0]
    doubled = behavior.model_copy(
        update={"facts": {"values": {"card.kind": "lost"}, "given": {"card.kind": "lost"}}}
    )
    assert plan_view([doubled]).count("card.kind=lost") == 1
