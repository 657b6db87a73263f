"""`http:URL`: an agent speaking casegen's JSON protocol over HTTP (docs/agent-protocol.md §4).

One POST per turn, keyed by a fresh session id per run; a last POST with `"close": true` ends
the session and returns the `FinalRecord`. This is what Anychat cases usually run against.
"""

from __future__ import annotations

from typing import Any

import httpx

from ._httpio import DEFAULT_TIMEOUT_S, make_client, request_json
from ._protocol import AgentReply, FinalRecord, UserTurn
from ._wire import case_slug, close_request, new_session_id, parse_final, parse_reply, turn_request

_HINT = (
    "is the agent running? `http:` targets take casegen's JSON protocol (docs/agent-protocol.md §4)"
)


class HttpSession:
    """One conversation with an HTTP agent."""

    def __init__(self, url: str, case: str, run: int, client: httpx.AsyncClient) -> None:
        self.url = url
        self.case = case
        self.run = run
        self.session_id = new_session_id()
        self._client = client
        self._last_state: dict[str, Any] = {}

    async def send(self, turn: UserTurn) -> AgentReply:
        body = turn_request(self.session_id, self.case, self.run, turn)
        data = await request_json(
            self._client, "POST", self.url, body=body, what=f"{turn.type} turn", hint=_HINT
        )
        reply = parse_reply(data, where=f"{self.url} ({turn.type} turn)")
        if reply.state:
            self._last_state = reply.state
        return reply

    async def close(self) -> FinalRecord:
        try:
            data = await request_json(
                self._client,
                "POST",
                self.url,
                body=close_request(self.session_id, self.case, self.run),
                what="closing the session",
                hint=_HINT,
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
    ) -> None:
        self.spec = spec
        self.url = url
        self.timeout_s = timeout_s
        self._transport = transport

    async def open(self, case: Any, run_index: int) -> HttpSession:
        client = make_client(self.timeout_s, self._transport)
        return HttpSession(self.url, case_slug(case), run_index, client)


__all__ = ["HttpSession", "HttpTarget"]
