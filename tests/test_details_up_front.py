"""Details given up front come in the task's first message and ask for one request: behind a
sign-in the runtime runs for the request (`resolve_with`), the request is the opening (the
sign-in follows because the agent requires it), and no phrase of it states another value
of a field the case fixes or asks for another job."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import yaml

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.runner import collect_cases
from evalcore.simulator import parse_fact_context

LAB = Path(__file__).resolve().parent / "data" / "corpus" / "tidewater_core"


@pytest.fixture(scope="module")
def drafts() -> dict[str, dict]:
    project = load_project(LAB)
    out = {}
    for skill in ("instrument_time", "sample_drop_off"):
        behaviors = plan_source(project, "mantle", skill, None).behaviors
        case = next(b for b in behaviors if b.facts.get("kind") == "out_of_order")
        out[skill] = {"case": case, "data": draft_mantle(DraftContext(project, "mantle", case))}
    return out


def _context(drafts: dict[str, dict], skill: str):
    return parse_fact_context(drafts[skill]["data"]["scenario"]["simulation_context"])


def test_behind_a_sign_in_the_details_are_the_opening(drafts: dict[str, dict]) -> None:
    """A sign-in is no opening: "It says my badge isn't recognised" from a researcher whose
    badge is valid, with the real request later, is not how such a case starts."""
    project = load_project(LAB)
    sign_in = " ".join(project.mantle.skills["identify_researcher"].description.split()).lower()
    for skill in drafts:
        context = _context(drafts, skill)
        assert not context.after_first and not context.before_end, context
        opening = (context.opening or "").lower().rstrip(".")
        assert opening and opening not in sign_in, (skill, context.opening)


def test_the_request_names_no_other_value_and_no_other_job(drafts: dict[str, dict]) -> None:
    """A flow-cytometer booking never opens with "book the confocal" or an extension's
    "two more hours"; a case with 83 samples never says it has 24."""
    booking = _context(drafts, "instrument_time").opening or ""
    assert "flow cytometer" in booking.lower(), booking
    assert "confocal" not in booking.lower() and "more hours" not in booking.lower(), booking
    samples = _context(drafts, "sample_drop_off")
    count = next(f.value for f in samples.facts if "how many" in f.label)
    said = re.findall(r"\d+", samples.opening or "")
    assert all(n == count for n in said), (samples.opening, count)


def test_the_request_that_needs_a_sign_in_verifies(drafts: dict[str, dict], tmp_path: Path) -> None:
    """The reference agent runs the resolver skill for a request whose skill's precondition
    is false, then takes the request up: the case passes against it."""
    assert "book" in (_context(drafts, "instrument_time").opening or "")
    folder = tmp_path / "cases"
    folder.mkdir()
    data = drafts["instrument_time"]["data"]
    (folder / "up_front.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = asyncio.run(mutate(collect_cases([folder], project=LAB), LAB, only=[]))
    assert report.reference == {"up_front": "passed"}, report.reference


CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


@pytest.fixture(scope="module")
def several() -> dict[str, dict]:
    """Details-up-front drafts whose paths ask several values the user holds (the
    behaviour's values given up front beside the scenario)."""
    out = {}
    for name, skill in (("northstar_exec", "travel"), ("skyway_air", "baggage")):
        project = load_project(CORPUS / name)
        behaviors = plan_source(project, "mantle", skill, None).behaviors
        case = next(b for b in behaviors if b.facts.get("kind") == "out_of_order")
        scenario = draft_mantle(DraftContext(project, "mantle", case))["scenario"]
        out[skill] = {"scenario": scenario, "given": dict(case.facts.get("given") or {})}
    return out


def test_an_up_front_opening_says_its_values_as_values_in_one_sentence(
    several: dict[str, dict],
) -> None:
    """ "Domestic, please." and "Track, please." are a template's words, not a traveller's:
    the values follow the request in the same sentence."""
    for skill, drafted in several.items():
        context = parse_fact_context(drafted["scenario"]["simulation_context"])
        opening = context.opening or ""
        assert not re.search(r"\b\w+, please\.", opening), (skill, opening)
        assert opening.count(". ") == 0, (skill, opening)


def test_an_up_front_opening_gives_several_held_details_and_they_are_not_asked_again(
    several: dict[str, dict],
) -> None:
    """One detail up front (the mode) makes the case a happy path again: the opening
    also lists held facts the path asks (a bag tag, a destination), and a criterion says
    the agent does not ask for them again."""
    for skill, drafted in several.items():
        context = parse_fact_context(drafted["scenario"]["simulation_context"])
        opening = context.opening or ""
        held = [f for f in context.facts if f.value in opening]
        assert held and len(held) + len(drafted["given"]) >= 2, (skill, opening, context.facts)
        criteria = " ".join(drafted["scenario"]["goals"]["criteria"])
        assert all(f.label in criteria for f in held), (skill, criteria)
