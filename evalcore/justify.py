"""Why a case may assert what it asserts: the definition element behind each check.

A case states what every correct agent does in its conversation. A check is sound only when
a definition element makes it so, and of what strength:

- `enforced`: the agent's runtime does it whatever the model decides (Mantle: an ordered
  block's step order and `complete_when`, an `execute_tool` step, a tool's `requires` or
  confirmation gate, `on_success`/`on_failure`, `utter:` rules, `set_memory`, a collect
  step, a tool's code writing memory, routing by a skill's description);
- `instructed`: prose tells the model to do it, unconditionally or under a condition the
  case's own conversation fixes;
- `conditional`: prose leaves it to the model or to a condition the case does not fix
  ("If ...", "may", "optionally", "unless ...").

A dialect finds the element (`Dialect.justify`); this module holds what every dialect
shares: the record, the strength order and the YAML comments that carry it in the file.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["enforced", "instructed", "conditional"]
#: What a comment says where no element is found (a criterion, an assertion).
NO_ELEMENT_CRITERION = "no definition element found (judged by its text)"
NO_ELEMENT = "unjustified: no definition element found"
#: The label of the note that says why a case is written unverified (`generate`'s
#: needs-review reason). Nothing in the case's data says so again, so a rewrite carries the
#: note over from the text it replaces (`carried_notes`), and only `generate` removes it.
NEEDS_REVIEW = "needs-review"
#: How every justification comment line starts (after its indentation).
_STARTS = (
    *(f"# {kind}: " for kind in ("enforced", "instructed", "conditional")),
    f"# {NO_ELEMENT_CRITERION}",
    f"# {NO_ELEMENT}",
    "# test data: ",
    "# outside service: ",
    f"# {NEEDS_REVIEW}: ",
)
#: How a wrapped note's further lines start (at the top of the file).
_GOES_ON = "#   "
#: The widest a wrapped note's lines get, `# ` included.
_WIDTH = 92
#: Strength order: a check made of parts is as strong as its weakest part.
RANK: dict[str | None, int] = {None: 0, "conditional": 1, "instructed": 2, "enforced": 3}
#: Kinds a case may assert; the others become a criterion or nothing.
ASSERTABLE = ("enforced", "instructed")


@dataclass(frozen=True)
class Justification:
    """The definition element behind one check."""

    kind: Kind
    file: str
    """Project-relative (`skills/card_replace/skill.md`)."""
    line: int | None
    element: str
    """What the element is, in a few words (`execute_tool place_replacement_order`)."""

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def comment(self) -> str:
        """The one-line YAML comment text (without `# `)."""
        return f"{self.kind}: {self.place} {self.element}".strip()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "file": self.file, "line": self.line, "element": self.element}


@dataclass(frozen=True)
class Judged:
    """One check of a case and its justification (None: no element found)."""

    path: str
    """JSON Pointer of the check in the case (`/scenario/goals/assertions/2/memory_was_set/0`)."""
    check: str
    """The assertion type (`tool_executed`), `criterion`, or the part's parent type."""
    justification: Justification | None
    top: bool = False
    """A whole assertion or criterion (not a part of one)."""

    @property
    def kind(self) -> str | None:
        return self.justification.kind if self.justification else None

    @property
    def assertable(self) -> bool:
        return self.kind in ASSERTABLE

    def comment(self) -> str:
        if self.justification is None and self.check == "criterion":
            return NO_ELEMENT_CRITERION
        if self.justification is None:
            return NO_ELEMENT
        return self.justification.comment()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "check": self.check, "top": self.top}
        out["justification"] = self.justification.to_json() if self.justification else None
        return out


@dataclass(frozen=True)
class Note:
    """A remark on a case's test data, written as a comment like a justification (`test
    data: … is a built-in test account`): what a reviewer must know of where a value comes
    from. Never a check: no rule counts it."""

    path: str
    """JSON Pointer of the value it is about."""
    text: str
    label: str = "test data"
    """What the remark is about: `test data`, `outside service` (running the case acts
    on a real service where its credentials are set), `run date` (what a tool answers
    depends on the date the case runs) or `needs-review` (why the case is written
    unverified)."""
    wrap: bool = False
    """Over several comment lines (a long reason), the further ones indented by two."""

    def comment(self) -> str:
        """The comment text (without `# `); a wrapped one's lines joined by newlines."""
        text = f"{self.label}: {self.text}"
        if not self.wrap:
            return text
        options = {"break_long_words": False, "break_on_hyphens": False}
        return "\n".join(textwrap.wrap(text, _WIDTH - 2, subsequent_indent="  ", **options))


def needs_review_note(reason: str) -> Note:
    """The note at the top of a case written unverified: `# needs-review: <reason>`, wrapped.
    One line of words: line breaks and characters a YAML comment cannot hold become spaces,
    so the file still reads back the same."""
    text = " ".join("".join(c if c.isprintable() else " " for c in reason).split())
    return Note("", text, label=NEEDS_REVIEW, wrap=True)


