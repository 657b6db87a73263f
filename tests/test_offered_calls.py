"""A call the prose only offers or permits ("Offer to send an upload link with
@tool.send_upload_link", "you may check @tool.x") runs on the user's yes or the agent's
choice: no case asserts it as run, or a correct agent whose user declines fails the case.

Before: the claim-status web-chat case asserted `send_upload_link` while its user had no
answer to the offer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from skill_model_fixtures import generate_offline

from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_model

CORPUS = Path(__file__).parent / "data" / "corpus" / "harbor_mutual"


def _optional(root: Path, skill: str, tool: str) -> bool:
    model = skill_model(load_project(root), skill)
    use = next(u for u in model.tools if u.name == tool)
    return all(c.optional for c in use.calls if c.kind == "prose")


def _with_sentence(tmp_path: Path, sentence: str) -> Path:
    root = tmp_path / "project"
    shutil.copytree(CORPUS, root)
    path = root / "skills" / "claim_status" / "skill.md"
    old = "Offer to send an upload link with @tool.send_upload_link."
    path.write_text(path.read_text().replace(old, sentence))
    return root


def test_an_offered_call_is_left_to_the_users_answer() -> None:
    assert _optional(CORPUS, "claim_status", "send_upload_link")


def test_a_permitted_call_is_left_to_the_agent(tmp_path: Path) -> None:
    root = _with_sentence(tmp_path, "You may send an upload link with @tool.send_upload_link.")
    assert _optional(root, "claim_status", "send_upload_link")


def test_what_the_agent_says_or_the_user_cannot_do_is_no_permission(tmp_path: Path) -> None:
    root = _with_sentence(
        tmp_path,
        "Say you could not see the photos and send an upload link with @tool.send_upload_link.",
    )
    assert not _optional(root, "claim_status", "send_upload_link")


def test_no_case_asserts_an_offered_call_its_user_did_not_ask_for(tmp_path: Path) -> None:
    """Only the case whose user asks for the link outright (the call's cue) asserts it."""
    generate_offline(CORPUS, ["claim_status"], tmp_path)
    written = sorted((tmp_path / "cases").rglob("*.yml"))
    assert written
    for path in written:
        text = path.read_text()
        opener = next((line for line in text.splitlines() if "Open with:" in line), "")
        if "tool_name: send_upload_link" in text:
            assert "upload link" in opener, path.name


def test_a_call_limited_to_a_purpose_is_left_to_the_agent() -> None:
    assert _optional(CORPUS, "file_claim", "lookup_coverage")


def test_a_call_limited_to_answering_a_question_waits_for_it() -> None:
    """ "Use @tool.lookup_coverage only to say what the policy covers in general words": the
    user who asks what the policy covers is the call's cue (the clause's own words only)."""
    model = skill_model(load_project(CORPUS), "file_claim")
    use = next(u for u in model.tools if u.name == "lookup_coverage")
    cues = [c.cue for c in use.calls if c.kind == "prose"]
    assert cues == ["they ask what the policy covers"]


def test_only_the_case_whose_user_asks_asserts_a_block_tool_the_prose_permits(
    tmp_path: Path,
) -> None:
    """The block lists lookup_coverage, but no run calls it unasked: only the case that
    opens with the question asserts it."""
    generate_offline(CORPUS, ["file_claim"], tmp_path)
    written = sorted((tmp_path / "cases").rglob("*.yml"))
    asserting = [p for p in written if "tool_name: lookup_coverage" in p.read_text()]
    assert [p.name for p in asserting] == ["file_claim_policy_covers_edge_case.yml"]
    text = asserting[0].read_text()
    assert "I want to know what the policy covers." in text


def test_a_call_made_during_a_window_its_tool_checks_is_left_to_the_run() -> None:
    """ "During business hours (…) transfer the call with @tool.transfer_to_queue", and the
    tool answers "outside_business_hours" itself: which side of the window a run falls on
    no case can pin, so walks leave the call out (a criterion judges either side)."""
    assert _optional(CORPUS, "adjuster_handoff", "transfer_to_queue")


def test_a_window_no_code_checks_leaves_the_call_to_the_run(tmp_path: Path) -> None:
    """The same sentence to a tool that never reads the clock: nothing says whether the run
    falls in the window, so walks leave the call out."""
    root = tmp_path / "project"
    shutil.copytree(CORPUS, root)
    path = root / "skills" / "adjuster_handoff" / "tools.py"
    path.write_text(path.read_text().replace("    if not _open_now():", "    if False:"))
    assert _optional(root, "adjuster_handoff", "transfer_to_queue")


def test_the_same_call_without_its_window_is_a_step(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(CORPUS, root)
    path = root / "skills" / "adjuster_handoff" / "skill.md"
    old = "During business hours (Monday to Friday, 8am to 8pm Eastern) transfer"
    path.write_text(path.read_text().replace(old, "Transfer"))
    assert not _optional(root, "adjuster_handoff", "transfer_to_queue")


def test_no_case_asserts_a_call_the_clock_decides(tmp_path: Path) -> None:
    """The phone hand-off asserts neither side of the business-hours window: its criterion
    quotes both sentences, its run-date note says the clock decides, and its user stops on
    the other side's offer too."""
    generate_offline(CORPUS, ["adjuster_handoff"], tmp_path)
    written = sorted((tmp_path / "cases").rglob("*.yml"))
    assert written
    for path in written:
        assert "tool_name: transfer_to_queue" not in path.read_text(), path.name
    phone = next(p.read_text() for p in written if "phone_happy_path" in p.name)
    flat = " ".join(phone.split())
    assert '"Outside those hours, offer a callback instead."' in flat, phone
    dated = [x for x in phone.splitlines() if x.startswith("# run date:")]
    assert len(dated) == 1 and "its criterion allows either" in dated[0], dated
    # inside the window a correct agent transfers for real: the file says so
    assert "# outside service: transfer_to_queue" in phone, phone
    assert "or once you have answered whether you want a callback instead" in flat, phone
    assert "needs-review" not in phone, phone


def test_an_offered_call_is_taken_on_what_the_user_says() -> None:
    """ "Offer to send an upload link with @tool.send_upload_link": the user who takes the
    offer says they want it, and that is the call's cue."""
    model = skill_model(load_project(CORPUS), "claim_status")
    use = next(u for u in model.tools if u.name == "send_upload_link")
    cues = [c.cue for c in use.calls if c.kind == "prose"]
    assert cues == ["they want you to send an upload link"]


def test_a_case_plays_the_user_who_takes_an_offer(tmp_path: Path) -> None:
    """ "Then offer a replacement with @tool.order_replacement_fob", on the lost-fob branch:
    one case opens with that branch's request and the wish for a replacement, and asserts
    both the branch's own call and the offered one; the plain lost-fob case still does not
    assert the offered call."""
    root = Path(__file__).parent / "data" / "corpus" / "oakline_residents"
    generate_offline(root, ["door_access"], tmp_path)
    taking: list[str] = []
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        text = path.read_text()
        if "tool_name: order_replacement_fob" in text:
            taking.append(path.name)
            assert "tool_name: deactivate_fob" in text, path.name
            assert "I want a replacement." in text, path.name
    assert taking == ["door_access_replacement_edge_case.yml"]


def test_a_clause_a_flags_description_says_is_its_condition() -> None:
    """ "If the car cannot be driven, offer a rental with @tool.request_rental_car" names no
    field, but `vehicle_drivable` is "True when the car can still be driven safely": the
    offer waits for that flag's false side, and the user who takes it says they want one."""
    model = skill_model(load_project(CORPUS), "file_claim")
    use = next(u for u in model.tools if u.name == "request_rental_car")
    (call,) = [c for c in use.calls if c.kind == "prose"]
    assert call.when == "not session.file_claim.vehicle_drivable"
    assert call.cue == "they want a rental"


def test_a_case_makes_an_offers_condition_hold(tmp_path: Path) -> None:
    """No plain case has the car undrivable, so none runs the rental: one case answers that
    it cannot be driven and asks for a rental; the rental waits for the claim number the
    claims service answers, so the case says it as what follows that success."""
    behaviors = plan_source(load_project(CORPUS), "mantle", "file_claim", None).behaviors
    (taking,) = [b for b in behaviors if "request_rental_car" in str(b.facts.get("cue"))]
    assert taking.facts["values"]["file_claim.vehicle_drivable"] is False
    generate_offline(CORPUS, ["file_claim"], tmp_path)
    (case,) = (tmp_path / "cases").rglob("file_claim_rental_edge_case.yml")
    text = case.read_text()
    assert "whether the car can still be driven: no" in text
    assert "I want a rental." in text
    assert "If submit_claim succeeds, the agent goes on to request_rental_car" in text
