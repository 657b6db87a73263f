"""Sixth round of generation speed: each shortcut gives what the work it replaced gave.

The dedupe step looks a draft's candidates up instead of scanning every earlier case; the
flow is compiled once per process; review before writing skips the one rule (and the
fingerprint it alone reads) that needs peers; per-key patterns are compiled once. Each is
held here to the plain computation on generated or drawn inputs.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.checkpoint.memory import InMemorySaver

from agentflows.generate import _dedupe, build_request, graph, nodes, run_generation
from agentflows.generate._prewrite import review_findings
from agentflows.generate._write import write_one
from agentflows.review._views import ReviewEnv, case_views
from agentflows.review._vocab import vocabulary
from agentflows.review.rules import RULES
from evalcore.dedupe import Fingerprint, same_case, similarity
from evalcore.definitions import load_project
from evalcore.definitions.conditions import compared_values
from evalcore.definitions.skill_model._branches import equal_values
from evalcore.definitions.skill_model._tools import _VERB_BEFORE, _mentions
from evalcore.documents import load_document

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"

# --- dedupe: candidates looked up --------------------------------------------------------

_FACTS = st.frozensets(st.sampled_from(["type:happy", "assert:a", "assert:b", "slot:x=1"]))
_WORDS = st.frozensets(st.sampled_from(["i need", "need a", "a card", "my card", "card now"]))
_MARK = st.builds(Fingerprint, _FACTS, _WORDS)
_PATH = st.one_of(st.none(), st.sampled_from(["happy:a", "happy:b", "failure:a"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_MARK, _PATH), max_size=25), _MARK, _PATH)
def test_the_pool_finds_what_scanning_every_case_found(
    seen: list[tuple[Fingerprint, str | None]], mark: Fingerprint, path: str | None
) -> None:
    pool = _dedupe.Pool()
    for i, (other, other_path) in enumerate(seen):
        pool.add(f"case{i}", other, other_path)
    scanned = [
        (similarity(mark, other), f"case{i}")
        for i, (other, other_path) in enumerate(seen)
        if same_case(mark, other, path_a=path, path_b=other_path)
    ]
    assert sorted(pool.same(mark, path)) == sorted(scanned)


def test_a_repeated_draft_is_found_on_its_path_and_by_its_facts() -> None:
    mark = Fingerprint(frozenset({"assert:a"}), frozenset({"a card"}))
    pool = _dedupe.Pool()
    pool.add("committed", mark)  # a committed case: no path
    pool.add("draft:x", mark, "happy:a")
    assert sorted(pool.same(mark, "happy:a")) == [(1.0, "committed"), (1.0, "draft:x")]
    assert pool.same(mark, "happy:b") == [(1.0, "committed")]  # another path: facts only
    empty = Fingerprint(frozenset(), frozenset({"a card"}))
    pool.add("draft:y", empty, "happy:c")
    assert pool.same(empty, None) == []  # no facts: a pathless case matches no path's


# --- the flow compiled once --------------------------------------------------------------


def test_each_run_gets_its_own_copy_of_the_flow_compiled_once() -> None:
    first, second = InMemorySaver(), InMemorySaver()
    a, b = graph.compiled_graph(first), graph.compiled_graph(second)
    assert a is not b
    assert a.checkpointer is first and b.checkpointer is second
    template = graph._compiled[1]
    assert template.checkpointer is None  # nothing of a run stays on the kept graph
    assert sorted(a.nodes) == sorted(build := graph.build_graph().compile().nodes)
    assert a.nodes["draft"] is template.nodes["draft"] and "report" in build


def test_strict_msgpack_compiles_each_run_with_its_checkpointer_wrapped(monkeypatch) -> None:
    """Under LangGraph's `LANGGRAPH_STRICT_MSGPACK` compiling wraps the checkpointer in an
    allowlist of the state's types: no run may get the kept graph's copy, which skips it."""
    saver = InMemorySaver()
    kept = graph.compiled_graph(saver).nodes["draft"]  # a copy of the kept graph
    assert kept is graph._compiled[1].nodes["draft"]
    monkeypatch.setenv("LANGGRAPH_STRICT_MSGPACK", "true")
    strict = graph.compiled_graph(saver)
    assert strict.nodes["draft"] is not kept and strict.checkpointer is not None
    monkeypatch.setenv("LANGGRAPH_STRICT_MSGPACK", "0")
    assert graph.compiled_graph(saver).nodes["draft"] is kept


def test_a_node_swapped_in_gets_a_flow_of_its_own(monkeypatch, tmp_path) -> None:
    before = graph.compiled_graph(InMemorySaver())
    calls: list[str] = []
    real = nodes.report

    async def report(state, runtime):
        calls.append("report")
        return await real(state, runtime)

    monkeypatch.setattr(nodes, "report", report)
    after = graph.compiled_graph(InMemorySaver())
    assert after.nodes["report"] is not before.nodes["report"]
    request = build_request(
        ["check_balance"], project=BANK, model="offline", verify=False,
        cases_root=str(tmp_path / "cases"),
    )  # fmt: skip
    asyncio.run(run_generation(request, checkpoints=tmp_path / "ck.sqlite"))
    assert calls == ["report"]


def test_two_runs_on_the_kept_flow_write_the_same_bytes(tmp_path) -> None:
    texts = []
    for n in range(2):
        request = build_request(
            ["all"], project=BANK, model="offline", verify=False,
            cases_root=str(tmp_path / f"cases{n}"),
        )  # fmt: skip
        report = asyncio.run(run_generation(request, checkpoints=tmp_path / "ck.sqlite"))
        assert report["cases"] and not report["failed"]
        folder = tmp_path / f"cases{n}"
        texts.append({p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*.yml"))})
    assert texts[0] == texts[1] and len(texts[0]) == len(report["cases"])


# --- review before writing without peers -------------------------------------------------


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


def _all_rules(data: dict, project) -> list:
    env = ReviewEnv(project=project, vocab=vocabulary(project))
    found = []
    for index, view in enumerate(case_views(data, "mantle", project)):
        env.order = index
        for rule in RULES.values():
            found += [f for f in rule.check(view, env) if f.code != "near-duplicate"]
    return found


def test_review_before_writing_finds_what_every_rule_found(bank) -> None:
    files = sorted((REPO / "generated_cases" / "mantle").rglob("*.yml"))[:60]
    files += sorted((BANK / "eval").rglob("*.yml"))
    assert len(files) > 20
    flagged = compared = 0
    for file in files:
        data = load_document(file).data
        if not isinstance(data, dict) or "scenario" not in data:
            continue  # a suite file, not a case
        compared += 1
        spoiled = copy.deepcopy(data)  # leaky, vague and compound text for the rules to flag
        scenario = spoiled["scenario"]
        scenario["simulation_context"] += "Say utter_card_blocked, then ask for @tool.block_card.\n"
        goals = scenario.setdefault("goals", {})
        goals["criteria"] = [*goals.get("criteria", []), "The agent is helpful and also polite"]
        for each in (data, spoiled):
            found = [f.to_json() for f in review_findings(each, "mantle", bank)]
            assert found == [f.to_json() for f in _all_rules(each, bank)], file
            flagged += bool(found)
    assert compared > 20 and flagged >= compared  # every spoiled copy at least
    view = case_views(load_document(files[0]).data, "mantle", bank, fingerprints=False)[0]
    assert not view.fingerprint.facts and not view.fingerprint.words


# --- per-key patterns compiled once ------------------------------------------------------

_KEY = st.sampled_from(["card_replace.reason", "reason", "a.b", "x", "card_replace.re"])
_CONDITION = st.lists(
    st.sampled_from(
        [
            "session.card_replace.reason == 'stolen'",
            'session.reason != "lost"',
            "session.a.b == 3",
            "session.x==true",
            " and ",
            " or ",
            "session.card_replace.reason_code == 2",
            "@memory.x",
        ]
    ),
    max_size=5,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_CONDITION, _KEY)
def test_compared_and_equal_values_are_what_a_fresh_pattern_finds(condition, key) -> None:
    literal = r"('[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?|true|false)"
    for found, operators in ((compared_values, r"(?:==|!=)"), (equal_values, "==")):
        pattern = re.compile(rf"session\.{re.escape(key)}\s*{operators}\s*{literal}")
        fresh = [m.group(1) for m in pattern.finditer(condition)]
        fresh = [v[1:-1] if v[0] in "'\"" else v for v in fresh]
        assert found(condition, key) == fresh


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["call ", "use ", "@tool.", "lookup", "lookup_x", " tool", ".", " "]),
        max_size=8,
    ).map("".join)
)
def test_tool_mentions_are_what_fresh_patterns_find(sentence: str) -> None:
    name = "lookup"
    verb = _VERB_BEFORE  # the calling words; the patterns per name are what is kept
    fresh = [m.start() for m in re.finditer(rf"@tool\.{name}\b", sentence)]
    for match in re.finditer(rf"(?<![\w.@]){name}\b", sentence):
        if verb.search(sentence[: match.start()]) or re.match(
            r"`?\s+tool\b", sentence[match.end() :]
        ):
            fresh.append(match.start())
    assert _mentions(sentence, name) == sorted(fresh)


# --- the manifest's content hashes without reading the files back ------------------------


def test_every_content_hash_is_the_hash_of_the_file_as_written(tmp_path) -> None:
    request = build_request(
        ["all"], project=BANK, model="offline", verify=False, cases_root=str(tmp_path / "c")
    )
    asyncio.run(run_generation(request, checkpoints=tmp_path / "ck.sqlite"))
    (found,) = (tmp_path / "c").rglob("manifest.json")
    manifest = json.loads(found.read_text(encoding="utf-8"))
    assert len(manifest["cases"]) > 20
    for key, entry in manifest["cases"].items():
        data = (found.parent / key).read_bytes()
        assert entry["content_sha256"] == hashlib.sha256(data).hexdigest(), key


def test_a_written_hash_is_of_the_bytes_on_disk_even_for_a_lone_surrogate(tmp_path) -> None:
    text = "scenario:\n  name: half \ud800 a pair\n"
    ctx = SimpleNamespace(
        dialect=SimpleNamespace(
            name="mantle", dump_justified=lambda *_: text, provenance_inline=False
        ),
        project=None,
        request=SimpleNamespace(force=True),
        written_sha256={},
        rendered={},
    )
    path = tmp_path / "case.yml"
    for expected in ("created", "overwritten"):
        if expected == "overwritten":
            path.write_text("other\n", encoding="utf-8")
        assert write_one(ctx, path, {}) == expected
        assert ctx.written_sha256[str(path)] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert b"\\ud800" in path.read_bytes()
    text = "scenario:\n  name: plain\n"
    path.write_text(text, encoding="utf-8")
    ctx.written_sha256.clear()  # the same bytes already there: nothing written, nothing kept
    assert write_one(ctx, path, {}) == "unchanged" and not ctx.written_sha256
