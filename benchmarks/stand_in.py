"""`python -m benchmarks stand-in RUN_DIR ...`: what `generate` did with a capable model stood in.

Why: no capable model is reachable from the machines casegen is measured on, so a person (or an
agent) answers its model calls by hand through an OpenAI-compatible queue server
(`../shared/tools/queue_model_server.py`: every request is written to `QUEUE/NNNN.req.json`,
the answer read from `QUEUE/NNNN.ans.txt`). This counts what such a run wrote and what the model
changed, from the files the run leaves:

    python3 queue_model_server.py --queue RUN_DIR/q --port 8765 &
    # RUN_DIR/casegen.toml: model, base_url = "http://127.0.0.1:8765/v1", structured = "json",
    # context = 32768, timeout_s = 1800, max_retries = 0; RUN_DIR/<project>: a copy of the project
    casegen generate all --project RUN_DIR/<project> --out RUN_DIR/out --json > RUN_DIR/gen.json

Per run: planned behaviours, cases written (and of how many drafts: the draft calls, each one
case's words; a repair is a call of its own kind), behaviours not drafted (a failure no scenario can
bring about, a branch nothing lets the user steer), drafts dropped by verification, duplicates;
how many written cases keep the model's own simulation context (against the planned one put back
for a lost fixed value); verification's repairs and loosened assertions (a case flipped to pass
would show there); the model's edits by operation and outcome, with the reasons for refusals;
the sources with a written happy path; and the request log: calls by kind (from the first line of
each request's system prompt), prompt and answer characters.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

#: The first words of each prompt kind's system message, as the Mantle prompts in `prompts/` open.
KINDS = (
    ("You refine a coverage plan", "plan"),
    ("You write the words", "draft"),
    ("You fix the words", "repair words"),
    ("You fix evaluation", "repair"),
    ("You review evaluation", "critique"),
    ("You revise", "revise"),
)


def request_kind(request: dict[str, Any]) -> str:
    """The call kind of one chat request, read off its system prompt's first line."""
    messages = request.get("messages") or [{}]
    first = str(messages[0].get("content") or "").strip().splitlines()[:1]
    line = first[0] if first else ""
    return next((kind for lead, kind in KINDS if line.startswith(lead)), "other")


def measure(run: Path) -> dict[str, Any]:
    summary = json.loads((run / "gen.json").read_text(encoding="utf-8"))
    calls: Counter[str] = Counter()
    prompt_chars: Counter[str] = Counter()
    answer_chars: Counter[str] = Counter()
    contexts: set[str] = set()
    for path in sorted((run / "q").glob("*.req.json")):
        request = json.loads(path.read_text(encoding="utf-8"))
        kind = request_kind(request)
        calls[kind] += 1
        prompt_chars[kind] += sum(len(str(m.get("content") or "")) for m in request["messages"])
        answer = path.with_name(path.name.replace(".req.json", ".ans.txt"))
        if not answer.is_file():
            continue
        text = answer.read_text(encoding="utf-8")
        answer_chars[kind] += len(text)
        try:
            words = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(words, dict) and isinstance(words.get("simulation_context"), str):
            contexts.add(words["simulation_context"].strip())
    cases = summary.get("cases") or []
    kept = [c for c in cases if _context(Path(c["path"])) in contexts]
    edits: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    for entry in cases + (summary.get("dropped") or []):
        for edit in entry.get("edits") or []:
            edits[f"{edit.get('op')} {edit.get('status')}"] += 1
            if edit.get("status") != "accepted":
                refusals[str(edit.get("reason") or "")[:100]] += 1
    dropped = summary.get("dropped") or []
    verification = summary.get("verification") or {}
    return {
        "run": run.name,
        "planned": summary.get("planned"),
        "written": len(cases),
        "not_drafted": sum(
            1 for d in dropped if str(d.get("reason", "")).startswith("not written")
        ),
        "dropped_by_verification": sum(
            1 for d in dropped if str(d.get("reason", "")).startswith("verification")
        ),
        "duplicates": summary.get("duplicates_dropped", 0),
        "model_contexts_kept": len(kept),
        "repaired_by_verification": verification.get("repaired", 0),
        "loosened": verification.get("loosened", 0),
        "edits": dict(sorted(edits.items())),
        "refusals": dict(refusals.most_common()),
        "happy_paths": sorted({c["source"] for c in cases if c.get("type") == "happy_path"}),
        "calls": dict(calls),
        "prompt_chars": dict(prompt_chars),
        "answer_chars": dict(answer_chars),
    }


def _context(case: Path) -> str | None:
    """A written Mantle case's simulation context (None for another dialect's case)."""
    data = yaml.safe_load(case.read_text(encoding="utf-8")) if case.is_file() else None
    scenario = data.get("scenario") if isinstance(data, dict) else None
    context = scenario.get("simulation_context") if isinstance(scenario, dict) else None
    return context.strip() if isinstance(context, str) else None


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks stand-in", description=__doc__)
    parser.add_argument("runs", nargs="+", type=Path, help="folders with gen.json and q/")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args(argv)
    figures = [measure(run) for run in args.runs]
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    for f in figures:
        drafts = f["calls"].get("draft", 0)
        print(
            f"{f['run']}: planned {f['planned']}, written {f['written']} "
            f"of {drafts} drafts, not drafted {f['not_drafted']}, "
            f"dropped by verification {f['dropped_by_verification']}, "
            f"duplicates {f['duplicates']}; model contexts kept "
            f"{f['model_contexts_kept']}/{f['written']}; repaired {f['repaired_by_verification']}, "
            f"loosened {f['loosened']}"
        )
        print(f"  edits: {f['edits']}")
        for reason, count in f["refusals"].items():
            print(f"  refused {count}x: {reason}")
        print(f"  calls: {f['calls']}; prompt chars {f['prompt_chars']}")
    return 0
