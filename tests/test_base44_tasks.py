"""The task prompts planned for an Agent Skill whose description quotes no trigger phrases:
one per task its text says it supports, with checks an agent that writes nothing fails."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agentflows.drafting.offline._base44_tasks import draft_task
from agentflows.planning._base44 import plan_base44
from agentflows.planning._base44_tasks import description_tasks, skill_tasks
from evalcore.definitions import Project, load_project
from tests.agent_skill_fixtures import write_skill_project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return load_project(write_skill_project(tmp_path))


def test_description_tasks_are_its_gerund_phrases() -> None:
    assert description_tasks(
        "A toolkit. Supports verifying forms, capturing screenshots of pages, and viewing logs."
    ) == ["verifying forms", "capturing screenshots of pages", "viewing logs"]
    assert description_tasks(
        "Use when building servers for an API, whether in one language or another."
    ) == ["building servers for an API"]
    assert description_tasks('Use when the user says "create a note".') == []
    assert description_tasks("Use when implementing any feature, before writing code") == [
        "implementing a feature"
    ]


def test_one_task_per_description_phrase_and_described_example(project: Project) -> None:
    tasks = skill_tasks(project, project.agent_skills.skills["page-checker"])
    assert [(t.phrase, t.path, t.example) for t in tasks] == [
        ("measuring load times", "measuring_load_times.py", ""),
        ("recording console errors", "recording_console_errors.py", ""),
        ("finding broken links on a page", "finding_broken_links.py", ""),
        ("stamping each page with a timestamp", "stamping_each_page.py", "examples/stamp.py"),
    ]
    first, example = tasks[0], tasks[-1]
    assert first.file == "SKILL.md" and first.line == 3
    assert first.imports == r"^\s*(?:from|import)\s+widget\b"
    # the one-call do-line, shown in the skill's code; the table's wrong call and the guide's
    assert first.do == (r"\.settle\(\s*['\"]quiet['\"]\s*\)", r"\.visit\(")
    assert first.dont == (r"\.fetch_raw\(", r"\.legacy_read\(")
    # the example does not settle or visit: its task does not require what it does not show
    assert example.do == ()


def test_task_prompts_fail_an_agent_that_writes_nothing(project: Project) -> None:
    plan = plan_base44(project, "page-checker", direction=None)
    tasks = [b for b in plan.behaviors if b.facts["kind"] == "task"]
    assert len(tasks) == 4 and all(b.type == "happy_path" for b in tasks)
    assert "task:measuring load times (Python)" in plan.elements
    prompt, checks = draft_task(tasks[0].facts)
    assert "`measuring_load_times.py`" in prompt and "Python" in prompt
    assert checks[0] == {
        "type": "file-exists",
        "description": "The Python file is where the request asked for it: measuring_load_times.py",
        "filePath": "measuring_load_times.py",
    }
    types = [c["type"] for c in checks]
    assert types == [
        "file-exists",
        "command-passes",
        "file-content",
        "file-content",
        "file-content",
        "file-content-excluded",
        "file-content-excluded",
    ]
    json.dumps(checks)  # facts and checks travel as JSON


def test_a_skill_with_quoted_triggers_gets_no_task_prompts(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "note-maker"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        '---\nname: note-maker\ndescription: Notes. Use when the user says "add a note". '
        "Supports writing notes.\n---\n\n```python\nimport notes\n```\n",
        encoding="utf-8",
    )
    plan = plan_base44(load_project(tmp_path), "note-maker", direction=None)
    assert not [b for b in plan.behaviors if b.facts["kind"] == "task"]


FORMAT_SKILL = """\
---
name: quiz-maker
description: Writes quizzes. Use when preparing lessons for a class.
---

# Quiz maker

## Phase 2: Create Quizzes

### Output Format

```xml
<quiz>
  <item><q>What is two plus two?</q><a>4</a></item>
</quiz>
```

## Reference

