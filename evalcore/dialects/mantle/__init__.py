"""Mantle scenario YAML (`eval/scenarios/*.yml`), Rasa Mantle's evaluation format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import register
from .._base import Dialect


class _Placeholder(BaseModel):
    model_config = ConfigDict(extra="allow")


@register
class MantleDialect(Dialect):
    name = "mantle"
    file_format = "yaml"
    suffixes = (".yml", ".yaml")
    project_kind = "mantle"
    model = _Placeholder

    def sniff(self, data: Any, path: Path) -> bool:
        if isinstance(data, dict) and "scenario" in data:
            return True
        return "scenarios" in path.parts or "mantle" in path.parts
