"""Which Agent Skills a command agent used: read from its JSON stream, else from vocabulary.

The original base44 runner guessed from hard-coded words in the final answer, so "invoked"
meant "mentioned". A coding agent that prints a JSON stream (Claude Code's
`--output-format stream-json`, JSON-lines event streams) says which tools it used, and that is
authoritative. Vocabulary is only the fallback, configured per skill, and the record says
which method decided (`stream` | `vocabulary` | `none`).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._readbytes import describe, read_text
from ..errors import ConfigError
from ..lexicon.notation.file_names import SKILL_FILE as _SKILL_FILE

#: Record types that mark stdout as an event stream rather than an answer that is JSON.
_STREAM_TYPES = {"system", "assistant", "user", "result", "stream_event", "tool_use", "skill"}
_SKILL_TOOLS = {"skill", "useskill", "use_skill", "activate_skill"}

#: The original runner's detection words (reference/base44-evals.md §5), used for these two
#: skills when the project configures no vocabulary of its own.
BUILTIN_VOCABULARY: dict[str, list[str]] = {
    "base44-cli": [
        r"npx\s+base44",
        r"base44\s+(entities|functions|agents|site)\s+(push|deploy|pull)",
        r"\bentities\s+push\b",
        r"base44/(entities|functions|agents)/",
        r"function\.jsonc",
        r"Deno\.serve",
        r"createClientFromRequest",
        r"tool_configs",
    ],
    "base44-sdk": [
        r"@base44/sdk",
        r"entities\.\w+\.(create|list|filter|get|update|delete|bulkCreate|subscribe)\b",
        r"integrations\.Core\.",
        r"\b(InvokeLLM|SendEmail|UploadFile|GenerateImage|ExtractDataFromUploadedFile)\b",
        r"base44\.auth\.",
        r"functions\.invoke",
        r"asServiceRole",
        r"agents\.(createConversation|addMessage|subscribeToConversation|listConversations)",
    ],
}


@dataclass
class StreamInfo:
    """What a JSON stream says: the final answer text and the skills its tool uses name."""

    text: str
    skills: list[str] = field(default_factory=list)
    records: int = 0


def _records(stdout: str) -> list[dict[str, Any]]:
    out = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _is_stream_record(record: dict[str, Any]) -> bool:
    kind = record.get("type")
    if isinstance(kind, str) and (kind in _STREAM_TYPES or "." in kind):
        return True
    return set(record) == {"skill"} and isinstance(record["skill"], str)


def _tool_uses(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Tool-use blocks in a record: Claude assistant content, bare tool_use, codex items."""
    uses: list[dict[str, Any]] = []
    if record.get("type") == "tool_use":
        uses.append(record)
    message = record.get("message")
    if isinstance(message, dict) and isinstance(message.get("content"), list):
        uses += [
            c for c in message["content"] if isinstance(c, dict) and c.get("type") == "tool_use"
        ]
    item = record.get("item")
    if isinstance(item, dict) and isinstance(item.get("command"), str):
        uses.append({"name": item.get("type", "command"), "input": {"command": item["command"]}})
    return uses


def _skills_of(use: dict[str, Any]) -> list[str]:
    name = str(use.get("name") or "").lower()
    args = use.get("input") if isinstance(use.get("input"), dict) else {}
    found = []
    if name in _SKILL_TOOLS:
        for key in ("skill", "name", "command", "skill_name"):
            value = args.get(key)
            if isinstance(value, str) and value.strip():
                found.append(value.strip().lstrip("/"))
                break
    found += _SKILL_FILE.findall(json.dumps(args))
    return found


def _text_of(records: list[dict[str, Any]]) -> str:
    results = [
        r["result"]
        for r in records
        if r.get("type") == "result" and isinstance(r.get("result"), str)
    ]
    if results:
        return results[-1]
    parts: list[str] = []
    for record in records:
        message = record.get("message")
        if record.get("type") == "assistant" and isinstance(message, dict):
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts += [
                    c["text"]
                    for c in content
                    if isinstance(c, dict)
                    and c.get("type") == "text"
                    and isinstance(c.get("text"), str)
                ]
        item = record.get("item")
        if (
            isinstance(item, dict)
            and item.get("type") == "agent_message"
            and isinstance(item.get("text"), str)
        ):
            parts.append(item["text"])
    return "\n".join(parts)


def parse_stream(stdout: str) -> StreamInfo | None:
    """The stream's answer and skills, or None when stdout is not a JSON event stream."""
    records = [r for r in _records(stdout) if _is_stream_record(r)]
    if not records:
        return None
    skills: list[str] = []
    for record in records:
        if set(record) == {"skill"}:
            skills.append(record["skill"])
        if record.get("type") == "skill" and isinstance(record.get("name"), str):
            skills.append(record["name"])
        for use in _tool_uses(record):
            skills += _skills_of(use)
    return StreamInfo(
        text=_text_of(records), skills=list(dict.fromkeys(skills)), records=len(records)
    )


def _settings_table(folder: Path) -> tuple[dict[str, Any], Path] | None:
    dedicated = folder / "casegen.toml"
    if dedicated.is_file():
        return _read(dedicated), dedicated
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        table = _read(pyproject).get("tool", {}).get("casegen")
        if isinstance(table, dict):
            return table, pyproject
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path))
    except OSError as exc:
        raise ConfigError(f"cannot read skill settings from {path}: {describe(exc)}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read skill settings from {path}: {exc}") from None


def load_vocabulary(start: str | Path | None) -> dict[str, list[str]]:
    """Per-skill vocabulary: the nearest settings file's `skills` table over the built-ins.

    Same search as the model settings: the nearest folder at or above `start` with a
    `casegen.toml` or a `pyproject.toml` that has `[tool.casegen]`.
    """
    vocabulary = {name: list(words) for name, words in BUILTIN_VOCABULARY.items()}
    if start is None:
        return vocabulary
    folder = Path(start).resolve()
    for candidate in (folder, *folder.parents):
        found = _settings_table(candidate)
        if found is None:
            continue
        table, path = found
        skills = table.get("skills", {})
        if not isinstance(skills, dict):
            raise ConfigError(f"{path}: `skills` must be a table of [skills.<name>] tables")
        for name, entry in skills.items():
            words = entry.get("vocabulary") if isinstance(entry, dict) else None
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise ConfigError(
                    f"{path}: skills.{name}.vocabulary must be a list of strings (regexes)"
                )
            for word in words:
                try:
                    re.compile(word)
                except re.error as exc:
                    raise ConfigError(
                        f"{path}: skills.{name}.vocabulary: bad regex {word!r}: {exc}"
                    ) from None
            vocabulary[name] = list(words)
        break
    return vocabulary


def detect_skills(
    stream: StreamInfo | None,
    text: str,
    vocabulary: dict[str, list[str]],
    expected: list[str] | None = None,
) -> tuple[list[str], str]:
    """(skills invoked, method): the stream when there is one, else vocabulary, else none.

    Vocabulary decides only when it covers at least one expected skill (any skill when none
    are expected); otherwise nothing can be said and the method is `none`.
    """
    if stream is not None:
        return list(stream.skills), "stream"
    covered = [name for name in (expected or vocabulary) if vocabulary.get(name)]
    if not covered:
        return [], "none"
    found = [
        name
        for name, words in vocabulary.items()
        if any(re.search(word, text, re.IGNORECASE) for word in words)
    ]
    return found, "vocabulary"


__all__ = [
    "BUILTIN_VOCABULARY",
    "StreamInfo",
    "detect_skills",
    "load_vocabulary",
    "parse_stream",
]
