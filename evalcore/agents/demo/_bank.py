"""`demo:bank`: a deterministic, in-process agent for examples/bank (Riverbend Bank, Mantle).

    target = BankTarget()                          # or make_demo_target("bank")
    session = await target.open(run_case, 1)
    await session.send(UserTurn(type="start", setup={"initial_slots": {...}}))
    reply = await session.send(UserTurn(type="text", text="Can you send me a replacement card?"))
    final = await session.close()                  # FinalRecord(events=<tracker>, state=...)

The generic `MantleEngine` plays the project's ordered blocks, skill stack, tool constraints
and responses, and records the tracker events Rasa records. This module is the part a
model would do from the prose of each skill (`BankBrain`):

- **verification** (every account skill): `lookup_customer` with the caller phone when no
  customer id is known, then one question for date of birth and postcode, checked with
  `verify_identity`; a mismatch is asked again without saying which detail was wrong, and
  after three a person takes over;
- **card_replace**: `pick_card` (cards shown by label; the customer's choice matched by
  product name or last four digits), then for a stolen card the question about payments
  the customer does not recognise, the city of the address on file (`get_mailing_address`,
  MCP), and the order with `order_replacement` (damaged) or `place_replacement_order`
  (lost, stolen, never arrived) behind its confirmation; a card that cannot be replaced ends
  the skill with an explanation and the offer of a person;
- **check_balance**: the account type asked for unless already given, `get_balance`, the
  balance read out (amount owed, minimum payment and due date for a credit card);
- **dispute_charge**: `file_dispute` (payments matched by merchant, amount or date; for a
  duplicate the later of two equal payments), the merchant question for goods that never
  arrived, unrecognised payments linked to `human_handoff`;
- **human_handoff**: the team chosen from why the customer was handed over (or one
  question when that is not clear), a summary for the agent, `transfer_to_agent`; the
  conversation then ends (`AgentReply.ended`).

Tool results come from `_bank_data.Backend` (test customers keyed by caller phone). A turn's
reply carries the bot messages (`response` = the `utter_*` name), the turn's events and
`state = {"memory": ..., "skills": [...]}`; `close()` returns the full event log.

**Mutations** (keyword flags, see `MantleFlags`): `skip_confirmation`, `forget_reason`,
`ignore_digression`, `ignore_handoff`, `fail_tool="<tool>"`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path
from typing import Any

from ...definitions import Project, Skill, Step, load_project
from .._protocol import AgentReply, FinalRecord, UserTurn
from ._bank_data import Backend
from ._bank_words import match_card, match_payment, parse_identity
from ._mantle_engine import (
    NO_ANSWER,
    MantleEngine,
    MantleFlags,
    Procedure,
    SkillContext,
    ToolResult,
)
from ._replies import play_turn

SPEC = "demo:bank"


def default_project() -> Path:
    """examples/bank of this checkout (next to the `evalcore` package)."""
    import evalcore

    return Path(evalcore.__file__).resolve().parents[1] / "examples" / "bank"


class BankBrain:
    """The prose of examples/bank's skills, as procedures."""

    def __init__(self) -> None:
        self.backend = Backend()

    # --- Brain protocol ---------------------------------------------------------------------

    def procedure(self, ctx: SkillContext) -> Procedure:
        handler = getattr(self, f"_skill_{ctx.skill.id}", None)
        if handler is None:
            return self._generic(ctx)
        return handler(ctx)

    def instructions(self, ctx: SkillContext, step: Step) -> Procedure | None:
        handler = getattr(self, f"_step_{ctx.skill.id}_{step.id}", None)
        return handler(ctx, step) if handler is not None else None

    def tool(self, ctx: SkillContext, name: str, arguments: dict[str, Any]) -> ToolResult:
        return self.backend.call(name, arguments, ctx.engine.memory)

    def asked_fields(self, skill: Skill) -> list[str]:
        return ["check_balance.account_type"] if skill.id == "check_balance" else []

    # --- shared ----------------------------------------------------------------------------

    def _generic(self, ctx: SkillContext) -> Procedure:
        for block_id in ctx.skill.blocks:
            outcome = yield from ctx.run_block(block_id)
            if outcome.startswith("linked:"):
                return outcome
        return "completed"

    def verify(self, ctx: SkillContext) -> Procedure:
        """Find the customer and check date of birth and postcode; False: hand over."""
        if not ctx.get("project.customer_id"):
            phone = ctx.get("project.caller_phone")
            if phone:
                ctx.tool("lookup_customer", {"phone": phone})
        if ctx.get("project.authenticated") is True:
            return True
        prompt = "To keep your account safe, what are your date of birth and postcode?"
        while True:
            details = yield from ctx.ask(
                "identity",
                lambda text=prompt: ctx.say(text),
                lambda text: parse_identity(text) or NO_ANSWER,
            )
            date_of_birth, postcode = details
            outcome = ctx.tool(
                "verify_identity",
                {
                    "customer_id": ctx.get("project.customer_id"),
                    "date_of_birth": date_of_birth,
                    "postcode": postcode,
                },
            )
            result = outcome.result if outcome is not None else None
            if isinstance(result, dict) and result.get("verified"):
                return True
            if isinstance(result, dict) and result.get("attempts_left", 0) <= 0:
                ctx.say("I couldn't verify those details, so I'll pass you to a colleague.")
                return False
            prompt = "Those details don't match our records. Could you check them and try again?"

    # --- card_replace ----------------------------------------------------------------------

    def _skill_card_replace(self, ctx: SkillContext) -> Procedure:
        verified = yield from self.verify(ctx)
        if not verified:
            return "linked:human_handoff"
        yield from ctx.run_block("pick_card")
        if ctx.get("replacement_eligible") is False:
            ctx.say(
                "Nothing has been ordered. If you'd like, I can connect you with a member "
                "of our team who can look into it."
            )
            return "completed"
        reason = ctx.get("replacement_reason")
        if reason == "stolen":
            seen = yield from ctx.question(
                "That card can no longer be used. Have you seen any payments you don't recognise?"
            )
            ctx.scratch["offer_dispute"] = seen is True
        address = ctx.tool("get_mailing_address", {"customer_id": ctx.get("project.customer_id")})
        if address is not None and isinstance(address.result, dict):
            ctx.say(f"The new card will go to your address on file in {address.result['city']}.")
        tool = "order_replacement" if reason == "damaged" else "place_replacement_order"

        def arguments() -> dict[str, Any]:
            """Read at confirmation time, so a corrected shipping method is used."""
            values = {
                "card_id": ctx.get("selected_card_id"),
                "shipping": ctx.get("shipping_method"),
            }
            if tool == "place_replacement_order":
                values["reason"] = ctx.get("replacement_reason")
            return values

        outcome = yield from ctx.gated(tool, arguments)
        if outcome == "failed":
            return "open"
        if outcome == "done" and ctx.scratch.get("offer_dispute"):
            ctx.say("About the payments you don't recognise: I can help you dispute them next.")
        return "completed"

    def _step_card_replace_select_card(self, ctx: SkillContext, step: Step) -> Procedure:
        cards = (ctx.results.get("list_cards") or {}).get("cards") or []
        labels = ", ".join(c["label"] for c in cards)
        card = yield from ctx.ask(
            "instructions",
            lambda: ctx.say(f"I can see these cards: {labels}. Which one needs replacing?"),
            lambda text: match_card(cards, text) or NO_ANSWER,
            step=step.id,
            block="pick_card",
            field="card_replace.selected_card_id",
        )
        ctx.set("selected_card_id", card["card_id"])
        ctx.set("selected_card_label", card["label"])
        return "done"

    # --- check_balance ---------------------------------------------------------------------

    def _skill_check_balance(self, ctx: SkillContext) -> Procedure:
        verified = yield from self.verify(ctx)
        if not verified:
            return "linked:human_handoff"
        account = ctx.get("account_type")
        if account is None:
            account = yield from ctx.ask_field(
                "check_balance.account_type",
                "Which account would you like the balance of: checking, savings or credit card?",
            )
        outcome = ctx.tool(
            "get_balance", {"customer_id": ctx.get("project.customer_id"), "account_type": account}
        )
        result = outcome.result if outcome is not None else None
        if isinstance(result, dict) and result.get("cards"):
            card = result["cards"][0]
            ctx.say(
                f"On your {card['name']} you owe ${card['amount_owed']:.2f}; the minimum "
                f"payment is ${card['minimum_payment']:.2f}, due {card['due_date']}."
            )
        elif isinstance(result, dict) and result.get("accounts"):
            found = result["accounts"][0]
            text = f"Your {found['name']} has ${found['available']:.2f} available"
            if found["current"] != found["available"]:
                text += f" (current balance ${found['current']:.2f})"
            ctx.say(text + ".")
        else:
            ctx.say("I couldn't find that account.")
        return (
            "completed" if ctx.holds((ctx.skill.complete_when or {}).get("condition")) else "open"
        )

    # --- dispute_charge --------------------------------------------------------------------

    def _skill_dispute_charge(self, ctx: SkillContext) -> Procedure:
        verified = yield from self.verify(ctx)
        if not verified:
            return "linked:human_handoff"
        outcome = yield from ctx.run_block("file_dispute")
        if outcome.startswith("linked:"):
            return outcome
        if not ctx.get("case_id"):
            return "open"
        if ctx.get("dispute_reason") == "goods_not_received":
            contacted = yield from ctx.question("Have you already contacted the merchant?")
            if contacted is not True:
                ctx.say(
                    "The dispute is open either way, but merchants usually answer faster "
                    "than the card network, so it's worth contacting them too."
                )
        return "completed"

    def _step_dispute_charge_identify_charge(self, ctx: SkillContext, step: Step) -> Procedure:
        listed = (ctx.results.get("list_recent_transactions") or {}).get("transactions") or []
        payment = yield from ctx.ask(
            "instructions",
            lambda: ctx.say(
                "Which payment do you mean? The merchant, the amount or the date is enough."
            ),
            lambda text: match_payment(listed, text) or NO_ANSWER,
            step=step.id,
            block="file_dispute",
            field="dispute_charge.transaction_id",
        )
        ctx.set("transaction_id", payment["id"])
        ctx.set(
            "transaction_label",
            f"{payment['merchant']}, ${payment['amount']:.2f} on {payment['date']}",
        )
        return "done"

    # --- human_handoff ---------------------------------------------------------------------

    def _skill_human_handoff(self, ctx: SkillContext) -> Procedure:
        outcome = yield from ctx.run_block("handoff")
        ctx.end_conversation()
        return "completed" if outcome == "done" else outcome

    def _step_human_handoff_summarise_request(self, ctx: SkillContext, step: Step) -> Procedure:
        queue_key = "human_handoff.handoff_queue"
        words = ctx.words(queue_key)
        summary = ctx.context
        queue = ctx.get(queue_key) or words.answer(ctx.context)
        handed = ctx.entry in ("escalation", "link")
        if queue is None and handed:
            queue = words.fallback()
        if queue is None:
            summary = yield from ctx.ask(
                "instructions",
                lambda: ctx.say("Of course. What do you need help with, in a few words?"),
                lambda text: text,
                step=step.id,
                block="handoff",
                field=queue_key,
            )
            queue = words.answer(summary)
            named = sorted({str(f.value) for f in words.matches(summary) if f.score >= 10})
            if queue is None and len(named) > 1:
                options = " or ".join(n.replace("_", " ") for n in named)
                reply = yield from ctx.ask(
                    "instructions",
                    lambda: ctx.say(f"Just to route you right: is it about {options}?"),
                    lambda text: text,
                    step=step.id,
                    block="handoff",
                    field=queue_key,
                )
                queue = words.answer(reply)
            queue = queue or words.fallback()
        if ctx.get(queue_key) is None:
            ctx.set(queue_key, queue)
        ctx.set("human_handoff.handoff_summary", _summary(summary))
        return "done"


