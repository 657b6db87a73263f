"""A skill whose prose never names `set_fields` is not walked word by word for one: the
check reads each skill.md at every project load, and most skills never name it."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.definitions import _mantle_set_fields, load_project

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def test_prose_without_set_fields_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[int] = []
    real = _mantle_set_fields._set_via_set_fields
    monkeypatch.setattr(
        _mantle_set_fields, "_set_via_set_fields", lambda lines: walked.append(1) or real(lines)
    )
    project = load_project(BANK)
    assert project.mantle is not None and project.mantle.skills
    assert walked == []
    assert not any("set_fields" in w for w in project.warnings)
