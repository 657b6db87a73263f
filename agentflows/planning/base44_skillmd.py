"""What a SKILL.md prescribes, read from its text for the base44 planner and drafter.

Read from the skill's description and markdown body (nothing is executed):

- **triggers**: the quoted phrases after "Use when" in the description ("create an entity");
- **resources**: rows of a table whose header has a `file` column (`| entity |
  \\`base44/entities/<name>.jsonc\\` | file name lowercase ..., "name" PascalCase |`): the kind,
  the prescribed path templates (a second file written `+ \\`index.ts\\`` sits in the first's
  folder) and the naming rule; and lines outside code blocks that prescribe a path with a braced
  placeholder (`**File naming:** \\`base44/entities/{kebab-case-name}.jsonc\\` (e.g.,
  \\`team-member.jsonc\\` for \\`TeamMember\\`)`): the kind is the folder's singular as the
  body writes it, the rule the line (the placeholder's words give the file's case), and a
  PascalCase example name (`TeamMember`) the case of the definition's `"name"`;
- **pairs**: rows of a `WRONG | CORRECT` table, each cell's code spans (`"type": "text"` /
  `"type": "date"` → two wrong forms), numbered from 1 in body order;
- **commands**: list items that start with a code span of a command and say what it does
  (`- \\`npx base44 init\\`: create \\`base44/config.jsonc\\` ...`);
- **paths**: every code span or code-block header comment that is a relative file path
  (`src/api/base44Client.js`); JSON and JSONC ones get `valid-json` checks;
- **routes**: sentences that send a task to another skill ("use the **base44-sdk** skill");
- **entities**: entity names in SDK calls of the examples (`entities.Todo.filter`);
- **presumed files**: files a step checks for before acting ("Check if
  \\`base44/config.jsonc\\` exists"), with the example the body gives of each.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from evalcore.definitions import AgentSkill, Project, body_on_disk
from evalcore.lexicon.en.skill_guides import CASE_STYLE, ROUTE, USE_WHEN
from evalcore.lexicon.en.skill_presumed_files import CHECK_EXISTS as _CHECK_EXISTS
from evalcore.lexicon.notation.base44_sdk import ENTITY as _ENTITY
from evalcore.lexicon.notation.file_names import APP_FILE_EXT as _FILE_EXT
from evalcore.lexicon.notation.file_names import RELATIVE_PATH as _PATH
from evalcore.lexicon.notation.skill_path_placeholders import BRACED_PLACEHOLDER as _BRACED
from evalcore.lexicon.notation.skill_path_placeholders import PASCAL_IDENTIFIER as _PASCAL

_CODE = re.compile(r"`([^`]+)`")
_COMMAND_ITEM = re.compile(r"^\s*[-*]\s+`([^`]+)`\s*[:—–-]\s*(.+)$")
_COMMENT_PATH = re.compile(r"^\s*(?://|#)\s*(\S+\.\w+)\s*$")
_QUOTED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”")
_USE_WHEN = USE_WHEN
_ROUTE = ROUTE
_COMMAND_START = ("npx ", "npm ", "yarn ", "pnpm ", "base44 ", "git ")
_RUNNERS = ("npx ", "npm ", "yarn ", "pnpm ", "git ")


@dataclass(frozen=True)
class Resource:
    """One row of a "where resources live" table."""

    kind: str
    paths: tuple[str, ...]
    rule: str
    name_case: str = ""
    """The case of the definition's `"name"` where the rule's words do not say it: "pascal"
    (an example of the skill shows one), "file" (the name is the file's own); "" when none."""


@dataclass(frozen=True)
class Pair:
    """One WRONG → CORRECT row."""

    index: int
    wrong: tuple[str, ...]
    correct: tuple[str, ...]
    row: str
    """The row's text (its cells joined), for deciding what the pair is about."""
    topic: str = ""
    """What the pair's table is about, as its heading names it ("Authentication"); "" when
    the heading does not."""


@dataclass(frozen=True)
class Command:
    command: str
    says: str


@dataclass(frozen=True)
class Route:
    """ "Writing app code ...: use the base44-sdk skill": a task another skill owns."""

    skill: str
    condition: str


@dataclass(frozen=True)
class SkillText:
    name: str
    description: str
    triggers: tuple[str, ...]
    resources: tuple[Resource, ...]
    pairs: tuple[Pair, ...]
    commands: tuple[Command, ...]
    paths: tuple[str, ...]
    routes: tuple[Route, ...]
    entities: tuple[str, ...]
    blocks: tuple[tuple[str, str], ...] = ()
    """Fenced code blocks as (header comment path or "", text)."""
    presumed: tuple[tuple[str, str], ...] = ()
    """Files the skill checks for before it acts ("Check if `base44/config.jsonc` exists"),
    each with the example of it the body gives (path, text): a prompt about work in an
    existing project finds them in its starter `project/`."""

    @property
    def json_paths(self) -> tuple[str, ...]:
        return tuple(p for p in self.paths if p.endswith((".json", ".jsonc")))


def skill_body(project: Project, skill: AgentSkill) -> str:
    """The SKILL.md body as it is on disk now (the reader's copy when the file is gone)."""
    return body_on_disk(Path(project.root) / skill.path / "SKILL.md", skill.body)


def read_skill(project: Project, skill: AgentSkill, known_skills: set[str]) -> SkillText:
    body = skill_body(project, skill)
    description = " ".join((skill.description or "").split())
    resources = _resources(body)
    paths = [p for r in resources for p in r.paths] + _paths(body)
    return SkillText(
        name=skill.name,
        description=description,
        triggers=triggers(description),
        resources=tuple(resources),
        pairs=tuple(_pairs(body)),
        commands=tuple(_commands(body)),
        paths=tuple(dict.fromkeys(paths)),
        routes=tuple(_routes(body, skill.name, known_skills)),
        entities=tuple(dict.fromkeys(_ENTITY.findall(body))),
        blocks=tuple(_blocks(body)),
        presumed=tuple(_presumed(body)),
    )


def triggers(description: str) -> tuple[str, ...]:
    """Quoted phrases after "Use when" (all quoted non-command phrases when it is absent)."""
    found = _USE_WHEN.search(description)
    text = description[found.end() :] if found else description
    phrases = [a or b for a, b in _QUOTED.findall(text)]
    return tuple(dict.fromkeys(p.strip() for p in phrases if not p.strip().startswith(_RUNNERS)))


# --- tables -------------------------------------------------------------------------------


def _tables(body: str) -> list[list[list[str]]]:
    """Markdown tables as rows of cells (header first, the `---` row dropped)."""
    return [rows for _, rows in _headed_tables(body)]


def _headed_tables(body: str) -> list[tuple[str, list[list[str]]]]:
    """Markdown tables, each with the text of the nearest heading above it."""
    tables: list[tuple[str, list[list[str]]]] = []
    current: list[list[str]] = []
    heading = ""
    in_fence = False
    for line in body.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        stripped = line.strip()
        if not in_fence and stripped.startswith("|") and stripped.endswith("|"):
            cells = [c.strip() for c in stripped[1:-1].split("|")]
            if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                current.append(cells)
            continue
        if current:
            tables.append((heading, current))
            current = []
        if not in_fence and stripped.startswith("#"):
            heading = stripped.lstrip("#").strip()
    if current:
        tables.append((heading, current))
    return tables


def _topic(heading: str, header: list[str]) -> str:
    """What a WRONG → CORRECT table is about, where its heading names it before the table's
    own header words ("Authentication - WRONG vs CORRECT" → "Authentication"); "" else."""
    parts = [p.strip(" *_`") for p in re.split(r"\s[-—–:]\s|:\s", heading) if p.strip()]
    header_words = {w.lower() for cell in header for w in re.findall(r"[A-Za-z]+", cell)}
    if len(parts) < 2 or not header_words & {w.lower() for w in re.findall(r"[A-Za-z]+", parts[1])}:
        return ""
    return re.sub(r"[^\w\s-]", "", parts[0]).strip()


def _pairs(body: str) -> list[Pair]:
    pairs: list[Pair] = []
    for heading, table in _headed_tables(body):
        header = [c.lower() for c in table[0]]
        if len(header) < 2 or "wrong" not in header[0] or "correct" not in header[1]:
            continue
        topic = _topic(heading, header)
        for row in table[1:]:
            if len(row) < 2:
                continue
            wrong = tuple(_CODE.findall(row[0]))
            correct = tuple(_CODE.findall(row[1]))
            if wrong and correct:
                pairs.append(Pair(len(pairs) + 1, wrong, correct, " ".join(row), topic))
    return pairs


def _resources(body: str) -> list[Resource]:
    found: list[Resource] = []
    for table in _tables(body):
        header = [c.lower() for c in table[0]]
        if "file" not in header:
            continue
        file_col = header.index("file")
        rule_col = next((i for i, h in enumerate(header) if "rule" in h), None)
        for row in table[1:]:
            if len(row) <= file_col:
                continue
            spans = [s for s in _CODE.findall(row[file_col]) if _PATH.match(s)]
            if not spans:
                continue
            paths = [spans[0]]
            for extra in spans[1:]:
                paths.append(extra if "/" in extra else f"{spans[0].rsplit('/', 1)[0]}/{extra}")
            rule = row[rule_col] if rule_col is not None and rule_col < len(row) else ""
            found.append(Resource(row[0].strip("* "), tuple(paths), rule))
    return found + _naming_lines(body, {p for r in found for p in r.paths})


def _naming_lines(body: str, known: set[str]) -> list[Resource]:
    """Resources prescribed by a line that writes a path with a braced placeholder."""
    found: list[Resource] = []
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", body)}
    in_fence = False
    for line in body.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        spans = _CODE.findall(line)
        for span in spans:
            template = _BRACED.sub("<name>", span)
            if template == span or not _PATH.match(template) or template in known:
                continue
            folder = template.split("<name>")[0].rstrip("/").rsplit("/", 1)[-1]
            if not folder:
                continue
            kind = _singular(folder, words)
            found.append(Resource(kind, (template,), line.strip(), _name_case(span, spans)))
            known.add(template)
    return found


def _name_case(span: str, spans: list[str]) -> str:
    """ "pascal" where the line's example names a record in PascalCase (`TeamMember`); "file"
    where the placeholder is the record's name itself (`{agent_name}`: no case of its own),
    so the definition's `"name"` is the file's; else "" (the rule's words decide)."""
    if any(_PASCAL.match(s) for s in spans):
        return "pascal"
    found = _BRACED.search(span)
    placeholder = found.group(0)[1:-1].lower() if found else ""
    if placeholder.endswith("name") and not CASE_STYLE.search(placeholder):
        return "file"
    return ""


def _singular(folder: str, words: set[str]) -> str:
    """The folder's name for one of its files as the body writes it (`entities` → `entity`
    where the body says "entity"), else the folder's name."""
    lowered = folder.lower()
    candidates = [lowered[:-3] + "y", lowered[:-1]] if lowered.endswith("ies") else []
    candidates += [lowered[:-1]] if lowered.endswith("s") else []
    return next((c for c in candidates if c in words), lowered)


# --- lines --------------------------------------------------------------------------------


def _commands(body: str) -> list[Command]:
    out: list[Command] = []
    for line in body.splitlines():
        match = _COMMAND_ITEM.match(line)
        if match and match.group(1).startswith(_COMMAND_START):
            out.append(Command(match.group(1).strip(), match.group(2).strip()))
    return out


def _paths(body: str) -> list[str]:
    """Relative file paths the body names (code spans and code-block header comments)."""
    found: list[str] = []
    for span in _CODE.findall(body):
        if "/" in span and _PATH.match(span) and _FILE_EXT.search(span):
            found.append(span)
    for line in body.splitlines():
        match = _COMMENT_PATH.match(line)
        if match and _PATH.match(match.group(1)):
            found.append(match.group(1))
    return list(dict.fromkeys(found))


def _presumed(body: str) -> list[tuple[str, str]]:
    """Files a step checks for (`CHECK_EXISTS`), each with its example: the fenced block right
    after a line outside code that names the file (`**config.jsonc example:**`), kept where
    the file allows comments or the block is plain JSON; else `{}` for a JSON file, "" else."""
    found: dict[str, str] = {}
    lines = body.splitlines()
    for match in _CHECK_EXISTS.finditer(body):
        path = match.group(1)
        if _PATH.match(path) and path not in found:
            found[path] = _example_of(path, lines)
    return list(found.items())


def _example_of(path: str, lines: list[str]) -> str:
    name = path.rsplit("/", 1)[-1]
    in_fence = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or name not in line:
            continue
        rest = [n for n in lines[index + 1 :] if n.strip()]
        if not rest or not rest[0].lstrip().startswith("```"):
            continue
        start = lines.index(rest[0], index + 1) + 1
        end = next((i for i in range(start, len(lines)) if lines[i].lstrip().startswith("```")), 0)
        block = "\n".join(lines[start:end]) + "\n" if end else ""
        if block and (path.endswith(".jsonc") or _plain_json(block)):
            return block
    return "{}\n" if path.endswith((".json", ".jsonc")) else ""


def _plain_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _blocks(body: str) -> list[tuple[str, str]]:
    """Fenced code blocks, each with the path its first comment line names ("" if none)."""
    found: list[tuple[str, str]] = []
    for match in re.finditer(r"```[^\n]*\n(.*?)```", body, re.DOTALL):
        text = match.group(1)
        first = text.splitlines()[0] if text.strip() else ""
        header = _COMMENT_PATH.match(first)
        found.append((header.group(1) if header else "", text))
    return found


def _routes(body: str, own: str, known: set[str]) -> list[Route]:
    routes: list[Route] = []
    for line in re.split(r"\n\s*\n|\n\s*[-*]\s+", body):
        text = " ".join(line.split())
        for match in _ROUTE.finditer(text):
            skill = match.group(1)
            if skill == own or skill not in known:
                continue
            condition = re.split(r"(?<=[.!?])\s+", text[: match.start()])[-1]
            condition = condition.rstrip(" :,;.—-")
            condition = re.sub(r"[*`_]", "", condition)
            condition = re.sub(r"^[-*]\s*", "", condition).strip()
            if condition:
                routes.append(Route(skill, condition[-200:]))
    return list({r.skill: r for r in reversed(routes)}.values())[::-1]


__all__ = [
    "Command",
    "Pair",
    "Resource",
    "Route",
    "SkillText",
    "read_skill",
    "skill_body",
    "triggers",
]
