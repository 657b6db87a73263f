"""Mantle definition reader, `load_project` and source hashing.

`tests/fixtures/definitions/mini_mantle` is a small but complete Mantle project; broken
variants are built in `tmp_path` so that no invalid file sits in the repository.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from evalcore.definitions import (
    Branch,
    Confirmation,
    Project,
    ToolConstraint,
    ToolParameter,
    UtterRule,
    find_project,
    load_project,
    project_kind_of,
    rasa_errors,
)
from evalcore.definitions._context import ReadContext
from evalcore.definitions._mantle_skill import read_skill
from evalcore.definitions._model import ProseCondition
from evalcore.errors import UserError

MINI = Path(__file__).parent / "fixtures" / "definitions" / "mini_mantle"


@pytest.fixture(scope="module")
def project() -> Project:
    return load_project(MINI)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A writable copy of the mini project."""
    target = tmp_path / "bank"
    shutil.copytree(MINI, target)
    return target


def _own(warnings: list[str]) -> list[str]:
    """casegen's own reading warnings: Rasa's project check (its findings on this fixture
    and their rules are tested in test_rasa_project_rules.py) left aside."""
    rasa = set(rasa_errors(warnings))
    return [w for w in warnings if w not in rasa]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# --- root files -------------------------------------------------------------------------


def test_reads_clean_project_without_warnings(project: Project) -> None:
    assert project.kind == "mantle"
    assert _own(project.warnings) == []
    assert project.mantle is not None


def test_root_files(project: Project) -> None:
    defs = project.mantle
    assert defs.agent["name"] == "Mini Bank"
    assert defs.integrations["channels"] == {"rest": {}, "inspector": {}}
    assert defs.mcp_servers == ["crm"]
    assert defs.scenario_dir is None
    assert set(defs.skills) == {"card_replace", "live_agent"}


def test_project_memory(project: Project) -> None:
    memory = project.mantle.memory
    assert set(memory) == {"authenticated", "caller_phone"}
    phone = memory["caller_phone"]
    assert (phone.namespace, phone.type, phone.visibility) == ("project", "text", "project")
    assert phone.seed is True and phone.pii is True
    assert phone.qualified == "project.caller_phone"
    auth = memory["authenticated"]
    assert auth.seed is False and auth.initial_value is False and auth.type == "bool"
    assert auth.description == "Whether the caller passed authentication."
    assert auth.source is not None and (auth.source.file, auth.source.line) == ("memory.yml", 1)


def test_project_responses(project: Project) -> None:
    greet = project.mantle.responses["utter_greet"]
    assert greet.scope == "project"
    assert [v.text for v in greet.variants] == ["Hello again!", "Hello! How can I help?"]
    assert greet.variants[0].condition == "session.project.authenticated"
    assert greet.variants[1].condition is None
    assert set(project.mantle.responses) == {"utter_greet", "utter_goodbye"}


def test_shared_tools(project: Project) -> None:
    tools = project.mantle.shared_tools
    assert set(tools) == {"lookup_customer"}  # `helper` has no @tool
    lookup = tools["lookup_customer"]
    assert lookup.scope == "shared"
    assert lookup.description == "Look up the customer record by phone number."
    assert lookup.parameters == [ToolParameter(name="phone", type="str")]  # context skipped
    assert lookup.source is not None and lookup.source.file == "tools/shared.py"


# --- skill.md ---------------------------------------------------------------------------


def test_skill_identity_and_frontmatter(project: Project) -> None:
    skill = project.mantle.skills["card_replace"]
    assert skill.id == "card_replace"
    assert skill.path == "skills/card_replace"
    assert skill.name == "Replace a card"
    assert skill.description.startswith("Customer wants a new card")
    assert skill.import_tools == ["lookup_customer", "mcp/crm:get_cards"]
    assert skill.complete_when == {
        "condition": "session.card_replace.order_id",
        "criteria": ["The order is placed."],
    }
    assert skill.hidden is False and skill.disabled is False
    assert skill.frontmatter["name"] == "Replace a card"


