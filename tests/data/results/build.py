"""Rebuild the recorded runs in this folder: `python tests/data/results/build.py`.

Each run is a conversation with a deliberately broken version of the bank example's agent
(examples/bank), played through casegen's own runner (`evalcore.runner.run_cases`) and
written by its `ResultsWriter`, so the files are exactly what `casegen run` writes. The
broken agents are in-process `FunctionTarget`s that replay hand-written Rasa tracker events
turn by turn; the simulated user and the criteria judge are `ScriptedChatModel`s that say
the scripted lines and give the verdicts below. Nothing touches the network.

`results/` is gitignored, so new files here need `git add -f tests/data/results`.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from evalcore.agents import AgentMessage, AgentReply, UserTurn
from evalcore.agents._errors import AgentUnavailable
from evalcore.judge import JudgeSettings
from evalcore.llm import ModelConfig
from evalcore.runner import ResultsWriter, RunOptions, collect_cases, run_cases
from evalcore.runner.testing import FunctionTarget, ScriptedChatModel, answers
from evalcore.simulator import SimulatorSettings

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
STAMP = "2026-03-02_14-05-11"
BANK = "examples/bank/eval/scenarios"
SCRIPTED = ModelConfig(model="scripted", structured_output="function_calling")


class Log:
    """A tracker under construction: events with timestamps and the transcript they imply."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.clock = 1_772_460_311.0

    def add(self, event: str, **fields: Any) -> None:
        self.clock += 0.4
        self.events.append({"event": event, "timestamp": round(self.clock, 3), **fields})

    def user(self, text: str) -> None:
        self.add("user", text=text)

    def bot(self, text: str, utter: str | None = None) -> None:
        self.add("bot", text=text, metadata={"utter_action": utter} if utter else {})

    def skill(self, kind: str, skill_id: str, step: str | None = None) -> None:
        self.add(f"skill_{kind}", skill_id=skill_id, **({"step_id": step} if step else {}))

    def block(self, kind: str, skill_id: str, block_id: str, step: str | None = None) -> None:
        extra = {"step_id": step} if step else {}
        self.add(f"ordered_block_{kind}", skill_id=skill_id, block_id=block_id, **extra)

    def memory(self, key: str, value: Any) -> None:
        self.add("memory_set", key=key, value=value)

    def tool(
        self,
        name: str,
        arguments: dict[str, Any],
        result: Any = None,
        *,
        skill: str | None = None,
        error: str | None = None,
        source: str = "local",
        mcp: str | None = None,
    ) -> None:
        self.add(
            "tool_executed",
            tool_name=name,
            arguments=arguments,
            source=source,
            **({"mcp_server": mcp} if mcp else {}),
            result=None if error else result,
            is_error=error is not None,
            error_message=error,
            metadata={"skill_id": skill} if skill else {},
        )

    def transcript(self) -> list[dict[str, Any]]:
        lines, turn = [], 0
        for event in self.events:
            if event["event"] == "user":
                turn += 1
                lines.append({"turn": turn, "role": "user", "text": event["text"]})
            elif event["event"] == "bot":
                lines.append({"turn": turn, "role": "agent", "text": event["text"]})
        return lines


def verified_pick_card(log: Log, customer: str, dob: str, postcode: str) -> None:
    log.tool(
        "verify_identity",
        {"customer_id": customer, "date_of_birth": dob, "postcode": postcode},
        {"verified": True},
        skill="card_replace",
    )
    log.memory("project.authenticated", True)
    log.block("entered", "card_replace", "pick_card")
    log.tool(
        "list_cards",
        {"customer_id": customer},
        {
            "cards": [
                {"card_id": "crd_7f3a", "label": "Everyday Debit ending 4821", "status": "active"}
            ]
        },
        skill="card_replace",
    )


