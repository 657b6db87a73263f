"""Check (b): Rasa's `load_scenario` beside `casegen validate --no-project`, case by case.

Each generated scenario (`scenario_cases.py`) is loaded by Rasa's own loader (YAML 1.2 with
`${VAR}` expansion, the pykwalify schema and its extension, the pydantic model) and validated
by casegen without a project (the schema-level check). A case agrees when both accept it or
both refuse it. casegen is deliberately stricter only where Rasa loads a file that its own
run would then fail on, and each such refusal must be explained by one of these rules
(`STRICTER_RULES`, documented in docs/dialects.md):

- `rasa-run-raises`: Rasa's own assertion engine raises on the loaded assertion (an empty
  memory list, an empty `skill_id`, `bot_did_not_utter: {}`, ...), so the run stops;
- `calm-assertion-on-mantle`: a CALM assertion (flows, slots, actions, generative
  responses), which Rasa's schema shares with CALM but whose events a Mantle run never has;
- `memory-session-prefix`: a memory name with the `session.` prefix of conditions, which no
  memory event carries;
- `yaml-tagged-scalar`: a value Rasa's round-trip reader keeps as a tagged object, not text.

Figures: agreement over every case, and agreement outside that list (goal 100%).
`--record` writes Rasa's verdicts, with its version, to `tests/data/rasa_oracle/scenarios.json.gz`,
which `tests/test_rasa_recorded_scenarios.py` replays against casegen without Rasa.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import RECORDED, RasaEnv, call
from .scenario_cases import (
    CALM,
    ENVIRON,
    SESSION,
    TAGGED,
    UNSET,
    Case,
    fingerprint,
    generate,
)

RUN_RAISES = "rasa-run-raises"
RECORDING = RECORDED / "scenarios.json.gz"
"""Gzipped: about 1 MB of JSON (one line per case), 65 kB stored."""
STRICTER_RULES = {
    RUN_RAISES: "Rasa loads it, and its assertion engine then raises on it: the run fails",
    CALM: "a CALM assertion: a Mantle run never records its events, so it can never pass",
    SESSION: "`session.` is the namespace of conditions in skill prose; memory events name "
    "`<skill>.<key>`, so a check on a `session.` name never matches and the run fails",
    TAGGED: "Rasa's reader keeps the value as a tagged object, not text: where text is "
    "wanted its schema check crashes, elsewhere the object equals no value a run records",
}


@dataclass(frozen=True)
class RasaVerdict:
    """What Rasa did with one case."""

    loads: bool
    error: str = ""
    run_error: str = ""


@dataclass(frozen=True)
class Outcome:
    """One case judged by both sides."""

    case: Case
    rasa: RasaVerdict
    casegen_valid: bool
    casegen_errors: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return self.rasa.loads == self.casegen_valid

    @property
    def stricter_rule(self) -> str:
        """The documented rule that explains casegen refusing what Rasa loads ('' if none)."""
        if not self.rasa.loads or self.casegen_valid:
            return ""
        if self.rasa.run_error:
            return RUN_RAISES
        return self.case.rule


@contextmanager
def oracle_environ(
    environ: dict[str, str] = ENVIRON, unset: tuple[str, ...] = UNSET
) -> Iterator[None]:
    """The environment the cases are judged in: `environ` set, `unset` unset."""
    saved = {name: os.environ.get(name) for name in (*environ, *unset)}
    os.environ.update(environ)
    for name in unset:
        os.environ.pop(name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def casegen_verdicts(
    cases: list[Case], environ: dict[str, str] = ENVIRON, unset: tuple[str, ...] = UNSET
) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """casegen's schema-level verdict on each case (`validate --no-project --dialect mantle`)."""
    from evalcore.validation import ProjectCache, validate_file

    class _NoProject(ProjectCache):
        def for_file(self, path: Path, dialect: object) -> None:  # type: ignore[override]
            return None

    verdicts: dict[str, tuple[bool, tuple[str, ...]]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="casegen-oracle-") as folder,
        oracle_environ(environ, unset),
    ):
        projects = _NoProject()
        for case in cases:
            path = Path(folder) / f"{case.id}.yml"
            path.write_bytes(case.text.encode("utf-8"))
            report = validate_file(path, projects=projects, dialect="mantle", explicit=True)
            assert report is not None  # a named file is always reported
            errors = tuple(
                f"{f.path or '/'}: {f.message}" for f in report.findings if f.severity == "error"
            )
            verdicts[case.id] = (not errors, errors)
    return verdicts


