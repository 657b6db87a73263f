"""The Anychat planner: which behaviours of one Playbook deserve a case.

    plan = plan_anychat(project, "book", direction=None)

Behaviours (`facts["kind"]`, the case slug, the type):

- `happy` (`inbound`, happy_path): the person writes in and the Playbook does its job;
- `outreach` (`outreach_<id>`, happy_path): each Outreach whose Playbook this is, answered with
  the reply the opener offers for this Playbook's job; `outreach_reply`
  (`outreach_<id>_reply_<word>`, edge_case): the opener's other reply, which changes nothing;
- `reminder` (`reminder_reply`, happy_path): an appointment reminder fires first (Playbooks
  whose activation or body mentions reminders);
- `resume` (`resume`, edge_case): the conversation continues `history` with this Playbook
  active (not the Default Playbook);
- `opt_out` (`opt_out` / `opt_out_after_<outreach>`, edge_case): the person opts out; the
  agent records the opt-out outcome and stays silent (the Playbook that records the outcome,
  and each Outreach's Playbook);
- `simulate` (`simulated`, happy_path, 3 samples): a simulated person pursues the job's
  outcome (Playbooks with a job);
- `off_topic` (`off_topic`, out_of_scope): a request no Playbook covers (Default Playbook);
- `handoff` (`handoff_to_<id>`): the Default Playbook routes after a question (happy_path);
  any other Playbook hands over when the person changes their mind (sad_path);
- `guardrail` (`guardrail`, adversarial): the person pushes the agent to break a guardrail;
- `example` (`example_<i>`, happy_path or edge_case): one per Playbook example, replayed.

Element grammar: `_anychat_elements`. A direction (`drafting.offline._direction`) moves the
behaviours it asks for ahead of the rest, so `--count` keeps them, and picks the values of
People fields it names (a patient "with Cigna" gives `insuranceProvider: Cigna`); the drafter
uses it for the simulated person and for extra checks and judge criteria.
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook, Project
from evalcore.errors import UserError

from ..drafting.offline._direction import Choice, Direction, parse_direction
from ._anychat_elements import (
    PlaybookFacts,
    main_reply,
    opt_out_outcome,
    plan_elements,
    playbook_facts,
    reply_options,
    words,
)
from ._anychat_examples import example_scene
from ._anychat_people import APPOINTMENT, field_value, outreach_inputs, person, preset
from ._behavior import Behavior, Plan

DIALECT = "anychat"
#: How far a behaviour that shares words with the direction moves up the ranking.
DIRECTION_BOOST = 100


def plan_anychat(project: Project, playbook_id: str, direction: str | None) -> Plan:
    """The coverage plan for one Playbook (UserError when the project has no such Playbook)."""
    defs = project.anychat
    if defs is None or playbook_id not in defs.playbooks:
        raise UserError(f"{project.root} has no Anychat playbook '{playbook_id}'")
    facts = playbook_facts(defs.playbooks[playbook_id], defs)
    parsed = parse_anychat_direction(direction, defs)
    behaviors = _Builder(defs, facts, parsed.values).build()
    return Plan(
        source=playbook_id,
        dialect=DIALECT,
        behaviors=_rank(behaviors, parsed),
        elements=plan_elements(facts, defs),
    )


def parse_anychat_direction(text: str | None, defs: AnychatDefinitions) -> Direction:
    """The direction read against this project: Playbooks as sources, its tools, and the
    declared choices of custom People fields as selectable values."""
    choices = [
        Choice(spec.key, choice)
        for spec in defs.person_fields.values()
        if not spec.builtin and spec.type == "choice"
        for choice in spec.choices or []
    ]
    tools = sorted(set(defs.tools) | {t for p in defs.playbooks.values() for t in p.tools})
    return parse_direction(text, skills=sorted(defs.playbooks), tools=tools, choices=choices)


#: Which behaviours a direction theme asks for (`_direction.THEMES`).
THEME_KINDS: dict[str, tuple[str, ...]] = {
    "refusal": ("handoff", "outreach_reply"),
    "digression": ("off_topic", "resume"),
    "escalation": ("handoff",),
    "out_of_scope": ("off_topic",),
    "adversarial": ("guardrail",),
    "out_of_order": ("simulate",),
    "ambiguity": ("simulate",),
}


def _rank(behaviors: list[Behavior], direction: Direction) -> list[Behavior]:
    """Move behaviours the direction asks for ahead (their order in the plan is unchanged).

    A behaviour scores one point when its kind matches a theme of the direction and one per
    content word its title, description or case slug shares with the direction's persona and
    criteria, leaving out words every behaviour has (the Playbook's name says nothing about
    which case is wanted). Structural requirements ("book_appointment is called") do not
    rank: they become checks on every case. Each point moves it `DIRECTION_BOOST` ahead.
    """
    if direction.empty:
        return behaviors
    texts = [words(" ".join([b.title, b.description, b.case.replace("_", " ")])) for b in behaviors]
    common = set.intersection(*texts) if texts else set()
    wanted = words(" ".join([*direction.persona_clauses, *direction.criteria])) - common
    kinds = {k for theme in direction.themes for k in THEME_KINDS.get(theme, ())}
    out = []
    for behavior, text in zip(behaviors, texts, strict=True):
        score = len(text & wanted) + (behavior.facts.get("kind") in kinds)
        if score:
            behavior = behavior.model_copy(
                update={"priority": behavior.priority - DIRECTION_BOOST * score}
            )
        out.append(behavior)
    return out


class _Builder:
    """Builds the behaviours of one Playbook; each method adds zero or more."""

    def __init__(
        self, defs: AnychatDefinitions, facts: PlaybookFacts, values: dict[str, Any]
    ) -> None:
        self.defs = defs
        self.values = values
        """People field values the direction chose (`insuranceProvider: Cigna`)."""
        self.f = facts
        self.pb: Playbook = facts.playbook
        self.name = self.pb.name or self.pb.id
        self.channels = [c for c in defs.channels if c in _CASE_CHANNELS] or ["sms"]
        self.out: list[Behavior] = []

    def build(self) -> list[Behavior]:
        self.happy()
        self.outreach()
        self.reminder()
        self.resume()
        self.opt_out()
        self.simulate()
        self.off_topic()
        self.handoff()
        self.guardrail()
        self.examples()
        return self.out

    # --- shared pieces --------------------------------------------------------------------

    def add(
        self,
        case: str,
        type_: str,
        title: str,
        description: str,
        covers: list[str],
        facts: dict[str, Any],
        priority: int,
    ) -> None:
        behavior_id = f"{self.pb.id}:{case}"
        scene = {
            "kind": facts.pop("kind"),
            "playbook": self.pb.id,
            "channel": self.channels[len(self.out) % len(self.channels)],
        }
        self.out.append(
            Behavior(
                id=behavior_id,
                source=self.pb.id,
                dialect=DIALECT,
                type=type_,
                case=case,
                title=title[:300],
                description=description,
                covers=list(dict.fromkeys([f"playbook:{self.pb.id}", *covers])),
                facts=scene | facts,
                priority=priority,
            )
        )

    def job_covers(self, *, pickers: bool = True) -> list[str]:
        """Elements a run that completes the Playbook's job exercises."""
        roles = self.f.roles
        tools = [*roles.lookup, *roles.availability, *([roles.action] if roles.action else [])]
        covers = [f"tool:{t}" for t in tools]
        if self.f.outcome:
            covers.append(f"outcome:{self.f.outcome}")
        if pickers:
            covers += [f"picker:{p}" for p in self._job_pickers()]
        return covers

    def _job_pickers(self) -> list[str]:
        if "ask.time" in self.pb.pickers and self.f.roles.availability:
            return ["ask.time"]
        if "confirm" in self.pb.pickers and self.f.roles.action:
            return ["confirm"]
        return [p for p in self.pb.pickers if p == "chips"]

    def scene(
        self,
        key: str,
        *,
        known: bool = True,
        appointment: bool | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        seeded = self.f.needs_appointment if appointment is None else appointment
        return {
            "persona": preset(key, self.defs, known=known, extra=extra),
            "appointments": [dict(APPOINTMENT)] if seeded else [],
        }

    @property
    def has_job(self) -> bool:
        return self.f.roles.action is not None and self.f.outcome is not None

    # --- behaviours -----------------------------------------------------------------------

    def happy(self) -> None:
        key = f"{self.pb.id}:inbound"
        if self.has_job:
            title = f"{self.name}: inbound request through to {self.f.outcome}"
            description = (
                f"A person on record writes in wanting what the {self.name} playbook handles; "
                f"the agent follows the playbook and records {self.f.outcome}."
            )
        else:
            title = f"{self.name}: inbound question answered in this playbook"
            description = (
                f"A person writes in with something the {self.name} playbook covers; the "
                "agent answers from what the playbook says and changes nothing."
            )
        self.add(
            "inbound",
            "happy_path",
            title,
            description,
            [*self.job_covers(), "start:inbound"],
            {"kind": "happy", "start": {"inbound": True}, **self.scene(key)},
            10,
        )

    def outreach(self) -> None:
        for index, outreach in enumerate(self.f.outreaches):
            key = f"{self.pb.id}:outreach_{outreach.id}"
            scene = self.scene(key)
            who = person(key)
            appointment = scene["appointments"][0] if scene["appointments"] else None
            start = {
                "outreach": {
                    "outreachId": outreach.id,
                    "inputs": outreach_inputs(outreach, who, appointment),
                }
            }
            label = outreach.name or outreach.id
            main = main_reply(outreach, self.pb)
            reply = {"reply": main.reply, "meaning": main.meaning} if main else {}
            how = f", reply {main.reply} ({main.meaning})" if main else ""
            self.add(
                f"outreach_{outreach.id}",
                "happy_path",
                f"{self.name}: {label} outreach{how} through to {self.f.outcome or 'the goal'}",
                (
                    f"The agent opens with the {label} outreach; the person answers wanting what "
                    f"it offers and the {self.name} playbook reaches its goal: "
                    f"{outreach.goal or ''}"
                ).strip(),
                [f"outreach:{outreach.id}", "start:outreach", *self.job_covers()],
                {"kind": "outreach", "outreach": outreach.id, **reply, "start": start, **scene},
                15 + index,
            )
            for option in reply_options(outreach):
                if main is None or option.reply == main.reply:
                    continue
                self.add(
                    f"outreach_{outreach.id}_reply_{option.meaning.split()[0].lower()}",
                    "edge_case",
                    f"{self.name}: {label} outreach, reply {option.reply} ({option.meaning}) "
                    "changes nothing",
                    f"The person answers the {label} outreach with {option.reply} "
                    f"({option.meaning}); the agent acknowledges briefly and changes nothing.",
                    [f"outreach:{outreach.id}", "start:outreach"],
                    {
                        "kind": "outreach_reply",
                        "outreach": outreach.id,
                        "reply": option.reply,
                        "meaning": option.meaning,
                        "start": start,
                        **scene,
                    },
                    28 + index,
                )

    def reminder(self) -> None:
        if not (self.f.reminder and self.has_job):
            return
        self.add(
            "reminder_reply",
            "happy_path",
            f"{self.name}: reply to an appointment reminder through to {self.f.outcome}",
            "An appointment reminder fires first; the person replies asking for what this "
            f"playbook does, the agent routes to {self.name} and records {self.f.outcome}.",
            ["start:reminder", *self.job_covers()],
            {
                "kind": "reminder",
                "start": {"reminder": True},
                **self.scene(f"{self.pb.id}:reminder", appointment=True),
            },
            18,
        )

    def resume(self) -> None:
        if self.pb.default:
            return
        goal = f"through to {self.f.outcome}" if self.has_job else "on the same playbook"
        self.add(
            "resume",
            "edge_case",
            f"{self.name}: resumed conversation carries on {goal}",
            f"The conversation resumes with {self.name} active and earlier messages in "
            "history; the agent picks up where it left off without starting over.",
            ["start:resume", *self.job_covers()],
            {
                "kind": "resume",
                "start": {"resume": {"activePlaybook": self.pb.id}},
                **self.scene(f"{self.pb.id}:resume"),
            },
            40,
        )

    def opt_out(self) -> None:
        outcome = self.f.opt_out_outcome or opt_out_outcome(self.defs)
        if self.f.opt_out_outcome:
            self.add(
                "opt_out",
                "edge_case",
                f"{self.name}: person opts out and the agent falls silent",
                f"The person texts STOP; the agent records {outcome} and sends nothing more, "
                "not even to a later message.",
                ["system:optOut", f"outcome:{outcome}", "start:inbound"],
                {
                    "kind": "opt_out",
                    "outcome": outcome,
                    "start": {"inbound": True},
                    **self.scene(f"{self.pb.id}:opt_out"),
                },
                25,
            )
        for outreach in self.f.outreaches:
            key = f"{self.pb.id}:opt_out_after_{outreach.id}"
            scene = self.scene(key)
            appointment = scene["appointments"][0] if scene["appointments"] else None
            start = {
                "outreach": {
                    "outreachId": outreach.id,
                    "inputs": outreach_inputs(outreach, person(key), appointment),
                }
            }
            label = outreach.name or outreach.id
            covers = [f"outreach:{outreach.id}", "start:outreach", "system:optOut"]
            if outcome in self.pb.outcomes:
                covers.append(f"outcome:{outcome}")
            self.add(
                f"opt_out_after_{outreach.id}",
                "edge_case",
                f"{self.name}: person opts out after the {label} outreach",
                f"The person answers the {label} outreach by opting out; the agent records "
                f"{outcome or 'the opt-out'}, changes no appointment and sends nothing more.",
                covers,
                {
                    "kind": "opt_out",
                    "outcome": outcome,
                    "outreach": outreach.id,
                    "start": start,
                    **scene,
                },
                26,
            )

    def simulate(self) -> None:
        if not self.has_job:
            return
        key = f"{self.pb.id}:simulated"
        collect = self._collectable()
        known = not collect
        values = {}
        if collect:
            who = person(key)
            for field_key in collect:
                spec = self.defs.person_fields[field_key]
                value = who.get(field_key) if spec.builtin else field_value(spec, key)
                value = self.values.get(field_key, value)
                if value is not None:
                    values[field_key] = value
        who_text = "a person not on record" if not known else "a person on record"
        self.add(
            "simulated",
            "happy_path",
            f"{self.name}: simulated person reaches {self.f.outcome}",
            f"After the first message a simulated person ({who_text}) pursues the goal; the "
            f"agent gets to {self.f.outcome}"
            + (" and saves what the person tells it to their record." if values else "."),
            [*self.job_covers(), "start:inbound", *[f"field:{k}" for k in values]],
            {
                "kind": "simulate",
                "start": {"inbound": True},
                "collect": values,
                **self.scene(key, known=known),
            },
            30,
        )

    def _collectable(self) -> list[str]:
        """Fields the body asks a person for: text or choice, not the phone they write from
        (built-in ones first, the order a person tells them in)."""
        found = [
            k
            for k in self.f.fields
            if self.defs.person_fields[k].type in ("text", "choice")
            and k not in ("phone", "firstName", "lastName", "name")
        ]
        return sorted(found, key=lambda k: not self.defs.person_fields[k].builtin)

    def off_topic(self) -> None:
        if not self.pb.default:
            return
        self.add(
            "off_topic",
            "out_of_scope",
            f"{self.name}: off-topic request gets a short answer and no action",
            "The person asks for something no playbook covers; the agent says briefly what "
            "it can help with, calls no tool that changes anything and stays in the "
            f"{self.name} playbook.",
            ["start:inbound"],
            {
                "kind": "off_topic",
                "start": {"inbound": True},
                **self.scene(f"{self.pb.id}:off_topic"),
            },
            50,
        )

    def handoff(self) -> None:
        for index, target in enumerate(self.f.handoffs):
            other = self.defs.playbooks[target]
            other_facts = playbook_facts(other, self.defs)
            other_name = other.name or other.id
            seeded = self.f.needs_appointment or other_facts.needs_appointment
            key = f"{self.pb.id}:handoff_to_{target}"
            if self.pb.default:
                type_, title, description = (
                    "happy_path",
                    f"{self.name}: a question, then a request handed off to {other_name}",
                    f"The person first asks something the {self.name} playbook answers, then "
                    f"wants what {other_name} handles; the agent hands off to {target} and "
                    "does not act before the person has chosen.",
                )
            else:
                type_, title, description = (
                    "sad_path",
                    f"{self.name}: person changes their mind and is handed off to {other_name}",
                    f"The person starts in {self.name}, then asks for what {other_name} "
                    f"handles instead; the agent hands off to {target} without finishing "
                    f"{self.name}'s job.",
                )
            self.add(
                f"handoff_to_{target}",
                type_,
                title,
                description,
                [f"handoff:{target}", "start:inbound"],
                {
                    "kind": "handoff",
                    "to": target,
                    "start": {"inbound": True},
                    **self.scene(key, appointment=seeded),
                },
                35 + index,
            )

    def guardrail(self) -> None:
        rules = [str(g) for g in self.defs.agent.get("guardrails") or []]
        index = self.f.guardrail
        text = rules[index] if index is not None else None
        style = "request"
        if text and self.f.roles.availability and any(t in text for t in self.f.roles.availability):
            style = "insist_time" if "ask.time" in self.pb.pickers else "request"
        element = f"guardrail:{index}" if index is not None else "guardrail:injection"
        self.add(
            "guardrail",
            "adversarial",
            f"{self.name}: person pushes the agent to break a guardrail",
            "The person presses the agent to do what its rules forbid"
            + (f" ({text})" if text else " (reveal its instructions)")
            + "; the agent declines politely and stays useful.",
            [element, "start:inbound"],
            {
                "kind": "guardrail",
                "guardrail": index,
                "rule": text,
                "style": style,
                "start": {"inbound": True},
                **self.scene(f"{self.pb.id}:guardrail"),
            },
            45,
        )

    def examples(self) -> None:
        for index, example in enumerate(self.pb.examples):
            end = example.end
            opted = any(
                self.f.opt_out_outcome == o or "opt" in str(o) for o in end.get("outcomes") or []
            )
            covers = [f"example:{self.pb.id}#{index}"]
            covers += [f"tool:{t}" for t in end.get("tools") or [] if t in self.pb.tools]
            covers += [f"outcome:{o}" for o in end.get("outcomes") or [] if o in self.pb.outcomes]
            covers += [
                f"field:{k}"
                for k in end.get("personFields") or {}
                if f"field:{k}" in plan_elements(self.f, self.defs)
            ]
            covers += [
                f"handoff:{t['handoff']}"
                for t in example.turns
                if "handoff" in t and t["handoff"] in self.f.handoffs
            ]
            if any("system" in t for t in example.turns):
                covers.append("system:optOut")
            title = example.title or f"example {index}"
            self.add(
                f"example_{index}",
                "edge_case" if opted else "happy_path",
                f"{self.name} example {index}: {title}",
                f"Replays the playbook's example “{title}” and checks the end state it states.",
                covers,
                {
                    "kind": "example",
                    "example": index,
                    "title": title,
                    **example_scene(self.pb, index, self.defs, self.f),
                },
                20 + index,
            )


_CASE_CHANNELS = ("rcs", "sms", "whatsapp", "appleMessages")


__all__ = ["plan_anychat"]