def test_tool_constraints(project: Project) -> None:
    constraints = project.mantle.skills["card_replace"].tool_constraints
    assert constraints == {
        "place_replacement_order": ToolConstraint(
            tool="place_replacement_order",
            requires="session.card_replace.selected_card_id",
            requires_confirmation=Confirmation(
                enabled=True,
                utter_for_confirmation="utter_confirm_order",
                utter_on_user_denial="utter_order_cancelled",
            ),
            on_success="utter_order_placed",
            on_failure="utter_order_failed",
        )
    }


def test_utter_rules_keep_on_as_a_string_key(project: Project) -> None:
    assert project.mantle.skills["card_replace"].utter == [
        UtterRule(response="utter_card_intro", on="activate"),
        UtterRule(
            response="utter_fraud_warning",
            when="session.card_replace.replacement_reason == 'stolen'",
        ),
    ]


def test_prose_conditions_and_tokens(project: Project) -> None:
    skill = project.mantle.skills["card_replace"]
    assert skill.prose_conditions == [
        ProseCondition(
            condition="session.card_replace.replacement_reason == 'stolen'",
            paragraph=(
                "Tell the customer the old card is blocked and mention @skill.fraud_report.\n"
                "Keep it short."
            ),
            line=26,
        )
    ]
    assert skill.tokens == [
        "@tool.lookup_customer",
        "@skill.fraud_report",
        "@block.pick_card",
        "@memory.card_replace.replacement_reason",
    ]
    assert ":::ordered_block id=pick_card" in skill.body


def test_ordered_block_steps(project: Project) -> None:
    block = project.mantle.skills["card_replace"].blocks["pick_card"]
    assert block.line == 32
    summary = [(s.id, s.kind, s.target, s.next, s.line) for s in block.steps]
    assert summary == [
        ("ask_reason", "collect", "replacement_reason", None, 34),
        (
            "check_eligibility",
            "execute_tool",
            "card_replace_eligibility",
            [
                Branch(condition="session.card_replace.eligible", target="confirm_order"),
                Branch(condition=None, target="not_eligible"),
            ],
            38,
        ),
        ("not_eligible", "action", "utter_not_eligible", "END", 46),
        (
            "confirm_order",
            "instructions",
            "Summarise the order and ask the customer to confirm.",
            None,
            49,
        ),
        ("route", "noop", True, "mark_done", 52),
        ("mark_done", "set_memory", {"order_ready": True}, None, 55),
        ("report", "call", "fraud_report", None, 58),
        ("handoff", "link", "live_agent", None, 60),
        ("END", "end", None, None, 62),
    ]
    assert block.step("ask_reason").fields == {
        "utterance": "utter_ask_reason",
        "description": "Why the card is replaced.",
    }
    assert block.step("check_eligibility").fields == {
        "parameters": {"reason": "{session.card_replace.replacement_reason}"}
    }
    assert block.step("check_eligibility").next_targets == ["confirm_order", "not_eligible"]
    assert block.step("confirm_order").fields == {"complete_when": "session.card_replace.confirmed"}


def test_skill_memory(project: Project) -> None:
    memory = project.mantle.skills["card_replace"].memory
    assert set(memory) == {"replacement_reason", "selected_card_id", "eligible", "order_ready"}
    reason = memory["replacement_reason"]
    assert reason.type == "categorical"
    assert reason.enum_values == ["lost", "stolen", "damaged", "not_received"]
    assert (reason.visibility, reason.namespace, reason.llm_settable) == (
        "public",
        "card_replace",
        True,
    )
    assert reason.seed is False
    assert memory["eligible"].visibility == "private"
    assert memory["order_ready"].initial_value is False
    names = project.mantle.memory_names()
    assert {"card_replace.replacement_reason", "project.caller_phone"} <= set(names)


def test_skill_responses(project: Project) -> None:
    responses = project.mantle.skills["card_replace"].responses
    ask = responses["utter_ask_reason"]
    assert ask.scope == "card_replace"
    assert [(b.title, b.payload) for b in ask.variants[0].buttons] == [
        ("Lost", "set:session.card_replace.replacement_reason=lost"),
        ("Damaged", "set:session.card_replace.replacement_reason=damaged"),
    ]
    assert responses["utter_order_placed"].variants[0].metadata == {"rephrase": False}
    assert "utter_greet" in project.mantle.all_responses()