def carried_notes(text: str) -> list[Note]:
    """The notes of `text` a rewrite must keep because its data cannot say them again (the
    needs-review reason at the top of the file), read back from their comment lines."""
    start = f"# {NEEDS_REVIEW}: "
    notes: list[Note] = []
    parts: list[str] | None = None
    for line in [*text.splitlines(), ""]:
        if parts is not None and line.startswith(_GOES_ON):
            parts.append(line[len(_GOES_ON) :].strip())
            continue
        if parts is not None:
            notes.append(needs_review_note(" ".join(parts)))
            parts = None
        if line.startswith(start):
            parts = [line[len(start) :].strip()]
    return notes


def weakest(items: list[Justification | None]) -> Justification | None:
    """The weakest of several parts' justifications (None when any part has none)."""
    if not items:
        return None
    return min(items, key=lambda j: RANK[j.kind if j else None])


def strongest(items: list[Justification | None]) -> Justification | None:
    found = [j for j in items if j is not None]
    return max(found, key=lambda j: RANK[j.kind]) if found else None


def annotate_yaml(text: str, judged: Sequence[Judged | Note]) -> str:
    """`text` with a full-line comment above each judged check (the list item it starts)
    and each note.

    Full-line comments (never end-of-line ones) so that a long plain scalar folded over
    several lines stays valid YAML; YAML readers, Rasa's included, skip them, so the data
    read back is the same. Deterministic: the same text and checks give the same bytes."""
    if not judged:
        return text
    root = _composed(text)
    if root is None:
        return text
    starts: dict[int, list[str]] = {}
    for item in judged:
        node = _node_at(root, item.path)
        if node is None:
            continue
        line, column = node.start_mark.line, node.start_mark.column
        indent = " " * max(column - 2, 0)
        comment = "\n".join(f"{indent}# {part}" for part in item.comment().split("\n"))
        starts.setdefault(line, []).append(comment)
    lines = text.split("\n")
    out: list[str] = []
    for index, line in enumerate(lines):
        out.extend(dict.fromkeys(starts.get(index, ())))
        out.append(line)
    return "\n".join(out)


def is_justification(line: str) -> bool:
    """A full-line comment `annotate_yaml` writes (`# enforced: skills/x/skill.md:3 ...`)."""
    return line.lstrip().startswith(_STARTS)


def without_justifications(text: str) -> str:
    """`text` without its justification comment lines, a wrapped note's further lines
    included (every other byte kept)."""
    out: list[str] = []
    wrapped = False
    for line in text.splitlines(keepends=True):
        if wrapped and line.startswith(_GOES_ON):
            continue
        wrapped = line.startswith(f"# {NEEDS_REVIEW}: ")
        if not is_justification(line):
            out.append(line)
    return "".join(out)


def has_justifications(text: str) -> bool:
    return any(is_justification(line) for line in text.splitlines())


def redump(dialect: Any, data: Any, project: Any, before: str) -> str:
    """The text that replaces `before` with `data` (a repair, a revision, a review's
    edit): justified again where `before` carried justification comments, so a rewrite
    keeps each check's reason beside it (the comments follow the changed checks) and the
    needs-review reason at the top, else the dialect's canonical text."""
    if has_justifications(before):
        return str(dialect.dump_justified(data, project, carried_notes(before)))
    return str(dialect.dump(data))


def _composed(text: str) -> Any:
    """The node tree of `text`, None where it is not YAML. libyaml's composer where
    `deferred_loader` offers it (the same nodes and marks as the pure-Python one, which took
    two thirds of writing a justified case), else, or where libyaml refuses the text, the
    pure-Python `CaseLoader`'s, as before."""
    from ._pyyaml import yaml  # start-up: yaml and 1 casegen module
    from .yamlio import CaseLoader, deferred_loader  # start-up: yaml and 5 casegen modules

    fast = deferred_loader(text)
    if fast is not None:
        try:
            return fast.get_single_node()
        except yaml.YAMLError:
            pass  # judged by the pure-Python reader below, as every text was before
        finally:
            fast.dispose()
    try:
        return yaml.compose(text, Loader=CaseLoader)
    except yaml.YAMLError:
        return None


def _node_at(root: Any, pointer: str) -> Any:
    from . import pointer as ptr  # start-up: evalcore.pointer, which --help never needs
    from ._pyyaml import yaml  # start-up: yaml and 1 casegen module

    node = root
    for token in ptr.split(pointer):
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == token), None)
        elif isinstance(node, yaml.SequenceNode) and str(token).isdigit():
            index = int(token)
            node = node.value[index] if index < len(node.value) else None
        else:
            return None
        if node is None:
            return None
    return node


__all__ = [
    "ASSERTABLE",
    "NEEDS_REVIEW",
    "NO_ELEMENT",
    "NO_ELEMENT_CRITERION",
    "RANK",
    "Judged",
    "Justification",
    "Kind",
    "Note",
    "annotate_yaml",
    "carried_notes",
    "has_justifications",
    "is_justification",
    "needs_review_note",
    "redump",
    "strongest",
    "weakest",
    "without_justifications",
]
