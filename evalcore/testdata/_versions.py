"""Release tags a case asks to ship: one the case's own record does not run yet.

A deploy case whose target version is a tag of another service, or the one the service
already runs, or one below it, asks for another service's release, a no-op or a downgrade.
`next_release` gives the tag after the highest the record holds, in the record's own shape
(`v1.9.0` -> `v1.9.1`; a release candidate the record runs, `v5.2.0-rc.1`, becomes its
release, `v5.2.0`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..lexicon.en.field_name_words import AHEAD as _AHEAD

#: A release tag: an optional `v`, three numbers, an optional pre-release part.
_TAG = re.compile(r"(?P<v>v?)(?P<major>\d+)\.(?P<minor>\d+)\.(?P<patch>\d+)(?P<pre>-[\w.]+)?")


def is_tag(value: Any) -> bool:
    """Whether `value` is a release tag (`v2.41.0`, `v5.2.0-rc.1`)."""
    return isinstance(value, str) and _TAG.fullmatch(value.strip()) is not None


def names_the_next(field_name: str) -> bool:
    """A field named as the tag a change moves to (`target_version`, `new_version`)."""
    words = field_name.lower().split("_")
    return len(words) == 2 and words[0] in _AHEAD and words[1] in ("version", "tag", "release")


def tags_in(value: Any) -> list[str]:
    """The release tags `value` holds, nested lists and objects included (a service's
    `environments: {staging: v1.9.0, prod: v1.8.7}`)."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in tags_in(v)]
    if isinstance(value, list):
        return [t for v in value for t in tags_in(v)]
    return [value.strip()] if is_tag(value) else []


def _order(tag: str) -> tuple[int, int, int, int]:
    found = _TAG.fullmatch(tag)
    assert found is not None
    # a pre-release comes before its release
    return (int(found["major"]), int(found["minor"]), int(found["patch"]), 0 if found["pre"] else 1)


def next_release(held: Iterable[str]) -> str | None:
    """The tag after the highest of `held` (see module doc), else None where none is a tag."""
    tags = [t for t in held if is_tag(t)]
    if not tags:
        return None
    top = max(tags, key=_order)
    found = _TAG.fullmatch(top)
    assert found is not None
    major, minor, patch = int(found["major"]), int(found["minor"]), int(found["patch"])
    if found["pre"]:  # the candidate the record runs, released
        return f"{found['v']}{major}.{minor}.{patch}"
    return f"{found['v']}{major}.{minor}.{patch + 1}"


__all__ = ["is_tag", "names_the_next", "next_release", "tags_in"]