def test_skill_tools_from_ast(project: Project) -> None:
    tools = project.mantle.skills["card_replace"].tools
    assert set(tools) == {"card_replace_eligibility", "place_replacement_order"}
    check = tools["card_replace_eligibility"]
    assert check.description == "Check whether the card can be replaced."  # docstring line
    assert check.parameters == [
        ToolParameter(name="reason", type="str", description="Why the card is replaced.")
    ]
    order = tools["place_replacement_order"]
    assert order.description == "Place the replacement order."  # decorator wins
    assert order.scope == "local"
    assert order.source is not None and order.source.file == "skills/card_replace/tools.py"
    assert order.parameters == [
        ToolParameter(name="card_id", type="str", description="The card to replace."),
        ToolParameter(
            name="shipping",
            type="Literal['standard', 'express']",
            required=False,
            default="standard",
            description="How fast the card ships; express costs extra.",
            choices=["standard", "express"],
        ),
        ToolParameter(name="note", type="str | None", required=False, default=None),
        ToolParameter(
            name="copies", type="int", required=False, default=1, description="Number of cards."
        ),
    ]


def test_tools_for_resolves_imports(project: Project) -> None:
    tools = project.mantle.tools_for("card_replace")
    assert set(tools) == {
        "lookup_customer",
        "get_cards",
        "card_replace_eligibility",
        "place_replacement_order",
    }
    assert (tools["get_cards"].scope, tools["get_cards"].mcp_server) == ("mcp", "crm")


def test_handoff_heuristic(project: Project) -> None:
    skills = project.mantle.skills
    assert skills["live_agent"].is_handoff is True  # "human agent" in description and tool
    # A `link:` step passes control to another skill, not to a person.
    assert skills["card_replace"].is_handoff is False


@pytest.mark.parametrize(
    ("description", "hands_off"),
    [
        ("Fix slow internet, escalating to a remote factory reset when needed.", False),
        ("Escalation to the radiation safety officer, a person on staff.", True),
        ("Escalate to a senior agent when the customer insists.", True),
        ("Escalations the customer asks for.", True),
    ],
)
def test_an_escalation_to_something_else_is_no_handoff(
    copy: Path, description: str, hands_off: bool
) -> None:
    """An escalation "to a remote factory reset" is the next step of a fix; the skill keeps the
    conversation (it was read as a hand-off skill and planned no happy path)."""
    _write(
        copy / "skills" / "fixit" / "skill.md",
        f"---\ndescription: {description}\n---\nHelp them.\n",
    )
    assert load_project(copy).mantle.skills["fixit"].is_handoff is hands_off


def test_skill_without_handoff_signals(copy: Path) -> None:
    _write(
        copy / "skills" / "balance" / "skill.md",
        "---\ndescription: Customer asks for their balance.\nimport_tools: [lookup_customer]\n"
        "---\nTell them the balance.\n",
    )
    skill = load_project(copy).mantle.skills["balance"]
    assert skill.is_handoff is False
    assert skill.import_tools == ["lookup_customer"]
    assert skill.blocks == {} and skill.tools == {} and skill.prose_conditions == []


# --- never importing user code ----------------------------------------------------------


def test_tools_are_read_without_running_them(copy: Path) -> None:
    marker = copy / "skills" / "card_replace" / "RAN"
    _write(
        copy / "skills" / "card_replace" / "tools.py",
        "from pathlib import Path\n"
        "from rasa.mantle.tools.decorator import tool\n"
        "Path(__file__).with_name('RAN').write_text('imported')\n"
        "raise SystemExit('tools.py was executed')\n\n\n"
        "@tool(description='Still readable.')\n"
        "def place_replacement_order(card_id: str) -> dict:\n"
        "    return {}\n",
    )
    modules_before = set(sys.modules)
    project = load_project(copy)  # a SystemExit here would fail the test run
    assert not marker.exists()
    assert not any(m == "tools" or m.endswith(".tools") for m in set(sys.modules) - modules_before)
    tools = project.mantle.skills["card_replace"].tools
    assert tools["place_replacement_order"].description == "Still readable."
    assert _own(project.warnings) == []


