"""The model's corrections to the plan: small edits, each with the definition line behind it.

Plan refinement may propose, per planned behaviour, a correction to its case (a missing fact,
a value from the project's data, a better opener, a neutral intent, an added or removed
assertion, a corrected criterion) as a `PlanEdit`: an operation, its target (the behaviour's
id), a value and the definition line that justifies it (`{file, line, quote}`). The model
never re-types the plan; code decides what of its edits to keep:

- at plan refinement (`attach_edits`): the target must be a planned behaviour, the quote
  must stand in that file of the project (`quote_refusal`), and a value with a digit (an
  id, a code, a date) must be one the quoted line holds: the model does not invent data;
- at drafting (`apply_edits`): each edit is applied to a copy of the planned case (by the
  dialect's planned drafting module, `apply_edit`), and kept only when the copy passes
  validation with no new error, an added assertion is justified by the definitions
  (`Dialect.justify`: enforced or instructed) and an added or replaced criterion backed by
  some definition element, and the caller's check (`verify`: in
  `generate`, that the copy keeps what the case is for, and verification by the reference
  agent with its allowed variants and mutants) passes it; a removed assertion must be one
  the definitions leave to chance (an enforced or instructed one is what every correct
  agent produces, so the model may not take it back).

Each edit ends `accepted` or `refused` with the reason; the generate report lists them per
case (`cases[].edits`).
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from evalcore.definitions import Project
from evalcore.dialects import get_dialect, load_entry
from evalcore.validation import check_data

from ...planning import Behavior

log = logging.getLogger("casegen.llm")

#: The operations an edit may make, on one planned case.
EDIT_OPS = (
    "set_fact",
    "set_opener",
    "set_intent",
    "add_assertion",
    "remove_assertion",
    "add_criterion",
    "remove_criterion",
    "replace_criterion",
)
#: Cap on the edits kept per answer, so one answer cannot flood the plan.
MAX_EDITS = 24
#: What verifying one edit answers: None when the edited case passes where the case before
#: it did, else the whole reason it is refused (`DraftContext.verify_edit`).
EditVerifier = Callable[[dict[str, Any], dict[str, Any]], Awaitable[str | None]]


class EditQuote(BaseModel):
    """The definition line that justifies an edit."""

    model_config = ConfigDict(extra="ignore")

    file: str = ""
    line: int = 0
    quote: str = ""


# Loosely typed on purpose (an unknown op is refused with its reason, not a failed answer);
# a comment, not the docstring: the docstring is the schema's description, sent every call.
class PlanEdit(BaseModel):
    """A correction to one planned case, justified by a definition line."""

    model_config = ConfigDict(extra="ignore")

    op: str = Field(description="One of " + ", ".join(EDIT_OPS))
    target: str = ""
    at: str = Field(default="", description="A fact's label, or an item's index")
    value: Any = None
    justification: EditQuote | None = None


class EditRefused(ValueError):
    """An edit that cannot be applied to the planned case (the message says why)."""


def attach_edits(
    project: Project, dialect: str, behaviors: list[Behavior], edits: list[PlanEdit]
) -> list[Behavior]:
    """`behaviors` with each proposed edit on its target, `proposed` or `refused` with the
    reason (see the module); an edit whose target is no planned behaviour is logged."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    planned = {b.id for b in behaviors}
    takes = _takes_edits(dialect)
    for edit in edits[:MAX_EDITS]:
        if edit.target not in planned:
            log.info("plan edit %s refused: no planned behaviour %r", edit.op, edit.target)
            continue
        reason = _plan_refusal(project, edit) if takes else "this dialect takes no plan edits"
        record = edit.model_dump(mode="json")
        record |= {"status": "refused", "reason": reason} if reason else {"status": "proposed"}
        by_id.setdefault(edit.target, []).append(record)
    return [
        b.model_copy(update={"edits": [*b.edits, *by_id[b.id]]}) if b.id in by_id else b
        for b in behaviors
    ]


def _takes_edits(dialect: str) -> bool:
    entry = get_dialect(dialect).planned_drafting
    return bool(entry) and hasattr(load_entry(entry), "apply_edit")


def _plan_refusal(project: Project, edit: PlanEdit) -> str | None:
    """Why `edit` is refused before drafting (None: it goes on to drafting's checks)."""
    if edit.op not in EDIT_OPS:
        return f"unknown op {edit.op!r}"
    reason = quote_refusal(project.root, edit.justification)
    if reason:
        return f"unjustified: {reason}"
    assert edit.justification is not None
    if edit.op == "set_fact":
        value = str(edit.value or "")
        if any(c.isdigit() for c in value) and normal(value) not in normal(
            edit.justification.quote
        ):
            return (
                f"unjustified: the value {value!r} (an id, a code, a date) is not in the "
                "quoted line: a fact's value comes from the project's data"
            )
    return None