def stolen(error: bool) -> Log:
    """card_replace_stolen: run 1 the order tool fails (Tool); run 2 the agent records the
    wrong reason (Instruction)."""
    log = Log()
    reason = "stolen" if error else "lost"
    log.user("I need to stop my debit card and get a new one")
    log.skill("activated", "card_replace")
    log.bot(
        "I can help you replace your card. It only takes a few steps.", "utter_card_replace_intro"
    )
    log.bot("First I need to check it's you. What are your date of birth and postcode?")
    log.user("14 March 1986, postcode 94110")
    verified_pick_card(log, "C-20481734", "1986-03-14", "94110")
    log.bot("I can see one card, your Everyday Debit ending 4821. Is that the one?")
    log.user("The Everyday Debit one")
    log.memory("card_replace.selected_card_id", "crd_7f3a")
    log.memory("card_replace.selected_card_label", "Everyday Debit ending 4821")
    log.tool(
        "check_replacement_eligibility",
        {"card_id": "crd_7f3a"},
        {"eligible": True, "card": "Everyday Debit ending 4821"},
        skill="card_replace",
    )
    log.memory("card_replace.eligibility_checked", True)
    log.memory("card_replace.replacement_eligible", True)
    log.bot("What happened to the card?", "utter_ask_replacement_reason")
    log.user("It was stolen from my bag this morning")
    log.memory("card_replace.replacement_reason", reason)
    if error:
        log.memory("card_replace.fraud_reported", True)
    log.tool(
        "block_card",
        {"card_id": "crd_7f3a", "reason": reason},
        {"blocked": True, "fraud_case_id": "FR-88120" if error else None},
        skill="card_replace",
    )
    log.memory("card_replace.card_blocked", True)
    log.bot(
        "I've blocked your Everyday Debit ending 4821"
        + (
            " and flagged it to our fraud team. Nobody can use it any more."
            if error
            else ", so nobody can use it any more."
        ),
        "utter_card_blocked",
    )
    log.bot("How should we send the new card?", "utter_ask_shipping_method")
    log.user("Express, please")
    log.memory("card_replace.shipping_method", "express")
    log.block("completed", "card_replace", "pick_card", "ask_shipping")
    log.tool(
        "get_mailing_address",
        {"customer_id": "C-20481734"},
        {"city": "San Francisco"},
        skill="card_replace",
        source="mcp",
        mcp="crm",
    )
    log.bot("The new card will go to your address in San Francisco.")
    log.bot("Have you noticed any payments on it that you don't recognise?")
    log.user("I haven't seen any yet")
    log.bot(
        "To confirm: a new Everyday Debit ending 4821 with a new card number, sent by "
        "express shipping ($15, 1-2 business days) to the address on file. Shall I place "
        "the order?",
        "utter_confirm_order",
    )
    log.user("Yes, please order it")
    arguments = {"card_id": "crd_7f3a", "shipping": "express", "reason": reason}
    if error:
        log.tool(
            "place_replacement_order",
            arguments,
            skill="card_replace",
            error="HTTPStatusError: Server error '503 Service Unavailable' for url "
            "'http://cards-api.riverbend.internal/v1/cards/crd_7f3a/replacements'",
        )
        log.bot(
            "Sorry, the order didn't go through and nothing has been charged. Please try "
            "again in a few minutes, or I can connect you with a member of our team.",
            "utter_order_failed",
        )
        return log
    log.tool(
        "place_replacement_order",
        arguments,
        {
            "ordered": True,
            "order_id": "RPL-55810",
            "arrives_in": "1-2 business days",
            "fee_usd": 15,
        },
        skill="card_replace",
    )
    log.memory("card_replace.order_id", "RPL-55810")
    log.bot(
        "Done, your replacement card is on its way and should arrive in 1-2 business "
        "days. Your order number is RPL-55810.",
        "utter_order_placed",
    )
    log.skill("completed", "card_replace")
    return log


