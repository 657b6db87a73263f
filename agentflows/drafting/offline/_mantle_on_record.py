"""An id the user gives that the case's records say they do not have.

A bag whose row in the project's bag file says `"report": null` has no report reference: a
case that gives the passenger one drawn to the field's shape (`LISSK05743`) invents a report
the data contradicts, and a correct agent that looks the bag up finds none. Where the case
only mentions such an id in passing (a field no question of its path asks), it is no fact of
the case; where the path asks for it (changing the delivery address of a report), no record
of the caller fits the branch, and the case says so (`FactSheet.misfits`: needs review)
instead of passing an invented id off as the caller's. So too an id of a kind no data file
holds at all (`note_unheld`).
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MemoryField
from evalcore.testdata import FieldSpec, SheetBuilder, names_an_id

from ._direction import value_words


def lacked_on_record(field: MemoryField, sheet: SheetBuilder) -> str | None:
    """Where the case's records say the caller has none of the id `field` names (`bag_tags
    (report: none)`), else None."""
    if field.type != "text" or not names_an_id(field.name):
        return None
    said = sheet.recorded(FieldSpec(field.name, field.type, field.description or ""))
    return said.where if said is not None and not said.held else None


def note_invented(field: MemoryField, sheet: SheetBuilder, value: Any) -> None:
    """Note in the case's misfits an id the path asks for that the records say the caller
    lacks (see module doc)."""
    where = lacked_on_record(field, sheet) if value is not None else None
    if where is None:
        return
    sheet.sheet.misfits.append(
        f"no-fitting-record: no record of the caller holds a {value_words(field.name)} "
        f"({where}); the case's {value} is invented"
    )


def note_unheld(field: MemoryField, sheet: SheetBuilder, value: Any) -> bool:
    """Note in the case's misfits an id the user gives of a kind no data file of the
    project holds (an order number where the data hold patients and prescriptions, and
    only the fulfilment service knows orders): the value is drawn to the field's shape, so
    the case says it is invented (needs review) rather than pass it off as a real order
    the service will find. True where it noted one."""
    records = sheet.records
    if value is None or field.type != "text" or not names_an_id(field.name):
        return False
    if not records.collections or records.defines(str(value)):
        return False
    if any(field.name in r for c in records.collections for r in c.records):
        return False
    thing = value_words(field.name)
    article = "an" if thing[:1] in "aeiou" else "a"
    sheet.sheet.misfits.append(
        f"no-fitting-record: no data file of the project holds {article} {thing}; "
        f"the case's {value} is invented, and the service that looks it up may not know it"
    )
    return True


__all__ = ["lacked_on_record", "note_invented", "note_unheld"]
