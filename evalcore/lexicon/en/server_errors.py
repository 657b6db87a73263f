"""How a model server's error body says that the request's output format, not the server,
is at fault (`evalcore.llm._methods`): the words of the structured-output method it
refuses. Matched case-insensitively on the status error's message; a body that names none
(a rate limit, an overload) is a transient failure, not the endpoint's answer."""

from __future__ import annotations

import re

from .. import phrase

JSON_SCHEMA_REFUSED = phrase(
    "en.server_errors.json_schema",
    r"response_format|json_schema|json schema|schema|grammar",
    re.I,
    matches=("Invalid value for response_format", "json_schema is not supported"),
    misses=("Rate limit exceeded, retry later", "Internal server error"),
)
TOOLS_REFUSED = phrase(
    "en.server_errors.tools",
    r"tool|function|grammar|schema",
    re.I,
    matches=("This model does not support tools", "Function calling is unavailable"),
    misses=("Rate limit exceeded, retry later", "Internal server error"),
)
JSON_OBJECT_REFUSED = phrase(
    "en.server_errors.json_object",
    r"response_format|json_object|grammar|schema",
    re.I,
    matches=("json_object is not supported here", "Failed to build the GRAMMAR"),
    misses=("Rate limit exceeded, retry later", "Unknown tool: lookup"),
)
