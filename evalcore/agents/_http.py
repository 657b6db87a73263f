"""`http:URL`: an agent speaking casegen's JSON protocol over HTTP (docs/agent-protocol.md §4).

One POST per turn, keyed by a fresh session id per run; a last POST with `"close": true` ends
the session and returns the `FinalRecord`. This is what Anychat cases usually run against.
"""

from __future__ import annotations

from typing import Any

import httpx

from ._errors import AgentTimeout
from ._httpio import DEFAULT_TIMEOUT_S, Deadline, make_client, request_json
from ._procs import exec_settings
from ._protocol import AgentReply, FinalRecord, UserTurn
from ._wire import case_slug, close_request, new_session_id, parse_final, parse_reply, turn_request

#: The close request after a timed-out turn: the server already missed one deadline.
CLOSE_AFTER_TIMEOUT_S = 5.0

_HINT = (
    "is the agent running? `http:` targets take casegen's JSON protocol (docs/agent-protocol.md §4)"
)


class HttpSession:
    """One conversation with an HTTP agent."""

    def __init__(
        self,
        url: str,
        case: str,
        run: int,
        client: httpx.AsyncClient,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_bytes: int,
    ) -> None:
        self.url = url
        self.case = case
        self.run = run
        self.session_id = new_session_id()
        self._client = client
        self._last_state: dict[str, Any] = {}
        self._timeout_s = timeout_s
        self._max_bytes = max_bytes
        self._timed_out: Deadline | None = None

    async def send(self, turn: UserTurn) -> AgentReply:
        body = turn_request(self.session_id, self.case, self.run, turn)
        deadline = Deadline(self._timeout_s)  # one for the whole turn, however it trickles
        try:
            data = await request_json(
                self._client,
                "POST",
                self.url,
                body=body,
                what=f"{turn.type} turn",
                hint=_HINT,
                deadline_s=deadline.seconds,
                max_bytes=self._max_bytes,
            )
        except AgentTimeout:
            self._timed_out = deadline
            raise
        reply = parse_reply(data, where=f"{self.url} ({turn.type} turn)")
        if reply.state:
            self._last_state = reply.state
        return reply

    async def close(self) -> FinalRecord:
        # After a timed-out turn the close gets a short fixed time, not a fresh full one.
        limit = self._timeout_s if self._timed_out is None else CLOSE_AFTER_TIMEOUT_S
        try:
            data = await request_json(
                self._client,
                "POST",
                self.url,
                body=close_request(self.session_id, self.case, self.run),
                what="closing the session",
                hint=_HINT,
                deadline_s=min(limit, self._timeout_s),
                max_bytes=self._max_bytes,
            )
        finally:
            await self._client.aclose()
        record = parse_final(data, where=f"{self.url} (close)", last_state=self._last_state)
        meta = {"conversation_id": self.session_id, **record.meta}
        return record.model_copy(update={"meta": meta})


class HttpTarget:
    """`http:URL`; opens one `HttpSession` per run."""

    def __init__(
        self,
        spec: str,
        url: str,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        transport: httpx.AsyncBaseTransport | None = None,
        max_output_bytes: int | None = None,
    ) -> None:
        self.spec = spec
        self.url = url
        self.timeout_s = timeout_s
        """One overall limit per turn (and per close), however slowly the server answers."""
        self.max_output_bytes = max_output_bytes
        """Reply cap; None: `max_output_bytes` in the settings, else 1 MiB."""
        self._transport = transport

    async def open(self, case: Any, run_index: int) -> HttpSession:
        cap = self.max_output_bytes
        if cap is None:
            cap, _ = exec_settings(getattr(case, "path", None) or None)
        client = make_client(self.timeout_s, self._transport)
        return HttpSession(
            self.url,
            case_slug(case),
            run_index,
            client,
            timeout_s=self.timeout_s,
            max_bytes=cap,
        )


__all__ = ["HttpSession", "HttpTarget"]
