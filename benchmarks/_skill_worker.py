"""One casegen tree's offline `generate all` runs for `skill-scale`, asked over stdin.

    PYTHONPATH=TREE python benchmarks/_skill_worker.py

Run as a file so that `PYTHONPATH` picks the tree whose code it measures (this tree's or
an earlier commit's `git archive`, which need not have this file). Each line on stdin is a
JSON request `{"project": DIR, "root": DIR}`; the worker generates the project into a
temporary folder under `root` and answers one line, `MARK` then JSON with the run's process
CPU seconds, cases written and verification's counts. The process lives for every run, as
the in-process benchmark did: the first request (bank) is the warm-up, and later runs find
the imports and first loads done.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

#: Starts the answer line (generation may print lines of its own).
MARK = "@@skill-scale "


async def _serve() -> None:
    from benchmarks._offline import generate_all_offline

    for line in sys.stdin:
        ask = json.loads(line)
        with tempfile.TemporaryDirectory(dir=ask["root"]) as tmp:
            start = time.process_time()
            report = await generate_all_offline(Path(ask["project"]), Path(tmp))
            cpu = time.process_time() - start
        answer = {
            "cpu": cpu,
            "cases": len(report["cases"]),
            "counts": report.get("verification") or {},
        }
        print(MARK + json.dumps(answer), flush=True)


if __name__ == "__main__":
    asyncio.run(_serve())
