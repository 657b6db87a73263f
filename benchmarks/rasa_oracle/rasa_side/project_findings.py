"""Rasa's project check on one project: `collect_project_findings` and the skills it loads.

stdin: {"root": PATH, "map_old_names": bool}; stdout: {"version", "findings": [{code, severity,
message}], "skills": [ids Rasa loaded], "load_errors": [[dir, message]]}. The project must be a
copy: Rasa's tool loader imports its tools.py.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common

_common.quiet_logs()


def _keep_going(collect: Any) -> list[str]:
    """Let one check fail without losing the others (a project whose tools cannot be imported).

    `collect_project_findings` calls one function per check category; each is wrapped so that
    an exception (typically a tool module importing a package the project does not ship) is
    recorded as a check Rasa could not run, and the remaining checks still report.
    """
    failed: list[str] = []
    namespace = collect.__globals__

    def guarded(name: str, check: Any) -> Any:
        @functools.wraps(check)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return check(*args, **kwargs)
            except Exception as error:
                failed.append(f"{name}: {type(error).__name__}: {error}")
                return []

        return run

    for name, value in list(namespace.items()):
        is_check = name.startswith(("validate_", "collect_", "_cancel_", "_precondition_"))
        if is_check and callable(value) and name != collect.__name__:
            namespace[name] = guarded(name, value)
    return failed


def main() -> None:
    payload = _common.read_payload()
    if payload.get("map_old_names"):
        _common.map_old_module_names()
    root = Path(payload["root"])
    sys.path.insert(0, str(root))
    _common.quiet_logs()
    try:
        from rasa.mantle.skills.catalog import load_skill_catalog_result
        from rasa.mantle.validation import collect_project_findings
    except ImportError:  # 3.19/3.20 ship the same modules under their old name
        from rasa.calm_v2.skills.catalog import (  # type: ignore[no-redef]
            load_skill_catalog_result,
        )
        from rasa.calm_v2.validation import collect_project_findings  # type: ignore[no-redef]

    _common.quiet_logs()
    could_not_run = _keep_going(collect_project_findings)
    findings = collect_project_findings(root)
    loaded = load_skill_catalog_result(root)
    _common.answer(
        {
            "version": _common.rasa_version(),
            "findings": [
                {"code": f.code, "severity": f.severity, "message": f.message} for f in findings
            ],
            "skills": sorted(loaded.catalog.skills),
            "load_errors": [list(error) for error in loaded.load_errors],
            "could_not_run": could_not_run,
        }
    )


if __name__ == "__main__":
    main()
