"""An identical second LLM run: byte-identical files, exit 0, no model call.

`generate card_replace` with the LLM engine against the loopback stub server (in this
process), with the response cache on, into one folder twice. The second run must write nothing new
(every file `unchanged`, none in conflict: what makes the command exit 0) and make no
model call. `tests/test_llm_structured.py` holds the cause of the old failure for one call
(`test_a_cached_answer_keeps_the_key_order_the_model_wrote`: a cached answer keeps the
key order the model wrote).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .generation import BANK, REPO, Result


def _words(request: Any) -> Any:
    from stub_openai import ok

    if request.schema_name == "RefinedPlan":
        return ok({"behaviors": []})
    text = request.text.split("<Behavior>", 1)[1].split("</Behavior>", 1)[0]
    behavior = json.loads(text[text.index("{") : text.rindex("}") + 1])
    return ok(
        {
            "name": behavior["title"],
            "simulation_context": (
                f"You are a customer ({behavior['id']}). {behavior['description']}\n"
                '1. To start, say: "I need a new card"\n2. Stop once the agent answers.'
            ),
            "criteria": ["The agent does not read out the internal card id"],
        }
    )


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "manifest.json"
    }


async def cached_rerun(target: str = "card_replace", project: Path = BANK) -> Result:
    sys.path.insert(0, str(REPO / "tests"))
    from stub_openai import StubOpenAI

    from agentflows.drafting.llm import LLMEngine
    from agentflows.generate import build_request, run_generation
    from evalcore.llm import ModelConfig

    with StubOpenAI(_words) as stub, tempfile.TemporaryDirectory() as tmp:
        config = ModelConfig(
            model="stub-model",
            base_url=stub.base_url,
            api_key="stub-key",
            timeout_s=30,
            retry_base_delay_s=0.05,
            cache_dir=Path(tmp) / "cache",
        )
        out = Path(tmp) / "out"
        reports, files = [], []
        for _ in range(2):
            request = build_request(
                [target], project=project, out=str(out), model="stub-model", concurrency=4
            )
            report = await run_generation(
                request, engine=LLMEngine(config), checkpoints=Path(tmp) / "ck.sqlite"
            )
            reports.append(report)
            files.append(_files(out))
        requests = len(stub.requests)
    first, second = reports
    statuses = sorted({row["status"] for row in second["cases"]})
    exit_code = 0 if not second["failed"] and not second["conflicts"] else 1
    calls = second["llm"]["calls"]
    identical = files[0] == files[1] and bool(files[0])
    ok = identical and exit_code == 0 and calls == 0
    return Result(
        "identical cached re-run",
        ok,
        [
            f"generate {target} with the LLM engine (stub server), cache on, twice into one "
            f"folder: first run {first['llm']['calls']} model calls, "
            f"{len(first['cases'])} files; stub saw {requests} requests in all",
            f"second run: {calls} model calls (goal 0) · exit {exit_code} (goal 0) · "
            f"files byte-identical: {'yes' if identical else 'no'} ({len(files[1])} files; "
            f"statuses {', '.join(statuses) or 'none'}; conflicts {len(second['conflicts'])})",
        ],
    )
