"""Input limits: how big, how deep and how alias-expanded a file casegen reads may be.

Case and definition files come from pull requests, so a hostile or broken one must cost a
bounded amount of time and memory and become a `parse` finding for that file alone. The
limits are read from the `[tool.casegen.limits]` table (or `[limits]` of `casegen.toml`) in
the nearest settings file at or above the file being read:

    [tool.casegen.limits]
    max_file_mb = 8          # files larger than this are not read
    max_depth = 100          # nesting of mappings/lists (YAML and JSON)
    max_alias_nodes = 100000 # nodes YAML aliases may add when expanded

The checks work on the composed YAML node graph (not on a loader's internals), so they hold
for PyYAML's pure-Python and libyaml loaders alike.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ._record import dataclass
from ._regularfile import read_regular
from ._valuecache import VALUES, text_key

DEFAULT_MAX_FILE_MB = 8.0
DEFAULT_MAX_DEPTH = 100
DEFAULT_MAX_ALIAS_NODES = 100_000


@dataclass(frozen=True, kw_only=True)
class InputLimits:
    """The limits one file is read under (`from_table` checks a settings table)."""

    max_file_mb: float = DEFAULT_MAX_FILE_MB
    max_depth: int = DEFAULT_MAX_DEPTH
    max_alias_nodes: int = DEFAULT_MAX_ALIAS_NODES

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> InputLimits | None:
        """The limits a `[tool.casegen.limits]` table sets, or None when a key or value is
        not valid: `max_file_mb` > 0, `max_depth` 1 to 10,000, `max_alias_nodes` >= 0.
        Plain TOML numbers are checked here; any other value goes through the pydantic
        model that defines what is valid (`_checked`)."""
        if not table.keys() <= _KEYS.keys():
            return None
        mb, depth, aliases = (table.get(k, d) for k, d in _KEYS.items())
        if (
            type(mb) in (int, float)
            and type(depth) is int
            and type(aliases) is int
            and mb > 0
            and 1 <= depth <= 10_000
            and aliases >= 0
        ):
            return cls(max_file_mb=float(mb), max_depth=depth, max_alias_nodes=aliases)
        return _checked(table)


_KEYS = {
    "max_file_mb": DEFAULT_MAX_FILE_MB,
    "max_depth": DEFAULT_MAX_DEPTH,
    "max_alias_nodes": DEFAULT_MAX_ALIAS_NODES,
}


def _checked(table: dict[str, Any]) -> InputLimits | None:
    """pydantic's lax reading of a table whose values are not plain numbers (`"8"`,
    `true`, `8.0` for a count): what it accepts is used, anything else is None."""
    # start-up: pydantic, hashlib
    from pydantic import BaseModel, ConfigDict, Field, ValidationError

    class _Table(BaseModel):
        model_config = ConfigDict(extra="forbid")

        max_file_mb: float = Field(default=DEFAULT_MAX_FILE_MB, gt=0)
        max_depth: int = Field(default=DEFAULT_MAX_DEPTH, ge=1, le=10_000)
        max_alias_nodes: int = Field(default=DEFAULT_MAX_ALIAS_NODES, ge=0)

    try:
        return InputLimits(**_Table.model_validate(table).model_dump())
    except ValidationError:
        return None


DEFAULT_LIMITS = InputLimits()


class LimitExceeded(ValueError):
    """A file is over one of the limits; the message says which and how to raise it."""


def size_message(size: int, limits: InputLimits) -> str | None:
    """The finding text when `size` bytes is over the file-size limit, else None."""
    if size <= limits.max_file_bytes:
        return None
    return (
        f"file is {_mb(size)}; the limit is {_mb(limits.max_file_bytes)} "
        "(raise `max_file_mb` in [tool.casegen.limits])"
    )


def _mb(size: int) -> str:
    mb = size / (1024 * 1024)
    return f"{mb:.0f} MB" if mb >= 10 or mb == int(mb) else f"{mb:.1f} MB"


def limits_for(path: Path | None) -> InputLimits:
    """The limits for a file at `path`: the nearest settings file's table, else defaults.

    A settings file that cannot be read or holds bad limit values gives the defaults: the
    model settings reader reports such files where they matter, and reading must not fail.
    """
    if path is None:
        return DEFAULT_LIMITS
    try:
        folder = Path(path).resolve().parent
    except (OSError, RuntimeError, ValueError):
        return DEFAULT_LIMITS
    for candidate in (folder, *folder.parents):
        table = _limits_table(candidate)
        if table is None:
            continue
        return InputLimits.from_table(table) or DEFAULT_LIMITS
    return DEFAULT_LIMITS


def _limits_table(folder: Path) -> dict[str, Any] | None:
    """The limits table of the settings file in `folder` ({} when it has none), or None
    when `folder` has no settings file (the search goes on upwards)."""
    try:
        dedicated = folder / "casegen.toml"
        if dedicated.is_file():
            table = _read(dedicated)
        else:
            pyproject = folder / "pyproject.toml"
            if not pyproject.is_file():
                return None
            table = _read(pyproject).get("tool", {}).get("casegen")
            if not isinstance(table, dict):
                return None
    except OSError:
        return None
    limits = table.get("limits", {})
    return limits if isinstance(limits, dict) else {}


_PARSED: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}


def _read(path: Path) -> dict[str, Any]:
    """The parsed settings file, parsed again only when its size or mtime changed (every
    file a command reads asks for its limits; read-only for callers)."""
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = _PARSED.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    try:  # a settings file is small: read under the default limit, a regular file only
        data = read_regular(path, DEFAULT_LIMITS.max_file_bytes, too_big=_too_big_default)
        parsed = _parsed_toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        parsed = {}
    _PARSED[path] = (stamp, parsed)
    return parsed


def _too_big_default(size: int) -> str:
    return str(size_message(size, DEFAULT_LIMITS))


def _parsed_toml(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, `{}` when it is not TOML; kept between processes by its text
    (`evalcore._valuecache.VALUES`), so a command does not import and run the TOML parser
    for the same settings file every time (a file with dates is parsed each time)."""
    key = text_key("toml", sys.version, text)
    parsed = VALUES.get(key)
    if parsed is None:
        import tomllib  # start-up: tomllib

        try:
            parsed = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            parsed = {}
        VALUES.put(key, parsed)
    return parsed


