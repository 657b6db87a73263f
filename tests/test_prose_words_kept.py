"""A sentence's content words are cut once per text when a case's checks are justified.

The justifier weighs each criterion against every sentence of the skills its case runs
(`_criterion`), the same sentences for every criterion and every case, and cut each again:
a fifth of justifying a case. The stems are kept by text (read-only), the same as before.
"""

from __future__ import annotations

from evalcore.dialects.mantle._prose_lines import words


def test_a_sentences_words_are_cut_once_and_read_the_same() -> None:
    sentence = "Share the ticket_id with the customer once the ticket is created."
    first = words(sentence)
    assert words(sentence) is first
    assert isinstance(first, frozenset)
    # the criterion in the third person meets the sentence it restates
    assert words("The agent shares the ticket id.") & first == words("shares a ticket")
