"""The skill model: what casegen understands of one skill, read from blocks, prose and
frontmatter of projects shaped like the ones other people write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from skill_model_fixtures import INSURANCE, TASKS, generate_offline, write_project

from evalcore.definitions import load_project
from evalcore.definitions.skill_model import SkillModel, build_skill_model, skill_model
from evalcore.errors import UserError

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


@pytest.fixture
def insurance(tmp_path: Path):
    return load_project(write_project(tmp_path / "insurance", INSURANCE))


@pytest.fixture
def tasks(tmp_path: Path):
    return load_project(write_project(tmp_path / "tasks", TASKS))


def test_a_tool_the_prose_calls_after_the_block_is_the_skills_success(insurance) -> None:
    model = skill_model(insurance, "file_claim")
    submit = model.tool("submit_claim")
    assert submit is not None and submit.terminal and submit.gated
    call = next(c for c in submit.calls if c.kind == "prose")
    assert call.trigger == "When details_verified is true"
    assert call.condition == "session.file_claim.details_verified"
    assert call.where is not None and call.where.line is not None
    assert (
        "submit_claim"
        in (INSURANCE["skills/file_claim/skill.md"].splitlines()[call.where.line - 1])
    )
    assert submit.gate is not None
    assert submit.gate.utter_on_user_denial == "utter_claim_not_filed"
    assert submit.gate.requires_keys == ["file_claim.details_verified"]
    assert [w.key for w in submit.writes] == ["file_claim.claim_id"]
    assert submit.error_results, "the docstring documents an error result"
    kinds = {(s.kind, s.name) for s in model.success}
    assert ("tool", "submit_claim") in kinds
    assert ("memory", "file_claim.claim_id") in kinds
    assert ("response", "utter_claim_filed") in kinds
    assert ("skill_completed", "file_claim") in kinds
    verify = model.tool("verify_details")
    assert verify is not None and not verify.terminal
    assert [w.value for w in verify.writes] == [True]


def test_fields_carry_question_format_explanations_and_instruction_scope(insurance) -> None:
    model = skill_model(insurance, "file_claim")
    claim_type = model.field("file_claim.claim_type")
    assert claim_type is not None
    assert claim_type.question == "Is this about your car or your home?"
    assert claim_type.question_source == "utterance"
    assert claim_type.explained == {"car": "a vehicle accident", "homeowner": "damage to the house"}
    date = model.field("file_claim.incident_date")
    assert date is not None and date.format == "MM/DD/YYYY" and date.condition is None
    assert date.question == "Ask for the incident date."
    where = model.field("file_claim.incident_location")
    assert where is not None and where.condition == 'session.file_claim.claim_type == "car"'
    branch = next(b for b in model.branches if b.kind == "instruction_if")
    assert branch.step == "ask_incident" and branch.keys == ["file_claim.claim_type"]


def test_rules_delegations_and_json(insurance) -> None:
    model = skill_model(insurance, "file_claim")
    assert [r.text for r in model.rules] == ["Never disclose another policyholder's claim history."]
    assert [(d.kind, d.target) for d in model.delegations] == [("mention", "human_handoff")]
    dumped = json.loads(json.dumps(model.model_dump(mode="json")))
    assert SkillModel.model_validate(dumped) == model


def test_modes_are_read_across_if_lines_with_the_tools_each_mode_runs(tasks) -> None:
    model = skill_model(tasks, "manage_tasks")
    mode = model.mode("manage_tasks.mode")
    assert mode is not None
    assert {v.value: v.tools for v in mode.values} == {
        "list": ["list_tasks"],
        "update": ["update_task"],
        "file": ["create_task"],
    }
    create = model.tool("create_task")
    assert create is not None and create.calls[0].kind == "block_tools"
    signals = {s.name: s.condition for s in model.success if s.kind == "tool"}
    assert signals == {
        "list_tasks": "session.manage_tasks.mode == 'list'",
        "update_task": "session.manage_tasks.mode == 'update'",
        "create_task": "session.manage_tasks.mode == 'file'",
    }
    asked = model.field("manage_tasks.mode")
    assert asked is not None and asked.asked_by == "prose"
    assert any(u.what == "completion" for u in model.uncertainties)


def test_bank_modes_and_negated_mentions() -> None:
    project = load_project(BANK)
    model = skill_model(project, "card_replace")
    mode = model.mode("card_replace.replacement_reason")
    assert mode is not None
    by_value = {v.value: v.tools for v in mode.values}
    assert by_value["damaged"] == ["order_replacement"]
    assert by_value["stolen"] == ["place_replacement_order"]
    assert {t.name for t in model.terminal_tools()} == {
        "order_replacement",
        "place_replacement_order",
    }
    lookup = model.tool("lookup_customer")
    assert lookup is not None and lookup.calls[0].condition == "not session.project.customer_id"


def test_unknown_tool_words_become_uncertainties(tmp_path: Path) -> None:
    files = dict(INSURANCE)
    files["skills/file_claim/skill.md"] = files["skills/file_claim/skill.md"].replace(
        "Run @block.collect_details.", "Run @block.collect_details, then call notify_adjuster."
    )
    project = load_project(write_project(tmp_path / "p", files))
    model = build_skill_model(project, "file_claim")
    found = [u for u in model.uncertainties if "notify_adjuster" in u.what]
    assert found and found[0].where.line is not None


def test_model_is_built_once_per_project_and_unknown_skills_fail(insurance) -> None:
    assert skill_model(insurance, "file_claim") is skill_model(insurance, "file_claim")
    with pytest.raises(UserError, match="no Mantle skill"):
        skill_model(insurance, "file_clam")


def test_sources_explain_prints_the_model(tmp_path: Path, run_cli, run_cli_json) -> None:
    root = write_project(tmp_path / "insurance", INSURANCE)
    code, out, _ = run_cli("sources", "--project", root, "--explain", "file_claim")
    assert code == 0
    for expected in (
        "submit_claim",
        "terminal",
        "confirmation-gated",
        'when session.file_claim.details_verified ("When details_verified is true")',
        "denial: utter_claim_not_filed",
        "format: MM/DD/YYYY",
        "car (a vehicle accident)",
        "skill_completed file_claim",
        "Never disclose another policyholder's claim history.",
    ):
        assert expected in out, expected
    code, payload = run_cli_json("sources", "--project", root, "--explain", "file_claim")
    assert code == 0 and payload["skill"] == "file_claim"
    assert [t["name"] for t in payload["tools"] if t["terminal"]] == ["submit_claim"]
    code, _, err = run_cli("sources", "--project", root, "--explain", "file_clam")
    assert code != 0 and "did you mean 'file_claim'" in err


def test_same_case_goes_by_path_first() -> None:
    from evalcore.dedupe import fingerprint, same_case
    from evalcore.dialects import get_dialect

    mantle = get_dialect("mantle")
    case = {
        "scenario": {
            "type": "happy_path",
            "simulation_context": "You want to file a claim for your car.",
            "goals": {"assertions": [{"skill_activated": {"skill_id": "file_claim"}}]},
        }
    }
    reworded = json.loads(json.dumps(case))
    reworded["scenario"]["simulation_context"] = "You want to file a claim for your car, please."
    a, b = fingerprint(case, mantle), fingerprint(reworded, mantle)
    assert same_case(a, b)  # no paths known: facts and words decide
    assert not same_case(a, b, path_a="car", path_b="homeowner")
    assert same_case(a, b, path_a="car", path_b="car")
    assert same_case(a, b, path_a="car")  # a committed file with exactly the same facts
    other = json.loads(json.dumps(case))
    other["scenario"]["goals"]["assertions"].append({"skill_completed": {"skill_id": "file_claim"}})
    assert not same_case(a, fingerprint(other, mantle), path_a="car")


@pytest.mark.parametrize(
    "words",
    [
        "from its `status` field",
        "from it",
        "from transfer_to_agent",
        "from @tool.transfer_to_agent",
    ],
)
def test_a_field_set_from_the_tools_answer_is_not_asked_of_the_user(
    tmp_path: Path, words: str
) -> None:
    """ "Hand over with @tool.x and set queue_state from its `status` field": the value is the
    tool's answer, known only once it ran, so no walk asks the user for it before the call."""
    files = _from_answer(words)
    project = load_project(write_project(tmp_path / "p", files))
    model = build_skill_model(project, "human_handoff")
    asked = model.field("human_handoff.queue_state")
    assert asked is None or asked.asked_by not in ("prose", "request")
    files["skills/human_handoff/skill.md"] = files["skills/human_handoff/skill.md"].replace(
        f"set queue_state {words}", "ask which queue they want (set queue_state)"
    )
    project = load_project(write_project(tmp_path / "q", files))
    asked = build_skill_model(project, "human_handoff").field("human_handoff.queue_state")
    assert asked is not None and asked.asked_by == "prose"  # the user's answer: still asked


