"""Wiring of the generation flow (a LangGraph `StateGraph` with a SQLite checkpointer)."""

from __future__ import annotations

import os
import threading
from typing import Any

from langgraph.graph import END, START, StateGraph

from . import _routes, _verify, nodes
from .context import GenerateContext
from .state import GenerateState


def build_graph() -> StateGraph:
    graph = StateGraph(GenerateState, context_schema=GenerateContext)
    graph.add_node("load", nodes.load)
    graph.add_node("plan", nodes.plan)
    graph.add_node("draft", nodes.draft)
    graph.add_node("validate", nodes.validate)
    graph.add_node("repair", nodes.repair)
    graph.add_node("review", nodes.review)
    graph.add_node("verify", _verify.verify)
    graph.add_node("dedupe", nodes.dedupe)
    graph.add_node("write", nodes.write)
    graph.add_node("report", nodes.report)

    graph.add_edge(START, "load")
    graph.add_edge("load", "plan")
    graph.add_conditional_edges("plan", _routes.route_drafts, ["draft", "validate"])
    graph.add_edge("draft", "validate")
    graph.add_conditional_edges("validate", nodes.route_repairs, ["repair", "review"])
    graph.add_edge("repair", "validate")
    graph.add_conditional_edges("review", _verify.route_verify, ["verify", "dedupe"])
    graph.add_edge("verify", "dedupe")
    graph.add_edge("dedupe", "write")
    graph.add_edge("write", "report")
    graph.add_edge("report", END)
    return graph


def _wiring() -> tuple[Any, ...]:
    """The functions `build_graph` wires in: a graph compiled from others is not reused."""
    return (
        *(getattr(nodes, n) for n in ("load", "plan", "draft", "validate", "repair", "review")),
        *(getattr(nodes, n) for n in ("dedupe", "write", "report", "route_repairs")),
        _verify.verify,
        _verify.route_verify,
        _routes.route_drafts,
    )


def _strict_msgpack() -> bool:
    """LangGraph's documented switch `LANGGRAPH_STRICT_MSGPACK` (checkpoints deserialise only
    the state's own types; compiling then wraps the checkpointer), read as LangGraph reads it."""
    return os.getenv("LANGGRAPH_STRICT_MSGPACK", "false").lower() in ("1", "true", "yes")


#: LangGraph reads the switch once, when it is imported (just above); a change later in the
#: process is honoured here too, so a run never shares a graph compiled without the wrapper.
_STRICT_AT_IMPORT = _strict_msgpack()

_lock = threading.Lock()
_compiled: tuple[tuple[Any, ...], Any] | None = None


def compiled_graph(checkpointer: Any) -> Any:
    """The flow compiled with `checkpointer`. Compiling (validation, channels, LangGraph's
    look at each node's code) cost as much CPU as a bank run's manifest and report
    together, for the same graph every run: it is compiled once per process without a
    checkpointer and each run gets a copy that carries its own. Where LangGraph wraps the
    checkpointer at compile time (strict msgpack), every run compiles afresh."""
    if _STRICT_AT_IMPORT or _strict_msgpack():
        return build_graph().compile(checkpointer=checkpointer)
    global _compiled
    wiring = _wiring()
    with _lock:
        if _compiled is None or _compiled[0] != wiring:
            _compiled = (wiring, build_graph().compile())
        template = _compiled[1]
    return template.copy({"checkpointer": checkpointer})
