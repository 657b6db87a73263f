"""The review-rule registry: every quality check is a small function registered under a code.

A rule reads one `CaseView` (one case of one document) and yields `Hit`s; the registry turns
them into `Finding`s carrying the rule's stable code and default severity, so a rule never
spells its own code and `casegen review --json` output is the same shape as `validate`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evalcore import pointer as ptr
from evalcore.findings import Finding, Severity

if TYPE_CHECKING:
    from .._views import CaseView, ReviewEnv

ALL_DIALECTS = ("mantle", "anychat", "base44")


@dataclass(frozen=True)
class Hit:
    """One thing a rule noticed, relative to the case it looked at."""

    path: str
    """JSON Pointer relative to the case (`CaseView.base` is prepended)."""
    message: str
    suggestion: str | None = None
    severity: Severity | None = None
    """None: the rule's default severity."""
    value: Any = None


RuleFunc = Callable[["CaseView", "ReviewEnv"], Iterable[Hit]]


@dataclass(frozen=True)
class ReviewRule:
    code: str
    severity: Severity
    dialects: tuple[str, ...]
    summary: str
    func: RuleFunc

    def check(self, case: CaseView, env: ReviewEnv) -> Iterator[Finding]:
        if case.dialect not in self.dialects:
            return
        for hit in self.func(case, env):
            yield Finding(
                code=self.code,
                severity=hit.severity or self.severity,
                path=case.base + hit.path if hit.path else case.base,
                message=hit.message,
                suggestion=hit.suggestion,
                value=hit.value,
            )


#: Registered rules by code, in registration order (which is also the report order).
RULES: dict[str, ReviewRule] = {}


def review_rule(
    code: str, *, severity: Severity, summary: str, dialects: tuple[str, ...] = ALL_DIALECTS
) -> Callable[[RuleFunc], RuleFunc]:
    """Register a review rule under a stable `code`.

    Args:
        code: The comment code (`vague-criterion`); stable, documented, never reused.
        severity: The default severity of its comments; a `Hit` may override it.
        summary: One line for docs and `--help`.
        dialects: The dialects the rule applies to.

    Example:
        @review_rule("vague-criterion", severity="warning", summary="...")
        def vague(case, env):
            yield Hit("/scenario/goals/criteria/0", "…")
    """
    if code in RULES:
        raise ValueError(f"review rule '{code}' is registered twice")

    def register(func: RuleFunc) -> RuleFunc:
        RULES[code] = ReviewRule(code, severity, dialects, summary, func)
        return func

    return register


def at(*tokens: str | int) -> str:
    """A relative pointer from tokens (`at("scenario", "goals", "criteria", 0)`)."""
    return ptr.join("", *tokens)


__all__ = ["ALL_DIALECTS", "RULES", "Hit", "ReviewRule", "at", "review_rule"]
