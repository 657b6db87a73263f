"""What the judge reads: a turn-anchored transcript and event ledger (reference §4).

The ledger is the judge's evidence of what the agent *did*, as opposed to what it *said*:
one line per meaningful event, prefixed `[Tn]` with the user turn it happened in, so a
reason can point at the turn. Bot texts and user messages are left to the transcript;
`action_listen` and other bookkeeping is dropped, so the ledger stays short.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..simulator import Utterance

#: Events that carry no evidence beyond the transcript.
_SKIPPED = {"user", "action_listen", "user_featurization", "restart"}
_LIMIT = 240
#: Result keys and values by which a tool that returned says that it failed.
_ERROR_KEYS = ("error", "errors", "error_message")
_ERROR_STATUS = {"error", "failed", "failure", "fail"}


def render_transcript(utterances: Sequence[Utterance]) -> str:
    """`[Tn] user: …` / `[Tn] agent: …` lines; `(empty conversation)` when there are none."""
    if not utterances:
        return "(empty conversation)"
    return "\n".join(f"[T{u.turn}] {u.role}: {u.text or '(no text)'}" for u in utterances)


def ledger_lines(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """One `[Tn] …` line per meaningful event; a turn starts at each `user` event."""
    lines: list[str] = []
    turn = 0
    for event in events:
        kind = str(event.get("event", ""))
        if kind == "user":
            turn += 1
        line = _line(kind, event)
        if line:
            lines.append(f"[T{turn}] {line}")
    return lines


def render_ledger(events: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(ledger_lines(events)) or "(no events recorded)"


def tool_status(result: Any, *, is_error: bool, error_message: str | None = None) -> str:
    """`ok`, `ok (empty)`, `ok (reports error)` or `ERROR[: message]`."""
    if is_error:
        return f"ERROR: {_short(error_message, 120)}" if error_message else "ERROR"
    if result is None or result == "" or result == {} or result == []:
        return "ok (empty)"
    if _reports_error(result):
        return "ok (reports error)"
    return "ok"


def _line(kind: str, event: Mapping[str, Any]) -> str | None:
    if kind in _SKIPPED:
        return None
    if kind.startswith("skill_"):
        return f"{kind} {event.get('skill_id')}{_step(event)}"
    if kind.startswith("ordered_block_"):
        return f"{kind} {event.get('skill_id')}/{event.get('block_id')}{_step(event)}"
    if kind == "memory_set":
        return f"memory_set {event.get('key')} = {_short(_json(event.get('value')), 120)}"
    if kind == "memory_cleared":
        return f"memory_cleared {event.get('key')}"
    if kind == "slot":
        return f"slot {event.get('name')} = {_short(_json(event.get('value')), 120)}"
    if kind == "bot":
        utter = (event.get("metadata") or {}).get("utter_action")
        return f"action: {utter}" if utter else None
    if kind == "action":
        name = event.get("name")
        return None if name in _SKIPPED or not name else f"action: {name}"
    if kind in ("tool_executed", "tool_called"):
        return _tool(event)
    return _generic(kind, event)


def _tool(event: Mapping[str, Any]) -> str:
    name = event.get("tool_name") or event.get("name") or event.get("tool") or "?"
    if event.get("source") == "mcp" and event.get("mcp_server"):
        name = f"{event['mcp_server']}:{name}"
    args = event.get("arguments", event.get("args")) or {}
    shown = (
        ", ".join(f"{k}={_json(v)}" for k, v in args.items())
        if isinstance(args, Mapping)
        else _json(args)
    )
    status = tool_status(
        event.get("result"),
        is_error=bool(event.get("is_error") or event.get("error") is True),
        error_message=event.get("error_message"),
    )
    return f"tool: {name}({_short(shown, 160)}) → {status}"


def _generic(kind: str, event: Mapping[str, Any]) -> str:
    rest = {k: v for k, v in event.items() if k not in ("event", "timestamp", "metadata")}
    return f"{kind} {_short(_json(rest), 160)}" if rest else kind


def _reports_error(result: Any) -> bool:
    if isinstance(result, Mapping):
        if any(result.get(key) for key in _ERROR_KEYS):
            return True
        status = result.get("status")
        if isinstance(status, str) and status.lower() in _ERROR_STATUS:
            return True
        return result.get("success") is False or result.get("ok") is False
    if isinstance(result, str):
        return result.strip().lower().startswith("error")
    return False


def _step(event: Mapping[str, Any]) -> str:
    step = event.get("step_id")
    return f" (step {step})" if step else ""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=False)


def _short(text: Any, limit: int = _LIMIT) -> str:
    value = " ".join(str(text).split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


__all__ = ["ledger_lines", "render_ledger", "render_transcript", "tool_status"]
