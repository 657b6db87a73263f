"""Every file casegen reads is a regular file read under the size limit: a link to
`/dev/zero`, a FIFO or a folder in a file's place is refused with a finding, never an endless
read, a hang or a traceback; definitions are not read through links that leave the project."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from report_fixtures import run_batch

from evalcore.definitions import load_project
from evalcore.runner._select import last_failed

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev/zero")


@contextlib.contextmanager
def deadline(seconds: int = 20) -> Iterator[None]:
    """Fail instead of hanging: a blocked open or read is interrupted."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still reading after {seconds}s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _replace(path: Path, kind: str, outside: Path | None = None) -> None:
    path.unlink()
    if kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        assert outside is not None
        path.symlink_to(outside)


DEFINITIONS = [
    ("bank", "skills/card_replace/tools.py"),
    ("bank", "skills/card_replace/skill.md"),
    ("bank", "memory.yml"),
    ("clinic", "playbooks/book.yml"),
    ("clinic", "tools.yml"),
    ("skills", "skills/base44-cli/SKILL.md"),
    ("skills", "evals/todo-entities/eval.json"),
]


@pytest.mark.parametrize("kind", ["zero", "fifo", "folder"])
@pytest.mark.parametrize(("project", "relative"), DEFINITIONS)
def test_a_definition_that_is_not_a_file_is_a_warning(
    tmp_path: Path, project: str, relative: str, kind: str
) -> None:
    root = tmp_path / project
    shutil.copytree(EXAMPLES / project, root)
    _replace(root / relative, kind)
    with deadline():
        loaded = load_project(root)
    if kind == "folder" and relative.endswith((".py", "eval.json")):
        return  # a folder named tools.py or eval.json is not one: nothing to say
    # a link to /dev/zero leads out of the project: refused for that first
    reasons = ("not a regular file", "outside the project")
    assert any(
        relative.split("/")[-1] in w and any(r in w for r in reasons) for w in loaded.warnings
    ), loaded.warnings


@pytest.mark.parametrize(("project", "relative"), DEFINITIONS)
def test_a_definition_linked_out_of_the_project_is_not_read(
    tmp_path: Path, project: str, relative: str
) -> None:
    root = tmp_path / project
    shutil.copytree(EXAMPLES / project, root)
    secret = tmp_path / "elsewhere" / Path(relative).name
    secret.parent.mkdir()
    shutil.copyfile(root / relative, secret)
    _replace(root / relative, "link", secret)
    loaded = load_project(root)
    assert any("outside the project" in w and str(secret) in w for w in loaded.warnings), (
        loaded.warnings
    )
    assert all(s.path != relative for s in loaded.sources)


def test_a_link_inside_the_project_is_still_read(tmp_path: Path) -> None:
    root = tmp_path / "bank"
    shutil.copytree(EXAMPLES / "bank", root)
    skill = root / "skills" / "card_replace" / "skill.md"
    shutil.move(skill, root / "card_replace_skill.md")
    skill.symlink_to(root / "card_replace_skill.md")
    loaded = load_project(root)
    assert not any("outside the project" in w for w in loaded.warnings)
    assert "card_replace" in loaded.mantle.skills


@pytest.mark.parametrize("kind", ["zero", "fifo", "folder"])
@pytest.mark.parametrize("command", ["validate", "repair", "review"])
def test_a_named_case_that_is_not_a_file_is_a_finding(
    tmp_path: Path, run_cli_json, kind: str, command: str
) -> None:
    case = tmp_path / "case.yml"
    case.write_text("x: 1\n")
    _replace(case, kind)
    args = [command, str(case), "--project", str(EXAMPLES / "bank")]
    args += {"repair": ["--dry-run"], "review": ["--model", "offline"]}.get(command, [])
    with deadline():
        code, payload = run_cli_json(*args)
    if kind == "folder":  # a folder is searched for cases: it holds none
        assert code in (0, 1, 2)
        return
    assert code == 1
    (entry,) = payload["files"]
    findings = entry.get("errors") or entry.get("comments")
    assert "not a regular file" in findings[0]["message"]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_batch(tmp_path_factory.mktemp("results"), "demo:bank")


def _copy(batch: Path, tmp_path: Path) -> Path:
    target = tmp_path / "results" / batch.name
    shutil.copytree(batch, target)
    (target / "summary.json").unlink(missing_ok=True)
    return target


def _results_commands(folder: Path) -> list[list[str]]:
    """`report` and `triage` (`run --last-failed` reads the folder with `last_failed`)."""
    return [["report", str(folder)], ["triage", str(folder.parent), "--model", "offline"]]


def _fail(data: dict) -> dict:
    return {**data, "status": "failed", "eval_passed": False, "passed": False}


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda d: {**_fail(d), "criteria": ["a", 1, None]}, id="criteria-not-objects"),
        pytest.param(lambda d: {**_fail(d), "criteria": {"x": 1}}, id="criteria-a-mapping"),
        pytest.param(lambda d: [d], id="not-an-object"),
        pytest.param(lambda d: {"criteria": json.loads("[" * 900 + "]" * 900)}, id="deep"),
    ],
)
def test_results_that_casegen_did_not_write_give_findings(
    batch: Path, tmp_path: Path, run_cli, damage
) -> None:
    folder = _copy(batch, tmp_path)
    for file in sorted(folder.glob("*/run_*.json")):
        file.write_text(json.dumps(damage(json.loads(file.read_text()))))
    for args in _results_commands(folder):
        code, out, err = run_cli(*args, "--json")
        assert "Traceback" not in err, (args, err)
        assert code in (0, 1, 2), (args, err)
        payload = json.loads(out)
        assert isinstance(payload, dict)
    last_failed(folder.parent)  # what `run --last-failed` selects from


@pytest.mark.parametrize("kind", ["zero", "fifo", "folder"])
def test_a_results_file_that_is_not_a_file_is_a_finding(
    batch: Path, tmp_path: Path, run_cli, kind: str
) -> None:
    folder = _copy(batch, tmp_path)
    first = sorted(folder.glob("*/run_*.json"))[0]
    data = json.loads(first.read_text())
    second = sorted(folder.glob("*/run_*.json"))[1]
    second.write_text(json.dumps(_fail(json.loads(second.read_text()))))
    _replace(first, kind)
    (folder / "summary.json").symlink_to("/dev/zero")
    for args in _results_commands(folder):
        with deadline():
            code, out, err = run_cli(*args, "--json")
        assert "Traceback" not in err, (args, err)
        payload = json.loads(out)
        assert code in (0, 1), (args, payload)
    with deadline():
        selected = last_failed(folder.parent)
    assert selected is not None and second.parent.name in selected.slugs
    assert data["scenario_slug"]


@pytest.mark.parametrize("kind", ["zero", "fifo"])
def test_a_named_manifest_or_events_file_that_is_not_a_file_is_an_error(
    tmp_path: Path, run_cli_json, kind: str
) -> None:
    """Before: a FIFO or device manifest read as an empty one, events as "not found"."""
    path = tmp_path / "file.json"
    path.write_text("{}")
    _replace(path, kind)
    scenario = EXAMPLES / "bank" / "eval" / "scenarios" / "card_replace_stolen.yml"
    for args in (
        ["status", "--manifest", str(path)],
        ["assert", str(scenario), "--events", str(path)],
    ):
        with deadline():
            code, payload = run_cli_json(*args)
        assert code == 2 and "not a regular file" in payload["error"], (args, payload)
