"""The SQLite checkpoint store (`.casegen/checkpoints.sqlite`), read as data only.

`generate` and `review --interactive` keep their state there. LangGraph's default serializer
rebuilds any object a checkpoint names: a msgpack extension value says "call this module's
function with these arguments", so a tampered file (`os.system`, a pickle) runs code on
`--resume`. The store is opened here with a serializer that reads plain msgpack only: maps,
lists, text, numbers, and a handful of value types from the standard library and LangGraph's
own control records (`Send`, `Interrupt`, `Command`); any other extension value, a pickle and
LangChain's JSON constructors are refused with `StoreRefused`, before anything is imported.
casegen's own state is plain JSON-like data, so nothing it writes is ever refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from evalcore.errors import UserError

#: Value types a checkpoint may hold besides plain msgpack (none of them runs code to build).
ALLOWED_TYPES = frozenset(
    {
        ("datetime", "datetime"),
        ("datetime", "date"),
        ("datetime", "time"),
        ("datetime", "timedelta"),
        ("datetime", "timezone"),
        ("uuid", "UUID"),
        ("decimal", "Decimal"),
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("collections", "deque"),
        ("langgraph.types", "Send"),
        ("langgraph.types", "Interrupt"),
        ("langgraph.types", "Command"),
    }
)


class StoreRefused(ValueError):
    """A checkpoint holds something other than data; the message names it."""


def data_only_serializer() -> Any:
    """LangGraph's serializer with pickles off, no JSON constructors, and an extension hook
    that refuses every type outside `ALLOWED_TYPES` (before importing its module)."""
    import ormsgpack  # start-up: ormsgpack
    from langgraph.checkpoint.serde import jsonplus  # start-up: langgraph, langchain_core, pydantic

    checked = jsonplus._create_msgpack_ext_hook(None)  # LangGraph's strict hook
    constructors = {
        jsonplus.EXT_CONSTRUCTOR_SINGLE_ARG,
        jsonplus.EXT_CONSTRUCTOR_POS_ARGS,
        jsonplus.EXT_CONSTRUCTOR_KW_ARGS,
        jsonplus.EXT_METHOD_SINGLE_ARG,
        jsonplus.EXT_PYDANTIC_V1,
        jsonplus.EXT_PYDANTIC_V2,
    }

    refusals: list[str] = []

    def hook(code: int, data: bytes) -> Any:
        try:
            return _checked_ext(code, data)
        except StoreRefused as exc:  # msgpack reports only "ext_hook failed": keep why
            refusals.append(str(exc))
            raise

    def _checked_ext(code: int, data: bytes) -> Any:
        if code in constructors:
            named = ormsgpack.unpackb(data, option=ormsgpack.OPT_NON_STR_KEYS)
            kind = tuple(named[:2]) if isinstance(named, list | tuple) else ()
            if code == jsonplus.EXT_METHOD_SINGLE_ARG:
                kind = tuple(named[:3]) if isinstance(named, list | tuple) else ()
                allowed = kind == ("datetime", "datetime", "fromisoformat")
            else:
                allowed = kind in ALLOWED_TYPES
            if not allowed:
                shown = ".".join(str(part) for part in kind) or "an unnamed value"
                raise StoreRefused(f"a checkpoint holds {shown}, which is not data")
            return checked(code, data)
        if code == jsonplus.EXT_DELTA_SNAPSHOT:
            return checked(code, data)
        raise StoreRefused(f"a checkpoint holds a msgpack extension value of type {code}")

    class DataOnly(jsonplus.JsonPlusSerializer):
        def loads_typed(self, data: tuple[str, bytes]) -> Any:
            refusals.clear()
            try:
                return super().loads_typed(data)
            except Exception as exc:  # a damaged or foreign checkpoint: say so, never crash
                if refusals:
                    raise StoreRefused(refusals[-1]) from None
                if isinstance(exc, NotImplementedError):  # "pickle" and unknown formats
                    raise StoreRefused(f"a checkpoint is stored as {data[0]!r}") from None
                raise StoreRefused(
                    f"a checkpoint cannot be read ({type(exc).__name__}: {exc})"
                ) from None

    return DataOnly(
        pickle_fallback=False,
        allowed_json_modules=None,
        allowed_msgpack_modules=None,
        __unpack_ext_hook__=hook,
    )


@asynccontextmanager
async def open_store(path: Path) -> AsyncIterator[Any]:
    """The store's `AsyncSqliteSaver`, reading and writing through `data_only_serializer`."""
    import aiosqlite  # start-up: asyncio, aiosqlite

    # start-up: langgraph, langchain_core, pydantic
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    serializer = data_only_serializer()
    async with aiosqlite.connect(str(path)) as conn:
        saver = AsyncSqliteSaver(conn, serde=serializer)
        saver.jsonplus_serde = serializer  # the metadata column is read with this one
        yield saver


def refused(exc: BaseException, path: Path) -> UserError | None:
    """The error to show when reading `path` failed because a checkpoint is not data."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, StoreRefused):
            return UserError(
                f"{path}: {cause}; casegen never loads code from its checkpoint store",
                hint="the file was changed outside casegen: remove its runs with "
                "`casegen clean` (or delete the file) and start the run again",
            )
        cause = cause.__cause__ or cause.__context__
    return None


__all__ = ["ALLOWED_TYPES", "StoreRefused", "data_only_serializer", "open_store", "refused"]
