"""A skill whose prose reads project memory only another skill's tool writes ("transfer with
the store from @memory.project.home_store_id", written by the verification) gives the caller
that value from their own record where the case's path never writes it: a correct agent may
ask which store, and a user without one makes it up.

Before: the pharmacist hand-off's user knew their date of birth and last name, never their
store, and the transfer's store was left to the simulated user's invention.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

PHARMACY = Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy"


def _facts(skill: str, kind: str) -> list[tuple[str, dict[str, str]]]:
    project = load_project(PHARMACY)
    out = []
    for behavior in plan_source(project, "mantle", skill, None).behaviors:
        if behavior.type != kind:
            continue
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        context = parse_fact_context(data["scenario"]["simulation_context"])
        out.append(
            (data["scenario"]["simulation_context"], {f.label: f.value for f in context.facts})
        )
    return out


def _home_store_of(context: str) -> str:
    """The name of the store the record of the patient the context opens with names (the
    caller, or the parent a caller speaks for)."""
    patients = json.loads((PHARMACY / "data" / "patients.json").read_text())
    opening = context.splitlines()[0]
    person = next(p for p in patients if f" {p['first_name']} {p['last_name']}," in opening)
    with (PHARMACY / "data" / "stores.csv").open(newline="") as handle:
        stores = {r["store_id"]: r["name"] for r in csv.DictReader(handle)}
    return stores[person["home_store"]]


def test_an_unverified_callers_transfer_has_their_own_store() -> None:
    cases = _facts("pharmacist_consult", "happy_path")
    assert cases
    for context, facts in cases:
        assert facts.get("home store") == _home_store_of(context)


def test_an_escalation_before_the_verification_has_the_store_one_after_it_not() -> None:
    """Asked for at the first identity question, nothing wrote the store yet; the refill's
    escalation comes after the verification wrote it: nothing to tell there."""
    [(context, facts)] = _facts("verify_patient", "escalation")
    assert facts.get("home store") == _home_store_of(context)
    for _, facts in _facts("refill_prescription", "escalation"):
        assert "home store" not in facts
