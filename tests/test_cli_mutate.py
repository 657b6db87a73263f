"""`casegen mutate`: kill matrix, score, survivors with suggestions, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from reference_fixtures import write_claims

HAPPY = """\
scenario:
  name: Car claim filed
  type: happy_path
  simulation_context: >-
    You had a small car accident. Follow these steps: 1. Say: "I need to file a claim"
    2. When asked, say: "My car" 3. When asked what happened, say: "Someone backed into it"
    4. When asked to confirm, say: "Yes, go ahead"
  setup:
    initial_slots:
      project.caller_phone: '+15550142'
  goals:
    assertions:
      - skill_activated:
          skill_id: file_claim
      - bot_uttered:
          utter_name: utter_confirm_claim
      - tool_executed:
          tool_name: submit_claim
          source: local
          is_error: false
      - bot_uttered:
          utter_name: utter_claim_filed
"""

REFUSED = """\
scenario:
  name: Claim refused at the summary
  type: edge_case
  simulation_context: >-
    Follow these steps: 1. Say: "I need to file a claim" 2. When asked, say: "My car"
    3. When asked what happened, say: "Someone backed into it" 4. When asked to confirm,
    say: "No, leave it"
  setup:
    initial_slots:
      project.caller_phone: '+15550142'
  goals:
    assertions:
      - bot_uttered:
          utter_name: utter_claim_not_filed
      - memory_was_not_set:
          - name: file_claim.claim_id
"""


@pytest.fixture
def suite(tmp_path: Path) -> tuple[Path, Path]:
    root = write_claims(tmp_path / "claims")
    cases = root / "eval" / "scenarios"
    cases.mkdir(parents=True)
    (cases / "happy.yml").write_text(HAPPY)
    (cases / "refused.yml").write_text(REFUSED)
    return root, cases


def test_mutate_reports_matrix_score_and_survivors(suite, run_cli_json):
    root, cases = suite
    code, data = run_cli_json("mutate", cases, "--project", root)
    assert code == 0
    assert data["reference"] == {"happy": "passed", "refused": "passed"}
    matrix = data["matrix"]
    assert "refused" in matrix["skip_confirmation:submit_claim"]
    assert "happy" in matrix["drop_on_success:submit_claim"]
    assert matrix["wrong_enum:file_claim.claim_type"] == []
    survivors = {s["id"]: s for s in data["survivors"]}
    assert "wrong_enum:file_claim.claim_type" in survivors
    assert "--direction" in survivors["wrong_enum:file_claim.claim_type"]["suggestion"]
    assert data["killed"] == sum(1 for v in matrix.values() if v)
    assert data["score"] == pytest.approx(data["killed"] / data["mutants"], abs=1e-4)
    assert 0 < data["score"] < 1


def test_mutate_exit_code_follows_min_score(suite, run_cli):
    root, cases = suite
    code, out, _ = run_cli("mutate", cases, "--project", root, "--min-score", "0.99")
    assert code == 1
    assert "mutation score" in out and "survives" in out and "try: casegen generate" in out
    code, _, _ = run_cli(
        "mutate",
        cases,
        "--project",
        root,
        "--mutant",
        "skip_confirmation:submit_claim",
        "--min-score",
        "1",
    )
    assert code == 0


def test_mutate_unknown_mutant_id_is_a_usage_error(suite, run_cli):
    root, cases = suite
    code, _, err = run_cli(
        "mutate", cases, "--project", root, "--mutant", "skip_confirmaton:submit_claim"
    )
    assert code == 2
    assert "skip_confirmation:submit_claim" in err


def test_mutate_finds_its_project_says_why_it_fails_and_keeps_it_short(
    suite, run_cli, monkeypatch: pytest.MonkeyPatch
):
    """Like the other commands, the project is the nearest one; a missed --min-score is
    said on stderr; progress is printed before the mutants are played; the summary is
    short and the kill matrix is behind --details."""
    root, _ = suite
    monkeypatch.chdir(root)
    code, out, err = run_cli("mutate", "eval/scenarios", "--min-score", "0.99")
    assert code == 1
    assert "is below --min-score 0.99" in err
    assert err.index("mutate: playing the suite") < err.index("below --min-score")
    assert "killed by" not in out and "--details prints the kill matrix" in out
    assert "--project . --direction" in out and str(root) not in out  # as a user types it
    code, details, _ = run_cli("mutate", "eval/scenarios", "--details")
    assert code == 0 and "killed by" in details
    assert len(details.splitlines()) > len(out.splitlines())
