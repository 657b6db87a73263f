"""A concrete value for a list field the user answers ("which scopes they need").

A list field has no single value the test data draws, so a case used to leave it open:
the user had nothing to say, and a call that takes the list was asserted with a value
nobody gave. Where the field's description lists the items it may hold ("Requested
scopes, any of logs:read, db:read, db:write, k8s:exec."), the user asks for the first one.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField

#: Quotes and punctuation around a listed item.
_AROUND = " `'\".;:()"


def listed_items(text: str) -> list[str]:
    """The items of the first run of two or more one-word items `text` separates with
    commas ("any of logs:read, db:read, db:write or k8s:exec"); the run's first item is
    the last word before its first comma."""
    for sentence in (text or "").replace("!", ".").replace("?", ".").split(". "):
        said = f" {sentence} ".replace(" or ", ", ").replace(" and ", ", ")
        parts = [p.strip() for p in said.split(",")]
        for start in range(1, len(parts)):
            run = []
            for part in parts[start:]:
                if not part or " " in part:
                    break
                run.append(part.strip(_AROUND))
            lead = parts[start - 1].split()
            if len(run) >= 2 and lead:
                return [lead[-1].strip(_AROUND), *run]
    return []


def list_value(defs: MantleDefinitions, field: MemoryField) -> list[Any] | None:
    """One listed item, as a list, for a list field; None where its description lists none."""
    if field.type != "list":
        return None
    items = listed_items(field.description or "")
    return [items[0]] if items else None


__all__ = ["list_value", "listed_items"]
