"""Which values an agent passes exactly as the user gave them, so a case may assert them.

Mantle's `tool_executed.arguments` and `memory_was_set` values compare by equality (reference
§2.1), so a drafted case asserts a value only where every correct agent records that very
value: a choice, a number, a yes/no, or an id or code the user reads out. Prose (a
description, a date, a label such as "Everyday Debit ending 4821") an agent may reword or
resolve to the record it names. The drafter (`_mantle_path`) and the survivor reasons
(`agentflows.mutate`) share this rule, so what one leaves out the other explains.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ...planning.mantle_offers import SET

#: An id or code a user reads out and an agent passes unchanged (`HM-AU-5520917`, `R-30418`,
#: `CLAIM1234`, a booking reference of capitals and digits mixed such as `QX7LMB`, a bare
#: number of four digits or more such as an Rx number `6120311`). Not a date: an agent may
#: write "03/21/2026" or "yesterday" its own way.
CODE = re.compile(
    r"(?=[^ ]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z]{1,6}\d{3,}|[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
    r"|(?=[A-Z0-9]*[A-Z])(?=[A-Z0-9]*\d)[A-Z0-9]{5,}|\d{4,}"
)


def exact(kind: str | None, value: Any) -> bool:
    """Values an agent passes exactly as the user chose them."""
    if value is SET or isinstance(value, dict | list):
        return False
    if kind in ("categorical", "bool", "int", "float"):
        return True
    return kind == "text" and isinstance(value, str) and bool(CODE.fullmatch(value))


#: Annotation names and the Python values each admits (`float` takes an `int`: `2` is a
#: valid float argument). A name not here (a class of the project's, `Any`) admits anything.
_ADMITS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "list": (list,),
    "List": (list,),
    "Sequence": (list,),
    "tuple": (list,),
    "Tuple": (list,),
    "set": (list,),
    "dict": (dict,),
    "Dict": (dict,),
    "Mapping": (dict,),
    "None": (type(None),),
}

#: Memory field types (memory.yml `type:`) and the values each holds; `categorical` is a
#: choice among `enum_values`, checked apart.
_HOLDS: dict[str, tuple[type, ...]] = {
    "text": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "list": (list,),
    "json": (dict, list),
}


def _admits(node: ast.expr, value: Any) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _admits(node.left, value) or _admits(node.right, value)
    if isinstance(node, ast.Constant):
        if node.value is None:
            return value is None
        return isinstance(node.value, str) and _admits_text(node.value, value)
    if isinstance(node, ast.Subscript):
        head = node.value.attr if isinstance(node.value, ast.Attribute) else None
        head = head or (node.value.id if isinstance(node.value, ast.Name) else "")
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head in ("Optional", "Union"):
            return value is None or any(_admits(n, value) for n in inner)
        if head == "Literal":
            return any(isinstance(n, ast.Constant) and n.value == value for n in inner)
        if head == "Annotated":
            return _admits(inner[0], value)
        return _admits(node.value, value)
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    kinds = _ADMITS.get(str(name))
    if kinds is None:
        return True
    return isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)


def _admits_text(annotation: str, value: Any) -> bool:
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return True
    return _admits(node, value)


def fits(annotation: str | None, value: Any) -> bool:
    """Whether `value` can be what a parameter annotated `annotation` (as written in the
    tool's code, read with `ast`) receives: `True` for a list of item records can never
    equal the list an agent passes, so such an assertion could never match. An unknown or
    missing annotation admits anything."""
    if not annotation or value is SET:
        return True
    return _admits_text(annotation, value)


def holds(kind: str | None, value: Any, choices: list[Any] | None = None) -> bool:
    """Whether a memory field of type `kind` can hold `value` (a JSON field holds an object,
    never the text of one); a categorical field only one of its `choices`."""
    if value is SET or value is None:
        return True
    if kind == "categorical":
        return not choices or value in choices
    kinds = _HOLDS.get(str(kind))
    if kinds is None:
        return True
    return isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)


__all__ = ["CODE", "exact", "fits", "holds"]
