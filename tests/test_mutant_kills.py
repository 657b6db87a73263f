"""Every mutant kind is killed by a case that checks what it breaks, and survived by a case
that does not: the kill matrix `casegen mutate` reports is about the suite's assertions."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import yaml
from reference_fixtures import write_claims

from agentflows.mutate import mutate
from evalcore.agents.reference import KINDS
from evalcore.runner import collect_cases

FILE = ["I need to file a claim", "My car", "Someone backed into it", "Yes, go ahead"]
DIGRESS = ["I need to file a claim", "Before that, look up my policy number", "HM-100"]
PERSON = ["I need to file a claim", "Can I talk to a person please?"]

#: kind -> (mutant id, user lines, an assertion the mutant breaks)
KILLERS: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "skip_confirmation": (
        "skip_confirmation:submit_claim",
        FILE,
        {"bot_uttered": {"utter_name": "utter_confirm_claim"}},
    ),
    "ignore_requires": (
        "ignore_requires:submit_claim",
        FILE,
        {
            "sequencing": [
                {"memory_was_set": "file_claim.details_verified"},
                {"tool_executed": {"tool_name": "submit_claim", "source": "local"}},
            ]
        },
    ),
    "skip_step": (
        "skip_step:file_claim.collect_details.ask_description",
        FILE,
        {"memory_was_set": [{"name": "file_claim.description"}]},
    ),
    "forget_memory": (
        "forget_memory:file_claim.claim_id",
        FILE,
        {"memory_was_set": [{"name": "file_claim.claim_id"}]},
    ),
    "wrong_enum": (
        "wrong_enum:file_claim.claim_type",
        FILE,
        {"memory_was_set": [{"name": "file_claim.claim_type", "value": "car"}]},
    ),
    "drop_on_success": (
        "drop_on_success:submit_claim",
        FILE,
        {"bot_uttered": {"utter_name": "utter_claim_filed"}},
    ),
    "wrong_argument": (
        "wrong_argument:submit_claim",
        FILE,
        {
            "tool_executed": {
                "tool_name": "submit_claim",
                "source": "local",
                "arguments": {"claim_type": "car"},
            }
        },
    ),
    "fail_silently": (
        "fail_silently:submit_claim",
        FILE,
        {"tool_executed": {"tool_name": "submit_claim", "source": "local", "is_error": False}},
    ),
    "ignore_digression": (
        "ignore_digression",
        DIGRESS,
        {"skill_interrupted": {"skill_id": "file_claim"}},
    ),
    "never_handoff": (
        "never_handoff",
        PERSON,
        {"skill_activated": {"skill_id": "human_handoff"}},
    ),
}


def _case(name: str, lines: list[str], assertion: dict[str, Any]) -> dict[str, Any]:
    steps = " ".join(f'{i}. Say: "{line}"' for i, line in enumerate(lines, 1))
    return {
        "scenario": {
            "name": name,
            "type": "edge_case",
            "simulation_context": f"Follow these steps: {steps}",
            "setup": {"initial_slots": {"project.caller_phone": "+15550142"}},
            "goals": {"assertions": [{"skill_activated": {"skill_id": "file_claim"}}, assertion]},
        }
    }


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One killing and one weak case per kind, played against every kind's mutant."""
    root = write_claims(tmp_path_factory.mktemp("kills"))
    folder = root / "eval" / "scenarios"
    folder.mkdir(parents=True)
    for kind, (_, lines, assertion) in KILLERS.items():
        (folder / f"{kind}_checks.yml").write_text(
            yaml.safe_dump(_case(f"{kind} checks", lines, assertion), sort_keys=False)
        )
        # the same conversation, asserting only what every mutant still does
        weak = {"skill_activated": {"skill_id": "file_claim"}}
        (folder / f"{kind}_weak.yml").write_text(
            yaml.safe_dump(_case(f"{kind} weak", lines, weak), sort_keys=False)
        )
    cases = collect_cases([folder], project=root)
    only = [mutant_id for mutant_id, _, _ in KILLERS.values()]
    report = asyncio.run(mutate(cases, root, concurrency=4, only=only))
    assert all(s == "passed" for s in report.reference.values()), report.reference
    return {r.mutant.id: r.killed_by for r in report.results}


def test_the_table_covers_every_kind():
    assert set(KILLERS) == set(KINDS)


@pytest.mark.parametrize("kind", list(KILLERS))
def test_a_case_built_for_the_kind_kills_it_and_a_weak_one_does_not(
    kind: str, matrix: dict[str, list[str]]
):
    mutant_id = KILLERS[kind][0]
    killers = [s for s in matrix[mutant_id] if s.startswith(kind)]
    assert f"{kind}_checks" in killers
    assert f"{kind}_weak" not in matrix[mutant_id]


def test_a_suite_of_weak_cases_scores_nothing(matrix: dict[str, list[str]]):
    weak = {s for killed in matrix.values() for s in killed if s.endswith("_weak")}
    assert weak == set()