```xml
<notes></notes>
```
"""


def test_a_data_sample_under_an_imperative_heading_is_a_format_task(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "quiz-maker"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(FORMAT_SKILL, encoding="utf-8")
    project = load_project(tmp_path)
    plan = plan_base44(project, "quiz-maker", direction=None)
    (task,) = [b for b in plan.behaviors if b.facts["kind"] == "task"]
    assert task.facts["phrase"] == "create quizzes" and task.facts["path"] == "quizzes.xml"
    assert task.facts["source"] == "SKILL.md:8"
    prompt, checks = draft_task(task.facts)
    assert prompt.startswith(
        "I'm preparing lessons for a class. Can you help me create quizzes? Put the result in "
        "`quizzes.xml`"
    )
    assert [c["type"] for c in checks] == ["file-exists", "command-passes"] + ["file-content"] * 4
    assert [c["pattern"] for c in checks[2:]] == [
        r"<quiz[\s>/]",
        r"<item[\s>/]",
        r"<q[\s>/]",
        r"<a[\s>/]",
    ]
    assert "xml.dom.minidom" in checks[1]["command"] and "quizzes.xml" in checks[1]["command"]


def test_a_do_line_with_a_setting_requires_the_setting(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "quiet-runner"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: quiet-runner\ndescription: Supports running pages quietly.\n---\n\n"
        "```python\nimport widget\n\nb = widget.launch(quiet=True)  # Always launch quietly\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    (task,) = skill_tasks(project, project.agent_skills.skills["quiet-runner"])
    (pattern,) = task.do
    assert re.search(pattern, "b = widget.launch(\n    quiet=True)", re.M)
    assert not re.search(pattern, "b = widget.launch()", re.M)
    assert not re.search(pattern, "b = widget.launch(quiet=False)", re.M)


def test_a_setting_at_the_librarys_default_is_checked_as_the_opposite_not_set(
    tmp_path: Path,
) -> None:
    skill = tmp_path / "skills" / "page-runner"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: page-runner\ndescription: Supports running pages.\n---\n\n"
        "```python\nimport playwright\n\nb = p.chromium.launch(headless=True)"
        "  # Always launch headless\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    (task,) = skill_tasks(project, project.agent_skills.skills["page-runner"])
    assert task.do == ()  # a bare launch() is headless: requiring headless=True fails it
    plan = plan_base44(project, "page-runner", direction=None)
    (behavior,) = [b for b in plan.behaviors if b.facts.get("kind") == "task"]
    _, checks = draft_task(behavior.facts)
    (check,) = [c for c in checks if c["type"] == "file-content-excluded"]
    assert re.search(check["pattern"], "b = p.chromium.launch(headless = False)")
    assert not re.search(check["pattern"], "b = p.chromium.launch()")
    assert not re.search(check["pattern"], "b = p.chromium.launch(headless=True)")
    assert any(c["type"] == "file-exists" for c in checks)


PAGE_SKILL = """\
---
name: page-poker
description: Clicks through pages with widget.
---

# Page poker

```python
import widget
```

## Examples

