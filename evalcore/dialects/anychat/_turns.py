"""Scripted turns of a conversation: text, chips, slots, confirms, events, media, simulation."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from ._base import ActionKind, AnychatModel, MediaKind, SystemEvent, _integral

UserText = Annotated[str, Field(min_length=1, max_length=4000)]


class ChipTurn(AnychatModel):
    """Tap a suggestion chip."""

    chip: str = Field(max_length=200)
    """The chip's id or label."""
    fallback: str | None = Field(None, max_length=4000)
    """What to type when the chip is not offered."""


class SlotTurn(AnychatModel):
    """Pick an offered time slot."""

    slot: Annotated[int, Field(ge=0, le=50), BeforeValidator(_integral)]
    """0-based index into the offered slots."""
    fallback: str | None = Field(None, max_length=4000)


class ConfirmTurn(AnychatModel):
    """Answer a confirm part yes or no."""

    confirm: bool
    fallback: str | None = Field(None, max_length=4000)


class SystemTurn(AnychatModel):
    """A platform event."""

    system: SystemEvent


class ActionTurn(AnychatModel):
    """Use a card action."""

    action: ActionKind
    label: str | None = Field(None, max_length=200)


class MediaTurn(AnychatModel):
    """Send an image or video."""

    media: MediaKind
    url: str = Field(max_length=2000)
    text: str | None = Field(None, max_length=4000)


class Simulation(AnychatModel):
    """An LLM plays the Person from here on."""

    goal: str = Field(max_length=2000)
    persona: str | None = Field(None, max_length=2000)
    """How the simulated person behaves."""
    knows: list[Annotated[str, Field(max_length=500)]] | None = Field(None, max_length=20)
    """Facts the simulated person may reveal."""
    until: str | None = Field(None, max_length=1000)
    """Stop condition."""
    maxTurns: Annotated[int, Field(ge=1, le=20), BeforeValidator(_integral)] | None = None


class SimulateTurn(AnychatModel):
    simulate: Simulation


Turn = (
    UserText
    | ChipTurn
    | SlotTurn
    | ConfirmTurn
    | SystemTurn
    | ActionTurn
    | MediaTurn
    | SimulateTurn
)
