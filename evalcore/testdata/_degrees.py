"""What a person reports of a fault of the degree the case's choice names.

A field's example is one observation ("5xx at 12% on checkout-api since 09:40 UTC", "~30%
of checkouts fail"): a major degradation. Told beside a choice whose own words put the
fault at another degree (a severity "sev1: outage", "sev3: minor, has workaround", "sev4:
cosmetic / near miss"), it contradicts the choice, and a careful agent questions the
severity or a reviewer cannot trust the scenario. So a case whose choice names a degree
says an observation of that degree, about the thing the case names (`{name}`); a degree its
words do not name (a "major degradation") keeps the example.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Degree:
    """One degree of a fault: the words of a choice that name it, what is observed (one
    line, `{name}` the affected thing) and who is affected."""

    words: frozenset[str]
    observed: str
    affected: str


DEGREES = (
    Degree(
        frozenset(["cosmetic", "near", "miss", "typo"]),
        "A wrong label on the {name} status page since 09:40 UTC; no errors, nothing failing.",
        "none reported",
    ),
    Degree(
        frozenset(["minor", "workaround", "internal"]),
        "p95 latency on {name} up from 200 ms to 2 s since 09:40 UTC; retries succeed.",
        "none reported",
    ),
    Degree(
        frozenset(["outage", "down", "unavailable", "cannot"]),
        "Every request to {name} fails (5xx at 100%) since 09:40 UTC.",
        "all users, every region and platform",
    ),
)


#: What a share counts where an example counts another record's things ("~30% of checkouts
#: fail" beside a push-gateway incident: "~30% of requests fail").
SHARE_OF = "requests"


def degree_of(phrases: tuple[str, ...] | list[str]) -> Degree | None:
    """The degree a choice's own phrases name ("sev3: minor, has workaround"), else None."""
    words = {w.strip(".,;:/()!?").lower() for p in phrases for w in p.split()}
    return next((d for d in DEGREES if d.words & words), None)


__all__ = ["DEGREES", "SHARE_OF", "Degree", "degree_of"]
