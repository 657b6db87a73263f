"""The seven suite figures, each moved by a hand-made suite against examples/bank."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from agentflows.scoring import score_suite_sync
from agentflows.scoring._duplicates import near_duplicate_pairs
from agentflows.scoring._rasa import rasa_problems
from agentflows.scoring.filler import bad_lines, user_words
from evalcore.definitions import load_project

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
ACTIVATED = {"skill_activated": {"skill_id": "card_replace"}}
ORDERED = {
    "tool_executed": {"tool_name": "place_replacement_order", "source": "local", "is_error": False}
}
DENIED = {"bot_uttered": {"utter_name": "utter_order_not_placed"}}


def scenario(
    name: str,
    type_: str,
    assertions: list[Any],
    context: str = "You are a customer whose card was lost. Ask for a new one, then stop.",
    **goals: Any,
) -> dict[str, Any]:
    return {
        "scenario": {
            "name": name,
            "type": type_,
            "simulation_context": context,
            "goals": {"assertions": assertions, **goals},
        }
    }


def write_suite(folder: Path, cases: dict[str, dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for stem, data in cases.items():
        (folder / f"{stem}.yml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return folder


def figures(folder: Path, project: Path = BANK, **options: Any) -> dict[str, Any]:
    return score_suite_sync([folder], project, **options).to_json()["figures"]


# --- 1. happy paths asserting success ----------------------------------------------------


def test_happy_path_asserting_the_order_counts(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED, ORDERED])})
    assert figures(suite)["happy"]["value"] == 1.0


def test_a_success_left_to_the_judge_counts_only_where_a_criterion_names_its_tool(
    tmp_path: Path,
) -> None:
    """Where the case cannot fix whether the success comes (an outside list, the clock), the
    drafter says it as a criterion naming the success tool: that path asserts its success;
    one whose criterion names no success tool does not."""
    judged = "If the customer confirms, the agent goes on to place_replacement_order"
    suite = write_suite(
        tmp_path / "s",
        {
            "a": scenario("a", "happy_path", [ACTIVATED], criteria=[judged]),
            "b": scenario("b", "happy_path", [ACTIVATED], criteria=["The agent is polite"]),
        },
    )
    scored = figures(suite)
    assert scored["happy"]["missed"] == [str(suite / "b.yml")], scored["happy"]
    assert scored["decisive"]["missed"] == [str(suite / "b.yml")], scored["decisive"]


def test_happy_path_asserting_the_tool_key_unset_scores_zero(tmp_path: Path) -> None:
    not_ordered = {"memory_was_not_set": [{"name": "card_replace.order_id"}]}
    suite = write_suite(
        tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED, ORDERED, not_ordered])}
    )
    happy = figures(suite)["happy"]
    assert happy["value"] == 0.0
    assert happy["missed"] == [str(suite / "a.yml")]


def test_unset_key_of_a_tool_on_another_branch_is_no_contradiction(tmp_path: Path) -> None:
    # block_card runs only for lost/stolen cards; a damaged card's happy path may say so.
    not_blocked = {"memory_was_not_set": [{"name": "card_replace.card_blocked"}]}
    suite = write_suite(
        tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED, ORDERED, not_blocked])}
    )
    assert figures(suite)["happy"]["value"] == 1.0


@pytest.mark.parametrize(
    ("assertions", "expected"),
    [
        ([ACTIVATED], 0.0),
        ([ACTIVATED, {"bot_uttered": {"utter_name": "utter_order_placed"}}], 1.0),
        ([ACTIVATED, {"skill_completed": {"skill_id": "card_replace"}}], 1.0),
        ([ACTIVATED, {"skill_completed": {"skill_id": "check_balance"}}], 0.0),
        # a lookup on the way is no success: the path may stop before the order
        ([ACTIVATED, {"tool_executed": {"tool_name": "list_cards", "is_error": False}}], 0.0),
        # what complete_when waits for, written
        ([ACTIVATED, {"memory_was_set": [{"name": "card_replace.order_id", "value": "R-1"}]}], 1.0),
        ([ACTIVATED, {"memory_was_set": [{"name": "card_replace.order_id"}]}], 0.0),
        (
            [
                ACTIVATED,
                {"tool_executed": {"tool_name": "place_replacement_order", "is_error": True}},
            ],
            0.0,
        ),
        (
            [
                ACTIVATED,
                ORDERED,
                {"bot_did_not_utter": {"utter_name": "utter_order_placed"}},
            ],
            0.0,
        ),
    ],
)
def test_success_signals_and_contradictions(
    tmp_path: Path, assertions: list[Any], expected: float
) -> None:
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", assertions)})
    assert figures(suite)["happy"]["value"] == expected


# --- 2. refused confirmations ------------------------------------------------------------


def test_refused_confirmation_covers_each_gated_tool(tmp_path: Path) -> None:
    happy = scenario("a", "happy_path", [ACTIVATED, ORDERED])
    refused = scenario("b", "edge_case", [ACTIVATED, DENIED])
    with_refusal = figures(write_suite(tmp_path / "yes", {"a": happy, "b": refused}))["refusal"]
    without = figures(write_suite(tmp_path / "no", {"a": happy}))["refusal"]
    assert (with_refusal["value"], with_refusal["counted"]) == (1.0, 2)
    assert without["value"] == 0.0
    assert sorted(without["missed"]) == [
        "card_replace/order_replacement",
        "card_replace/place_replacement_order",
    ]


def test_a_refusal_without_the_gates_own_responses_counts(tmp_path: Path) -> None:
    """An agent may ask in its own words before it calls a gated tool, and a decline there
    never reaches the gate: the order's success left out shows the refusal."""
    unsaid = {"bot_did_not_utter": {"utter_name": "utter_order_placed"}}
    refused = scenario("b", "edge_case", [ACTIVATED, unsaid])
    refusal = figures(write_suite(tmp_path / "s", {"b": refused}))["refusal"]
    assert refusal["value"] == 1.0


