"""What a case may assert about a call on a service outside the agent: the call, never its answer.

A tool of an MCP server, or one whose code calls a service (`outside_effect`), returns what
that service answers, and nothing in a case decides that: the service may refuse, time out
or find nothing for a correct agent. So a case asserts that the call is made, with the
arguments the agent controls, and not

- its `is_error: false` (the service's answer);
- its `on_success` response (said only when the service accepts);
- the memory it writes from the answer (`PathGoals.answered_keys`, `reported_fields`);
- what the runtime does only where a write went through: from the first tool whose
  `requires`, or whose block step's parameters, read a key a tool that changes something
  outside writes from its answer (an order placed with the count id the service returned
  when it saved the count) on, the tools, memory, responses and completion the path
  reaches, and a skill's completion whose `complete_when` reads an answered key (with
  what the runtime does after it, once a write's answer decided it); and all that follows
  an outside write whose answered key a block step's `next` branches on (the shop's
  order number picks "placed" or "not placed"). (A lookup's answer is
  a fact the case's records hold: what follows it stays.)
- an id the user picks from what an outside service lists, where no record holds one
  (`_mantle_listed`): its write, and what the runtime runs only once it is written.

One exception: a gated call the case's user approves (the restock order the user agrees
to after the count the service saved, the rental after intake returned its claim number)
stays, with what leads to it, up to and including that call: without it nothing shows the
agent reached what the user asked for, and an agent that stops after the earlier write
passes. The case then holds where the service accepts the earlier request (or a sandbox
stands in for it), as its `# outside service:` note says (`approved_calls`).

What follows only on a good answer becomes a conditional criterion ("If <tool> succeeds,
the agent ..."), which a judge reads against the conversation the real service gave. The
last outside call the case can assert, with the arguments the agent gives it, is then the
goal the case shows the agent reached (a refusal case keeps its gate's question and denial
response all the same: `Goals.keep_gate_messages`). A project key (who the caller is,
whether they are verified) is no such answer: the case seeds it, or the caller's record
fixes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import answer_writers, outside_effect, runtime_reads

from ._mantle_checks import Check
from ._mantle_listed import listed_picks

# the planner's walk, as the goals read it, and what an outside service answers
from ._mantle_path import Event, Walk, answered_keys, unanswered

#: A run's tracker events (the runner's), as `casegen mutate` keeps them.
Events = Sequence[Mapping[str, Any]]

#: Checks of something the path does: dropped where only an outside answer lets it happen.
_DOES = frozenset(
    {
        "tool_executed",
        "bot_uttered",
        "memory_was_set",
        "skill_completed",
        "ordered_block_completed",
        "skill_activated",
    }
)


def outside_tools(project: Project) -> frozenset[str]:
    """The tools of any skill whose result is an outside service's answer: an MCP server's
    tools and those whose code calls a service (`outside_effect`, kept per tool). One set
    per project: each case's goals ask for it, and it reads every skill."""
    defs = project.mantle
    if defs is None:
        return frozenset()
    return memoized(defs, "outside_tools", lambda: _outside_tools(project, defs))


def _outside_tools(project: Project, defs: MantleDefinitions) -> frozenset[str]:
    found: set[str] = set()
    for skill_id in defs.skills:
        for name, tool in defs.tools_for(skill_id).items():
            if tool.scope == "mcp" or outside_effect(project, tool) is not None:
                found.add(name)
    return frozenset(found)


def _answered_writers(
    project: Project, answered: frozenset[str]
) -> tuple[frozenset[str], dict[str, str]]:
    """`answered` without the project's keys, and the tools that write those keys from an
    outside answer (a new dict). Kept per loaded project and `answered`: a case asks with
    the project's one set, and filtering every skill's keys each time grew with the skills."""
    own, writers = memoized(
        project, ("answered-writers", answered), lambda: _writers(project, answered)
    )
    return own, dict(writers)


def _writers(project: Project, answered: frozenset[str]) -> tuple[frozenset[str], dict[str, str]]:
    own = frozenset(k for k in answered if not k.startswith("project."))
    return own, {k: t for k, t in answer_writers(project).items() if k in own}