def rasa_verdicts(env: RasaEnv, cases: list[Case]) -> tuple[str, dict[str, RasaVerdict]]:
    """Rasa's version and its verdict on each case."""
    payload = {
        "cases": [{"id": c.id, "text": c.text} for c in cases],
        "environ": ENVIRON,
        "unset": list(UNSET),
    }
    answer = call(env, "load_scenarios.py", payload)
    return answer["version"], {
        key: RasaVerdict(value["loads"], value["error"], value["run_error"])
        for key, value in answer["results"].items()
    }


def compare(
    cases: list[Case],
    rasa: dict[str, RasaVerdict],
    environ: dict[str, str] = ENVIRON,
    unset: tuple[str, ...] = UNSET,
) -> list[Outcome]:
    ours = casegen_verdicts(cases, environ, unset)
    return [Outcome(c, rasa[c.id], *ours[c.id]) for c in cases]


def report(outcomes: list[Outcome], version: str) -> int:
    """Print the figures and every disagreement; 1 when agreement outside the list < 100%."""
    agree = sum(o.agrees for o in outcomes)
    stricter = [o for o in outcomes if not o.agrees and o.stricter_rule]
    wrong = [o for o in outcomes if not o.agrees and not o.stricter_rule]
    outside = len(outcomes) - len(stricter)
    print(f"cases: {len(outcomes)} (Rasa {version} loads {sum(o.rasa.loads for o in outcomes)})")
    print(f"agreement with load_scenario: {agree}/{len(outcomes)}")
    by_rule = Counter(o.stricter_rule for o in stricter)
    print(
        f"casegen deliberately stricter: {len(stricter)} "
        + ", ".join(f"{rule} {n}" for rule, n in sorted(by_rule.items()))
    )
    print(f"agreement outside the stricter list: {outside - len(wrong)}/{outside} (goal 100%)")
    for o in wrong:
        side = "Rasa refuses, casegen accepts" if o.rasa.loads is False else "casegen refuses"
        print(f"  DISAGREE {o.case.id} [{o.case.probe}]: {side}")
        print("    " + o.case.text.replace("\n", "\n    ").rstrip())
        if o.rasa.error:
            print(f"    Rasa: {o.rasa.error[:240]}")
        for error in o.casegen_errors[:3]:
            print(f"    casegen: {error[:240]}")
    return 1 if wrong else 0


def write_recording(outcomes: list[Outcome], version: str, cases: list[Case]) -> Path:
    """Write Rasa's verdicts (only Rasa's: casegen is judged when the recording is replayed)."""
    data = {
        "rasa_version": version,
        "recorded_by": "python -m benchmarks rasa-oracle scenarios --record",
        "environ": ENVIRON,
        "unset": list(UNSET),
        "fingerprint": fingerprint(cases),
        "stricter_rules": STRICTER_RULES,
        "cases": [
            {
                "id": o.case.id,
                "probe": o.case.probe,
                "rule": o.case.rule,
                "text": o.case.text,
                "loads": o.rasa.loads,
                "error": o.rasa.error,
                "run_error": o.rasa.run_error,
            }
            for o in outcomes
        ],
    }
    RECORDING.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({k: v for k, v in data.items() if k != "cases"}, ensure_ascii=False)]
    body = ",\n".join(json.dumps(c, ensure_ascii=False) for c in data["cases"])
    text = lines[0][:-1] + ', "cases": [\n' + body + "\n]}\n"
    temporary = RECORDING.with_name(RECORDING.name + ".tmp")
    with temporary.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(text.encode("utf-8"))  # mtime 0: the same verdicts give the same bytes
    temporary.replace(RECORDING)
    return RECORDING


def load_recording(path: Path = RECORDING) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return json.load(stream)


def recorded_outcomes(data: dict[str, Any]) -> list[Outcome]:
    """The recorded Rasa verdicts judged against casegen as it is now."""
    cases = [Case(c["id"], c["text"], c["probe"], c["rule"]) for c in data["cases"]]
    rasa = {c["id"]: RasaVerdict(c["loads"], c["error"], c["run_error"]) for c in data["cases"]}
    return compare(cases, rasa, data["environ"], tuple(data["unset"]))


def main(env: RasaEnv, only: list[str] | None = None, record: bool = False) -> int:
    """Run every generated case through both sides; the number of goals missed."""
    cases = generate()
    if only:
        cases = [c for c in cases if any(text in c.probe for text in only)]
    version, rasa = rasa_verdicts(env, cases)
    outcomes = compare(cases, rasa)
    missed = report(outcomes, version)
    if record:
        if only:
            print("not recorded: --only chose a subset")
        else:
            written = write_recording(outcomes, version, cases)
            print(f"recorded {written.relative_to(RECORDED.parents[2])}")
    return missed