def test_refusal_that_also_asserts_the_order_does_not_count(tmp_path: Path) -> None:
    both = scenario("b", "edge_case", [ACTIVATED, DENIED, ORDERED])
    refusal = figures(write_suite(tmp_path / "s", {"b": both}))["refusal"]
    assert refusal["missed"] == ["card_replace/place_replacement_order"]
    assert refusal["passed"] == 1  # order_replacement's refusal still stands


def test_gates_of_skills_without_cases_count_only_when_asked(tmp_path: Path) -> None:
    balance = {"skill_activated": {"skill_id": "check_balance"}}
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", [balance])})
    assert figures(suite)["refusal"]["value"] is None
    everything = figures(suite, skills=["card_replace", "check_balance"])
    assert everything["refusal"]["value"] == 0.0


# --- 3. decisive -------------------------------------------------------------------------


def test_decisive_counts_goal_directed_cases_only(tmp_path: Path) -> None:
    suite = write_suite(
        tmp_path / "s",
        {
            "a": scenario("a", "happy_path", [ACTIVATED, ORDERED]),
            "b": scenario("b", "edge_case", [ACTIVATED]),
            "c": scenario("c", "out_of_scope", [ACTIVATED]),
            "d": scenario("d", "sad_path", [{"sequencing": [ACTIVATED]}]),
        },
    )
    decisive = figures(suite)["decisive"]
    assert (decisive["passed"], decisive["counted"]) == (1, 3)


# --- 4. filler and ids in user lines -----------------------------------------------------


def test_user_words_are_quoted_lines_and_fact_values() -> None:
    context = 'You are Ana.\n- Card: the Everyday Debit\n1. To start, say: "My card broke."\n'
    assert user_words(context) == ["My card broke.", "the Everyday Debit"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('say: "The usual one, please."', "filler"),
        ('say: "Unknown, please."', "filler"),
        ('say: "No, I haven\'t."', "filler"),
        ('say: "Yes, that\'s right."', "filler"),
        ("- Shipping: whatever you have", "filler"),
        ('say: "Hi, I\'d like to card_replace."', "id 'card_replace'"),
        ('say: "It is not_received."', "id 'not_received'"),
        ('say: "Please run utter_order_placed"', "id 'utter_order_placed'"),
    ],
)
def test_filler_and_ids_are_flagged(line: str, why: str) -> None:
    project = load_project(BANK)
    found = bad_lines(f"You are Ana.\n{line}\n", project)
    assert [f.why for f in found] == [why]


@pytest.mark.parametrize(
    "line",
    [
        'say: "My card was stolen yesterday, can you send a new one?"',
        'say: "Yes, please go ahead."',
        "- Policy: pol_1024",
        'say: "I\'d like to replace a card."',
    ],
)
def test_natural_lines_are_not_flagged(line: str) -> None:
    assert bad_lines(f"You are Ana.\n{line}\n", load_project(BANK)) == []


