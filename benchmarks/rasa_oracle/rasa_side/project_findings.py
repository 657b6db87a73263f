"""Rasa's project check on one project: `collect_project_findings` and the skills it loads.

stdin: {"root": PATH, "map_old_names": bool}; stdout: {"version", "findings": [{code, severity,
message}], "skills": [ids Rasa loaded], "load_errors": [[dir, message]]}. The project must be a
copy: Rasa's tool loader imports its tools.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common

_common.quiet_logs()


def main() -> None:
    payload = _common.read_payload()
    if payload.get("map_old_names"):
        _common.map_old_module_names()
    root = Path(payload["root"])
    sys.path.insert(0, str(root))
    _common.quiet_logs()
    from rasa.mantle.skills.catalog import load_skill_catalog_result

    try:
        from rasa.mantle.validation import collect_project_findings
    except ImportError:  # 3.19/3.20 ship the same module under its old name
        from rasa.calm_v2.validation import collect_project_findings  # type: ignore[no-redef]

    _common.quiet_logs()
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
        }
    )


if __name__ == "__main__":
    main()
