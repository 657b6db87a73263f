"""Turning what a SKILL.md prescribes into concrete files a prompt asks for.

- A resource's `<name>` placeholder is filled from a small sample per kind (an entity is a
  `note`, a function `archive note`, an agent `note helper`), cased as the resource's naming
  rule says: "file name lowercase" → `note`, "kebab-case folder" → `archive-note`,
  "snake_case" → `note_helper`; the `"name"` value follows the rule's `"name"` wording
  ("PascalCase" → `Note`) or else the file's casing.
- A pair is *json* (`"key": value`), *command* (`npx ...`), *path* (`base44/entities/x.jsonc`)
  or *code*, by its first correct form. Json and code pairs become file checks; a command in
  the correct cell becomes a `contains` check; a path pair is what the resource's
  `file-exists` check already checks.
- A pair belongs to the resource its row names (a file name or folder: 2 points; the kind's
  word: 1) or whose example code block holds its correct form (1 point).
- A trigger phrase asks for the resource or command that shares the most words with it
  (resources win ties); with neither it is app code (`src/components/<Name>.jsx`), checked
  with the pairs whose correct calls share the most words with the trigger, read with a
  small vocabulary of everyday verbs (`save` → `create`, `log in` → `login`, `call` →
  `invoke`, `list` → `filter`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evalcore.lexicon.en.skill_guides import CASE_STYLE, NAME_CASE
from evalcore.lexicon.en.tool_verb_words import API_MEANINGS as VOCABULARY

from .base44_skillmd import Command, Pair, Resource, SkillText

_SAMPLES = {"entity": ("note",), "function": ("archive", "note"), "agent": ("note", "helper")}
_WORD = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_STOP = {
    "a",
    "an",
    "the",
    "to",
    "my",
    "in",
    "of",
    "and",
    "or",
    "for",
    "with",
    "npx",
    "base44",
    "it",
    "this",
    "that",
    "every",
    "user",
    "says",
}
JSON_KEY = re.compile(r'"([^"]+)"\s*:')
_RUNNERS = ("npx ", "npm ", "yarn ", "pnpm ")


def norm(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        return word[:-1]
    return word


def word_set(text: str, *, camel: bool = False) -> set[str]:
    parts = []
    for token in _WORD.findall(text):
        parts += _CAMEL.findall(token) if camel else [token]
    return {norm(p) for p in parts if p.lower() not in _STOP}


def pair_kind(pair: Pair) -> str:
    first = pair.correct[0]
    if first.startswith(_RUNNERS):
        return "command"
    if JSON_KEY.search(first):
        return "json"
    if "/" in first and " " not in first and re.search(r"\.\w+$", first):
        return "path"
    return "code"


# --- resources ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    """A resource made concrete: its files and the `"name"` its definition must carry."""

    kind: str
    """The resource's kind word (`entity`, `function`, `agent`, ...)."""
    label: str
    """The kind as the skill writes it (`backend function`)."""
    files: tuple[str, ...]
    name: str | None
    templates: tuple[str, ...]


def kind_word(resource: Resource) -> str:
    words = [w for w in _WORD.findall(resource.kind.lower()) if w not in _STOP]
    return words[-1] if words else "resource"


def _cased(parts: tuple[str, ...], style: str) -> str:
    if style == "pascal":
        return "".join(p.capitalize() for p in parts)
    if style == "kebab":
        return "-".join(parts)
    if style == "lower":
        return "".join(parts)
    return "_".join(parts)


def _path_style(rule: str) -> str:
    lowered = rule.lower()
    if "kebab" in lowered and "folder" in lowered:
        return "kebab"
    if "lowercase" in lowered:
        return "lower"
    if "snake" in lowered:
        return "snake"
    if "kebab" in lowered:
        return "kebab"
    return "snake"


def _name_style(rule: str, path_style: str) -> str | None:
    lowered = rule.lower()
    named = NAME_CASE.search(lowered)
    word = (named.group(1) or named.group(2)) if named else None
    if word is None and not CASE_STYLE.search(lowered):
        return None
    word = word or CASE_STYLE.search(lowered).group(1)  # type: ignore[union-attr]
    if "pascal" in word:
        return "pascal"
    if "kebab" in word:
        return "kebab"
    if "snake" in word:
        return "snake"
    return path_style


