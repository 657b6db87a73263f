"""What generation keeps instead of computing again gives the same result as computing it.

A request carries the project `build_request` read (the run does not parse it twice), but
only for the project it names; the YAML writer keeps PyYAML's scalar analyses, and its text
is the uncached emitter's; a kept skill walk is the walk made afresh.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import agentflows.generate as generate
from agentflows.generate import GenerateRequest, build_request, run_generation
from evalcore.yamlio import CaseDumper, dump_yaml

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def test_a_run_uses_the_project_its_request_read(tmp_path: Path, monkeypatch) -> None:
    request = build_request(["human_handoff"], project=BANK, out=str(tmp_path / "out"))
    assert request.loaded_project() is not None

    def no_second_read(root: Path) -> None:
        raise AssertionError(f"project read again: {root}")

    monkeypatch.setattr(generate, "load_project", no_second_read)
    report = asyncio.run(run_generation(request, checkpoints=tmp_path / "ck.sqlite"))
    assert report["cases"]


def test_a_request_pointed_elsewhere_or_read_back_reads_its_project(tmp_path: Path) -> None:
    request = build_request(["human_handoff"], project=BANK, out=str(tmp_path / "out"))
    moved = request.model_copy(update={"project": str(tmp_path / "copy")})
    assert moved.loaded_project() is None
    # What the checkpoint stores (and `--resume` reads back) never holds the project.
    restored = GenerateRequest.model_validate(request.model_dump(mode="json"))
    assert restored.loaded_project() is None
    assert "_loaded" not in request.model_dump_json()


def _uncached(data: object) -> str:
    class Plain(CaseDumper):
        analyze_scalar = yaml.emitter.Emitter.analyze_scalar  # type: ignore[assignment]

    text = yaml.dump(
        data,
        Dumper=Plain,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        indent=2,
        width=88,
        line_break="\n",
    )
    return text if text.endswith("\n") else text + "\n"


_CHARS = st.sampled_from(list("ab :#-'\"\n\t?é{}[],&*!|>%@`0.1yn~\u2028\x85 "))
_WORDS = st.lists(st.sampled_from(["the", "agent", "card", "x" * 30, "a:b", "- no", "#1"]))
_TEXT = st.text(alphabet=_CHARS) | _WORDS.map(" ".join) | st.sampled_from(["yes", "on", "1e3"])
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=16,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_case_yaml_is_the_text_yaml_dump_writes(value: object) -> None:
    """The direct writer and the kept scalar analyses give `yaml.dump`'s bytes."""
    first = dump_yaml(value)
    assert first == _uncached(value)
    assert dump_yaml(value) == first  # and again, from the kept analyses


def test_values_equal_but_written_differently_are_not_confused() -> None:
    """The writer keeps each value's style: 0.0 and -0.0 are equal (and one hash), yet
    written differently, in either order, as values and as keys."""
    for value in ([0.0, -0.0, 0.0], [-0.0, 0.0], {"a": -0.0, "b": 0.0}, {0.0: 1}, {-0.0: 1}):
        assert dump_yaml(value) == _uncached(value)
    assert dump_yaml([0.0, -0.0]) == "- 0.0\n- -0.0\n"


def test_what_only_yaml_dump_writes_is_left_to_it() -> None:
    shared = {"name": "x"}
    for value in ({"a": shared, "b": shared}, {"k" * 130: 1}, {("t",): 1}, "top", {1.5: "x"}):
        assert dump_yaml(value) == _uncached(value)
    assert "&id001" in dump_yaml({"a": shared, "b": shared})


def test_generated_case_files_are_written_back_byte_for_byte() -> None:
    from evalcore.yamlio import load_yaml

    root = Path(__file__).resolve().parents[1] / "generated_cases" / "mantle"
    files = sorted(root.rglob("*.yml"))
    assert files
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert dump_yaml(load_yaml(text)) == _uncached(load_yaml(text)), file


@pytest.mark.parametrize("unicode", [True, False])
def test_the_analysis_is_kept_per_unicode_setting(unicode: bool) -> None:
    text = yaml.dump({"k": "café"}, Dumper=CaseDumper, allow_unicode=unicode)
    assert ("café" in text) is unicode


