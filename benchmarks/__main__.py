"""`python -m benchmarks [NAME] [OPTIONS]`: run a benchmark (default: generation)."""

from __future__ import annotations

import asyncio
import sys

from . import (
    architecture,
    case_quality,
    corpus,
    fixtures_side_by_side,
    generation,
    goldens,
    llm_prompts,
    mutation,
    rasa_oracle_cli,
    rasa_schema,
    ray_executor,
    runner,
    skill_scale,
    speed,
    stand_in,
    synthetic,
    trivial_agents,
    verify,
    waits,
)

BENCHMARKS = {
    "generation": generation.main,
    "runner": runner.main,
    "rasa-schema": rasa_schema.main,
    "rasa-oracle": rasa_oracle_cli.main,
    "corpus": corpus.main,
    "fixtures-side-by-side": fixtures_side_by_side.main,
    "speed": speed.main,
    "stand-in": stand_in.main,
    "synthetic": synthetic.main,
    "trivial-agents": trivial_agents.main,
    "verify": verify.main,
    "mutation": mutation.main,
    "llm-prompts": llm_prompts.main,
    "ray-executor": ray_executor.main,
    "waits": waits.main,
    "skill-scale": skill_scale.main,
    "architecture": architecture.main,
    "case-quality": case_quality.main,
    "goldens": goldens.main,
}


def run(argv: list[str]) -> int:
    name = argv[0] if argv and not argv[0].startswith("-") else "generation"
    rest = argv[1:] if argv and argv[0] == name else argv
    if name not in BENCHMARKS:
        print(f"unknown benchmark '{name}' (benchmarks: {', '.join(BENCHMARKS)})", file=sys.stderr)
        return 2
    return asyncio.run(BENCHMARKS[name](rest))


if __name__ == "__main__":
    raise SystemExit(run(sys.argv[1:]))
