"""Review rules: each fires on a case made for it; the example suites get no error comments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_review_support import (
    BANK,
    CLINIC,
    SKILLS,
    as_edits,
    bank_case,
    clinic_case,
    deep,
    fake_model,
    mantle,
    skills_eval,
    write_yaml,
)

from agentflows.review import (
    NEAR_DUPLICATE_THRESHOLD,
    REVIEW_CODES,
    RULES,
    Reviewer,
    review_paths,
)
from agentflows.review.rules._criteria import split_compound
from evalcore.dialects import get_dialect
from evalcore.findings import Finding

SUFFIX = {"mantle": ".yml", "anychat": ".json", "base44": ".json"}


def review(
    data: Any, *, dialect: str = "mantle", project: Path = BANK, path: Path | None = None
) -> list[Finding]:
    """Rule comments on one in-memory case (reviewed against `project`)."""
    chosen = get_dialect(dialect)
    reviewer = Reviewer(project)
    path = path or Path(f"/nonexistent/review-case{SUFFIX[dialect]}")
    item = reviewer.load(path, text=chosen.dump(data), dialect=dialect)
    assert item is not None
    return reviewer.comments(item)


def only(found: list[Finding], code: str) -> list[Finding]:
    return [f for f in found if f.code == code]


# --- the registry ---------------------------------------------------------------------------


def test_every_rule_is_registered_with_its_severity() -> None:
    assert {code: rule.severity for code, rule in RULES.items()} == {
        "criterion-is-deterministic": "warning",
        "vague-criterion": "warning",
        "compound-criterion": "warning",
        "no-decisive-assertion": "error",
        "text-matches-over-structure": "warning",
        "slot-skips-step": "error",
        "near-duplicate": "warning",
        "leaky-context": "error",
        "unreadable-text": "error",
        "unjustified-assertion": "warning",
    }
    assert REVIEW_CODES["critique"][0] == "warning"
    assert all(rule.summary for rule in RULES.values())


# --- criteria -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        (
            "The agent calls block_card before it orders the new card",
            "tool_executed: {tool_name: block_card, source: local}",
        ),
        ("The agent sends utter_card_blocked", "bot_uttered: {utter_name: utter_card_blocked}"),
        ("card_replace.replacement_reason ends up as stolen", "memory_was_set"),
        ("The agent never sends utter_order_placed", "bot_did_not_utter"),
        (
            "The agent sets replacement_reason to damaged",
            "memory_was_set: [{name: card_replace.replacement_reason}]",
        ),
        ("The agent activates the card replacement skill", "skill_activated"),
        ("The agent looks up the address with get_mailing_address", "source: mcp, mcp_server: crm"),
    ],
)
def test_criterion_that_is_a_lookup(criterion: str, expected: str) -> None:
    found = only(review(mantle(criteria=[criterion])), "criterion-is-deterministic")
    assert len(found) == 1, criterion
    assert found[0].path == "/scenario/goals/criteria/0"
    assert found[0].severity == "warning"
    assert expected in (found[0].suggestion or "")


@pytest.mark.parametrize(
    "criterion",
    [
        # Mantle has no negative tool check: the conventions keep this one as a criterion
        "place_replacement_order never runs, so no replacement order is submitted",
        "The agent says the stolen card is blocked before it talks about the new card",
        "The agent only offers times that check_availability returned",
    ],
)
def test_judgement_criteria_are_left_alone(criterion: str) -> None:
    assert not only(review(mantle(criteria=[criterion])), "criterion-is-deterministic")


def test_anychat_lookup_criterion_suggests_a_check() -> None:
    case = clinic_case("book-cleaning-new-patient")
    case["expect"]["judge"]["criteria"] = [
        {"id": "calls-booking", "text": "The agent calls book_appointment exactly once."},
        {"id": "no-cancel", "text": "The agent never calls cancel_appointment."},
    ]
    found = only(review(case, dialect="anychat", project=CLINIC), "criterion-is-deterministic")
    assert [f.path for f in found] == [
        "/expect/judge/criteria/0/text",
        "/expect/judge/criteria/1/text",
    ]
    assert 'toolsCalled: {"book_appointment": 1}' in (found[0].suggestion or "")
    assert "toolsNotCalled: [cancel_appointment]" in (found[1].suggestion or "")


@pytest.mark.parametrize(
    ("criterion", "vague"),
    [
        ("The agent responds appropriately", True),
        ("The agent handles the request properly and is helpful", True),
        ("The agent is good at explaining", True),
        ("The agent correctly identifies the card as stolen", False),  # an enum value: concrete
        ("The agent correctly quotes the $15 express fee", False),
        ("The agent asks for the date of birth and the postcode in one message", False),
        ("The agent also offers the express option as well", False),  # "as well"
    ],
)
def test_vague_criterion(criterion: str, vague: bool) -> None:
    found = only(review(mantle(criteria=[criterion])), "vague-criterion")
    assert bool(found) is vague, criterion


@pytest.mark.parametrize(
    ("criterion", "parts"),
    [
        (
            "The agent blocks the card and then tells the customer it is blocked",
            ["The agent blocks the card", "The agent tells the customer it is blocked"],
        ),
        (
            "The agent moves the visit and never says it was cancelled.",
            ["The agent moves the visit", "The agent never says it was cancelled"],
        ),
        (
            "The agent verifies the customer; it never reads out the card id",
            ["The agent verifies the customer", "it never reads out the card id"],
        ),
        (
            "The agent asks why. It does not ask twice.",
            ["The agent asks why", "It does not ask twice"],
        ),
        ("The booking confirmation names the day, the time and the dentist.", None),
        ("The agent asks for their name and insurance before booking with Dr. Lin today.", None),
        # a conjunct with no verb of its own reuses the one before: one check, never cut
        # into a fragment ("The agent never to the home policy")
        ("The agent never moves the claim to the car policy and never to the home policy.", None),
    ],
)
def test_compound_criterion(criterion: str, parts: list[str] | None) -> None:
    found = only(review(mantle(criteria=[criterion])), "compound-criterion")
    if parts is None:
        assert not found
        assert split_compound(criterion) == [criterion.rstrip(".")]
    else:
        assert len(found) == 1
        assert split_compound(criterion) == parts


# --- decisive assertions ---------------------------------------------------------------------


def test_happy_path_without_completion_is_an_error() -> None:
    case = mantle(
        type="happy_path",
        criteria=["The agent verifies first"],
        assertions=[{"skill_activated": {"skill_id": "card_replace"}}],
    )
    found = only(review(case), "no-decisive-assertion")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].path == "/scenario/goals/assertions"
    assert "skill_completed: {skill_id: card_replace}" in (found[0].suggestion or "")
    case["scenario"]["goals"]["assertions"].append(
        {"tool_executed": {"tool_name": "order_replacement", "source": "local"}}
    )
    assert not only(review(case), "no-decisive-assertion")


def test_a_happy_path_of_a_skill_that_only_answers_needs_no_completion(tmp_path) -> None:
    """An FAQ skill (no tool, no ordered block, no `complete_when`): Mantle records no event
    for its answer, so activation and a criterion on the answer are what a correct case
    holds; without the criterion nothing at all checks the answer."""
    faq = tmp_path / "skills" / "faq"
    faq.mkdir(parents=True)
    (tmp_path / "agent.yml").write_text("name: Help desk\n")
    (faq / "skill.md").write_text(
        "---\nname: FAQ\ndescription: Opening hours and fees.\n---\n\n"
        "Answer questions about opening hours and fees from this text.\n"
    )
    case = mantle(
        type="happy_path",
        criteria=["The agent answers what the customer asked, in the skill's own terms"],
        assertions=[{"skill_activated": {"skill_id": "faq"}}],
    )
    assert not only(review(case, project=tmp_path), "no-decisive-assertion")
    del case["scenario"]["goals"]["criteria"]
    assert only(review(case, project=tmp_path), "no-decisive-assertion")


def test_refused_confirmation_with_nothing_that_shows_the_tool_held_back() -> None:
    case = bank_case("card_replace_refused_confirmation")
    assert not only(review(case), "no-decisive-assertion")
    goals = case["scenario"]["goals"]
    # without the denial response (an agent that asks in its own words first never reaches
    # the gate), the order's success response and its write left out still decide it
    goals["assertions"] = [
        a
        for a in goals["assertions"]
        if "sequencing" not in a
        and a.get("bot_uttered", {}).get("utter_name") != "utter_order_not_placed"
    ]
    assert not only(review(case), "no-decisive-assertion")
    goals["assertions"] = [
        a
        for a in goals["assertions"]
        if "bot_did_not_utter" not in a and "memory_was_not_set" not in a
    ]
    found = only(review(case), "no-decisive-assertion")
    assert len(found) == 1
    assert "card_replace.order_id" in (found[0].suggestion or "")


def test_a_value_named_declined_does_not_make_an_agreeing_case_a_refusal() -> None:
    case = bank_case("card_replace_refused_confirmation")
    goals = case["scenario"]["goals"]
    goals["assertions"] = [
        a
        for a in goals["assertions"]
        if "sequencing" not in a
        and "bot_did_not_utter" not in a
        and "memory_was_not_set" not in a
        and a.get("bot_uttered", {}).get("utter_name") != "utter_order_not_placed"
    ]
    sheet = (
        "You are Dana Okafor, a bank customer, brisk and precise.\n"
        "You want to replace a card.\n"
        "When the agent reads the details back and asks you to confirm, {answer}.\n"
    )
    case["scenario"]["name"] = "Card replace (payment status: declined)"
    case["scenario"]["simulation_context"] = sheet.format(answer="agree")
    assert not only(review(case), "no-decisive-assertion")
    case["scenario"]["simulation_context"] = sheet.format(answer="decline")
    assert only(review(case), "no-decisive-assertion")


def test_case_without_assertions_is_a_warning() -> None:
    found = only(
        review(mantle(type="out_of_scope", criteria=["The agent declines"])),
        "no-decisive-assertion",
    )
    assert [f.severity for f in found] == ["warning"]


def test_anychat_booking_without_the_appointment() -> None:
    case = clinic_case("book-cleaning-new-patient")
    checks = case["expect"]["checks"]
    del checks["appointmentCreated"], checks["outcomes"]
    found = only(review(case, dialect="anychat", project=CLINIC), "no-decisive-assertion")
    assert len(found) == 1 and found[0].path == "/expect/checks"
    assert "appointmentCreated" in (found[0].suggestion or "")


def test_base44_prompt_that_writes_files_without_file_checks() -> None:
    data = skills_eval()
    data["prompts"][1]["checks"] = [
        {"type": "contains", "description": "mentions filter", "value": "filter"}
    ]
    found = only(review(data, dialect="base44", project=SKILLS), "no-decisive-assertion")
    assert [f.path for f in found] == ["/prompts/1/checks"]
    assert "src/components/TodoList.jsx" in (found[0].suggestion or "")


def test_base44_question_prompt_needs_no_file_check() -> None:
    data = {
        "name": "skill-check",
        "description": "knows the product",
        "prompt": "What is Base44? How do I create an entity?",
        "expectedSkills": [],
        "checks": [{"type": "contains", "description": "names it", "value": "base44"}],
    }
    assert not only(review(data, dialect="base44", project=SKILLS), "no-decisive-assertion")


# --- structure ------------------------------------------------------------------------------


def test_text_matches_a_known_response() -> None:
    case = mantle(
        assertions=[
            {"bot_uttered": {"text_matches": "order number"}},
            {"bot_did_not_utter": {"text_matches": "fraud team"}},
            {"bot_uttered": {"text_matches": "something nobody says"}},
        ]
    )
    found = only(review(case), "text-matches-over-structure")
    assert [f.path for f in found] == [
        "/scenario/goals/assertions/0/bot_uttered/text_matches",
        "/scenario/goals/assertions/1/bot_did_not_utter/text_matches",
    ]
    assert "bot_uttered: {utter_name: utter_order_placed}" in (found[0].suggestion or "")
    assert "utter_card_blocked" in (found[1].suggestion or "")
    assert "utter_fraud_next_steps" in (found[1].suggestion or "")


def test_text_matches_inside_sequencing() -> None:
    case = mantle(
        assertions=[
            {
                "sequencing": [
                    {"skill_activated": {"skill_id": "card_replace"}},
                    {"bot_uttered": {"text_matches": "What happened to the card"}},
                ]
            }
        ]
    )
    found = only(review(case), "text-matches-over-structure")
    assert found[0].path == "/scenario/goals/assertions/0/sequencing/1/bot_uttered/text_matches"
    assert "utter_ask_replacement_reason" in (found[0].suggestion or "")


def test_initial_slot_that_fills_a_collect_step() -> None:
    case = bank_case("card_replace_stolen")
    case["scenario"]["setup"]["initial_slots"]["card_replace.replacement_reason"] = "stolen"
    found = only(review(case), "slot-skips-step")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].path == "/scenario/setup/initial_slots/card_replace.replacement_reason"
    assert "ask_reason" in found[0].message


def test_initial_slot_the_case_asserts_is_set() -> None:
    case = bank_case("check_balance_savings_happy")
    case["scenario"]["setup"]["initial_slots"]["project.authenticated"] = True
    found = only(review(case), "slot-skips-step")
    assert [f.path for f in found] == ["/scenario/setup/initial_slots/project.authenticated"]


def test_seed_slots_of_the_examples_are_fine() -> None:
    for stem in ("card_replace_stolen", "check_balance_savings_happy"):
        assert not only(review(bank_case(stem)), "slot-skips-step")


def test_anychat_person_field_seeded_and_checked() -> None:
    case = clinic_case("visit-reminder-reschedule")
    case["expect"]["checks"]["personFields"] = {"insuranceProvider": "delta dental"}
    found = only(review(case, dialect="anychat", project=CLINIC), "slot-skips-step")
    assert [f.path for f in found] == [
        "/scenario/persona/preset/fields/customFields/insuranceProvider"
    ]


# --- context ---------------------------------------------------------------------------------


def test_persona_that_names_internals() -> None:
    context = (
        "You are a customer. Your card was stolen. Make sure block_card runs and that "
        "you hear utter_card_blocked; card_replace.fraud_reported must be true."
    )
    found = only(review(mantle(context=context)), "leaky-context")
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].path == "/scenario/simulation_context"
    assert "block_card" in found[0].message and "utter_card_blocked" in found[0].message
    assert "card_replace.fraud_reported" in found[0].message


def test_persona_that_spells_out_the_outcome() -> None:
    context = "You lost your card. The agent should block it and order a new one."
    found = only(review(mantle(context=context)), "leaky-context")
    assert [f.severity for f in found] == ["warning"]


def test_anychat_simulated_person_told_field_keys() -> None:
    case = clinic_case("book-cleaning-new-patient")
    case["turns"][2]["simulate"]["knows"].append("Your insuranceProvider is Delta Dental.")
    found = only(review(case, dialect="anychat", project=CLINIC), "leaky-context")
    assert [f.path for f in found] == ["/turns/2/simulate/knows/3"]


def test_plain_words_are_not_taken_for_ids() -> None:
    case = clinic_case("book-cleaning-new-patient")
    case["brief"]["scenario"] = "Someone wants to book a visit; they booked one last year."
    assert not only(review(case, dialect="anychat", project=CLINIC), "leaky-context")


# --- duplicates ------------------------------------------------------------------------------


async def test_near_duplicate_of_a_committed_case(tmp_path: Path) -> None:
    copy = bank_case("card_replace_stolen")
    copy["scenario"]["name"] = "Customer whose wallet was stolen orders a new card"
    copy["scenario"]["simulation_context"] = copy["scenario"]["simulation_context"].replace(
        "Priya", "Dana"
    )
    copy["scenario"]["goals"]["assertions"].pop(0)
    file = write_yaml(tmp_path / "card_replace_wallet_stolen.yml", copy)
    report = await review_paths([file], project=BANK)
    found = only(report.files[0].comments, "near-duplicate")
    assert len(found) == 1 and found[0].severity == "warning"
    assert "eval/scenarios/card_replace_stolen.yml" in found[0].message


async def test_near_duplicates_under_review_are_reported_once(tmp_path: Path) -> None:
    case = mantle(
        type="happy_path",
        assertions=[
            {"skill_completed": {"skill_id": "check_balance"}},
            {"tool_executed": {"tool_name": "get_balance", "source": "local"}},
        ],
    )
    twin = deep(case)
    twin["scenario"]["name"] = "Another name"
    first = write_yaml(tmp_path / "a.yml", case)
    second = write_yaml(tmp_path / "b.yml", twin)
    report = await review_paths([first, second], project=BANK)
    flagged = [(f.path, only(f.comments, "near-duplicate")) for f in report.files]
    assert not flagged[0][1]
    assert len(flagged[1][1]) == 1 and str(first) in flagged[1][1][0].message


def test_examples_are_not_near_duplicates_of_each_other() -> None:
    assert NEAR_DUPLICATE_THRESHOLD == 0.7
    for stem in (
        "card_replace_stolen",
        "card_replace_damaged",
        "card_replace_refused_confirmation",
    ):
        path = BANK / "eval" / "scenarios" / f"{stem}.yml"
        assert not only(review(bank_case(stem), path=path), "near-duplicate")


# --- the example suites ----------------------------------------------------------------------


async def test_example_suites_have_no_error_comments() -> None:
    report = await review_paths([BANK / "eval", CLINIC / "cases", SKILLS / "evals"])
    assert len(report.files) == 8
    assert all(f.valid for f in report.files)
    errors = [(f.path, c.code, c.message) for f in report.files for c in f.errors]
    assert errors == []
    assert not report.failed and report.engine == "rules"


async def test_invalid_and_unparsable_files(tmp_path: Path) -> None:
    broken = tmp_path / "eval" / "scenarios" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text("scenario: [unclosed\n", "utf-8")
    report = await review_paths([broken], project=BANK)
    assert report.files[0].comments[0].code == "parse" and report.failed


# --- the model critique ----------------------------------------------------------------------


async def test_critique_adds_comments_on_top_of_the_rules(tmp_path: Path) -> None:
    case = mantle(
        type="happy_path",
        criteria=["The agent responds appropriately"],
        assertions=[{"skill_activated": {"skill_id": "card_replace"}}],
    )
    file = write_yaml(tmp_path / "card_replace_vague.yml", case)
    critic = fake_model(
        {
            "comments": [
                {
                    "path": "/scenario/simulation_context",
                    "message": "No stop condition.",
                    "suggestion": "Say when to stop.",
                },
                {"path": "/no/such/place", "message": "Too short overall."},
            ]
        }
    )
    report = await review_paths([file], project=BANK, critic=critic)
    assert report.engine == "rules+llm:fake-model"
    comments = report.files[0].comments
    critique = only(comments, "critique")
    assert [(c.path, c.severity) for c in critique] == [
        ("", "warning"),
        ("/scenario/simulation_context", "warning"),
    ]
    assert only(comments, "vague-criterion") and only(comments, "no-decisive-assertion")
    prompt = critic.chat_model.prompts[0]
    assert "Help the customer replace a card" in prompt  # the skill definition
    assert "vague-criterion" in prompt  # the rules' comments, so they are not repeated
    assert report.usage.calls == 1


async def test_failed_critique_is_a_note_not_a_failure(tmp_path: Path) -> None:
    file = write_yaml(tmp_path / "card_replace_x.yml", bank_case("card_replace_damaged"))
    report = await review_paths([file], project=BANK, critic=fake_model("not json"))
    assert report.files[0].notes and "critique" in report.files[0].notes[0]
    assert not only(report.files[0].comments, "critique")


async def test_base44_critique_is_per_prompt_with_absolute_paths(tmp_path: Path) -> None:
    from test_review_support import write_json

    file = write_json(tmp_path / "evals" / "todo" / "eval.json", skills_eval())
    critic = fake_model(
        {"comments": []},
        {"comments": [{"path": "/checks/1/pattern", "message": "Too strict on quotes."}]},
    )
    report = await review_paths([file], project=SKILLS, critic=critic)
    critique = only(report.files[0].comments, "critique")
    assert [c.path for c in critique] == ["/prompts/1/checks/1/pattern"]
    assert critique[0].line is not None
    assert "todo-entities-list-component" in critic.chat_model.prompts[1]
    assert "base44-sdk" in critic.chat_model.prompts[1]  # the agent skill's SKILL.md


@pytest.mark.parametrize("dialect", ["mantle", "anychat", "base44"])
def test_review_prompts_have_their_placeholders(dialect: str) -> None:
    from evalcore.prompts import load_prompt

    assert load_prompt(f"review/critique_{dialect}").placeholders == {
        "definition",
        "ids",
        "case",
        "comments",
    }
    assert load_prompt(f"review/revise_{dialect}").placeholders == {
        "definition",
        "ids",
        "conventions",
        "case",
        "comment",
        "findings",
    }


def test_quoted_replies_and_rules_are_not_read_as_extra_checks() -> None:
    from agentflows.review.rules._criteria import split_compound

    quoted = "The agent replies in the spirit of “Hi! Here are the times; pick one.” and waits"
    assert len(split_compound(quoted)) == 2  # the "and waits" outside the quote still counts
    assert split_compound("The agent keeps the rule: “Never book and cancel at once.”") == [
        "The agent keeps the rule: “Never book and cancel at once.”"
    ]


def test_a_negated_tool_call_mantle_cannot_assert_stays_a_criterion() -> None:
    case = mantle(criteria=["The agent does not call place_replacement_order again unasked"])
    assert only(review(case), "criterion-is-deterministic") == []
    positive = mantle(criteria=["The agent calls place_replacement_order with the card"])
    assert len(only(review(positive), "criterion-is-deterministic")) == 1


async def test_critique_fixes_go_to_revise_not_to_the_warning_list(tmp_path: Path) -> None:
    """With `revise`, a critique comment that names a concrete fix is revised by the model;
    the valid revision replaces the comment, a comment without a fix stays a warning."""
    case = bank_case("card_replace_damaged")
    file = write_yaml(tmp_path / "card_replace_damaged.yml", case)
    revised = bank_case("card_replace_damaged")
    revised["scenario"]["name"] = "Customer replaces a damaged card and asks for standard post"
    critic = fake_model(
        {
            "comments": [
                {
                    "path": "/scenario/name",
                    "message": "The name does not say how the card is shipped.",
                    "suggestion": "Name the standard shipping in the title.",
                },
                {"path": "", "message": "The persona is thin."},
            ]
        },
        {"edits": [{"op": "set", "path": "/scenario/name", "value": revised["scenario"]["name"]}]},
    )
    report = await review_paths([file], project=BANK, critic=critic, revise=True)
    review = report.files[0]
    assert [c.message for c in only(review.comments, "critique")] == ["The persona is thin."]
    [revision] = review.revisions
    assert (
        "+  name: Customer replaces a damaged card and asks for standard post" in (revision["diff"])
    )
    assert "Name the standard shipping in the title." in revision["comment"]
    assert revision["command"].startswith("casegen revise ")
    assert "Name the standard shipping" in critic.chat_model.prompts[1]  # the revise prompt
    assert file.read_text("utf-8") == write_yaml(tmp_path / "again.yml", case).read_text("utf-8")


async def test_an_invalid_revision_leaves_the_critique_a_warning(tmp_path: Path) -> None:
    file = write_yaml(tmp_path / "card_replace_damaged.yml", bank_case("card_replace_damaged"))
    broken = bank_case("card_replace_damaged")
    broken["scenario"]["goals"]["assertions"] = [
        {"tool_executed": {"tool_name": "teleport", "source": "local"}}
    ]
    critic = fake_model(
        {"comments": [{"path": "", "message": "Too vague.", "suggestion": "Be precise."}]},
        *[as_edits(broken)] * 3,
    )
    report = await review_paths([file], project=BANK, critic=critic, revise=True)
    review = report.files[0]
    assert not review.revisions
    assert [c.message for c in only(review.comments, "critique")] == ["Too vague."]
    assert any("stay comments" in n for n in review.notes)
