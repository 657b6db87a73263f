"""Model names whose chat requests the OpenAI chat client rewrites on its way out (the o
series' system role sent as `developer`, gpt-5's temperature set or dropped): a request
built without the client is not the client's for them. Model naming, not English."""

from __future__ import annotations

import re

from .. import phrase

#: A model name of a family the chat client rewrites requests for.
CLIENT_REWRITES = phrase(
    "notation.early_model_names.client_rewrites",
    r"^(o\d|gpt-5)",
    re.IGNORECASE,
    matches=("o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "GPT-5-mini"),
    misses=("gpt-4.1-mini", "gpt-4o", "stub-model", "llama-3.1-8b", "qwen2.5-coder"),
)
