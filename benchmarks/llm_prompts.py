"""Input size of every model call kind, measured on the prompts casegen sends.

`python -m benchmarks llm-prompts [PROJECT ...]` (default `examples/bank`): renders each call
kind of every planned Mantle behaviour exactly as casegen sends it — plan refinement (with no
direction, and with one, which adds the ids and the covered elements), the words draft, the
words repair, the critique and the revision of the planned case — with the schema as the
`tools` method states it in the prompt, and prints per kind the largest prompt in characters,
its tokens at 4 characters a token (the rate budget's estimate) and at 3.2 (what the context
fitting assumes), and the budget of an 8k local model: 8,192 tokens less the kind's answer
limit, the stated schema and the fitting's margin, at 3.2 characters a token — the most a
prompt may hold before `evalcore.llm._fit` cuts any of it. The judge and the simulator grow
with the conversation; their fixed part (the instructions with empty slots) is printed. The
real llama.cpp `prompt_tokens` come from `make test-llm` (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from agentflows.drafting import DraftContext
from agentflows.drafting.llm import LLMEngine, RefinedPlan, planned_drafting
from agentflows.planning import Behavior, plan_source
from agentflows.review import CaseEdits, Critique
from agentflows.review._material import source_material, to_json
from evalcore.definitions import Project, load_project
from evalcore.llm import ModelConfig
from evalcore.llm._fit import CHARS_PER_TOKEN, MARGIN_TOKENS, prompt_tokens, tokens
from evalcore.llm._methods import schema_instruction
from evalcore.llm.config import LOCAL_CONTEXT
from evalcore.llm.structured import output_spec
from evalcore.prompts import load_prompt, render_prompt

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
#: A direction a person might give: it turns on the plan's ids and covered elements.
DIRECTION = "customers in a hurry who give several details at once"
#: A finding of the kind the words repair is sent (its size is typical, its words generic).
FINDING = json.dumps(
    [
        {
            "code": "verify",
            "path": "/scenario/simulation_context",
            "message": "the simulated user never gave the value the agent asked for",
        }
    ]
)
#: A reviewer's comment of the kind `revise` is sent.
COMMENT = "Make the customer more impatient."


@dataclass
class KindSizes:
    """The prompts of one call kind: their sizes and the budget they must fit."""

    kind: str
    schema: type[Any] | None
    answer_kind: str
    sizes: list[int] = field(default_factory=list)
    worst_tokens: int = 0
    """The largest prompt's tokens as the fitting counts them (3.2 characters, per message)."""

    def add(self, messages: list[tuple[str, str]]) -> None:
        self.sizes.append(sum(len(text) for _, text in messages))
        chat = [
            SystemMessage(text) if role == "system" else HumanMessage(text)
            for role, text in messages
        ]
        self.worst_tokens = max(self.worst_tokens, prompt_tokens(chat))

    def budget_tokens(self, config: ModelConfig) -> int:
        """What the prompt may hold in an 8k context before the fitting cuts any of it."""
        reserved = config.max_tokens_for(self.answer_kind)
        if self.schema is not None:
            reserved += tokens(schema_instruction(output_spec(self.schema, "tools"), "tools") or "")
        return LOCAL_CONTEXT - reserved - MARGIN_TOKENS

    def summary(self, config: ModelConfig) -> dict[str, Any]:
        worst = max(self.sizes, default=0)
        budget = self.budget_tokens(config)
        return {
            "calls": len(self.sizes),
            "chars_max": worst,
            "chars_mean": round(sum(self.sizes) / len(self.sizes)) if self.sizes else 0,
            "tokens_max_est4": -(-worst // 4),
            "tokens_max_est3_2": self.worst_tokens,
            "budget_tokens_8k": budget,
            "budget_chars_8k": int(budget * CHARS_PER_TOKEN),
            "fits_8k": self.worst_tokens <= budget,
        }


def _engine() -> LLMEngine:
    config = ModelConfig(model="m", base_url="http://127.0.0.1:1/v1", api_key="k")
    return LLMEngine(config, use_cache=False, chat_model=object())


def prompt_kinds(project: Project) -> dict[str, KindSizes]:
    """Every Mantle call kind's prompts on `project`, rendered as casegen sends them."""
    assert project.mantle is not None
    engine = _engine()
    planned = planned_drafting("mantle")
    assert planned is not None
    kinds = {
        "plan": KindSizes("plan", RefinedPlan, "plan"),
        "plan_directed": KindSizes("plan_directed", RefinedPlan, "plan"),
        "draft": KindSizes("draft", planned.WORDS, "draft"),
        "repair": KindSizes("repair", planned.WORDS, "repair"),
        "critique": KindSizes("critique", Critique, "critique"),
        "revise": KindSizes("revise", CaseEdits, "revise"),
    }
    conventions = load_prompt("generate/conventions_mantle").template.strip()
    for source in sorted(project.mantle.skills):
        behaviors = plan_source(project, "mantle", source, None).behaviors
        if not behaviors:
            continue
        plan = engine.plan_prompt(project, "mantle", source, behaviors, None)
        kinds["plan"].add(plan.messages)
        directed = engine.plan_prompt(project, "mantle", source, behaviors, DIRECTION)
        kinds["plan_directed"].add(directed.messages)
        definition, ids = source_material(project, "mantle", source)
        for behavior in behaviors:
            ctx = _context(project, behavior, behaviors)
            kinds["draft"].add(engine.draft_prompt(ctx).messages)
            document, _ = planned.planned_case(ctx)
            values = planned.repair_values(ctx, document, document, FINDING)
            kinds["repair"].add(render_prompt("generate/repair_words_mantle", **values).messages)
            case = to_json(document)
            critique = render_prompt(
                "review/critique_mantle", definition=definition, ids=ids, case=case, comments="[]"
            )
            kinds["critique"].add(critique.messages)
            revise = render_prompt(
                "review/revise_mantle",
                definition=definition,
                ids=ids,
                conventions=conventions,
                case=case,
                comment=COMMENT,
                findings="none",
            )
            kinds["revise"].add(revise.messages)
    return kinds


def _context(project: Project, behavior: Behavior, behaviors: list[Behavior]) -> DraftContext:
    titles = tuple(b.title for b in behaviors if b is not behavior)
    return DraftContext(project, "mantle", behavior, None, titles)


def fixed_parts() -> dict[str, int]:
    """Characters of the per-turn prompts with their slots empty (they grow with the run)."""
    out: dict[str, int] = {}
    for name in ("run/judge", "run/simulate_mantle"):
        prompt = load_prompt(name)
        rendered = render_prompt(prompt, **{slot: "" for slot in prompt.placeholders})
        out[name.split("/")[1]] = sum(len(text) for _, text in rendered.messages)
    return out


def measure(root: Path = BANK) -> dict[str, Any]:
    """Per call kind: calls, largest and mean prompt, token estimates, the 8k budget."""
    config = _engine().config
    kinds = prompt_kinds(load_project(root))
    return {
        "project": root.name,
        "kinds": {name: sizes.summary(config) for name, sizes in kinds.items()},
        "per_turn_fixed_chars": fixed_parts(),
    }


async def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv if not a.startswith("-")] or [BANK]
    results = [measure(root) for root in roots]
    if "--json" in argv:
        print(json.dumps(results, indent=2))
        return 0
    for result in results:
        print(f"{result['project']}: prompt per call kind against an 8k local model")
        head = f"{'kind':<14}{'calls':>6}{'max chars':>11}{'tok/4':>7}{'tok/3.2':>9}{'budget':>8}"
        print(f"  {head}  fits")
        for name, row in result["kinds"].items():
            print(
                f"  {name:<14}{row['calls']:>6}{row['chars_max']:>11,}{row['tokens_max_est4']:>7,}"
                f"{row['tokens_max_est3_2']:>9,}{row['budget_tokens_8k']:>8,}  "
                f"{'yes' if row['fits_8k'] else 'NO'}"
            )
        fixed = ", ".join(f"{k} {v:,}" for k, v in result["per_turn_fixed_chars"].items())
        print(f"  per turn (fixed part, chars): {fixed}")
    fits = all(row["fits_8k"] for r in results for row in r["kinds"].values())
    print(
        "every kind fits an 8k context" if fits else "some kind does not fit an 8k context",
        file=sys.stderr,
    )
    return 0
