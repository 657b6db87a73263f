"""`casegen run -k / --last-failed / -x` and the failure recap, pytest-style."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from evalcore.errors import UserError
from evalcore.runner import RunCase
from evalcore.runner._select import keyword_matcher, last_failed

CARDS = REPO / "generated_cases" / "mantle" / "card_replace"
BROKEN = "demo:bank?skip_confirmation"
#: The card_replace cases the skipped confirmation breaks (it is what they check: the
#: refusals, and every path that orders a card asserts the read-back before it).
CAUGHT = {
    "card_replace_correction_edge_case",
    "card_replace_damaged_happy_path",
    "card_replace_details_up_front_edge_case",
    "card_replace_lost_happy_path",
    "card_replace_stolen_happy_path",
    "card_replace_unclear_answer_ambiguity",
    "card_replace_refused_order_replacement_edge_case",
    "card_replace_refused_place_replacement_order_edge_case",
}


def _case(slug: str, name: str = "", path: str = "") -> RunCase:
    return RunCase(slug=slug, name=name or slug, dialect="mantle", path=path or f"{slug}.yml")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("card", {"card_lost", "card_stolen"}),
        ("CARD and not stolen", {"card_lost"}),
        ("stolen or balance", {"card_stolen", "balance"}),
        ("not (card or balance)", set()),
        ("happy", {"balance"}),  # the case name
        ("eval/scen", {"card_stolen"}),  # the path
    ],
)
def test_keyword_expressions(expression: str, expected: set[str]) -> None:
    cases = [
        _case("card_lost"),
        _case("card_stolen", path="eval/scenarios/card_stolen.yml"),
        _case("balance", name="Happy balance check"),
    ]
    keep = keyword_matcher(expression)
    assert {c.slug for c in cases if keep(c)} == expected


@pytest.mark.parametrize("bad", ["", "card and", "(card", "card )", "and card"])
def test_bad_keyword_expressions_are_usage_errors(bad: str) -> None:
    with pytest.raises(UserError) as caught:
        keyword_matcher(bad)
    assert "-k" in caught.value.message


def test_k_selects_and_an_unmatched_k_is_exit_2(run_cli_json, run_cli, tmp_path: Path) -> None:
    code, report = run_cli_json(
        "run",
        CARDS,
        "--target",
        "demo:bank",
        "--results",
        tmp_path,
        "-k",
        "refused and not order_replacement",
    )
    assert code == 0
    assert [r["slug"] for r in report["runs"]] == [
        "card_replace_refused_place_replacement_order_edge_case"
    ]
    code, _, err = run_cli(
        "run", CARDS, "--target", "demo:bank", "--results", tmp_path, "-k", "nothing_like_it"
    )
    assert code == 2 and "no case is selected" in err


def test_last_failed_reruns_only_what_failed(run_cli_json, run_cli, tmp_path: Path) -> None:
    code, first = run_cli_json("run", CARDS, "--target", BROKEN, "--results", tmp_path)
    assert code == 1
    assert {f["slug"] for f in first["failures"]} == CAUGHT
    previous = last_failed(tmp_path)
    assert previous is not None and previous.slugs == CAUGHT

    code, out, err = run_cli(
        "run", CARDS, "--target", "demo:bank", "--results", tmp_path, "--lf", "--json"
    )
    assert code == 0 and f"selected {len(CAUGHT)} of {len(first['runs'])} cases" in err
    import json

    again = json.loads(out)
    assert {r["slug"] for r in again["runs"]} == CAUGHT and again["failures"] == []
    # The newest folder now holds no failure: --last-failed runs everything, and says so.
    code, out, err = run_cli("run", CARDS, "--target", "demo:bank", "--results", tmp_path, "--lf")
    assert code == 0 and "no failed runs in" in err


def test_last_failed_without_earlier_results_runs_everything(run_cli, tmp_path: Path) -> None:
    code, _, err = run_cli(
        "run", CARDS, "-k", "stolen", "--target", "demo:bank", "--results", tmp_path, "--lf"
    )
    assert code == 0 and "no earlier results" in err


def test_exitfirst_stops_starting_runs_and_the_recap_names_each_failure(
    run_cli_json, run_cli, tmp_path: Path
) -> None:
    code, report = run_cli_json(
        "run", CARDS, "--target", BROKEN, "--results", tmp_path, "-x", "--parallel", "1"
    )
    assert code == 1 and report["stopped_early"] is True
    runs = report["runs"]
    assert len(runs) < report["summary"]["planned"]
    assert [r["status"] for r in runs] == ["passed"] * (len(runs) - 1) + ["failed"]
    (failure,) = report["failures"]
    assert failure["slug"] in CAUGHT and failure["status"] == "failed"
    assert failure["reason"].startswith("assertion ") and failure["path"].endswith(".yml")

    code, out, _ = run_cli("run", CARDS, "--target", BROKEN, "--results", tmp_path)
    assert code == 1
    recap = out[out.index("failures:") :]
    lines = [line for line in recap.splitlines()[1:] if line.startswith("  FAIL ")]
    assert {line.split()[1] for line in lines} == CAUGHT
    assert all(".yml)" in line and ": assertion " in line for line in lines)
