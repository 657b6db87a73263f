"""In-process stand-ins for tests and benchmarks: an agent target and a scripted chat model.

    target = FunctionTarget(mantle_echo, delay_s=0.01)        # a tiny Mantle-style agent
    chat = ScriptedChatModel(answer=lambda messages, schema: {"message": "hi", "done": False})
    options = RunOptions(simulator=SimulatorSettings(model=config, chat=chat))

Nothing here opens a socket: the runner, simulator and judge can be exercised end to end
without a network, and the benchmark measures the runner's own overhead.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr

from ..agents import AgentMessage, AgentReply, FinalRecord, UserTurn

Respond = Callable[[UserTurn, dict[str, Any]], AgentReply | Awaitable[AgentReply]]


# --- an agent target --------------------------------------------------------------------


class FunctionTarget:
    """A target whose sessions answer each turn with `respond(turn, state)`.

    `state` is a fresh dict per session. The target counts sessions, so tests can check how
    many conversations ran at once (`max_open`).
    """

    def __init__(
        self,
        respond: Respond,
        *,
        spec: str = "test:function",
        delay_s: float = 0.0,
        final_events: bool = False,
    ) -> None:
        self.respond = respond
        self.spec = spec
        self.delay_s = delay_s
        self.final_events = final_events
        """Return the session's events as the authoritative `FinalRecord.events`."""
        self.opened = 0
        self.open_now = 0
        self.max_open = 0
        self.closed = 0

    async def open(self, case: Any, run_index: int) -> FunctionSession:
        self.opened += 1
        self.open_now += 1
        self.max_open = max(self.max_open, self.open_now)
        return FunctionSession(self, f"sim-{getattr(case, 'slug', 'case')}-{run_index}")


class FunctionSession:
    def __init__(self, target: FunctionTarget, conversation_id: str) -> None:
        self.target = target
        self.conversation_id = conversation_id
        self.state: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self._closed = False

    async def send(self, turn: UserTurn) -> AgentReply:
        if self.target.delay_s:
            await asyncio.sleep(self.target.delay_s)
        reply = self.target.respond(turn, self.state)
        if inspect.isawaitable(reply):
            reply = await reply
        if turn.type != "start":
            self.events.append({"event": "user", "text": turn.as_text()})
        self.events.extend(reply.events)
        return reply

    async def close(self) -> FinalRecord:
        if not self._closed:
            self._closed = True
            self.target.open_now -= 1
            self.target.closed += 1
        return FinalRecord(
            events=list(self.events) if self.target.final_events else None,
            state=dict(self.state),
            meta={"conversation_id": self.conversation_id},
        )


def mantle_echo(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
    """A tiny Mantle-style agent: greets, then per message activates `support` (once),
    remembers the message, looks it up with a tool and echoes it; "bye" completes the
    skill and ends the conversation."""
    if turn.type == "start":
        return AgentReply(
            messages=[AgentMessage(text="Hi, how can I help?", response="utter_greet")],
            events=[
                {
                    "event": "bot",
                    "text": "Hi, how can I help?",
                    "metadata": {"utter_action": "utter_greet"},
                }
            ],
        )
    text = turn.as_text()
    events: list[dict[str, Any]] = []
    if not state.get("active"):
        state["active"] = True
        events.append({"event": "skill_activated", "skill_id": "support"})
    events.append({"event": "memory_set", "key": "support.last_message", "value": text})
    events.append(
        {
            "event": "tool_executed",
            "tool_name": "lookup",
            "arguments": {"query": text},
            "source": "local",
            "result": {"found": True},
            "is_error": False,
            "metadata": {"skill_id": "support"},
        }
    )
    ended = "bye" in text.lower()
    if ended:
        events.append({"event": "skill_completed", "skill_id": "support"})
    answer = "Goodbye!" if ended else f"You said: {text}"
    utter = "utter_goodbye" if ended else "utter_echo"
    events.append({"event": "bot", "text": answer, "metadata": {"utter_action": utter}})
    return AgentReply(
        messages=[AgentMessage(text=answer, response=utter)], events=events, ended=ended
    )


# --- a chat model -----------------------------------------------------------------------

Answer = Callable[[list[BaseMessage], str], Any]


class ScriptedChatModel(BaseChatModel):
    """A chat model for `structured_call`: answers every request with a tool call.

    `answer(messages, schema_name)` returns the tool arguments (a dict), an `AIMessage`, or
    an exception to raise; `answers(...)` builds one from a fixed sequence. Works with the
    `function_calling` structured-output method (set `structured_output` in `ModelConfig`).
    """

    answer: Any
    delay_s: float = 0.0
    input_tokens: int = 50
    output_tokens: int = 10
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[list[BaseMessage]]:
        """The messages of every request, in order."""
        return self._calls

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        name = convert_to_openai_tool(tools[0])["function"]["name"]

        def call(messages: Any) -> AIMessage:
            return self._reply(_as_messages(messages), name)

        async def acall(messages: Any) -> AIMessage:
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            return self._reply(_as_messages(messages), name)

        return RunnableLambda(call, afunc=acall)

    def _reply(self, messages: list[BaseMessage], name: str) -> AIMessage:
        self._calls.append(messages)
        value = self.answer(messages, name)
        if isinstance(value, BaseException):
            raise value
        if isinstance(value, AIMessage):
            return value
        return AIMessage(
            content="",
            tool_calls=[
                {"name": name, "args": value, "id": f"call_{len(self._calls)}", "type": "tool_call"}
            ],
            usage_metadata={
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "total_tokens": self.input_tokens + self.output_tokens,
            },
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages, "answer"))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages)


def answers(*values: Any, then: Any = None) -> Answer:
    """An `answer` callable that gives `values` in order, then `then` (or raises)."""
    queue: Iterator[Any] = iter(values)
    rest = itertools.repeat(then) if then is not None else iter(())
    chained = itertools.chain(queue, rest)

    def answer(messages: list[BaseMessage], name: str) -> Any:
        try:
            return next(chained)
        except StopIteration:
            return AssertionError("ScriptedChatModel: no scripted answer left")

    return answer


def _as_messages(value: Any) -> list[BaseMessage]:
    if hasattr(value, "to_messages"):
        return list(value.to_messages())
    if isinstance(value, Iterable):
        return list(value)
    return [value]


__all__ = [
    "FunctionSession",
    "FunctionTarget",
    "ScriptedChatModel",
    "answers",
    "mantle_echo",
]
