"""The review-rule registry: every quality check is a small function registered under a code.

A rule reads one `CaseView` (one case of one document) and yields `Hit`s; the registry turns
them into `Finding`s carrying the rule's stable code and default severity, so a rule never
spells its own code and `casegen review --json` output is the same shape as `validate`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalcore import pointer as ptr
from evalcore.dialects import get_dialect
from evalcore.findings import Finding, Severity

if TYPE_CHECKING:
    from .._views import CaseView, ReviewEnv


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
    """A rule under one code: either one function for every case (it reads what every
    dialect answers: `CaseView.criteria`, `contexts`, `Dialect.justify` ...), or one function
    per checks vocabulary a dialect writes its checks in (`Dialect.checks_vocabulary`), for
    what only checks written that way can show; a dialect whose vocabulary the rule has no
    function for gets no comment from it."""

    code: str
    severity: Severity
    summary: str
    func: RuleFunc | None = None
    by_vocabulary: dict[str, RuleFunc] = field(default_factory=dict)

    def written_for(self, vocabulary: str) -> Callable[[RuleFunc], RuleFunc]:
        """Register the rule's function for cases whose checks are written in `vocabulary`."""

        def register(func: RuleFunc) -> RuleFunc:
            if self.func is not None or vocabulary in self.by_vocabulary:
                raise ValueError(f"review rule '{self.code}' is registered twice for {vocabulary}")
            self.by_vocabulary[vocabulary] = func
            return func

        return register

    def func_for(self, dialect: str) -> RuleFunc | None:
        """The function that reviews a case of `dialect` (None: the rule says nothing)."""
        if self.func is not None:
            return self.func
        vocabulary = get_dialect(dialect).checks_vocabulary
        return self.by_vocabulary.get(vocabulary) if vocabulary else None

    @property
    def vocabularies(self) -> tuple[str, ...]:
        """The checks vocabularies it reads (empty: it reads every case)."""
        return tuple(self.by_vocabulary)

    def check(self, case: CaseView, env: ReviewEnv) -> Iterator[Finding]:
        func = self.func_for(case.dialect)
        if func is None:
            return
        for hit in func(case, env):
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


def define_rule(code: str, *, severity: Severity, summary: str) -> ReviewRule:
    """Register a rule whose functions are written per checks vocabulary
    (`ReviewRule.written_for`)."""
    if code in RULES:
        raise ValueError(f"review rule '{code}' is registered twice")
    RULES[code] = ReviewRule(code, severity, summary)
    return RULES[code]


def review_rule(
    code: str, *, severity: Severity, summary: str, checks: str | None = None
) -> Callable[[RuleFunc], RuleFunc]:
    """Register a review rule under a stable `code`.

    Args:
        code: The comment code (`vague-criterion`); stable, documented, never reused.
        severity: The default severity of its comments; a `Hit` may override it.
        summary: One line for docs and `--help`.
        checks: The checks vocabulary the rule reads (`Dialect.checks_vocabulary`); None:
            it reads what every dialect answers, so it reviews every case.

    Example:
        @review_rule("vague-criterion", severity="warning", summary="...")
        def vague(case, env):
            yield Hit("/scenario/goals/criteria/0", "…")
    """
    rule = define_rule(code, severity=severity, summary=summary)

    def register(func: RuleFunc) -> RuleFunc:
        if checks is None:
            RULES[code] = ReviewRule(code, severity, summary, func)
            return func
        return rule.written_for(checks)(func)

    return register


def at(*tokens: str | int) -> str:
    """A relative pointer from tokens (`at("scenario", "goals", "criteria", 0)`)."""
    return ptr.join("", *tokens)


__all__ = ["RULES", "Hit", "ReviewRule", "at", "define_rule", "review_rule"]
