"""JSON Pointers (RFC 6901): how every finding and repair names a place inside a document."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def escape(token: str | int) -> str:
    text = str(token)
    if "~" in text or "/" in text:  # most tokens are plain: skip the two replaces
        return text.replace("~", "~0").replace("/", "~1")
    return text


def key_token(key: Any) -> str:
    """`escape(str(key))`, without the two replaces for the usual plain key (the YAML
    readers name every mapping key this way)."""
    text = str(key)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: str | int) -> str:
    """`join("/a", "b", 0)` -> "/a/b/0"."""
    for token in tokens:  # a loop, not a generator: lint joins a pointer per assertion
        pointer = pointer + "/" + escape(token)
    return pointer


def from_parts(parts: Iterable[str | int]) -> str:
    return join("", *parts)


def split(pointer: str) -> list[str]:
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape(t) for t in pointer[1:].split("/")]


def parent(pointer: str) -> str:
    return pointer.rsplit("/", 1)[0] if pointer else ""


def resolve(document: Any, pointer: str) -> Any:
    """The value at `pointer`; raises KeyError/IndexError when it does not exist."""
    node = document
    for token in split(pointer):
        if isinstance(node, list):
            node = node[int(token)]
        elif isinstance(node, dict):
            node = node[token]
        else:
            raise KeyError(pointer)
    return node


def exists(document: Any, pointer: str) -> bool:
    try:
        resolve(document, pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return False
    return True


def replace(document: Any, pointer: str, value: Any) -> None:
    """Set the value at an existing (or new mapping-key) `pointer` in place."""
    *head, last = split(pointer)
    node = resolve(document, from_parts(head))
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def remove(document: Any, pointer: str) -> None:
    *head, last = split(pointer)
    node = resolve(document, from_parts(head))
    if isinstance(node, list):
        del node[int(last)]
    else:
        del node[last]
