"""Playing one conversation: the session start, the scripted turns, then the simulator.

Order of play: a `start` turn carrying the case's setup; every scripted turn exactly as
written (Anychat strings, chips, slots, confirms, system events, actions, media; the base44
prompt as one text turn); then, when the case simulates, one simulator message per agent
answer. It stops when the simulator is done, the agent ends the conversation, the case's
`simulate.maxTurns` or the command's `--max-turns` is reached, or the script runs out.

Agent failures are raised as `HarnessError` with a reason naming the turn, after the turn
is recorded, so an errored run still shows how far it got. A simulator that says it is done
before any user turn was played raises `SimulationError`: a 0-turn conversation tests
nothing, so it is the simulator's error, never a verdict on the agent.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from ..agents import AgentReply, AgentSession, UserTurn
from ..runcase import RunCase
from ..simulator import SimulationError, Simulator, Utterance
from ._events import transcript
from ._trace import TurnSource, TurnTrace

ZERO_TURNS = (
    "the simulated user said it was done before sending any message (a 0-turn "
    "conversation tests nothing; check the simulation context and the simulator model)"
)


class HarnessError(Exception):
    """A run cannot complete for reasons outside the agent's behaviour under test: the agent
    is unreachable or fails, a timeout, a model failure. The run is errored, not failed."""


@dataclass
class Conversation:
    """The turns of one run as they are played."""

    session: AgentSession
    turn_timeout_s: float
    clock: float = field(default_factory=time.monotonic)
    """Monotonic time the run started."""
    turns: list[TurnTrace] = field(default_factory=list)
    _last_reply_at: float | None = None
    _lines: list[Utterance] = field(default_factory=list)
    _transcribed: int = 0

    @property
    def user_turns(self) -> int:
        return sum(1 for t in self.turns if t.number > 0)

    def history(self) -> list[Utterance]:
        # each turn's lines depend on that turn alone and turns are only appended, so the
        # transcript grows by the new turns' lines (not rebuilt per simulator step)
        if self._transcribed < len(self.turns):
            self._lines.extend(transcript(self.turns[self._transcribed :]))
            self._transcribed = len(self.turns)
        return list(self._lines)

    async def send(self, turn: UserTurn, source: TurnSource) -> AgentReply:
        number = 0 if turn.type == "start" else self.user_turns + 1
        sent = time.monotonic()
        gap = None if self._last_reply_at is None else (sent - self._last_reply_at) * 1000
        reply: AgentReply | None = None
        problem: str | None = None
        try:
            async with asyncio.timeout(self.turn_timeout_s):
                reply = await self.session.send(turn)
            if not isinstance(reply, AgentReply):
                problem = (
                    f"the agent answered turn {number} with {type(reply).__name__}, "
                    "not an AgentReply"
                )
                reply = None
        except TimeoutError:
            problem = f"the agent did not answer turn {number} within {self.turn_timeout_s:g}s"
        except Exception as exc:  # any target failure is this run's harness error
            problem = f"the agent failed on turn {number}: {_describe(exc)}"
        received = time.monotonic()
        self.turns.append(
            TurnTrace(
                number=number,
                user=turn,
                reply=reply,
                source=source,
                sent_at_s=round(sent - self.clock, 4),
                latency_ms=None if reply is None else round((received - sent) * 1000, 2),
                gap_ms=None if gap is None else round(gap, 2),
                ttft_ms=_ttft(reply),
            )
        )
        if problem is not None or reply is None:
            raise HarnessError(problem or f"the agent gave no answer to turn {number}")
        self._last_reply_at = received
        return reply


async def play(
    conversation: Conversation, case: RunCase, simulator: Simulator | None, *, max_turns: int
) -> str:
    """Play the whole conversation; returns why it stopped (see the module docstring).

    Raises:
        HarnessError: the agent failed or did not answer in time.
        SimulationError, LLMError: the simulator could not produce a message.
    """
    reply = await conversation.send(UserTurn(type="start", setup=case.setup or None), "start")
    if reply.ended:
        return "agent_ended"
    script = list(case.script)
    if not script and case.prompt:
        script = [UserTurn(type="text", text=case.prompt)]
    for turn in script:
        if conversation.user_turns >= max_turns:
            return "max_turns"
        reply = await conversation.send(turn, "script")
        if reply.ended:
            return "agent_ended"
    if simulator is None or case.simulate is None:
        return "script_done"
    simulate_cap = case.simulate.max_turns
    simulated = 0
    while True:
        if conversation.user_turns >= max_turns:
            return "max_turns"
        if simulate_cap is not None and simulated >= simulate_cap:
            return "simulate_max_turns"
        step = await simulator.next_step(conversation.history())
        if step.done and conversation.user_turns == 0:
            raise SimulationError(ZERO_TURNS)
        if step.done:
            return "simulator_done"
        reply = await conversation.send(UserTurn(type="text", text=step.message), "simulator")
        simulated += 1
        if reply.ended:
            return "agent_ended"


def _ttft(reply: AgentReply | None) -> float | None:
    value = (reply.model_extra or {}).get("ttft_ms") if reply is not None else None
    return float(value) if isinstance(value, int | float) else None


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


__all__ = ["ZERO_TURNS", "Conversation", "HarnessError", "play"]
