"""Helpers of the mutants' faults: which value a tool result holds, and a wrong value."""

from __future__ import annotations

from typing import Any


def returned(result: Any, value: Any) -> bool:
    """Does a tool result hold `value` (anywhere in it)?"""
    if result == value:
        return True
    if isinstance(result, dict):
        return any(returned(v, value) for v in result.values())
    if isinstance(result, list):
        return any(returned(v, value) for v in result)
    return False


def wrong_value(value: Any) -> Any:
    """The altered argument a `wrong_argument` mutant passes instead of `value`."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return (value[::-1] if len(value) > 1 else value + "x") + "-WRONG"
    return "WRONG"


__all__ = ["returned", "wrong_value"]
