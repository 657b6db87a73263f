"""What a case asks of the project's variants is answered from indexes built once per loaded
project, so a case costs the same with more skills; each index answers as the scan did."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting.offline import _mantle_answers
from agentflows.drafting.offline._mantle_answers import (
    outside_successes,
    outside_tools,
    success_tool,
)
from agentflows.drafting.offline._mantle_path import answered_keys
from agentflows.generate._verify_play import Played
from agentflows.generate._verify_variants import on_path, site_index
from benchmarks.synthetic import write_project
from evalcore.agents.reference import _equivalent, _mantle_words, _variants, variants
from evalcore.agents.reference._mantle_words import SkillWords
from evalcore.definitions import Skill, load_project
from evalcore.definitions.skill_model import (
    ToolUse,
    answer_writers,
    outside_effect,
    runtime_reads,
)
from evalcore.dialects.mantle import _outside as _mantle_outside
from evalcore.testdata import _people
from evalcore.testdata._shared_scan import Scan

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_project(write_project(tmp_path_factory.mktemp("skills") / "p", 12, distinct=True))


@pytest.mark.parametrize("seed", range(6))
def test_variants_on_a_path_from_the_site_index_are_the_scans(project: Any, seed: int) -> None:
    found = variants(project)
    assert found
    pick = random.Random(seed)
    sites = [v.site for v in found]
    passed: set[Any] = set(pick.sample(sites, k=pick.randint(0, len(sites))))
    passed |= {("step", "elsewhere"), ("reply", None)}  # sites no variant has
    record = Played("passed", reached=passed)
    assert on_path(found, record, site_index(found)) == on_path(found, record)
    assert on_path(found, Played("passed"), site_index(found)) == []


def test_a_skills_optional_fields_do_not_build_every_skills_model(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    defs = project.mantle
    skipped = {v.target for v in variants(project) if v.kind == "skip_optional"}
    expected = {}
    for skill_id in defs.skills:
        fields = {f.qualified for f in _variants.skill_models(project)[skill_id].fields}
        expected[skill_id] = frozenset(fields & skipped)
    everything: list[int] = []
    real = _variants.skill_models
    monkeypatch.setattr(_variants, "skill_models", lambda p: everything.append(1) or real(p))
    answers = {s: _variants._optional(project, s) for s in defs.skills}
    assert answers == expected
    assert _variants._optional(project, "no_such_skill") == frozenset()
    assert everything == []  # one skill's model per skill, not the whole map each time


def _successes_by_scan(project: Any, outside: frozenset[str], ran: list[Any]) -> dict[str, str]:
    """What a case's goals read before the index: every skill's constraints, per case."""
    successes: dict[str, str] = {}
    for skill in project.mantle.skills.values():
        for tool, c in skill.tool_constraints.items():
            if tool in outside and c.on_success and successes.get(c.on_success) not in ran:
                successes[c.on_success] = tool
    return successes


@pytest.mark.parametrize("seed", range(8))
def test_the_outside_success_index_names_the_tool_the_scan_named(seed: int) -> None:
    project = load_project(BANK)
    outside = outside_tools(project)
    index = outside_successes(project.mantle, outside)
    assert any(len(tools) > 1 for tools in index.values())  # a response two tools share
    pick = random.Random(seed)
    tools = sorted({t for s in project.mantle.skills.values() for t in s.tool_constraints})
    ran = pick.sample([*tools, None], k=pick.randint(0, len(tools)))
    expected = _successes_by_scan(project, outside, ran)
    responses = set(project.mantle.all_responses()) | {"utter_nothing"}
    for response in sorted(responses):
        assert success_tool(index, response, ran) == expected.get(response), response


def test_the_kept_answer_writers_are_the_filtered_ones_and_a_fresh_dict() -> None:
    project = load_project(BANK)
    answered = answered_keys(project) | {"project.caller"}
    own, writers = _mantle_answers._answered_writers(project, answered)
    assert own == frozenset(k for k in answered if not k.startswith("project."))
    assert writers == {k: t for k, t in answer_writers(project).items() if k in own}
    writers["x"] = "y"  # the caller adds the listed picks to it
    assert "x" not in _mantle_answers._answered_writers(project, answered)[1]


_PIECES = ["Patients", "and", "nurses", "call", "or", "text", "to", "you", "reach", "us", "."]
_PIECES += [". ", "; ", ":", "!  ", "? ", " ", "\n", "e.g.", "Riders", "write", "Call"]


@pytest.mark.parametrize("seed", range(40))
def test_a_texts_sentences_split_after_the_kept_shared_start_answer_as_a_whole_split(
    seed: int,
) -> None:
    pick = random.Random(seed)

    def words(n: int) -> str:
        return "".join(pick.choice(_PIECES) + pick.choice(["", " "]) for _ in range(n))

    shared = words(pick.randint(0, 30))
    for _ in range(3):
        text = shared + words(pick.randint(0, 20))
        scan = Scan(text, shared)
        whole = [w for s in _people._SENTENCE_END.split(text.lower()) for w in _people._caller(s)]
        assert scan.split_answers(_people._SENTENCE_END, _people._caller) == whole
        assert whole == _people._callers(text)


def test_the_callers_of_the_shared_start_and_of_the_skills_own_words_are_found() -> None:
    shared = "Patients call you. Nurses and doctors text to you; Riders write us. "
    text = shared + "Staff call you! Then"
    found = Scan(text, shared).split_answers(_people._SENTENCE_END, _people._caller)
    assert found == ["patients", "nurses", "riders", "staff"] == _people._callers(text)


def test_a_routed_line_is_weighed_once_and_answers_as_a_fresh_routing(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    defs = project.mantle
    skills = [s for s in defs.skills.values() if not s.disabled]
    kept, fresh = SkillWords(skills), SkillWords(skills)
    lines = [s.description or s.id for s in skills] + ["hello there", ""]
    closings = [frozenset(), {skills[0].id}, {s.id for s in skills[:3]}]
    expected = {
        (line, frozenset(c)): _mantle_words.routed_skill(defs, fresh, line, set(c))
        for line in lines
        for c in closings
    }
    fresh.routes.clear()
    assert any(v is not None for v in expected.values())
    weighed: list[str] = []
    real = _mantle_words.routing_scores
    monkeypatch.setattr(
        _mantle_words, "routing_scores", lambda *a: weighed.append(a[2]) or real(*a)
    )
    for _ in range(3):
        for line in lines:
            for closed in closings:
                answer = _mantle_words.routed_skill(defs, kept, line, set(closed))
                assert answer == expected[line, frozenset(closed)]
    assert len(weighed) == len(expected)  # each line and closing weighed once


def test_the_memory_view_is_the_maps_entries_read_only_and_follows_a_resize() -> None:
    defs = load_project(BANK).mantle
    view = defs.memory_view()
    assert dict(view) == defs.memory_names() and list(view) == list(defs.memory_names())
    with pytest.raises(TypeError):
        view["x"] = next(iter(view.values()))  # type: ignore[index]
    gone = next(iter(defs.skills))
    defs.skills = {k: v for k, v in defs.skills.items() if k != gone}
    assert dict(defs.memory_view()) == defs.memory_names()
    assert not any(k.startswith(gone + ".") for k in defs.memory_view())


def _rests_by_scan(data: Any, project: Any, effect: Any) -> list[str]:
    """`_resting_on` before the per-project memo: every calling skill per case."""
    if not effect.answered:
        return []
    defs = project.mantle
    out: list[str] = []
    for body in _mantle_outside._ran(data):
        name = str(body.get("tool_name") or "")
        skills = (
            [str(body["skill_id"])] if body.get("skill_id") else defs.skills_calling(effect.tool)
        )
        for skill in skills:
            if name == effect.tool or name in out or effect.tool not in defs.tools_for(skill):
                continue
            reads = runtime_reads(project, skill, name)
            if any(k == f"{skill}.{a}" for k in reads for a in effect.answered):
                out.append(name)
    return out


def test_the_tools_resting_on_an_outside_answer_are_the_scans() -> None:
    project = load_project(BANK)
    defs = project.mantle
    calls = sorted({(s, t) for s in defs.skills for t in defs.tools_for(s)})
    effects = {t: outside_effect(project, defs.tools_for(s)[t]) for s, t in calls}
    found = 0
    for with_skill in (False, True):
        bodies = [{"tool_name": t, **({"skill_id": s} if with_skill else {})} for s, t in calls]
        data = {"scenario": {"goals": {"assertions": [{"tool_executed": b} for b in bodies]}}}
        for effect in (e for e in effects.values() if e is not None):
            expected = _rests_by_scan(data, project, effect)
            assert _mantle_outside._resting_on(data, project, effect) == expected
            assert _mantle_outside._resting_on(data, project, effect) == expected  # kept
            found += len(expected)
    assert found  # bank has a tool whose step reads an outside answer


def test_the_best_skill_weighed_among_the_hit_ones_is_the_best_of_all(project: Any) -> None:
    skills = [s for s in project.mantle.skills.values() if not s.disabled]
    words = SkillWords(skills)

    def by_all(text: str, exclude: set[str]) -> tuple[str | None, float]:
        scores = {k: v for k, v in words.scores(text).items() if k not in exclude}
        if not scores:
            return None, 0.0
        skill = max(sorted(scores), key=lambda k: scores[k])
        return (skill, scores[skill]) if scores[skill] > 0 else (None, 0.0)

    lines = [s.description or s.id for s in skills] + [s.name or "" for s in skills]
    lines += ["hello there", "", "my card"]
    hit = 0
    for line in lines:
        for exclude in (set(), {skills[0].id}, {s.id for s in skills}):
            assert words.best(line, exclude) == by_all(line, exclude), line
            hit += words.best(line, exclude)[0] is not None
    assert hit


@pytest.mark.parametrize("seed", range(10))
def test_a_parameter_is_fillable_from_the_sorted_keys_as_from_every_key(seed: int) -> None:
    pick = random.Random(seed)
    parts = ["card", "card_replace", "project", "proj", "bank", "x", "account", "id"]
    pool = {
        f"{pick.choice(parts)}.{pick.choice(parts)}_{pick.choice(parts)}"
        for _ in range(pick.randint(0, 40))
    }
    ordered = sorted(pool)
    use = ToolUse(name="t", scope="local")
    for skill_id in parts:
        skill = Skill(id=skill_id, name=skill_id, path=f"skills/{skill_id}")
        for param in parts:
            suffix = "_" + param
            by_all = bool({f"{skill_id}.{param}", f"project.{param}"} & pool) or any(
                k.endswith(suffix) and k.startswith((skill_id, "project.")) for k in pool
            )
            assert _equivalent._fillable(skill, use, param, pool, ordered) == by_all


def test_a_lines_routing_ties_are_kept_and_answer_as_a_fresh_routing(project: Any) -> None:
    defs = project.mantle
    skills = [s for s in defs.skills.values() if not s.disabled]
    kept, fresh = SkillWords(skills), SkillWords(skills)
    lines = [s.description or s.id for s in skills] + [s.name or "" for s in skills]
    lines += ["hello there", "", "card"]
    closings = [frozenset(), {skills[0].id}]
    expected = {
        (line, frozenset(c)): _mantle_words._ties(defs, fresh, line, set(c))
        for line in lines
        for c in closings
    }
    for _ in range(2):
        for (line, closed), ties in expected.items():
            got = _mantle_words.routing_ties(defs, kept, line, set(closed))
            assert got == list(ties)
            got.append("changed")  # a caller's list is its own
    assert len(kept.ties) == len(expected)
