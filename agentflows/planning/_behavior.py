"""A coverage plan: the behaviours a suite should cover, and what each one exercises."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_serializer

#: Scenario types (Rasa's seven); Anychat and base44 cases carry them as tags.
CASE_TYPES = (
    "happy_path",
    "sad_path",
    "edge_case",
    "ambiguity",
    "out_of_scope",
    "escalation",
    "adversarial",
)

#: The `facts` key of a behaviour planned but never written, with the reason (a branch on a
#: value a correct agent may never ask for): the generate report lists it as dropped.
NOT_WRITTEN = "not_written"
#: A behaviour's fact for a branch that needs an id only another branch of its skill writes:
#: {"field", "value": the branch, "after": the value of the branch played first, "id": the
#: key it writes, "tools": the branch's tools, "asks": what else it asks the user for}. The
#: case plays `after` first, then asks for `value` in the same conversation (the drafter's
#: `chained` adds the request and its checks).
CHAINED = "chained"


class Behavior(BaseModel):
    """One planned case: a behaviour of one source (skill, playbook, agent skill) to cover.

    `facts` carries the concrete, real values the behaviour needs (the categorical value to
    choose, the gated tool, the denial response, the user lines to say), so the offline drafter
    can write the case deterministically and the LLM drafter is told exactly which ids exist.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    """Stable id, `<source>:<case>` (e.g. `card_replace:happy_stolen`); the resume key."""
    source: str
    """The target this behaviour belongs to (skill id, playbook id, agent-skill name)."""
    dialect: str
    type: str
    """One of CASE_TYPES."""
    case: str
    """Short slug used in the file name (`stolen`, `refused_confirmation`)."""
    title: str
    """Human title; becomes the case name (`Customer replaces a stolen card`)."""
    description: str
    """What the case must show, in a sentence or two (used in prompts and the PR table)."""
    covers: list[str] = Field(default_factory=list)
    """Definition elements exercised, e.g. `block:card_replace.pick_card`,
    `value:card_replace.replacement_reason=stolen`, `tool:place_replacement_order`,
    `deny:place_replacement_order`, `response:utter_order_placed`."""
    facts: dict[str, Any] = Field(default_factory=dict)
    priority: int = 50
    """Lower is more valuable; `--count N` keeps the N lowest."""
    edits: list[dict[str, Any]] = Field(default_factory=list)
    """Corrections a model proposed to this behaviour's case at plan refinement
    (`agentflows.drafting.llm._edits`: an edit with the definition line behind it and its
    status so far); drafting applies those that pass its checks. Left out of the
    behaviour's JSON when empty, so a plan without any reads as it always did."""

    @model_serializer(mode="wrap")
    def _without_no_edits(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if isinstance(data, dict) and not self.edits:
            data.pop("edits", None)
        return data


class Plan(BaseModel):
    """Behaviours to draft for one source, plus every element a suite could cover."""

    model_config = ConfigDict(extra="forbid")

    source: str
    dialect: str
    behaviors: list[Behavior] = Field(default_factory=list)
    elements: list[str] = Field(default_factory=list)
    """All coverable elements of the source (the denominator of the coverage report)."""
    untestable: dict[str, str] = Field(default_factory=dict)
    """Elements no scenario can bring about (a tool failure nothing in a case can cause),
    each with why: reported in coverage, never planned as a case that verification drops."""
