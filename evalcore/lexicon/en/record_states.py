"""The words of a data record's or a case field's value that say its state or kind
(`evalcore.testdata._records`, `evalcore.testdata._kind_fit`): a status that puts the
record out of standing ("lapsed", "cancelled"), and a trip or call's kind that stays home
("domestic") or leaves it ("international"). A caller whose record is out of standing, or
a place that contradicts the kind, makes the case ask for what the agent must refuse."""

from __future__ import annotations

import re

from .. import phrase

#: A status value out of standing (matched whole on the lower-cased value).
INACTIVE = phrase(
    "en.record_states.inactive",
    r"lapsed|closed|cancell?ed|expired|inactive|suspended|terminated|blocked|revoked|deleted",
    matches=("lapsed", "cancelled", "inactive"),
    misses=("active", "open", "pending"),
)
#: The kind that stays in the caller's own area (`home`), and the one that leaves it (`away`).
TRIP_KIND = phrase(
    "en.record_states.trip_kind",
    r"^(?:(?P<home>domestic|local|inland|national|in[-_ ]?country)"
    r"|(?P<away>international|foreign|abroad|overseas|out[-_ ]?of[-_ ]?country))$",
    re.I,
    matches=("Domestic", "out-of-country", "overseas"),
    misses=("international flight", "regional"),
)