def test_a_detour_walk_is_kept_per_project_and_exact_inputs() -> None:
    from agentflows.planning._mantle import _detour_walk
    from agentflows.planning._mantle_walk import Setup, walk_skill
    from evalcore.definitions import load_project

    project = load_project(BANK)
    memory = {"project.authenticated": True}
    kept = _detour_walk(project, "check_balance", {}, memory)
    assert _detour_walk(project, "check_balance", {}, dict(memory)) is kept
    assert kept == walk_skill(project, "check_balance", Setup(memory=memory))
    # 1 == True, but a condition compares types: another value is another walk.
    assert _detour_walk(project, "check_balance", {}, {"project.authenticated": 1}) is not kept
    # A project read again (its files may have changed) walks afresh.
    assert _detour_walk(load_project(BANK), "check_balance", {}, memory) is not kept


_CONDITIONS = [
    "session.a.x",
    "not session.a.x",
    "session.a.x == 'lost'",
    "session.a.x != 'lost' and session.a.n >= 2",
    "session.a.n > 1.5 or session.a.flag == true",
    "(session.a.x == 'lost' or session.a.x == 'stolen') and not session.a.flag",
    "session.a.n == 2",
    "session.a.n < 'x'",
    "session.a.x == null",
    "session.a.flag and",
    "(session.a.x",
    "session.a.x 'lost'",
    "",
]
_MEMORIES = [
    {},
    {"a.x": "lost", "a.n": 2, "a.flag": False},
    {"a.x": "stolen", "a.n": 2.0, "a.flag": True},
    {"a.x": "", "a.n": True, "a.flag": 1},
]


@pytest.mark.parametrize("condition", _CONDITIONS)
def test_a_condition_parsed_once_answers_for_each_memory(condition: str) -> None:
    """The kept parse of a condition gives, memory by memory, what parsing it afresh gave
    (the interpreter it replaced, kept in this test as the reference)."""
    from evalcore.definitions.conditions import evaluate

    answers = [evaluate(condition, memory) for memory in _MEMORIES]
    assert answers == [_reference(condition, memory) for memory in _MEMORIES]
    assert [evaluate(condition, memory) for memory in _MEMORIES] == answers


def _reference(condition: str, memory: dict[str, object]) -> bool:
    """The earlier evaluator: parse and evaluate the text in one recursive descent."""
    import re

    if not condition.strip():
        return True
    tokens = [
        (m.lastgroup, m.group(m.lastgroup or ""))
        for m in re.finditer(
            r"\s*(?:(?P<str>'[^']*'|\"[^\"]*\")|(?P<num>-?\d+(?:\.\d+)?)"
            r"|(?P<op>==|!=|>=|<=|>|<|\(|\))|(?P<name>[A-Za-z_][\w.]*))",
            condition.strip(),
        )
    ]
    at = 0

    def peek() -> tuple[str | None, str] | None:
        return tokens[at] if at < len(tokens) else None

    def take() -> tuple[str | None, str]:
        nonlocal at
        if at >= len(tokens):
            raise ValueError
        at += 1
        return tokens[at - 1]

    def number(v: object) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool)

    def disjunction() -> object:
        value = conjunction()
        while peek() == ("name", "or"):
            take()
            right = conjunction()
            value = value or right
        return value

    def conjunction() -> object:
        value = negation()
        while peek() == ("name", "and"):
            take()
            right = negation()
            value = value and right
        return value

    def negation() -> object:
        if peek() == ("name", "not"):
            take()
            return not negation()
        left = atom()
        token = peek()
        if token in (("op", "=="), ("op", "!=")):
            take()
            right = atom()
            same = (left == right and type(left) is type(right)) or (
                number(left) and number(right) and left == right
            )
            return same if token == ("op", "==") else not same
        if token in (("op", ">="), ("op", "<="), ("op", ">"), ("op", "<")):
            take()
            right = atom()
            if not (number(left) and number(right)):
                return False
            a, b = float(left), float(right)  # type: ignore[arg-type]
            return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[token[1]]
        return left

    def atom() -> object:
        kind, text = take()
        if kind == "op" and text == "(":
            value = disjunction()
            if take() != ("op", ")"):
                raise ValueError
            return value
        if kind == "str":
            return text[1:-1]
        if kind == "num":
            return float(text) if "." in text else int(text)
        if kind == "name":
            if text.lower() in ("true", "false"):
                return text.lower() == "true"
            if text.lower() in ("null", "none"):
                return None
            return memory.get(text.removeprefix("session."))
        raise ValueError

    try:
        value = disjunction()
        if peek() is not None:
            raise ValueError
        return bool(value)
    except ValueError:
        return False


