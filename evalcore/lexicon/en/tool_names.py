"""What a tool's name says it does: one that lists or searches (`list_orders`,
`search_flights`, `orders_list`) answers with every matching record, not the best one."""

from __future__ import annotations

from .. import phrase

#: A name that lists or searches.
LISTING = phrase(
    "en.tool_names.listing",
    r"^(?:list|search|find_all|get_all|all)_|_(?:list|search)$",
    matches=("list_orders", "search_flights", "find_all_claims", "orders_list"),
    misses=("find_order", "get_booking", "playlist_add", "research_topic"),
)
