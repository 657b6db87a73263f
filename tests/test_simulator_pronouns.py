"""The user's own words: "you" becomes "I" as a subject and "me" as an object, by grammar."""

from __future__ import annotations

import pytest

from evalcore.simulator import first_person, opening_line


@pytest.mark.parametrize(
    ("said", "own"),
    [
        # a subject: before its verb, at a clause's start, in a contraction
        (
            "want an inspection, but you'd rather arrange it with a person",
            "want an inspection, but I'd rather arrange it with a person",
        ),
        ("want a refund because you lost your card", "want a refund because I lost my card"),
        ("want to check whether you qualify", "want to check whether I qualify"),
        ("want to tell them you moved", "want to tell them I moved"),
        ("want to say you aren't sure", "want to say I am not sure"),
        ("want to dispute the bill you received", "want to dispute the bill I received"),
        ("want a refund after you moved", "want a refund after I moved"),
        ("want what you are owed", "want what I am owed"),
        # an object: after a preposition or a verb that takes a person
        ("want someone to call you back", "want someone to call me back"),
        ("want a refund they owe you", "want a refund they owe me"),
        ("want to know why they charged you twice", "want to know why they charged me twice"),
        ("want a form for you to sign", "want a form for me to sign"),
        ("want you and your partner covered", "want me and my partner covered"),
        ("want them to guide you through the reset", "want them to guide me through the reset"),
        ("want to check it's you on file", "want to check it's me on file"),
    ],
)
def test_you_is_i_as_a_subject_and_me_as_an_object(said: str, own: str) -> None:
    assert first_person(said) == own


def test_the_opening_line_never_says_me_as_a_subject() -> None:
    line = opening_line("want to book a visit, but you would rather arrange it with a person")
    assert line == "Hi, I'd like to book a visit, but I would rather arrange it with a person."
    assert "me'd" not in opening_line("want to book a visit, but you'd rather call")
