"""Deterministic, readable file names for cases."""

from __future__ import annotations

import re
import unicodedata

from ..lexicon.en.stop_words import FILE_NAME as _STOP

_SLUG = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def slugify(text: str, *, sep: str = "_", max_words: int = 6, max_len: int = 60) -> str:
    """`"Customer replaces a damaged card"` -> `customer_replaces_damaged_card`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = [w for w in re.split(r"[^a-zA-Z0-9]+", ascii_text.lower()) if w]
    kept = [w for w in words if w not in _STOP] or words
    slug = sep.join(kept[:max_words])[:max_len].strip(sep)
    return slug or "case"


def mantle_case_filename(source: str, case: str, case_type: str | None) -> str:
    """`<source>_<case>_<type>.yml` (Rasa's convention), without repeating the source."""
    # A case that is already a slug (`out_of_scope`) is kept whole: slugify would drop its
    # stop words.
    case_slug = case if _SLUG.fullmatch(case) else slugify(case)
    if case_slug.startswith(source + "_"):
        case_slug = case_slug[len(source) + 1 :]
    parts = [source, case_slug]
    if case_type and not case_slug.endswith(case_type):
        parts.append(case_type)
    return "_".join(p for p in parts if p) + ".yml"


def anychat_case_key(source: str, case: str, case_type: str | None) -> str:
    """A key valid for Anychat's `key` pattern: `^[a-z0-9][a-z0-9-]{0,118}$`."""
    parts = [slugify(source, sep="-"), slugify(case, sep="-")]
    if case_type:
        parts.append(case_type.replace("_", "-"))
    key = "-".join(p for p in parts if p)[:119].strip("-")
    return key or "case"
