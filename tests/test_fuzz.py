"""Junk never crashes a loader, a validator, repair or the CLI: only clean findings/errors.

Every test here is deterministic (`derandomize=True`, no example database) and bounded: the
whole file runs in well under a minute.
"""

from __future__ import annotations

import contextlib
import copy
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalcore.definitions import Project, load_project
from evalcore.dialects import all_dialects, get_dialect
from evalcore.documents import parse_text
from evalcore.findings import FINDING_CODES, Finding
from evalcore.repair import repair_data
from evalcore.validation import validate_document
from evalcore.yamlio import dump_yaml

PROJECTS = {"mantle": "bank", "anychat": "clinic", "base44": "skills"}
SAMPLES = {
    "mantle": EXAMPLES / "bank/eval/scenarios/card_replace_stolen.yml",
    "anychat": EXAMPLES / "clinic/cases",
    "base44": EXAMPLES / "skills/evals/todo-entities/eval.json",
}


@cache
def project_for(dialect: str) -> Project:
    return load_project(EXAMPLES / PROJECTS[dialect])


@cache
def sample(dialect: str) -> Any:
    path = SAMPLES[dialect]
    if path.is_dir():
        path = sorted(path.glob("*.json"))[0]
    return parse_text(path.read_text(), "json" if path.suffix == ".json" else "yaml").data


def assert_clean(findings: list[Finding]) -> None:
    for finding in findings:
        assert finding.code in FINDING_CODES, finding
        assert finding.severity in ("error", "warning")
        assert finding.path == "" or finding.path.startswith("/")
        assert isinstance(finding.message, str) and finding.message
        json.dumps(finding.to_json(), default=str)


junk_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=15), children, max_size=4)
    ),
    max_leaves=15,
)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(text=st.text(max_size=300), fmt=st.sampled_from(["yaml", "json"]))
def test_any_text_parses_to_findings_not_exceptions(text: str, fmt: str) -> None:
    doc = parse_text(text, fmt)
    assert_clean(doc.findings)
    for dialect in all_dialects():
        assert_clean(validate_document(doc, dialect, project_for(dialect.name)))


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(value=junk_values, dialect=st.sampled_from(["mantle", "anychat", "base44"]))
def test_any_structure_validates_and_repairs_cleanly(value: Any, dialect: str) -> None:
    chosen = get_dialect(dialect)
    project = project_for(dialect)
    text = dump_yaml(value) if chosen.file_format == "yaml" else json.dumps(value)
    doc = parse_text(text, chosen.file_format)
    assert_clean(validate_document(doc, chosen, project))
    outcome = repair_data(doc.data, chosen, project)
    assert_clean(outcome.findings)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, child in node.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            out += _paths(child, (*prefix, index))
    return out


def _replace(node: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = copy.deepcopy(node)
    cursor = node
    for key in path[:-1]:
        cursor = cursor[key]
    cursor[path[-1]] = value
    return node


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    dialect=st.sampled_from(["mantle", "anychat", "base44"]),
    pick=st.integers(min_value=0, max_value=10_000),
    value=junk_values,
)
def test_mutated_real_cases_give_clean_findings(dialect: str, pick: int, value: Any) -> None:
    """Replace one node of a real, valid case with junk: lint and repair stay well-behaved."""
    base = sample(dialect)
    paths = _paths(base)
    mutated = _replace(base, paths[pick % len(paths)], value)
    chosen = get_dialect(dialect)
    text = dump_yaml(mutated) if chosen.file_format == "yaml" else json.dumps(mutated)
    doc = parse_text(text, chosen.file_format, path=Path(f"case{chosen.suffixes[0]}"))
    assert_clean(validate_document(doc, chosen, project_for(dialect)))
    assert_clean(repair_data(doc.data, chosen, project_for(dialect)).findings)


