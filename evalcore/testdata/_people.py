"""Personas that fit who uses the agent: a role, a name and a manner, varied by case.

The role is read from the agent's own words (`agent.yml` name, persona, description and the
skill descriptions): an explicit audience ("helps baristas …", "for developers") wins (its
domain's roles, or the people it names: "you talk to truck drivers" -> "a truck driver"), else
the domain whose words occur most ("policy", "claim" → insurance). Only when nothing fits is
the user "a customer". Names and manners are drawn from a case-keyed RNG (`case_rng`), so a
suite's cases meet different people and the same case always meets the same one.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache

from ..lexicon.en.audience import PERSON_WORD, SERVES, THINGS, WRITERS
from ..lexicon.en.people_words import COLLECTIVE as _COLLECTIVE
from ..lexicon.en.people_words import GENERIC_PEOPLE as _GENERIC
from ..lexicon.en.people_words import GET_IN_TOUCH as _GET_IN_TOUCH
from ..lexicon.en.people_words import NOT_PERSON_WORDS as _FUNCTION_WORDS
from ..lexicon.en.people_words import REACH_VERBS as _REACH_VERBS
from ..lexicon.en.people_words import TOWARDS as _TOWARDS
from ._audience_list import listed_people
from ._rng import case_rng
from ._shared_scan import Scan

FIRST_NAMES = (
    "Dana", "Priya", "Marcus", "Tomás", "Grace", "Amara", "Kenji", "Sofia", "Oluwaseun",
    "Ingrid", "Mateo", "Leila", "Hannah", "Ravi", "Chloé", "Darius", "Mei", "Tariq", "Elena",
    "Jonah", "Aisha", "Björn", "Camila", "Farid", "Yuki", "Noah", "Zainab", "Luca", "Imani",
    "Owen", "Nadia", "Hugo", "Siobhan", "Arjun", "Freya", "Kwame", "Lucía", "Malik", "Anya",
    "Theo", "Rosa", "Idris", "Maren", "Santiago", "Esther", "Kofi", "Wen", "Petra",
)  # fmt: skip
LAST_NAMES = (
    "Okafor", "Lindqvist", "Nakamura", "Alvarez", "Brennan", "Haddad", "Kowalski", "Mensah",
    "Fitzgerald", "Rossi", "Chen", "Dubois", "Patel", "Novak", "Osei", "Schmidt", "Moreau",
    "Ibrahim", "Larsen", "Costa", "Tanaka", "Whitaker", "Adeyemi", "Horvath", "Quinn",
    "Reyes", "Sato", "Bauer", "Mwangi", "Petrov", "Delgado", "Ferreira", "Kaur", "Nguyen",
    "O'Connell", "Varga", "Yilmaz", "Andersen", "Banerjee", "Castillo", "Eriksen", "Gallo",
    "Hughes", "Jovanovic", "Kim", "Moyo", "Sandoval", "Volkov",
)  # fmt: skip
MANNERS = (
    "brisk and precise",
    "friendly and a little chatty",
    "polite and to the point",
    "in a hurry",
    "careful and keen to double-check things",
    "relaxed and good-humoured",
    "slightly anxious",
    "patient but tired",
)

#: Domain -> (words that signal it, roles of the people who use such an agent).
DOMAINS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "software": (
        (
            "developer",
            "engineer",
            "repository",
            "repo",
            "deploy",
            "pull request",
            "codebase",
            "pipeline",
            "api key",
            "sdk",
            "commit",
        ),
        (
            "a backend developer at a payments start-up",
            "a platform engineer at a logistics company",
            "a front-end developer at a design agency",
            "a site reliability engineer at a streaming service",
            "a data engineer at a retail chain",
        ),
    ),
    "cafe": (
        ("barista", "café", "cafe", "coffee", "espresso", "latte", "bakery", "shift"),
        (
            "a barista at a neighbourhood café",
            "a shift lead at a busy coffee bar",
            "the owner of a small café with two sites",
            "a new barista in their second week",
        ),
    ),
    "executive": (
        ("executive", "ceo", "cfo", "board", "leadership", "c-suite", "chief", "director"),
        (
            "the chief financial officer of a mid-sized retailer",
            "a VP of sales at a software company",
            "the managing director of a consultancy",
            "the chief operating officer of a hospital group",
        ),
    ),
    "housing": (
        (
            "tenant",
            "landlord",
            "rent",
            "lease",
            "apartment",
            "flat",
            "maintenance request",
            "property",
        ),
        (
            "a tenant in a two-bedroom flat",
            "a student renting a studio",
            "a tenant who has lived in the building for five years",
            "a parent renting a terraced house",
        ),
    ),
    "health": (
        ("patient", "clinic", "doctor", "appointment", "prescription", "gp", "dental", "symptom"),
        (
            "a patient on a repeat prescription",
            "a parent arranging care for a child",
            "a retiree managing a repeat prescription",
            "a nurse booking their own check-up",
        ),
    ),
    "insurance": (
        (
            "insurance",
            "policy",
            "policyholder",
            "claim",
            "premium",
            "coverage",
            "deductible",
            "insurer",
        ),
        (
            "a policyholder who drives to work every day",
            "a homeowner with a buildings and contents policy",
            "a fleet manager at a courier firm",
            "a self-employed photographer insuring their equipment",
        ),
    ),
    "banking": (
        ("bank", "card", "balance", "account", "payment", "transfer", "loan", "debit", "credit"),
        (
            "a bank customer who mostly uses the mobile app",
            "a small-business owner with a business account",
            "a student with a first current account",
            "a retiree who banks by phone",
        ),
    ),
    "travel": (
        (
            "flight",
            "hotel",
            "booking",
            "trip",
            "travel",
            "itinerary",
            "airline",
            "check-in",
            "passenger",
            "traveller",
        ),
        (
            "a consultant who travels every week",
            "a parent planning a family holiday",
            "a student travelling home for the holidays",
            "an event planner booking for a team",
        ),
    ),
    "workplace": (
        (
            "employee",
            "hr",
            "payroll",
            "leave",
            "expense",
            "onboarding",
            "manager",
            "staff",
            "it support",
            "laptop",
        ),
        (
            "an account manager back from a client trip",
            "a product designer in the design team",
            "a new hire in their first month",
            "a team lead in the finance department",
        ),
    ),
    "telecom": (
        ("internet", "broadband", "router", "modem", "wi-fi", "wifi", "telecom", "mbps"),
        (
            "a customer who works from home on their broadband line",
            "a parent whose family streams every evening",
            "a retiree who mostly uses the internet for email and video calls",
            "a student sharing a flat's broadband",
        ),
    ),
    "retail": (
        ("order", "delivery", "parcel", "return", "refund", "shop", "store", "product", "basket"),
        (
            "an online shopper who orders most weeks",
            "a parent buying a birthday present",
            "a first-time buyer",
            "a small-business owner restocking supplies",
        ),
    ),
}

#: A role that holds one line of a domain (a car policy, a home policy): kept only where the
#: agent's words name that line, so a car-and-home insurer meets no fleet manager.
_LINES: dict[str, tuple[str, ...]] = {
    "a policyholder who drives to work every day": ("car", "auto", "vehicle", "motor", "driver"),
    "a homeowner with a buildings and contents policy": (
        "home", "homeowner", "homeowners", "house", "buildings", "contents",
    ),
    "a fleet manager at a courier firm": ("fleet", "courier", "van", "commercial"),
    "a self-employed photographer insuring their equipment": ("equipment", "camera", "gadget"),
}  # fmt: skip


def _fitting(roles: tuple[str, ...], scan: Scan) -> tuple[str, ...]:
    """The roles whose line the text names (see `_LINES`); all of them when none does."""
    kept = tuple(r for r in roles if r not in _LINES or any(_count(w, scan) for w in _LINES[r]))
    return roles if len(kept) == len(roles) else kept or roles


_AUDIENCE = SERVES


# "Riders write to you from the app": the people as the subject of talking to the agent
_WRITERS = WRITERS


#: Where a sentence ends, as `_callers` reads sentences.
_SENTENCE_END = re.compile(r"[.;:!?]\s+")


def _callers(text: str) -> list[str]:
    """The first people of each sentence whose subject gets in touch ("Patients and
    caregivers call or text to ..." -> "patients"), lower case."""
    return [who for sentence in _SENTENCE_END.split(text.lower()) for who in _caller(sentence)]


def _caller(sentence: str) -> list[str]:
    """`_callers` of one sentence (lower case): its first word, or nothing."""
    words = sentence.split()
    at = 3 if words[1:2] in (["and"], ["or"]) else 1
    verbs = words[at:]
    if verbs[:1] and verbs[0] in _GET_IN_TOUCH:
        rest = verbs[3:] if verbs[1:2] == ["or"] else verbs[1:]
        if rest[:1] and rest[0] in _TOWARDS:
            return [words[0]]
    return []


# A word that names people by what they do: "drivers", "researchers", "nurses", "tenants".
_PERSON_WORD = PERSON_WORD
# ... and words of that shape that do not ("orders", "payments", "monitors").
_THINGS = THINGS


@dataclass(frozen=True)
class Persona:
    """Who the simulated user is: `You are Dana Okafor, a fleet manager …, brisk and precise.`"""

    first_name: str
    last_name: str
    role: str
    """With its article: `a fleet manager at a courier firm`."""
    manner: str

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def sentence(self) -> str:
        return f"You are {self.name}, {self.role}, {self.manner}."

    def renamed(self, full_name: str) -> Persona:
        """The same persona under a name a data record fixes (a policy's holder). A person
        the project's data holds has the history it records (an open claim, past orders),
        which the role never reads: it keeps no word of having done this before or not."""
        first, _, last = full_name.strip().partition(" ")
        role = self.role
        for clause in _HISTORY:
            role = role.removesuffix(clause)
        return Persona(first, last or self.last_name, role, self.manner)


@lru_cache(maxsize=256)
def _word_pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(word)}s?\b")


