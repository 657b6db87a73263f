"""Shared helpers for the review and revise tests: a scripted fake chat model, case files.

(No tests here; the name only keeps the helpers next to the tests that use them.)
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, SecretStr

from agentflows.review import ReviewModel
from evalcore.llm import ModelConfig

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"
CLINIC = REPO / "examples" / "clinic"
SKILLS = REPO / "examples" / "skills"
SCENARIOS = BANK / "eval" / "scenarios"


class ScriptedChat(GenericFakeChatModel):
    """Answers each call with the next scripted value as JSON content (json_schema mode) and
    keeps the prompts it was sent."""

    prompts: list[str] = Field(default_factory=list)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self.prompts.append("\n\n".join(str(m.content) for m in messages))
        item = next(self.messages)
        content = item if isinstance(item, str) else json.dumps(item)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=content))])


def fake_model(*answers: Any) -> ReviewModel:
    """A `ReviewModel` whose chat model answers with `answers`, one per call."""
    config = ModelConfig(
        model="fake-model",
        api_key=SecretStr("k"),
        max_retries=0,
        retry_base_delay_s=0.0,
        structured_output="json_schema",
    )
    return ReviewModel(config, ScriptedChat(messages=iter(answers)), cache=None)


def as_edits(document: Any) -> dict[str, Any]:
    """A revision answer that sets the whole document (a rewrite, as one edit at the root)."""
    return {"edits": [{"op": "set", "path": "", "value": document}]}


def bank_case(stem: str) -> dict[str, Any]:
    return yaml.safe_load((SCENARIOS / f"{stem}.yml").read_text("utf-8"))


def clinic_case(stem: str) -> dict[str, Any]:
    return json.loads((CLINIC / "cases" / f"{stem}.json").read_text("utf-8"))


def skills_eval() -> dict[str, Any]:
    return json.loads((SKILLS / "evals" / "todo-entities" / "eval.json").read_text("utf-8"))


def mantle(
    name: str = "A case",
    *,
    type: str | None = "edge_case",
    context: str = "You are a calm customer. Ask to replace your card, then stop.",
    criteria: list[str] | None = None,
    assertions: list[Any] | None = None,
    slots: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A Mantle scenario document built from parts."""
    scenario: dict[str, Any] = {"name": name}
    if type:
        scenario["type"] = type
    scenario["simulation_context"] = context
    if slots:
        scenario["setup"] = {"initial_slots": slots}
    goals: dict[str, Any] = {}
    if criteria is not None:
        goals["criteria"] = criteria
    if assertions is not None:
        goals["assertions"] = assertions
    if goals:
        scenario["goals"] = goals
    return {"scenario": scenario}


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
    return path


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    return path


def deep(data: Any) -> Any:
    return copy.deepcopy(data)
