"""The reference agent against what casegen drafts for projects it did not write: generated
happy paths pass on corpus projects, and `casegen mutate` reads a hand-written suite."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agentflows.generate import build_request, run_generation
from agentflows.mutate import mutate
from evalcore.agents.reference import ReferenceTarget
from evalcore.runner import RunOptions, collect_cases, run_cases
from evalcore.simulator import SimulatorSettings

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
BANK = REPO / "examples" / "bank"


def _happy_statuses(project: Path, skill: str, tmp: Path) -> dict[str, str]:
    async def run() -> dict[str, str]:
        request = build_request(
            [skill], project=project, model="offline", cases_root=str(tmp / "cases")
        )
        await run_generation(request, checkpoints=tmp / "checkpoints.sqlite")
        cases = [c for c in collect_cases([tmp / "cases"], project=project) if "happy" in c.slug]
        target = ReferenceTarget(project)
        options = RunOptions(simulator=SimulatorSettings(project=target.project)).with_models()
        report = await run_cases(cases, target, options)
        return {r.scenario_slug: r.status for r in report.records}

    return asyncio.run(run())


@pytest.mark.parametrize(
    ("project", "skill"),
    [("harbor_mutual", "file_claim"), ("meadow_pharmacy", "refill_prescription")],
)
def test_generated_happy_paths_pass_the_reference_agent(project: str, skill: str, tmp_path):
    statuses = _happy_statuses(CORPUS / project, skill, tmp_path)
    assert len(statuses) >= 2
    assert statuses == dict.fromkeys(statuses, "passed")


def test_mutate_reads_the_hand_written_bank_suite():
    cases = collect_cases([BANK / "eval" / "scenarios"], project=BANK)
    only = [
        "skip_confirmation:place_replacement_order",
        "wrong_enum:card_replace.replacement_reason",
        "never_handoff",
    ]
    report = asyncio.run(mutate(cases, BANK, concurrency=3, only=only))
    assert set(report.reference) == {c.slug for c in cases}
    # a context in free prose is played from the facts it gives (no error); it names no
    # date of birth, postcode or card, so it cannot finish and kills nothing
    assert report.reference["card_replace_damaged"] == "failed"
    assert report.reference["card_replace_refused_confirmation"] == "passed"
    matrix = {r.mutant.id: r.killed_by for r in report.results}
    assert (
        "card_replace_refused_confirmation" in matrix["skip_confirmation:place_replacement_order"]
    )
    assert all("card_replace_damaged" not in killed for killed in matrix.values())
    body = report.to_json()
    assert body["mutants"] == 3 and 0 <= body["score"] <= 1
    for survivor in body["survivors"]:
        assert survivor["suggestion"].startswith("casegen generate ")
        assert "--direction" in survivor["suggestion"]


OFF_TOPIC = """\
scenario:
  name: An unrelated question instead of the card
  type: out_of_scope
  simulation_context: |
    You are Sam Okafor, a customer, polite and to the point.
    You want to replace a card.
    What you know (share each only when the agent asks):
    - date of birth: 23 April 1995
    - postcode: 98103
    - which one needs replacing: Everyday Debit ending 4821
    - what happened to the card: lost
    - how should we send the new card: standard
    When the agent asks which one needs replacing the first time, say instead: "{question}"
    When the agent reads the details back and asks you to confirm, agree.
    When the agent asks whether there is anything else, say no.
    Stop once the agent has told you the outcome and asks nothing more.
  setup:
    initial_slots:
      project.caller_phone: '+15550108'
  goals:
    assertions:
      - bot_uttered:
          utter_name: utter_cannot_help
      - skill_completed:
          skill_id: card_replace
""".format(question="Do you know a good recipe for lasagne?")


def test_a_question_back_is_not_taken_as_the_answer(tmp_path: Path):
    """An off-topic question where a free-text answer was asked gets the project's
    cannot-help response and the question again, so the task still completes."""
    (tmp_path / "off_topic.yml").write_text(OFF_TOPIC, encoding="utf-8")
    cases = collect_cases([tmp_path / "off_topic.yml"], project=BANK)
    target = ReferenceTarget(BANK)
    options = RunOptions(simulator=SimulatorSettings(project=target.project)).with_models()
    report = asyncio.run(run_cases(cases, target, options))
    assert [r.status for r in report.records] == ["passed"]
