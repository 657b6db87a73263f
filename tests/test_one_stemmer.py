"""One stemmer: the drafter, the demo agent, the simulator and the skill model meet the
same forms of a word (they read each other's words: a persona's answer, an agent's
question, the prose that calls a tool). Three stemmers disagreed: "verified" was `verifi`
to the drafter and `verify` to the simulator, "addresses" missed "address" in the
simulator and the skill model, "cancelled" missed "cancel" in the simulator.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentflows.drafting.offline._direction_values import content_stems
from evalcore.agents.reference._mantle_text import stems as demo_stems
from evalcore.definitions.skill_model._tool_words import stems as tool_stems
from evalcore.simulator import stems as simulator_stems

READERS: dict[str, Callable[[str], object]] = {
    "drafter": content_stems,
    "demo agent": demo_stems,
    "simulator": simulator_stems,
    "skill model": tool_stems,
}
FORMS = [
    ("verified", "verify", "verifies"),
    ("policies", "policy"),
    ("addresses", "address"),
    ("cancelled", "cancel", "cancelling"),
    ("stopped", "stop"),
    ("booking", "book", "books"),
    ("cracked", "crack"),
]


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("forms", FORMS, ids=lambda forms: forms[0])
def test_every_reader_meets_the_forms_of_a_word(reader: str, forms: tuple[str, ...]) -> None:
    read = READERS[reader]
    assert len({tuple(read(word)) for word in forms}) == 1, [read(w) for w in forms]


def test_the_readers_stem_a_sentence_alike() -> None:
    text = "Verified policies, cancelled addresses, stopped claims"  # no stop words
    stems = {name: set(read(text)) - {","} for name, read in READERS.items()}
    assert len({frozenset(s) for s in stems.values()}) == 1, stems