def test_skill_name_used_as_the_request(tmp_path: Path) -> None:
    project = tiny_project(tmp_path / "p")
    found = bad_lines('1. To start, say: "I\'d like to file Claim."', load_project(project))
    assert [f.why for f in found] == ["skill name 'File Claim'"]
    assert bad_lines('say: "I\'d like to file a claim."', load_project(project)) == []


def test_filler_share_of_files(tmp_path: Path) -> None:
    filler = 'You lost your card.\n1. When asked which card, say: "The usual one, please."'
    suite = write_suite(
        tmp_path / "s",
        {
            "a": scenario("a", "happy_path", [ACTIVATED, ORDERED], context=filler),
            "b": scenario("b", "happy_path", [ACTIVATED, ORDERED]),
        },
    )
    got = figures(suite)["filler"]
    assert (got["value"], got["passed"]) == (0.5, 1)
    assert "The usual one, please." in got["missed"][0]


# --- 5. near-duplicates ------------------------------------------------------------------

BASE = (
    "You are {name}, a calm customer of the bank whose debit card cracked in half this "
    "morning. Ask for a replacement card, say it is damaged when asked why, pick the "
    "Everyday Debit card, choose standard shipping, confirm the summary and then stop."
)


def test_near_duplicate_pair_is_found(tmp_path: Path) -> None:
    other = (
        "You are Lee, a developer who wants to know the balance of a savings account before "
        "moving money. Ask for the balance, answer the identity questions, then stop."
    )
    suite = write_suite(
        tmp_path / "s",
        {
            "a": scenario("a", "happy_path", [ACTIVATED], context=BASE.format(name="Ana")),
            "b": scenario("b", "edge_case", [ACTIVATED], context=BASE.format(name="Omar")),
            "c": scenario("c", "edge_case", [ACTIVATED], context=other),
        },
    )
    got = figures(suite)["near_duplicates"]
    assert (got["passed"], got["counted"]) == (2, 3)
    assert "a.yml" in got["missed"][0] and "b.yml" in got["missed"][0]


def test_different_contexts_are_not_pairs(tmp_path: Path) -> None:
    from agentflows.scoring._cases import load_suite

    suite = write_suite(
        tmp_path / "s",
        {
            "a": scenario("a", "happy_path", [ACTIVATED], context=BASE.format(name="Ana")),
            "b": scenario(
                "b",
                "edge_case",
                [ACTIVATED],
                context=BASE.format(name="Ana").replace("damaged", "stolen, and report it"),
            ),
        },
    )
    cases, _ = load_suite([suite])
    assert near_duplicate_pairs(cases, 0.99) == []
    assert len(near_duplicate_pairs(cases, 0.5)) == 1


def test_a_refusal_twin_is_not_a_near_duplicate(tmp_path: Path) -> None:
    """A happy path and its refusal at the gate share the situation up to one answer; they
    check different events (the order placed / the denial said), so they are not a pair;
    the same context checking the same events is."""
    from agentflows.scoring._cases import load_suite

    happy = BASE.format(name="Ana")
    refused = happy.replace("confirm the summary", "decline the summary")
    twin = {
        "a": scenario("a", "happy_path", [ACTIVATED, ORDERED], context=happy),
        "b": scenario("b", "edge_case", [ACTIVATED, DENIED], context=refused),
    }
    cases, _ = load_suite([write_suite(tmp_path / "twin", twin)])
    assert near_duplicate_pairs(cases, 0.5) == []
    repeat = {
        "a": scenario("a", "happy_path", [ACTIVATED, ORDERED], context=happy),
        "b": scenario("b", "happy_path", [ACTIVATED, ORDERED], context=refused),
    }
    cases, _ = load_suite([write_suite(tmp_path / "repeat", repeat)])
    assert len(near_duplicate_pairs(cases, 0.5)) == 1


# --- 6. Rasa-schema validity -------------------------------------------------------------


def test_bot_uttered_inside_sequencing_is_invalid(tmp_path: Path) -> None:
    bad = scenario("b", "happy_path", [ACTIVATED, {"sequencing": [ACTIVATED, DENIED]}])
    good = scenario("a", "happy_path", [ACTIVATED, {"sequencing": [ACTIVATED, ORDERED]}])
    got = figures(write_suite(tmp_path / "s", {"a": good, "b": bad}))["rasa_valid"]
    assert (got["value"], got["passed"]) == (0.5, 1)
    assert "bot_uttered is not allowed inside sequencing" in got["missed"][0]


