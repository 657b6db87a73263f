"""The Anychat behaviours of one Playbook where the agent spoke first or the conversation is
under way: an Outreach and its replies, a reminder, a resumed conversation, an opt-out."""

from __future__ import annotations

from typing import Any

from evalcore.definitions import Outreach
from evalcore.lexicon.en.user_line_words import REPLY_PRONOUNS as _PRONOUNS

from ._anychat_builder import BuilderBase
from .anychat_elements import (
    ReplyOption,
    main_reply,
    opt_out_outcome,
    opts_out,
    reply_options,
)
from .anychat_people import field_value, outreach_inputs, person


def _reply_slug(option: ReplyOption) -> str:
    """The case slug of a reply: the first word of its meaning ("confirm"), or the reply
    keyword itself where the meaning opens with a pronoun ("OK" for "you will ...")."""
    first = option.meaning.split()[0].lower()
    return option.reply.lower() if first in _PRONOUNS else first


class ReplyBehaviors(BuilderBase):
    def outreach(self) -> None:
        for index, outreach in enumerate(self.f.outreaches):
            key = f"{self.pb.id}:outreach_{outreach.id}"
            held = self._sent_fields(outreach, key)
            scene = self.scene(key, extra=held)
            who = {**person(key), **held}
            appointment = scene["appointments"][0] if scene["appointments"] else None
            start = {
                "outreach": {
                    "outreachId": outreach.id,
                    "inputs": outreach_inputs(outreach, who, appointment, self.defs),
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
                if opts_out(option):
                    self._typed_opt_out(outreach, option, start, scene, 28 + index)
                    continue
                self.add(
                    f"outreach_{outreach.id}_reply_{_reply_slug(option)}",
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

    def _sent_fields(self, outreach: Outreach, key: str) -> dict[str, Any]:
        """The person's own People fields the opener is filled in with ("collect your coats
        from {address}"): the business has them on record, so the person's record holds
        them and the agent does not ask for them again."""
        out: dict[str, Any] = {}
        for name in outreach.inputs:
            spec = self.defs.person_fields.get(name)
            if spec is None or spec.builtin:
                continue
            value = self.values.get(name, field_value(spec, key))
            if value is not None:
                out[name] = value
        return out

    def _typed_opt_out(
        self,
        outreach: Outreach,
        option: ReplyOption,
        start: dict[str, Any],
        scene: dict[str, Any],
        priority: int,
    ) -> None:
        """The person types the opener's opt-out keyword ("Reply ... STOP to opt out"): an
        opt-out like the platform's event, held to what the opt-out cases expect (the outcome
        where this Playbook records it, nothing changed, silence after)."""
        outcome = self.f.opt_out_outcome or opt_out_outcome(self.defs)
        label = outreach.name or outreach.id
        covers = [f"outreach:{outreach.id}", "start:outreach"]
        if self.f.opt_out_outcome:
            covers.append(f"outcome:{outcome}")
        self.add(
            f"outreach_{outreach.id}_reply_{_reply_slug(option)}",
            "edge_case",
            f"{self.name}: {label} outreach, reply {option.reply} opts out",
            f"The person answers the {label} outreach with {option.reply}, which the opener "
            "offers to opt out; the agent "
            + (f"records {outcome}, " if self.f.opt_out_outcome else "")
            + "changes nothing and answers nothing after it.",
            covers,
            {
                "kind": "opt_out",
                "outcome": outcome,
                "outreach": outreach.id,
                "typed": option.reply,
                "start": start,
                **scene,
            },
            priority,
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
            held = self._sent_fields(outreach, key)
            scene = self.scene(key, extra=held)
            appointment = scene["appointments"][0] if scene["appointments"] else None
            who = {**person(key), **held}
            start = {
                "outreach": {
                    "outreachId": outreach.id,
                    "inputs": outreach_inputs(outreach, who, appointment, self.defs),
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
                f"The person answers the {label} outreach by opting out; the agent "
                + (f"records {outcome}, " if self.f.opt_out_outcome else "")
                + ("changes no appointment" if scene["appointments"] else "changes nothing")
                + " and sends nothing more.",
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


__all__ = ["ReplyBehaviors"]