def outside_successes(defs: MantleDefinitions, outside: frozenset[str]) -> dict[str, list[str]]:
    """An outside tool's `on_success` response -> the outside tools that name it, in the
    skills' order (kept per loaded definitions: read for every case, it read every skill)."""
    return memoized(defs, ("outside-successes", outside), lambda: _successes(defs, outside))


def _successes(defs: MantleDefinitions, outside: frozenset[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for skill in defs.skills.values():
        for tool, c in skill.tool_constraints.items():
            if tool in outside and c.on_success:
                found.setdefault(c.on_success, []).append(tool)
    return found


def success_tool(successes: dict[str, list[str]], response: str, ran: list[str]) -> str | None:
    """The outside tool whose success `response` says: the first of its tools the path runs,
    else the last of them (where two tools share the response); None for no outside tool's."""
    chosen: str | None = None
    for tool in successes.get(response, ()):
        if chosen not in ran:
            chosen = tool
    return chosen


def without_answers(
    project: Project,
    walk: Walk,
    assertions: list[Check],
    answered: frozenset[str],
    approved: frozenset[str] = frozenset(),
) -> tuple[list[Check], list[str]]:
    """`assertions` without what rests on an outside service's answer (see the module
    docstring), and the conditional criteria that say it instead. `answered` are
    the memory keys whose value an outside service's answer decides (a key of the
    project's, such as who the caller is, is the case's own seeded fact: not one);
    `approved`: the gated tools the case's user agrees to, kept up to the last of them."""
    outside = outside_tools(project)
    if not outside:
        return assertions, []
    answered, writers = _answered_writers(project, answered)
    picks = listed_picks(project, outside)  # an id picked from an outside list
    writers.update(picks)
    cut, writer = _first_resting(project, walk, writers)
    past = _past_approved(walk, cut, approved)
    if past != cut:
        cut, writer = past, None  # what follows the approved call rests on its own answer
    defs = project.mantle
    assert defs is not None
    ran = [e.tool for e in walk.events if e.kind == "tool" and not e.error]
    successes = outside_successes(defs, outside)
    kept: list[Check] = []
    dropped_tools: list[str] = []
    dropped_success: list[str] = []
    for check in assertions:
        ((kind, body),) = check.items()
        if kind == "sequencing" and isinstance(body, list):
            steps = [
                _without_answer(s, outside)
                for s in body
                if not _after(s, walk, cut)
                and s.get("memory_was_set") not in picks
                and not _completes_on(project, s.get("skill_completed"), answered)
            ]
            if len(steps) > 1:
                kept.append({"sequencing": steps})
            continue
        if kind == "bot_uttered" and isinstance(body, dict):
            tool = success_tool(successes, str(body.get("utter_name")), ran)
            if tool is not None:
                dropped_success.append(tool)
                continue
        if kind == "memory_was_set" and isinstance(body, list):
            items = [
                i
                for i in body
                if not _after({kind: i.get("name")}, walk, cut) and i.get("name") not in picks
            ]
            if items:
                kept.append({kind: items})
            continue
        if kind == "skill_completed" and _completes_on(project, body, answered):
            continue
        if kind in _DOES and _after(check, walk, cut):
            if kind == "tool_executed":
                dropped_tools.append(str(body.get("tool_name")))
            continue
        kept.append(_without_answer(check, outside))
    late = set(dropped_tools)
    criteria = [
        f"If {tool} succeeds, the agent tells the customer it went through"
        for tool in dict.fromkeys(dropped_success)
        if tool not in late
    ]
    later = walk.events[cut:] if cut is not None else []
    resting = next((e.tool for e in later if e.kind == "tool"), None)
    if writer and resting in late:
        if writer in picks.values():
            criteria.append(
                f"If the customer picks one of what {writer} lists, the agent goes on to {resting}"
            )
        else:
            criteria.append(f"If {writer} succeeds, the agent goes on to {resting}")
    return kept, criteria


def _first_resting(
    project: Project, walk: Walk, writers: dict[str, str]
) -> tuple[int | None, str | None]:
    """The place of the walk's first tool run that rests on an outside write's answer (its
    `requires`, or the parameters its block step passes, read a key of `writers` an
    earlier call wrote: the runtime runs it only where that answer allows), or of the
    first skill completion whose `complete_when` reads such a key (what the runtime does
    next, the "anything else?" or a resumed skill, follows only that completion), and the
    tool that wrote the key; (None, None) where none does."""
    defs = project.mantle
    if defs is None or not writers:
        return None, None
    routing = routing_writers(project, writers)
    written: set[str] = set()
    for index, event in enumerate(walk.events):
        if event.kind == "memory" and event.key in writers:
            written.add(event.key)
        elif event.kind == "tool" and not event.error:
            reads = runtime_reads(project, event.skill or walk.skill, event.tool or "") & written
            if reads:
                return index, writers[sorted(reads)[0]]
            if event.tool in routing and index + 1 < len(walk.events):
                return index + 1, event.tool  # the branch it answers routes what follows
        elif event.kind == "skill_completed" and written:
            reads = _completion_reads(project, event.skill) & written
            if reads:
                return index, writers[sorted(reads)[0]]
    return None, None


def after_outside_call(project: Project, text: str, preceded: str, ran: Sequence[str]) -> str:
    """A prose rule's criterion `text`, said as following on an outside call's success where
    an earlier sentence of its paragraph calls a tool the path runs whose answer a service
    outside the agent gives ("call submit_refill with ... Give the ready time from the
    tool"): what the agent says after the call rests on that answer, and a correct agent
    whose call the service refuses has nothing of it to say. A prohibition holds whatever
    the answer, and a rule already said under a condition keeps it."""
    if " does not " in text or not text.startswith("The agent "):
        return text
    outside = outside_tools(project)
    said = set(text.lower().split())
    called = [
        tool
        for tool in dict.fromkeys(ran)
        if tool in outside
        and re.search(rf"(?<!\w){re.escape(tool)}(?!\w)", preceded)
        and _tells_answer(project, tool, said)
    ]
    if not called:
        return text
    return f"If {called[-1]} succeeds, the agent {text.removeprefix('The agent ')}"


def _tells_answer(project: Project, tool: str, said: set[str]) -> bool:
    """Whether a rule's words (`said`) name what the tool's code writes from its service's
    answer ("the ready time" for `ready_at`): a rule about what another tool returned ("the
    ticket number the log returns" after a hold the service puts) does not wait on this
    one, nor one after an MCP server's tool, whose answer no code of the project shows."""
    found = _tool_def(project, tool)
    effect = outside_effect(project, found) if found is not None else None
    if effect is None:
        return False
    return any(len(w) > 2 and w in said for key in effect.answered for w in key.split("_"))


def _tool_def(project: Project, tool: str) -> Any:
    defs = project.mantle
    assert defs is not None
    return next((t for s in defs.skills for n, t in defs.tools_for(s).items() if n == tool), None)


def on_unknown_id(project: Project, text: str, ran: Sequence[str], unheld: Sequence[str]) -> str:
    """A positive rule's criterion `text`, said as holding where an outside lookup the path
    runs finds the id the user gave, where that id is one no data file of the project holds
    (`unheld`, the ids in words: "order number"): the case draws it to the field's shape,
    and a service that does not know it gives a correct agent nothing to tell."""
    if not unheld or " does not " in text or not text.startswith("The agent "):
        return text
    defs = project.mantle
    outside = outside_tools(project)
    lookups = [
        tool
        for tool in dict.fromkeys(ran)
        if tool in outside and defs is not None and not _changes(project, tool)
    ]
    if not lookups:
        return text
    rest = text.removeprefix("The agent ")
    return f"If {lookups[-1]} finds the {unheld[0]} they give, the agent {rest}"


def _changes(project: Project, tool: str) -> bool:
    """Whether a tool's call changes something at its service (a write, not a lookup)."""
    found = _tool_def(project, tool)
    effect = outside_effect(project, found) if found is not None else None
    return bool(effect is not None and effect.changes)


def approved_calls(project: Project, walk: Walk) -> frozenset[str]:
    """The tools behind a confirmation gate (`requires_confirmation`) the walk runs without
    an error: the user agreed to each (a case whose user declines never runs its gate's
    tool)."""
    defs = project.mantle
    if defs is None:
        return frozenset()
    found: set[str] = set()
    for event in walk.events:
        if event.kind != "tool" or event.error or not event.tool:
            continue
        skill = defs.skills.get(event.skill or walk.skill)
        gate = skill.tool_constraints.get(event.tool) if skill is not None else None
        confirm = gate.requires_confirmation if gate is not None else None
        if confirm is not None and confirm.enabled:
            found.add(event.tool)
    return frozenset(found)


def _past_approved(walk: Walk, cut: int | None, approved: frozenset[str]) -> int | None:
    """`cut` moved past the walk's last run of an `approved` tool at or after it: the user
    asked for that call, so the case asserts it where the earlier write went through."""
    if cut is None or not approved:
        return cut
    runs = [
        i
        for i, e in enumerate(walk.events)
        if i >= cut and e.kind == "tool" and not e.error and e.tool in approved
    ]
    return runs[-1] + 1 if runs else cut


def routing_writers(project: Project, writers: Mapping[str, str]) -> frozenset[str]:
    """The outside writes (of `writers`, key -> tool) that write from their answer a key a
    block step's `next` branches on: which step follows one of them is the answer's, not
    the case's (a count saved below par goes on to restock, one at par to "all good")."""
    defs = project.mantle
    if defs is None or not writers:
        return frozenset()
    found: set[str] = set()
    for key in _branched_on(defs):
        tool = writers.get(key)
        if tool is not None and _picks_value(project, tool, key):
            found.add(tool)
    return frozenset(found)


def _branched_on(defs: MantleDefinitions) -> tuple[str, ...]:
    """The memory keys some block step's `next` branches on, every skill's, in the project's
    order: one tuple per definitions (read per case, it walked every skill's blocks)."""

    def build() -> tuple[str, ...]:
        keys = (
            key.removeprefix("session.")
            for skill in defs.skills.values()
            for block in skill.blocks.values()
            for step in block.steps
            if isinstance(step.next, list)
            for branch in step.next
            for key in condition_keys(branch.condition or "")
        )
        return tuple(dict.fromkeys(keys))

    return memoized(defs, ("branched_on", id(defs.skills), len(defs.skills)), build)


def _picks_value(project: Project, tool: str, key: str) -> bool:
    """Whether the service's answer picks `key`'s value: any key of an MCP server's tool,
    one the code reads off the answer (`OutsideEffect.valued`); not a flag the code works
    out from the case's own counts and data before it posts (`bool(short)`), whose branch
    the case decides once the write goes through."""
    defs = project.mantle
    assert defs is not None
    found = next((t for s in defs.skills for n, t in defs.tools_for(s).items() if n == tool), None)
    if found is None or found.scope == "mcp":
        return True
    effect = outside_effect(project, found)
    return effect is None or key.rsplit(".", 1)[-1] in effect.valued


def _completion_reads(project: Project, skill_id: str | None) -> frozenset[str]:
    """The memory keys a skill's `complete_when` reads."""
    defs = project.mantle
    skill = defs.skills.get(skill_id or "") if defs is not None else None
    when = skill.complete_when if skill is not None else None
    condition = when.get("condition") if isinstance(when, dict) else when
    if not isinstance(condition, str):
        return frozenset()
    return frozenset(k.removeprefix("session.") for k in condition_keys(condition))


def _completes_on(project: Project, body: Any, answered: frozenset[str]) -> bool:
    """Whether the skill's `complete_when` reads a key an outside answer decides."""
    if not isinstance(body, dict):
        return False
    return bool(_completion_reads(project, str(body.get("skill_id"))) & answered)


def _without_answer(check: Check, outside: frozenset[str]) -> Check:
    """A `tool_executed` of an outside tool without `is_error: false` (an error run that a
    case asserts stays: that is what the case is about)."""
    body = check.get("tool_executed")
    if not isinstance(body, dict) or body.get("tool_name") not in outside:
        return check
    if body.get("is_error") is not False:
        return check
    return {"tool_executed": {k: v for k, v in body.items() if k != "is_error"}}


def _after(check: Check, walk: Walk, cut: int | None) -> bool:
    """Whether the path does what `check` asserts only from the run at `cut` on (the run
    that rests on an outside answer; a check the walk does not show stays)."""
    if cut is None or len(check) != 1:
        return False
    ((kind, body),) = check.items()
    if kind not in _DOES:
        return False
    at = _place(kind, body, walk)
    return at is not None and at >= cut


def _place(kind: str, body: Any, walk: Walk) -> int | None:
    """Where the walk first does what a check of `kind` with `body` asserts."""
    wanted = _signature(kind, body)
    if wanted is None:
        return None
    return next((i for i, e in enumerate(walk.events) if _of_event(e) == wanted), None)


def _signature(kind: str, body: Any) -> tuple[str, Any, Any] | None:
    """What a check names, as `_of_event` reads an event (None: nothing a walk records)."""
    if kind == "memory_was_set":
        return ("memory", None, body) if isinstance(body, str) else None
    if not isinstance(body, dict):
        return None
    if kind == "tool_executed":
        return ("tool", None, body.get("tool_name"))
    if kind == "bot_uttered":
        return ("utter", None, body.get("utter_name"))
    if kind in ("skill_completed", "skill_activated"):
        return (kind, body.get("skill_id"), None)
    if kind == "ordered_block_completed":
        return ("block_completed", body.get("skill_id"), body.get("block_id"))
    return None


def _of_event(event: Event) -> tuple[str, Any, Any] | None:
    if event.kind == "tool":
        return None if event.error else ("tool", None, event.tool)
    if event.kind == "utter":
        return ("utter", None, event.utter)
    if event.kind == "memory":
        return ("memory", None, event.key)
    if event.kind in ("skill_completed", "skill_activated"):
        return (event.kind, event.skill, None)
    if event.kind == "block_completed":
        return ("block_completed", event.skill, event.block)
    return None


# --- a run, read the same way -------------------------------------------------------------


def answer_marks(project: Project, reference: Events) -> Callable[[Events], list[dict[str, Any]]]:
    """What of a run a case may assert, by the reading above, for the conversation the
    reference agent played as `reference` (its tracker events): a function that gives a
    run's events without those that rest on an outside service's answer (an `on_success`
    response, memory written from the answer, what runs only once an outside write went
    through) and without the error flag of an outside call (where the reference's call of
    that tool went through; an error run the case plays stays). `casegen mutate` compares
    a mutant's run with the reference run through it: a mutant whose every mark goes is
    one only the case's "If <tool> succeeds" criteria can catch."""
    outside = outside_tools(project)
    if not outside:
        return lambda events: [dict(e) for e in events]
    walk = _walk_of(reference)
    answered = answered_keys(project)
    failed = {str(e.get("tool_name")) for e in reference if _is_call(e) and e.get("is_error")}
    writers = {k: t for k, t in answer_writers(project).items() if k in answered}
    routing = routing_writers(project, writers) - failed
    approved = approved_calls(project, walk)  # the reference user's yes at each gate
    seen: dict[str, Check | None] = {}

    def verdict(check: Check) -> Check | None:
        key = json.dumps(check, sort_keys=True, default=repr)
        if key not in seen:
            left = unanswered(check, answered)
            kept = without_answers(project, walk, [left], answered, approved)[0] if left else []
            seen[key] = kept[0] if kept else None
        return seen[key]

    asks = _collect_asks(project)

    def marks(events: Events) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        routed = False  # past a call whose answer picks the branch: the run's own reading
        branch = False  # past such a call, before the approved call that follows it
        looked: set[str] = set()  # skills that ran a lookup on an outside service
        unsure: set[str] = set()  # the questions of the blocks entered after one
        for event in events:
            if _is_call(event) and event.get("source") == "mcp":
                looked.add(str((event.get("metadata") or {}).get("skill_id")))
            elif event.get("event") == "ordered_block_entered" and event.get("skill_id") in looked:
                unsure |= asks.get((str(event.get("skill_id")), str(event.get("block_id"))), set())
            elif (
                event.get("event") == "bot"
                and (event.get("metadata") or {}).get("utter_action") in unsure
            ):
                continue  # the answer may have filled the slot: the step need not ask
            check = _check_of(event, failed)
            now = verdict(check) if check is not None else check
            if check is not None and (now is None or routed):
                continue  # rests on the answer
            call = _is_call(event) and event.get("tool_name")
            if call in routing:
                branch = True
            if branch and (not approved or call in approved):
                routed = True
            if _is_call(event) and now != check:  # the answer's error flag
                out.append({**event, "is_error": None})
            else:
                out.append(dict(event))
        return out

    return marks


def _collect_asks(project: Project) -> dict[tuple[str, str], set[str]]:
    """(skill, block) -> the `utterance` of each of its `collect` steps. In a block the
    run enters after a lookup on an outside service, such a question rests on the answer
    (it may fill the slot first, and the framework then asks nothing), so the drafter
    asserts none (`PathGoals.collect_utters`)."""
    defs = project.mantle
    out: dict[tuple[str, str], set[str]] = {}
    for skill in defs.skills.values() if defs is not None else []:
        for block in skill.blocks.values():
            said = {
                str(step.fields["utterance"])
                for step in block.steps
                if step.kind == "collect" and step.fields.get("utterance")
            }
            if said:
                out[(skill.id, block.id)] = said
    return out


def _is_call(event: Mapping[str, Any]) -> bool:
    return event.get("event") == "tool_executed"


def _check_of(event: Mapping[str, Any], failed: set[str]) -> Check | None:
    """The assertion that would name `event` (a call as one that went through, unless the
    reference run's call of that tool failed), or None for an event no assertion names."""
    kind = event.get("event")
    skill = event.get("skill_id")
    if kind == "tool_executed":
        tool = str(event.get("tool_name"))
        return {"tool_executed": {"tool_name": tool, "is_error": tool in failed}}
    if kind == "bot":
        utter = (event.get("metadata") or {}).get("utter_action")
        return {"bot_uttered": {"utter_name": utter}} if utter else None
    if kind == "memory_set":
        item = {"name": event.get("key"), "value": event.get("value")}
        return {"memory_was_set": [item]}
    if kind in ("skill_activated", "skill_completed"):
        return {kind: {"skill_id": skill}}
    if kind == "ordered_block_completed":
        return {kind: {"skill_id": skill, "block_id": event.get("block_id")}}
    return None


def _walk_of(events: Events) -> Walk:
    """The planner's `Walk` of a played run: the skills it activated and completed, the
    blocks it completed, the memory it wrote, the tools it ran (in the skill active then)
    and the responses it uttered, in order."""
    skills: list[str] = []
    walked: list[Event] = []
    for event in events:
        kind = event.get("event")
        skill = str(event.get("skill_id") or "") or None
        if kind == "skill_activated" and skill:
            skills.append(skill)
            walked.append(Event("skill_activated", skill=skill))
        elif kind in ("skill_completed", "skill_cancelled") and skill:
            if kind == "skill_completed":
                walked.append(Event("skill_completed", skill=skill))
            if skill in skills:
                skills.remove(skill)
        elif kind == "ordered_block_completed":
            walked.append(Event("block_completed", skill=skill, block=event.get("block_id")))
        elif kind == "memory_set":
            walked.append(Event("memory", key=str(event.get("key")), value=event.get("value")))
        elif kind == "tool_executed":
            current = skills[-1] if skills else None
            tool = str(event.get("tool_name"))
            error = bool(event.get("is_error"))
            walked.append(Event("tool", skill=current, tool=tool, error=error))
        elif kind == "bot" and (utter := (event.get("metadata") or {}).get("utter_action")):
            walked.append(Event("utter", utter=str(utter)))
    first = next((e.skill for e in walked if e.kind == "skill_activated"), None)
    return Walk(skill=first or "", events=walked)


__all__ = [
    "after_outside_call",
    "answer_marks",
    "on_unknown_id",
    "outside_tools",
    "without_answers",
]