@pytest.mark.parametrize(
    ("goals", "problem"),
    [
        ({"assertions": [{"sequencing": [{"memory_was_not_set": "x.y"}]}]}, "unsupported"),
        ({"assertions": [{"sequencing": [{"memory_was_set": [{"name": "x.y"}]}]}]}, "plain"),
        ({"expected_tools": ["place_replacement_order"]}, "is a map"),
        ({"expected_tools": [{"tool_group": [{"tool": "x"}]}]}, "tool_group item"),
    ],
)
def test_rasa_problems(goals: dict[str, Any], problem: str) -> None:
    problems = rasa_problems({"goals": goals})
    assert len(problems) == 1 and problem in problems[0]


def test_rasa_shapes_that_are_fine() -> None:
    goals = {
        "assertions": [{"sequencing": [ACTIVATED, {"memory_was_set": "card_replace.x"}, ORDERED]}],
        "expected_tools": [
            {"tool_called": "block_card", "gate": True},
            {"tool_group": [{"tool_called": "list_cards", "ordered": True}]},
        ],
    }
    assert rasa_problems({"goals": goals}) == []


def test_unparsable_file_is_counted_invalid(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED, ORDERED])})
    (suite / "broken.yml").write_text("scenario: [unclosed\n", "utf-8")
    score = score_suite_sync([suite], BANK)
    assert score.files == 2 and score.types.get("(unparsed)") == 1
    assert score.figures["rasa_valid"].value == 0.5


# --- 7. review errors --------------------------------------------------------------------


def test_review_errors_are_counted(tmp_path: Path) -> None:
    name = "replace a lost card"  # a one-letter name is itself a review error (unreadable-text)
    clean = write_suite(
        tmp_path / "clean", {"a": scenario(name, "happy_path", [ACTIVATED, ORDERED])}
    )
    weak = write_suite(tmp_path / "weak", {"a": scenario(name, "happy_path", [ACTIVATED])})
    assert figures(clean)["review_errors"]["value"] == 0
    weak_errors = figures(weak)["review_errors"]
    assert weak_errors["value"] >= 1
    assert any("no-decisive-assertion" in m for m in weak_errors["missed"])


def test_misses_name_the_figures_below_goal(tmp_path: Path) -> None:
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED])})
    misses = score_suite_sync([suite], BANK).misses()
    assert {"happy", "decisive", "review_errors", "refusal"} <= set(misses)
    assert "rasa_valid" not in misses


# --- a tiny project of our own -----------------------------------------------------------


def tiny_project(root: Path) -> Path:
    """A one-skill Mantle project whose skill has a Title Case name."""
    skill = root / "skills" / "file_claim"
    skill.mkdir(parents=True)
    (root / "integrations.yml").write_text("{}\n", "utf-8")
    (root / "agent.yml").write_text("name: claims\n", "utf-8")
    (skill / "skill.md").write_text(
        "---\nname: File Claim\ndescription: Report a new loss.\n---\n\nHelp the caller.\n",
        "utf-8",
    )
    return root


def test_docs_list_every_filler_pattern() -> None:
    from agentflows.scoring import FILLER_PATTERNS

    docs = (BANK.parents[1] / "docs" / "scoring.md").read_text("utf-8")
    assert all(f"- `{pattern}`" in docs for pattern in FILLER_PATTERNS)


VERIFY_SKILL = """---
name: Verify the caller
description: Identity check.
---

Check who is calling with @block.identity.

:::ordered_block id=identity
steps:
  - id: ask_dob
    collect: date_of_birth
  - id: check
    execute_tool: check_identity
    next:
      - if: session.project.authenticated
        then: verified
      - else: retry
  - id: retry
    action: utter_retry
    next: ask_dob
  - id: verified
    action: utter_verified
    next: END
  - id: END
:::
"""
VERIFY_TOOLS = """from rasa.mantle.tools.decorator import tool


@tool(description="Check the caller's date of birth.")
def check_identity(context=None):
    context.memory.set("project.authenticated", True)
"""


def verify_project(root: Path) -> Path:
    skill = root / "skills" / "verify"
    skill.mkdir(parents=True)
    (root / "integrations.yml").write_text("{}\n", "utf-8")
    (root / "agent.yml").write_text("name: claims\n", "utf-8")
    (root / "memory.yml").write_text("authenticated: {type: bool}\n", "utf-8")
    (skill / "skill.md").write_text(VERIFY_SKILL, "utf-8")
    (skill / "tools.py").write_text(VERIFY_TOOLS, "utf-8")
    (skill / "memory.yml").write_text("schema:\n  public:\n    date_of_birth: {type: text}\n")
    (skill / "responses.yml").write_text(
        "responses:\n  utter_retry:\n    - text: Try again.\n"
        "  utter_verified:\n    - text: Thanks, you are verified.\n",
        "utf-8",
    )
    return root