def frustrated_handoff() -> Log:
    """human_handoff_frustrated_escalation: card_replace takes the request (Skill)."""
    log = Log()
    log.user("My card keeps getting declined and I want to talk to a real person")
    log.skill("activated", "card_replace")
    log.bot(
        "I can help you replace your card. It only takes a few steps.", "utter_card_replace_intro"
    )
    log.bot("Before we start, what are your date of birth and postcode?")
    log.user("I don't want to verify anything, I want a real person.")
    log.bot(
        "I understand. I can only look at your card once you're verified. What are your "
        "date of birth and postcode?"
    )
    log.user("Please just transfer me to someone.")
    log.skill("cancelled", "card_replace", "autonomous")
    log.skill("activated", "human_handoff")
    log.block("entered", "human_handoff", "handoff")
    log.memory("human_handoff.handoff_queue", "cards")
    log.memory(
        "human_handoff.handoff_summary",
        "Debit card declined twice at a supermarket today; customer wants a person.",
    )
    log.bot(
        "I'm passing you to a member of our team now. They can see what we've discussed, "
        "so you won't need to repeat it.",
        "utter_transferring_to_agent",
    )
    log.tool(
        "transfer_to_agent",
        {
            "queue": "cards",
            "summary": "Debit card declined twice at a supermarket today; customer wants a person.",
        },
        {"transferred": True, "reference": "TR-4471"},
        skill="human_handoff",
    )
    log.block("completed", "human_handoff", "handoff", "transfer")
    log.skill("completed", "human_handoff")
    return log


def damaged_asked_twice() -> Log:
    """card_replace_damaged: the agent asks for the reason again after recording it
    (Instruction)."""
    log = Log()
    log.user("Hi, the chip on my card is cracked and it stopped working. Can I get a new one?")
    log.skill("activated", "card_replace")
    log.bot(
        "I can help you replace your card. It only takes a few steps.", "utter_card_replace_intro"
    )
    log.bot("What phone number is on your account?")
    log.user("It's +1 555 014 8890")
    log.tool(
        "lookup_customer",
        {"phone": "+15550148890"},
        {"found": True, "first_name": "Dana", "has_cards": True},
        skill="card_replace",
    )
    log.memory("project.customer_id", "C-20377121")
    log.bot("Thanks, Dana. What are your date of birth and postcode?")
    log.user("8 May 1990, 10027")
    verified_pick_card(log, "C-20377121", "1990-05-08", "10027")
    log.bot("I can see one card, your Everyday Debit ending 4821. Is that the one?")
    log.user("Yes, that's the one")
    log.memory("card_replace.selected_card_id", "crd_7f3a")
    log.memory("card_replace.selected_card_label", "Everyday Debit ending 4821")
    log.tool(
        "check_replacement_eligibility",
        {"card_id": "crd_7f3a"},
        {"eligible": True, "card": "Everyday Debit ending 4821"},
        skill="card_replace",
    )
    log.bot("What happened to the card?", "utter_ask_replacement_reason")
    log.user("Like I said, the chip is cracked. It's damaged.")
    log.memory("card_replace.replacement_reason", "damaged")
    log.bot("What happened to the card?", "utter_ask_replacement_reason")
    log.user("It's damaged!")
    log.memory("card_replace.replacement_reason", "damaged")
    log.bot("How should we send the new card?", "utter_ask_shipping_method")
    log.user("Standard is fine")
    log.memory("card_replace.shipping_method", "standard")
    log.block("completed", "card_replace", "pick_card", "ask_shipping")
    log.tool(
        "get_mailing_address",
        {"customer_id": "C-20377121"},
        {"city": "Brooklyn"},
        skill="card_replace",
        source="mcp",
        mcp="crm",
    )
    log.bot("The new card will go to your address in Brooklyn.")
    log.bot(
        "To confirm: a replacement for your Everyday Debit ending 4821 with the same "
        "number, sent by standard shipping to the address on file. Shall I place the "
        "order?",
        "utter_confirm_order",
    )
    log.user("Yes please")
    log.tool(
        "order_replacement",
        {"card_id": "crd_7f3a", "shipping": "standard"},
        {
            "ordered": True,
            "order_id": "RPL-55877",
            "arrives_in": "5-7 business days",
            "old_card_works_until_activation": True,
        },
        skill="card_replace",
    )
    log.memory("card_replace.order_id", "RPL-55877")
    log.bot(
        "Done, your replacement card is on its way and should arrive in 5-7 business "
        "days. Your order number is RPL-55877.",
        "utter_order_placed",
    )
    log.skill("completed", "card_replace")
    return log


