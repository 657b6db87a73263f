"""Markdown code fences around a text: a model's JSON answer wrapped in ```json … ```."""

from __future__ import annotations

import re

from .. import phrase

#: A whole text that is one fenced block (language `json` or none), the body as group 1;
#: used with `fullmatch`.
FENCED_JSON = phrase(
    "notation.markdown_fences.fenced_json",
    r"\s*```(?:json)?\s*\n(.*?)\n\s*```\s*",
    re.S,
    matches=('```json\n{"a": 1}\n```', '  ```\n{"a": 1}\n```\n'),
    misses=('{"a": 1}', '```json {"a": 1}```'),
)
