"""Commands that use no model or graph start without LangGraph, LangChain, GitPython, MCP or Ray.

Checked by import inspection in a fresh interpreter (not by timing): the heavy packages are
imported only by the commands that need them (`generate`, `run`, `review`, `mcp`, `--pr`,
`--executor ray`), so a start-up gain cannot regress silently.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = (
    *("langgraph", "langsmith", "langchain", "langchain_core", "langchain_openai", "git", "mcp"),
    *("ray", "httpx", "openai", "jinja2"),
    # only commands that run something (asyncio), highlight code (pygments) or render
    # Markdown (markdown_it) need these
    *("asyncio", "pygments", "markdown_it"),
)
#: `--help` reads no file: no YAML, schema or model classes.
HELP_HEAVY = ("yaml", "jsonschema", "fastjsonschema", "pydantic", "rich.markdown", "rich.traceback")

PROBE = """
import contextlib, io, json, sys
from agentflows.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
roots = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": code, "roots": roots}))
"""


def _loaded(*argv: str, cwd: Path = REPO) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    return payload["code"], set(payload["roots"])


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["validate", "examples/bank/eval", "--project", "examples/bank"],
        ["sources", "--project", "examples/bank"],
    ],
    ids=["help", "validate", "sources"],
)
def test_light_commands_do_not_import_heavy_packages(argv: list[str]) -> None:
    code, roots = _loaded(*argv)
    assert code in (0, 1)
    assert not roots & set(HEAVY), sorted(roots & set(HEAVY))


def test_help_loads_no_parser_schema_or_model_library() -> None:
    modules = _help_modules()
    assert not modules & set(HELP_HEAVY), sorted(modules & set(HELP_HEAVY))


HELP_TEXT = """
import contextlib, io, os, sys
PRELOAD
from agentflows.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(sys.argv[1:])
sys.stdout.write(out.getvalue())
"""


@pytest.mark.parametrize("argv", [["--help"], ["validate", "--help"], []], ids=str)
def test_help_is_the_same_with_rich_s_markdown_and_traceback_loaded(argv: list[str]) -> None:
    """The deferred stand-ins change nothing typer prints: with the real modules imported
    first (so no stand-in is used), the help is byte-identical."""
    env = {**os.environ, "COLUMNS": "90", "FORCE_COLOR": "1"}

    def text(preload: str) -> str:
        code = HELP_TEXT.replace("PRELOAD", preload)
        return subprocess.run(
            [sys.executable, "-c", code, *argv],
            capture_output=True,
            text=True,
            cwd=REPO,
            env=env,
            check=False,
        ).stdout

    light = text("")
    assert "Usage" in light and "\x1b[" in light
    assert light == text("import rich.markdown, rich.traceback")


def test_deferred_rich_classes_are_the_real_ones_when_used() -> None:
    code = """
import sys
from agentflows.cli._rich_help import import_rich_help
import_rich_help()
import typer.rich_utils as ru
assert "rich.markdown" not in sys.modules and "rich.traceback" not in sys.modules
from rich.markdown import Markdown
from rich.traceback import Traceback
assert isinstance(ru.Markdown("*x*"), Markdown)
try:
    raise ValueError("boom")
except ValueError as exc:
    assert isinstance(ru.Traceback.from_exception(type(exc), exc, exc.__traceback__), Traceback)
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert done.stdout.strip() == "ok", done.stderr


