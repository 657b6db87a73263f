"""A scripted stand-in for a coding agent (`command:` target tests).

    python scripted_coder.py MODE PROMPT

Writes a few files in the current folder, records what it could see, and prints either a
Claude-Code-like JSON stream (`stream`), a plain answer (`text`), nothing and a failure
(`fail`), or hangs (`sleep`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

TODO = """// Todo entity
{
  "name": "Todo",
  "type": "object",
  /* the docs live at https://docs.base44.com/entities */
  "description": "See https://example.com/todo // not a comment",
  "properties": {
    "title": {"type": "string", "description": "What to do"},
    "completed": {"type": "boolean", "default": false},
    "priority": {"type": "string", "enum": ["low", "medium", "high"]},
  },
  "required": ["title"],
}
"""


def main() -> int:
    mode, prompt = sys.argv[1], sys.argv[2]
    here = Path.cwd()
    Path("prompt.txt").write_text(prompt, encoding="utf-8")
    seen = {
        "here": sorted(p.name for p in here.iterdir()),
        "parent": sorted(p.name for p in here.parent.iterdir()),
    }
    Path("seen.json").write_text(json.dumps(seen), encoding="utf-8")
    entities = here / "base44" / "entities"
    entities.mkdir(parents=True, exist_ok=True)
    (entities / "todo.jsonc").write_text(TODO, encoding="utf-8")
    (here / "blob.bin").write_bytes(b"\x00\xff" * 10)
    if mode == "sleep":
        time.sleep(30)
    if mode == "fail":
        print("npm ERR! missing script", file=sys.stderr)
        return 3
    if mode == "text":
        print("Created the entity. Run `npx base44 entities push` to upload it.")
        return 0
    records = [
        {
            "type": "system",
            "subtype": "init",
            "cwd": str(here),
            "skills": ["base44-cli", "base44-sdk", "unused-skill"],
        },
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Skill",
                        "input": {"skill": "base44-cli"},
                    }
                ]
            },
        },
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": "see skills/other-skill/SKILL.md",
                    }
                ]
            },
        },
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t2",
                        "name": "Read",
                        "input": {
                            "file_path": os.path.join(
                                str(here), ".claude", "skills", "base44-sdk", "SKILL.md"
                            )
                        },
                    }
                ]
            },
        },
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "Working on it."}]}},
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "result": "Done: base44/entities/todo.jsonc. Push with `npx base44 entities push`.\n"
            '```json\n{"name": "Todo", "count": 2}\n```',
        },
    ]
    for record in records:
        print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
