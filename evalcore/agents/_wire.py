"""casegen's JSON agent protocol on the wire: request bodies and reply parsing.

Shared by the `http:` and `python:` targets, which speak the same protocol
(docs/agent-protocol.md §4–5); keeping one parser means both accept exactly the same replies.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, ValidationError

from ._errors import AgentProtocolError
from ._protocol import AgentReply, FinalRecord, UserTurn


def new_session_id(prefix: str = "cg") -> str:
    """A fresh id per run, so concurrent runs of one case never share agent state."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def case_slug(case: Any) -> str:
    return str(getattr(case, "slug", None) or case)


def turn_request(session: str, case: str, run: int, turn: UserTurn) -> dict[str, Any]:
    return {
        "session": session,
        "case": case,
        "run": run,
        "turn": turn.model_dump(mode="json", exclude_none=True),
    }


def close_request(session: str, case: str, run: int) -> dict[str, Any]:
    return {"session": session, "case": case, "run": run, "close": True}


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"]) or "(top level)"
    return f"{where}: {error['msg']}"


def parse_reply(data: Any, *, where: str) -> AgentReply:
    """An `AgentReply` from what the agent returned; `None` or `{}` is an empty reply."""
    if data is None:
        return AgentReply()
    if isinstance(data, AgentReply):
        return data
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if not isinstance(data, dict):
        raise AgentProtocolError(
            f"{where}: expected an AgentReply object, got {type(data).__name__}",
            hint="see docs/agent-protocol.md §1",
        )
    try:
        return AgentReply.model_validate(data)
    except ValidationError as exc:
        raise AgentProtocolError(
            f"{where}: not an AgentReply ({_first_error(exc)})",
            hint="see docs/agent-protocol.md §1",
        ) from None


def parse_final(data: Any, *, where: str, last_state: dict[str, Any]) -> FinalRecord:
    """A `FinalRecord` from the closing answer; an empty state means the last reply's state."""
    if data is None:
        record = FinalRecord()
    elif isinstance(data, FinalRecord):
        record = data
    else:
        if isinstance(data, BaseModel):
            data = data.model_dump()
        if not isinstance(data, dict):
            raise AgentProtocolError(
                f"{where}: expected a FinalRecord object, got {type(data).__name__}",
                hint="see docs/agent-protocol.md §1",
            )
        try:
            record = FinalRecord.model_validate(data)
        except ValidationError as exc:
            raise AgentProtocolError(
                f"{where}: not a FinalRecord ({_first_error(exc)})",
                hint="see docs/agent-protocol.md §1",
            ) from None
    if not record.state and last_state:
        record = record.model_copy(update={"state": dict(last_state)})
    return record


__all__ = [
    "case_slug",
    "close_request",
    "new_session_id",
    "parse_final",
    "parse_reply",
    "turn_request",
]
