"""Who calls in a drafted case is one of the project's own records, never bank-shaped
built-in data: the bank's fake backend reads its customers from examples/bank/data, the
drafter seeds a caller phone the project's records hold (the holder of the records the case
talks about), and a case that can only seed a built-in test account says so in the file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

import evalcore.dialects.mantle as mantle_dialect
from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.agents.demo import demo_module
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.simulator import parse_fact_context
from evalcore.testdata import FAILING_ACCOUNT, NEGATIVE_ACCOUNT

CORPUS = Path(__file__).parent / "data" / "corpus"
STAGING = Path("data") / "staging" / "customers.json"
_BANK = demo_module("bank")  # examples/bank/demo_agent
Backend, BankDataError, load_bank = _BANK.Backend, _BANK.BankDataError, _BANK.load_bank


@pytest.fixture
def bank_copy(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", root)
    return root


def _customers(root: Path) -> dict:
    return json.loads((root / STAGING).read_text())


def test_the_bank_backend_checks_identity_against_the_projects_records(bank_copy: Path):
    data = _customers(bank_copy)
    data["customers"][0]["postcode"] = "10001"
    (bank_copy / STAGING).write_text(json.dumps(data))
    backend = Backend(load_bank(bank_copy))
    customer_id = data["customers"][0]["customer_id"]
    memory = {"project.customer_id": customer_id}

    def verify(postcode: str) -> object:
        args = {"customer_id": customer_id, "date_of_birth": "14 March 1986", "postcode": postcode}
        return backend.call("card_replace", "verify_identity", args, memory).result

    assert verify("10001") == {"verified": True}
    assert verify("94110")["verified"] is False  # the old built-in postcode is no longer theirs
    found = backend.call("card_replace", "lookup_customer", {"phone": "+15550142"}, {})
    assert found.result["first_name"] == "Priya"


def test_a_bad_staging_record_is_named_not_skipped(bank_copy: Path):
    data = _customers(bank_copy)
    del data["customers"][2]["postcode"]
    (bank_copy / STAGING).write_text(json.dumps(data))
    with pytest.raises(BankDataError) as error:
        load_bank(bank_copy)
    message = str(error.value)
    assert "data/staging/customers.json record 2" in message and "postcode" in message


def _drafts(project) -> list[dict]:
    out = []
    for skill in sorted(project.mantle.skills):
        for behavior in plan_mantle(project, skill, None).behaviors:
            out.append(draft_mantle(DraftContext(project, "mantle", behavior)))
    return out


def test_the_seeded_caller_is_the_holder_of_the_records_the_case_uses():
    root = CORPUS / "harbor_mutual"
    project = load_project(root)
    holders = json.loads((root / "data" / "policyholders.json").read_text())
    by_phone = {h["phone"]: h for h in holders}
    seeded = 0
    for data in _drafts(project):
        scenario = data["scenario"]
        phone = scenario.get("setup", {}).get("initial_slots", {}).get("project.caller_phone")
        if phone in (FAILING_ACCOUNT, NEGATIVE_ACCOUNT):
            continue  # the test accounts for failing and negative backends
        holder = by_phone.get(phone)
        assert holder is not None, (scenario["name"], phone)
        seeded += 1
        context = parse_fact_context(scenario["simulation_context"])
        name = f"{holder['first_name']} {holder['last_name']}"
        assert context.persona.startswith(name), (scenario["name"], context.persona)
        for fact in context.facts:  # a policy the case names is the caller's own
            if fact.value.startswith("HM-"):
                assert fact.value in holder["policies"], (scenario["name"], fact.value)
    assert seeded >= 10


def test_a_built_in_caller_is_said_in_the_case(bank_copy: Path):
    shutil.rmtree(bank_copy / "data")  # a project whose records hold no caller
    project = load_project(bank_copy)
    behavior = plan_mantle(project, "check_balance", None).behaviors[0]
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    phone = data["scenario"]["setup"]["initial_slots"]["project.caller_phone"]
    text = get_dialect("mantle").dump_justified(data, project)
    note = f"# test data: project.caller_phone {phone} is the built-in test account"
    assert note in text
    # the project's own caller gets no such note
    bank = load_project(EXAMPLES / "bank")
    own = draft_mantle(DraftContext(bank, "mantle", behavior))
    assert "# test data:" not in get_dialect("mantle").dump_justified(own, bank)


def test_a_projects_records_are_read_once_for_every_case_it_writes(bank_copy: Path, monkeypatch):
    """Each written case is noted against the project's records (whose phones are the
    project's own): read once per loaded project, not once per case."""
    reads: list[Path] = []
    real = mantle_dialect.load_records
    monkeypatch.setattr(
        mantle_dialect, "load_records", lambda root: reads.append(root) or real(root)
    )
    shutil.rmtree(bank_copy / "data")
    project = load_project(bank_copy)
    seeds = {"initial_slots": {"project.caller_phone": "+15550142"}}
    data = {"scenario": {"name": "n", "type": "happy_path", "simulation_context": "c"}}
    data["scenario"]["setup"] = seeds
    dialect = get_dialect("mantle")
    texts = {dialect.dump_justified(data, project) for _ in range(3)}
    assert reads == [bank_copy]
    [text] = texts
    assert "+15550142 is the built-in test account" in text
