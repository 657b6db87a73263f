"""What a model repair is told about a play the reference agent failed: the levers, in words.

A transcript alone leaves the model to guess why a correct agent failed the case. The offline
simulator answers a question with the fact whose label names what was asked, stops after the
line its context says to stop at, and the checks read the run's events: so each finding says
which assertion failed on which event and why (the check's own detail), which fact the
simulated user lacked (the agent's question it answered with "I don't know"), and after which
line the conversation stopped and who stopped it. A revision the review refuses is a finding
too, with the reason, so the next round does not repeat it.
"""

from __future__ import annotations

from evalcore.findings import Finding
from evalcore.simulator import UNKNOWN

from ._verify_play import Played

#: Transcript lines a finding carries (the end of the conversation, where it went wrong).
TRANSCRIPT_LINES = 24


def lever_findings(record: Played) -> list[Finding]:
    """The failing assertions of `record` as findings a model repair reads: one per failing
    assertion (the event it expected and what the run recorded instead), then one about the
    conversation: the levers the simulated user's side shows, and how the conversation
    ended. The transcript is given once, not per assertion."""
    transcript = "\n".join(
        f"{role}: {text}" for role, text in record.transcript[-TRANSCRIPT_LINES:]
    )
    failing = [
        Finding(
            code="reference-agent-fails",
            path=f"/scenario/goals/assertions/{a['index']}",
            message=(
                f"a correct agent (the project's reference agent) fails this {a['type']} "
                f"assertion: {a['detail']}."
            ),
        )
        for a in record.failing
    ]
    if not failing:
        return []
    levers = " ".join(user_levers(record))
    conversation = Finding(
        code="reference-conversation",
        path="/scenario/simulation_context",
        message=(levers + " " if levers else "")
        + f"The conversation with the reference agent:\n{transcript}",
    )
    return [*failing, conversation]


def refused_finding(why: str) -> Finding:
    """A revision the review would not write, as a finding for the next round."""
    return Finding(
        code="repair-refused",
        path="",
        message=f"your last revision was not used: {why}. Revise the case again; keep what "
        "it is for and change only what the other findings name.",
    )


def user_levers(record: Played) -> list[str]:
    """What the simulated user's side of the run says a revision could change: each fact it
    lacked (the agent's question it could not answer), and the line after which the
    conversation stopped, with who stopped it and why."""
    users = [n for n, (role, _) in enumerate(record.transcript) if role == "user"]
    said = [step for step in record.steps if not step.done]
    out: list[str] = []
    lacked: set[str | None] = set()
    for turn, step in zip(users, said, strict=False):
        if step.message != UNKNOWN:
            continue
        lacked.add(step.note)
        asked = _asked_before(record, turn)
        out.append(
            f'The simulated user lacked a fact: the agent asked "{asked}" and no fact in the '
            "context answers it (the simulated user answers with the fact whose label names "
            "what is asked: add that fact, labelled so)."
        )
    if not users or not record.steps:
        return out
    last = record.transcript[users[-1]][1]
    stop = record.steps[-1]
    if stop.done and stop.note is not None and stop.note in lacked:
        out.append("It stopped when the agent asked for that fact again.")
    elif stop.done:
        why = f" ({stop.note})" if stop.note else ""
        out.append(
            f'The simulated user stopped after its line "{last}"{why}: if the agent still had '
            "to do what the failing assertion expects, the context's stopping point or this "
            "line ends the conversation too early."
        )
    elif record.replay is not None and record.replay.answers and record.replay.answers[-1][1]:
        out.append(f'The agent ended the conversation after the user\'s line "{last}".')
    else:
        out.append(
            f'The conversation reached its turn limit after the user\'s line "{last}": '
            "the simulated user did not get what it needed to finish."
        )
    return out


def _asked_before(record: Played, turn: int) -> str:
    """The agent's lines right before the user's line at `turn` (what it was asked)."""
    lines: list[str] = []
    for role, text in reversed(record.transcript[:turn]):
        if role != "agent":
            break
        lines.insert(0, text)
    return " ".join(" ".join(lines).split()) or "(nothing)"


__all__ = ["TRANSCRIPT_LINES", "lever_findings", "refused_finding", "user_levers"]
