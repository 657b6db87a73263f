"""Rasa's assertion verdicts: `evaluate_assertions` on recorded events, one assertion at a time.

stdin: {"probes": [{"id", "assertions": [...] or "assertions_yaml": TEXT, "events": [...]}]};
stdout: {"version", "verdicts": {id: [{"verdict": "pass" | "fail" | "error", "detail"}]}}.
Each assertion is
evaluated on its own because `evaluate_assertions` raises on the first assertion it cannot
read or run, which would hide the verdicts of the others. Assertions given as YAML are read
with `parse_scenario_yaml`, the reader of `load_scenario`; "error" carries the exception Rasa
raised (its class and message). Events go through `deserialise_events`, the tracker reader
`evaluate_agent` uses; an exception there is every assertion's "error".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common

_common.quiet_logs()


def _error(exc: BaseException) -> dict[str, str]:
    return {"verdict": "error", "detail": f"{type(exc).__name__}: {exc}"}


def verdicts(assertions: list[Any], raw_events: list[Any]) -> list[dict[str, str]]:
    from rasa.builder.copilot.mcp_server.tools.assertion_engine import evaluate_assertions
    from rasa.shared.core.events import deserialise_events

    try:
        events = deserialise_events(raw_events)
    except Exception as exc:  # the tracker reader itself failed: nothing can be judged
        return [_error(exc) for _ in assertions]
    out = []
    for assertion in assertions:
        try:
            (result,) = evaluate_assertions([assertion], events)
        except Exception as exc:
            out.append(_error(exc))
            continue
        out.append({"verdict": "pass" if result.passed else "fail", "detail": result.detail})
    return out


def assertions_of(probe: dict[str, Any]) -> list[Any]:
    if "assertions_yaml" not in probe:
        return list(probe["assertions"])
    from rasa.builder.copilot.mcp_server.tools.scenario import parse_scenario_yaml

    return list(parse_scenario_yaml(probe["assertions_yaml"]))


def main() -> None:
    payload = _common.read_payload()
    _common.quiet_logs()
    answer = {
        probe["id"]: verdicts(assertions_of(probe), probe["events"]) for probe in payload["probes"]
    }
    _common.answer({"version": _common.rasa_version(), "verdicts": answer})


if __name__ == "__main__":
    main()