def instantiate(resource: Resource) -> Instance:
    kind = kind_word(resource)
    parts = _SAMPLES.get(kind, ("sample", kind))
    path_style = _path_style(resource.rule)
    filled = tuple(p.replace("<name>", _cased(parts, path_style)) for p in resource.paths)
    name_style = (
        (path_style if resource.name_case == "file" else resource.name_case)
        or _name_style(resource.rule, path_style)
        if "<name>" in "".join(resource.paths)
        else None
    )
    return Instance(
        kind,
        resource.kind,
        filled,
        _cased(parts, name_style) if name_style else None,
        resource.paths,
    )


def pair_resource(pair: Pair, text: SkillText) -> Resource | None:
    """The resource a pair is about (see the module doc), or None."""
    row = pair.row.lower()
    best: tuple[int, int] = (0, -1)
    for index, resource in enumerate(text.resources):
        score = 0
        for path in resource.paths:
            folder = path.split("<name>")[0].rstrip("/")
            base = path.rsplit("/", 1)[-1]
            if (folder and folder in row) or ("<" not in base and base in row):
                score += 2
                break
        if kind_word(resource) in word_set(row):
            score += 1
        if _in_example(pair, resource, text):
            score += 1
        if score > best[0]:
            best = (score, index)
    return text.resources[best[1]] if best[0] else None


def _in_example(pair: Pair, resource: Resource, text: SkillText) -> bool:
    folders = [p.split("<name>")[0] for p in resource.paths if "<name>" in p]
    squeeze = re.compile(r"\s+")
    for header, code in text.blocks:
        if header and any(header.startswith(f) for f in folders):
            flat = squeeze.sub("", code)
            forms = [squeeze.sub("", c).replace("{...}", "") for c in pair.correct]
            if any(f and f in flat for f in forms):
                return True
    return False


def file_for(pair: Pair, instance: Instance) -> str | None:
    """The instance file a json or code pair is checked in."""
    kind = pair_kind(pair)
    if kind == "json":
        return next((f for f in instance.files if f.endswith((".json", ".jsonc"))), None)
    if kind == "code":
        return next((f for f in instance.files if re.search(r"\.[jt]sx?$", f)), None)
    return None


# --- triggers -----------------------------------------------------------------------------


def trigger_target(trigger: str, text: SkillText) -> Resource | Command | None:
    wanted = word_set(trigger)
    best: tuple[int, int, Resource | Command | None] = (0, 0, None)
    for resource in text.resources:
        score = len(wanted & word_set(resource.kind))
        if score > best[0]:
            best = (score, 1, resource)
    for command in text.commands:
        score = len(wanted & word_set(f"{command.command} {command.says}"))
        if score > best[0]:
            best = (score, 0, command)
    return best[2]


def code_pairs(trigger: str, text: SkillText) -> list[Pair]:
    """Code pairs whose correct call the trigger asks for (the best-scoring ones)."""
    wanted = set()
    for word in word_set(trigger):
        wanted.add(word)
        wanted.update(norm(w) for w in VOCABULARY.get(word, ()))
    scored = []
    for pair in text.pairs:
        if pair_kind(pair) != "code" or is_import(pair):
            continue
        score = len(wanted & word_set(" ".join(pair.correct), camel=True))
        if score:
            scored.append((score, pair))
    top = max((s for s, _ in scored), default=0)
    return [p for s, p in scored if s == top and top >= 2]


def is_import(pair: Pair) -> bool:
    return pair.correct[0].lstrip().startswith("import ")


def method_names(pair: Pair) -> list[str]:
    """`base44.entities.Todo.filter({...})` → `filter`."""
    names = []
    for form in pair.correct:
        head = form.split("(", 1)[0]
        if "(" in form:
            names.append(head.rsplit(".", 1)[-1].strip())
    return names


def component_name(trigger: str) -> str:
    """`log the user in` → `LogUserIn` (articles and "my"/"to" dropped)."""
    words = [w for w in _WORD.findall(trigger) if w.lower() not in ("a", "an", "the", "my", "to")]
    return "".join(w[:1].upper() + w[1:] for w in words) or "Feature"


def client_path(text: SkillText) -> str | None:
    return next(
        (p for p in text.paths if "client" in p.lower() and p.endswith((".js", ".ts"))), None
    )


__all__ = [
    "VOCABULARY",
    "Instance",
    "client_path",
    "code_pairs",
    "component_name",
    "file_for",
    "instantiate",
    "is_import",
    "kind_word",
    "method_names",
    "pair_kind",
    "pair_resource",
    "trigger_target",
    "word_set",
]
