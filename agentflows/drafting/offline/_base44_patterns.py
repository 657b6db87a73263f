"""Regular expressions for base44 `file-content` / `file-content-excluded` checks.

The runner compiles each `pattern` as a JavaScript `RegExp(pattern, "i")`, so a pattern is
written for that: regex metacharacters escaped with one backslash (JSON shows two), `/` left
alone (there is no regex literal to end), spaces loosened to `\\s*` / `\\s+` and a quote matching
either quote character in code. What is matched is the smallest part that tells right from
wrong, so formatting or a renamed variable does not fail a correct answer:

| skill text | pattern |
|---|---|
| `"type": "string"` | `"type"\\s*:\\s*"string"` (key and value) |
| `"fields": { ... }` | `"fields"\\s*:` (a placeholder value is not matched) |
| wrong `"entrypoint": "index.ts"` (a key the correct form lacks) | `"entrypoint"\\s*:` |
| `base44.entities.Todo.filter({...})` | `Todo\\.filter\\(` (the last two names of a call chain) |
| `Deno.serve(async (req) => { ... })` | `Deno\\.serve\\(` |
| `export default async function handler(req)` | `export\\s+default\\s+async\\s+function\\b` |
| `import { createClient } from "@base44/sdk"` | the statement, spaces loosened, either quote |
| `const conn = actors.Room(id).connect()` | `actors\\.Room\\(` (the agent names its variable) |
| correct `room.subscribe(cb)`, `room` a variable the skill declares | `\\.subscribe\\(` |
"""

from __future__ import annotations

import re

from evalcore.lexicon.notation.js_declarations import DECLARED_NAME

from ...planning.base44_targets import JSON_KEY

_SPECIAL = set(".^$*+?()[]{}|\\")
_JSON_PAIR = re.compile(r'"([^"]+)"\s*:\s*("(?:[^"\\]|\\.)*"|\{|\[|[-\w.]+)?')


def escape(text: str) -> str:
    """Escape regex metacharacters for a JavaScript RegExp string (not `/`, not `-`)."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def loose(text: str, *, quotes: bool = True) -> str:
    """`text` as a pattern: metacharacters escaped, spaces loosened, quotes either kind."""
    out: list[str] = []
    for index, char in enumerate(text):
        if char.isspace():
            if out and out[-1] in (r"\s*", r"\s+"):
                continue
            before = text[index - 1] if index else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            word = before.isalnum() and after.isalnum()
            out.append(r"\s+" if word else r"\s*")
        elif quotes and char in "\"'":
            out.append("['\"]")
        else:
            out.append(escape(char))
    return "".join(out)


def json_patterns(snippet: str, *, keys_only: set[str] | None = None) -> list[str]:
    """One pattern per `"key": value` in the snippet; keys in `keys_only` match by key alone."""
    patterns = []
    for key, value in _JSON_PAIR.findall(snippet):
        pattern = f'"{escape(key)}"' + r"\s*:"
        if value.startswith('"') and not (keys_only and key in keys_only):
            pattern += r"\s*" + escape(value)
        patterns.append(pattern)
    return patterns


def json_keys(snippets: tuple[str, ...]) -> set[str]:
    return {k for s in snippets for k in JSON_KEY.findall(s)}


#: A name the skill's code declares for itself (`const room = ...`): a local, not an API.
_DECLARED = DECLARED_NAME


def declared_names(code: str) -> frozenset[str]:
    """The names `code` declares with `const`/`let`/`var` (its own variables)."""
    return frozenset(_DECLARED.findall(code))


def code_pattern(snippet: str, local: frozenset[str] = frozenset()) -> str:
    """The distinguishing head of a code form (see the module table). A declaration's
    binding is not part of it (`const conn = actors.Room(id)` → `actors\\.Room\\(`), and a
    call on one of the `local` names (the skill's own variables: `room.subscribe(cb)`) is
    matched by its method alone (`\\.subscribe\\(`): a correct agent names its variables
    as it likes."""
    if "(" not in snippet:
        return loose(snippet.strip())
    head = snippet.split("(", 1)[0].strip()
    tokens = head.split()
    if "=" in tokens:
        head = " ".join(tokens[tokens.index("=") + 1 :])
    words = head.split()
    if len(words) > 1:
        if words[-2] == "function":
            return r"\s+".join(escape(w) for w in words[:-1]) + r"\b"
        return r"\s+".join(escape(w) for w in words) + r"\s*\("
    segments = head.split(".")
    if len(segments) >= 2 and segments[-2] in local:
        return r"\." + escape(segments[-1]) + r"\("
    return escape(".".join(segments[-2:])) + r"\("


__all__ = ["code_pattern", "declared_names", "escape", "json_keys", "json_patterns", "loose"]
