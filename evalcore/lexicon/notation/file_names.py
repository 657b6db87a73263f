"""Shapes of file names and paths casegen recognises: an Agent Skill's `skills/<name>/SKILL.md`
in a tool call's arguments, the numbered `run_<n>.json` files of a results folder, and the
relative paths and source-file names a skill or a prompt writes (`src/pages/Home.jsx`)."""

from __future__ import annotations

from .. import phrase

#: A skill's instructions file in a path, the skill's folder name as group 1.
SKILL_FILE = phrase(
    "notation.file_names.skill_file",
    r"(?:^|[/\\\s'\"])skills[/\\]([A-Za-z0-9][A-Za-z0-9_.-]*)[/\\]SKILL\.md",
    matches=('"path": "/repo/.claude/skills/pdf-tools/SKILL.md"', "skills\\pdf\\SKILL.md"),
    misses=("myskills/pdf/SKILL.md", "skills/pdf/README.md", "skills/_x/SKILL.md"),
)
#: A numbered run file of a results folder, the number as group 1.
RUN_FILE = phrase(
    "notation.file_names.run_file",
    r"^run_(\d+)\.json$",
    matches=("run_1.json", "run_042.json"),
    misses=("run_1.json.bak", "run_a.json", "summary.json"),
)
#: A relative path (`src/pages/Home.jsx`, `entities/<Name>.json`) or a bare app source file
#: (`Layout.tsx`, `config.jsonc`) as a skill's table or code comment names it; never an
#: absolute path, a home path or a URL.
RELATIVE_PATH = phrase(
    "notation.file_names.relative_path",
    r"^(?![/~])(?!https?:)[\w.<>@-]+(?:/[\w.<>*@-]+)+$|^[\w<>-]+\.(?:jsonc?|[jt]sx?)$",
    matches=("src/pages/Home.jsx", "entities/<Name>.json", "Layout.tsx", "config.jsonc"),
    misses=("/etc/hosts", "~/notes/a.md", "https://example.org/a/b", "README.md", "a b/c"),
)
#: The extension of a file an app project keeps (code, config, docs), at the end of a name.
APP_FILE_EXT = phrase(
    "notation.file_names.app_file_ext",
    r"\.(?:jsonc?|[jt]sx?|mjs|cjs|md|ya?ml|toml)$",
    matches=("src/App.tsx", "base.config.mjs", "docs/guide.md", "deploy.yml"),
    misses=("logo.png", "notes.txt", "App.tsx.bak", "src/pages"),
)
#: A file a sentence names: a path with a folder (`src/app.py`) or a file name with a
#: common source, data or config extension (`notes.md`).
PATH_MENTION = phrase(
    "notation.file_names.path_mention",
    r"[\w.-]+/[\w./-]+|\b[\w-]+\.(?:jsx?|tsx?|jsonc?|md|py|css|html|ya?ml|toml|sql|sh)\b",
    matches=("write the page to src/pages/Home.jsx", "save it as notes.md", "run setup.sh"),
    misses=("write a short summary", "save it as a picture.png", "version 1.2 is out"),
)
