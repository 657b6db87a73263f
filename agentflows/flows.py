"""casegen's LangGraph flows by name, for `langgraph dev` and LangGraph Studio (`langgraph.json`).

`generate` is the flow behind `casegen generate` (load → plan → draft → validate ⇄ repair →
review → verify → dedupe → write → report) and `review` the one behind `casegen review
--interactive`. The LangGraph server loads this file by its path, outside the package, so
the imports are absolute; each flow is compiled without a checkpointer because the server
brings its own (the commands compile the same graphs with their SQLite store). Importing it
reads no project and opens no connection. A run started from Studio needs the context the
commands build (`GenerateContext`, `ReviewContext`): the flows are here to be seen and
stepped through, the commands remain the way to run them.
"""

from __future__ import annotations

from agentflows.generate.graph import build_graph as build_generate
from agentflows.review.interactive.graph import build_graph as build_review

generate = build_generate().compile(name="generate")
review = build_review().compile(name="review")

__all__ = ["generate", "review"]