#: A domain word that is one run of word characters: counted from the text's words.
_ONE_WORD = re.compile(r"\w+")


def _count(word: str, scan: Scan) -> int:
    """How often a domain word (or its plural) occurs in the text as a word. A one-word
    domain word's matches of `\bword s?\b` are exactly the text's words equal to it or to
    its plural, so the text's words, counted once, answer without a search: a text holds
    every skill's description, and searching it once per domain word made the offline
    drafter's cost per case grow with the skills."""
    if _ONE_WORD.fullmatch(word):
        return scan.words(_ONE_WORD, word) + scan.words(_ONE_WORD, word + "s")
    return scan.count(_word_pattern(word))


@lru_cache(maxsize=64)
def roles_for(text: str, shared: str = "") -> tuple[str, ...]:
    """The roles of people who would use an agent described by `text` (see module doc).

    `shared` is a start `text` has in common with other texts (every skill's audience text
    begins with the project's words): its scans are kept, so each text costs what follows
    it (`_shared_scan`), not the whole."""
    scan = Scan(text, shared)

    def audience(match: re.Match[str]) -> tuple[str, ...] | None:
        if len(text) == len(scan.text) and _proper(text[match.start("who") : match.end("who")]):
            return None  # the scan reads lower case; the text says whether it is a name
        return _audience_roles(match)

    roles = scan.first_answer(_AUDIENCE, audience)
    if roles:
        return _fitting(roles, scan)
    listed = _listed_roles(scan)
    if listed:
        return _fitting(listed, scan)
    roles = scan.first_answer(_WRITERS, _writers_roles)
    if roles:
        return roles
    for who in scan.split_answers(_SENTENCE_END, _caller):  # the shared start's kept
        named = _people_named([who])
        if named:
            return _roles_of(named)
    best: tuple[int, tuple[str, ...]] | None = None
    for domain_words, roles in DOMAINS.values():
        score = sum(_count(w, scan) for w in domain_words)
        if score and (best is None or score > best[0]):
            best = (score, roles)
    if best is not None:
        return _fitting(best[1], scan)
    return ("a regular customer", "a first-time customer", "a long-standing customer")


