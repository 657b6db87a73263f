"""JavaScript's own syntax for a variable a piece of code declares (`const room = ...`), so a
check written from a skill's code can tell the code's own names from an API's."""

from __future__ import annotations

from .. import phrase

#: A `const`/`let`/`var` declaration, the declared name as group 1.
DECLARED_NAME = phrase(
    "notation.js_declarations.declared_name",
    r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=",
    matches=("const room = base44.actors.Room(id)", "let n = 1", "var $x=2"),
    misses=("constant = 1", "const { a } = b", "room.subscribe(cb)"),
)
