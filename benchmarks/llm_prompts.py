"""Input tokens per model call on the bank example, measured on the prompts casegen sends.

`python -m benchmarks llm-prompts`: renders every draft call (and the words repair) of every
planned Mantle behaviour of examples/bank exactly as `LLMEngine` sends it, with the schema
as each structured method carries it, and prints the estimated input tokens (4 characters a
token, the rate budget's estimate; and the conservative 3.2 the context fitting uses). The
real llama.cpp `prompt_tokens` come from `make test-llm` (docs/benchmarks.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.llm import LLMEngine
from agentflows.drafting.llm._mantle import MantleWords
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.llm import ModelConfig
from evalcore.llm._methods import schema_instruction
from evalcore.llm.structured import output_spec

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def measure() -> dict[str, Any]:
    project = load_project(BANK)
    assert project.mantle is not None
    engine = LLMEngine(
        ModelConfig(model="m", base_url="http://127.0.0.1:1/v1", api_key="k"),
        use_cache=False,
        chat_model=object(),
    )
    spec = output_spec(MantleWords, "tools")
    stated = len(schema_instruction(spec, "tools") or "")
    sizes: list[int] = []
    for source in sorted(project.mantle.skills):
        behaviors = plan_source(project, "mantle", source, None).behaviors
        for behavior in behaviors:
            titles = tuple(b.title for b in behaviors if b is not behavior)
            rendered = engine.draft_prompt(DraftContext(project, "mantle", behavior, None, titles))
            sizes.append(sum(len(m[1]) for m in rendered.messages))
    worst = max(sizes)
    return {
        "draft_calls": len(sizes),
        "prompt_chars_max": worst,
        "prompt_chars_mean": round(sum(sizes) / len(sizes)),
        "schema_chars_in_prompt": stated,
        "schema_chars_json_schema": len(json.dumps(spec["parameters"])),
        "tokens_max_est4": -(-(worst + stated) // 4),
        "tokens_max_est3_2": int((worst + stated) / 3.2) + 1,
    }


async def main(argv: list[str]) -> int:
    print(json.dumps(measure(), indent=2))
    return 0