def test_probe_sees_heavy_packages_when_a_command_needs_them(tmp_path: Path) -> None:
    """The probe itself can fail: `generate` (a LangGraph flow) does load LangGraph."""
    _, roots = _loaded(
        "generate",
        "card_replace",
        "--project",
        str(REPO / "examples" / "bank"),
        "--model",
        "offline",
        "--out",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert "langgraph" in roots


#: Modules only some commands use: the runner and agents (`run`, `mutate`), the scoring
#: suite (`score`), the repairer (`repair`) and the dialects (`validate`, `repair`, ...).
COMMAND_ONLY = ("evalcore.runner", "evalcore.agents", "agentflows.mutate", "agentflows.scoring")

MODULES_PROBE = PROBE.replace(
    'roots = sorted({name.split(".")[0] for name in sys.modules})', "roots = sorted(sys.modules)"
)


@functools.cache
def _help_modules() -> frozenset[str]:
    """Every module `casegen --help` leaves loaded (one process, shared by the tests)."""
    done = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return frozenset(json.loads(done.stdout.strip().splitlines()[-1])["roots"])


def test_help_loads_no_command_s_own_machinery() -> None:
    modules = _help_modules()
    loaded = sorted(m for m in modules if m.startswith(COMMAND_ONLY) or m == "evalcore.dialects")
    assert loaded == [], loaded


def test_validate_imports_jsonschema_only_for_findings(tmp_path: Path) -> None:
    """Valid files pass the compiled fast check alone; jsonschema (a quarter of a second to
    import) is loaded only to explain a file that check rejects."""
    code, roots = _loaded("validate", "examples/bank/eval", "--project", "examples/bank")
    assert code == 0 and "jsonschema" not in roots
    good = next((REPO / "examples" / "bank" / "eval" / "scenarios").glob("*.yml"))
    bad = tmp_path / "scenarios" / good.name
    bad.parent.mkdir()
    bad.write_text(good.read_text() + "no_such_key: 1\n")
    code, roots = _loaded("validate", str(bad), "--project", str(REPO / "examples" / "bank"))
    assert code == 1 and "jsonschema" in roots


#: What a light command on its common path (a Mantle project, valid files) does without:
#: casegen's definitions and findings are plain records, plain options are coerced
#: without typer's pydantic adapters (`agentflows/cli/_coerce.py`), and output that is not
#: a terminal is written without rich (`agentflows/cli/_plain.py`).
LIGHT_HEAVY = ("pydantic", "pydantic_core", "typer._adapters", "annotated_types", "jsonschema")
LIGHT_HEAVY += ("rich", "rich.console", "rich.text", "rich.markup", "typer.rich_utils")
#: ... and what a Mantle project's read and a valid Mantle file's check never use: the other
#: kinds' readers, the other dialects' lint, any repair rule, the redaction patterns (an
#: error's), `importlib.resources` (schemas are read beside their package).
LIGHT_HEAVY += ("evalcore.definitions._anychat", "evalcore.definitions._agent_skills")
LIGHT_HEAVY += (
    "evalcore.definitions._playbooks",
    "evalcore.dialects.anychat._lint",
    "evalcore.dialects.base44._lint",
)
LIGHT_HEAVY += ("evalcore.repair", "evalcore.redact", "importlib.resources", "zipfile")
#: ... nor OpenSSL: file contents are hashed with CPython's own SHA-256 (`evalcore._sha256`).
LIGHT_HEAVY += ("hashlib", "_hashlib")


@functools.cache
def _modules(*argv: str) -> frozenset[str]:
    done = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return frozenset(json.loads(done.stdout.strip().splitlines()[-1])["roots"])


@pytest.mark.parametrize(
    "argv",
    [
        ("validate", "examples/bank/eval", "--project", "examples/bank"),
        ("validate", "examples/bank/eval", "--project", "examples/bank", "--json"),
        ("sources", "--project", "examples/bank"),
        ("sources", "--project", "examples/bank", "--json"),
    ],
    ids=" ".join,
)
def test_light_commands_load_no_pydantic_and_no_other_command(argv: tuple[str, ...]) -> None:
    modules = _modules(*argv)
    assert not modules & set(LIGHT_HEAVY), sorted(modules & set(LIGHT_HEAVY))
    commands = {m for m in modules if m.startswith("agentflows.cli._")}
    others = commands - {f"agentflows.cli._{argv[0]}", *_SHARED_CLI}
    assert others == set(), sorted(others)


#: CLI modules every command uses (the app, output, help and option coercion).
_SHARED_CLI = ("agentflows.cli._app", "agentflows.cli._output", "agentflows.cli._coerce")
_SHARED_CLI += ("agentflows.cli._rich_help", "agentflows.cli._plain")


def test_sources_text_output_loads_no_json(tmp_path: Path) -> None:
    """Reading a Mantle project is YAML alone; `json` (its decoder's patterns) loads only
    for `--json` output, a JSON file, or a values cache to read (JSON data: an empty cache
    folder here)."""
    probe = (
        "import contextlib, io, sys\n"
        "from agentflows.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(sys.argv[1:])\n"
        "print('json' in sys.modules)\n"
    )

    def loaded(*argv: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", probe, *argv],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=True,
            env={**os.environ, "CASEGEN_CACHE_DIR": str(tmp_path / "cache")},
        ).stdout.strip()

    assert loaded("sources", "--project", "examples/bank") == "False"
    assert loaded("sources", "--project", "examples/bank", "--json") == "True"


def _fresh_modules(*imports: str) -> frozenset[str]:
    """The modules a fresh interpreter holds after importing `imports`."""
    code = "import json, sys\n" + "".join(f"import {m}\n" for m in imports)
    code += "print(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    return frozenset(json.loads(done.stdout.strip().splitlines()[-1]))


def test_generate_s_verifier_loads_the_runner_s_conversation_not_its_executor() -> None:
    """The verifier plays a case with the runner's conversation, events and checks; the
    executor, the judge, the results writer and JUnit's XML stay unloaded."""
    modules = _fresh_modules("agentflows.generate._verify_mantle")
    assert "evalcore.runner._conversation" in modules
    unused = ("evalcore.runner._execute", "evalcore.runner._results", "evalcore.runner._junit")
    unused += ("evalcore.judge", "xml.etree")
    assert not modules & set(unused), sorted(modules & set(unused))


def test_the_runner_package_hands_out_the_same_objects_as_its_modules() -> None:
    """Each public name of `evalcore.runner` is its defining module's object (PEP 562)."""
    runner = importlib.import_module("evalcore.runner")
    for name in runner.__all__:
        value = getattr(runner, name)
        module = runner._LAZY.get(name)
        if module is not None:
            assert value is getattr(importlib.import_module(module, runner.__name__), name)
    with pytest.raises(AttributeError):
        runner.no_such_name  # noqa: B018


def test_mcp_tools_register_without_the_skill_model() -> None:
    """A server's first start answers `initialize` and `tools/list` without reading a
    project: validation and the generation flow (and `evalcore.definitions` with them) are
    imported by the tool call that uses them."""
    modules = _fresh_modules("agentflows.mcp_server._tools")
    deferred = {"evalcore.validation", "evalcore.definitions", "agentflows.generate"}
    assert not modules & deferred, sorted(modules & deferred)
