"""The keys of what a tool answers the model: a flag it already gives (`in_policy`) can make
another lookup unnecessary."""

from __future__ import annotations

import ast

from .._model import Project, ToolDef
from ._code import tool_source


def answer_keys(project: Project, tool: ToolDef) -> set[str]:
    """The string keys of the dict literals the tool's function passes as `llm_response=`
    (empty for an MCP tool or an unreadable file)."""
    text = tool_source(project, tool)
    if text is None:
        return set()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    keys: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) or node.name != tool.name:
            continue
        for call in ast.walk(node):
            for keyword in call.keywords if isinstance(call, ast.Call) else ():
                if keyword.arg == "llm_response" and isinstance(keyword.value, ast.Dict):
                    keys |= {
                        k.value
                        for k in keyword.value.keys
                        if isinstance(k, ast.Constant) and isinstance(k.value, str)
                    }
    return keys
