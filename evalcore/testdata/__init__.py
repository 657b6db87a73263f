"""Test data for drafted cases: personas that fit the agent's users, typed values, records
from the project's data files, and one coherent fact sheet per case.

Every draw is keyed by the case id (`case_rng`), so the same plan gives the same people and
values, and the cases of one suite differ. Nothing here knows a dialect: drafters pass the
agent's description text and field specs (see docs/simulation-contexts.md).
"""

from ._absent import recorded
from ._accounts import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, account_of, account_value
from ._branch_fit import (
    acted_on,
    allowed_by,
    branch_facts,
    branch_fit,
    expires_short,
    lacks,
    moot,
    ruled_out,
    story_fit,
    total,
    unaffected,
)
from ._callers import (
    BUILT_IN,
    Caller,
    built_in_phones,
    caller_for,
    caller_ids,
    callers_in,
    checked_details,
    holdings,
    in_good_standing,
)
from ._degrees import SHARE_OF, Degree, degree_of
from ._everyday import (
    ABROAD,
    CATCH_ALL,
    EVERYDAY,
    MERCHANTS,
    caught_by,
    everyday_item,
    merchant_for,
    other_than,
)
from ._kind_fit import kind_fit, kind_of, kind_unfit
from ._knowledge import knowledge_entries, knowledge_questions, record_entries, record_questions
from ._limits import record_limits, within
from ._listed import listed_values
from ._mismatch import changed_detail, one_detail_off
from ._money import currency_codes, in_currency, unsigned
from ._months import month_on_record
from ._people import DOMAINS, Persona, names_role, persona_for, roles_for, users_word
from ._records import (
    Collection,
    DataRecords,
    by_status,
    load_records,
    named_by,
    record_name,
    sheet_lines,
    status_fit,
)
from ._rng import case_rng
from ._session import own_key, people_of, session_person
from ._sheet import Fact, FactSheet, SheetBuilder, described_shape, names_an_id, spoken_value
from ._told import (
    REASONS,
    SITUATIONS,
    fault_for,
    incident_for,
    place_of_story,
    reason_for,
    situation_for,
    told_value,
)
from ._values import (
    FieldSpec,
    allows_relative,
    date_format,
    draw_date,
    examples_of,
    shaped_like,
    spoken_date,
    stated_code,
    stated_unit,
    typed_value,
)
from ._versions import is_tag, names_the_next, next_release

__all__ = [
    "ABROAD",
    "BUILT_IN",
    "CATCH_ALL",
    "DOMAINS",
    "EVERYDAY",
    "FAILING_ACCOUNT",
    "MERCHANTS",
    "NEGATIVE_ACCOUNT",
    "REASONS",
    "SHARE_OF",
    "SITUATIONS",
    "Caller",
    "Collection",
    "DataRecords",
    "Degree",
    "Fact",
    "FactSheet",
    "FieldSpec",
    "Persona",
    "SheetBuilder",
    "account_of",
    "account_value",
    "acted_on",
    "allowed_by",
    "allows_relative",
    "branch_facts",
    "branch_fit",
    "built_in_phones",
    "by_status",
    "caller_for",
    "caller_ids",
    "callers_in",
    "case_rng",
    "caught_by",
    "changed_detail",
    "checked_details",
    "currency_codes",
    "date_format",
    "degree_of",
    "described_shape",
    "draw_date",
    "everyday_item",
    "examples_of",
    "expires_short",
    "fault_for",
    "holdings",
    "in_currency",
    "in_good_standing",
    "incident_for",
    "is_tag",
    "kind_fit",
    "kind_of",
    "kind_unfit",
    "knowledge_entries",
    "knowledge_questions",
    "lacks",
    "listed_values",
    "load_records",
    "merchant_for",
    "month_on_record",
    "moot",
    "named_by",
    "names_an_id",
    "names_role",
    "names_the_next",
    "next_release",
    "one_detail_off",
    "other_than",
    "own_key",
    "people_of",
    "persona_for",
    "place_of_story",
    "reason_for",
    "record_entries",
    "record_limits",
    "record_name",
    "record_questions",
    "recorded",
    "roles_for",
    "ruled_out",
    "session_person",
    "shaped_like",
    "sheet_lines",
    "situation_for",
    "spoken_date",
    "spoken_value",
    "stated_code",
    "stated_unit",
    "status_fit",
    "story_fit",
    "told_value",
    "total",
    "typed_value",
    "unaffected",
    "unsigned",
    "users_word",
    "within",
]
