"""JSON pointers into a case file, as the schema validator reports where an error is: the
pointer's segments are the case format's keys, not English."""

from __future__ import annotations

from .. import phrase

#: An error at (or inside) one of a scenario's assertions, the assertion's index as group 1.
ASSERTION = phrase(
    "notation.case_pointers.assertion",
    r"^/scenario/goals/assertions/(\d+)(?:/|$)",
    matches=("/scenario/goals/assertions/3", "/scenario/goals/assertions/0/tool_called"),
    misses=("/scenario/goals/assertions", "/scenario/goals/assertions/3x", "/x/assertions/1"),
)
