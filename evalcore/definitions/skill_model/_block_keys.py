"""Block-level keys of a skill's ordered blocks as written (`tools:`, `complete_when:`),
read from the block's YAML where the reader does not keep them."""

from __future__ import annotations

from typing import Any

from ..._pyyaml import yaml
from ...lexicon.notation.mantle_blocks import FENCE_IDS as _FENCE
from .._memo import memoized
from .._model import Skill

_C_SAFE = getattr(yaml, "CSafeLoader", None)
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


def _safe_load(text: str) -> Any:
    """`yaml.safe_load` on libyaml's parser where it reads the text the same way (no tabs
    or control characters; anything it rejects is read again by the pure-Python parser,
    whose error is the one raised): the same constructor and resolver, ten times faster."""
    if _C_SAFE is not None and "\t" not in text and not _NON_PRINTABLE.search(text):
        try:
            return yaml.load(text, Loader=_C_SAFE)
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)


def raw_block_keys(skill: Skill) -> dict[str, dict[str, Any]]:
    """Block id -> its block-level keys besides `steps:` (`tools:`, `complete_when:`), read
    from the block's YAML as written (the reader may not keep them yet). Parsed once per
    loaded skill (a skill model asks three times); callers only read it."""
    return memoized(skill, "raw_block_keys", lambda: _raw_block_keys(skill))


def _raw_block_keys(skill: Skill) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    body = skill.body
    for match in _FENCE.finditer(body):
        start = body.find("\n", match.end()) + 1
        end = body.find(":::", start)
        try:
            data = _safe_load(body[start : end if end >= 0 else None])
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            out[match["id"]] = {k: v for k, v in data.items() if k != "steps"}
    return out


def raw_block_tools(skill: Skill) -> dict[str, list[str]]:
    """Block id -> its block-level `tools:` list."""
    out: dict[str, list[str]] = {}
    for block in skill.blocks.values():
        declared = getattr(block, "tools", None)
        if declared:
            out[block.id] = [str(t) for t in declared]
    if out:
        return out
    for block_id, keys in raw_block_keys(skill).items():
        if isinstance(keys.get("tools"), list):
            out[block_id] = [str(t) for t in keys["tools"] if isinstance(t, str)]
    return out


def block_complete_when(skill: Skill) -> dict[str, str]:
    """Block id -> its block-level `complete_when` condition."""
    out: dict[str, str] = {}
    for block in skill.blocks.values():
        declared = getattr(block, "complete_when", None)
        if declared:
            out[block.id] = str(
                declared.get("condition") if isinstance(declared, dict) else declared
            )
    if out:
        return out
    for block_id, keys in raw_block_keys(skill).items():
        value = keys.get("complete_when")
        if isinstance(value, dict):
            value = value.get("condition")
        if isinstance(value, str) and value.strip():
            out[block_id] = value
    return out


__all__ = ["block_complete_when", "raw_block_keys", "raw_block_tools"]
