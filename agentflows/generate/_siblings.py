"""Each planned case's sibling titles (the other cases of its source), which its draft
prompt lists; apart from the flow's routing so a run's first drafts can be prepared before
LangGraph is imported (`_early`)."""

from __future__ import annotations

from typing import Any


def siblings(
    behavior: dict[str, Any],
    behaviors: list[dict[str, Any]],
    titles: dict[str, list[str]] | None = None,
) -> list[str]:
    """Titles of the other behaviours of the same source, in plan order."""
    if titles is None:
        return [
            b["title"] for b in behaviors if b["source"] == behavior["source"] and b is not behavior
        ]
    same = titles[behavior["source"]]
    if same.count(behavior["title"]) == 1:
        return [t for t in same if t != behavior["title"]]
    return [  # two behaviours with one title: only this one is left out
        b["title"] for b in behaviors if b["source"] == behavior["source"] and b is not behavior
    ]


__all__ = ["siblings"]
