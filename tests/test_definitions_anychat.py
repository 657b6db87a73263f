"""Anychat reader on `examples/clinic`, its hand-written cases, and the documented format."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from evalcore.definitions import Project, find_project, load_project, project_kind_of

REPO = Path(__file__).resolve().parents[1]
CLINIC = REPO / "examples" / "clinic"
SEED_SCHEMA = Path("/work/shared/seeds/anychat-test-case.schema.json")
BUNDLED_SCHEMA = REPO / "evalcore" / "dialects" / "anychat" / "schema.json"


@pytest.fixture(scope="module")
def clinic() -> Project:
    return load_project(CLINIC)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "clinic"
    shutil.copytree(CLINIC, target)
    return target


def _cases() -> list[Path]:
    return sorted((CLINIC / "cases").glob("*.json"))


# --- the example project ----------------------------------------------------------------


def test_clinic_reads_without_warnings(clinic: Project) -> None:
    assert clinic.kind == "anychat"
    assert clinic.warnings == []
    assert project_kind_of(CLINIC) == "anychat"
    assert find_project(CLINIC / "playbooks" / "book.yml") == CLINIC.resolve()


def test_agent_and_settings(clinic: Project) -> None:
    defs = clinic.anychat
    assert defs.agent["name"] == "Brightsmile Dental"
    assert "personality" in defs.agent
    assert defs.default_playbook == "general"
    assert defs.channels == ["sms", "rcs", "whatsapp", "appleMessages"]
    assert defs.outcomes == ["booked", "rescheduled", "cancelled", "opted_out"]
    assert defs.consent_required is True
    assert defs.cases_dir == "cases"


def test_playbooks(clinic: Project) -> None:
    playbooks = clinic.anychat.playbooks
    assert set(playbooks) == {"general", "book", "reschedule", "cancel"}
    assert [p.id for p in playbooks.values() if p.default] == ["general"]
    for playbook in playbooks.values():
        assert playbook.body.strip() and playbook.activation
        assert 1 <= len(playbook.examples) <= 2
        assert playbook.source is not None
        assert playbook.source.file == f"playbooks/{playbook.id}.yml"
    book = playbooks["book"]
    assert book.name == "Book a visit"
    assert book.tools == ["lookup_patient", "check_availability", "book_appointment"]
    assert book.outcomes == ["booked"] and book.pickers == ["ask.time"]


def test_playbook_examples(clinic: Project) -> None:
    example = clinic.anychat.playbooks["book"].examples[0]
    assert example.title == "Returning patient books a cleaning"
    assert example.turns[0] == {"user": "Hi, I'd like to book a cleaning next week"}
    assert example.turns[1] == {"tool": "lookup_patient", "args": {"phone": "+15550142"}}
    assert {"slot": 1} in example.turns
    assert example.end == {
        "activePlaybook": "book",
        "outcomes": ["booked"],
        "tools": ["lookup_patient", "check_availability", "book_appointment"],
        "appointmentCreated": True,
    }
    general = clinic.anychat.playbooks["general"].examples
    assert {"handoff": "book"} in general[0].turns
    assert general[1].turns[-1] == {"system": "optOut"}


def test_outreach(clinic: Project) -> None:
    reminder = clinic.anychat.outreaches["visit_reminder"]
    assert reminder.playbook == "reschedule"
    assert reminder.inputs == ["firstName", "visitDate", "visitTime"]
    assert reminder.opener.startswith("Hi {firstName}, this is Brightsmile Dental.")
    assert reminder.goal and reminder.name == "Visit reminder"


def test_people_fields(clinic: Project) -> None:
    fields = clinic.anychat.person_fields
    builtin = {
        "name",
        "fullName",
        "firstName",
        "lastName",
        "email",
        "phone",
        "company",
        "title",
        "status",
        "source",
        "productInterest",
    }
    assert {k for k, f in fields.items() if f.builtin} == builtin
    assert fields["status"].choices == ["new", "contacted", "qualified", "converted", "lost"]
    insurance = fields["insuranceProvider"]
    assert (insurance.type, insurance.builtin, insurance.label) == (
        "choice",
        False,
        "Insurance provider",
    )
    assert insurance.choices == ["Delta Dental", "Cigna", "Aetna", "MetLife", "None"]
    assert fields["preferredDentist"].type == "text"
    assert fields["isNewPatient"].type == "boolean"
    assert fields["lastVisit"].type == "date"


def test_tools(clinic: Project) -> None:
    tools = clinic.anychat.tools
    assert set(tools) == {
        "check_availability",
        "book_appointment",
        "reschedule_appointment",
        "cancel_appointment",
        "lookup_patient",
    }
    availability = tools["check_availability"]
    assert availability.description == "Open appointment slots for a service, earliest first."
    assert availability.parameters["service"]["choices"][0] == "cleaning"


def test_sources(clinic: Project) -> None:
    assert [s.path for s in clinic.sources] == [
        "anychat.yml",
        "outreaches/visit_reminder.yml",
        "people.yml",
        "playbooks/book.yml",
        "playbooks/cancel.yml",
        "playbooks/general.yml",
        "playbooks/reschedule.yml",
        "tools.yml",
    ]


# --- the hand-written cases -------------------------------------------------------------


@pytest.mark.parametrize("schema_path", [SEED_SCHEMA, BUNDLED_SCHEMA], ids=["seed", "bundled"])
@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.stem)
def test_cases_are_schema_valid(case: Path, schema_path: Path) -> None:
    if not schema_path.is_file():
        pytest.skip(f"{schema_path} is not available")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft7Validator(schema).iter_errors(json.loads(case.read_text())))
    assert errors == [], [e.message for e in errors]


def test_two_cases_inbound_and_outreach() -> None:
    cases = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in _cases()}
    assert len(cases) == 2
    inbound = cases["book-cleaning-new-patient"]
    assert inbound["scenario"]["start"] == {"inbound": True}
    assert any(isinstance(t, dict) and "simulate" in t for t in inbound["turns"])
    assert any(isinstance(t, str) for t in inbound["turns"])
    assert inbound["expect"]["checks"] and inbound["expect"]["judge"]["criteria"]
    outreach = cases["visit-reminder-reschedule"]
    assert outreach["scenario"]["start"]["outreach"]["outreachId"] == "visit_reminder"
    assert outreach["expect"]["checks"]["activePlaybookAtEnd"] == "reschedule"


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.stem)
def test_case_ids_exist_in_the_project(case: Path, clinic: Project) -> None:
    data = json.loads(case.read_text(encoding="utf-8"))
    defs = clinic.anychat
    scenario, checks = data["scenario"], data["expect"]["checks"]
    assert checks["activePlaybookAtEnd"] in defs.playbooks
    assert set(checks.get("toolsCalled", {})) <= set(defs.tools)
    assert set(checks.get("toolsNotCalled", [])) <= set(defs.tools)
    assert set(scenario.get("stubs", {})) <= set(defs.tools)
    assert set(checks.get("outcomes", [])) <= set(defs.outcomes)
    assert set(checks.get("personFields", {})) <= set(defs.person_fields)
    preset = scenario["persona"]["preset"]
    assert set(preset["fields"].get("customFields", {})) <= {
        k for k, f in defs.person_fields.items() if not f.builtin
    }
    outreach = scenario["start"].get("outreach")
    if outreach:
        assert outreach["outreachId"] in defs.outreaches
        assert set(outreach["inputs"]) == set(defs.outreaches[outreach["outreachId"]].inputs)
        assert preset["consent"]["status"] == "granted"  # consent_required: true


# --- warnings on bad definitions --------------------------------------------------------


def test_reference_and_format_warnings(copy: Path) -> None:
    (copy / "outreaches" / "promo.yml").write_text(
        "name: Spring promo\n"
        "opener: Hi {firstName}, whitening is {discount} off until {endDate}!\n"
        "inputs: [firstName, discount]\n"
        "playbook: promo\n",
        encoding="utf-8",
    )
    (copy / "playbooks" / "whitening.yml").write_text(
        "name: Whitening\n"
        "body: Sell whitening.\n"
        "tools: [book_appointment, send_coupon]\n"
        "outcomes: [sold]\n"
        "examples:\n"
        "  - title: Buys\n"
        "    turns:\n"
        "      - user: I want whiter teeth\n"
        "      - bot: Great!\n"
        "      - tool: cancel_appointment\n"
        "      - slot: first\n"
        "    end:\n"
        "      activePlaybook: whitening\n"
        "      personFields: {shoeSize: 42}\n"
        "  - just text\n",
        encoding="utf-8",
    )
    project = load_project(copy)
    assert project.warnings == [
        "playbooks/whitening.yml:9: a turn has exactly one kind of user, agent, chip, slot, "
        "confirm, system, tool, handoff (found: bot)",
        "playbooks/whitening.yml:11: a slot turn's value is the 0-based index of the offered slot",
        "playbooks/whitening.yml:15: an example is a mapping {title, turns, end}",
        "playbooks/whitening.yml:1: playbook 'whitening' has no activation hint; other "
        "playbooks cannot hand off to it",
        "playbooks/whitening.yml:3: unknown tool 'send_coupon'",
        "playbooks/whitening.yml:4: unknown outcome 'sold'",
        "playbooks/whitening.yml:10: the example calls 'cancel_appointment', which playbook "
        "'whitening' does not list in 'tools'",
        "playbooks/whitening.yml:14: unknown People field 'shoeSize'",
        "outreaches/promo.yml:4: unknown playbook 'promo'",
        "outreaches/promo.yml:2: opener placeholder '{endDate}' is not a declared input",
    ]
    whitening = project.anychat.playbooks["whitening"]
    assert len(whitening.examples) == 2  # the malformed one keeps its index
    assert whitening.examples[0].turns == [
        {"user": "I want whiter teeth"},
        {"tool": "cancel_appointment"},
    ]


def test_missing_default_playbook_and_unknown_keys(copy: Path) -> None:
    text = (copy / "anychat.yml").read_text(encoding="utf-8")
    text = text.replace("default_playbook: general", "default_playbook: front_desk")
    (copy / "anychat.yml").write_text(text + "language: en\n", encoding="utf-8")
    (copy / "people.yml").write_text(
        "fields:\n  - key: email\n  - key: tier\n    type: choice\n  - key: x y\n",
        encoding="utf-8",
    )
    project = load_project(copy)
    assert not any(p.default for p in project.anychat.playbooks.values())
    warnings = project.warnings
    assert any(w.startswith("anychat.yml:18: unknown anychat.yml key 'language'") for w in warnings)
    assert (
        "anychat.yml:14: default playbook 'front_desk' has no file playbooks/front_desk.yml"
        in warnings
    )
    assert "people.yml:2: People field 'email' is a built-in field" in warnings
    assert "people.yml:3: choice field 'tier' needs a non-empty 'choices' list" in warnings
    assert "people.yml:5: People field key 'x y' should be letters, digits, '_'" in warnings


def test_bad_yaml_never_raises(copy: Path) -> None:
    (copy / "playbooks" / "book.yml").write_text("name: [unclosed\n", encoding="utf-8")
    project = load_project(copy)
    assert any(w.startswith("playbooks/book.yml:2: invalid YAML") for w in project.warnings)
    assert "playbooks/book.yml" in {s.path for s in project.sources}


# --- docs/playbooks.md stays true -------------------------------------------------------


def _doc_yaml_blocks() -> list[str]:
    """The doc's whole-file YAML examples, in order; an indented block is a fragment of a
    file shown above it (an example list item), not a file of its own."""
    text = (REPO / "docs" / "playbooks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)
    return [block for block in blocks if not block.startswith(" ")]


def test_documented_examples_read_cleanly(copy: Path) -> None:
    """The doc's anychat.yml, Playbook, Outreach and people.yml snippets, dropped into the
    clinic, read without a single warning (so the doc and the reader agree)."""
    anychat, playbook, outreach, people, tools = _doc_yaml_blocks()
    (copy / "anychat.yml").write_text(anychat, encoding="utf-8")
    (copy / "playbooks" / "book.yml").write_text(playbook, encoding="utf-8")
    (copy / "outreaches" / "doc_reminder.yml").write_text(outreach, encoding="utf-8")
    (copy / "people.yml").write_text(people, encoding="utf-8")
    project = load_project(copy)
    assert project.warnings == []
    assert project.anychat.outreaches["doc_reminder"].inputs == [
        "firstName",
        "visitDate",
        "visitTime",
    ]
    assert project.anychat.person_fields["lastVisit"].type == "date"
    (copy / "tools.yml").write_text(tools, encoding="utf-8")
    tools_only = load_project(copy)
    assert set(tools_only.anychat.tools) == {"check_availability"}


@pytest.mark.parametrize("name", ["bike_repair_shop", "library_renewals", "dry_cleaner_pickup"])
def test_held_out_playbook_projects_read_without_warnings(name: str) -> None:
    """The measurement projects written by following docs/playbooks.md must read cleanly,
    or their figures measure the reader's complaints instead of the cases."""
    root = Path(__file__).parent / "data" / "anychat_holdout" / name
    project = load_project(root)
    assert project.kind == "anychat"
    assert project.warnings == []
    assert project.anychat is not None and len(project.anychat.playbooks) >= 2