def _reaching(text: str) -> list[str]:
    """The subjects of "<people> reach you" sentences ("Employees", "Field engineers")."""
    out = []
    for sentence in re.split(r"[.;:!?]\s+", text):
        words = sentence.split()
        for size in (1, 2):
            verb, then = words[size : size + 1], words[size + 1 : size + 2]
            if verb and then and verb[0].lower() in _REACH_VERBS and then[0].lower() == "you":
                out.append(" ".join(words[:size]))
    return out


def users_word(text: str) -> str | None:
    """The agent's own word for the people it talks to, singular ("Employees reach you ..."
    -> "employee", "helps truck drivers" -> "truck driver"), as personas find the audience;
    None where the text names no one."""
    said = [m["who"] for p in (_AUDIENCE, _WRITERS) for m in p.finditer(text)]
    said = [who for who in said if not _proper(who)]  # "for Brewline Coffee stores"
    said += _callers(text)
    for who in [*said, *_reaching(text)]:
        named = _people_named(who.lower().split())
        if named:
            return named
    # the agent's list of its callers: its one kind, or "user" for several ("baristas and
    # shift leads"), never "customer" for people the agent does not sell to
    people = listed_people(text.lower(), _listed_person)
    if len(people) == 1:
        return people[0][0]
    return "user" if people else None


