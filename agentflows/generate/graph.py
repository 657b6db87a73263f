"""Wiring of the generation flow (a LangGraph `StateGraph` with a SQLite checkpointer)."""

from __future__ import annotations

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