@pytest.mark.parametrize(
    ("assertion", "expected"),
    [
        ({"bot_uttered": {"utter_name": "utter_verified"}}, 1.0),
        ({"bot_uttered": {"utter_name": "utter_retry"}}, 0.0),
        ({"memory_was_not_set": [{"name": "project.authenticated"}]}, 0.0),
    ],
)
def test_block_response_after_the_tool_that_ends_it(
    tmp_path: Path, assertion: dict[str, Any], expected: float
) -> None:
    project = verify_project(tmp_path / "p")
    activated = {"skill_activated": {"skill_id": "verify"}}
    extra = (
        [] if "bot_uttered" in assertion else [{"bot_uttered": {"utter_name": "utter_verified"}}]
    )
    suite = write_suite(
        tmp_path / "s", {"a": scenario("a", "happy_path", [activated, *extra, assertion])}
    )
    assert figures(suite, project)["happy"]["value"] == expected


BAGS_SKILL = """---
name: Bags
description: Checked bags.
tool_constraints:
  - file_report:
      on_success: utter_report_filed
---

Set mode from what the passenger needs: track or report.

if: session.bags.mode == "track"
Call trace_bag with the tag and say where the bag is.

if: session.bags.mode == "report"
Ask for a delivery address, then call file_report.
"""
BAGS_TOOLS = """from rasa.mantle.tools.decorator import tool


@tool(description="Where the bag is.")
def trace_bag(tag: str, context=None):
    return None


@tool(description="File a missing bag report.")
def file_report(address: str, context=None):
    context.memory.set("report_id", "R1")
"""


def bags_project(root: Path) -> Path:
    skill = root / "skills" / "bags"
    skill.mkdir(parents=True)
    (root / "integrations.yml").write_text("{}\n", "utf-8")
    (root / "agent.yml").write_text("name: air\n", "utf-8")
    (skill / "skill.md").write_text(BAGS_SKILL, "utf-8")
    (skill / "tools.py").write_text(BAGS_TOOLS, "utf-8")
    (skill / "memory.yml").write_text(
        "schema:\n  public:\n    mode: {type: text}\n    report_id: {type: text}\n", "utf-8"
    )
    (skill / "responses.yml").write_text(
        "responses:\n  utter_report_filed:\n    - text: Filed.\n", "utf-8"
    )
    return root


TRACED = {"tool_executed": {"tool_name": "trace_bag", "source": "local"}}
NO_REPORT = {"memory_was_not_set": [{"name": "bags.report_id"}]}


@pytest.mark.parametrize(
    ("assertions", "expected"),
    [
        ([TRACED, NO_REPORT], 1.0),  # the track mode: no report is right
        ([TRACED, {"bot_did_not_utter": {"utter_name": "utter_report_filed"}}], 1.0),
        ([NO_REPORT, {"skill_completed": {"skill_id": "bags"}}], 0.0),
        ([{"bot_uttered": {"utter_name": "utter_report_filed"}}, NO_REPORT], 0.0),
    ],
)
def test_a_mode_may_say_another_modes_tool_did_not_run(
    tmp_path: Path, assertions: list[Any], expected: float
) -> None:
    project = bags_project(tmp_path / "p")
    activated = {"skill_activated": {"skill_id": "bags"}}
    suite = write_suite(
        tmp_path / "s", {"a": scenario("a", "happy_path", [activated, *assertions])}
    )
    assert figures(suite, project)["happy"]["value"] == expected


HARBOR = Path(__file__).resolve().parent / "data" / "corpus" / "harbor_mutual"


@pytest.mark.parametrize(("channel", "expected"), [("phone", 1.0), ("web", 0.0), (None, 0.0)])
def test_a_path_whose_seeds_rule_out_every_success_tool_succeeds_by_its_own_work(
    tmp_path: Path, channel: str | None, expected: float
) -> None:
    """claim_status's one success tool, send_upload_link, `requires` a channel other than
    the phone: on a phone line the status lookup is the path's success, elsewhere not."""
    status = {"tool_executed": {"tool_name": "get_claim_status", "is_error": False}}
    data = scenario("s", "happy_path", [{"skill_activated": {"skill_id": "claim_status"}}, status])
    if channel is not None:
        data["scenario"]["setup"] = {"initial_slots": {"project.channel": channel}}
    suite = write_suite(tmp_path / "s", {"s": data})
    assert figures(suite, HARBOR)["happy"]["value"] == expected
