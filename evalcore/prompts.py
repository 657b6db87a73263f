"""Prompts as named template files, so wording changes never touch code.

Where prompts live: `prompts/<area>/<name>.md` at the repository root, addressed as
`"<area>/<name>"` (`"generate/draft_mantle"`). An installed wheel carries the same files in
`evalcore/_prompts`; the repository folder is read first, so an edit shows up without a
reinstall.

File format:

- `{{name}}` is a placeholder (spaces inside the braces are allowed). Rendering must fill
  every placeholder and must not be given values the prompt does not use: both are errors,
  so a renamed placeholder cannot silently drop context.
- A non-string value is inserted as indented JSON.
- Values are inserted in one pass: a `{{...}}` inside a value stays as written.
- `<System>…</System>` and `<User>…</User>` sections, each on lines of their own, become a
  system and a user message, in file order. A prompt without them is one user message.
- Other tags (`<Definition>`, `<Rules>`) are plain text that structures the prompt for the
  model.

Overrides: wherever a prompt name is accepted, a `Path` to a file, or a string that is a
path to an existing file, or a literal template text (anything that is not a plain
`area/name`) is accepted too.

    rendered = render_prompt("generate/draft_mantle", definition=..., ids=..., ...)
    rendered.messages        # [("system", "..."), ("user", "...")]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._readbytes import describe, read_text
from .errors import UserError
from .lexicon.notation.prompt_files import SECTION as _SECTION
from .suggest import did_you_mean

_CHECKOUT = Path(__file__).resolve().parents[1]

#: The repository's prompt folder (only in a source checkout: installed, the folder above
#: this package is site-packages), then the copy bundled in the wheel.
PROMPT_DIRS = (
    *((_CHECKOUT / "prompts",) if (_CHECKOUT / "pyproject.toml").is_file() else ()),
    Path(__file__).parent / "_prompts",
)

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_NAME = re.compile(r"^[a-z0-9_]+(?:/[a-z0-9_]+)+$")
_ROLES = {"System": "system", "User": "user"}


class PromptError(UserError):
    """A prompt that cannot be found or rendered as asked."""


@dataclass(frozen=True)
class Prompt:
    """A prompt template as read, before rendering."""

    name: str
    """`area/name`, the file path of an override, or `<literal>`."""
    template: str

    @property
    def placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.template))


@dataclass(frozen=True)
class RenderedPrompt:
    """A filled-in prompt, as (role, text) messages for a chat model."""

    name: str
    messages: list[tuple[str, str]]

    @property
    def text(self) -> str:
        """All messages as one text (for logs and for assertions in tests)."""
        return "\n\n".join(text for _, text in self.messages)


def prompt_names(area: str | None = None) -> list[str]:
    """Every named prompt (`area/name`), repository and bundled folders merged."""
    names: set[str] = set()
    for root in PROMPT_DIRS:
        if root.is_dir():
            names |= {p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.md")}
    # Only `area/name` files are prompts (a README at the top is documentation).
    return sorted(n for n in names if _NAME.match(n) and (area is None or n.startswith(area + "/")))


def load_prompt(ref: str | Path) -> Prompt:
    """A named prompt (`"generate/draft_mantle"`), a prompt file, or a literal template."""
    if isinstance(ref, Path):
        return Prompt(str(ref), _read(ref))
    if _NAME.match(ref):
        for root in PROMPT_DIRS:
            path = root / f"{ref}.md"
            if path.is_file():
                return Prompt(ref, _read(path))
        raise PromptError(
            f"no prompt named '{ref}'",
            hint=did_you_mean(ref, prompt_names(), what="prompt"),
        )
    if "\n" not in ref and len(ref) < 1024 and Path(ref).is_file():
        return Prompt(ref, _read(Path(ref)))
    return Prompt("<literal>", ref)


def render_prompt(ref: str | Path | Prompt, **values: Any) -> RenderedPrompt:
    """Fill every placeholder of a prompt and split it into messages.

    Raises:
        PromptError: a placeholder has no value, or a value matches no placeholder.
    """
    prompt = ref if isinstance(ref, Prompt) else load_prompt(ref)
    wanted = prompt.placeholders
    missing = sorted(wanted - values.keys())
    unused = sorted(values.keys() - wanted)
    if missing:
        raise PromptError(
            f"prompt '{prompt.name}' needs a value for " + ", ".join(missing),
            hint="placeholders: " + ", ".join(sorted(wanted)),
        )
    if unused:
        raise PromptError(
            f"prompt '{prompt.name}' has no placeholder for " + ", ".join(unused),
            hint="placeholders: " + (", ".join(sorted(wanted)) or "none"),
        )
    # Split before filling in, so a value that happens to contain a section tag (a definition
    # file quoting `<User>`) cannot change the message structure.
    messages = [
        (role, _PLACEHOLDER.sub(lambda m: _as_text(values[m.group(1)]), body))
        for role, body in split_messages(prompt.template)
    ]
    return RenderedPrompt(prompt.name, messages)


def split_messages(text: str) -> list[tuple[str, str]]:
    """`<System>`/`<User>` sections as (role, text) pairs; no sections: one user message."""
    sections = [(_ROLES[m.group(1)], m.group(2).strip()) for m in _SECTION.finditer(text)]
    return sections or [("user", text.strip())]


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _read(path: Path) -> str:
    try:
        return read_text(path)
    except OSError as exc:
        raise PromptError(f"cannot read prompt file {path}: {describe(exc)}") from None
    except UnicodeDecodeError as exc:
        raise PromptError(
            f"cannot read prompt file {path}: not UTF-8 text ({exc.reason})"
        ) from None


__all__ = [
    "PROMPT_DIRS",
    "Prompt",
    "PromptError",
    "RenderedPrompt",
    "load_prompt",
    "prompt_names",
    "render_prompt",
    "split_messages",
]
