"""Anychat dialect: model, sniffing, schema findings with lines, reference lint, repair."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dialect_fixtures import anychat_project, expected_line, valid_anychat_case
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from pydantic import ValidationError

from evalcore.dialects import detect_dialect, get_dialect
from evalcore.dialects.anychat import AnychatCase, dump_case
from evalcore.dialects.anychat._lint import lint_anychat
from evalcore.documents import parse_text
from evalcore.repair import repair_data
from evalcore.validation import check_data, validate_document

DIALECT = get_dialect("anychat")
PROJECT = anychat_project()
SCHEMA = DIALECT.schema

Mutation = Callable[[dict[str, Any]], object]


def mutated(change: Mutation) -> dict[str, Any]:
    case = valid_anychat_case()
    change(case)
    return case


def errors(data: Any) -> list[Any]:
    return [f for f in check_data(data, DIALECT, PROJECT) if f.severity == "error"]


# --- a document that uses every key of the schema -----------------------------------------

KITCHEN_SINK: dict[str, Any] = {
    "key": "kitchen-sink",
    "title": "Every key at once",
    "brief": {"scenario": "A patient books.", "expected": "The agent books."},
    "notes": "Made to cover the schema.",
    "tags": ["all"],
    "samples": 2,
    "origin": {
        "conversationId": "c1",
        "userId": "u1",
        "recordedAt": "2026-11-01T10:00:00Z",
        "generatedFrom": "playbooks/book.md",
        "generatedAt": "2026-11-02T10:00:00Z",
        "kind": "playbookExample",
        "turnId": "t1",
        "playbookId": "book",
        "exampleIndex": 0,
    },
    "scenario": {
        "channel": "appleMessages",
        "provider": "twilio",
        "persona": {
            "preset": {
                "fields": {
                    "fullName": "Dana Park",
                    "firstName": "Dana",
                    "lastName": "Park",
                    "email": "dana@example.com",
                    "phone": "+15550100",
                    "company": "Acme",
                    "title": "CTO",
                    "productInterest": "whitening",
                    "status": "qualified",
                    "source": "web",
                    "customFields": {"insuranceProvider": "Delta", "preferredDentist": 7},
                    "assignedRepresentativeId": "rep-1",
                    "tags": ["vip"],
                    "notes": "Prefers mornings.",
                },
                "consent": {"status": "unknown"},
                "historySeed": [{"role": "assistant", "content": "Welcome back!"}],
            }
        },
        "appointments": [
            {
                "startsIn": "-PT2H",
                "durationMinutes": 45,
                "representativeId": "rep-1",
                "status": "completed",
            }
        ],
        "start": {
            "inbound": True,
            "outreach": {
                "outreachId": "visit_reminder",
                "inputs": {"visitDate": "Friday"},
                "formData": {"reason": "cleaning", "urgent": False, "age": 41.5},
                "campaign": True,
            },
            "reminder": False,
            "resume": {"activePlaybook": "book"},
        },
        "history": [{"role": "user", "content": "Hi"}],
        "clock": {
            "now": "2026-11-30T09:00:00-05:00",
            "weekday": "monday",
            "time": "09:00",
            "timezone": "America/New_York",
        },
        "stubs": {"check_availability": {"slots": ["10:00"]}},
    },
    "turns": [
        "I'd like a cleaning",
        {"chip": "book", "fallback": "Book"},
        {"slot": 1, "fallback": "The second one"},
        {"confirm": False, "fallback": "no"},
        {"system": "optIn"},
        {"action": "calendar", "label": "Add to calendar"},
        {"media": "image", "url": "https://example.com/x.png", "text": "my x-ray"},
        {
            "simulate": {
                "goal": "Book the earliest slot",
                "persona": "Brief and polite",
                "knows": ["Insurance: Delta"],
                "until": "booked",
                "maxTurns": 6,
            }
        },
    ],
    "expect": {
        "checks": {
            "finalReplyNonEmpty": True,
            "pickerShown": True,
            "appointmentCreated": True,
            "activeAppointments": 1,
            "outcomes": ["booked"],
            "activePlaybookAtEnd": "book",
            "personFields": {"email": "dana@example.com", "preferredDentist": 7, "phone": True},
            "chipsOnAnyTurn": ["book"],
            "chipsOnLastMessage": False,
            "textIncludes": ["booked"],
            "textExcludes": ["error"],
            "textMatches": ["\\b10:00\\b"],
            "toolsCalled": {"book_appointment": 1},
            "toolsNotCalled": ["cancel_appointment"],
            "noWarnings": True,
            "maxModelCallsPerTurn": 4,
            "maxTurnsToOutcome": 6,
            "replyCount": {"min": 1, "max": 8},
            "noReplyTo": ["optOut"],
            "partsOnLastTurn": ["text", "ask.time"],
        },
        "judge": {"criteria": [{"id": "books-earliest", "text": "Books the earliest slot."}]},
    },
}


def _schema_keys(node: Any) -> set[str]:
    keys: set[str] = set()
    if isinstance(node, dict):
        keys |= set(node.get("properties", {}))
        for value in node.values():
            keys |= _schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            keys |= _schema_keys(value)
    return keys


def _data_keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node).union(*(_data_keys(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_data_keys(v) for v in node))
    return set()


# --- model --------------------------------------------------------------------------------


def test_kitchen_sink_covers_every_schema_key_and_is_valid() -> None:
    assert _schema_keys(SCHEMA) <= _data_keys(KITCHEN_SINK)
    assert list(Draft7Validator(SCHEMA).iter_errors(KITCHEN_SINK)) == []
    assert errors(KITCHEN_SINK) == []


@pytest.mark.parametrize(
    "doc",
    [
        KITCHEN_SINK,
        valid_anychat_case(),
        {"title": "Minimal", "turns": []},
        {"title": "No persona", "turns": ["Hi"], "scenario": {"persona": None}},
        {"title": "By id", "turns": ["Hi"], "scenario": {"persona": {"id": "p-1"}}},
        {"title": "Empty preset", "turns": ["Hi"], "scenario": {"persona": {"preset": {}}}},
        {"title": "Stubs stay open", "turns": [], "scenario": {"stubs": {"x": [1, None, {}]}}},
    ],
    ids=[
        "kitchen-sink",
        "example",
        "minimal",
        "null-persona",
        "persona-id",
        "empty-preset",
        "stubs",
    ],
)
def test_model_round_trips(doc: dict[str, Any]) -> None:
    assert list(Draft7Validator(SCHEMA).iter_errors(doc)) == []
    case = AnychatCase.model_validate(doc)
    assert dump_case(case) == doc
    assert json.loads(json.dumps(dump_case(case))) == doc
    assert DIALECT.validate_model(doc) == case


def test_model_reads_integers_as_json_schema_does() -> None:
    case = AnychatCase.model_validate({"title": "t", "turns": [{"slot": 2.0}], "samples": 3.0})
    assert case.samples == 3
    assert dump_case(case) == {"title": "t", "turns": [{"slot": 2}], "samples": 3}
    for bad in ("3", True, 2.5):
        with pytest.raises(ValidationError):
            AnychatCase.model_validate({"title": "t", "turns": [], "samples": bad})


def test_null_on_an_optional_key_reads_as_absent() -> None:
    case = AnychatCase.model_validate(
        {"title": "t", "turns": [], "key": None, "scenario": {"channel": None, "persona": None}}
    )
    assert dump_case(case) == {"title": "t", "turns": [], "scenario": {"persona": None}}


def test_model_json_schema_is_generated_with_descriptions() -> None:
    schema = AnychatCase.model_json_schema()
    assert schema["required"] == ["title", "turns"]
    assert schema["additionalProperties"] is False
    turns = schema["properties"]["turns"]
    assert turns["maxItems"] == 40
    assert schema["properties"]["samples"]["anyOf"][0] == {
        "maximum": 5,
        "minimum": 1,
        "type": "integer",
    }
    assert "description" in schema["$defs"]["Simulation"]["properties"]["knows"]


# --- sniffing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        ({"title": "t", "turns": []}, "case.json", "anychat"),
        ({"turns": ["Hi"]}, "case.json", "anychat"),
        ({"title": "t", "brief": {}}, "case.json", "anychat"),
        ({"title": "t", "expect": {}}, "case.json", "anychat"),
        ({"title": "t", "scenario": {}}, "case.json", "anychat"),
        ({"title": "t", "turns": []}, "eval.json", "base44"),
        ({"name": "n", "prompt": "p"}, "x.json", "base44"),
        ({"turns": [], "checks": []}, "x.json", "base44"),
        ({"title": "only a title"}, "x.json", None),
        ([1, 2], "x.json", None),
        ({"title": "t", "turns": []}, "case.yml", "mantle"),
    ],
)
def test_sniff(data: Any, name: str, expected: str | None, tmp_path: Path) -> None:
    found = detect_dialect(data, tmp_path / name)
    if expected == "mantle":
        assert found is None or found.name != "anychat"
    else:
        assert (found.name if found else None) == expected


def test_sniff_by_location(tmp_path: Path) -> None:
    (tmp_path / "anychat.yml").write_text("agent: {name: Clinic}\n")
    in_cases = tmp_path / "cases" / "book" / "broken.json"
    elsewhere = tmp_path / "notes" / "broken.json"
    generated = tmp_path / "out" / "generated_cases" / "anychat" / "x.json"
    assert DIALECT.sniff(None, in_cases)
    assert DIALECT.sniff({"titel": "half-written"}, in_cases)
    assert not DIALECT.sniff({"name": "n", "prompts": []}, in_cases)
    assert not DIALECT.sniff(None, elsewhere)
    assert DIALECT.sniff(None, generated)
    assert not DIALECT.sniff(None, tmp_path / "cases" / "eval.json")
    assert not DIALECT.sniff(None, Path("/nowhere/cases/x.json"))


def test_case_title() -> None:
    assert DIALECT.case_title(valid_anychat_case()) == "Patient moves a visit after the reminder"
    assert DIALECT.case_title({"turns": []}) is None
    assert DIALECT.case_title(None) is None


# --- schema findings ----------------------------------------------------------------------


def _set(path: str, value: Any) -> Mutation:
    def change(case: dict[str, Any]) -> None:
        *head, last = path.strip("/").split("/")
        node: Any = case
        for token in head:
            node = node[int(token)] if isinstance(node, list) else node[token]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _append_turn(turn: Any) -> Mutation:
    return lambda case: case["turns"].append(turn)


INVALID: list[tuple[str, Mutation, str, str | None]] = [
    # (name, mutation, JSON pointer of the one error, text in its suggestion)
    (
        "unknown-turn-key",
        _set("/turns/1", {"slot": 0, "fallbak": "x"}),
        "/turns/1/fallbak",
        "did you mean 'fallback'?",
    ),
    (
        "bad-channel",
        _set("/scenario/channel", "whatsap"),
        "/scenario/channel",
        "did you mean 'whatsapp'?",
    ),
    ("bad-key-pattern", _set("/key", "Clinic_Reschedule"), "/key", "lowercase letters"),
    ("samples-too-many", _set("/samples", 9), "/samples", None),
    ("samples-zero", _set("/samples", 0), "/samples", None),
    ("samples-text", _set("/samples", "3"), "/samples", None),
    (
        "unknown-check",
        _set("/expect/checks/toolCalled", {}),
        "/expect/checks/toolCalled",
        "did you mean 'toolsCalled'",
    ),
    (
        "criteria-id-pattern",
        _set("/expect/judge/criteria/0/id", "Offers_Friday"),
        "/expect/judge/criteria/0/id",
        "lowercase letters",
    ),
    (
        "persona-id-and-preset",
        _set("/scenario/persona", {"id": "p1", "preset": {}}),
        "/scenario/persona",
        "keep 'id' or 'preset'",
    ),
    (
        "bad-startsIn",
        _set("/scenario/appointments/0/startsIn", "2 days"),
        "/scenario/appointments/0/startsIn",
        "ISO 8601",
    ),
    ("bad-clock-time", _set("/scenario/clock/time", "25:00"), "/scenario/clock/time", "HH:MM"),
    ("missing-title", lambda case: case.pop("title"), "/title", "add 'title'"),
    (
        "simulate-without-goal",
        _append_turn({"simulate": {"persona": "terse"}}),
        "/turns/3/simulate/goal",
        "add 'goal'",
    ),
    (
        "bad-system-event",
        _append_turn({"system": "opt_out"}),
        "/turns/3/system",
        "did you mean 'optOut'?",
    ),
    ("empty-text-turn", _append_turn(""), "/turns/3", None),
    ("turn-of-no-shape", _append_turn(5), "/turns/3", None),
    (
        "history-role",
        _set("/scenario/history", [{"role": "agent", "content": "Hi"}]),
        "/scenario/history/0/role",
        "valid values: assistant, user",
    ),
    (
        "outreach-key-typo",
        _set("/scenario/start/outreach", {"outreachID": "visit_reminder"}),
        "/scenario/start/outreach/outreachID",
        "did you mean 'outreachId'?",
    ),
    ("unknown-top-level-key", _set("/expected", {}), "/expected", "did you mean 'expect'?"),
    (
        "resume-without-playbook",
        _set("/scenario/start", {"resume": {}}),
        "/scenario/start/resume/activePlaybook",
        "add 'activePlaybook'",
    ),
    ("too-many-tags", _set("/tags", [f"t{i}" for i in range(21)]), "/tags", None),
    (
        "unknown-part",
        _set("/expect/checks/partsOnLastTurn", ["ask_time"]),
        "/expect/checks/partsOnLastTurn/0",
        "did you mean 'ask.time'?",
    ),
    (
        "negative-tool-count",
        _set("/expect/checks/toolsCalled/reschedule_appointment", -1),
        "/expect/checks/toolsCalled/reschedule_appointment",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "change", "path", "suggestion"), INVALID, ids=[i[0] for i in INVALID]
)
def test_invalid_document_is_rejected_at_the_exact_place(
    name: str, change: Mutation, path: str, suggestion: str | None
) -> None:
    data = mutated(change)
    text = json.dumps(data, indent=2)
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    found = [f for f in findings if f.severity == "error"]
    assert [(f.code, f.path) for f in found] == [("schema", path)], found
    if suggestion is not None:
        assert suggestion in (found[0].suggestion or "")
    assert found[0].line == expected_line(text, path)


@pytest.mark.parametrize(
    ("name", "change"), [(i[0], i[1]) for i in INVALID], ids=[i[0] for i in INVALID]
)
def test_model_rejects_what_the_schema_rejects(name: str, change: Mutation) -> None:
    with pytest.raises(ValidationError):
        AnychatCase.model_validate(mutated(change))


def test_duplicate_key_is_a_parse_error_with_its_line() -> None:
    text = '{\n  "title": "Twice",\n  "turns": [],\n  "title": "Again"\n}\n'
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    assert [(f.code, f.path, f.line) for f in findings] == [("parse", "/title", 4)]
    assert "first at line 2" in findings[0].message


def test_json_syntax_error_is_a_parse_error_with_its_line() -> None:
    text = '{\n  "title": "Broken",\n  "turns": ["Hi"]\n  "expect": {}\n}\n'
    findings = validate_document(parse_text(text, "json"), DIALECT, PROJECT)
    assert [(f.code, f.line) for f in findings] == [("parse", 4)]


# --- reference lint -----------------------------------------------------------------------


LINT: list[tuple[str, Mutation, str, str, str | None]] = [
    # (name, mutation, code, path, suggestion)
    (
        "origin-playbook",
        _set("/origin/playbookId", "reschedul"),
        "unknown-playbook",
        "/origin/playbookId",
        "did you mean 'reschedule'?",
    ),
    (
        "resume-playbook",
        _set("/scenario/start", {"resume": {"activePlaybook": "canel"}}),
        "unknown-playbook",
        "/scenario/start/resume/activePlaybook",
        "did you mean 'cancel'?",
    ),
    (
        "playbook-at-end",
        _set("/expect/checks/activePlaybookAtEnd", "boook"),
        "unknown-playbook",
        "/expect/checks/activePlaybookAtEnd",
        "did you mean 'book'?",
    ),
    (
        "playbook-by-name",
        _set("/expect/checks/activePlaybookAtEnd", "Book an appointment"),
        "unknown-playbook",
        "/expect/checks/activePlaybookAtEnd",
        "use the id 'book'",
    ),
    (
        "playbook-unrelated",
        _set("/expect/checks/activePlaybookAtEnd", "teleport"),
        "unknown-playbook",
        "/expect/checks/activePlaybookAtEnd",
        "valid playbooks: book, cancel, general, reschedule",
    ),
    (
        "example-index",
        _set("/origin", {"playbookId": "book", "exampleIndex": 1}),
        "unknown-playbook",
        "/origin/exampleIndex",
        "use an index from 0 to 0",
    ),
    (
        "example-index-none",
        _set("/origin", {"playbookId": "reschedule", "exampleIndex": 0}),
        "unknown-playbook",
        "/origin/exampleIndex",
        "remove exampleIndex",
    ),
    (
        "outreach",
        _set("/scenario/start/outreach/outreachId", "visit_remindr"),
        "unknown-outreach",
        "/scenario/start/outreach/outreachId",
        "did you mean 'visit_reminder'?",
    ),
    (
        "outreach-by-name",
        _set("/scenario/start/outreach/outreachId", "Visit reminder"),
        "unknown-outreach",
        "/scenario/start/outreach/outreachId",
        "use the id 'visit_reminder'",
    ),
    (
        "tool-called",
        _set("/expect/checks/toolsCalled", {"reschedule_apointment": 1}),
        "unknown-tool",
        "/expect/checks/toolsCalled/reschedule_apointment",
        "did you mean 'reschedule_appointment'",
    ),
    (
        "tool-not-called",
        _set("/expect/checks/toolsNotCalled", ["cancel_apointment"]),
        "unknown-tool",
        "/expect/checks/toolsNotCalled/0",
        "did you mean 'cancel_appointment'",
    ),
    (
        "person-field-check",
        _set("/expect/checks/personFields", {"insuranceProvidr": "Delta"}),
        "unknown-person-field",
        "/expect/checks/personFields/insuranceProvidr",
        "did you mean 'insuranceProvider'?",
    ),
    (
        "custom-field",
        _set("/scenario/persona/preset/fields/customFields", {"preferedDentist": "Dr. Li"}),
        "unknown-person-field",
        "/scenario/persona/preset/fields/customFields/preferedDentist",
        "did you mean 'preferredDentist'?",
    ),
]


@pytest.mark.parametrize(
    ("name", "change", "code", "path", "suggestion"), LINT, ids=[i[0] for i in LINT]
)
def test_each_lint_code_fires_alone(
    name: str, change: Mutation, code: str, path: str, suggestion: str | None
) -> None:
    found = check_data(mutated(change), DIALECT, PROJECT)
    assert [(f.code, f.path) for f in found] == [(code, path)], found
    assert suggestion in (found[0].suggestion or "")


def test_lint_codes_are_exactly_the_documented_ones() -> None:
    codes = {code for _, _, code, _, _ in LINT}
    assert codes == {"unknown-playbook", "unknown-outreach", "unknown-tool", "unknown-person-field"}


def test_example_index_within_range_and_built_in_fields_are_clean() -> None:
    case = mutated(_set("/origin", {"playbookId": "book", "exampleIndex": 0}))
    case["expect"]["checks"]["personFields"] = {"email": "a@b.co", "fullName": "Dana Park"}
    case["expect"]["checks"]["toolsCalled"] = {"check_availability": 2}
    assert check_data(case, DIALECT, PROJECT) == []


def test_lint_without_anychat_definitions_reports_nothing() -> None:
    project = PROJECT.model_copy(update={"anychat": None})
    assert lint_anychat(mutated(_set("/expect/checks/activePlaybookAtEnd", "x")), project) == []


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 60) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(sorted(_schema_keys(SCHEMA) | {"x"})), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON)
def test_lint_and_schema_never_raise(data: Any) -> None:
    lint_anychat(data, PROJECT)
    check_data(data, DIALECT, PROJECT)
    repair_data(data, DIALECT, PROJECT)


# --- repair -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "after"),
    [
        (
            _set("/expect/checks/activePlaybookAtEnd", "reschedul"),
            "/expect/checks/activePlaybookAtEnd",
            "reschedule",
        ),
        (_set("/origin/playbookId", "Reschedule"), "/origin/playbookId", "reschedule"),
        (
            _set("/expect/checks/activePlaybookAtEnd", "Book an appointment"),
            "/expect/checks/activePlaybookAtEnd",
            "book",
        ),
        (
            _set("/scenario/start/outreach/outreachId", "visit_remindr"),
            "/scenario/start/outreach/outreachId",
            "visit_reminder",
        ),
        (
            _set("/expect/checks/toolsNotCalled", ["cancel_apointment"]),
            "/expect/checks/toolsNotCalled/0",
            "cancel_appointment",
        ),
        (_set("/scenario/channel", "SMS"), "/scenario/channel", "sms"),
        (_set("/scenario/channel", "apple_messages"), "/scenario/channel", "appleMessages"),
        (
            _set("/expect/checks/partsOnLastTurn", ["ask_time"]),
            "/expect/checks/partsOnLastTurn/0",
            "ask.time",
        ),
        (_set("/key", "Clinic_Reschedule"), "/key", "clinic-reschedule"),
        (
            _set("/expect/judge/criteria/0/id", "Offers Friday"),
            "/expect/judge/criteria/0/id",
            "offers-friday",
        ),
        (_set("/expect/checks/textIncludes", "Friday"), "/expect/checks/textIncludes", ["Friday"]),
        (_set("/samples", "3"), "/samples", 3),
    ],
)
def test_repair_fixes_a_value(change: Mutation, path: str, after: Any) -> None:
    outcome = repair_data(mutated(change), DIALECT, PROJECT)
    assert outcome.valid, outcome.findings
    assert [a.path for a in outcome.actions] == [path]
    assert outcome.actions[0].after == after
    assert outcome.data == mutated(_set(path, after))


@pytest.mark.parametrize(
    ("change", "old", "new"),
    [
        (
            _set("/expect/checks/toolsCalled", {"reschedule_apointment": 1}),
            "/expect/checks/toolsCalled/reschedule_apointment",
            "reschedule_appointment",
        ),
        (
            _set("/expect/checks/personFields", {"insuranceProvidr": "Delta"}),
            "/expect/checks/personFields/insuranceProvidr",
            "insuranceProvider",
        ),
        (
            _set("/scenario/persona/preset/fields/customFields", {"preferedDentist": "Dr. Li"}),
            "/scenario/persona/preset/fields/customFields/preferedDentist",
            "preferredDentist",
        ),
        (_set("/turns/1", {"slot": 0, "fallbak": "x"}), "/turns/1/fallbak", "fallback"),
    ],
)
def test_repair_renames_a_key(change: Mutation, old: str, new: str) -> None:
    outcome = repair_data(mutated(change), DIALECT, PROJECT)
    assert outcome.valid, outcome.findings
    assert [(a.path, a.op, a.after) for a in outcome.actions] == [(old, "rename", new)]


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (
            _set("/expect/checks/activePlaybookAtEnd", "teleport"),
            "/expect/checks/activePlaybookAtEnd",
        ),
        (_set("/scenario/persona", {"id": "p1", "preset": {}}), "/scenario/persona"),
        (_set("/key", "Clinic/Reschedule"), "/key"),
    ],
)
def test_repair_leaves_what_it_cannot_decide(change: Mutation, path: str) -> None:
    data = mutated(change)
    outcome = repair_data(data, DIALECT, PROJECT)
    assert outcome.actions == []
    assert outcome.data == data
    assert [f.path for f in outcome.findings] == [path]


def test_repair_does_not_take_a_criterion_id_already_used() -> None:
    data = mutated(_set("/expect/judge/criteria/0/id", "Confirms_Change"))
    outcome = repair_data(data, DIALECT, PROJECT)
    assert outcome.actions == []
    assert [f.path for f in outcome.findings] == ["/expect/judge/criteria/0/id"]


# --- the shipped example, when there is one -----------------------------------------------


def test_clinic_example_cases_validate_clean(repo: Path) -> None:
    from evalcore.definitions import load_project
    from evalcore.validation import validate_paths

    example = repo / "examples" / "clinic"
    if not example.is_dir():
        pytest.skip("examples/clinic is not there")
    try:
        load_project(example)
    except NotImplementedError:
        pytest.skip("the Anychat project reader is not there yet")
    reports = [r for r in validate_paths([example]) if r.dialect == "anychat"]
    assert reports, "no Anychat case found under examples/clinic"
    assert [(r.path, r.findings) for r in reports if r.findings] == []
    for report in reports:
        data = json.loads(Path(report.path).read_text(encoding="utf-8"))
        assert dump_case(AnychatCase.model_validate(data)) == data