@pytest.mark.parametrize(
    "text", ["I lost my card, can you replace it?", "Cards cards CARDS' replacing", ""]
)
def test_kept_stems_are_the_stems_of_the_text(text: str) -> None:
    from evalcore.agents.reference import _mantle_engine
    from evalcore.simulator import _words

    first = _words.stems(text)
    assert first == _words.stems(text) and first is not _words.stems(text)
    _words._stems.cache_clear()
    assert _words.stems(text) == first  # computed afresh: the same stems
    words = _mantle_engine.stems(text)
    words.append("changed")  # a caller's list is its own
    assert "changed" not in _mantle_engine.stems(text)


def test_a_kept_walk_is_the_fresh_walk_and_each_caller_gets_its_own() -> None:
    from agentflows.planning import plan_source
    from agentflows.planning._mantle_planner import behavior_setup, channel_memory
    from agentflows.planning._mantle_reference_walk import reference_walk
    from agentflows.planning._mantle_walk import walk_skill
    from evalcore.definitions import load_project

    project = load_project(BANK)
    assert project.mantle is not None
    memory = channel_memory(project.mantle)
    for source in project.mantle.skills:
        for behavior in plan_source(project, "mantle", source, None).behaviors:
            setup = behavior_setup(behavior.facts, memory)
            fresh = reference_walk(project, source, setup)
            first = walk_skill(project, source, setup)
            assert first == fresh, behavior.id
            first.asks.clear()
            first.events.clear()
            first.memory["spoiled"] = True
            assert walk_skill(project, source, setup) == fresh, behavior.id


def test_a_setup_that_cannot_be_kept_is_walked_afresh() -> None:
    from agentflows.planning._mantle_walk import Setup, walk_skill
    from evalcore.definitions import load_project

    project = load_project(BANK)
    setup = Setup(memory={"project.authenticated": True, "card_replace.note": ["a list"]})
    assert walk_skill(project, "card_replace", setup) == walk_skill(project, "card_replace", setup)


def test_tool_code_is_read_in_ast_walk_order() -> None:
    import ast

    from evalcore.definitions.skill_model._code import _walk

    root = BANK.parents[1]
    files = sorted(root.glob("examples/*/skills/*/tools.py"))
    files += sorted(root.glob("tests/data/corpus/*/skills/*/tools.py"))
    assert len(files) > 10
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        assert _walk(tree) == list(ast.walk(tree)), file


_NAMES = st.from_regex(r"[a-z][a-z0-9]{0,5}(_[a-z0-9]{1,5}){0,2}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(
    name=_NAMES,
    pieces=st.lists(
        st.sampled_from(
            ["@memory.", "skill.", " ", "_", "`", ".", "Ask the ", "K", "\u212a", "\u017f", "é"]
        )
        | st.text(alphabet="abcdeks_ KS.@`", max_size=8),
        max_size=8,
    ),
    upper=st.booleans(),
)
def test_a_field_name_pattern_finds_what_its_regular_expression_finds(
    name: str, pieces: list[str], upper: bool
) -> None:
    """The pattern compiles its regular expression only for a text that may name the field;
    every text gets the regular expression's own matches."""
    from evalcore.definitions.skill_model._mentions import _compiled_name_pattern, _NamePattern

    qualified = f"skill.{name}"
    spoken = name.upper() if upper else name
    text = "".join(p.replace("NAME", spoken) for p in [*pieces, "NAME", *pieces[:2]])
    for candidate in (text, text.replace(spoken, ""), text.replace("_", " ")):
        regex = _compiled_name_pattern(name, qualified)
        lazy = _NamePattern(name, qualified)
        expected = regex.search(candidate)
        found = lazy.search(candidate)
        assert (found and found.span()) == (expected and expected.span())
        assert [m.span() for m in lazy.finditer(candidate)] == [
            m.span() for m in regex.finditer(candidate)
        ]
