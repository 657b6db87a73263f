"""Prose that has the model keep a value with Mantle's built-in `set_fields` in an entry no
memory.yml declares ("When they answer, set `bill_month` via `set_fields`").

Rasa's project check does not read prose for this, and at runtime `set_fields` offers only
the skill's declared `llm_settable` fields and collect targets (`settable_fields_for_turn`):
an undeclared entry is answered "not set: ... is not a settable memory field" and nothing
is kept (a direct write raises `MemoryWriteError`). A tool whose `requires` reads the entry
is refused on every call ("gating condition not met": Rasa evaluates `requires` over the
declared, schema-scoped memory only), and an `if:` on it never holds. A goal case of such
a skill cannot reach its goal; the project's author is told where, which entry and what
never runs, beside the needs-review reason of that case.
"""

from __future__ import annotations

from pathlib import Path

from ._context import ReadContext
from ._model import MantleDefinitions, Skill

SET_FIELDS = "set_fields"


def undeclared_set_fields(root: Path, defs: MantleDefinitions, skill: Skill) -> list[str]:
    """`skills/x/skill.md:21: ...` for each entry the skill's prose sets via `set_fields`
    that neither its memory.yml nor the project's declares, with what needs it."""
    path = root / skill.path / "skill.md"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    if SET_FIELDS not in text:  # no sentence can name it: skip the walk over every word
        return []
    lines = text.splitlines()
    seen: set[str] = set()
    out: list[str] = []
    for name, line in _set_via_set_fields(lines):
        if name in skill.memory or name in defs.memory or name in seen:
            continue
        seen.add(name)
        out.append(_message(skill, name, line, lines))
    return out


def _set_via_set_fields(lines: list[str]) -> list[tuple[str, int]]:
    """(entry, line) for each "set `entry` ... `set_fields`" in one sentence of `lines`."""
    words: list[tuple[str, int]] = [(w, n) for n, text in enumerate(lines, 1) for w in text.split()]
    found: list[tuple[str, int]] = []
    start = 0
    for index, (word, _) in enumerate(words):
        if word.endswith((".", "!", "?", ":")) or index == len(words) - 1:
            sentence = words[start : index + 1]
            start = index + 1
            tokens = [w.strip("`,.;:()") for w, _ in sentence]
            if SET_FIELDS not in tokens:
                continue
            for at, (raw, line) in enumerate(sentence[1:], 1):
                name = raw.strip(",.;:()")
                if not (name.startswith("`") and name.endswith("`") and len(name) > 2):
                    continue
                name = name.strip("`")
                if name != SET_FIELDS and name.isidentifier() and tokens[at - 1].lower() == "set":
                    found.append((name, line))
    return found


def _message(skill: Skill, name: str, line: int, lines: list[str]) -> str:
    """What Rasa does with the write and with what waits for it: `set_fields` offers only
    the skill's declared `llm_settable` fields and collect targets, so it answers "not
    set: ... is not a settable memory field" and keeps nothing; a tool whose `requires`
    reads the entry is then refused ("gating condition not met") on every run, and prose
    under an `if:` on it never applies."""
    qualified = f"{skill.id}.{name}"
    gated = [
        (tool, constraint.requires)
        for tool, constraint in skill.tool_constraints.items()
        if constraint.requires and qualified in constraint.requires
    ]
    then = ""
    for tool, requires in gated:
        at = next(
            (n for n, text in enumerate(lines, 1) if "requires:" in text and qualified in text),
            None,
        )
        place = f" ({skill.path}/skill.md:{at})" if at else ""
        then += (
            f"; {tool} has `requires: {requires}`{place}, which therefore never holds: Rasa "
            f"refuses every call of {tool} (gating condition not met), so no run reaches it "
            "and no case can assert it ran"
        )
    guarded = [  # `if: not session.x.y` holds all along: not that one
        n
        for n, text in enumerate(lines, 1)
        if text.startswith("if:") and qualified in text and f"not session.{qualified}" not in text
    ]
    if guarded:
        where = ", ".join(f"{skill.path}/skill.md:{n}" for n in guarded)
        then += f"; the prose under `if:` on it ({where}) never applies"
    return (
        f"{skill.path}/skill.md:{line}: the prose sets `{name}` via `set_fields`, but no "
        f"memory.yml declares it: Rasa offers set_fields only the skill's declared "
        f"llm_settable fields and collect targets, so it answers \"not set: '{name}' is not "
        f'a settable memory field" and the value is never kept{then}. Declare `{name}` in '
        f"{skill.path}/memory.yml (llm_settable: true)."
    )


def warn_undeclared_set_fields(ctx: ReadContext, defs: MantleDefinitions) -> None:
    """Each skill's undeclared `set_fields` entries as project warnings."""
    for skill in defs.skills.values():
        for message in undeclared_set_fields(ctx.root, defs, skill):
            ctx.warnings.append(message)


__all__ = ["undeclared_set_fields", "warn_undeclared_set_fields"]