# --- hostile files: every loader, every definition reader, the CLI's --json paths -------------

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)
NASTY = [
    BOMB,
    "a: &a [*a]\n",
    "a: &a {b: *a}\n",
    "[" * 3000,
    "{" * 3000,
    '{"a": "\\ud800"}',
    'name: "\\uD800"\n',
    "no[/]such [bold]markup[/bold] [a-z]+\n",
    "<<<<<<< HEAD\n{}\n=======\n[]\n>>>>>>> other\n",
    "12: {type: string}\n? [a, b]\n: c\n",
    "!!python/object/apply:os.system [echo hi]\n",
    "a: !!binary aGVsbG8=\n",
    "\x00\x01",
    "a: " + "9" * 5000 + "\n",
    "---\na: 1\n---\nb: 2\n",
    "key: value\n  bad indent: x\n",
    "enum_values: [lost, {not_received: 1}]\n",
    "X = " + "+".join(["1"] * 20_000) + "\n",
]
hostile_text = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=120),
    junk_values.map(dump_yaml),
    junk_values.map(json.dumps),
    st.tuples(st.sampled_from(NASTY), st.text(max_size=40)).map("".join),
)
HOSTILE = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@settings(HOSTILE, max_examples=60)
@given(text=hostile_text, suffix=st.sampled_from([".yml", ".json", ".txt"]))
def test_every_file_loader_survives_hostile_text(text: str, suffix: str) -> None:
    from evalcore.documents import UnreadableFile, load_document, read_json
    from evalcore.manifest import ManifestError, load_manifest
    from evalcore.yamlio import has_comments

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"file{suffix}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        assert_clean(load_document(path).findings)
        for fmt in ("yaml", "json"):
            assert_clean(parse_text(text, fmt).findings)
        with contextlib.suppress(UnreadableFile):
            read_json(path)
        manifest = Path(folder) / "manifest.json"
        manifest.write_text(text, encoding="utf-8", errors="surrogatepass")
        with contextlib.suppress(ManifestError):
            load_manifest(manifest)
        assert has_comments(text) in (True, False)


#: One definition file per reader that hostile text replaces.
DEFINITION_FILES = [
    ("bank", "memory.yml"),
    ("bank", "skills/card_replace/memory.yml"),
    ("bank", "skills/card_replace/responses.yml"),
    ("bank", "skills/card_replace/skill.md"),
    ("bank", "skills/card_replace/tools.py"),
    ("bank", "agent.yml"),
    ("clinic", "tools.yml"),
    ("clinic", "people.yml"),
    ("clinic", "anychat.yml"),
    ("clinic", "playbooks/book.yml"),
    ("skills", "skills/base44-cli/SKILL.md"),
]


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("projects")
    for name in ("bank", "clinic", "skills"):
        shutil.copytree(EXAMPLES / name, root / name)
    return root


@settings(HOSTILE, max_examples=60)
@given(text=hostile_text, which=st.sampled_from(DEFINITION_FILES))
def test_definition_readers_never_raise(projects: Path, text: str, which: tuple) -> None:
    project, relative = which
    path = projects / project / relative
    original = path.read_bytes()
    try:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        loaded = load_project(projects / project)
        assert all(isinstance(w, str) for w in loaded.warnings)
    finally:
        path.write_bytes(original)


@cache
def _cached_project(root: Path) -> Project:
    return load_project(root)


def _cli_case(folder: Path, command: str, text: str, fmt: str) -> list[str]:
    """Arguments for one CLI call that reads `text` as a case, events or run file."""
    if command == "assert":
        events = folder / "events.json"
        events.write_text(text, encoding="utf-8", errors="surrogatepass")
        return ["assert", str(SAMPLES["mantle"]), "--events", str(events)]
    if command == "triage":
        run = folder / "results" / "2026-01-01_00-00-00" / "case"
        run.mkdir(parents=True)
        (run / "run_1.json").write_text(text, encoding="utf-8", errors="surrogatepass")
        return ["triage", str(folder / "results")]
    if command == "status":
        manifest = folder / "manifest.json"
        manifest.write_text(text, encoding="utf-8", errors="surrogatepass")
        return ["status", "--manifest", str(manifest)]
    case = folder / ("eval/scenarios/case.yml" if fmt == "yaml" else "cases/case.json")
    case.parent.mkdir(parents=True)
    case.write_text(text, encoding="utf-8", errors="surrogatepass")
    project = ["--project", str(EXAMPLES / ("bank" if fmt == "yaml" else "clinic"))]
    if command == "repair":
        return ["repair", str(case), "--dry-run", *project]
    if command == "review":
        return ["review", str(case), "--model", "offline", *project]
    return [command, str(case), *project]