def refused_off_script() -> Log:
    """card_replace_refused_confirmation: the simulated user stops mid-way (Scenario)."""
    log = Log()
    log.user("Hi, I need a new debit card")
    log.skill("activated", "card_replace")
    log.bot(
        "I can help you replace your card. It only takes a few steps.", "utter_card_replace_intro"
    )
    log.bot("What are your date of birth and postcode?")
    log.user("2 July 1979, postcode 60614")
    verified_pick_card(log, "C-20533910", "1979-07-02", "60614")
    log.bot("I can see one card, your Everyday Debit ending 4821. Is that the one?")
    log.user("The Everyday Debit card")
    log.memory("card_replace.selected_card_id", "crd_7f3a")
    log.memory("card_replace.selected_card_label", "Everyday Debit ending 4821")
    log.tool(
        "check_replacement_eligibility",
        {"card_id": "crd_7f3a"},
        {"eligible": True, "card": "Everyday Debit ending 4821"},
        skill="card_replace",
    )
    log.bot("What happened to the card?", "utter_ask_replacement_reason")
    return log


def known_caller() -> Log:
    """check_balance_known_caller: customer_id is pre-filled, so lookup_customer is rightly
    skipped while the case expects it (Scenario)."""
    log = Log()
    log.user("What's my checking balance?")
    log.skill("activated", "check_balance")
    log.memory("check_balance.account_type", "checking")
    log.bot("Sure. First, what are your date of birth and postcode?")
    log.user("4 April 1988, postcode 30301")
    log.tool(
        "verify_identity",
        {"customer_id": "C-20411873", "date_of_birth": "1988-04-04", "postcode": "30301"},
        {"verified": True},
        skill="check_balance",
    )
    log.memory("project.authenticated", True)
    log.tool(
        "get_balance",
        {"account_type": "checking"},
        {"balance": "2418.50", "currency": "USD"},
        skill="check_balance",
    )
    log.memory("check_balance.balance_reported", True)
    log.bot("Your checking balance is $2,418.50.")
    log.bot("Recent card payments can take a day to show up.", "utter_pending_transactions_note")
    log.skill("completed", "check_balance")
    return log


def savings_passed() -> Log:
    log = Log()
    log.user("How much do I have in my savings account?")
    log.skill("activated", "check_balance")
    log.memory("check_balance.account_type", "savings")
    log.bot("Sure. First, what are your date of birth and postcode?")
    log.user("30 November 1992, postcode 73301")
    log.tool(
        "verify_identity",
        {"customer_id": "C-20199007", "date_of_birth": "1992-11-30", "postcode": "73301"},
        {"verified": True},
        skill="check_balance",
    )
    log.memory("project.authenticated", True)
    log.tool(
        "get_balance",
        {"account_type": "savings"},
        {"balance": "12050.00", "currency": "USD"},
        skill="check_balance",
    )
    log.bot("Your savings balance is $12,050.00.")
    log.skill("completed", "check_balance")
    return log


def turns_of(log: Log) -> tuple[list[str], list[list[dict[str, Any]]]]:
    """The user lines, and the agent's events per turn (turn 0 answers the session start)."""
    users: list[str] = []
    replies: list[list[dict[str, Any]]] = [[]]
    for event in log.events:
        if event["event"] == "user":
            users.append(event["text"])
            replies.append([])
        else:
            replies[-1].append({k: v for k, v in event.items() if k != "timestamp"})
    return users, replies


def broken_agent(log: Log) -> FunctionTarget:
    """An agent that answers turn n with the events the log holds for turn n."""
    _, replies = turns_of(log)

    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        number = state["turn"] = state.get("turn", -1) + 1
        events = replies[number] if number < len(replies) else []
        messages = [
            AgentMessage(text=e["text"], response=e["metadata"].get("utter_action"))
            for e in events
            if e["event"] == "bot"
        ]
        return AgentReply(messages=messages, events=events)

    return FunctionTarget(respond, spec="python:tests/data/results/build.py:broken_agent")


def unreachable() -> FunctionTarget:
    def respond(turn: UserTurn, state: dict[str, Any]) -> AgentReply:
        raise AgentUnavailable("cannot reach http://localhost:5005 (connection refused)")

    return FunctionTarget(respond, spec="rasa:http://localhost:5005")


