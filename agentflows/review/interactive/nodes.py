"""The interactive review's nodes: load → present ⇄ (edit | regenerate) → accept | reject.

`present` is the only node that waits for the reviewer (a LangGraph `interrupt`); it is
re-run from its start when the review resumes, so it only reads the state before it asks.
Every other node runs once per decision and routes with `Command(goto=...)`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from evalcore import read_text
from evalcore.dialects import get_dialect
from evalcore.findings import Finding
from evalcore.justify import redump
from evalcore.validation import validate_document
from evalcore.writer import atomic_write_text

from .._critique import critique_file
from .._records import mark_manifest, write_record
from .._review import Reviewer, load_reviewed, review_peers
from .._revise import NO_MODEL_MESSAGE, ReviseError, revise_case
from .._views import LoadedFile
from .context import ReviewContext
from .state import ACTIONS, CaseItem, ReviewState

Ctx = Runtime[ReviewContext]
Next = Literal["present", "finish"]


# --- load ---------------------------------------------------------------------------------


async def load(state: ReviewState, runtime: Ctx) -> dict[str, Any]:
    """Read every case once, with its findings and review comments (critique too, if set)."""
    ctx = runtime.context
    reviewer = ctx.reviewer(state.get("project"))
    loaded = load_reviewed(reviewer, [Path(p) for p in state["paths"]])
    peers, starts = review_peers(loaded)
    items: list[CaseItem] = []
    for item, start in zip(loaded, starts, strict=True):
        assessed = _assess(reviewer, item, peers, start)
        if ctx.model is not None and item.dialect is not None and item.doc.parsed:
            comments = [Finding.model_validate(c) for c in assessed["comments"]]
            done = await critique_file(ctx.model, item, comments)
            assessed["comments"] += [f.to_json() for f in done.findings]
            assessed["note"] = "; ".join(done.notes) or None
        items.append(
            CaseItem(
                path=str(item.path),
                original=item.doc.text,
                text=item.doc.text,
                changed=False,
                status="pending",
                **assessed,
            )
        )
    record = ctx.reviews_dir / f"{state['review_id']}.json"
    return {"items": items, "index": 0, "decision": None, "record": str(record)}


def _assess(reviewer: Reviewer, item: LoadedFile, peers: list[Any], order: int) -> dict[str, Any]:
    """Dialect, parsed data, validation findings and review comments of one candidate."""
    if item.dialect is None:
        findings = item.doc.findings or [
            Finding(
                code="schema",
                line=1,
                message="cannot tell which dialect this file is",
            )
        ]
        return {
            "dialect": None,
            "data": None,
            "findings": _json(findings),
            "comments": [],
            "note": None,
        }
    findings = validate_document(item.doc, item.dialect, item.project)
    comments = reviewer.comments(item, peers=peers, order=order) if item.doc.parsed else []
    return {
        "dialect": item.dialect.name,
        "data": item.doc.data if item.doc.parsed else None,
        "findings": _json(findings),
        "comments": _json(comments),
        "note": None,
    }


def _reassess(ctx: ReviewContext, state: ReviewState, index: int, text: str) -> dict[str, Any]:
    """Assess a new candidate for case `index`, against the other cases as they stand now."""
    reviewer = ctx.reviewer(state.get("project"))
    items = state["items"]
    others = [
        reviewer.load(Path(other["path"]), text=other["text"], dialect=other["dialect"])
        for i, other in enumerate(items)
        if i != index and other["status"] != "rejected" and other["dialect"]
    ]
    peers, _ = review_peers([o for o in others if o is not None])
    peers = [replace(p, order=None) for p in peers]  # compare with every other case
    candidate = reviewer.load(
        Path(items[index]["path"]), text=text, dialect=items[index]["dialect"]
    )
    assert candidate is not None  # explicit loads always give an item
    return _assess(reviewer, candidate, peers, len(items))


def _on_disk(path: Path) -> str | None:
    """The case file's text now (None when it is gone or is not a readable regular file)."""
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError):
        return None


