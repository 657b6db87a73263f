"""A Mantle draft played in-process against the reference agent and its path's mutants.

    verdict = await verify_mantle(data, env)

1. The draft is played (offline simulator, no judge: criteria are left unjudged) against
   `mantle:<project>`. A case the reference agent fails is one no correct agent passes:
   the model revises it with the failing assertions and the transcript (when one is
   configured), else the run's own record corrects the failing assertions or removes one
   (`_verify_fix.py`); the result must pass validation and the review rules again and is
   played again. A case still failing, or one that would lose more than one assertion or a
   happy path's completion, is dropped with the reason.
2. The passing case is played against the allowed variants on its path
   (`_verify_variants.py`): what the definitions leave to the model, taken the other way.
   An assertion a variant fails is over-specified and is loosened (dropped, or a reply
   turned into a criterion); a case that would lose what it is for is kept as drafted and
   marked `needs-review`.
3. The case is played against every mutant whose fault lies on its path
   (`verify_paths.py`), `env.concurrency` at once. A case that kills none is `weak`.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from evalcore.agents.reference import Mutant, mutants, reached
from evalcore.lexicon.en.run_findings import NOTE_NAMES, expected_event
from evalcore.runcase import RunCase
from evalcore.validation import check_data

from ._prewrite import prewrite
from ._verify_fix import fix_assertions
from ._verify_levers import lever_findings, refused_finding, user_levers
from ._verify_play import Played, compiled, kills, play, reference, run_case
from ._verify_types import Verdict, VerifyEnv
from ._verify_variants import CaseChecks, check_variants
from .verify_paths import pick, read_path, relevant

#: Assertions a deterministic repair may remove. One wrong assertion is a drafting slip;
#: several failing at once mean the case is about a path a correct agent does not take, and
#: removing them all would keep a case about nothing, so it is dropped instead.
MAX_REMOVED = 1


_MUTANTS: dict[int, tuple[Any, list[Mutant]]] = {}


def _mutants(project: Any) -> list[Mutant]:
    """The project's mutants, derived once per loaded project."""
    cached = _MUTANTS.get(id(project))
    if cached is None or cached[0] is not project:
        # an equivalent mutant cannot be killed: it says nothing about a case
        found = [m for m in mutants(project) if m.equivalent is None]
        cached = _MUTANTS[id(project)] = (project, found)
    return cached[1]


async def _play(data: dict[str, Any], env: VerifyEnv, case: RunCase | None = None) -> Played:
    """The reference agent's run of `data` (`case`: its run case, when already read)."""
    case = case or run_case(data, env.path, "mantle")[0]
    return await play(case, reference(env.project), env.project)


