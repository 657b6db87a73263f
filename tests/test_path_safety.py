"""Paths built from case content never leave `--results` or `--out`."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from evalcore.writer import PathEscapeError, contained, contained_child, safe_slug

CODER = Path(__file__).parent / "scripted_coder.py"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("card_replace_lost", "card_replace_lost"),
        ("todo-entities-schema", "todo-entities-schema"),
        ("/../../../../tmp/escape", "tmp_escape"),
        ("..", "case"),
        ("...", "case"),
        ("a/../b", "a_._b"),
        (".hidden", "hidden"),
        ("", "case"),
        ("x\x00y", "x_y"),
    ],
)
def test_safe_slug_is_one_harmless_part(text: str, expected: str) -> None:
    slug = safe_slug(text)
    assert slug == expected
    assert "/" not in slug and slug not in (".", "..") and not slug.startswith(".")


def test_contained_refuses_escapes_and_outward_symlinks(tmp_path: Path) -> None:
    base = tmp_path / "out"
    base.mkdir()
    assert contained(base, base / "a" / "b.json") == base / "a" / "b.json"
    with pytest.raises(PathEscapeError):
        contained(base, base / ".." / "x.json")
    (base / "link").symlink_to(tmp_path)
    with pytest.raises(PathEscapeError):
        contained(base, base / "link" / "x.json")


def test_contained_child_agrees_with_contained_and_resolve(tmp_path: Path) -> None:
    """The per-run shortcut (out folder resolved once) gives what `contained` and
    `Path.resolve` give: the plain file, an inward link, and an outward link refused."""
    real = tmp_path / "real"
    real.mkdir()
    base = tmp_path / "out"
    base.symlink_to(real)  # the out folder itself behind a link
    root = base.resolve()
    (real / "inward.yml").write_text("x")
    (real / "link.yml").symlink_to(real / "inward.yml")
    (real / "outward.yml").symlink_to(tmp_path / "elsewhere.yml")
    for name in ("new.yml", "inward.yml", "link.yml"):
        path, resolved = contained_child(base, root, name)
        assert path == contained(base, base / name) == base / name
        assert resolved == (base / name).resolve()
    with pytest.raises(PathEscapeError):
        contained_child(base, root, "outward.yml")


def test_base44_prompt_name_cannot_write_outside_results(tmp_path: Path, run_cli) -> None:
    evals = tmp_path / "skills"
    shutil.copytree(EXAMPLES / "skills", evals)
    case = evals / "evals" / "todo-entities" / "eval.json"
    data = json.loads(case.read_text())
    escape = tmp_path / "escape"
    data["prompts"] = data["prompts"][:1]
    data["prompts"][0]["name"] = "/.." * 40 + str(escape)
    case.write_text(json.dumps(data))
    results = tmp_path / "results"
    code, out, err = run_cli(
        "run",
        case,
        "--target",
        f"command:{sys.executable} {CODER} text {{prompt}}",
        "--results",
        results,
        "--json",
    )
    assert "Traceback" not in err
    assert code in (0, 1, 3), err
    assert not escape.exists()
    assert json.loads(out)["results_dir"]
    written = list(results.rglob("run_1.json"))
    assert len(written) == 1
    assert written[0].is_relative_to(results)


def test_generated_folders_for_odd_ids_stay_inside_the_cases_root(tmp_path: Path) -> None:
    from agentflows.generate.context import GenerateRequest

    request = GenerateRequest(
        targets=[".."], project=".", dialect="anychat", cases_root=str(tmp_path / "gc")
    )
    out = request.out_dir("..")
    assert out.resolve().is_relative_to((tmp_path / "gc" / "anychat").resolve())
    assert out.name == "case"