def test_python_syntax_error_is_a_warning(copy: Path) -> None:
    _write(
        copy / "skills" / "card_replace" / "tools.py",
        "from x import tool\n\n@tool\ndef broken(:\n    pass\n",
    )
    project = load_project(copy)
    assert project.mantle.skills["card_replace"].tools == {}
    assert any(
        w.startswith("skills/card_replace/tools.py:4: Python syntax error")
        for w in project.warnings
    ), project.warnings


# --- bad definitions become warnings with file and line ---------------------------------


def test_bad_memory_yaml(copy: Path) -> None:
    _write(
        copy / "skills" / "card_replace" / "memory.yml",
        "schema:\n  public:\n    reason: {type: text\n  private: {}\n",
    )
    project = load_project(copy)
    assert project.mantle.skills["card_replace"].memory == {}
    warning = next(w for w in project.warnings if "memory.yml" in w)
    assert warning.startswith("skills/card_replace/memory.yml:4: invalid YAML")


def test_skill_md_without_frontmatter(copy: Path) -> None:
    _write(copy / "skills" / "plain" / "skill.md", "Just prose, with @tool.lookup_customer.\n")
    project = load_project(copy)
    assert (
        "skills/plain/skill.md:1: skill.md must start with a '---' line opening the YAML "
        "frontmatter" in project.warnings
    )
    plain = project.mantle.skills["plain"]
    assert plain.frontmatter == {} and plain.tokens == ["@tool.lookup_customer"]


def test_frontmatter_problems(copy: Path) -> None:
    _write(
        copy / "skills" / "odd" / "skill.md",
        "---\n"
        "name: Odd\n"
        "descripton: typo\n"
        "hidden: 'yes'\n"
        "import_tools: [nope, mcp/erp:x]\n"
        "utter:\n"
        "  - utter_hi: {on: start}\n"
        "---\n"
        "Body.\n",
    )
    warnings = load_project(copy).warnings
    assert any(
        w.startswith("skills/odd/skill.md:3: unknown skill.md frontmatter key 'descripton'")
        for w in warnings
    ), warnings
    assert "skills/odd/skill.md:4: 'hidden' must be true or false (got 'yes')" in warnings
    assert "skills/odd/skill.md:5: imported tool 'nope' is not a shared tool in tools/" in warnings
    assert "skills/odd/skill.md:5: MCP server 'erp' is not in integrations.yml" in warnings
    assert "skills/odd/skill.md:7: utter rule 'utter_hi': 'on' only takes 'activate'" in warnings


def test_block_problems(copy: Path) -> None:
    _write(
        copy / "skills" / "odd" / "skill.md",
        "---\n"
        "description: Odd blocks.\n"
        "---\n"
        "Run @block.main.\n"
        "\n"
        ":::ordered_block id=main\n"
        "steps:\n"
        "  - id: ask\n"
        "    collect: thing\n"
        "    utter: utter_ask_thing\n"
        "  - id: nothing\n"
        "    next: ask\n"
        "  - id: route\n"
        "    noop: true\n"
        "    next:\n"
        "      - if: session.odd.thing\n"
        "        then: ask\n"
        ":::\n"
        "\n"
        "if: session.odd.thing\n"
        "\n"
        ":::ordered_block id=open\n"
        "steps: []\n",
    )
    # Rasa does not load this skill (an `if:` with no paragraph): the project drops it, and
    # the skill reader still reads what it can of it, with a warning per problem.
    project = load_project(copy)
    assert "odd" not in project.mantle.skills
    assert any(
        "skills/odd/skill.md: rasa error [mantle.validation.skill.failed_to_load]" in w
        for w in project.warnings
    )
    ctx = ReadContext(root=copy)
    odd = read_skill(ctx, copy / "skills" / "odd", shared_tools=set(), mcp_servers=set())
    warnings = ctx.warnings
    assert warnings == [
        "skills/odd/skill.md:22: ordered block is not closed by a ':::' line",
        "skills/odd/skill.md:20: 'if: session.odd.thing' is not followed by a paragraph",
        "skills/odd/skill.md:10: key 'utter' is not used by a collect step",
        "skills/odd/skill.md:11: step 'nothing' has no kind key (instructions, collect, action, "
        "execute_tool, noop, set_memory, call, link)",
        "skills/odd/skill.md:15: step 'route': the branch list needs a final 'else:'",
    ]
    main = odd.blocks["main"]
    assert [s.id for s in main.steps] == ["ask", "route"]
    assert main.step("ask").fields == {"utter": "utter_ask_thing"}
    assert set(odd.blocks) == {"main", "open"}


