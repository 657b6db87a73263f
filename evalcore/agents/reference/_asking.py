"""How the reference agent words a question and reads a compound answer.

A skill's prose tells the agent what to ask ("ask which payment the customer means; the
merchant is enough"); a model turns that into a question to the user. The reference agent
does the same without a model: the clause after the asking verb, in the second person
("Could you tell me which payment you mean?"), else the field's name ("Could you tell me the
policy number?"). A text that already asks (a collect utterance) is said as written.

An answer that gives several details in one message ("My date of birth is 9 May 1980 and my
postcode is 73301.") is split into its labelled parts, so each detail is read from its own
part instead of from the whole message.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...definitions.skill_model import asked_to
from ...lexicon.en.asking_prose import ASK_CLAUSE as _ASK_CLAUSE
from ...lexicon.en.asking_prose import ASK_TAIL as _TAIL
from ...lexicon.en.asking_prose import FOR_LEAD as _FOR_LEAD
from ...lexicon.en.asking_prose import READ_BACK as _READ_BACK
from ...lexicon.en.labelled_answers import PART as _PART
from ...lexicon.en.skill_prose import WHAT_THE_USER_WANTS
from ...lexicon.en.user_mentions import PERSON as _PERSON
from ...lexicon.en.user_mentions import POSSESSIVE as _POSSESSIVE
from ...lexicon.en.user_mentions import THIRD_PERSON_VERB as _THIRD_PERSON_VERB
from ...lexicon.notation.reference_mentions import SPOKEN_REFERENCE as _REFERENCE


def second_person(text: str) -> str:
    """`which payment the customer means` -> `which payment you mean`."""
    text = _POSSESSIVE.sub("your", text)
    text = _PERSON.sub("you", text)
    text = _THIRD_PERSON_VERB.sub(_plain_verb, text)
    return text


def _plain_verb(match: re.Match[str]) -> str:
    verb = {"is": "are", "has": "have", "does": "do"}.get(match[1], match[1][:-1])
    return f"you {verb}"


def reads_back(prompt: str | None) -> bool:
    """Whether a prompt that fills a yes/no field does it by reading the details back: the
    agent asks it as a confirmation ("Is that all correct?")."""
    return bool(_READ_BACK.search(" ".join((prompt or "").split())))


def wanted_clause(description: str | None) -> str | None:
    """A field's description that says what the user wants ("What the customer needs for
    their parcel.") as the agent asks it, in the second person (`what you need for your
    parcel`); None for any other description. The words a person hears for a field set
    from what they need (`mode`), which the agent and a drafted case's cue both use."""
    said = WHAT_THE_USER_WANTS.match(" ".join(str(description or "").split()))
    if said is None:
        return None
    rest = second_person(said["rest"].strip())
    return " ".join([said["wh"].lower(), "you", said["verb"][:-1], rest]).strip()


@lru_cache(maxsize=4096)
def question_for(
    prompt: str | None, field_words: str, *, boolean: bool = False, wanted: str | None = None
) -> str:
    """The question the agent asks for what `prompt` (prose, instructions or a response)
    tells it to ask: the asking clause and the field's name (`field_words`), so that both
    the user's words for it and its name are heard; where the prompt gives no clause, what
    the field's description says the user wants (`wanted`, see `wanted_clause`). A yes/no
    field the prompt fills by reading the details back is a confirmation ("Is that all
    correct?"). Kept per arguments: every play of a case asks the same questions again."""
    text = " ".join((prompt or "").split())
    if boolean and reads_back(text):
        return "To confirm, I have read the details back to you. Is that all correct?"
    if "?" in text and "@" not in text:
        return text
    text = _REFERENCE.sub("", text)
    match = _ASK_CLAUSE.search(text)
    if match is not None:
        clause = re.sub(r"\s*\([^()]*\)|\s*\([^()]*$", "", match["clause"]).strip()
        clause = _TAIL.sub("", clause).strip(" ,")
        clause = _FOR_LEAD.sub("", clause)
        if len(clause.split()) >= 2:
            clause = second_person(clause)
            if set(field_words.split()) <= set(clause.lower().split()):
                return f"Could you tell me {clause}?"
            return f"Could you tell me {clause} (the {field_words})?"
    act = asked_request(text)
    if act is not None:
        if set(field_words.split()) <= set(act.lower().split()):
            return f"Could you {act}?"
        return f"Could you {act} (the {field_words})?"
    if wanted:
        return f"Could you tell me {wanted} (the {field_words})?"
    return f"Could you tell me the {field_words}?"


def asked_request(prompt: str | None) -> str | None:
    """What the prose asks the user to do or tell, in the second person ("Ask them to say
    when they are done" -> `say when you are done`); None where it asks no such thing. The
    reference agent asks it ("Could you say when you are done?") and a drafted case's cue
    names it (`When the agent asks you to say when you are done`), in the same words."""
    act = asked_to(_REFERENCE.sub("", " ".join((prompt or "").split())))
    if act is None:
        return None
    act = re.sub(r"\s*\([^()]*\)|\s*\([^()]*$", "", act).strip()
    act = _TAIL.sub("", act).strip(" ,")
    return second_person(act) if len(act.split()) >= 2 else None


def answer_parts(text: str) -> dict[str, str]:
    """`My date of birth is X and my postcode is Y.` -> {date of birth: X, postcode: Y};
    an answer that is not a list of labelled details gives {}."""
    body = " ".join(text.split()).rstrip(".")
    if not body.lower().startswith("my "):
        return {}
    parts = {m["label"].lower(): m["value"].strip() for m in _PART.finditer(body)}
    return parts if len(parts) >= 2 else {}


__all__ = [
    "answer_parts",
    "asked_request",
    "question_for",
    "reads_back",
    "second_person",
    "wanted_clause",
]
