"""A plain run spreads its cases over the skills: a skill with a question does not take a
third of the suite by its variations while another skill has one case.

Before: on a telecom project one skill of nine held 9 of 23 cases (three branches, a
refusal and five variations: details up front, a correction, a detour, a request for a
person, an unrelated request) while three skills had one each.
"""

from __future__ import annotations

from agentflows.planning import Behavior
from agentflows.planning._spread import spread


def _b(source: str, kind: str, priority: int, case: str | None = None) -> Behavior:
    case = case or kind
    return Behavior(
        id=f"{source}:{case}",
        source=source,
        dialect="mantle",
        type="edge_case",
        case=case,
        title=case,
        description=case,
        facts={"kind": kind},
        priority=priority,
    )


BIG = [
    _b("reset", "happy", 10, "slow"),
    _b("reset", "happy", 31, "moving"),
    _b("reset", "refusal", 20),
    _b("reset", "failure", 40),
    _b("reset", "out_of_order", 50),
    _b("reset", "correction", 55),
    _b("reset", "digression", 60),
    _b("reset", "escalation", 65),
    _b("reset", "out_of_scope", 70),
]


def test_the_big_skill_loses_its_variations_least_valuable_first() -> None:
    plan = [*BIG, _b("faq", "happy", 10), _b("intro", "happy", 10), _b("bill", "happy", 10)]
    kept, trimmed = spread(plan)
    assert [b.facts["kind"] for b in trimmed] == [
        "escalation",
        "digression",
        "correction",
        "out_of_order",
    ]
    # branches, gates, failures and the project's once-only case stay, in plan order
    assert [b.case for b in kept if b.source == "reset"] == [
        "slow",
        "moving",
        "refusal",
        "failure",
        "out_of_scope",
    ]


def test_it_stops_once_under_a_third() -> None:
    plan = [*BIG, *(_b(f"s{i}", "happy", 10) for i in range(12))]
    plan += [_b("t", "happy", 10, f"c{i}") for i in range(5)]
    kept, trimmed = spread(plan)  # 9 of 26, then 8 of 25: under a third after one
    assert [b.facts["kind"] for b in trimmed] == ["escalation"]
    assert len(kept) == len(plan) - 1


def test_no_trim_where_every_other_skill_has_several_cases() -> None:
    plan = [*BIG, _b("check", "happy", 10), _b("check", "refusal", 20)]
    plan += [_b("dispute", "happy", 10), _b("dispute", "correction", 55)]
    kept, trimmed = spread(plan)
    assert trimmed == [] and kept == plan
    # nor with two skills only
    assert spread([*BIG, _b("faq", "happy", 10)])[1] == []


def test_a_skill_large_by_its_branches_keeps_the_variations_others_get() -> None:
    # one answer per country makes the skill large; its variations are no more than another's
    plan = [_b("payslip", "happy", 10, f"country{i}") for i in range(6)]
    plan += [_b("payslip", kind, p) for kind, p in (("correction", 55), ("digression", 60))]
    plan += [_b("leave", "happy", 10), _b("leave", "correction", 55), _b("leave", "digression", 60)]
    plan += [_b("faq", "happy", 10), _b("intro", "happy", 10)]
    kept, trimmed = spread(plan)
    assert trimmed == [] and kept == plan
    # one variation more than any other skill has: that one goes, the rest stay
    plan.append(_b("payslip", "escalation", 65))
    kept, trimmed = spread(plan)
    assert [b.facts["kind"] for b in trimmed] == ["escalation"]
