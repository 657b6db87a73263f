"""Words rule: the prose of a case must read as words, whoever wrote it.

A small model under a schema-enforcing server can answer with text that is valid JSON and
fits every field while saying nothing: a name of `10, `, a context of `10. 10, `, a
criterion of `re_re_re…` two kilobytes long. Schema and reference lint pass such a case; a
reviewer would not. The checks are deliberately coarse (a case written by people or by the
offline drafter never comes near them):

- too few words: a title with no letter at all, a criterion or context with fewer than
  three words of two letters or more;
- mostly not letters: in a criterion or context, digits and punctuation outweigh letters;
- stuck: one short piece repeated four or more times in a row (`re_re_re_re`), or one word
  making up more than half of a text of eight words or more;
- far too long: a title over 200 characters, a criterion over 600.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator

from .._views import CaseView, Part, ReviewEnv
from ._registry import Hit, review_rule

_WORD = re.compile(r"[^\W\d_]{2,}")
_STUCK = re.compile(r"(.{2,12}?)\1{3,}", re.S)
_LIMITS = {"title": 200, "criterion": 600, "context": 20_000}
_MIN_WORDS = {"criterion": 3, "context": 3}


def _may_repeat(text: str) -> bool:
    """False when no piece of 2 to 12 characters repeats four times in a row in `text`,
    i.e. when `_STUCK` cannot match. Such a run of a `p`-character piece is a stretch of
    `3p` characters each equal to the one `p` further on: XOR-ing the text (as one integer)
    with itself shifted by `p` characters turns every such stretch into `3p` zero
    characters, which a bytes search finds in C. Zero bytes that straddle characters of a
    non-ASCII text may pass too: then the pattern decides. The pattern alone tries eleven
    lengths at every character (most of the review of a long simulation text)."""
    width = 1 if text.isascii() else 4
    data = text.encode("ascii" if width == 1 else "utf-32-le")
    whole = int.from_bytes(data, "little")
    for size in range(2, 13):
        shift = width * size
        if len(data) < 4 * shift:
            break
        kept = len(data) - shift
        same = (whole >> (8 * shift)) ^ (whole & ((1 << (8 * kept)) - 1))
        if bytes(3 * shift) in same.to_bytes(kept, "little"):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def unreadable(text: str, kind: str) -> str | None:
    """Why `text` does not read as words (None when it does); `kind`: title, criterion,
    context. Kept per text: a suite's cases share most of their criteria."""
    flat = " ".join(text.split())
    found = _WORD.findall(flat)
    letters = sum(map(str.isalpha, flat))
    if kind == "title":
        if not letters:  # short names ("a", "t1", "T-1000") are a person's choice
            return "has no letter"
    elif len(found) < _MIN_WORDS[kind]:
        return f"has {len(found)} word(s)"
    if len(flat) > _LIMITS[kind]:
        return f"is {len(flat)} characters long"
    others = len(flat) - letters - flat.count(" ")  # `flat`'s only whitespace is " "
    if kind != "title" and others > letters:
        return "is mostly digits and punctuation"
    stuck = _STUCK.search(flat) if _may_repeat(flat) else None
    if stuck is not None and not stuck.group(1).isdigit():
        return f"repeats {stuck.group(1)!r} {len(stuck.group(0)) // len(stuck.group(1))} times"
    if len(found) >= 8:
        word, count = Counter(w.casefold() for w in found).most_common(1)[0]
        if count * 2 > len(found):
            return f"is mostly the word {word!r} ({count} of {len(found)})"
    return None


@review_rule(
    "unreadable-text",
    severity="error",
    summary="A title, criterion or simulated user's text that does not read as words "
    "(no words, mostly digits and punctuation, one piece repeated, far too long).",
)
def unreadable_text(case: CaseView, env: ReviewEnv) -> Iterator[Hit]:
    parts: list[tuple[str, Part]] = []
    if case.title_path:
        parts.append(("title", Part(case.title_path, case.title)))
    parts += [("criterion", part) for part in case.criteria]
    parts += [("context", part) for part in case.contexts]
    for kind, part in parts:
        why = unreadable(part.text, kind)
        if why is None:
            continue
        shown = " ".join(part.text.split())
        yield Hit(
            part.path,
            f"the {kind} does not read as words: it {why}",
            suggestion="write it in plain words, or regenerate the case",
            value=shown if len(shown) <= 80 else shown[:79] + "…",
        )


__all__ = ["unreadable"]
