"""Mantle conditions (`requires`, `next` branches, `if:` lines, `complete_when`) evaluated over
known memory: the planner uses them to tell which values route differently and which steps a
behaviour reaches, the demo agent to take the branches a real runtime would.

The grammar is the small one Mantle uses: `session.<ns>.<key>` names (truthiness), literals
(`'x'`, `"x"`, numbers, `true`/`false`/`null`), `==`, `!=`, `>=`, `<=`, `>`, `<` (numbers
only; anything else compares false), `not`, `and`, `or` and brackets.
Names are looked up without the `session.` prefix (`card_replace.replacement_reason`); an
unknown name is `None`, so it is falsy and equal to nothing. A condition that does not parse
evaluates to False (and `condition_keys` still lists the names it mentions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'[^']*'|\"[^\"]*\")|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>==|!=|>=|<=|>|<|\(|\))"
    r"|(?P<name>[A-Za-z_][\w.]*))"
)
_NAME = re.compile(r"(?<![\w.'\"])session\.([A-Za-z_]\w*\.[A-Za-z_]\w*)")


class _Unparsable(ValueError):
    pass


@lru_cache(maxsize=512)
def _tokens(text: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise _Unparsable(text)
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        position = match.end()
    return tuple(out)


class _Parser:
    """Recursive descent: or > and > not > comparison > atom."""

    def __init__(self, tokens: tuple[tuple[str, str], ...], memory: Mapping[str, Any]) -> None:
        self.tokens = tokens
        self.memory = memory
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise _Unparsable("unexpected end")
        self.at += 1
        return token

    def parse(self) -> Any:
        value = self.disjunction()
        if self.peek() is not None:
            raise _Unparsable("trailing tokens")
        return value

    def disjunction(self) -> Any:
        value = self.conjunction()
        while self.peek() == ("name", "or"):
            self.take()
            right = self.conjunction()
            value = value or right
        return value

    def conjunction(self) -> Any:
        value = self.negation()
        while self.peek() == ("name", "and"):
            self.take()
            right = self.negation()
            value = value and right
        return value

    def negation(self) -> Any:
        if self.peek() == ("name", "not"):
            self.take()
            return not self.negation()
        return self.comparison()

    def comparison(self) -> Any:
        left = self.atom()
        token = self.peek()
        if token in (("op", "=="), ("op", "!=")):
            self.take()
            right = self.atom()
            equal = (left == right and type(left) is type(right)) or (
                _number(left) and _number(right) and left == right
            )
            return equal if token == ("op", "==") else not equal
        if token in (("op", ">="), ("op", "<="), ("op", ">"), ("op", "<")):
            self.take()
            right = self.atom()
            if not (_number(left) and _number(right)):
                return False  # an unknown or non-numeric side compares as false
            op = token[1]
            return {
                ">=": left >= right,
                "<=": left <= right,
                ">": left > right,
                "<": left < right,
            }[op]
        return left

    def atom(self) -> Any:
        kind, text = self.take()
        if kind == "op" and text == "(":
            value = self.disjunction()
            if self.take() != ("op", ")"):
                raise _Unparsable("unclosed bracket")
            return value
        if kind == "str":
            return text[1:-1]
        if kind == "num":
            return float(text) if "." in text else int(text)
        if kind == "name":
            lowered = text.lower()
            if lowered in ("true", "false"):
                return lowered == "true"
            if lowered in ("null", "none"):
                return None
            return self.memory.get(text.removeprefix("session."))
        raise _Unparsable(text)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def evaluate(condition: str | None, memory: Mapping[str, Any]) -> bool:
    """Truth of `condition` over `memory` (qualified names); None is True (no condition)."""
    if condition is None or not str(condition).strip():
        return True
    try:
        return bool(_Parser(_tokens(str(condition)), memory).parse())
    except _Unparsable:
        return False


def condition_keys(condition: str | None) -> list[str]:
    """Qualified memory names a condition mentions, in order (`card_replace.reason`)."""
    if not condition:
        return []
    return list(dict.fromkeys(m.group(1) for m in _NAME.finditer(str(condition))))


def compared_values(condition: str | None, key: str) -> list[Any]:
    """Literals the condition compares `key` with (`== 'stolen'` gives `stolen`)."""
    if not condition:
        return []
    pattern = re.compile(
        rf"session\.{re.escape(key)}\s*(?:==|!=)\s*('[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?|true|false)"
    )
    out = []
    for match in pattern.finditer(str(condition)):
        literal = match.group(1)
        out.append(literal[1:-1] if literal[0] in "'\"" else literal)
    return out


__all__ = ["compared_values", "condition_keys", "evaluate"]