def check_depth(data: Any, limits: InputLimits) -> None:
    """Raise LimitExceeded when parsed JSON-like data nests deeper than the limit.

    Level by level, keeping only the containers of each level: a large data file (a
    manifest of thousands of entries) is mostly leaves, which then cost no loop step."""
    level = [data] if isinstance(data, _CONTAINERS) else []
    depth = 1
    while level:
        if depth > limits.max_depth:
            raise LimitExceeded(depth_message(limits))
        level = [
            child
            for value in level
            for child in (value.values() if isinstance(value, dict) else value)
            if isinstance(child, _CONTAINERS)
        ]
        depth += 1


_CONTAINERS = (dict, list)


_FLOW_CHARS = re.compile(r"[\[\]{}\"'#\n]")


def yaml_flow_too_deep(text: str, limits: InputLimits) -> bool:
    """True when YAML flow brackets (`[`, `{`) nest deeper than the limit.

    Checked on the text before PyYAML sees it: its scanner tracks a possible key per flow
    level and costs depth² (3,000 `[` take seconds, 50,000 a minute). Brackets inside quotes
    or after a `#` on the same line are not counted; a quote state ends at the line end, so
    a stray apostrophe cannot hide deep nesting on later lines.
    """
    if text.count("[") + text.count("{") <= limits.max_depth:
        return False
    depth = 0
    quote = ""
    comment = False
    for match in _FLOW_CHARS.finditer(text):
        char = match.group()
        if char == "\n":
            quote, comment = "", False
        elif comment:
            continue
        elif quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth += 1
            if depth > limits.max_depth:
                return True
        else:
            depth = max(0, depth - 1)
    return False


def depth_message(limits: InputLimits) -> str:
    return (
        f"nested more than {limits.max_depth} levels deep "
        "(raise `max_depth` in [tool.casegen.limits])"
    )


def check_yaml_graph(root: Any, limits: InputLimits) -> None:
    """Check a composed YAML node graph: depth, alias cycles and alias expansion.

    Aliases make the graph a DAG (or, for `&a [*a]`, a cycle). Expanded size and height are
    memoised per node, so the check is linear in the composed graph even for an alias bomb
    whose expansion would be billions of nodes, and it needs no recursion.
    """
    import yaml  # start-up: yaml

    measured: dict[int, tuple[int, int]] = {}  # id -> (expanded size, height)
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node, yaml)
        if done:
            on_path.discard(key)
            sizes = [measured[id(c)] for c in children]
            size = 1 + sum(s for s, _ in sizes)
            height = 1 + max((h for _, h in sizes), default=0)
            if height > limits.max_depth:
                raise LimitExceeded(depth_message(limits))
            measured[key] = (size, height)
            continue
        if key in measured:
            continue
        on_path.add(key)
        if len(on_path) > limits.max_depth:
            raise LimitExceeded(depth_message(limits))
        stack.append((node, True))
        for child in children:
            if id(child) in on_path:
                raise LimitExceeded("recursive alias: a node contains itself")
            if id(child) not in measured:
                stack.append((child, False))
    added = measured[id(root)][0] - len(measured)
    if added > limits.max_alias_nodes:
        raise LimitExceeded(
            f"aliases expand to {added:,} more nodes; the limit is {limits.max_alias_nodes:,} "
            "(raise `max_alias_nodes` in [tool.casegen.limits])"
        )


def _children(node: Any, yaml: Any) -> list[Any]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


__all__ = [
    "DEFAULT_LIMITS",
    "InputLimits",
    "LimitExceeded",
    "check_depth",
    "check_yaml_graph",
    "limits_for",
    "size_message",
]
