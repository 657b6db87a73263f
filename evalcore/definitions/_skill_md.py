"""The body of a Mantle `skill.md`: `if:` prose conditions, `@` tokens, ordered blocks.

The body is markdown the LLM reads, with three structures the runtime understands:

- a line `if: <cond>` scopes the next paragraph (blank lines end a paragraph);
- tokens `@tool.<name>`, `@block.<id>`, `@skill.<id>`, `@memory.<ns>.<entry>`;
- fenced ordered blocks, `:::ordered_block id=<id>` ... `:::`, whose content is YAML.

Fenced code (```/~~~) is left alone: an `if:` or `:::` inside it is an example, not syntax.
Tokens are collected everywhere (ordered-block instructions use them too).
"""

from __future__ import annotations

import re
from dataclasses import field

from .._record import dataclass
from ..lexicon.notation.mantle_blocks import BLOCK_OPEN as _BLOCK_OPEN
from ..lexicon.notation.mantle_references import SKILL_FILE_TOKEN as _TOKEN
from ._model import ProseCondition

_BLOCK_CLOSE = re.compile(r"^\s*:::\s*$")
_ID_ATTR = re.compile(r"""\bid\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"']+))""")
_IF_LINE = re.compile(r"^\s*if:(?P<cond>.*)$")
_CODE_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class RawBlock:
    """An ordered block as found in the body; its YAML is parsed by `_blocks`."""

    id: str | None
    content: str
    line: int
    """File line of the `:::ordered_block` fence."""


@dataclass
class Body:
    prose_conditions: list[ProseCondition] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    blocks: list[RawBlock] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)


def find_tokens(text: str) -> list[str]:
    """Distinct `@kind.name` tokens in order of first appearance."""
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(text):
        if match["memory"] is not None:
            seen.setdefault(f"@memory.{match['memory']}")
        else:
            seen.setdefault(f"@{match['kind']}.{match['name']}")
    return list(seen)


def _block_id(attrs: str) -> str | None:
    match = _ID_ATTR.search(attrs)
    if match is None:
        return None
    return match["dq"] if match["dq"] is not None else match["sq"] or match["bare"]


# A prose line: (file line, text, kind) where kind is "text", "code" or "break" (a block).
_Line = tuple[int, str, str]


def parse_body(body: str, first_line: int) -> Body:
    """Parse a skill body whose first line is file line `first_line`."""
    out = Body(tokens=find_tokens(body))
    prose = _split_blocks(body.splitlines(), first_line, out)
    out.prose_conditions = _prose_conditions(prose, out)
    return out


def _split_blocks(lines: list[str], first_line: int, out: Body) -> list[_Line]:
    prose: list[_Line] = []
    in_code = False
    index = 0
    while index < len(lines):
        line, number = lines[index], first_line + index
        if in_code or _CODE_FENCE.match(line):
            if _CODE_FENCE.match(line):
                in_code = not in_code
            prose.append((number, line, "code"))
            index += 1
            continue
        opened = _BLOCK_OPEN.match(line)
        if opened is None:
            prose.append((number, line, "text"))
            index += 1
            continue
        end = next((j for j in range(index + 1, len(lines)) if _BLOCK_CLOSE.match(lines[j])), None)
        if end is None:
            out.problems.append((number, "ordered block is not closed by a ':::' line"))
            end = len(lines)
        block_id = _block_id(opened["attrs"])
        if not block_id:
            out.problems.append((number, "ordered block has no id (write ':::ordered_block id=…')"))
        out.blocks.append(RawBlock(block_id, "\n".join(lines[index + 1 : end]) + "\n", number))
        prose.append((number, "", "break"))
        index = end + 1
    return prose


def _prose_conditions(prose: list[_Line], out: Body) -> list[ProseCondition]:
    found: list[ProseCondition] = []
    for index, (number, text, kind) in enumerate(prose):
        matched = _IF_LINE.match(text) if kind == "text" else None
        if matched is None:
            continue
        condition = matched["cond"].strip()
        if not condition:
            out.problems.append((number, "'if:' line has no condition"))
            continue
        paragraph = _paragraph_after(prose, index + 1)
        if not paragraph:
            out.problems.append((number, f"'if: {condition}' is not followed by a paragraph"))
        found.append(ProseCondition(condition=condition, paragraph=paragraph, line=number))
    return found


def _paragraph_after(prose: list[_Line], start: int) -> str:
    """The paragraph an `if:` line scopes: the next run of non-blank lines."""
    index = start
    while index < len(prose) and prose[index][2] == "text" and not prose[index][1].strip():
        index += 1
    lines: list[str] = []
    for _number, text, kind in prose[index:]:
        if kind == "break" or (kind == "text" and (not text.strip() or _IF_LINE.match(text))):
            break
        lines.append(text)
    return "\n".join(lines).strip()
