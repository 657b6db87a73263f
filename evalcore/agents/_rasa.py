"""`rasa:URL`: a Rasa server run with `--enable-api`, driven the way Rasa's own evals drive it.

Per run (reference/mantle.md §4): a fresh `sim-` sender, `/session_start` with the seed slots
as metadata, the other initial slots as tracker `slot` events, REST turns, and the tracker as
the authoritative event log at the end. Only text reaches a REST channel, so rich turns go as
their fallback text.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from ._errors import AgentError, AgentProtocolError
from ._httpio import DEFAULT_TIMEOUT_S, make_client, request_json
from ._protocol import AgentMessage, AgentReply, FinalRecord, UserTurn

if TYPE_CHECKING:
    from ..definitions import Project

_HINT = (
    "start the agent with `rasa run --enable-api` (the rest channel enabled in integrations.yml)"
)

NO_PROJECT_WARNING = (
    "no project definitions: every bare or `project.` initial slot was sent as session-start "
    "metadata (only project fields with `seed: true` are honoured there)"
)


def seed_field_names(project: Project | None) -> set[str] | None:
    """Project memory fields with `seed: true`; None when no Mantle definitions are known."""
    if project is None or project.mantle is None:
        return None
    return {name for name, field in project.mantle.memory.items() if field.seed}


def split_initial_slots(
    slots: dict[str, Any], seeds: set[str] | None
) -> tuple[dict[str, Any], list[tuple[str, Any]], list[str]]:
    """(session-start metadata, slot events, warnings) for a scenario's `initial_slots`.

    A key goes in the metadata when it names a seed project field, bare or `project.`-prefixed
    (the metadata uses the bare name); without definitions every bare/`project.` key does.
    """
    metadata: dict[str, Any] = {}
    events: list[tuple[str, Any]] = []
    for key, value in slots.items():
        bare = key[len("project.") :] if key.startswith("project.") else key
        is_project_key = "." not in bare
        if is_project_key and (seeds is None or bare in seeds):
            metadata[bare] = value
        else:
            events.append((key, value))
    warnings = [NO_PROJECT_WARNING] if seeds is None and metadata else []
    return metadata, events, warnings


def message_text(turn: UserTurn) -> str:
    """What a REST channel can carry for this turn, or an error naming the turn."""
    if turn.type == "text":
        return turn.text or ""
    if turn.fallback:
        return turn.fallback
    raise AgentError(
        f"a Rasa REST channel takes text only; the turn {turn.as_text()} has no fallback text",
        hint="give the turn a `fallback`, or use a text turn",
    )


def _messages(data: Any, where: str) -> list[AgentMessage]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise AgentProtocolError(f"{where}: expected a list of bot messages, got {data!r:.200}")
    out = []
    for item in data:
        if not isinstance(item, dict):
            raise AgentProtocolError(f"{where}: a bot message is not an object: {item!r:.200}")
        extra = {k: v for k, v in item.items() if k not in {"recipient_id", "text", "buttons"}}
        out.append(
            AgentMessage(
                text=item.get("text") or "", buttons=list(item.get("buttons") or []), **extra
            )
        )
    return out


class RasaSession:
    """One conversation with a Rasa server, under its own `sim-` sender id."""

    def __init__(
        self, url: str, client: httpx.AsyncClient, slots: dict[str, Any], seeds: set[str] | None
    ) -> None:
        self.url = url
        self.sender = f"sim-{uuid.uuid4().hex}"
        self._client = client
        self._slots = slots
        self._seeds = seeds
        self._warnings: list[str] = []
        self._metadata_keys: list[str] = []
        self._started = False

    @property
    def _webhook(self) -> str:
        return f"{self.url}/webhooks/rest/webhook"

    @property
    def _conversation(self) -> str:
        return f"{self.url}/conversations/{quote(self.sender, safe='')}"

    async def _post_message(
        self, message: str, metadata: dict[str, Any] | None, what: str
    ) -> list[AgentMessage]:
        body: dict[str, Any] = {"sender": self.sender, "message": message}
        if metadata is not None:
            body["metadata"] = metadata
        data = await request_json(
            self._client, "POST", self._webhook, body=body, what=what, hint=_HINT
        )
        return _messages(data, f"{self._webhook} ({what})")

    async def _start(self) -> AgentReply:
        metadata, events, warnings = split_initial_slots(self._slots, self._seeds)
        self._warnings.extend(warnings)
        self._metadata_keys = list(metadata)
        messages = await self._post_message(
            "/session_start", {"is_simulation": True, **metadata}, "session start"
        )
        for name, value in events:
            await request_json(
                self._client,
                "POST",
                f"{self._conversation}/tracker/events?include_events=NONE",
                body={"event": "slot", "name": name, "value": value},
                what=f"setting initial slot {name}",
                hint=_HINT,
            )
        self._started = True
        return AgentReply(messages=messages)

    async def send(self, turn: UserTurn) -> AgentReply:
        if turn.type == "start":
            if turn.setup and "initial_slots" in turn.setup:
                self._slots = dict(turn.setup.get("initial_slots") or {})
            return await self._start()
        if not self._started:
            await self._start()
        text = message_text(turn)
        return AgentReply(messages=await self._post_message(text, None, "user turn"))

    async def close(self) -> FinalRecord:
        try:
            tracker = await request_json(
                self._client,
                "GET",
                f"{self._conversation}/tracker",
                what="reading the tracker",
                hint=_HINT,
            )
        finally:
            await self._client.aclose()
        if not isinstance(tracker, dict) or not isinstance(tracker.get("events"), list):
            raise AgentProtocolError(
                f"{self._conversation}/tracker: expected a tracker object with `events`"
            )
        meta: dict[str, Any] = {
            "conversation_id": self.sender,
            "inspector_url": f"{self.url}/webhooks/inspector/inspect.html?sender={self.sender}",
            "session_start_metadata": self._metadata_keys,
        }
        if self._warnings:
            meta["warnings"] = list(self._warnings)
        return FinalRecord(events=tracker["events"], meta=meta)


class RasaTarget:
    """`rasa:URL`; the runner may set `project` so seed fields are known."""

    def __init__(
        self,
        spec: str,
        url: str,
        *,
        project: Project | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.spec = spec
        self.url = url.rstrip("/")
        self.project = project
        self.timeout_s = timeout_s
        self._transport = transport

    async def open(self, case: Any, run_index: int) -> RasaSession:
        setup = getattr(case, "setup", None) or {}
        slots = dict(setup.get("initial_slots") or {})
        client = make_client(self.timeout_s, self._transport)
        return RasaSession(self.url, client, slots, seed_field_names(self.project))


__all__ = [
    "NO_PROJECT_WARNING",
    "RasaSession",
    "RasaTarget",
    "message_text",
    "seed_field_names",
    "split_initial_slots",
]
