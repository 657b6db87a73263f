"""casegen's scenario validation against Rasa's own `load_scenario`, as recorded.

`python -m benchmarks rasa-oracle scenarios --record` ran every generated scenario through
Rasa's loader and kept its verdicts (with the Rasa version) in
`tests/data/rasa_oracle/scenarios.json.gz`. Here casegen judges the same texts, without Rasa:
it must agree on every case, except where it is deliberately stricter because Rasa's own run
would then fail (the rules in `STRICTER_RULES`, each documented in docs/dialects.md). The last
test asks Rasa itself again, when its venv is installed (`make rasa-oracle`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.rasa_oracle import RASA_VERSION, find_env
from benchmarks.rasa_oracle import scenarios as oracle
from benchmarks.rasa_oracle.scenario_cases import fingerprint, generate
from evalcore.validation import validate_paths

REPO = Path(__file__).resolve().parents[1]
RECORDED = oracle.load_recording()


@pytest.fixture(scope="module")
def outcomes() -> list[oracle.Outcome]:
    """The recorded Rasa verdicts beside casegen's, judged once for the module."""
    return oracle.recorded_outcomes(RECORDED)


def test_the_recording_is_of_the_current_generator_and_rasa_build() -> None:
    assert RECORDED["rasa_version"] == RASA_VERSION
    assert RECORDED["fingerprint"] == fingerprint(generate()), (
        "the generated scenarios changed: rerun "
        "`python -m benchmarks rasa-oracle scenarios --record` (make rasa-oracle)"
    )
    assert RECORDED["stricter_rules"] == oracle.STRICTER_RULES


def test_casegen_agrees_with_rasa_outside_the_documented_stricter_rules(
    outcomes: list[oracle.Outcome],
) -> None:
    wrong = [
        f"{o.case.probe}: Rasa {'loads' if o.rasa.loads else 'refuses'} "
        f"({o.rasa.error[:80]}), casegen {'accepts' if o.casegen_valid else 'refuses'} "
        f"{o.casegen_errors[:1]}\n{o.case.text}"
        for o in outcomes
        if not o.agrees and not o.stricter_rule
    ]
    assert not wrong, "\n".join(wrong[:20])
    assert len(outcomes) > 2000  # every key, every kind, the YAML corners
    assert sum(o.rasa.loads for o in outcomes) > 500


def test_every_stricter_rule_is_documented_and_used(outcomes: list[oracle.Outcome]) -> None:
    dialects = (REPO / "docs" / "dialects.md").read_text(encoding="utf-8")
    used = {o.stricter_rule for o in outcomes if o.stricter_rule}
    assert used == set(oracle.STRICTER_RULES)
    for rule in oracle.STRICTER_RULES:
        assert f"`{rule}`" in dialects, rule


def _validate(tmp_path: Path, text: str) -> list[str]:
    case = tmp_path / "eval" / "scenarios" / "case.yml"
    case.parent.mkdir(parents=True, exist_ok=True)
    case.write_text(text, encoding="utf-8")
    (report,) = validate_paths([case])
    return [f"{f.code} {f.path} {f.message}" for f in report.errors]


HEAD = "scenario:\n  name: {name}\n  simulation_context: c\n"


def test_an_unset_variable_is_refused_as_rasa_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CASEGEN_TEST_UNSET", raising=False)
    errors = _validate(tmp_path, HEAD.format(name="${CASEGEN_TEST_UNSET}"))
    assert errors and errors[0].startswith("env-var /scenario/name ${CASEGEN_TEST_UNSET}")
    assert not _validate(tmp_path, HEAD.format(name='"${CASEGEN_TEST_UNSET}"'))  # quoted


def test_a_set_variable_is_validated_as_its_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CASEGEN_TEST_TYPE", "edge_case")
    assert not _validate(tmp_path, HEAD.format(name="a") + "  type: ${CASEGEN_TEST_TYPE}\n")
    monkeypatch.setenv("CASEGEN_TEST_TYPE", "nonsense")
    assert _validate(tmp_path, HEAD.format(name="a") + "  type: ${CASEGEN_TEST_TYPE}\n")


def test_numbers_are_read_as_rasas_yaml_1_2_reader_reads_them(tmp_path: Path) -> None:
    for number in ("1_000", "0b101", "-0x1F"):
        assert _validate(tmp_path, HEAD.format(name=number)), number  # an int, not a name
    for text in ("0O17", ".5e3", "1e_3", "yes"):
        assert not _validate(tmp_path, HEAD.format(name=text)), text  # text in YAML 1.2


@pytest.mark.skipif(find_env() is None, reason="Rasa's venv is not installed (make rasa-oracle)")
def test_rasa_still_gives_the_recorded_verdicts() -> None:
    """A sample of the recording, asked of Rasa again (its verdicts do not drift)."""
    env = find_env()
    assert env is not None
    sample = [case for index, case in enumerate(generate()) if index % 25 == 0]
    version, verdicts = oracle.rasa_verdicts(env, sample)
    recorded = {c["id"]: c for c in RECORDED["cases"]}
    assert version == RECORDED["rasa_version"]
    for case in sample:
        assert verdicts[case.id].loads == recorded[case.id]["loads"], case.probe
    assert os.environ.get("ORACLE_SET") is None  # the environment was not left changed


def test_a_run_reads_the_case_as_rasa_loads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evalcore.errors import UserError
    from evalcore.runcase import load_run_cases

    case = tmp_path / "case.yml"
    case.write_text(HEAD.format(name="${CASEGEN_TEST_NAME}"), encoding="utf-8")
    monkeypatch.setenv("CASEGEN_TEST_NAME", "Pay a bill")
    (run_case,) = load_run_cases(case)
    assert run_case.name == "Pay a bill"
    monkeypatch.delenv("CASEGEN_TEST_NAME")
    with pytest.raises(UserError, match="CASEGEN_TEST_NAME"):
        load_run_cases(case)


def test_what_rasa_loads_but_never_matches_is_left_to_the_project_lint(tmp_path: Path) -> None:
    """The schema accepts an empty memory name and a null MCP server, as Rasa's loader does;
    against the project they are errors, since no event of a run carries them."""
    case = tmp_path / "case.yml"
    case.write_text(
        HEAD.format(name="a")
        + "  goals:\n    assertions:\n"
        + "      - memory_was_set: [{name: ''}]\n"
        + "      - tool_executed: {tool_name: lookup_customer, source: mcp, mcp_server: null}\n",
        encoding="utf-8",
    )
    (schema_only,) = validate_paths([case], project=None)
    assert [f.code for f in schema_only.errors] == []
    (report,) = validate_paths([case], project=REPO / "examples" / "bank")
    assert [(f.code, f.path.rsplit("/", 1)[-1]) for f in report.errors] == [
        ("unknown-memory", "name"),
        ("unknown-tool", "mcp_server"),
    ]
