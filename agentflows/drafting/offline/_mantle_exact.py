"""Which values an agent passes exactly as the user gave them, so a case may assert them.

Mantle's `tool_executed.arguments` and `memory_was_set` values compare by equality (reference
§2.1), so a drafted case asserts a value only where every correct agent records that very
value: a choice, a number, a yes/no, or an id or code the user reads out. Prose (a
description, a date, a label such as "Everyday Debit ending 4821") an agent may reword or
resolve to the record it names. The drafter (`_mantle_path`) and the survivor reasons
(`agentflows.mutate`) share this rule, so what one leaves out the other explains.
"""

from __future__ import annotations

import re
from typing import Any

from ...planning._mantle_walk import SET

#: An id or code a user reads out and an agent passes unchanged (`HM-AU-5520917`, `R-30418`,
#: `CLAIM1234`, a bare number of four digits or more such as an Rx number `6120311`). Not a
#: date: an agent may write "03/21/2026" or "yesterday" its own way.
CODE = re.compile(
    r"(?=[^ ]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z]{1,6}\d{3,}|[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
    r"|\d{4,}"
)


def exact(kind: str | None, value: Any) -> bool:
    """Values an agent passes exactly as the user chose them."""
    if value is SET or isinstance(value, dict | list):
        return False
    if kind in ("categorical", "bool", "int", "float"):
        return True
    return kind == "text" and isinstance(value, str) and bool(CODE.fullmatch(value))


__all__ = ["CODE", "exact"]
