"""Model refinement of a rules diagnosis (only when a model is configured).

The rules are cheap and explainable but literal; a model reads the transcript the way a
person would. It sees the rules' verdict and evidence and may change the bucket, the turn and
the fix, with one exception: deterministic Tool evidence (a tool that ran with an error) is
never overridden, since a broken tool is a fact in the ledger, not an interpretation.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, Field

from evalcore.llm import ModelConfig, ResponseCache
from evalcore.prompts import render_prompt

from ._facts import Facts
from ._rules import Diagnosis, Evidence

PROMPT = "triage/triage"
#: Below this the model's answer is shown as a note but does not replace the rules' verdict.
MIN_CONFIDENCE = 0.5
_LIMIT = 12_000


class TriageAnswer(BaseModel):
    """What the model returns (structured output)."""

    bucket: Literal["Skill", "Instruction", "Scenario", "Tool"]
    turn: int | None = Field(default=None, ge=0)
    fix: str
    reason: str = ""
    confidence: float = Field(ge=0, le=1)


def render(facts: Facts, diagnosis: Diagnosis) -> list[tuple[str, str]]:
    record, case = facts.record, facts.case
    case_text = json.dumps(
        {
            "name": record.case,
            "slug": record.slug,
            "path": str(case.path or ""),
            "case": case.document or None,
        },
        indent=2,
        ensure_ascii=False,
        default=str,
    )
    failed = (
        "\n".join(
            e.text
            for e in [*diagnosis.evidence, *diagnosis.notes]
            if e.kind in ("assertion", "criterion")
        )
        or "(no failed check recorded)"
    )
    transcript = "\n".join(f"[T{ln.turn}] {ln.role}: {ln.text}" for ln in record.transcript)
    ledger = "\n".join(
        f"{e.where()} {e.describe()}"
        for e in record.events
        if e.type not in ("action", "slot", "session_started")
    )
    rules = json.dumps(
        {
            "bucket": diagnosis.bucket,
            "turn": diagnosis.turn,
            "rule": diagnosis.rule,
            "evidence": [e.text for e in diagnosis.evidence],
            "fix": diagnosis.fix,
        },
        indent=2,
        ensure_ascii=False,
    )
    return render_prompt(
        PROMPT,
        case=_cut(case_text),
        failed=_cut(failed),
        transcript=_cut(transcript or "(none recorded)"),
        ledger=_cut(ledger or "(none recorded)"),
        definitions=_cut(_definitions(facts)),
        rules=rules,
    ).messages


def _definitions(facts: Facts) -> str:
    project = facts.case.project
    mantle = project.mantle if project is not None else None
    if mantle is None:
        return "(no project definitions found)"
    parts = []
    for skill_id in facts.expected_skills[:2]:
        skill = mantle.skills.get(skill_id)
        if skill is not None:
            parts.append(
                f"## {skill.path}/skill.md\ndescription: {skill.description}\n\n{skill.body}"
            )
    routing = "\n".join(
        f"- {s.id}: {' '.join((s.description or '').split())}" for s in mantle.skills.values()
    )
    return "\n\n".join([*parts, "## every skill's description\n" + routing])


def _cut(text: str) -> str:
    return text if len(text) <= _LIMIT else text[:_LIMIT] + "\n… (cut)"


async def refine(
    facts: Facts, diagnosis: Diagnosis, config: ModelConfig, *, no_cache: bool = False
) -> Diagnosis:
    """The diagnosis after the model's review (raises `evalcore.llm.LLMError` on failure)."""
    # start-up: langchain_core, langchain_openai, langsmith and 11 casegen modules
    from evalcore.llm import make_chat_model, structured_call

    result = await structured_call(
        make_chat_model(config),
        render(facts, diagnosis),
        TriageAnswer,
        config=config,
        cache=ResponseCache(config.cache_dir),
        no_cache=no_cache,
        kind="triage",
    )
    return merge(diagnosis, result.value, facts.record.last_turn)


def merge(diagnosis: Diagnosis, answer: TriageAnswer, last_turn: int) -> Diagnosis:
    note = Evidence(
        "model",
        f"model: {answer.bucket} at turn {answer.turn} (confidence {answer.confidence:.2f})"
        + (f": {answer.reason}" if answer.reason else ""),
        answer.turn,
    )
    locked = diagnosis.rule == "tool-error"
    trusted = answer.confidence >= MIN_CONFIDENCE
    if locked or not trusted:
        fix = answer.fix if locked and trusted and answer.bucket == "Tool" else diagnosis.fix
        return replace(diagnosis, evidence=[*diagnosis.evidence, note], fix=fix)
    turn = (
        answer.turn
        if answer.turn is not None and answer.turn <= max(last_turn, 0)
        else (diagnosis.turn)
    )
    return replace(
        diagnosis,
        bucket=answer.bucket,
        turn=turn,
        evidence=[note, *diagnosis.evidence],
        fix=answer.fix,
    )


__all__ = ["MIN_CONFIDENCE", "PROMPT", "TriageAnswer", "merge", "refine", "render"]
