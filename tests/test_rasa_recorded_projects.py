"""Every Mantle project of the repository passes Rasa's own project check.

`make rasa-oracle CHECKS=projects` runs rasa-pro's `collect_project_findings` on each project
and records its errors with a digest of the project's files in
`tests/data/rasa_oracle/projects.json`. This test needs no Rasa: it checks that the recording
is of the files as they are now, and that Rasa found no error in them. A project edited since
the recording fails here until the oracle is run again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.rasa_oracle import RECORDED
from benchmarks.rasa_oracle.projects import REPO, definition_digest, our_projects

RECORDING = RECORDED / "projects.json"


def _recorded() -> dict:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def test_the_recording_names_the_rasa_build_it_came_from() -> None:
    assert _recorded()["rasa_version"].startswith("3.22")


@pytest.mark.parametrize("project", our_projects(), ids=lambda p: p.name)
def test_rasa_finds_no_error_in_the_project(project: Path) -> None:
    label = project.relative_to(REPO).as_posix()
    entry = _recorded()["projects"].get(label)
    assert entry is not None, f"{label} was never checked: run `make rasa-oracle CHECKS=projects`"
    assert entry["digest"] == definition_digest(project), (
        f"{label} changed since Rasa checked it: run "
        "`python -m benchmarks rasa-oracle projects --record` (make rasa-oracle)"
    )
    assert entry["errors"] == [], "\n".join(
        f"[{e['code']}] {e['message']}" for e in entry["errors"]
    )
    assert entry["skills"], "Rasa loaded no skill of the project"
