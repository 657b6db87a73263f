"""Python source as text: a generated module's constants and first function, the literals a
model writes Python-style into JSON, and the section headings of a docstring (Google and
NumPy style). Python's keywords and conventions, not English."""

from __future__ import annotations

import re

from .. import phrase

#: The dialect a generated check module declares (`DEFINITION = 'mantle'`).
DEFINITION_CONSTANT = phrase(
    "notation.python_source.definition_constant",
    r"^DEFINITION = '(\w+)'",
    re.M,
    matches=("import re\nDEFINITION = 'mantle'\n",),
    misses=('DEFINITION = "mantle"', "    DEFINITION = 'mantle'"),
)
#: The first function a module defines, by name.
FUNCTION_DEF = phrase(
    "notation.python_source.function_def",
    r"^def (\w+)\(",
    re.MULTILINE,
    matches=("import re\n\ndef validate(data):\n",),
    misses=("    def validate(self):", "async def validate(data):", "define(x)"),
)
#: `True`, `False` and `None` as bare words outside strings (a model's Python in JSON).
PYTHON_CONSTANT = phrase(
    "notation.python_source.constant",
    r"(?<![\"\w])(True|False|None)(?![\"\w])",
    matches=('{"ok": True}', '{"x": None, "y": False}'),
    misses=('{"ok": true}', '{"s": "True"}', '{"n": Nonesuch}'),
)
#: A docstring's section heading on a line of its own (`Args:`, `Returns:`, `See Also:`).
DOCSTRING_SECTION = phrase(
    "notation.python_source.docstring_section",
    r"^\s*(Args|Arguments|Parameters|Params|Returns?|Raises|Yields?|Examples?|"
    r"Notes?|Attributes|See Also)\s*:\s*$",
    matches=("    Args:", "Returns :", "  See Also:"),
    misses=("    Args: the order id", "Argument:", "returns:"),
)
#: The start of a docstring's result or error section, with or without text after the colon.
DOCSTRING_RESULT = phrase(
    "notation.python_source.docstring_result",
    r"^(Returns?|Raises)\s*:",
    matches=("Returns: the order", "Raises:", "Return :"),
    misses=("Args:", "  Returns:", "Raised: never"),
)
