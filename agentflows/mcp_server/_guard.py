"""What an MCP client may make the server do: paths inside its root, code only when allowed.

The client is a model acting on text it read somewhere, so every argument is treated as
untrusted: a path must stay inside the server's root (its working folder, or `--root`), and
a target that runs local code (`python:`, `command:`) needs `casegen mcp --allow-exec`.
Arguments no filesystem accepts (a NUL byte, a name longer than the system allows) and input
nested past Python's recursion limit come back as clear tool errors, not internal errors.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from evalcore.errors import UserError

#: Target schemes that import or start code on the server's machine.
EXEC_SCHEMES = ("python", "command")
#: Target schemes whose value is a folder on the server's machine (`mantle:DIR`, the reference
#: agent of a project folder), which must lie inside the served root.
FOLDER_SCHEMES = ("mantle",)


class Confinement:
    """The server's root and whether it may run local code."""

    def __init__(self, root: Path | None = None, *, allow_exec: bool = False) -> None:
        self.root = (root or Path.cwd()).resolve()
        self.allow_exec = allow_exec

    def path(self, value: str, what: str = "path") -> Path:
        """`value` as a path inside the root (relative paths are taken from the root).

        Raises:
            UserError: a NUL byte, an over-long name, or a path that leads out of the root.
        """
        if "\0" in value:
            raise UserError(f"{what} {value!r} contains a NUL byte", hint="give a plain path")
        candidate = Path(value)
        if any(len(part.encode()) > 255 for part in candidate.parts) or len(value) > 4096:
            raise UserError(
                f"{what} is too long for the filesystem ({len(value)} characters)",
                hint="give a shorter path inside the server's folder",
            )
        full = candidate if candidate.is_absolute() else self.root / candidate
        try:
            resolved = full.resolve()
        except (OSError, RuntimeError) as exc:
            raise UserError(f"{what} {value!r} cannot be resolved: {exc}") from None
        if not resolved.is_relative_to(self.root):
            raise UserError(
                f"{what} {value!r} is outside the server's folder {self.root}",
                hint="paths must stay inside the folder the server serves (casegen mcp --root)",
            )
        if candidate.is_absolute() or self.root == Path.cwd().resolve():
            return candidate
        return full

    def optional(self, value: str | None, what: str) -> Path | None:
        return None if value is None else self.path(value, what)

    def paths(self, values: list[str] | str, what: str = "path") -> list[Path]:
        return [self.path(v, what) for v in ([values] if isinstance(values, str) else values)]

    def target(self, spec: str) -> str:
        """`spec`, unless it runs local code and the server may not, or is a `mantle:DIR`
        (the reference agent of a project folder) whose folder lies outside the root."""
        scheme, _, rest = spec.strip().partition(":")
        scheme = scheme.lower()
        if scheme in FOLDER_SCHEMES:
            self.path(rest.partition("?")[0] or ".", "target")
        if scheme in EXEC_SCHEMES and not self.allow_exec:
            raise UserError(
                f"`{scheme}:` targets run code on this machine, and this server was started "
                "without --allow-exec",
                hint="use an http:, rasa: or demo: target, or restart the server with "
                "`casegen mcp --allow-exec` if you trust every client and case it serves",
            )
        return spec


def describe_failure(exc: BaseException) -> tuple[str, str] | None:
    """(message, hint) for failures caused by the arguments rather than by a bug; else None."""
    if isinstance(exc, RecursionError):
        return (
            "the input is nested too deeply to process",
            "flatten the document or the arguments",
        )
    if isinstance(exc, ValueError) and "null byte" in str(exc):
        return "a path contains a NUL byte", "give plain paths"
    if isinstance(exc, OSError) and exc.errno in (errno.ENAMETOOLONG, errno.ELOOP, errno.EACCES):
        name = f" ({str(exc.filename)[:80]})" if exc.filename else ""
        return f"{os.strerror(exc.errno)}{name}", "give a path inside the server's folder"
    return None


__all__ = ["EXEC_SCHEMES", "FOLDER_SCHEMES", "Confinement", "describe_failure"]
