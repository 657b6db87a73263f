"""Demo mutations from the command line: `--target demo:bank?skip_confirmation`."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "generated_cases" / "mantle" / "card_replace"
REFUSED = CASES / "card_replace_refused_place_replacement_order_edge_case.yml"


@pytest.mark.parametrize(
    ("target", "code"),
    [
        ("demo:bank", 0),
        ("demo:bank?skip_confirmation", 1),
        ("demo:bank?fail_tool=place_replacement_order", 0),
    ],
)
def test_a_mutation_fails_the_case_about_it(
    run_cli_json, tmp_path: Path, target: str, code: int
) -> None:
    got, report = run_cli_json("run", REFUSED, "--target", target, "--results", tmp_path)
    assert got == code
    assert report["summary"]["passed"] == (1 if code == 0 else 0)


def test_an_unknown_flag_is_a_usage_error_with_a_suggestion(run_cli, tmp_path: Path) -> None:
    code, _, err = run_cli(
        "run", REFUSED, "--target", "demo:bank?skip_confirmaton", "--results", tmp_path
    )
    assert code == 2
    assert "did you mean 'skip_confirmation'" in err
