"""A project read asks for input limits once per folder (`ReadContext.limits`), and each
file still gets its own folder's settings: a skill folder's `casegen.toml`, and for a
symlinked file the settings beside the file it points to."""

from __future__ import annotations

import shutil
from pathlib import Path

from evalcore.definitions import load_project
from evalcore.definitions._context import ReadContext
from evalcore.limits import limits_for

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
TINY = "[limits]\nmax_file_mb = 0.0001\n"  # about 100 bytes


def test_each_skill_folder_gets_its_own_settings(tmp_path: Path) -> None:
    project = tmp_path / "bank"
    shutil.copytree(BANK, project)
    (project / "skills" / "card_replace" / "casegen.toml").write_text(TINY)
    loaded = load_project(project)
    too_big = [w for w in loaded.warnings if "the limit is" in w]
    assert too_big and all(w.startswith("skills/card_replace/") for w in too_big)
    assert loaded.mantle is not None and loaded.mantle.skills["check_balance"].blocks is not None


def test_a_symlinked_file_gets_the_settings_beside_its_target(tmp_path: Path) -> None:
    strict = tmp_path / "strict"
    strict.mkdir()
    (strict / "casegen.toml").write_text(TINY)
    (strict / "memory.yml").write_text("schema: {}\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "memory.yml").write_text("schema: {}\n")
    (plain / "linked.yml").symlink_to(strict / "memory.yml")
    ctx = ReadContext(root=plain)
    assert ctx.limits(plain / "memory.yml") == limits_for(plain / "memory.yml")
    assert ctx.limits(plain / "linked.yml") == limits_for(strict / "memory.yml")
    assert ctx.limits(plain / "linked.yml").max_file_mb == 0.0001
    assert ctx.limits(plain / "memory.yml").max_file_mb != 0.0001
