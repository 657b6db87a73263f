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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["enforced", "instructed", "conditional"]
#: What a comment says where no element is found (a criterion, an assertion).
NO_ELEMENT_CRITERION = "no definition element found (judged by its text)"
NO_ELEMENT = "unjustified: no definition element found"
#: How every justification comment line starts (after its indentation).
_STARTS = (
    *(f"# {kind}: " for kind in ("enforced", "instructed", "conditional")),
    f"# {NO_ELEMENT_CRITERION}",
    f"# {NO_ELEMENT}",
    "# test data: ",
    "# outside service: ",
)
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
    """What the remark is about: `test data`, or `outside service` (running the case acts
    on a real service where its credentials are set)."""

    def comment(self) -> str:
        return f"{self.label}: {self.text}"


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
    from ._pyyaml import yaml
    from .yamlio import CaseLoader

    try:
        root = yaml.compose(text, Loader=CaseLoader)
    except yaml.YAMLError:
        return text
    starts: dict[int, list[str]] = {}
    for item in judged:
        node = _node_at(root, item.path)
        if node is None:
            continue
        line, column = node.start_mark.line, node.start_mark.column
        starts.setdefault(line, []).append(" " * max(column - 2, 0) + "# " + item.comment())
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
    """`text` without its justification comment lines (every other byte kept)."""
    return "".join(line for line in text.splitlines(keepends=True) if not is_justification(line))


def has_justifications(text: str) -> bool:
    return any(is_justification(line) for line in text.splitlines())


def redump(dialect: Any, data: Any, project: Any, before: str) -> str:
    """The text that replaces `before` with `data` (a repair, a revision, a review's
    edit): justified again where `before` carried justification comments, so a rewrite
    keeps each check's reason beside it (the comments follow the changed checks), else the
    dialect's canonical text."""
    if has_justifications(before):
        return str(dialect.dump_justified(data, project))
    return str(dialect.dump(data))


def _node_at(root: Any, pointer: str) -> Any:
    from . import pointer as ptr
    from ._pyyaml import yaml

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
    "NO_ELEMENT",
    "NO_ELEMENT_CRITERION",
    "RANK",
    "Judged",
    "Justification",
    "Kind",
    "Note",
    "annotate_yaml",
    "has_justifications",
    "is_justification",
    "redump",
    "strongest",
    "weakest",
    "without_justifications",
]
