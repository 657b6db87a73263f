"""A lexicon pattern compiles on first use and answers exactly as `re.compile` of the same
source and flags: on every phrase's own examples, by every method callers use."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore.lexicon import LazyPattern, Phrase, phrases

ROOT = Path(__file__).resolve().parents[1]
EVERY = [*phrases("en"), *phrases("notation")]


def _spans(found: re.Match[str] | None) -> object:
    return None if found is None else (found.span(), found.groups(), found.groupdict())


@pytest.mark.parametrize("item", EVERY, ids=[p.name for p in EVERY])
def test_a_lazy_phrase_answers_as_the_compiled_pattern(item: Phrase) -> None:
    lazy = item.regex  # what `phrase` handed its callers
    assert isinstance(lazy, LazyPattern)
    eager = re.compile(item.regex.pattern, item.regex.flags)
    assert (lazy.pattern, lazy.flags, lazy.groups, lazy.groupindex) == (
        eager.pattern,
        eager.flags,
        eager.groups,
        eager.groupindex,
    )
    for line in (*item.matches, *item.misses, ""):
        for method in ("search", "match", "fullmatch"):
            assert _spans(getattr(lazy, method)(line)) == _spans(getattr(eager, method)(line))
        assert [_spans(m) for m in lazy.finditer(line)] == [_spans(m) for m in eager.finditer(line)]
        assert lazy.findall(line) == eager.findall(line)
        assert lazy.split(line) == eager.split(line)
        assert lazy.sub("<>", line) == eager.sub("<>", line)
        assert lazy.subn(lambda m: m.group(0).upper(), line) == eager.subn(
            lambda m: m.group(0).upper(), line
        )
    assert lazy == eager and eager == lazy and hash(lazy) == hash(eager)


def test_a_phrase_compiles_only_when_a_method_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    lazy = LazyPattern(r"\bhello\b", re.I)
    assert lazy.pattern == r"\bhello\b" and compiled == []
    assert lazy.search("Say HELLO there") is not None
    assert lazy.sub("hi", "hello, hello") == "hi, hi"
    assert lazy.flags == re.I | re.U
    assert compiled == [r"\bhello\b"]  # once, however often it is used


def test_importing_the_lexicon_compiles_none_of_its_phrases() -> None:
    code = (
        "import re, sys\n"
        "real = re.compile\n"
        "seen = []\n"
        "re.compile = lambda p, f=0: seen.append(p) or real(p, f)\n"
        "from evalcore.lexicon import phrases\n"
        "every = phrases('en') + phrases('notation')\n"
        "sources = {p.regex.pattern for p in every}\n"
        "print(len(every), len(sources & set(seen)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    declared, compiled = map(int, out.stdout.split())
    assert declared > 400 and compiled == 0


def test_a_lazy_phrase_copies_and_pickles_as_a_pattern_would() -> None:
    lazy = LazyPattern(r"(?P<word>\w+)-(\d+)")
    assert copy.copy(lazy) is lazy and copy.deepcopy(lazy) is lazy
    again = pickle.loads(pickle.dumps(lazy))
    assert again == lazy and again.search("ab-12").groupdict() == {"word": "ab"}
    with pytest.raises(AttributeError):
        lazy.search = None  # type: ignore[method-assign]
