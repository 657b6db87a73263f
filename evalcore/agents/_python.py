"""`python:module:function`: an in-process agent speaking the JSON protocol without HTTP.

The callable takes the same request dict an `http:` agent receives and returns the same reply
dict (docs/agent-protocol.md §5). A class gets one instance per session, so an agent can keep
its conversation state on `self` instead of in a dictionary keyed by session id. The module is
imported when the spec is parsed, so a typo fails before any run starts.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
import zlib
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..suggest import did_you_mean
from ._errors import AgentError
from ._protocol import AgentReply, FinalRecord, UserTurn
from ._wire import case_slug, close_request, new_session_id, parse_final, parse_reply, turn_request


def _import_module(name: str) -> Any:
    if name.endswith(".py") or os.sep in name or "/" in name:
        path = Path(name).expanduser().resolve()
        if not path.is_file():
            raise UserError(f"python target: no such file {name}")
        module_name = f"casegen_agent_{path.stem}_{zlib.crc32(str(path).encode()):08x}"
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise UserError(f"python target: cannot load {name} as a module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[module_name]
            raise UserError(
                f"python target: loading {name} failed: {type(exc).__name__}: {exc}"
            ) from exc
        return module
    # Console scripts do not put the current folder on the path; `python -m` does.
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            raise UserError(
                f"python target: no module named '{name}'",
                hint="give an importable module (the current folder is on the path) "
                "or a path to a .py file",
            ) from None
        raise UserError(f"python target: importing {name} failed: {exc}") from exc
    except Exception as exc:
        raise UserError(
            f"python target: importing {name} failed: {type(exc).__name__}: {exc}"
        ) from exc


def load_callable(module_name: str, attribute: str) -> Any:
    """The object `module:attribute` names (the attribute may be dotted)."""
    obj: Any = _import_module(module_name)
    for part in attribute.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            raise UserError(
                f"python target: {module_name} has no attribute '{attribute}'",
                hint=did_you_mean(part, names, what="name"),
            )
        obj = getattr(obj, part)
    if not callable(obj):
        raise UserError(f"python target: {module_name}:{attribute} is not callable")
    return obj


class PythonSession:
    """One conversation with an in-process agent."""

    def __init__(self, handler: Any, where: str, case: str, run: int) -> None:
        self._handler = handler
        self._where = where
        self.case = case
        self.run = run
        self.session_id = new_session_id()
        self._last_state: dict[str, Any] = {}

    async def _call(self, request: dict[str, Any]) -> Any:
        try:
            result = self._handler(request)
            if inspect.isawaitable(result):
                result = await result
        except AgentError:
            raise
        except Exception as exc:
            raise AgentError(f"{self._where} raised {type(exc).__name__}: {exc}") from exc
        return result

    async def send(self, turn: UserTurn) -> AgentReply:
        data = await self._call(turn_request(self.session_id, self.case, self.run, turn))
        reply = parse_reply(data, where=f"{self._where} ({turn.type} turn)")
        if reply.state:
            self._last_state = reply.state
        return reply

    async def close(self) -> FinalRecord:
        data = await self._call(close_request(self.session_id, self.case, self.run))
        record = parse_final(data, where=f"{self._where} (close)", last_state=self._last_state)
        return record.model_copy(
            update={"meta": {"conversation_id": self.session_id, **record.meta}}
        )


class PythonTarget:
    """`python:module:function` or `python:module:Class` (one instance per session)."""

    def __init__(self, spec: str, module: str, attribute: str) -> None:
        self.spec = spec
        self.where = f"{module}:{attribute}"
        self._names = (module, attribute)
        self.obj = load_callable(module, attribute)
        self.per_session = inspect.isclass(self.obj)

    def __reduce__(self) -> tuple[Any, tuple[str, str, str]]:
        """Pickled by name (a Ray worker imports the agent itself), not by value."""
        return (PythonTarget, (self.spec, *self._names))

    async def open(self, case: Any, run_index: int) -> PythonSession:
        handler = self.obj
        if self.per_session:
            try:
                handler = self.obj()
            except Exception as exc:
                raise AgentError(f"{self.where}() raised {type(exc).__name__}: {exc}") from exc
            if not callable(handler):
                raise AgentError(f"{self.where} instances are not callable (no __call__)")
        return PythonSession(handler, self.where, case_slug(case), run_index)


__all__ = ["PythonSession", "PythonTarget", "load_callable"]
