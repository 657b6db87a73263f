"""A concrete value for a list field the user answers ("which scopes they need").

A list field has no single value the test data draws, so a case used to leave it open:
the user had nothing to say, and a call that takes the list was asserted with a value
nobody gave. Where the field's description lists the items it may hold ("Requested
scopes, any of logs:read, db:read, db:write, k8s:exec."), the user asks for the first one;
where it lists none and the field names everyday things ("medications"), the user names
one the project's data does not already hold (`evalcore.testdata.everyday_item`), unless a
flag of the field's skill is set on the case's path (a Schedule II medicine among them),
which no everyday item fits.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField
from evalcore.testdata import SheetBuilder, case_rng, everyday_item

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


def list_value(
    defs: MantleDefinitions,
    field: MemoryField,
    sheet: SheetBuilder | None = None,
    fixed: dict[str, Any] | None = None,
) -> list[Any] | None:
    """One listed item, as a list, for a list field, else one everyday thing it names (see
    module doc; with `sheet`); None where neither fits."""
    if field.type != "list":
        return None
    items = listed_items(field.description or "")
    if items:
        return [items[0]]
    if sheet is None or _flagged(defs, field, fixed or {}):
        return None
    item = everyday_item(field.name, sheet.records, case_rng(sheet.key, field.qualified))
    return [item] if item is not None else None


def _flagged(defs: MantleDefinitions, field: MemoryField, fixed: dict[str, Any]) -> bool:
    """Whether the case sets a yes/no field of `field`'s skill true (`includes_controlled`)."""
    fields = defs.memory_names()
    return any(
        value is True
        and key.split(".")[0] == field.namespace
        and key in fields
        and fields[key].type == "bool"
        for key, value in fixed.items()
    )


__all__ = ["list_value", "listed_items"]
