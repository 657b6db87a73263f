"""A small Agent Skills project written for a test: one skill with a body, a bundled guide,
a root note, a script that must never run, an example and a template."""

from __future__ import annotations

from pathlib import Path

SKILL = """\
---
name: page-checker
description: Checks pages of a local site with the Widget library. Supports measuring load
  times, recording console errors, and finding broken links on a page.
---

# Page checker

Write Python scripts with the widget library.

## Example

```python
from widget.sync import open_browser

with open_browser() as b:
    page = b.visit("http://localhost:8000")
    page.settle("quiet")
    b.close()
```

Start the site first:

```bash
python scripts/serve.py \\
  --port 8000
```

❌ **Don't** read the page before it settles
✅ **Do** call `page.settle('quiet')` before reading it

| Do | Don't |
|----|-------|
| `b.visit(url)` | `b.fetch_raw(url)` |

## Reference

- `examples/stamp.py` - Stamping each page with a timestamp
"""

GUIDE = """\
# Widget guide

**Never** call `page.legacy_read()` in new scripts.

```python
import widget

page.legacy_read
```
"""

SCRIPT = '''\
"""Serve the site while a command runs.

Usage:
    python scripts/serve.py --port 8000
"""
import argparse

raise SystemExit("this script must never run while casegen reads it")

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, help="Port to serve on")
'''


def write_skill_project(root: Path) -> Path:
    """The project at `root` (returned): `skills/page-checker/` and its bundled files."""
    skill = root / "skills" / "page-checker"
    (skill / "reference").mkdir(parents=True)
    (skill / "scripts").mkdir()
    (skill / "examples").mkdir()
    (skill / "templates").mkdir()
    (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (skill / "reference" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (skill / "NOTES.md").write_text("# Notes\n\nNothing else.\n", encoding="utf-8")
    (skill / "scripts" / "serve.py").write_text(SCRIPT, encoding="utf-8")
    (skill / "examples" / "stamp.py").write_text(
        '"""Stamp pages."""\nfrom widget.sync import open_browser\n', encoding="utf-8"
    )
    (skill / "templates" / "report.html").write_text("<html></html>\n", encoding="utf-8")
    return root
