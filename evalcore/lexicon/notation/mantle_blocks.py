"""The fences of a Mantle skill file: `:::ordered_block id=x` … `:::` around an ordered
block. Format syntax, read line by line or over the whole body."""

from __future__ import annotations

import re

from .. import phrase

#: A whole ordered block in a skill body: its optional id and the lines up to the closing
#: `:::` line.
ORDERED_BLOCK = phrase(
    "notation.mantle_blocks.ordered_block",
    r":::ordered_block(?:\s+id=(?P<block_id>[\w-]+))?\s*\n(?P<block_body>.*?)^:::\s*$",
    re.DOTALL | re.MULTILINE,
    matches=(":::ordered_block id=verify\n1. ask\n:::\n", ":::ordered_block\n1. ask\n:::"),
    misses=(":::ordered_block id=verify\n1. ask\n", "::: note\n1. ask\n:::"),
)
#: The line that opens an ordered block, with what follows the keyword (its attributes).
BLOCK_OPEN = phrase(
    "notation.mantle_blocks.block_open",
    r"^\s*:::\s*ordered_block\b(?P<attrs>.*)$",
    matches=(":::ordered_block id=verify", "  ::: ordered_block"),
    misses=(":::", "see the ordered_block below", ":::ordered_blocks"),
)
#: The start of an opening line, attributes aside.
FENCE_OPEN = phrase(
    "notation.mantle_blocks.fence_open",
    r"^\s*:::\s*ordered_block\b",
    matches=(":::ordered_block id=verify", " ::: ordered_block"),
    misses=(":::", "an ordered_block", ":::ordered_block_x"),
)
_FENCE_ID = r"^\s*:::\s*ordered_block\b.*?\bid\s*=\s*[\"']?(?P<id>[\w-]+)"
#: The id an opening line gives its block (`id=verify`, `id = "verify"`), on one line ...
FENCE_ID = phrase(
    "notation.mantle_blocks.fence_id",
    _FENCE_ID,
    matches=(":::ordered_block id=verify", ':::ordered_block  id = "verify-id"'),
    misses=(":::ordered_block", "text\n:::ordered_block id=verify"),
)
#: ... and on any line of a body.
FENCE_IDS = phrase(
    "notation.mantle_blocks.fence_ids",
    _FENCE_ID,
    re.M,
    matches=("text\n:::ordered_block id=verify\n1. ask\n:::",),
    misses=("text\n:::ordered_block\n1. ask\n:::", "text\nid=verify"),
)
#: A whole ordered block from its opening line (at the start of a line, attributes and all)
#: to its closing `:::` line: what to cut from a body to keep only its prose.
WHOLE_BLOCK = phrase(
    "notation.mantle_blocks.whole_block",
    r"^:::ordered_block\b.*?^:::\s*$",
    re.DOTALL | re.MULTILINE,
    matches=("Ask first.\n:::ordered_block id=verify\n1. ask\n:::\nThen go on.",),
    misses=(":::ordered_block id=verify\n1. ask\n", "  :::ordered_block\n1. ask\n:::"),
)