def _from_answer(words: str) -> dict[str, str]:
    """The insurance project whose hand-off sets `queue_state` from the transfer's answer."""
    files = dict(INSURANCE)
    files["skills/human_handoff/skill.md"] = files["skills/human_handoff/skill.md"].replace(
        "with @tool.transfer_to_agent.",
        f"with @tool.transfer_to_agent and set queue_state {words}.",
    )
    files["skills/human_handoff/memory.yml"] = (
        "schema:\n  public:\n    transferred: {type: bool}\n"
        "    queue_state:\n      type: categorical\n      enum_values: [waiting, connected]\n"
        "      llm_settable: true\n"
    )
    return files


def test_the_user_is_given_no_fact_for_a_value_the_tools_answer_sets(tmp_path: Path) -> None:
    """The simulated user cannot know what the tool will answer: no case lists it among
    what the user knows (an agent would never ask for it)."""
    root = write_project(tmp_path / "p", _from_answer("from its `status` field"))
    report = generate_offline(root, ["human_handoff"], tmp_path / "out")
    assert report["cases"]
    for row in report["cases"]:
        text = Path(row["path"]).read_text("utf-8")
        assert "queue state" not in text.lower() and "queue_state:" not in text


def test_an_instructions_step_that_sets_a_field_from_a_later_tool_does_not_ask_it() -> None:
    """ "Set fare_difference_usd from search_alternatives for the flight they pick", in the
    step before the search: the difference is the search's answer, which a passenger cannot
    know, so no walk asks it there. The bracketed "Ask how late the flight is now (set
    delay_minutes from get_flight_status)" is read the same way: the value is the status
    lookup's, which no case fixes, so no walk takes it from the passenger either."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "skyway_air")
    model = build_skill_model(project, "rebook_flight")
    fare = model.field("rebook_flight.fare_difference_usd")
    assert fare is None or fare.asked_by != "instructions"
    delay = model.field("rebook_flight.delay_minutes")
    assert delay is None or delay.asked_by != "instructions"


def test_a_branch_that_sets_a_field_to_a_quoted_value_asks_nobody_for_it() -> None:
    """ "if: severity is sev3 or sev4 … Do not ask about impact. Set customer_impact to "none
    reported"": on that branch the model writes the value; the user was told an impact of
    "~30% of checkouts fail" beside a sev3, which no sev3 has."""
    from agentflows.drafting.offline._mantle_script import build_script
    from agentflows.planning import plan_source
    from evalcore.definitions.skill_model import literal_sets

    said = literal_sets('if: @memory.s.level == "low"\nSkip it. Set impact to "none reported".')
    assert said == [("impact", "none reported", 'session.s.level == "low"')]
    project = load_project(Path(__file__).parent / "data" / "corpus" / "forge_platform")
    plan = plan_source(project, "mantle", "incidents", None)
    seen = set()
    for slot, behavior in enumerate(plan.behaviors):
        if behavior.type != "happy_path":
            continue
        script = build_script(project, behavior, slot=slot)
        severity = script.walk.memory.get("incidents.severity")
        told = [f for f in script.sheet.facts if f.field == "incidents.customer_impact"]
        if severity in ("sev3", "sev4"):
            assert not told, behavior.id
            assert script.walk.memory.get("incidents.customer_impact") == "none reported"
        elif severity in ("sev1", "sev2"):
            assert told, behavior.id  # on the other branch the agent still asks
        seen.add(severity)
    assert "sev3" in seen and "sev1" in seen
