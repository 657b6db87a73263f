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

import operator
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from ..lexicon.notation.mantle_conditions import JOINT as _JOINT
from ..lexicon.notation.mantle_conditions import NUMBER_COMPARISON as _NUMBER_COMPARISON
from ..lexicon.notation.mantle_conditions import SESSION_NAME as _NAME
from ..lexicon.notation.mantle_conditions import compared

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'[^']*'|\"[^\"]*\")|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>==|!=|>=|<=|>|<|\(|\))"
    r"|(?P<name>[A-Za-z_][\w.]*))"
)


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


Compiled = Callable[[Mapping[str, Any]], Any]


class _Compiler:
    """Recursive descent (or > and > not > comparison > atom) into closures over memory:
    a condition is parsed once per text, then only evaluated (planning evaluates the same
    few conditions tens of thousands of times per run). Every operand is evaluated, as it
    always was; the closures only read memory."""

    def __init__(self, tokens: tuple[tuple[str, str], ...]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise _Unparsable("unexpected end")
        self.at += 1
        return token

    def parse(self) -> Compiled:
        value = self.disjunction()
        if self.peek() is not None:
            raise _Unparsable("trailing tokens")
        return value

    def disjunction(self) -> Compiled:
        parts = [self.conjunction()]
        while self.peek() == ("name", "or"):
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else _fold(parts, lambda left, right: left or right)

    def conjunction(self) -> Compiled:
        parts = [self.negation()]
        while self.peek() == ("name", "and"):
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else _fold(parts, lambda left, right: left and right)

    def negation(self) -> Compiled:
        if self.peek() == ("name", "not"):
            self.take()
            inner = self.negation()
            return lambda memory: not inner(memory)
        return self.comparison()

    def comparison(self) -> Compiled:
        left = self.atom()
        token = self.peek()
        if token in (("op", "=="), ("op", "!=")):
            self.take()
            right = self.atom()
            negate = token == ("op", "!=")

            def equal(memory: Mapping[str, Any]) -> bool:
                a, b = left(memory), right(memory)
                same = (a == b and type(a) is type(b)) or (_number(a) and _number(b) and a == b)
                return not same if negate else same

            return equal
        if token in (("op", ">="), ("op", "<="), ("op", ">"), ("op", "<")):
            self.take()
            right = self.atom()
            op = _ORDER[token[1]]

            def order(memory: Mapping[str, Any]) -> bool:
                a, b = left(memory), right(memory)
                if not (_number(a) and _number(b)):
                    return False  # an unknown or non-numeric side compares as false
                return op(a, b)

            return order
        return left

    def atom(self) -> Compiled:
        kind, text = self.take()
        if kind == "op" and text == "(":
            value = self.disjunction()
            if self.take() != ("op", ")"):
                raise _Unparsable("unclosed bracket")
            return value
        if kind == "str":
            return _constant(text[1:-1])
        if kind == "num":
            return _constant(float(text) if "." in text else int(text))
        if kind == "name":
            lowered = text.lower()
            if lowered in ("true", "false"):
                return _constant(lowered == "true")
            if lowered in ("null", "none"):
                return _constant(None)
            key = text.removeprefix("session.")
            return lambda memory: memory.get(key)
        raise _Unparsable(text)


_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


def _fold(parts: list[Compiled], combine: Callable[[Any, Any], Any]) -> Compiled:
    """`a or b or c` / `a and b and c`: every part is evaluated, left to right, as the
    interpreted evaluator did, and the values are combined pairwise."""

    def folded(memory: Mapping[str, Any]) -> Any:
        value = parts[0](memory)
        for part in parts[1:]:
            value = combine(value, part(memory))
        return value

    return folded


def _constant(value: Any) -> Compiled:
    return lambda _memory: value


@lru_cache(maxsize=4096)
def _compiled(text: str) -> Compiled | None:
    """The closure for a condition text; None when it does not parse."""
    try:
        return _Compiler(_tokens(text)).parse()
    except _Unparsable:
        return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def evaluate(condition: str | None, memory: Mapping[str, Any]) -> bool:
    """Truth of `condition` over `memory` (qualified names); None is True (no condition)."""
    if condition is None or not str(condition).strip():
        return True
    compiled = _compiled(str(condition))
    return False if compiled is None else bool(compiled(memory))


def conjuncts(condition: str) -> list[str]:
    """The parts of a condition joined by a top-level `and` (none when a top-level `or`
    joins them), each without its wrapping parentheses."""
    parts, depth, start, text = [], 0, 0, condition.strip()
    for match in _JOINT.finditer(text):
        token = match.group(0)
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth == 0 and match.group(1) == "or":
            return []
        elif depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    out = []
    for part in (p.strip() for p in parts):
        while part.startswith("(") and part.endswith(")") and not _closes_unopened(part[1:-1]):
            part = part[1:-1].strip()
        out.append(part)
    return out if len(out) > 1 else []


def _closes_unopened(inner: str) -> bool:
    """True when `inner` closes a parenthesis it never opened (`a) and (b`)."""
    depth = 0
    for char in inner:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return True
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
    text = str(condition)
    if f"session.{key}" not in text:  # the pattern spells it: it cannot match
        return []
    out = []
    for match in _compared_pattern(key).finditer(text):
        literal = match.group(1)
        out.append(literal[1:-1] if literal[0] in "'\"" else literal)
    return out


#: Every operator a condition compares with, as the evaluator applies it to numbers.
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    **_ORDER,
    "==": operator.eq,
    "!=": operator.ne,
}


def compared_numbers(condition: str | None) -> list[tuple[str, str, float]]:
    """The (key, operator, number) comparisons of a condition with number literals
    (`session.x.rooms > 6` gives `("x.rooms", ">", 6.0)`), in order."""
    if not condition:
        return []
    return [
        (m["key"], m["op"], float(m["number"])) for m in _NUMBER_COMPARISON.finditer(str(condition))
    ]


@lru_cache(maxsize=4096)
def _compared_pattern(key: str) -> re.Pattern[str]:
    """Compiled once per key: a many-skill project has more keys than `re` caches."""
    return compared(key)


__all__ = [
    "COMPARE",
    "compared_numbers",
    "compared_values",
    "condition_keys",
    "conjuncts",
    "evaluate",
]
