"""base44 skills-eval JSON (`eval.json`, the seed schema, unchanged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import register
from .._base import Dialect


class _Placeholder(BaseModel):
    model_config = ConfigDict(extra="allow")


@register
class Base44Dialect(Dialect):
    name = "base44"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "agent_skills"
    model = _Placeholder

    def sniff(self, data: Any, path: Path) -> bool:
        if path.name == "eval.json":
            return True
        return isinstance(data, dict) and any(
            k in data for k in ("prompts", "prompt", "expectedSkills", "checks")
        )