@settings(HOSTILE, max_examples=60)
@given(
    text=hostile_text,
    fmt=st.sampled_from(["yaml", "json"]),
    command=st.sampled_from(["validate", "repair", "review", "assert", "triage", "status"]),
)
def test_cli_json_paths_print_one_object(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    fmt: str,
    command: str,
) -> None:
    import evalcore.validation
    from agentflows.cli import main

    # The example projects do not change here: read each once (the CLI reads it per call).
    monkeypatch.setattr(evalcore.validation, "load_project", _cached_project)

    with tempfile.TemporaryDirectory() as folder:
        args = _cli_case(Path(folder), command, text, fmt)
        capsys.readouterr()
        code = main([*args, "--json"])
        out, err = capsys.readouterr()
    assert code in (0, 1, 2, 3), (args, err)
    assert "Traceback" not in err
    payload = json.loads(out)  # exactly one JSON document, nothing else on stdout
    assert isinstance(payload, dict)
    if code == 2:
        assert set(payload) >= {"error", "hint", "exit_code"}


# --- `command:` templates: generated wrappers around a placeholder ----------------------------

#: Words that run what follows them, with their options.
WRAPPERS = [
    "env",
    "env X=1",
    "env -u HOME",
    "timeout 30",
    "timeout -s KILL 5",
    "nice",
    "nice -n 5",
    "stdbuf -oL",
    "sudo",
    "sudo -u root",
    "doas",
    "nohup",
    "setsid",
    "time",
    "command",
    "exec",
    "busybox",
    "ionice -c 2",
    "chrt 1",
    "taskset -c 0",
    "flock /tmp/lock",
    "strace -f",
    "/usr/bin/env",
    "mywrapper --flag",
]
#: Places where an argument runs as code (P: the placeholder).
SINKS = [
    "sh -c P",
    "bash -lc P",
    "sh -c -- P",
    "dash -ec P",
    "bash -o posix -c P",
    "/bin/sh -c P",
    "zsh -c P",
    "eval P",
    "eval echo P",
    "python3 -c P",
    "perl -e P",
    "node -e P",
    "ruby -e P",
    "awk P",
    "sed -e P",
    "sh -c 'eval \"$1\"' sh P",
    "bash -c 'sh -c \"$0\"' P",
    "su -c P",
    "script -c P",
    "ssh host P",
    "watch P",
    "P",
]
#: What may come before the command (`;`, `&&`, `||`, a pipe from elsewhere).
PREFIXES = ["", "true; ", "true && ", "false || ", "cd /tmp && ", "true | ", "echo go\n"]
#: Feeding the prompt to a later stage's stdin or argument list.
FEEDS = ["printf %s P | {}", "cat F | {}", "echo P | {}", "{} < F"]
STDIN_SINKS = ["sh", "bash -s", "python3", "xargs sh -c", "xargs -I{{}} sh -c {{}}", "sh -"]


def _placeholder(text: str, which: str) -> str:
    return text.replace("P", which).replace("F", "{prompt_file}")


@settings(HOSTILE, max_examples=400)
@given(
    prefix=st.sampled_from(PREFIXES),
    wrappers=st.lists(st.sampled_from(WRAPPERS), max_size=3),
    sink=st.sampled_from(SINKS),
    which=st.sampled_from(["{prompt}", "{prompt_file}"]),
)
def test_no_wrapped_code_sink_takes_the_prompt(
    prefix: str, wrappers: list[str], sink: str, which: str
) -> None:
    from evalcore.agents._template import check_template
    from evalcore.errors import UserError

    template = prefix + " ".join([*wrappers, _placeholder(sink, which)])
    with pytest.raises(UserError):
        check_template(template)


