"""Keyword arguments whose value a library takes when the call leaves them out, as a skill's
code writes them (`launch(headless=True)`; a bare `launch()` is headless too). Library
notation, not English: a check of such a setting accepts the call without it."""

from __future__ import annotations

#: (method name, keyword) → (the default value as code writes it, the opposite value).
KEYWORD_DEFAULTS: dict[tuple[str, str], tuple[str, str]] = {
    # Playwright's BrowserType.launch(): headless unless told otherwise.
    ("launch", "headless"): ("True", "False"),
}
