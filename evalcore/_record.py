"""Plain data records with the few pydantic methods casegen calls on them.

Definitions (`Project` and its parts) and findings are built by casegen's own readers and
checks from values those readers already checked, then only read; pydantic validation adds
nothing there, and importing pydantic and building some thirty model classes was about
half of the start-up of `validate` and `sources`. These records are dataclasses with
keyword-only fields and `model_copy`, `model_dump` and `model_validate` as the pydantic
models had them; list and dict fields are copied on construction (as pydantic did), so a
record never shares a container with the code that built it. Inside a pydantic model, a
record field is checked by type only (the instance is kept, not rebuilt).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import Any, Self

#: Field metadata of a field `model_dump` leaves out (pydantic's `Field(exclude=True)`).
EXCLUDED = {"exclude": True}

#: Per record class, the names of its list and dict fields (copied on construction).
_CONTAINERS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


class Record:
    """Base of casegen's plain records (subclasses are `record` dataclasses)."""

    def __post_init__(self) -> None:
        lists, dicts = _containers(type(self))
        values = self.__dict__
        for name in lists:
            value = values[name]
            if isinstance(value, list | tuple):
                values[name] = list(value)
        for name in dicts:
            value = values[name]
            if isinstance(value, dict):
                values[name] = dict(value)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with `update` applied (not checked, as pydantic's `model_copy`)."""
        new = copy.deepcopy(self) if deep else copy.copy(self)
        if update:
            new.__dict__.update(update)
        return new

    def model_dump(self, *, mode: str = "python", exclude_none: bool = False) -> dict[str, Any]:
        """Fields as a dict, nested records as dicts; `mode="json"` gives JSON values."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.metadata.get("exclude"):
                continue
            value = getattr(self, f.name)
            if exclude_none and value is None:
                continue
            out[f.name] = _dump(value, mode == "json", exclude_none)
        return out

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """The record from an instance or from a dict of its fields (a finding read back
        from a checkpoint); other keys are ignored, as pydantic's default does."""
        if isinstance(data, cls):
            return data
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """The record from its fields (pydantic's unchecked constructor; a record is never
        checked)."""
        return cls(**values)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema  # start-up: pydantic_core, typing_extensions

        return core_schema.is_instance_schema(cls)


def record(cls: type | None = None, *, frozen: bool = False) -> Any:
    """`@dataclass(kw_only=True)`: fields are passed by name, as pydantic models take them;
    `model_fields` names them, as on a pydantic model."""

    def make(cls: type) -> type:
        made = dataclass(kw_only=True, frozen=frozen)(cls)
        made.model_fields = {f.name: f for f in dataclasses.fields(made)}  # type: ignore[attr-defined]
        return made

    return make if cls is None else make(cls)


def dataclass(cls: type | None = None, /, **options: Any) -> Any:
    """`dataclasses.dataclass(**options)`: one name for the records' decorator (the methods
    it writes are compiled in each process; no compiled code is kept between processes)."""
    return (
        dataclasses.dataclass(**options) if cls is None else dataclasses.dataclass(**options)(cls)
    )


def _containers(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kept = _CONTAINERS.get(cls)
    if kept is None:
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        lists = tuple(f.name for f in fields if str(f.type).startswith("list["))
        dicts = tuple(f.name for f in fields if str(f.type).startswith("dict["))
        kept = _CONTAINERS[cls] = (lists, dicts)
    return kept


def _dump(value: Any, json: bool, exclude_none: bool) -> Any:
    if isinstance(value, Record):
        return value.model_dump(mode="json" if json else "python", exclude_none=exclude_none)
    if isinstance(value, list):
        return [_dump(v, json, exclude_none) for v in value]
    if isinstance(value, dict) and (not json or all(type(k) is str for k in value)):
        return {_key(k, json): _dump(v, json, exclude_none) for k, v in value.items()}
    if not json or value is None or isinstance(value, bool | int) or type(value) is str:
        return value
    if type(value) is float:
        return value if math.isfinite(value) else None  # pydantic's JSON mode: inf, nan → null
    # dates, bytes, tuples, sets, paths, enums, dicts with other keys
    from pydantic_core import to_jsonable_python  # start-up: pydantic_core, typing_extensions

    return to_jsonable_python(value)


def _key(key: str, json: bool) -> str:
    if json:
        key.encode("utf-8")  # a lone surrogate in a key raises, as in pydantic's JSON mode
    return key


__all__ = ["EXCLUDED", "Record", "dataclass", "record"]