@settings(HOSTILE, max_examples=150)
@given(
    prefix=st.sampled_from(PREFIXES),
    feed=st.sampled_from(FEEDS),
    wrappers=st.lists(st.sampled_from(WRAPPERS[:18]), max_size=2),
    sink=st.sampled_from(STDIN_SINKS),
)
def test_no_pipe_or_redirect_feeds_the_prompt_to_code(
    prefix: str, feed: str, wrappers: list[str], sink: str
) -> None:
    from evalcore.agents._template import check_template
    from evalcore.errors import UserError

    template = prefix + _placeholder(feed.format(" ".join([*wrappers, sink])), "{prompt}")
    with pytest.raises(UserError):
        check_template(template)


#: Words of random templates that are all safe to run here (no sudo, no network).
TEMPLATE_WORDS = [
    "sh", "bash", "dash", "-c", "-lc", "-s", "--", "-", "eval", "env", "env X=1", "timeout 5",
    "nice", "xargs", "python3", "perl", "-e", "printf %s", "cat", "echo", "true", "command",
    "exec", "stdbuf -oL", "|", ";", "&&", "||", "<", "{prompt}", "{prompt}", "{prompt_file}",
    "{prompt_file}", "'eval \"$1\"'", "'echo \"$1\"'", '"$CASEGEN_PROMPT"', "$CASEGEN_PROMPT",
    "X=1", "$X", "read X", "sh",
]  # fmt: skip


@pytest.mark.skipif(shutil.which("perl") is None, reason="needs perl")
@settings(HOSTILE, max_examples=120)
@given(words=st.lists(st.sampled_from(TEMPLATE_WORDS), min_size=1, max_size=7))
def test_an_accepted_template_never_runs_the_prompt(words: list[str]) -> None:
    """Random templates: whatever the check accepts, run with prompts that are code in sh,
    Python and Perl, leaves no trace of that code having run."""
    import os
    import subprocess

    from evalcore.agents._template import check_template, render_command
    from evalcore.errors import UserError

    template = " ".join(words)
    try:
        check_template(template)
    except UserError:
        return
    with tempfile.TemporaryDirectory() as folder:
        marker = Path(folder) / "ran"
        for prompt in (
            f"touch {marker}",
            f"__import__('os').system('touch {marker}')",
            f"system('touch {marker}')",
        ):
            prompt_file = Path(folder) / "prompt.txt"
            prompt_file.write_text(prompt, "utf-8")
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "CASEGEN_PROMPT": prompt,
                "CASEGEN_PROMPT_FILE": str(prompt_file),
            }
            with contextlib.suppress(subprocess.TimeoutExpired):
                subprocess.run(
                    ["/bin/sh", "-c", render_command(template)],
                    cwd=folder,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=10,
                )
            assert not marker.exists(), f"{template!r} ran the prompt {prompt!r}"


# --- results folders, checkpoint stores and caches: junk from a CI artifact or a tampered file --


@pytest.fixture(scope="module")
def run_record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from report_fixtures import run_batch

    batch = run_batch(tmp_path_factory.mktemp("results"), "demo:bank")
    return json.loads(sorted(batch.glob("*/run_1.json"))[0].read_text())


@settings(HOSTILE, max_examples=30)
@given(pick=st.integers(min_value=0, max_value=10_000), value=junk_values)
def test_results_with_junk_anywhere_give_findings(
    run_record: dict, capsys: pytest.CaptureFixture[str], pick: int, value: Any
) -> None:
    """One node of a real run record replaced with junk: `report`, `triage` and what
    `run --last-failed` selects stay well-behaved."""
    from agentflows.cli import main
    from evalcore.runner._select import last_failed

    paths = _paths(run_record)
    mutated = _replace(run_record, paths[pick % len(paths)], value)
    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder) / "results" / "2026-01-01_00-00-00" / "case"
        run.mkdir(parents=True)
        (run / "run_1.json").write_text(json.dumps(mutated, default=str))
        triage = ["triage", str(run.parent.parent), "--model", "offline"]
        for args in (["report", str(run.parent)], triage):
            capsys.readouterr()
            code = main([*args, "--json"])
            out, err = capsys.readouterr()
            assert "Traceback" not in err, (args, err)
            assert code in (0, 1, 2), (args, err)
            assert isinstance(json.loads(out), dict)
        last_failed(run.parent.parent)


