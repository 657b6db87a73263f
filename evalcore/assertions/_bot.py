"""`bot_uttered` and `bot_did_not_utter`, judged the way Rasa's engine judges them.

Rasa's `BotUtteredAssertion` looks for each property on its own (`rasa/e2e_test/
assertions.py`): some message has the response name, some message's text matches the pattern,
some message has the buttons, and these may be three different messages. Buttons are compared
by position, title and payload both (an assertion without a payload wants a button without
one), pairwise up to the shorter list. `BotDidNotUtterAssertion` fails when any message has
ANY of the properties (the response name, or matching text, or any one of the buttons).

A bot message whose text is not a string (`text: null`, a message with only buttons or an
image) makes Rasa's regex search raise `TypeError` once the search reaches it: the
assertion, and with it Rasa's whole run, errors. That looks like a bug in Rasa, but a verdict
must be Rasa's, so such an assertion fails as `invalid` here, with the reason in its detail.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ._compare import show
from ._events import BotEvent, Button, Event
from ._mantle import Check, exists, mantle_check
from ._patterns import BotPattern, same_button
from ._results import SpecError, Verdict
from ._spec import spec_map

_KEYS = ("utter_name", "text_matches", "buttons")


class _BotSpec:
    """The properties of one bot check, read as Rasa's `from_dict` reads them."""

    def __init__(self, kind: str, spec: Any) -> None:
        spec = spec_map(kind, spec, optional=_KEYS)
        self.utter_name: Any = spec.get("utter_name")
        text = spec.get("text_matches")
        raw_buttons = spec.get("buttons", [])
        if not isinstance(raw_buttons, list):
            raise SpecError(f"{kind}.buttons must be a list, got {show(raw_buttons)}")
        buttons = []
        for raw in raw_buttons:
            if not isinstance(raw, Mapping):
                raise SpecError(f"{kind}.buttons items are {{title, payload}}, got {show(raw)}")
            button = spec_map(f"{kind}.buttons", raw, optional=["title", "payload"])
            buttons.append(Button(title=button.get("title"), payload=button.get("payload")))
        self.buttons = tuple(buttons)
        if not self.utter_name and not text and not self.buttons:
            raise SpecError(
                f"{kind} needs a non-empty utter_name, text_matches or buttons (Rasa treats "
                "an empty value as absent)"
            )
        self.text: re.Pattern[str] | None = None
        if text is not None:
            if not isinstance(text, str):
                raise SpecError(f"{kind}.text_matches must be a string, got {show(text)}")
            try:
                self.text = re.compile(text)
            except re.error as exc:
                raise SpecError(
                    f"{kind}.text_matches is not a valid regular expression: {exc}"
                ) from None

    def patterns(self) -> list[BotPattern]:
        """One pattern per property given (Rasa looks for each on its own)."""
        out = []
        if self.utter_name is not None:
            out.append(BotPattern("bot", utter_name=self.utter_name))
        if self.text is not None:
            out.append(BotPattern("bot", text_matches=self.text))
        if self.buttons:
            out.append(BotPattern("bot", buttons=self.buttons))
        return out


def _textless(event: BotEvent, pattern: re.Pattern[str]) -> Verdict:
    return Verdict(
        False,
        f"the bot message at {event.where()} has text {show(event.text)}; Rasa's engine "
        f"raises TypeError searching it for /{pattern.pattern}/ (a Rasa bug), so the "
        "assertion errors there and Rasa's run with it",
        invalid=True,
    )


def _first_text_hit(pattern: re.Pattern[str], messages: Sequence[BotEvent]) -> Verdict | None:
    """None when some message matches before any message without text; else the verdict."""
    for event in messages:
        if not isinstance(event.text, str):
            return _textless(event, pattern)
        if pattern.search(event.text):
            return None
    return Verdict(False, "")


@mantle_check("bot_uttered")
def _bot_uttered(kind: str, spec: Any) -> Check:
    bot = _BotSpec(kind, spec)
    patterns = bot.patterns()
    plain = exists_all(patterns)
    if bot.text is None:
        return plain
    text = bot.text

    def check(events: Sequence[Event]) -> Verdict:
        messages = [e for e in events if isinstance(e, BotEvent)]
        crash = _first_text_hit(text, messages)
        if crash is not None and crash.invalid:
            return crash
        return plain(events)

    return check


def exists_all(patterns: Sequence[BotPattern]) -> Check:
    """Every pattern matches some message (each may be a different one)."""
    singles = [exists(p) for p in patterns]

    def check(events: Sequence[Event]) -> Verdict:
        verdicts = [one(events) for one in singles]
        failed = [v.detail for v in verdicts if not v.passed]
        if failed:
            return Verdict(False, " | ".join(failed))
        return Verdict(True, "; ".join(v.detail for v in verdicts))

    check.every = tuple(patterns)  # type: ignore[attr-defined]
    return check


@mantle_check("bot_did_not_utter")
def _bot_did_not_utter(kind: str, spec: Any) -> Check:
    bot = _BotSpec(kind, spec)
    wanted = " or ".join(p.want().removeprefix("bot message ") for p in bot.patterns())

    def hits(event: BotEvent) -> list[str]:
        found = []
        if bot.utter_name is not None and event.utter_action == bot.utter_name:
            found.append(f"response {show(bot.utter_name)}")
        if bot.text is not None and bot.text.search(event.text):
            found.append(f"text matching /{bot.text.pattern}/")
        forbidden = [a for a in event.buttons if any(same_button(b, a) for b in bot.buttons)]
        if forbidden:
            found.append("button " + ", ".join(show(b.title) for b in forbidden))
        return found

    def check(events: Sequence[Event]) -> Verdict:
        for event in events:
            if not isinstance(event, BotEvent):
                continue
            if bot.text is not None and not isinstance(event.text, str):
                return _textless(event, bot.text)
            found = hits(event)
            if found:
                return Verdict(
                    False,
                    f"expected no bot message with {wanted}; {event.describe()} at "
                    f"{event.where()} has {' and '.join(found)}",
                )
        return Verdict(True, f"no bot message with {wanted}")

    return check