def _json(findings: list[Finding]) -> list[dict[str, Any]]:
    return [f.to_json() for f in findings]


def route_start(state: ReviewState) -> Next:
    return "present" if state.get("items") else "finish"


# --- present (the interrupt) ----------------------------------------------------------------


async def present(state: ReviewState, runtime: Ctx) -> dict[str, Any]:
    """Show the case and wait for the reviewer's decision."""
    index = state["index"]
    item = state["items"][index]
    errors = sum(f["severity"] == "error" for f in item["findings"])
    answer = interrupt(
        {
            "review_id": state["review_id"],
            "index": index,
            "total": len(state["items"]),
            "path": item["path"],
            "dialect": item["dialect"],
            "text": item["text"],
            "changed": item["changed"],
            "findings": item["findings"],
            "comments": item["comments"],
            "note": item["note"],
            "can_accept": errors == 0,
            "can_regenerate": runtime.context.model is not None,
            "actions": list(ACTIONS),
        }
    )
    decision = answer if isinstance(answer, dict) else {"action": str(answer)}
    action = decision.get("action")
    if action not in ACTIONS:
        return _retry(state, f"unknown action {action!r}; choose one of {', '.join(ACTIONS)}")
    if action == "accept" and errors:
        return _retry(
            state, f"cannot accept: the case has {errors} error(s); edit, regenerate or reject it"
        )
    return {"decision": decision}


def _retry(state: ReviewState, note: str) -> dict[str, Any]:
    return {"items": _with(state, note=note), "decision": {"action": "retry"}}


def route_decision(
    state: ReviewState,
) -> Literal["accept", "reject", "edit", "regenerate", "present"]:
    action = (state.get("decision") or {}).get("action")
    return action if action in ACTIONS else "present"  # type: ignore[return-value]


# --- decisions ------------------------------------------------------------------------------


async def accept(state: ReviewState, runtime: Ctx) -> Command[Next]:
    """Keep the case; write the candidate (canonical form) only if it differs from the file."""
    ctx = runtime.context
    item = state["items"][state["index"]]
    path = Path(item["path"])
    if item["changed"]:
        on_disk = _on_disk(path)
        if on_disk != item["original"]:
            return Command(
                goto="present",
                update={
                    "items": _with(
                        state,
                        note="not written: the file changed on disk since the review loaded "
                        "it; reject, or review it again in a new review",
                    )
                },
            )
        dialect = get_dialect(item["dialect"] or "")
        # a justified case stays justified: its checks' comments follow the edit
        loaded = ctx.reviewer(state.get("project")).load(
            path, text=item["text"], dialect=item["dialect"]
        )
        project = loaded.project if loaded else None
        atomic_write_text(path, redump(dialect, item["data"], project, item["original"]))
    mark_manifest(path, "accepted")
    return _decided(state, ctx, "accepted", reason=None)


async def reject(state: ReviewState, runtime: Ctx) -> Command[Next]:
    """Drop the case: remove its file (git keeps its history) and record why."""
    ctx = runtime.context
    item = state["items"][state["index"]]
    path = Path(item["path"])
    mark_manifest(path, "rejected")
    path.unlink(missing_ok=True)
    reason = str((state.get("decision") or {}).get("reason") or "").strip() or None
    return _decided(state, ctx, "rejected", reason=reason)


def _decided(
    state: ReviewState,
    ctx: ReviewContext,
    status: Literal["accepted", "rejected"],
    *,
    reason: str | None,
) -> Command[Next]:
    index = state["index"]
    item = state["items"][index]
    entry = {
        "path": item["path"],
        "action": status,
        "reason": reason,
        "changed": item["changed"],
        "time": ctx.clock(),
    }
    decisions = [*state.get("decisions", []), entry]
    items = _with(state, status=status, note=None)
    _write_record(state, decisions, "in_progress")
    return Command(
        goto="present" if index + 1 < len(items) else "finish",
        update={"items": items, "index": index + 1, "decisions": [entry], "decision": None},
    )


