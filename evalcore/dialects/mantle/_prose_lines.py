"""Prose a Mantle project gives its model, sentence by sentence, each at its own file line.

The justifier cites the sentence behind a check. Two places hold prose besides a skill's
body: the `instructions:` of an ordered block's steps (a YAML scalar a few lines below the
step's `id:`) and `agent.yml` (the persona, the agent-wide `rules`, the `instructions` of
its references), which holds the rules every skill runs under ("never invent ...", what to
say to a request outside the agent's domain). A sentence's line is found in the file
itself, so a folded or quoted scalar cites the line its sentence starts on.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any

from ..._pyyaml import yaml
from ..._stem import stem
from ...definitions.skill_model import sentences
from ...lexicon.en.skill_prose_words import SETTING_VERBS
from ...lexicon.en.stop_words import SENTENCE_FILLER as FILLER
from ...yamlio import CaseLoader

#: The keys of `agent.yml` whose text the model is given as instructions.
AGENT_PROSE_KEYS = frozenset({"persona", "rules", "instructions"})


@dataclass(frozen=True)
class Line:
    """One sentence of prose and where it starts."""

    text: str
    line: int
    condition: str | None
    paragraph: int


def locate(lines: list[str], text: str, start: int, span: int = 80) -> int:
    """The file line (1-based) at or after `start` where the sentence `text` starts; `start`
    when it is not found there (a sentence the reader reworded)."""
    words = text.split()[:6]
    if not words:
        return start
    prefix = " ".join(words)
    first = max(start - 1, 0)
    for index in range(first, min(len(lines), first + span)):
        own = " ".join(lines[index].split())
        window = " ".join(" ".join(lines[index : index + 4]).split())
        at = window.find(prefix)
        if 0 <= at < len(own):
            return index + 1
    return start


#: Verbs that tell the model to write memory (`set_fields` counts as its `set`), as stems.
SETTING = frozenset(stem(w) for w in SETTING_VERBS)


@functools.lru_cache(maxsize=8192)
def words(text: str) -> frozenset[str]:
    """The stems of `text`'s content words (an entry's name counts as its words too), cut
    as the rest of casegen cuts them, so a criterion in the third person ("shares the
    ticket id") meets the imperative sentence it restates ("Share the ticket id"). Kept by
    text: a criterion is weighed against every sentence of the skills its case runs, the
    same sentences for every criterion and case."""
    out: set[str] = set()
    for word in re.findall(r"[a-z][a-z_]{2,}", text.lower()):
        for part in {word, *word.split("_")}:
            if len(part) > 2 and part not in FILLER:
                out.add(stem(part))
    return frozenset(out)


def likeness(left: str, right: str) -> float:
    """How alike two sentences read (0..1), to choose between sentences sharing as many
    words: the criterion usually restates one of them nearly word for word."""
    return difflib.SequenceMatcher(None, left.lower(), right.lower()).ratio()


def agent_lines(text: str) -> list[Line]:
    """The sentences of `agent.yml`'s persona, rules and instructions with their lines
    (empty when the file does not parse: the loader reports that)."""
    try:
        root = yaml.compose(text, Loader=CaseLoader)
    except yaml.YAMLError:
        return []
    lines = text.splitlines()
    out: list[Line] = []
    for index, (value, line) in enumerate(_prose_scalars(root, under=False)):
        for sentence in sentences(value, line):
            at = locate(lines, sentence.text, line)
            out.append(Line(sentence.text, at, sentence.condition, 20_000 + index))
    return out


def _prose_scalars(node: Any, *, under: bool) -> list[tuple[str, int]]:
    """(text, first line) of every string under an `AGENT_PROSE_KEYS` key of `node`."""
    if isinstance(node, yaml.ScalarNode):
        if under and isinstance(node.value, str) and node.tag.endswith(":str"):
            return [(node.value, node.start_mark.line + 1)]
        return []
    if isinstance(node, yaml.SequenceNode):
        return [found for item in node.value for found in _prose_scalars(item, under=under)]
    if isinstance(node, yaml.MappingNode):
        return [
            found
            for key, value in node.value
            for found in _prose_scalars(
                value, under=under or str(getattr(key, "value", "")) in AGENT_PROSE_KEYS
            )
        ]
    return []


__all__ = [
    "AGENT_PROSE_KEYS",
    "FILLER",
    "SETTING",
    "Line",
    "agent_lines",
    "likeness",
    "locate",
    "words",
]
