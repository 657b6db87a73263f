"""PyYAML's scalar analysis, with regular expressions instead of a loop per character.

`yaml.emitter.Emitter.analyze_scalar` walks a scalar in Python, character by character, to
decide which styles may write it; case files hold long simulation texts that occur once
each, so the walk cost about a tenth of writing a case. `analyze` computes the same
`ScalarAnalysis` (every field) from a few searches that run in C; `tests/test_yamlscan.py`
holds it to PyYAML's on generated and committed texts.
"""

from __future__ import annotations

import re

from yaml.emitter import ScalarAnalysis

_WS = "\0 \t\r\n\x85\u2028\u2029"
_BREAKS = "\n\x85\u2028\u2029"
# After the first character: a flow indicator; `:` before whitespace or the end and `#`
# after whitespace are block indicators too (searched only in a text that holds them).
_FLOW_LATER = re.compile(r"[,?\[\]{}:]")
_COLON_END = re.compile(r":(?:[" + _WS + r"]|\Z)")
_SPACED_HASH = re.compile("[" + _WS + "]#")
_LINE_BREAK = re.compile("[" + _BREAKS + "]")
_BREAK_SPACE = re.compile("[" + _BREAKS + "] ")
_SPACE_BREAK = re.compile(" [" + _BREAKS + "]")
# Characters PyYAML writes only double-quoted: outside printable ASCII and `\n`, and,
# unless unicode is allowed, outside the printable unicode ranges too (BOM and U+10FFFF
# excluded, as in `analyze_scalar`).
_SPECIAL = {
    False: re.compile(r"[^\n\x20-\x7e]"),
    True: re.compile(
        "[^\n\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010fffe]"
    ),
}


def analyze(scalar: str, allow_unicode: bool) -> ScalarAnalysis:
    """What `Emitter(allow_unicode=allow_unicode).analyze_scalar(scalar)` returns."""
    if not scalar:
        return ScalarAnalysis(
            scalar=scalar,
            empty=True,
            multiline=False,
            allow_flow_plain=False,
            allow_block_plain=True,
            allow_single_quoted=True,
            allow_double_quoted=True,
            allow_block=False,
        )
    first = scalar[0]
    followed = len(scalar) == 1 or scalar[1] in _WS
    flow = block = scalar.startswith(("---", "..."))
    if first in "#,[]{}&*!|>'\"%@`" or (first == "-" and followed):
        flow = block = True
    elif first in "?:":
        flow = True
        block = block or followed
    hashed = "#" in scalar and _SPACED_HASH.search(scalar) is not None
    flow = flow or hashed or _FLOW_LATER.search(scalar, 1) is not None
    block = block or hashed or (":" in scalar and _COLON_END.search(scalar, 1) is not None)
    line_breaks = _LINE_BREAK.search(scalar) is not None
    # an ASCII text has no character the unicode ranges allow: the short class decides
    special = _SPECIAL[bool(allow_unicode) and not scalar.isascii()].search(scalar) is not None
    last = scalar[-1]
    trailing_space = last == " "
    edges = first == " " or trailing_space or first in _BREAKS or last in _BREAKS
    break_space = line_breaks and _BREAK_SPACE.search(scalar) is not None
    space_break = line_breaks and _SPACE_BREAK.search(scalar) is not None

    flow_plain = block_plain = single = block_style = True
    if edges:
        flow_plain = block_plain = False
    if trailing_space:
        block_style = False
    if break_space:
        flow_plain = block_plain = single = False
    if space_break or special:
        flow_plain = block_plain = single = block_style = False
    if line_breaks:
        flow_plain = block_plain = False
    if flow:
        flow_plain = False
    if block:
        block_plain = False
    return ScalarAnalysis(
        scalar=scalar,
        empty=False,
        multiline=line_breaks,
        allow_flow_plain=flow_plain,
        allow_block_plain=block_plain,
        allow_single_quoted=single,
        allow_double_quoted=True,
        allow_block=block_style,
    )


__all__ = ["analyze"]