- `examples/local_page.py` - Clicking the buttons of a local page
- `examples/remote.py` - Reading a remote page
"""


def test_an_example_that_opens_a_page_of_its_own_gets_one_in_the_starter(
    tmp_path: Path,
) -> None:
    skill = tmp_path / "skills" / "page-poker"
    (skill / "examples").mkdir(parents=True)
    (skill / "SKILL.md").write_text(PAGE_SKILL, encoding="utf-8")
    (skill / "examples" / "local_page.py").write_text(
        "import widget\n\npage = widget.open('path/to/your/file.html')\npage.click('button')\n",
        encoding="utf-8",
    )
    (skill / "examples" / "remote.py").write_text(
        "import widget\n\nwidget.open(url)\n", encoding="utf-8"
    )
    project = load_project(tmp_path)
    tasks = {t.phrase: t for t in skill_tasks(project, project.agent_skills.skills["page-poker"])}
    assert tasks["clicking the buttons of a local page"].inputs == ("page.html",)
    # the fixture's project holds the page for every prompt: each task of the skill names it
    assert tasks["reading a remote page"].inputs == ("page.html",)
    plan = plan_base44(project, "page-poker", direction=None)
    local = next(b for b in plan.behaviors if b.facts.get("inputs"))
    assert set(local.facts["starter"]) == {"page.html"}
    assert "<form" in local.facts["starter"]["page.html"]
    prompt, checks = draft_task(local.facts)
    assert "It's for `page.html`, in this folder." in prompt
    assert {"type": "file-content", "pattern": r"page\.html"}.items() <= checks[1].items()


def test_a_framework_the_description_names_is_one_the_file_must_use(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "feed-server"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: feed-server\ndescription: Guide to the Feed Context Kit. Use when building "
        "feed servers, in Python (QuickServe).\n---\n\n```python\n"
        "from feedkit.server import Context, QuickServe, RSS\n\napp = QuickServe('feeds')\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    [task] = skill_tasks(project, project.agent_skills.skills["feed-server"])
    assert task.uses == "QuickServe"  # not `Context` (a word) nor `RSS` (an acronym)
    _, checks = draft_task(plan_base44(project, "feed-server", None).behaviors[0].facts)
    assert {"pattern": r"\bQuickServe\b", "type": "file-content"}.items() <= checks[3].items()


def test_of_a_do_lines_list_the_call_the_description_names_is_required(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "hub-builder"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: hub-builder\ndescription: Use when building hubs that expose widgets.\n"
        "---\n\n```typescript\nimport { Hub } from 'hubkit';\nconst hub = new Hub();\n"
        "hub.registerWidget('w', {}, run);\nhub.registerPanel('p', {}, show);\n```\n\n"
        "- **DO use**: `hub.registerWidget()`, `hub.registerPanel()`\n"
        "- **DO use**: `hub.open()`, `hub.close()`\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    [task] = skill_tasks(project, project.agent_skills.skills["hub-builder"])
    # `widgets` names registerWidget; neither open nor close is named, so that line gives none
    assert task.do == (r"\.registerWidget\(",)


BROWSER_SKILL = """\
---
name: page-lab
description: Drives local pages with widget. Supports checking page behavior, capturing
  page snapshots, and viewing page messages.
---

# Page lab

```python
import widget

b = widget.launch(quiet=True)  # Always launch quietly
page = b.visit('http://localhost:8000')
page.settle('quiet')
page.snapshot(path='shot.png')
b.close()
```

❌ **Don't** read the DOM before `settle` on dynamic apps
✅ **Do** call `page.settle('quiet')` before reading

## Examples

