"""Test data for drafted cases: personas that fit the agent, typed values, data records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalcore.testdata import (
    DOMAINS,
    FieldSpec,
    SheetBuilder,
    case_rng,
    date_format,
    load_records,
    persona_for,
    roles_for,
    typed_value,
)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        (
            "Shift assistant that helps baristas swap shifts and log espresso machine faults.",
            "barista",
        ),
        (
            "Code review bot for developers: opens pull requests and checks the CI pipeline.",
            "developer",
        ),
        ("Briefing assistant for executives ahead of board meetings.", "executive"),
        ("Answers tenants about rent, lease renewals and maintenance requests.", "tenant"),
        (
            "Files insurance claims against a customer's policy.",
            "policyholder|homeowner|fleet|insuring",
        ),
    ],
)
def test_the_persona_fits_who_uses_the_agent(text, word):
    roles = roles_for(text)
    assert all("customer" not in r for r in roles)
    assert any(re.search(word, r) for r in roles), roles


def test_an_agent_that_says_nothing_about_its_users_gets_customers():
    assert all("customer" in r for r in roles_for("A helpful assistant."))


def test_personas_are_keyed_by_case_and_vary_across_a_suite():
    text = "helps baristas with their shifts"
    first = persona_for(text, "shift_swap:happy")
    assert persona_for(text, "shift_swap:happy") == first
    people = {persona_for(text, f"case-{n}").name for n in range(40)}
    assert len(people) >= 36
    assert first.role in roles_for(text)
    assert first.sentence == f"You are {first.name}, {first.role}, {first.manner}."


def test_case_rng_never_touches_global_state():
    import random

    random.seed(1)
    expected = random.random()
    random.seed(1)
    case_rng("x").random()
    assert random.random() == expected
    assert case_rng("x").random() == case_rng("x").random() != case_rng("y").random()


def test_values_are_typed_by_the_field():
    rng = case_rng("k")
    enum = FieldSpec("vehicle", "categorical", "", ("car", "van", "truck"))
    assert {typed_value(enum, case_rng(str(n))) for n in range(30)} <= {"car", "van", "truck"}
    assert isinstance(typed_value(FieldSpec("guests", "int"), rng), int)
    assert isinstance(typed_value(FieldSpec("fraud", "bool"), rng), bool)
    amount = typed_value(FieldSpec("refund_amount", "float", "Amount in USD"), rng)
    assert isinstance(amount, float) and 12 <= amount <= 480


def test_a_name_field_is_the_users_name_only_when_it_names_a_person():
    persona = persona_for("Answers pet owners for a vet practice.", case_rng("p"))
    own = typed_value(FieldSpec("full_name", "text", "The caller's name."), case_rng("a"), persona)
    assert own == persona.name
    pets = {
        typed_value(
            FieldSpec("animal_name", "text", "The animal's name."), case_rng(str(n)), persona
        )
        for n in range(10)
    }
    assert persona.name not in pets and persona.first_name not in pets and len(pets) >= 3
    pharmacy = FieldSpec(
        "other_pharmacy_name", "text", 'The pharmacy it comes from, e.g. "CVS on Penn Ave".'
    )
    assert typed_value(pharmacy, case_rng("b"), persona) == "CVS on Penn Ave"


def test_dates_follow_the_described_format_and_relative_words_only_when_allowed():
    strict = FieldSpec("loss_date", "text", "Date of the loss, MM/DD/YYYY.")
    loose = FieldSpec("loss_date", "text", "Date of the loss (MM/DD/YYYY); may say yesterday.")
    iso = FieldSpec("start_date", "text", "ISO 8601 date the lease starts.")
    assert date_format(strict.description) == "%m/%d/%Y"
    values = [typed_value(strict, case_rng(str(n))) for n in range(20)]
    assert all(re.fullmatch(r"\d\d/\d\d/\d{4}", v) for v in values)
    relaxed = {typed_value(loose, case_rng(str(n))) for n in range(20)}
    assert "yesterday" in relaxed and any(re.fullmatch(r"\d\d/\d\d/\d{4}", v) for v in relaxed)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", typed_value(iso, case_rng("a")))


def test_ids_keep_the_described_shape_with_fresh_digits():
    spec = FieldSpec("policy_number", "text", "The policy number, e.g. PL-20931.")
    values = {typed_value(spec, case_rng(str(n))) for n in range(10)}
    assert all(re.fullmatch(r"PL-\d{5}", v) for v in values) and len(values) >= 8


def _project_with_policies(root: Path) -> Path:
    (root / "data").mkdir(parents=True)
    policies = [
        {"policy_number": f"PL-{n:05d}", "holder_name": name, "vehicle": "van"}
        for n, name in enumerate(["Dana Okafor", "Luis Ortega", "Mira Sato"], start=20930)
    ]
    (root / "data" / "policies.json").write_text(json.dumps({"policies": policies}))
    (root / "data" / "broken.json").write_text("{not json")
    return root


def test_records_from_data_files_keep_ids_and_holders_together(tmp_path):
    records = load_records(_project_with_policies(tmp_path))
    assert [c.name for c in records.collections] == ["policies"]
    assert records.problems and "broken.json" in records.problems[0]
    sheet = SheetBuilder("file_claim:hail", "insurance claims", records)
    number = sheet.value(FieldSpec("policy_number", "text", "Policy number, e.g. PL-20931"))
    (record,) = [r for r in records.collections[0].records if r["policy_number"] == number]
    assert sheet.persona.name == record["holder_name"]
    assert sheet.value(FieldSpec("vehicle", "categorical", "", ("car", "van"))) == "van"


def test_a_fact_without_a_value_is_left_out_not_filled():
    sheet = SheetBuilder("k", "")
    assert sheet.value(FieldSpec("damage_notes", "text", "Anything the customer adds.")) is None
    assert sheet.add("what was damaged", None) is None
    assert sheet.sheet.facts == []


def test_cases_of_one_suite_are_dealt_different_records_in_turn(tmp_path):
    from evalcore.testdata import load_records
    from evalcore.testdata._rng import case_rng

    data = tmp_path / "data"
    data.mkdir()
    rows = [{"policy_number": f"PL-{n}", "holder": f"Holder {n}"} for n in range(5)]
    (data / "policies.json").write_text(json.dumps(rows))
    records = load_records(tmp_path)
    (collection,) = records.collections
    dealt = [
        records.pick(collection, case_rng("x", "r"), slot=s)["policy_number"] for s in range(5)
    ]
    assert len(set(dealt)) == 5
    again = [
        records.pick(collection, case_rng("y", "r"), slot=s)["policy_number"] for s in range(5)
    ]
    assert again == dealt  # the slot decides, not the case's random draw


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("You talk to its truck drivers on the in-cab tablet.", "a truck driver"),
        ("The desk helps researchers book instrument time.", "a researcher"),
        ("Supports warehouse pickers during a shift.", "a warehouse picker"),
        ("An assistant for electricians on call.", "an electrician"),
    ],
)
def test_an_audience_no_domain_lists_is_named_as_the_agent_names_it(text, role):
    roles = roles_for(text)
    assert roles[0] == role
    assert all(r.startswith(role) for r in roles)


def test_words_shaped_like_people_that_are_things_are_not_an_audience():
    # "answers orders", "helps with payments": no role is read from them
    roles = roles_for("Answers orders and helps with payments for the shop.")
    assert not any(r.startswith(("an order", "a payment")) for r in roles)


def test_a_list_of_callers_gives_one_role_per_kind_of_caller_in_its_own_words():
    text = (
        "You are the phone line of a gas utility. Callers are meter owners, lodgers who share "
        "a flat, and landlords with several houses. Speak slowly."
    )
    assert roles_for(text) == (
        "a meter owner",
        "a lodger who shares a flat",
        "a landlord with several houses",
    )


def test_a_list_of_one_domain_s_people_keeps_the_kinds_it_names():
    # tenants and landlords are both the property domain's, but a generic table's roles
    # ("a parent renting a terraced house") may not fit the business: the list's own kinds
    text = "The people who write to you are tenants and landlords of our buildings."
    roles = roles_for(text)
    assert roles[0] == "a tenant" and roles[1].startswith("a landlord")
    assert not set(roles) & set(DOMAINS["housing"][1])


def test_a_caller_list_that_names_no_people_is_not_an_audience():
    # "callers are older": an adjective, not a kind of person
    roles = roles_for("Many callers are older, some are unwell; speak slowly to a patient.")
    assert not any("older" in r for r in roles)


def test_another_persons_name_is_never_the_users_own():
    for n in range(20):
        persona = persona_for("Helps baristas swap shifts.", f"case-{n}")
        spec = FieldSpec("coworker_name", "text", "First name of the coworker as said.")
        name = typed_value(spec, case_rng(f"case-{n}"), persona)
        assert name and name != persona.first_name and " " not in name
        own = typed_value(FieldSpec("full_name", "text", "Your name."), case_rng("x"), persona)
        assert own == persona.name


def test_an_example_that_opens_a_json_literal_is_the_whole_literal_or_nothing():
    spec = FieldSpec("other_counts", "json", 'Counts by SKU, e.g. {"SYR-VAN-750": 6, "CUP": 14}.')
    value = typed_value(spec, case_rng("k"))
    assert json.loads(value) == {"SYR-VAN-750": 6, "CUP": 14}
    broken = FieldSpec("lines", "list", "Final order lines, e.g. [sku, quantity.")
    assert typed_value(broken, case_rng("k")) is None


def test_a_field_named_unlike_the_column_is_drawn_by_the_parameter_it_fills():
    # `site_address` fills `find_parcel(address)`: the tool looks parcels up by address
    from evalcore.testdata import Collection, DataRecords

    parcels = Collection("parcels", ({"parcel_id": "04417-012", "address": "418 Quarry Lane"},))
    records = DataRecords([parcels])
    plain = FieldSpec("site_address", "text", "Street address of the property.")
    fed = FieldSpec("site_address", "text", "Street address of the property.", (), ("address",))
    assert SheetBuilder("case-1", "", records).from_records(plain) is None
    assert SheetBuilder("case-1", "", records).from_records(fed) == "418 Quarry Lane"


def test_a_parameter_never_draws_from_the_record_the_case_already_holds():
    # `coworker_name` fills `first_name`; the case's employee record is the user's own
    from evalcore.testdata import Collection, DataRecords

    staff = Collection(
        "employees",
        ({"employee_id": "E1", "first_name": "Grace", "last_name": "Liu"},),
    )
    sheet = SheetBuilder("case-1", "", DataRecords([staff]))
    sheet.record_for(staff)
    coworker = FieldSpec(
        "coworker_name", "text", "First name of the coworker.", (), ("first_name",)
    )
    assert sheet.from_records(coworker) is None


def test_a_list_after_kinds_of_people_and_a_collective_noun():
    # "Two kinds of people talk to you: ..., and branch staff ..., who ...": the colon list,
    # the relative clause no kind of its own, and one of a group named as one of them
    text = (
        "Two kinds of people talk to you: library members on the website chat, and branch "
        "staff on the counter terminal, who use you to record problems. Keep it short."
    )
    assert roles_for(text) == (
        "a library member on the website chat",
        "one of the branch staff on the counter terminal",
    )


def test_a_function_word_shaped_like_a_person_is_no_audience():
    # "for another week" reads like "for <people>": "another" is no kind of person
    roles = roles_for("I need Wolf Hall for another week. Can I renew it?")
    assert not any("another" in r for r in roles)


def test_an_address_the_description_asks_for_is_an_email():
    persona = persona_for("Helps library members.", "case-1")
    spec = FieldSpec("contact", "text", "An email address or phone number to reply to.")
    value = typed_value(spec, case_rng("case-1"), persona)
    assert value == f"{persona.first_name.lower()}.{persona.last_name.lower()}@example.com"


@pytest.mark.parametrize(
    ("detail", "name"),
    [
        ("the four-digit PIN", "pin"),
        ("card number", "card_number"),
        ("date of birth", "date_of_birth"),
        ("their 6 digits", "their_6_digits"),  # nothing but shape words: kept whole
    ],
)
def test_an_identity_detail_is_named_as_the_records_name_it(detail, name):
    from agentflows.drafting.offline._mantle_testdata import detail_name

    assert detail_name(detail) == name


def test_the_people_who_write_to_the_agent_and_never_the_agent_itself():
    # "the in-app support assistant" is the agent; "Riders write to you" names the users
    text = (
        "You are the in-app support assistant of a bike-share. Riders write to you from the "
        "app, mostly mid-journey."
    )
    assert roles_for(text)[0] == "a rider"


def test_two_roles_of_one_record_key_are_two_records(tmp_path):
    # "from_station" and "to_station" are each a station of data/stations.json, not the same
    data = tmp_path / "data"
    data.mkdir()
    stations = [{"station": s, "bikes": n} for s, n in (("Canal Street", 4), ("Riverside", 9))]
    (data / "stations.json").write_text(json.dumps(stations))
    records = load_records(tmp_path)
    for n in range(10):
        builder = SheetBuilder(f"case-{n}", "Helps riders.", records)
        start = builder.value(FieldSpec("from_station", "text", "Where the bikes come from."))
        end = builder.value(FieldSpec("to_station", "text", "Where the bikes go."))
        assert {start, end} == {"Canal Street", "Riverside"}


def test_a_seeded_kind_no_role_names_is_the_personas_own_kind():
    # the agent's words name riders; a technicians-only case seeds `technician`
    persona = persona_for("Riders write to you from the app.", "case-1", role_value="technician")
    assert persona.role.startswith("a technician")
    named = persona_for("Riders write to you from the app.", "case-1", role_value="rider")
    assert named.role.startswith("a rider")


def test_a_field_that_qualifies_a_record_key_draws_from_the_records(tmp_path):
    # `selected_device_id` is one of the routers' `device_id`s (the file under a subfolder
    # of data/, as projects that keep their seed data apart do), never an invented one
    source = tmp_path / "data" / "source"
    source.mkdir(parents=True)
    routers = [{"customer_id": "7", "device_id": "RTR-7-01", "model": "Hub X"}]
    (source / "routers.json").write_text(json.dumps(routers))
    spec = FieldSpec("selected_device_id", "text", "Router device id selected for reset.")
    sheet = SheetBuilder("case-1", "", load_records(tmp_path))
    assert sheet.value(spec) == "RTR-7-01"


def test_a_field_naming_the_files_noun_by_another_id_word_draws_its_ids(tmp_path):
    # `claim_number` asks for one of the claims' `claim_id`s: an invented one is no claim
    (tmp_path / "data").mkdir()
    claims = [{"claim_id": "CLM0412", "status": 1}, {"claim_id": "CLM0413", "status": 2}]
    (tmp_path / "data" / "claims.json").write_text(json.dumps(claims))
    spec = FieldSpec("claim_number", "text", "The claim to look up, e.g. C-20931.")
    sheet = SheetBuilder("case-1", "", load_records(tmp_path))
    assert sheet.value(spec) in {"CLM0412", "CLM0413"}
    other = FieldSpec("policy_number", "text", "The policy, e.g. PL-20931.")
    assert sheet.value(other) not in {"CLM0412", "CLM0413"}


def test_for_with_no_person_after_it_names_no_audience() -> None:
    """ "for leave balances" says what the agent helps with, not whom: the people who write to
    it decide the personas (an internal HR assistant's users were drawn as bank customers)."""
    from evalcore.testdata._people import roles_for

    text = (
        "You are the internal HR assistant in chat. Point people to the HR portal for leave "
        "balances. Employees reach you by direct message."
    )
    roles = roles_for(text)
    assert not any("bank" in role for role in roles), roles
    assert roles_for("The desk works for truck drivers on the road.")[0] == "a truck driver"
