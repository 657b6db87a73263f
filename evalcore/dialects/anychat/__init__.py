"""Anychat test-case JSON (the seed schema, unchanged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import register
from .._base import Dialect


class _Placeholder(BaseModel):
    model_config = ConfigDict(extra="allow")


@register
class AnychatDialect(Dialect):
    name = "anychat"
    file_format = "json"
    suffixes = (".json",)
    project_kind = "anychat"
    model = _Placeholder

    def sniff(self, data: Any, path: Path) -> bool:
        if path.name == "eval.json":
            return False
        return isinstance(data, dict) and ("turns" in data or "expect" in data)
