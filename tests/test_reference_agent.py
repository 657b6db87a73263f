"""The reference agent (`mantle:DIR`) plays a small project from its skill model, and each
mutant kind changes its behaviour the way its id says."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from reference_fixtures import write_claims

from evalcore.agents import UserTurn, parse_target
from evalcore.agents.reference import KINDS, ReferenceTarget, mutants
from evalcore.errors import UserError

FAILING_PHONE = "+15550150"


@pytest.fixture(scope="module")
def claims(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_claims(tmp_path_factory.mktemp("claims"))


def play(
    root: Path, lines: list[str], *, mutant: str | None = None, phone: str = "+15550142"
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    async def run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        target = ReferenceTarget(root, mutant=mutant)
        session = await target.open({"slug": "t"}, 1)
        await session.send(
            UserTurn(type="start", setup={"initial_slots": {"project.caller_phone": phone}})
        )
        for line in lines:
            reply = await session.send(UserTurn(type="text", text=line))
            if reply.ended:
                break
        final = await session.close()
        return final.events or [], final.meta

    return asyncio.run(run())


def tools(events: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    return [(e["tool_name"], e["is_error"]) for e in events if e["event"] == "tool_executed"]


def utters(events: list[dict[str, Any]]) -> list[str]:
    return [
        (e.get("metadata") or {}).get("utter_action") or "" for e in events if e["event"] == "bot"
    ]


def memory(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {e["key"]: e["value"] for e in events if e["event"] == "memory_set"}


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


HAPPY = [
    "I need to file a claim",
    "My car",
    "Someone backed into it",
    "Yes, go ahead",
    "No thanks, bye",
]


def test_prose_called_gated_tool_runs_after_its_confirmation(claims: Path):
    events, meta = play(claims, HAPPY)
    assert memory(events)["file_claim.claim_type"] == "car"
    assert memory(events)["file_claim.details_verified"] is True
    assert tools(events) == [("submit_claim", False)]
    names = utters(events)
    assert names.index("utter_confirm_claim") < names.index("utter_claim_filed")
    assert "file_claim.claim_id" in memory(events)
    assert {"event": "skill_completed", "skill_id": "file_claim"}.items() <= next(
        e for e in events if e["event"] == "skill_completed"
    ).items()
    assert meta["agent"] == f"mantle:{claims}"


def test_refused_confirmation_runs_nothing(claims: Path):
    events, _ = play(claims, [*HAPPY[:3], "No, don't file it"])
    assert tools(events) == []
    assert "utter_claim_not_filed" in utters(events)
    assert "file_claim.claim_id" not in memory(events)


def test_failing_tool_utters_on_failure(claims: Path):
    events, _ = play(claims, HAPPY, phone=FAILING_PHONE)
    assert tools(events) == [("submit_claim", True)]
    assert "utter_claim_failed" in utters(events)
    assert "utter_claim_filed" not in utters(events)


def test_link_hands_the_conversation_over(claims: Path):
    events, _ = play(claims, ["I need to file a claim", "Something else entirely, other"])
    activated = [e["skill_id"] for e in events if e["event"] == "skill_activated"]
    assert activated == ["file_claim", "human_handoff"]
    assert tools(events) == [("transfer_to_agent", False)]
    assert memory(events)["human_handoff.transferred"] is True


def test_lookup_returns_the_matching_data_file_record(claims: Path):
    events, _ = play(claims, ["Can you look up my policy number?", "It's HM-200"])
    (call,) = [e for e in events if e["event"] == "tool_executed"]
    assert call["tool_name"] == "find_policy"
    assert call["result"]["holder_name"] == "Ben Ortiz"
    assert memory(events)["policy_lookup.holder_name"] == "Ben Ortiz"


def test_records_in_a_data_sub_folder_are_the_ones_the_cases_draw(tmp_path: Path):
    """The reference agent reads data/ as the test data does: sub-folders and CSV too, so a
    record a case names is one the agent finds."""
    from evalcore.agents.reference._backend import load_records
    from evalcore.testdata import load_records as drafted_from

    root = write_claims(tmp_path / "claims")
    moved = root / "data" / "registry"
    moved.mkdir()
    (root / "data" / "policies.json").rename(moved / "policies.json")
    (moved / "agents.csv").write_text("agent_id,name\nAG-7,Dana Reyes,extra cell\n")
    events, _ = play(root, ["Can you look up my policy number?", "It's HM-200"])
    (call,) = [e for e in events if e["event"] == "tool_executed"]
    assert call["result"]["holder_name"] == "Ben Ortiz"
    drafted = {c.name: list(c.records) for c in drafted_from(root).collections}
    assert load_records(root) == drafted
    assert drafted["agents"] == [{"agent_id": "AG-7", "name": "Dana Reyes"}]


def test_a_request_for_a_person_mid_skill_interrupts_it(claims: Path):
    events, _ = play(claims, ["I need to file a claim", "Can I talk to a person please?"])
    assert "skill_interrupted" in kinds(events)
    assert ("transfer_to_agent", False) in tools(events)


# --- mutants ------------------------------------------------------------------------------


def test_every_kind_has_a_mutant_on_the_claims_project(claims: Path):
    ids = [m.id for m in mutants(ReferenceTarget(claims).project)]
    assert {i.partition(":")[0] for i in ids} == set(KINDS)
    assert "skip_confirmation:submit_claim" in ids
    assert ids == sorted(set(ids), key=ids.index)


def test_skip_confirmation(claims: Path):
    events, meta = play(claims, HAPPY[:3], mutant="skip_confirmation:submit_claim")
    assert tools(events) == [("submit_claim", False)]
    assert "utter_confirm_claim" not in utters(events)
    assert meta["mutant"] == "skip_confirmation:submit_claim"


def test_ignore_requires_runs_the_tool_first(claims: Path):
    events, _ = play(claims, HAPPY[:1], mutant="ignore_requires:submit_claim")
    assert tools(events) == [("submit_claim", False)]
    assert "file_claim.details_verified" not in memory(events)
    plain, _ = play(claims, HAPPY[:1])
    assert tools(plain) == []


def test_skip_step(claims: Path):
    events, _ = play(claims, HAPPY, mutant="skip_step:file_claim.collect_details.ask_description")
    assert "utter_ask_description" not in utters(events)
    assert "file_claim.description" not in memory(events)


def test_forget_memory(claims: Path):
    events, _ = play(claims, HAPPY, mutant="forget_memory:file_claim.details_verified")
    assert "file_claim.details_verified" not in memory(events)
    assert tools(events) == []


def test_wrong_enum(claims: Path):
    events, _ = play(claims, HAPPY, mutant="wrong_enum:file_claim.claim_type")
    assert memory(events)["file_claim.claim_type"] == "home"


def test_drop_on_success(claims: Path):
    events, _ = play(claims, HAPPY, mutant="drop_on_success:submit_claim")
    assert tools(events) == [("submit_claim", False)]
    assert "utter_claim_filed" not in utters(events)


def test_wrong_argument(claims: Path):
    good, _ = play(claims, HAPPY)
    bad, _ = play(claims, HAPPY, mutant="wrong_argument:submit_claim")
    (right,) = [e["arguments"] for e in good if e["event"] == "tool_executed"]
    (wrong,) = [e["arguments"] for e in bad if e["event"] == "tool_executed"]
    assert right != wrong and right.keys() == wrong.keys()


def test_fail_silently(claims: Path):
    events, _ = play(claims, HAPPY, mutant="fail_silently:submit_claim")
    assert tools(events) == [("submit_claim", True)]
    assert "utter_claim_filed" in utters(events)
    assert "utter_claim_failed" not in utters(events)


def test_ignore_digression(claims: Path):
    lines = ["I need to file a claim", "Can you look up my policy number?"]
    good, _ = play(claims, lines)
    bad, _ = play(claims, lines, mutant="ignore_digression")
    assert "skill_interrupted" in kinds(good)
    assert "skill_interrupted" not in kinds(bad)


def test_never_handoff(claims: Path):
    lines = ["I need to file a claim", "Can I talk to a person please?"]
    events, _ = play(claims, lines, mutant="never_handoff")
    assert ("transfer_to_agent", False) not in tools(events)
    linked, _ = play(claims, ["I need to file a claim", "other"], mutant="never_handoff")
    assert "human_handoff" not in [e.get("skill_id") for e in linked]


def test_target_spec_parses_and_unknown_mutant_suggests(claims: Path):
    target = parse_target(f"mantle:{claims}?mutant=skip_confirmation:submit_claim")
    assert target.spec.endswith("?mutant=skip_confirmation:submit_claim")
    with pytest.raises(UserError) as caught:
        parse_target(f"mantle:{claims}?mutant=skip_confirmation:submit_clam")
    assert "skip_confirmation:submit_claim" in (caught.value.hint or "")
    with pytest.raises(UserError, match="no such project"):
        parse_target("mantle:/no/such/dir")
    with pytest.raises(UserError, match="unknown option"):
        parse_target(f"mantle:{claims}?mutnt=x")


BANK = EXAMPLES / "bank"


def test_a_question_a_description_quotes_asks_for_its_skill():
    # "What's my balance?" is check_balance's own example request: never "cannot help"
    events, _ = play(BANK, ["What's my balance?"])
    assert {"event": "skill_activated", "skill_id": "check_balance"}.items() <= next(
        e for e in events if e["event"] == "skill_activated"
    ).items()
    assert "utter_cannot_help" not in utters(events)


def test_calling_the_skill_off_is_not_the_answer_to_its_question():
    said = ["I lost my card", "My date of birth is 14 March 1986 and my postcode is 94110."]
    events, _ = play(BANK, [*said, "Never mind, cancel that."])
    assert "skill_cancelled" in kinds(events)
    # the card question was not answered with the words "Never mind, cancel that."
    assert "card_replace.selected_card_id" not in memory(events)
    assert "check_replacement_eligibility" not in [name for name, _ in tools(events)]
