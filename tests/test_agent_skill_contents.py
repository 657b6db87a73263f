"""An Agent Skill read whole: its body, bundled docs, scripts (never run) and examples, each
element with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.definitions import Project, load_project
from evalcore.definitions._agent_skill_contents import markdown_elements
from tests.agent_skill_fixtures import write_skill_project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return load_project(write_skill_project(tmp_path))


def elements(project: Project, kind: str) -> list[tuple[str, str, int, str]]:
    skill = project.agent_skills.skills["page-checker"]
    return [(e.text, e.file, e.line, e.detail) for e in skill.contents if e.kind == kind]


def test_body_elements_carry_file_and_line(project: Project) -> None:
    assert elements(project, "description")[0][1:3] == ("SKILL.md", 3)
    assert ("Example", "SKILL.md", 11, "2") in elements(project, "section")
    code = elements(project, "code")
    assert code[0][1:] == ("SKILL.md", 14, "python") and "open_browser" in code[0][0]
    assert elements(project, "command") == [
        ("python scripts/serve.py --port 8000", "SKILL.md", 25, "")
    ]
    dos = [(text, line) for text, _, line, _ in elements(project, "do")]
    donts = [(text, line) for text, _, line, _ in elements(project, "dont")]
    assert ("`b.visit(url)`", 34) in dos and ("`b.fetch_raw(url)`", 34) in donts
    assert dos[0][1] == 30 and donts[0][1] == 29
    assert ("examples/stamp.py", "SKILL.md", 38, "Stamping each page with a timestamp") in (
        elements(project, "file")
    )


def test_bundled_files_are_read_without_running_scripts(project: Project) -> None:
    assert [(t, f) for t, f, _, _ in elements(project, "doc")] == [
        ("Notes", "NOTES.md"),
        ("Widget guide", "reference/guide.md"),
    ]
    assert ("**Never** call `page.legacy_read()` in new scripts.", "reference/guide.md", 3, "") in (
        elements(project, "dont")
    )
    assert elements(project, "script") == [
        ("scripts/serve.py", "scripts/serve.py", 1, "Serve the site while a command runs.")
    ]
    assert elements(project, "usage") == [
        ("python scripts/serve.py --port 8000", "scripts/serve.py", 4, "")
    ]
    assert elements(project, "argument") == [("--port", "scripts/serve.py", 11, "Port to serve on")]
    assert [t for t, *_ in elements(project, "example")] == ["examples/stamp.py"]
    assert [t for t, *_ in elements(project, "template")] == ["templates/report.html"]
    sources = {s.path for s in project.sources}
    assert {
        "skills/page-checker/reference/guide.md",
        "skills/page-checker/NOTES.md",
        "skills/page-checker/scripts/serve.py",
    } <= sources


def test_a_code_comment_that_says_always_is_a_do_line() -> None:
    block = (
        "```python\n"
        "b = w.launch(quiet=True)  # Always launch quietly\n"
        "b.visit('http://localhost:8000')  # the site must be up\n"
        "```\n"
    )
    found = [(e.kind, e.text, e.line) for e in markdown_elements(block, "SKILL.md")]
    assert ("do", "`b = w.launch(quiet=True)` Always launch quietly", 2) in found
    assert [k for k, _, _ in found if k in ("do", "dont")] == ["do"]