def _audience_roles(match: re.Match[str]) -> tuple[str, ...] | None:
    """The roles "helps truck drivers", "talk to tenants" names: a person of the kind the
    agent's own words name, with nothing the project does not say (never a role of a
    generic table, "a parent renting a terraced house", for an agent of apartment
    buildings); None when it names no one, or only a proper name ("for Brewline Coffee
    stores" names the business, not its users)."""
    if _proper(match["who"]):
        return None
    who = [w.rstrip("s") for w in match["who"].lower().split()]
    if who[0] in _GENERIC:
        return None
    named = _people_named(match["who"].lower().split())
    return _roles_of(named) if named else None


def _proper(phrase: str) -> bool:
    """Whether a phrase met mid-sentence is a proper name ("Brewline Coffee")."""
    return phrase[:1].isupper()


def _writers_roles(match: re.Match[str]) -> tuple[str, ...] | None:
    """The roles "drivers write to you" names; None when it names no one."""
    named = _people_named(match["who"].split())
    return _roles_of(named) if named else None


def _listed_roles(scan: Scan) -> tuple[str, ...]:
    """Roles from the agent's list of its callers ("Callers are account holders, tenants
    ... and property managers ..."): one domain's roles when every listed kind of person is
    that domain's ("baristas and shift leads"), else the items themselves."""
    people = listed_people(scan.text, _listed_person, search=scan.first)
    if not people:
        return ()
    if len(people) == 1:  # its head: what the list says of them may be cut at a comma
        return _roles_of(people[0][0])
    # each kind the list names, in its words: "baristas and shift leads" are a barista and
    # a shift lead, not the owner of a café a generic table adds
    return OwnWords(_one(who, p) for who, p in people)


def _one(who: str, described: str) -> str:
    """One person of a listed kind: "a tenant who ...", "one of the branch staff ..." (a
    collective noun names the group, never one person)."""
    if who.split()[-1] in _COLLECTIVE:
        return f"one of the {described}"
    return f"{'an' if described[:1] in 'aeiou' else 'a'} {described}"


def _listed_person(words: list[str]) -> str | None:
    """A listed item's head as one person: any plural noun that is not a thing or a generic
    word ("landlords", "account holders"), since the list already says they are people."""
    last = words[-1]
    if _THINGS.search(last) or words[0] in _GENERIC or _singular(last) in _GENERIC:
        return None
    return " ".join([*words[:-1], _singular(last)])


