"""What the Mantle planner offers the offline drafter: the walk of a skill, the phrases and
requests a user says, the vocabulary of fields and channels, the session and tool facts.

    from agentflows.planning.mantle_offers import Walk, walk_skill, request_phrase

The drafter writes the conversation the planner walked, so it reads the planner's own view
of a skill instead of a second one. These names live in the planner's private modules; this
module is their public face. It is a module and not the package `__init__` because the
phrase modules read the drafter's value helpers (`agentflows.drafting.offline`), whose
package imports `agentflows.planning`: loading them from the package `__init__` would close
that loop at start-up.
"""

from __future__ import annotations

from ._mantle import after_identity, behavior_setup
from ._mantle_names import VERBS, name_intent
from ._mantle_phrases import _as_sentence as as_sentence
from ._mantle_phrases import (
    activation_phrase,
    activation_phrases,
    cue_line,
    declining_detour,
    defers_handoff,
    description_phrases,
    distinct_name_intent,
    first_person,
    is_neutral,
    named_value,
    own_phrases,
    paired_phrase,
    paired_phrases,
    person_phrases,
    plain_opening,
    request_phrase,
    says_label,
    second_person,
    strong_phrases,
    subject,
    told_example,
    value_line,
    written_form,
)
from ._mantle_planner import sign_in_prelude
from ._mantle_prose import paragraphs
from ._mantle_requests import Request, id_like, instruction_request, requests
from ._mantle_session import session_fields
from ._mantle_tools import failure_outcome, qualify, step_arguments
from ._mantle_vocab import (
    channel_fields,
    channel_routing_fields,
    example_value,
    field_choices,
    is_caller_phone,
    routing_conditions,
)
from ._mantle_walk import SET, Ask, Event, Setup, Walk, walk_skill

__all__ = [
    "SET",
    "VERBS",
    "Ask",
    "Event",
    "Request",
    "Setup",
    "Walk",
    "activation_phrase",
    "activation_phrases",
    "after_identity",
    "as_sentence",
    "behavior_setup",
    "channel_fields",
    "channel_routing_fields",
    "cue_line",
    "declining_detour",
    "defers_handoff",
    "description_phrases",
    "distinct_name_intent",
    "example_value",
    "failure_outcome",
    "field_choices",
    "first_person",
    "id_like",
    "instruction_request",
    "is_caller_phone",
    "is_neutral",
    "name_intent",
    "named_value",
    "own_phrases",
    "paired_phrase",
    "paired_phrases",
    "paragraphs",
    "person_phrases",
    "plain_opening",
    "qualify",
    "request_phrase",
    "requests",
    "routing_conditions",
    "says_label",
    "second_person",
    "session_fields",
    "sign_in_prelude",
    "step_arguments",
    "strong_phrases",
    "subject",
    "told_example",
    "value_line",
    "walk_skill",
    "written_form",
]
