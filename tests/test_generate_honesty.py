"""A model's draft is valid only after the review rules an offline draft passes, and its
engine label says what actually ran.

Before: through a schema-enforcing server a small model's words (`name: '10, '`, a criterion
of `re_re_re…`) were written as valid cases labelled with the model's name, exit 0.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from test_generate_flow import BANK, llm_engine

from agentflows.generate import build_request, run_generation
from agentflows.generate._engines import FALLBACK
from agentflows.planning import asserted_elements
from agentflows.review.rules._words import unreadable
from evalcore.definitions import load_project

JUNK = {"name": "10, ", "simulation_context": "10. 10, ", "criteria": ["re_re_re_re_re " * 40]}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("10, ", "title"),
        ("10. 10, ", "context"),
        ("re_re_re_re_re re re", "criterion"),
        ("x" * 300, "title"),
        ("the the the the the the the the the agent", "criterion"),
        ("42 / 17 = 3 ; 9 - 4", "criterion"),
    ],
)
def test_unreadable_text_is_flagged(text: str, kind: str) -> None:
    assert unreadable(text, kind) is not None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Replace a lost card", "title"),
        ("a", "title"),
        ("T-1000", "title"),
        ("The agent confirms the delivery address before placing the order", "criterion"),
        ("You are Ana, 34.\n- date of birth: 30 November 1992\n- postcode: 73301", "context"),
    ],
)
def test_readable_text_passes(text: str, kind: str) -> None:
    assert unreadable(text, kind) is None


def _generate(tmp_path: Path, answer) -> dict:
    engine, _ = llm_engine(answer)
    request = build_request(["card_replace"], project=BANK, out=str(tmp_path / "out"))
    return asyncio.run(
        run_generation(request, engine=engine, checkpoints=tmp_path / "checkpoints.sqlite")
    )


def test_junk_words_never_reach_a_file_and_the_label_says_offline(tmp_path: Path, run_cli) -> None:
    report = _generate(tmp_path, lambda behavior: JUNK)
    assert report["cases"], report["failed"]
    for row in report["cases"]:
        assert row["engine"] == FALLBACK
        text = Path(row["path"]).read_text(encoding="utf-8")
        assert "10, " not in text.split("name:", 1)[1].splitlines()[0]
        assert "re_re" not in text
    assert report["engines"] == {FALLBACK: len(report["cases"])}
    _code, out, _ = run_cli("review", tmp_path / "out", "--project", BANK, "--model", "offline")
    assert "0 errors" in out, out


def test_usable_words_are_labelled_with_the_model(tmp_path: Path) -> None:
    def words(behavior: dict) -> dict:
        return {
            "name": f"Customer needs help: {behavior['title']}",
            "simulation_context": "",
            "criteria": ["The agent never reads out the full card number"],
        }

    report = _generate(tmp_path, words)
    assert report["cases"]
    assert {row["engine"] for row in report["cases"]} == {"llm:fake"}


# --- coverage counts what an assertion checks ------------------------------------------------


def _offline(tmp_path: Path, project: Path, target: str) -> dict:
    from agentflows.drafting.offline import OfflineEngine

    request = build_request([target], project=project, out=str(tmp_path / "out"))
    return asyncio.run(
        run_generation(request, engine=OfflineEngine(), checkpoints=tmp_path / "checkpoints.sqlite")
    )


def test_mantle_coverage_counts_only_asserted_elements(tmp_path: Path) -> None:
    import yaml

    report = _offline(tmp_path, BANK, "card_replace")
    cov = report["coverage"]["card_replace"]
    tools_asserted: set[str] = set()
    utters: set[str] = set()
    for row in report["cases"]:
        text = Path(row["path"]).read_text(encoding="utf-8")
        goals = yaml.safe_load(text)["scenario"]["goals"]
        for item in goals.get("assertions", []):
            tools_asserted |= (
                {item["tool_executed"]["tool_name"]} if "tool_executed" in item else set()
            )
            utters |= {item["bot_uttered"]["utter_name"]} if "bot_uttered" in item else set()
    covered = [e for e in cov_elements(report) if e not in cov["uncovered"]]
    assert len(covered) == cov["covered"]
    for element in covered:
        kind, _, name = element.partition(":")
        if kind == "tool":
            assert name in tools_asserted, element
        if kind == "response":
            assert name in utters, element
    # The tools a path runs, verify_identity included, are each asserted; an element a run
    # touches that no assertion names (a response a path utters unasserted) is touched, not
    # covered.
    assert "verify_identity" in tools_asserted and "tool:verify_identity" not in cov["uncovered"]
    assert cov["touched"], "some elements are touched without an assertion"
    for element in cov["touched"]:
        kind, _, name = element.partition(":")
        assert name not in (utters if kind == "response" else tools_asserted), element
    assert set(cov["touched"]) <= set(cov["uncovered"])


def cov_elements(report: dict) -> list[str]:
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    return plan_source(load_project(BANK), "mantle", "card_replace", None).elements


def test_anychat_coverage_counts_tools_the_checks_name(tmp_path: Path) -> None:
    from conftest import EXAMPLES

    report = _offline(tmp_path, EXAMPLES / "clinic", "book")
    cov = report["coverage"]["book"]
    called: set[str] = set()
    for row in report["cases"]:
        checks = json.loads(Path(row["path"]).read_text(encoding="utf-8"))["expect"]["checks"]
        called |= set(checks.get("toolsCalled") or {})
    assert cov["covered"] > 0
    assert all(
        e.removeprefix("tool:") in called
        for e in cov_all(report, EXAMPLES / "clinic", "anychat", "book")
        if e.startswith("tool:") and e not in cov["uncovered"]
    )


def cov_all(report: dict, project: Path, dialect: str, source: str) -> list[str]:
    from agentflows.planning import plan_source
    from evalcore.definitions import load_project

    return plan_source(load_project(project), dialect, source, None).elements


def test_a_direction_the_offline_drafter_cannot_use_is_said_and_not_pasted(
    tmp_path: Path, run_cli
) -> None:
    """`casegen mutate`'s suggested direction describes the case, not the person: offline it
    is said to be unused, and it never lands in a persona as "Keep in mind: …"."""
    clause = "the agent runs order_replacement without reading the summary back or waiting"
    direction = f"a case that fails when {clause} for a yes"
    args = ["generate", "card_replace", "--project", BANK, "--model", "offline"]
    args += ["--direction", direction, "--no-verify", "--count", "3"]
    code, out, _ = run_cli(*args, "--out", tmp_path / "human")
    assert code == 0, out
    assert f"direction not used offline: “{clause} for a yes”" in " ".join(out.split())
    for case in (tmp_path / "human").glob("*.yml"):
        text = " ".join(case.read_text(encoding="utf-8").split())
        assert "Keep in mind" not in text and "without reading the summary" not in text
    code, out, _ = run_cli(*args, "--out", tmp_path / "json", "--json")
    assert json.loads(out)["direction_unread"] == [f"{clause} for a yes"]
    used = ["--direction", "an impatient customer with a cracked chip"]
    code, out, _ = run_cli(*args[:6], *used, "--out", tmp_path / "used", "--json")
    assert code == 0 and json.loads(out)["direction_unread"] == []


def test_a_refusal_covers_its_gate_by_what_never_comes() -> None:
    """The gate's denial response is said only when the agent calls the tool; a refusal
    case that asserts the tool's success and writes held back covers the refusal."""
    project = load_project(BANK)
    held = [
        {"skill_activated": {"skill_id": "card_replace"}},
        {"bot_did_not_utter": {"utter_name": "utter_order_placed"}},
        {"memory_was_not_set": [{"name": "card_replace.order_id"}]},
    ]
    covers = ["deny:place_replacement_order"]

    def found(assertions: list[dict]) -> set[str]:
        data = {"scenario": {"goals": {"assertions": assertions}}}
        return asserted_elements(project, "mantle", "card_replace", data, covers)

    assert "deny:place_replacement_order" in found(held)
    ran = {"tool_executed": {"tool_name": "place_replacement_order", "source": "local"}}
    assert "deny:place_replacement_order" not in found([*held, ran])
