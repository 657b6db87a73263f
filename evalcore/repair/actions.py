"""The repair rule contract: a rule (`RepairRule`, what a dialect's `repair_rules` gives) and
the one recorded, reversible-to-read change it makes to a document (`RepairAction`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .. import pointer as ptr

if TYPE_CHECKING:
    from ..definitions import Project
    from ..findings import Finding


@dataclass(frozen=True)
class RepairAction:
    """`{code, path, before, after, reason}` as `casegen repair --json` prints it.

    `op` says how to apply it: replace the value at `path`, rename the mapping key that `path`
    ends in (to `after`), or remove the key at `path`.
    """

    code: str
    path: str
    before: Any
    after: Any
    reason: str
    op: Literal["replace", "rename", "remove"] = "replace"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("op")
        return data

    def applies_to(self, data: Any) -> bool:
        """True when the document still holds `before` where the action expects it."""
        if not ptr.exists(data, self.path):
            return False
        if self.op == "rename":
            parent = ptr.resolve(data, ptr.parent(self.path))
            return isinstance(parent, dict) and self.after not in parent
        if self.op == "remove":
            return True
        return ptr.resolve(data, self.path) == self.before

    def apply(self, data: Any) -> None:
        if self.op == "replace":
            ptr.replace(data, self.path, self.after)
        elif self.op == "remove":
            ptr.remove(data, self.path)
        else:
            parent_path = ptr.parent(self.path)
            old_key = ptr.split(self.path)[-1]
            parent = ptr.resolve(data, parent_path)
            renamed = {(self.after if k == old_key else k): v for k, v in parent.items()}
            parent.clear()
            parent.update(renamed)


class RepairRule(Protocol):
    """Proposes a fix for one finding, or None. Must never invent content."""

    def __call__(
        self, data: Any, finding: Finding, project: Project | None, /
    ) -> RepairAction | None: ...
