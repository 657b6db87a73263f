"""SHA-256 without loading OpenSSL: `hashlib` imports `_hashlib` (libcrypto, about 5 ms of a
light command's start-up) to offer every algorithm, where casegen's start-up path only
hashes file contents with SHA-256. CPython's own implementation gives the same digest."""

from __future__ import annotations

try:
    from _sha256 import sha256  # CPython 3.11
except ImportError:  # pragma: no cover - 3.12 renamed it; other interpreters: hashlib's
    try:
        from _sha2 import sha256  # type: ignore[no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[no-redef]

__all__ = ["sha256"]
