"""Agents for the Ray executor tests (imported by name on the Ray workers).

`crash_once` kills its worker process the first time it sees a case (a node lost mid-run);
the marker it leaves makes Ray's retry of the same task succeed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any


def marker(case: str) -> Path:
    return Path(tempfile.gettempdir()) / f"casegen-ray-crash-{case}"


def crash_once(request: dict[str, Any]) -> dict[str, Any] | None:
    if request.get("close"):
        return {"meta": {"pid": os.getpid()}}
    if request["turn"]["type"] == "start":
        return None
    flag = marker(request["case"])
    if not flag.exists():
        flag.write_text(str(os.getpid()), "utf-8")
        os._exit(1)  # the worker dies as if its node went away
    return {"messages": [{"text": "still here"}], "ended": True}
