"""The one writer for all dialects: canonical text, deterministic names, safe writes."""

from ._canonical import canonical_text, order_keys
from ._files import WriteError, WriteResult, atomic_write_text, write_case_file
from ._naming import anychat_case_key, mantle_case_filename, slugify
from ._paths import PathEscapeError, contained, contained_child, safe_slug

__all__ = [
    "PathEscapeError",
    "WriteError",
    "WriteResult",
    "anychat_case_key",
    "atomic_write_text",
    "canonical_text",
    "contained",
    "contained_child",
    "mantle_case_filename",
    "order_keys",
    "safe_slug",
    "slugify",
    "write_case_file",
]
