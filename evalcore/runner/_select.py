"""Choosing which cases a `casegen run` plays, the way pytest's `-k` and `--last-failed` do.

    keep = keyword_matcher("card_replace and not refused")
    cases = [c for c in cases if keep(c)]
    failed = last_failed(Path("eval/results"))   # LastFailed(folder, slugs) or None

`-k` words match, case-insensitively, as substrings of a case's name, slug (file stem) or
path; `not`, `and`, `or` and parentheses combine them (`not` binds tightest, then `and`).
`--last-failed` reads the newest results folder under the results root and picks the cases
whose runs failed or errored there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..documents import UnreadableFile, read_json
from ..errors import UserError
from ..runcase import RunCase

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")
_OPERATORS = {"and", "or", "not"}

Matcher = Callable[[RunCase], bool]


def _haystack(case: RunCase) -> str:
    return f"{case.name}\n{case.slug}\n{Path(case.path).as_posix()}".casefold()


class _Parser:
    """Recursive descent over `or` > `and` > `not` > word | ( expression )."""

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.tokens = [m.group(1) for m in _TOKEN.finditer(expression)]
        self.pos = 0

    def fail(self, what: str) -> UserError:
        return UserError(
            f"-k {self.expression!r}: {what}",
            hint="words match case names, slugs and paths; combine them with not, and, or "
            "and parentheses, e.g. -k 'card_replace and not refused'",
        )

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise self.fail("the expression ends too early")
        self.pos += 1
        return token

    def parse(self) -> Matcher:
        if not self.tokens:
            raise self.fail("empty expression")
        matcher = self.any_of()
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek()!r}")
        return matcher

    def any_of(self) -> Matcher:
        parts = [self.all_of()]
        while self.peek() == "or":
            self.take()
            parts.append(self.all_of())
        return parts[0] if len(parts) == 1 else (lambda c: any(p(c) for p in parts))

    def all_of(self) -> Matcher:
        parts = [self.negation()]
        while self.peek() == "and":
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else (lambda c: all(p(c) for p in parts))

    def negation(self) -> Matcher:
        if self.peek() == "not":
            self.take()
            inner = self.negation()
            return lambda c: not inner(c)
        return self.atom()

    def atom(self) -> Matcher:
        token = self.take()
        if token == "(":
            inner = self.any_of()
            if self.take() != ")":
                raise self.fail("a '(' is not closed")
            return inner
        if token == ")" or token in _OPERATORS:
            raise self.fail(f"expected a word, got {token!r}")
        word = token.casefold()
        return lambda c: word in _haystack(c)


def keyword_matcher(expression: str) -> Matcher:
    """A predicate for `-k EXPRESSION` (UserError, exit 2, when it does not parse)."""
    return _Parser(expression).parse()


@dataclass(frozen=True)
class LastFailed:
    """The cases that failed or errored in the newest results folder."""

    folder: Path
    slugs: frozenset[str]


def latest_results(root: Path) -> Path | None:
    """The newest `<root>/<timestamp>/` that holds run files (timestamps sort by name)."""
    if not root.is_dir():
        return None
    folders = sorted(
        (p for p in root.iterdir() if p.is_dir() and any(p.glob("*/run_*.json"))),
        key=lambda p: p.name,
    )
    return folders[-1] if folders else None


def _newest_runs(folder: Path) -> list[Path]:
    """Each case's newest run file: a folder one second's commands share holds `run_1`,
    `run_2`…, and only the last says whether the case fails now."""
    newest: dict[Path, tuple[int, Path]] = {}
    for file in folder.glob("*/run_*.json"):
        digits = file.stem.removeprefix("run_")
        number = int(digits) if digits.isdigit() else 0
        if file.parent not in newest or number > newest[file.parent][0]:
            newest[file.parent] = (number, file)
    return [file for _, file in newest.values()]


def last_failed(root: Path) -> LastFailed | None:
    """The failed and errored cases of the newest results folder under `root`; None when
    there is no earlier results folder."""
    folder = latest_results(root)
    if folder is None:
        return None
    slugs: set[str] = set()
    for file in _newest_runs(folder):
        try:
            data = read_json(file)
        except UnreadableFile:
            continue
        if not isinstance(data, dict):
            continue
        status = data.get("status")
        bad = status in ("failed", "errored") or (
            status is None and data.get("eval_passed") is False
        )
        if bad:
            slugs.add(str(data.get("scenario_slug") or file.parent.name))
    return LastFailed(folder, frozenset(slugs))


def select_cases(
    cases: Sequence[RunCase],
    *,
    keyword: str | None = None,
    only_slugs: frozenset[str] | None = None,
) -> list[RunCase]:
    """The cases `-k` and `--last-failed` keep, in their order."""
    keep = keyword_matcher(keyword) if keyword else None
    return [
        c
        for c in cases
        if (keep is None or keep(c)) and (only_slugs is None or c.slug in only_slugs)
    ]


__all__ = ["LastFailed", "keyword_matcher", "last_failed", "latest_results", "select_cases"]