def _steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every assertion of `data`, and every step of its sequencing assertions."""
    out: list[dict[str, Any]] = []
    for item in ((data.get("scenario") or {}).get("goals") or {}).get("assertions") or []:
        if isinstance(item, dict):
            out += [item, *(s for s in item.get("sequencing") or [] if isinstance(s, dict))]
    return out


def _point(data: dict[str, Any]) -> set[str]:
    """What the case is for, as its assertions say it: a happy path's completed skills, and
    the tool failures any case asserts (`is_error: true`). A repair that takes one away
    turns the case into another one (a failure case into a success), so it is refused."""
    happy = (data.get("scenario") or {}).get("type") == "happy_path"
    found: set[str] = set()
    for step in _steps(data):
        done = step.get("skill_completed")
        if happy and isinstance(done, dict) and done.get("skill_id"):
            found.add(f"that {done['skill_id']} completes")
        ran = step.get("tool_executed")
        if isinstance(ran, dict) and ran.get("is_error") is True and ran.get("tool_name"):
            found.add(f"that {ran['tool_name']} fails")
    return found


def _reviewed(
    data: dict[str, Any], env: VerifyEnv, original: dict[str, Any] | None = None
) -> tuple[dict[str, Any] | None, str | None]:
    """`data` after the review fixes, or None and why it cannot be written. A repair that
    takes away what the case is for (`_point`: a happy path's "the task completed", a
    failure case's failure) would leave it asserting another case, so that repair is
    refused (the case is dropped, or written for review, instead)."""
    if original is not None:
        lost = _point(original) - _point(data)
        if lost:
            return None, f"the case must still assert {' and '.join(sorted(lost))}"
    errors = [f for f in check_data(data, env.dialect, env.project) if f.severity == "error"]
    if not errors:
        # criteria reach verification reviewed (a plan's compound one split before, a
        # model's kept whole): a repair's review never cuts them at "and" again, so the
        # next repair round shows the model its criteria as it wrote them
        outcome = prewrite(data, "mantle", env.project, model_criteria=True)
        data, errors = outcome.data, outcome.errors
    if errors:
        first = errors[0]
        return None, f"{first.code} at {first.path or '/'}: {first.message}"
    if not ((data.get("scenario") or {}).get("goals") or {}).get("assertions"):
        return None, "no assertion is left that a correct agent passes"
    return data, None


#: Notes that say what the run did, not a doubt that could explain a failure.
_DONE = ("does not say which; asked again",)
#: Notes that can explain only a failing assertion about this event.
_ABOUT = {"completion (no complete_when": "skill_completed"}
#: What a note is about: a skill file, a qualified memory key, a tool.
_NAMED = NOTE_NAMES


def _named(note: str) -> set[str]:
    out: set[str] = set()
    for match in _NAMED.finditer(note.split(" (", 1)[0]):  # not the reason in brackets
        skill, scope, key, tool = match.groups()
        if skill:
            out.add(skill)
        if scope and key and scope not in ("skill", "md"):
            out.add(f"{scope}.{key}")
        if tool:
            out.add(tool)
    return out


def _doubts(notes: list[str], failing: list[dict[str, Any]]) -> list[str]:
    """The notes that could explain the failing assertions: a doubt about a skill's
    completion explains only an expected `skill_completed` of that skill; any other doubt
    one whose expected event names what the note is about (its skill, key or tool); a
    clarifying question explains nothing."""
    text = " ".join(json.dumps(a) for a in failing)
    # what the assertions expected, not what the run recorded instead ("… only for: x, y")
    wanted = " ".join(str(a.get("detail") or "").split(";", 1)[0] for a in failing)
    words = set(re.findall(r"[\w.]+", wanted))
    out = []
    for note in notes:
        if any(done in note for done in _DONE):
            continue
        about = next((event for key, event in _ABOUT.items() if key in note), None)
        if about is not None:
            skills = _named(note) or {r"\w+"}
            expected = (expected_event(about, re.escape(k)) for k in skills)
            if any(pattern.search(text) for pattern in expected):
                out.append(note)
            continue
        named = _named(note)
        if not named or named & words:
            out.append(note)
    return out


async def verify_mantle(data: dict[str, Any], env: VerifyEnv) -> Verdict:
    against = f"mantle:{env.project_label}"
    # read once for the reference run and, unless repaired, every mutant play of the case
    case: RunCase | None = run_case(data, env.path, "mantle")[0]
    record = await _play(data, env, case)
    if record.status == "errored":
        return Verdict("skipped", against, data, reason=f"reference agent errored: {record.error}")
    fixes: list[dict[str, Any]] = []
    if record.status == "failed":
        first_failure = "; ".join(f"{a['type']}: {a['detail']}" for a in record.failing[:2])
        doubts = _doubts(record.notes, record.failing)
        if doubts:
            # The reference agent said it could not read part of the definitions for sure:
            # its failure proves nothing, so the case is kept as drafted, unverified.
            return Verdict(
                "skipped",
                against,
                data,
                reason=f"inconclusive: the reference agent fails it ({first_failure}) but was "
                f"unsure: {doubts[0]}",
                notes=record.notes,
            )
        repaired = await _repair(data, record, env)
        if isinstance(repaired, str):
            why = f"; not repaired: {repaired}" if repaired else ""
            return Verdict(
                "dropped",
                against,
                data,
                reason=f"the reference agent fails it ({first_failure}){why}",
                notes=record.notes,
            )
        data, record, fixes = repaired
        case = None  # the repaired case is read again
    allowed = await check_variants(data, env, record, CaseChecks(_play, _point, _reviewed), case)
    if allowed.changed:
        data, record, case = allowed.data, allowed.record, None
        fixes = [*fixes, *allowed.fixes]
    verdict = Verdict(
        "needs-review" if allowed.review else "repaired" if fixes else "yes",
        against,
        data,
        fixes=fixes,
        reason=allowed.review,
        notes=record.notes,
        variants_played=allowed.played,
        variants_passed=allowed.passed,
    )
    assertions = ((data.get("scenario") or {}).get("goals") or {}).get("assertions")
    path = read_path(record.events, assertions)
    on_path = relevant(_mutants(env.project), path, env.project)
    chosen = pick(on_path, path)
    verdict.on_path = len(on_path)
    verdict.played = [m.id for m in chosen]
    verdict.killed = await _kills(data, chosen, env, record, case)
    if not verdict.killed:
        verdict.weak = True
        verdict.reason = verdict.reason or (
            f"kills none of the {len(chosen)} mutants played on its path"
            if chosen
            else "no mutant lies on its path"
        )
    return verdict


async def _repair(
    data: dict[str, Any], record: Played, env: VerifyEnv
) -> tuple[dict[str, Any], Played, list[dict[str, Any]]] | str:
    """A version of `data` the reference agent passes (model first, then rules), or why
    there is none ("" when the reason is only that the repaired case fails too)."""
    last = ""
    if env.model_repair is not None:
        revised = await _model_rounds(data, record, env)
        if not isinstance(revised, str):
            return revised
        last = revised
    by_rules = await _rules_repair(data, record, env)
    if isinstance(by_rules, str) and last:
        # a model that never converged: its last finding is the reason, not silence
        return "; ".join(r for r in (by_rules, last) if r)
    return by_rules


async def _rules_repair(
    data: dict[str, Any], record: Played, env: VerifyEnv
) -> tuple[dict[str, Any], Played, list[dict[str, Any]]] | str:
    """The run's own record correcting the failing assertions (`_verify_fix`), or why not."""
    fixed, fixes = fix_assertions(data, record.events, record.failing)
    if any(f.get("contradicts") for f in fixes):
        # the agent did not take what the user said: no fix may assert that
        return "the agent keeps another value than the user states"
    if sum(f["after"] is None for f in fixes) > MAX_REMOVED:
        # the case and a correct agent disagree on its path, not on a detail
        return f"more than {MAX_REMOVED} assertion would go"
    candidate, why = _reviewed(fixed, env, data)
    if candidate is None or not fixes:
        return why or ""
    replay = await _play(candidate, env)
    if replay.status != "passed":
        return ""
    return candidate, replay, fixes


async def _model_rounds(
    data: dict[str, Any], record: Played, env: VerifyEnv
) -> tuple[dict[str, Any], Played, list[dict[str, Any]]] | str:
    """Up to `env.repair_rounds` model revisions, each shown the findings of the play
    before it (`_verify_levers`): the first the reference agent passes is kept; else the
    last round's finding, in words, for the report."""
    assert env.model_repair is not None
    shown, findings, last = data, lever_findings(record), ""
    for n in range(1, env.repair_rounds + 1):
        revised = await env.model_repair(shown, findings)
        if revised is None:
            last = f"model repair round {n} of {env.repair_rounds} gave no revision"
            continue
        candidate, why = _reviewed(revised, env, data)
        if candidate is None:
            # the same findings again, with why this revision could not be written
            kept = [f for f in findings if f.code != "repair-refused"]
            findings = [*kept, refused_finding(str(why))]
            last = f"model repair round {n} was refused: {why}"
            continue
        replay = await _play(candidate, env)
        if replay.status == "passed":
            codes = sorted({a["type"] for a in record.failing})
            fix = {
                "code": "verify:model",
                "path": "",
                "before": None,
                "after": None,
                "reason": "the model revised what the reference agent failed: "
                + ", ".join(codes)
                + f" (round {n} of at most {env.repair_rounds})",
                "by": "model",
            }
            return candidate, replay, [fix]
        if replay.status != "failed":
            last = f"model repair round {n}: the reference agent errored: {replay.error}"
            continue
        shown, findings = candidate, lever_findings(replay)
        last = f"after model repair round {n}, {_still(record, replay)}"
    return last


def _still(before: Played, after: Played) -> str:
    """What a repaired play still fails, in words: the failures when they changed, and
    the first lever the simulated user's side shows (`_verify_levers.user_levers`)."""

    def failing(record: Played) -> str:
        return "; ".join(f"{a['type']}: {a['detail']}" for a in record.failing[:2])

    now = failing(after)
    said = [now if now != failing(before) else "the same assertions still fail"]
    return "; ".join(said + user_levers(after)[:1])


async def _kills(
    data: dict[str, Any],
    chosen: list[Mutant],
    env: VerifyEnv,
    passing: Played,
    case: RunCase | None = None,
) -> list[str]:
    """The mutants the case kills (fails against), `env.concurrency` plays at once.

    `passing` is the reference agent's passing run of this same case (`case`: its run
    case): a mutant none of whose fault sites that run passed would play it move for move
    (`_reach.py`), so it passes too and is not played."""
    gate = asyncio.Semaphore(env.concurrency)
    case = case or run_case(data, env.path, "mantle")[0]  # read once: a play only reads it
    # read once for all the case's mutant plays (its reference run read them already)
    checks = passing.checks if passing.checks is not None else compiled(case.checks or [])
    defs = env.project.mantle
    if passing.reached is not None and defs is not None:
        chosen = [m for m in chosen if reached(m, passing.reached, defs)]

    async def one(mutant: Mutant) -> str | None:
        async with gate:
            target = reference(env.project, mutant)
            killed = await kills(case, target, env.project, passing, checks)
        return mutant.id if killed else None

    found = await asyncio.gather(*(one(m) for m in chosen))
    return [m for m in found if m is not None]


__all__ = ["verify_mantle"]
