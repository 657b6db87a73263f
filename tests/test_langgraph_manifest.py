"""`langgraph.json` names every LangGraph flow, and each loads as `langgraph dev` loads it.

The LangGraph server imports a graph's file by its path under a made-up module name (not as
part of the package) and expects a compiled graph; it must do so without a network. Each
`build_graph()` under `agentflows/` is a flow, and a flow left out of the manifest would be
invisible in Studio.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MANIFEST = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))

#: Loads each `path.py:name` of the manifest as the LangGraph server does, with every
#: connection refused; prints {graph: {"type": ..., "nodes": [...]}}.
LOADER = """
import importlib.util, json, socket, sys

def refuse(*args, **kwargs):
    raise OSError("no network while loading a flow")

socket.socket.connect = refuse
socket.create_connection = refuse
found = {}
for name, spec in json.loads(sys.argv[1]).items():
    path, _, attr = spec.rpartition(":")
    module_spec = importlib.util.spec_from_file_location("flow_" + name, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    graph = getattr(module, attr)
    found[name] = {"type": type(graph).__name__, "nodes": list(graph.get_graph().nodes)}
print(json.dumps(found))
"""


def _flows() -> dict[str, list[str]]:
    """{module: its nodes} for each `graph.py` under agentflows/ that defines `build_graph`."""
    found = {}
    for path in sorted((REPO / "agentflows").rglob("graph.py")):
        if re.search(r"^def build_graph\(", path.read_text(encoding="utf-8"), re.M):
            name = path.relative_to(REPO).with_suffix("").as_posix().replace("/", ".")
            found[name] = list(importlib.import_module(name).build_graph().nodes)
    return found


@pytest.fixture(scope="module")
def loaded() -> dict[str, dict]:
    done = subprocess.run(
        [sys.executable, "-c", LOADER, json.dumps(MANIFEST["graphs"])],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_manifest_is_a_python_langgraph_config_for_this_repository() -> None:
    assert MANIFEST["dependencies"] == ["."]
    assert re.fullmatch(r"3\.1[1-9]", MANIFEST["python_version"])
    for spec in MANIFEST["graphs"].values():
        path, _, attr = spec.rpartition(":")
        assert path.startswith("./") and path.endswith(".py") and attr.isidentifier(), spec
        assert (REPO / path).is_file(), spec


def test_every_flow_loads_by_its_path_without_a_network_as_a_compiled_graph(loaded) -> None:
    assert set(loaded) == set(MANIFEST["graphs"])
    assert {g["type"] for g in loaded.values()} == {"CompiledStateGraph"}, loaded
    assert loaded["generate"]["nodes"][:3] == ["__start__", "load", "plan"]


def test_every_flow_under_agentflows_is_in_the_manifest(loaded) -> None:
    flows = _flows()
    assert len(flows) >= 2, flows
    served = [g["nodes"][1:-1] for g in loaded.values()]  # without __start__ and __end__
    missing = [name for name, nodes in flows.items() if nodes not in served]
    assert not missing, f"flows not in langgraph.json: {missing}"