RUNS: list[dict[str, Any]] = [
    {
        "case": f"{BANK}/card_replace_stolen.yml",
        "log": stolen(error=True),
        "verdicts": [
            ("pass", "[T4] utter_card_blocked comes before any mention of the new card at [T4]."),
            ("pass", "[T4] the card was blocked without asking the customer whether to block it."),
            ("pass", "[T7] the agent said the order did not go through, and never claimed it."),
        ],
    },
    {
        "case": f"{BANK}/card_replace_stolen.yml",
        "log": stolen(error=False),
        "verdicts": [
            ("pass", "[T4] the agent says the card is blocked before it asks about shipping."),
            ("pass", "[T4] the agent blocked the card without asking for permission."),
            ("pass", "[T7] the order was confirmed only after the customer said yes at [T7]."),
        ],
    },
    {
        "case": f"{BANK}/human_handoff_frustrated_escalation.yml",
        "log": frustrated_handoff(),
        "verdicts": [
            ("pass", "[T3] the agent handed over without troubleshooting the declined card."),
            (
                "fail",
                "[T1] the agent asked for the date of birth and postcode before handing "
                "over, and asked again at [T2].",
            ),
        ],
    },
    {
        "case": f"{BANK}/card_replace_damaged.yml",
        "log": damaged_asked_twice(),
        "verdicts": [
            ("pass", "[T8] the agent said the order was placed only after order_replacement ran."),
            (
                "fail",
                "[T5] the agent asked what happened to the card again after the customer "
                "had said it is damaged at [T5].",
            ),
        ],
    },
    {"case": f"{BANK}/card_replace_damaged.yml", "log": None},
    {
        "case": f"{BANK}/card_replace_refused_confirmation.yml",
        "log": refused_off_script(),
        "verdicts": [
            ("pass", "No tool: place_replacement_order line appears in the ledger."),
            ("pass", "[T3] the agent never says a new card is on its way."),
            (
                "inconclusive",
                "[T3] the conversation ended before the card was blocked, so there "
                "was nothing to make clear.",
            ),
            ("pass", "[T3] the agent did not push for an order."),
        ],
    },
    {
        "case": "tests/data/results/cases/check_balance_known_caller.yml",
        "log": known_caller(),
        "verdicts": [
            ("pass", "[T2] verify_identity ran before the balance was given at [T2]."),
            ("pass", "[T2] only the checking balance was given."),
        ],
    },
    {
        "case": f"{BANK}/check_balance_savings_happy.yml",
        "log": savings_passed(),
        "verdicts": [
            ("pass", "[T2] verify_identity ran before the balance at [T2]."),
            ("pass", "[T2] only the savings balance was given."),
        ],
    },
]


async def play(spec: dict[str, Any]) -> None:
    cases = collect_cases([Path(spec["case"])], project=REPO / "examples/bank")
    log: Log | None = spec["log"]
    if log is None:
        target, lines, verdicts = unreachable(), [], []
    else:
        target, verdicts = broken_agent(log), spec["verdicts"]
        lines = turns_of(log)[0]
    simulator = ScriptedChatModel(
        answer=answers(
            *({"message": line, "done": False} for line in lines),
            then={"message": "", "done": True},
        )
    )
    judge = ScriptedChatModel(
        answer=answers(
            {
                f"criterion_{n}": {"verdict": verdict, "reason": reason}
                for n, (verdict, reason) in enumerate(verdicts, start=1)
            }
        )
    )
    options = RunOptions(
        runs=1,
        parallel=1,
        simulator=SimulatorSettings(model=SCRIPTED, chat=simulator),
        judge=JudgeSettings(model=SCRIPTED, chat=judge),
    )
    writer = ResultsWriter(HERE, timestamp=STAMP)
    await run_cases(cases, target, options, results=writer)


async def main() -> None:
    shutil.rmtree(HERE / STAMP, ignore_errors=True)
    for spec in RUNS:
        await play(spec)


if __name__ == "__main__":
    import os

    os.chdir(REPO)
    asyncio.run(main())
