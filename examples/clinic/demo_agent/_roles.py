"""What the clinic demo reads from a Playbook's tools and body (`roles_of`), and the faults
it can be told to make (`ClinicFlags`)."""

from __future__ import annotations

from dataclasses import dataclass

from evalcore.definitions import Playbook
from evalcore.lexicon.en.playbook_prose import ASKS_WHEN, OFFER_INSTEAD
from evalcore.lexicon.en.playbook_prose import OPT_OUT as _OPT_OUT

_LOOKUP = ("lookup_", "find_", "get_", "search_", "fetch_")


@dataclass(frozen=True)
class ClinicFlags:
    """Deliberate faults, so tests can show a check catches them (all off by default)."""

    never_book: bool = False
    """Confirms bookings, moves and cancellations without calling the tool or recording the
    outcome."""
    ignore_opt_out: bool = False
    """Answers an opt-out ("You're unsubscribed") and keeps replying afterwards; records no
    opt-out outcome."""
    double_text: bool = False
    """Sends every reply twice (two bubbles per turn)."""
    no_handoff: bool = False
    """Never leaves a Playbook other than the Default Playbook once it is active."""
    tool_loop: bool = False
    """Calls the availability tool three times whenever it offers times."""
    warn: bool = False
    """Raises a runtime warning (a dropped AML marker) on every reply."""


@dataclass(frozen=True)
class _Roles:
    lookup: tuple[str, ...]
    availability: str | None
    action: str | None
    effect: str | None
    outcome: str | None
    asks_when: bool
    offers_instead: str | None


def roles_of(playbook: Playbook) -> _Roles:
    lookup = tuple(t for t in playbook.tools if t.startswith(_LOOKUP) and t in playbook.body)
    availability = next((t for t in playbook.tools if "availab" in t), None)
    rest = [t for t in playbook.tools if not t.startswith(_LOOKUP) and t != availability]
    action = rest[-1] if rest else None
    verb = action.split("_", 1)[0] if action else ""
    effect = (
        None
        if action is None
        else "create"
        if verb in ("book", "create", "schedule")
        else "cancel"
        if verb in ("cancel", "delete", "remove")
        else "move"
    )
    body = " ".join(playbook.body.split())
    instead = OFFER_INSTEAD.search(body)
    return _Roles(
        lookup=lookup,
        availability=availability,
        action=action,
        effect=effect,
        outcome=next((o for o in playbook.outcomes if not _OPT_OUT.search(o)), None),
        asks_when=ASKS_WHEN.search(body) is not None,
        offers_instead=instead.group(1).lower() if instead else None,
    )


__all__ = ["_OPT_OUT", "ClinicFlags", "_Roles", "roles_of"]