@pytest.fixture(scope="module")
def checkpoint_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    import asyncio

    from agentflows.generate import build_request, run_generation

    root = tmp_path_factory.mktemp("store")
    request = build_request(
        ["card_replace"], project=EXAMPLES / "bank", out=str(root / "out"), model="offline"
    )
    store = root / "ck.sqlite"
    report = asyncio.run(run_generation(request, checkpoints=store, keep_runs=5))
    return store, report["run_id"]


msgpack_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=8), children, max_size=3)
        | st.tuples(st.integers(0, 127), st.binary(max_size=40)).map(lambda t: ("ext", *t))
    ),
    max_leaves=10,
)


def _packable(value: Any) -> Any:
    import ormsgpack

    if isinstance(value, tuple) and value and value[0] == "ext":
        return ormsgpack.Ext(value[1], value[2])
    if isinstance(value, list):
        return [_packable(v) for v in value]
    if isinstance(value, dict):
        return {k: _packable(v) for k, v in value.items()}
    return value


@settings(HOSTILE, max_examples=25)
@given(
    where=st.sampled_from(["request", "report", "behaviors", "whole"]),
    value=msgpack_junk | st.binary(max_size=60).map(lambda b: ("raw", b)),
)
def test_a_tampered_checkpoint_store_is_a_clear_error(
    checkpoint_store: tuple[Path, str], where: str, value: Any
) -> None:
    """Junk, msgpack extension values of every type, or raw bytes in a stored run: resuming
    it finishes or stops with a UserError, and runs nothing."""
    import asyncio
    import sqlite3

    import ormsgpack

    from agentflows.generate import run_generation
    from evalcore.errors import UserError

    source, run_id = checkpoint_store
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "ck.sqlite"
        shutil.copyfile(source, store)
        with sqlite3.connect(store) as conn:
            rowid, blob = conn.execute(
                "SELECT rowid, checkpoint FROM checkpoints WHERE thread_id = ? "
                "ORDER BY rowid DESC LIMIT 1",
                (run_id,),
            ).fetchone()
            if isinstance(value, tuple) and value[0] == "raw":
                blob = value[1]
            else:
                checkpoint = ormsgpack.unpackb(
                    blob, ext_hook=ormsgpack.Ext, option=ormsgpack.OPT_NON_STR_KEYS
                )
                if where == "whole":
                    checkpoint = _packable(value)
                else:
                    checkpoint["channel_values"][where] = _packable(value)
                blob = ormsgpack.packb(checkpoint, option=ormsgpack.OPT_NON_STR_KEYS)
            conn.execute("UPDATE checkpoints SET checkpoint = ? WHERE rowid = ?", (blob, rowid))
        with contextlib.suppress(UserError):
            asyncio.run(run_generation(None, resume=run_id, checkpoints=store, engine=_NoDrafts()))


class _NoDrafts:
    """An engine a resumed run may not call: nothing is drafted in these tests."""

    name = "offline"

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the resumed run asked the engine for {name}")


@settings(HOSTILE, max_examples=60)
@given(text=hostile_text | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_cache_files_with_junk_are_misses(text: str) -> None:
    import os

    from evalcore import _valuecache
    from evalcore._valuecache import ValueCache
    from evalcore.llm.cache import ResponseCache

    before = os.environ.get("CASEGEN_CACHE_DIR")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CASEGEN_CACHE_DIR"] = folder
        try:
            cache = ValueCache("values")
            cache.path.write_text(text, encoding="utf-8", errors="surrogatepass")
            cache.path.chmod(0o600)
            assert cache.get("anything") is None  # junk is a miss, never an exception
            document = {"format": _valuecache.FORMAT, "values": {"k": json.loads(json.dumps(text))}}
            cache = ValueCache("values")
            cache.path.write_text(json.dumps(document))
            cache.get("k")
            responses = ResponseCache(folder)
            key = "ab" * 32
            responses.path_for(key).parent.mkdir(parents=True, exist_ok=True)
            responses.path_for(key).write_text(text, encoding="utf-8", errors="surrogatepass")
            assert responses.get(key) is None
        finally:  # the session's cache folder again (conftest): later tests' commands use it
            if before is None:
                del os.environ["CASEGEN_CACHE_DIR"]
            else:
                os.environ["CASEGEN_CACHE_DIR"] = before
