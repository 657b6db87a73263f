"""A caller that needs only a plan's types (`Behavior`, `CASE_TYPES`: `casegen mcp`'s tool
list, the drafters) imports `agentflows.planning` without the skill model; the names that
read it are loaded on first use and are the modules' own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import agentflows.planning as planning

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from agentflows.planning import CASE_TYPES, Behavior, Plan
before = sorted(m for m in ("evalcore.definitions", "evalcore.definitions.skill_model",
                            "evalcore.dialects") if m in sys.modules)
from agentflows.planning import failure_outcome, wrong_detail_check
from agentflows.planning._mantle_tools import failure_outcome as own_failure
from agentflows.planning._mantle_wrong_detail import wrong_detail_check as own_check
print(json.dumps({"before": before, "same": failure_outcome is own_failure
                  and wrong_detail_check is own_check, "types": len(CASE_TYPES)}))
"""


def test_the_plan_types_import_without_the_skill_model() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, cwd=ROOT
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"before": [], "same": True, "types": 7}


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        planning.no_such_name  # noqa: B018