def quote_refusal(root: Path, quote: EditQuote | None) -> str | None:
    """Why `quote` does not justify an edit: no quote, a file outside the project or not in
    it, or words the file does not hold (compared after normalising case, punctuation and
    spacing; a quote may run on over the next lines). A wrong line number is corrected to
    where the words stand, so the record names the real line."""
    if quote is None or len(normal(quote.quote).split()) < 2:
        return "no definition line quoted"
    base = root.resolve()
    path = (base / quote.file).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        return f"no file {quote.file!r} in the project"
    lines = path.read_text("utf-8", errors="replace").splitlines()
    wanted = normal(quote.quote)
    order = [quote.line - 1] if 0 < quote.line <= len(lines) else []
    order += [n for n in range(len(lines)) if n != quote.line - 1]
    for n in order:
        if wanted in normal(" ".join(lines[n : n + 4])) and _starts_on(wanted, lines[n]):
            quote.line = n + 1
            return None
    return f"{quote.file} does not hold the quoted words"


def _starts_on(wanted: str, line: str) -> bool:
    """Whether the quoted words begin on `line` (not only on a line after it)."""
    first = wanted.split()[0]
    return first in normal(line).split()


async def apply_edits(
    project: Project,
    dialect: str,
    behavior: Behavior,
    module: ModuleType,
    document: dict[str, Any],
    *,
    accepted: tuple[dict[str, Any], ...] | None = None,
    verify: EditVerifier | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The planned `document` with the behaviour's proposed edits that pass the checks
    (see the module), and each edit's record with its outcome. `accepted`: the edits a
    draft of the case already accepted (a repair re-applies those, without judging them
    again, in place of the behaviour's)."""
    records = list(behavior.edits) if accepted is None else list(accepted)
    if not records or not hasattr(module, "apply_edit"):
        return document, records
    current = document
    outcomes: list[dict[str, Any]] = []
    for record in records:
        if record.get("status") == "refused":
            outcomes.append(record)
            continue
        edit = PlanEdit.model_validate(record)
        try:
            trial = module.apply_edit(current, edit, behavior=behavior)
            if accepted is None:
                await _judge(project, dialect, current, trial, edit, verify)
        except EditRefused as exc:
            outcomes.append(record | {"status": "refused", "reason": str(exc)})
            continue
        current = trial
        outcomes.append(record | {"status": "accepted"})
    return current, outcomes


async def _judge(
    project: Project,
    dialect: str,
    before: dict[str, Any],
    after: dict[str, Any],
    edit: PlanEdit,
    verify: EditVerifier | None,
) -> None:
    """Raises `EditRefused` with the reason when `after` fails a check `before` passes."""
    lang = get_dialect(dialect)
    known = {_key(f) for f in check_data(before, lang, project) if f.severity == "error"}
    new = [
        f
        for f in check_data(after, lang, project)
        if f.severity == "error" and _key(f) not in known
    ]
    if new:
        first = new[0]
        raise EditRefused(f"fails validation: {first.code} at {first.path or '/'}: {first.message}")
    path = _written(after, edit)
    if path and lang.justifies:
        tops = [j for j in lang.justify(after, project) if j.top and j.path == path]
        why = tops[0].comment() if tops else "no definition element found"
        if edit.op == "add_assertion" and not (tops and tops[0].assertable):
            raise EditRefused(f"unjustified: the added assertion ({why})")
        if edit.op != "add_assertion" and not (tops and tops[0].justification):
            raise EditRefused(f"unjustified: no definition element backs the criterion ({why})")
    if verify is not None:
        reason = await verify(copy.deepcopy(before), copy.deepcopy(after))
        if reason:
            raise EditRefused(reason)
    if edit.op == "remove_assertion" and lang.justifies:
        # an assertion the definitions make certain is what every correct agent produces:
        # the model may take back only one they leave to chance (conditional, unbacked)
        at = f"/scenario/goals/assertions/{str(edit.at).strip()}"
        held = [j for j in lang.justify(before, project) if j.top and j.path == at]
        if held and held[0].assertable:
            raise EditRefused(
                f"the definitions back the removed assertion ({held[0].comment()}): "
                "every correct agent produces it"
            )


def _written(data: dict[str, Any], edit: PlanEdit) -> str | None:
    """The pointer of the assertion or criterion `edit` wrote (None: it wrote neither)."""
    goals = data["scenario"].get("goals") or {}
    if edit.op == "add_assertion":
        return f"/scenario/goals/assertions/{len(goals.get('assertions') or []) - 1}"
    if edit.op == "add_criterion":
        return f"/scenario/goals/criteria/{len(goals.get('criteria') or []) - 1}"
    if edit.op == "replace_criterion":
        return f"/scenario/goals/criteria/{int(str(edit.at).strip())}"
    return None


def _key(finding: Any) -> tuple[str, str, str]:
    return (finding.code, finding.path or "", finding.message)


def normal(text: Any) -> str:
    """Lower-case words only: how a quote and a value are compared with the definitions."""
    return " ".join(_NOT_WORD.sub(" ", str(text).casefold()).split())


_NOT_WORD = re.compile(r"[\W_]+")


def edit_summary(outcomes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The report's view of a case's edits: op, where, value, the line behind it, outcome."""
    keys = ("op", "at", "value", "justification", "status", "reason")
    return [{k: o.get(k) for k in keys if o.get(k) not in (None, "")} for o in outcomes]


__all__ = [
    "EDIT_OPS",
    "EditQuote",
    "EditRefused",
    "EditVerifier",
    "PlanEdit",
    "apply_edits",
    "attach_edits",
    "edit_summary",
    "normal",
    "quote_refusal",
]