def test_unknown_memory_type_and_skill_seed(copy: Path) -> None:
    _write(
        copy / "skills" / "card_replace" / "memory.yml",
        "schema:\n  public:\n    reason: {type: string, seed: true}\n"
        "    kind: {type: categorical}\n",
    )
    project = load_project(copy)
    reason = project.mantle.skills["card_replace"].memory["reason"]
    # Rasa keeps a type name it does not map and offers the model a string: read as text.
    assert (reason.type, reason.seed) == ("text", False)
    assert not any("unknown type" in w for w in project.warnings)
    assert (
        "skills/card_replace/memory.yml:3: 'seed: true' is allowed on project fields only "
        "(reason)" in project.warnings
    )
    assert (
        "skills/card_replace/memory.yml:4: categorical memory field 'kind' has no "
        "enum_values" in project.warnings
    )


# --- load_project, detection and hashing ------------------------------------------------


def test_detection(tmp_path: Path) -> None:
    assert project_kind_of(MINI) == "mantle"
    assert find_project(MINI / "skills" / "card_replace" / "tools.py") == MINI.resolve()
    assert project_kind_of(tmp_path) is None
    (tmp_path / "notes.md").write_text("hello", encoding="utf-8")
    with pytest.raises(UserError, match="is not a project folder"):
        load_project(tmp_path)
    with pytest.raises(UserError, match="does not exist"):
        load_project(tmp_path / "missing")


def test_sources_are_every_definition_file_sorted(project: Project) -> None:
    assert [s.path for s in project.sources] == [
        "agent.yml",
        "integrations.yml",
        "memory.yml",
        "responses.yml",
        "skills/card_replace/memory.yml",
        "skills/card_replace/responses.yml",
        "skills/card_replace/skill.md",
        "skills/card_replace/tools.py",
        "skills/live_agent/skill.md",
        "skills/live_agent/tools.py",
        "tools/shared.py",
    ]
    assert all(len(s.sha256) == 64 for s in project.sources)


def test_source_hashes_are_stable_and_local(copy: Path, project: Project) -> None:
    original = {s.path: s.sha256 for s in project.sources}
    assert {s.path: s.sha256 for s in load_project(copy).sources} == original
    skill_md = copy / "skills" / "live_agent" / "skill.md"
    skill_md.write_text(skill_md.read_text(encoding="utf-8") + "\nBe brief.\n", encoding="utf-8")
    edited = {s.path: s.sha256 for s in load_project(copy).sources}
    changed = {path for path in original if edited[path] != original[path]}
    assert changed == {"skills/live_agent/skill.md"}


def test_unreadable_files_still_count_as_sources(copy: Path) -> None:
    (copy / "memory.yml").write_text("a: [unclosed\n", encoding="utf-8")
    project = load_project(copy)
    assert "memory.yml" in {s.path for s in project.sources}
    assert project.mantle.memory == {}
    assert any(w.startswith("memory.yml:2: invalid YAML") for w in project.warnings), (
        project.warnings
    )


def test_memory_field_note_is_the_comment_in_its_block(copy: Path) -> None:
    """A field's `note` is the comment its memory file writes under it (what the field is
    about where it has no description), never the next field's."""
    _write(
        copy / "memory.yml",
        "loyalty_tier:\n  # Loyalty tier of the\n  type: text\n"
        "  #   signed-in app user.\n  seed: true\n"
        "caller_phone:\n  type: text\n  seed: true\n"
        "# the channel fills the next one\n"
        "channel: {type: text}\n",
    )
    memory = load_project(copy).mantle.memory
    assert memory["loyalty_tier"].note == "Loyalty tier of the signed-in app user."
    assert memory["caller_phone"].note is None
    assert memory["channel"].note is None