def _summary(text: str) -> str:
    """One sentence for the human agent, without card numbers or dates of birth."""
    text = re.sub(r"\b\d{4,}\b", "[number]", " ".join(text.split()))
    return (text[:200] or "The customer asked for a person.").rstrip()


_LOADED: dict[Path, tuple[tuple[Any, ...], Project]] = {}


def _load(root: Path) -> Project:
    """The project, read again only when one of its files changed (targets are cheap)."""
    root = root.resolve()
    files = sorted(p for p in root.rglob("*") if p.is_file() and "results" not in p.parts)
    signature = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    cached = _LOADED.get(root)
    if cached is None or cached[0] != signature:
        cached = (signature, load_project(root))
        _LOADED[root] = cached
    return cached[1]


class BankSession:
    """One conversation (one run of one case)."""

    def __init__(
        self, project: Project, flags: MantleFlags, setup: dict[str, Any], conversation_id: str
    ) -> None:
        self.engine = MantleEngine(project, BankBrain(), flags)
        self.setup = setup
        self.flags = flags
        self.conversation_id = conversation_id

    async def send(self, turn: UserTurn) -> AgentReply:
        return play_turn(self.engine, turn, self.setup)

    async def close(self) -> FinalRecord:
        return FinalRecord(
            events=[dict(e) for e in self.engine.events],
            state={"memory": dict(self.engine.memory)},
            meta={
                "conversation_id": self.conversation_id,
                "agent": SPEC,
                "flags": self.flags.active(),
            },
        )


class BankTarget:
    """The `demo:bank` target: a fresh, deterministic session per run.

    `project` overrides the folder (default: `default_project()`); the other keywords are
    `MantleFlags` mutations.
    """

    spec = SPEC

    @staticmethod
    def flag_names() -> list[str]:
        return [f.name for f in dataclasses.fields(MantleFlags)]

    def __init__(self, project: Path | str | None = None, **flags: Any) -> None:
        root = Path(project) if project is not None else default_project()
        self.project = _load(root)
        if self.project.mantle is None:
            raise ValueError(f"{root} is not a Mantle project")
        self.flags = MantleFlags(**flags)

    async def open(self, case: Any, run_index: int) -> BankSession:
        setup = getattr(case, "setup", None)
        if setup is None and isinstance(case, dict):
            setup = case.get("setup")
        slug = (
            getattr(case, "slug", None)
            or (case.get("slug") if isinstance(case, dict) else None)
            or "case"
        )
        digest = hashlib.sha256(f"{slug}#{run_index}".encode()).hexdigest()[:12]
        return BankSession(self.project, self.flags, dict(setup or {}), f"bank-{digest}")


__all__ = ["SPEC", "BankBrain", "BankSession", "BankTarget", "default_project"]
