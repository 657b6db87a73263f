"""Wiring of the interactive review (a LangGraph `StateGraph` with a SQLite checkpointer).

START → load → present ⇄ edit | regenerate
               present → accept | reject → present (next case) | finish → END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from . import nodes
from .context import ReviewContext
from .state import ReviewInput, ReviewState


def build_graph() -> StateGraph:
    graph = StateGraph(ReviewState, context_schema=ReviewContext, input_schema=ReviewInput)
    graph.add_node("load", nodes.load)
    graph.add_node("present", nodes.present)
    graph.add_node("accept", nodes.accept)
    graph.add_node("reject", nodes.reject)
    graph.add_node("edit", nodes.edit)
    graph.add_node("regenerate", nodes.regenerate)
    graph.add_node("finish", nodes.finish)

    graph.add_edge(START, "load")
    graph.add_conditional_edges("load", nodes.route_start, ["present", "finish"])
    graph.add_conditional_edges(
        "present", nodes.route_decision, ["accept", "reject", "edit", "regenerate", "present"]
    )
    # accept / reject / edit / regenerate route themselves with Command(goto=...).
    graph.add_edge("finish", END)
    return graph