async def edit(state: ReviewState, runtime: Ctx) -> Command[Next]:
    """Let the reviewer edit a temporary copy; the result is re-validated before it is shown."""
    ctx = runtime.context
    item = state["items"][state["index"]]
    edited = ctx.editor(item["text"], Path(item["path"]).suffix)
    if edited is None or edited == item["text"]:
        return Command(goto="present", update={"items": _with(state, note="no change made")})
    assessed = _reassess(ctx, state, state["index"], edited)
    errors = sum(f["severity"] == "error" for f in assessed["findings"])
    note = "edited: valid" if not errors else f"edited: {errors} error(s); edit again or reject"
    return Command(
        goto="present",
        update={
            "items": _with(
                state,
                **(assessed | {"note": note}),
                text=edited,
                changed=edited != item["original"],
            )
        },
    )


async def regenerate(state: ReviewState, runtime: Ctx) -> Command[Next]:
    """Revise the candidate from the reviewer's comment with the model (as `casegen revise`)."""
    ctx = runtime.context
    item = state["items"][state["index"]]
    comment = str((state.get("decision") or {}).get("comment") or "").strip()
    if ctx.model is None:
        return _note(state, NO_MODEL_MESSAGE.replace("revise", "regenerate", 1))
    if not comment:
        return _note(state, "regenerate needs a comment saying what to change")
    if item["data"] is None or item["dialect"] is None:
        return _note(state, "the case does not parse: edit it instead")
    reviewer = ctx.reviewer(state.get("project"))
    loaded = reviewer.load(Path(item["path"]), text=item["text"], dialect=item["dialect"])
    try:
        revision = await revise_case(
            ctx.model,
            data=item["data"],
            dialect=get_dialect(item["dialect"]),
            comment=comment,
            project=loaded.project if loaded else None,
            path=Path(item["path"]),
        )
    except ReviseError as exc:
        return _note(state, str(exc))
    project = loaded.project if loaded else None
    text = redump(get_dialect(item["dialect"]), revision.data, project, item["original"])
    assessed = _reassess(ctx, state, state["index"], text)
    errors = sum(f["severity"] == "error" for f in assessed["findings"])
    note = f"regenerated from: {comment}" + (f" ({errors} error(s) left)" if errors else "")
    return Command(
        goto="present",
        update={
            "items": _with(
                state,
                **(assessed | {"note": note}),
                text=text,
                changed=text != item["original"],
            )
        },
    )


def _note(state: ReviewState, note: str) -> Command[Next]:
    return Command(goto="present", update={"items": _with(state, note=note)})


def _with(state: ReviewState, **changes: Any) -> list[CaseItem]:
    """The items with the current one updated (state values are never mutated in place)."""
    items = list(state["items"])
    index = state["index"]
    items[index] = CaseItem(**(dict(items[index]) | changes))  # type: ignore[typeddict-item]
    return items


# --- finish ---------------------------------------------------------------------------------


async def finish(state: ReviewState, runtime: Ctx) -> dict[str, Any]:
    """Write the final decision record."""
    _write_record(state, state.get("decisions", []), "complete")
    return {"done": True}


def _write_record(state: ReviewState, decisions: list[dict[str, Any]], status: str) -> None:
    record = state.get("record")
    if not record:
        return
    path = Path(record)
    write_record(
        path.parent,
        state["review_id"],
        {
            "review_id": state["review_id"],
            "started_at": state["started_at"],
            "status": status,
            "paths": state["paths"],
            "decisions": decisions,
        },
    )


__all__ = [
    "accept",
    "edit",
    "finish",
    "load",
    "present",
    "regenerate",
    "reject",
    "route_decision",
    "route_start",
]