- `examples/messages.py` - Capturing console messages during a run
- `examples/local.py` - Clicking the buttons of a local page
"""


def _browser_skill(tmp_path: Path) -> Project:
    skill = tmp_path / "skills" / "page-lab"
    (skill / "examples").mkdir(parents=True)
    (skill / "SKILL.md").write_text(BROWSER_SKILL, encoding="utf-8")
    (skill / "examples" / "messages.py").write_text(
        "import widget\n\ndef keep(m):\n    print(m)\n\npage = widget.open(url)\n"
        "page.on('console', keep)\nconsole_messages.append('console output')\n",
        encoding="utf-8",
    )
    (skill / "examples" / "local.py").write_text(
        "import widget\n\npage = widget.open('path/to/file.html')\n"
        "page.find('button').all()\nb.new_page()\n",
        encoding="utf-8",
    )
    return load_project(tmp_path)


def test_a_do_line_scoped_to_a_kind_of_app_is_required_of_no_task(tmp_path: Path) -> None:
    project = _browser_skill(tmp_path)
    tasks = skill_tasks(project, project.agent_skills.skills["page-lab"])
    assert tasks and all(r"\.settle\(" not in " ".join(t.do) for t in tasks)
    # an unscoped do-line still is
    assert all(any("launch" in p for p in t.do) for t in tasks if not t.example)


def test_each_task_checks_its_own_call_and_a_duplicate_task_is_one(tmp_path: Path) -> None:
    project = _browser_skill(tmp_path)
    tasks = {t.phrase: t for t in skill_tasks(project, project.agent_skills.skills["page-lab"])}
    # "viewing page messages" names what the messages example does: one task, the example's
    assert set(tasks) == {
        "checking page behavior",
        "capturing page snapshots",
        "capturing console messages during a run",
        "clicking the buttons of a local page",
    }
    assert tasks["checking page behavior"].own == ()
    (shot,) = tasks["capturing page snapshots"].own
    assert re.search(shot, "page.snapshot(path='a.png')") and not re.search(shot, "page.visit(u)")
    (console,) = tasks["capturing console messages during a run"].own
    assert re.search(console, 'page.on("console", keep)')
    assert not re.search(console, "print(m)")
    (button,) = tasks["clicking the buttons of a local page"].own
    assert re.search(button, "page.get_by_role('button').click()")  # another way, same thing
    # a helper or a table of selectors names it too, not as a call's own argument
    assert re.search(button, "click_all(page, 'button')")
    assert re.search(button, 'for label, sel in [("Buttons", "button")]:')
    assert re.search(button, "sel = 'input, button[type=submit]'")
    assert not re.search(button, "print('clicked every button')")  # prose, not a name


def test_a_task_with_no_act_of_its_own_is_given_the_input_pages_job(tmp_path: Path) -> None:
    plan = plan_base44(_browser_skill(tmp_path), "page-lab", direction=None)
    by_phrase = {b.facts["phrase"]: b for b in plan.behaviors if b.facts.get("kind") == "task"}
    checking = by_phrase["checking page behavior"]
    # a name ends on the task's words, not on its qualifier ("during")
    messages = by_phrase["capturing console messages during a run"]
    assert messages.case.replace("_", "-") == "capturing-console-messages-python"
    prompt, checks = draft_task(checking.facts)
    # the request is the page's job, not the skill's words for the kind of task
    assert "for `page.html`" in prompt and "press Join" in prompt
    assert "checking page behavior" not in prompt
    assert any(c.get("pattern") == r"Thanks!|#status" for c in checks)
    prompt, checks = draft_task(by_phrase["capturing page snapshots"].facts)
    assert "press Join" not in prompt
    assert any(c.get("pattern") == r"\.snapshot\(" for c in checks)
    # the skill's snapshot call writes a .png: the request says where, the code names it
    assert "Save the result as `page.png`." in prompt
    assert any(c.get("pattern") == r"page\.png" for c in checks)


def test_two_tasks_with_the_same_job_and_checks_are_one_fixture(tmp_path: Path) -> None:
    project = _browser_skill(tmp_path)
    skill_md = tmp_path / "skills" / "page-lab" / "SKILL.md"
    skill_md.write_text(
        BROWSER_SKILL.replace(
            "checking page behavior,", "checking page behavior, debugging page flows,"
        ),
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    phrases = [t.phrase for t in skill_tasks(project, project.agent_skills.skills["page-lab"])]
    assert "debugging page flows" in phrases  # a task of the skill ...
    plan = plan_base44(project, "page-lab", direction=None)
    tasks = [b for b in plan.behaviors if b.facts.get("kind") == "task"]
    phrases = [b.facts["phrase"] for b in tasks]
    # ... whose fixture would be the page's job with the same checks: written once
    assert "checking page behavior" in phrases and "debugging page flows" not in phrases
    (kept,) = [b for b in tasks if b.facts["phrase"] == "checking page behavior"]
    assert len([c for c in kept.covers if not c.startswith("skill:")]) == 2
    # tasks with acts of their own stay apart
    assert "capturing page snapshots" in phrases


def test_a_url_scheme_the_task_names_is_checked_with_the_ways_to_build_it(
    tmp_path: Path,
) -> None:
    skill = tmp_path / "skills" / "file-pages"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: file-pages\ndescription: Supports opening local pages with file:// URLs.\n"
        "---\n\n```python\nimport widget\n\nwidget.open(f'file://{path}')\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    (task,) = skill_tasks(project, project.agent_skills.skills["file-pages"])
    (pattern,) = task.own
    assert re.search(pattern, "url = f'file://{p}'")
    assert re.search(pattern, "url = Path('page.html').resolve().as_uri()")
    assert not re.search(pattern, "url = 'http://localhost:8000/page.html'")
    plan = plan_base44(project, "file-pages", direction=None)
    (behavior,) = [b for b in plan.behaviors if b.facts.get("kind") == "task"]
    prompt, _ = draft_task(behavior.facts)
    assert "://" not in prompt  # asked in the person's words: the check measures the skill


def test_the_decorator_the_skills_code_registers_with_is_required(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "hook-kit"
    skill.mkdir(parents=True)
    block = "```python\nimport hookkit\n\n@kit.hook(name='{0}')\ndef {0}():\n    pass\n```\n"
    (skill / "SKILL.md").write_text(
        "---\nname: hook-kit\ndescription: Supports building hook servers.\n---\n\n"
        + "".join(block.format(n) for n in ("a", "b", "c"))
        + "```python\n@kit.start\ndef go():\n    pass\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    (task,) = skill_tasks(project, project.agent_skills.skills["hook-kit"])
    assert task.decorator == "hook"
    plan = plan_base44(project, "hook-kit", direction=None)
    (behavior,) = [b for b in plan.behaviors if b.facts.get("kind") == "task"]
    _, checks = draft_task(behavior.facts)
    (check,) = [c for c in checks if "Registers" in c["description"]]
    assert re.search(check["pattern"], "app = hookkit.Kit()\n\n@app.hook()\ndef x(): ...", re.M)
    assert not re.search(check["pattern"], "def x(): ...\napp.add(x)", re.M)


def test_an_abstract_api_subject_is_made_concrete_by_a_described_api(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "bridge-kit"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: bridge-kit\ndescription: Use when building bridges to integrate external\n"
        "  APIs or services.\n---\n\n```python\nimport bridgekit\n```\n",
        encoding="utf-8",
    )
    project = load_project(tmp_path)
    (task,) = skill_tasks(project, project.agent_skills.skills["bridge-kit"])
    assert task.reads == ("api.md",) and task.inputs == ()
    plan = plan_base44(project, "bridge-kit", direction=None)
    (behavior,) = [b for b in plan.behaviors if b.facts.get("kind") == "task"]
    assert "GET /todos" in behavior.facts["starter"]["api.md"]
    prompt, checks = draft_task(behavior.facts)
    assert "`api.md`" in prompt and "adds a to-do" in prompt
    # what to write, in the person's words: not the description's abstract phrase
    assert prompt.startswith("Please write a bridge in Python.")
    assert "integrate external" not in prompt and "`bridge.py`" in prompt
    assert any(c.get("filePath") == "bridge.py" for c in checks)
    patterns = [c.get("pattern") for c in checks]
    assert r"api\.md" not in patterns  # the code need not open it
    (endpoint,) = [c["pattern"] for c in checks if "endpoint" in c["description"]]
    assert re.search(endpoint, "requests.get(f'{BASE}/todos', params=q)")
    # the skill's helper joins f"{BASE}/{endpoint}" and is called with "todos"
    assert re.search(endpoint, '_make_api_request("todos", method="POST")')
    assert not re.search(endpoint, 'load("mytodos")')


def test_a_quoted_name_check_says_which_name(tmp_path: Path) -> None:
    plan = plan_base44(_browser_skill(tmp_path), "page-lab", direction=None)
    (clicking,) = [b for b in plan.behaviors if "buttons" in b.facts.get("phrase", "")]
    _, checks = draft_task(clicking.facts)
    assert any(c.get("description", "").startswith("Names 'button'") for c in checks)


def test_a_format_task_on_what_the_person_built_says_it_exists(tmp_path: Path) -> None:
    skill = tmp_path / "skills" / "quiz-maker"
    skill.mkdir(parents=True)
    text = FORMAT_SKILL.replace(
        "Use when preparing lessons for a class.",
        "Use when building bridges to integrate external APIs or services.",
    ).replace("## Reference", "```python\nimport bridgekit\n```\n\n## Reference")
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    plan = plan_base44(load_project(tmp_path), "quiz-maker", direction=None)
    (task,) = [b for b in plan.behaviors if b.facts.get("format")]
    prompt, _ = draft_task(task.facts)
    # the job on the bridge built against the described API, not the description's words
    assert prompt.startswith("I wrote a bridge for the to-do API that `api.md`")
    assert "create quizzes for it?" in prompt and "integrate external" not in prompt
