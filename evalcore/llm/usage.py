"""Usage accounting shared by every model caller (generator, simulator, judge).

One type for a single call and for any sum of calls, so reports add them with `+` and never
re-derive token or cost totals.
"""

from __future__ import annotations

from pydantic import BaseModel


class Usage(BaseModel):
    """Model usage of one call or a sum of calls (zero for the offline engine)."""

    calls: int = 0
    """Model calls that returned an answer (valid or not); cache hits are not calls."""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    """Cost from the configured prices; 0 when no price is configured."""
    cache_hits: int = 0
    """Answers served from the response cache (no tokens, no cost)."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=round(self.cost_usd + other.cost_usd, 6),
            cache_hits=self.cache_hits + other.cache_hits,
        )


def cost_usd(
    input_tokens: int,
    output_tokens: int,
    input_cost_per_mtok: float | None,
    output_cost_per_mtok: float | None,
) -> float:
    """Price of one call; a missing price counts as free rather than guessing one."""
    cost = input_tokens * (input_cost_per_mtok or 0.0) + output_tokens * (
        output_cost_per_mtok or 0.0
    )
    return round(cost / 1_000_000, 6)


__all__ = ["Usage", "cost_usd"]
