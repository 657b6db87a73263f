"""Rasa's scenario loader on many scenario texts: `load_scenario`, then its assertion engine.

stdin: {"cases": [{"id", "text"}], "environ": {NAME: VALUE}, "unset": [NAME]}; stdout:
{"version", "results": {id: {"loads": bool, "error": str, "run_error": str}}}. `error` is why
`load_scenario` refused the file (`TYPE: message`); for a file it loads, `run_error` is what
`evaluate_assertions` raises on each assertion alone against an empty conversation (a
sequencing one step by step): the error a real run would stop with, whatever happened in it.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common

_common.quiet_logs()

_MAX_MESSAGE = 160


_BOILERPLATE = (
    "Failed to validate YAML. Please make sure the file is correct and all mandatory "
    "parameters are specified. Here are the errors found during validation"
)


def _message(error: BaseException, folder: str = "") -> str:
    """One line, without the temporary folder's name or Rasa's boilerplate."""
    text = " ".join(str(error).split())
    if folder:
        text = text.replace(folder + "/", "")
    text = text.replace(_BOILERPLATE, "").replace("  ", " ")
    return f"{type(error).__name__}: {text[:_MAX_MESSAGE]}"


def _run_error(assertions: list[dict[str, Any]]) -> str:
    """The first error Rasa's assertion engine raises on these assertions (empty if none)."""
    from rasa.builder.copilot.mcp_server.tools.assertion_engine import evaluate_assertions

    for assertion in assertions:
        singles = [assertion]
        if isinstance(assertion, dict) and isinstance(assertion.get("sequencing"), list):
            singles = [{"sequencing": [step]} for step in assertion["sequencing"]]
        for single in singles:
            try:
                evaluate_assertions([single], [])
            except Exception as error:  # the run would stop here, whatever the type
                return _message(error)
    return ""


def main() -> None:
    payload = _common.read_payload()
    for name in payload.get("unset", []):
        os.environ.pop(name, None)
    os.environ.update(payload.get("environ", {}))
    from rasa.builder.copilot.mcp_server.tools.scenario import load_scenario

    _common.quiet_logs()
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="rasa-oracle-scenarios-") as folder:
        for index, case in enumerate(payload["cases"]):
            # a numbered file in the temporary folder: an id is a caller's label (often the
            # case's own path), and joined as a path it would write beside the case itself
            path = Path(folder) / f"case-{index}.yml"
            path.write_text(case["text"], encoding="utf-8")
            try:
                scenario = load_scenario(path)
            except Exception as error:  # every refusal counts, whatever its type
                results[case["id"]] = {
                    "loads": False,
                    "error": _message(error, folder),
                    "run_error": "",
                }
                continue
            results[case["id"]] = {
                "loads": True,
                "error": "",
                "run_error": _run_error(scenario.goals.assertions),
            }
    _common.answer({"version": _common.rasa_version(), "results": results})


if __name__ == "__main__":
    main()
