"""What a tool's own name and docstring say in English: a name that reads a record rather
than changing one (`get_…`, `find_…`), and a docstring line that names a failure ("Raises
an error when not found")."""

from __future__ import annotations

import re

from .. import phrase

#: A tool name that opens with a reading verb: a lookup, not the step a skill ends on.
LOOKUP_NAME = phrase(
    "en.tool_texts.lookup_name",
    r"^(get|list|lookup|look_up|find|check|verify|search|fetch|read|load)_",
    matches=("get_invoice", "look_up_order"),
    misses=("post_invoice", "target_date"),
)
#: A docstring line that names a failure the tool reports.
ERROR_DOC = phrase(
    "en.tool_texts.error_doc",
    r"\b(error|errors|fail|fails|failure|not\s+found|invalid|raises?)\b",
    re.I,
    matches=("Raises an error when the order is not found.", "None if the lookup fails."),
    misses=("The booking record.", "The balance in pence."),
)