def _domain_of(word: str) -> str | None:
    """The domain whose words name this kind of person ("tenant" -> property), if one does."""
    for name, (domain_words, _) in DOMAINS.items():
        if word in (d.rstrip("s") for d in domain_words):
            return name
    return None


def _people_named(words: list[str]) -> str | None:
    """The audience as a singular noun phrase ("truck drivers" -> "truck driver"), when its
    last word names people by what they do; else None ("questions about", "orders")."""
    for size in (len(words), 1):
        phrase = words[:size]
        last = phrase[-1]
        if (
            _PERSON_WORD.search(last)
            and not _THINGS.search(last)
            and phrase[0] not in _GENERIC
            and not _FUNCTION_WORDS & set(phrase)
        ):
            return " ".join([*phrase[:-1], _singular(last)])
    return None


def _singular(word: str) -> str:
    if word.endswith("men"):
        return word[:-3] + "man"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _roles_of(who: str) -> tuple[str, ...]:
    """Roles for an audience no domain lists: the people the agent's own words name."""
    article = "an" if who[:1] in "aeiou" else "a"
    return OwnWords(
        (
            f"{article} {who}",
            f"{article} {who}{_HISTORY[0]}",
            f"{article} {who}{_HISTORY[1]}",
        )
    )


#: What a role in the agent's own words says of the person's past with it.
_HISTORY = (" who has done this before", " doing this for the first time")


class OwnWords(tuple[str, ...]):
    """Roles in the agent's own words, which differ only in whether the person has done it
    before: dealt to a skill's cases in turn (`persona_for`'s `slot`), so two cases of the
    same facts do not meet the same person by chance."""


def names_role(value: str, role: str) -> bool:
    """Whether an enum value names the kind of person a role is (`property_manager` in "a
    property manager with many addresses", `contractor` in "a licensed contractor ...")."""
    words = set(re.findall(r"[a-z]+", role.lower()))
    wanted = [w for w in re.split(r"[_\W]+", str(value).lower()) if w]
    return bool(wanted) and all(w in words or w + "s" in words for w in wanted)


def persona_for(
    audience_text: str,
    key: str,
    *,
    first_name: str | None = None,
    role_value: str | None = None,
    shared: str = "",
    fits: frozenset[str] = frozenset(),
    slot: int | None = None,
) -> Persona:
    """The persona of case `key` for an agent described by `audience_text`.

    `first_name` fixes the first name (a test account's holder); the rest still varies.
    `role_value` (a seeded role the case's session carries: `contractor`) keeps to the roles
    that name it, else makes one of it ("a technician"); else `fits` (values the case fixes:
    `Homeowner`) keeps to the roles that hold one of them. `shared`: see `roles_for`.
    `slot`: the case's place among its skill's cases (roles in the agent's own words are
    dealt by it).
    """
    rng: random.Random = case_rng(key, "persona")
    roles = roles_for(audience_text, shared)
    if role_value is not None:
        # a seeded kind no role of the agent's words names is the persona's own kind
        named = tuple(r for r in roles if names_role(role_value, r))
        roles = named or _roles_of(" ".join(re.split(r"[_\W]+", role_value.lower())).strip())
    elif fits:
        # the case's own values ("Homeowner", "car"): a role that holds that line
        wanted = {v.lower() for v in fits}
        matching = tuple(
            r
            for r in roles
            if wanted & set(_LINES.get(r, ())) or any(names_role(v, r) for v in fits)
        )
        roles = matching or roles
    role = rng.choice(roles)
    if slot is not None and isinstance(roles, OwnWords):
        role = roles[slot % len(roles)]  # the agent's own words, dealt in turn
    first = rng.choice(FIRST_NAMES)
    last = rng.choice(LAST_NAMES)
    manner = rng.choice(MANNERS)
    return Persona(first_name or first, last, role, manner)


__all__ = [
    "DOMAINS",
    "FIRST_NAMES",
    "LAST_NAMES",
    "MANNERS",
    "Persona",
    "names_role",
    "persona_for",
    "roles_for",
    "users_word",
]
