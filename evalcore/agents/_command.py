"""`command:"<cmd with {prompt}>"`: a coding agent run once in a private copy of a fixture.

The original base44 runner copied the whole fixture, `eval.json` included, one level above the
agent's working folder, so an agent could read the checks it was graded by. Here only the
fixture's `project/` is copied, into an otherwise empty temporary folder, with the project's
Agent Skills installed into it as the original setup does (`skills/`, and `.claude/skills/`
where Claude Code reads them: `_fixture_context.py`); the folder is kept
after the run so the checks can look at (and run commands in) what the agent left behind, and
the runner discards it afterwards (`discard_workdir`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from .._readbytes import read_limited
from ..errors import UserError
from ._errors import AgentError, AgentTimeout
from ._fixture_context import FixtureContext
from ._procs import (
    DEFAULT_MAX_OUTPUT_BYTES,
    Captured,
    child_env,
    exited,
    kill_tree,
    new_token,
    read_capped,
)
from ._protocol import AgentMessage, AgentReply, FinalRecord, UserTurn
from ._skills import detect_skills, parse_stream
from ._template import PROMPT_ENV, PROMPT_FILE_ENV, check_template, render_command, shown_command

DEFAULT_COMMAND_TIMEOUT_S = 15 * 60.0
MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 8 * 1024 * 1024
#: The largest file hashed to tell what the agent changed (a bigger one counts as unreadable).
MAX_DIGEST_BYTES = 256 * 1024 * 1024
_SKIP_DIRS = {".git", "node_modules"}
_WORKDIR_PREFIX = "casegen-run-"
KEEP_ENV = "CASEGEN_KEEP_WORKDIRS"

#: Temporary roots this process created and has not discarded yet.
_OWNED: set[Path] = set()


def _keep() -> bool:
    return os.environ.get(KEEP_ENV, "").strip().lower() in {"1", "true", "yes"}


@atexit.register
def _discard_leftovers() -> None:
    if _keep():
        return
    for root in list(_OWNED):
        shutil.rmtree(root, ignore_errors=True)
        _OWNED.discard(root)


def discard_workdir(record: FinalRecord | str | Path | None) -> None:
    """Remove a command run's temporary folder (call once the checks have run).

    Only folders this process created are removed; with CASEGEN_KEEP_WORKDIRS=1 nothing is.
    """
    workdir = record.workdir if isinstance(record, FinalRecord) else record
    if not workdir or _keep():
        return
    root = Path(workdir).parent
    if root in _OWNED:
        shutil.rmtree(root, ignore_errors=True)
        _OWNED.discard(root)


def project_source(fixture: str | Path) -> Path:
    """The folder the agent works in: `<fixture>/project`, else the fixture itself."""
    fixture = Path(fixture)
    project = fixture / "project"
    return project if project.is_dir() else fixture


def _outside(path: Path, root: Path) -> bool:
    return path.is_symlink() and not path.resolve().is_relative_to(root)


def _copy_project(source: Path, target: Path, exclude: set[Path]) -> None:
    """Copy `source`; links are copied as their targets, links leading outside are left out."""
    root = source.resolve()

    def ignore(folder: str, names: list[str]) -> list[str]:
        paths = [(n, Path(folder) / n) for n in names]
        return [n for n, p in paths if p.resolve() in exclude or _outside(p, root)]

    shutil.copytree(source, target, symlinks=False, ignore=ignore, ignore_dangling_symlinks=True)


def _walk(root: Path) -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        out += [Path(folder) / f for f in sorted(files)]
    return out


def _digests(root: Path) -> dict[str, str]:
    digests = {}
    for path in _walk(root):
        with contextlib.suppress(OSError):  # a FIFO or device the agent left: not hashed
            digests[path.relative_to(root).as_posix()] = hashlib.sha256(
                read_limited(path, MAX_DIGEST_BYTES)
            ).hexdigest()
    return digests


def read_text_files(root: Path) -> tuple[dict[str, str], list[str]]:
    """(path → text for UTF-8 files within the caps, paths left out)."""
    files: dict[str, str] = {}
    skipped: list[str] = []
    total = 0
    for path in _walk(root):
        rel = path.relative_to(root).as_posix()
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES or total + size > MAX_TOTAL_BYTES:
                skipped.append(rel)
                continue
            text = read_limited(path, MAX_FILE_BYTES).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            skipped.append(rel)
            continue
        files[rel] = text
        total += size
    return files, skipped


STDERR_TAIL_BYTES = 4096
OUTPUT_GRACE_S = 2.0


async def _stop(proc: asyncio.subprocess.Process, token: str, readers: asyncio.Future) -> None:
    """Kill the agent's group and every process carrying its token; end the reads."""
    kill_tree(proc.pid, token)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(exited(proc), 5)
    await asyncio.wait({readers}, timeout=1)
    readers.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await readers


def _refuse_linked(source: Path, fixture: Path) -> None:
    """A project that is a link would copy whatever it points at (a home folder, `/`)."""
    for path in {source, fixture}:
        if path.is_symlink():
            raise UserError(
                f"the fixture's project {path} is a symbolic link (to {os.readlink(path)})",
                hint="make the fixture's project a real folder inside the fixture; casegen "
                "copies it for the agent and does not follow links out of a fixture",
            )


class CommandSession:
    """One run of the command in a fresh copy of the fixture's project."""

    def __init__(self, target: CommandTarget, case: Any) -> None:
        setup = getattr(case, "setup", None) or {}
        fixture = setup.get("fixture")
        if not fixture:
            raise UserError(
                "command targets run base44 evals: the case has no fixture folder",
                hint="use `rasa:`, `http:`, `python:` or `demo:` for conversational cases",
            )
        self.target = target
        self.fixture = Path(fixture)
        self.prompt: str | None = getattr(case, "prompt", None)
        checks = getattr(case, "checks", None)
        self.expected_skills: list[str] = (
            list(checks.get("expectedSkills") or []) if isinstance(checks, dict) else []
        )
        case_path = getattr(case, "path", None)
        source = project_source(self.fixture)
        _refuse_linked(source, self.fixture)
        self.context = FixtureContext.for_case(case)
        self.max_output_bytes, self.pass_env = self.context.max_output_bytes, self.context.pass_env
        if target.max_output_bytes is not None:
            self.max_output_bytes = target.max_output_bytes
        exclude: set[Path] = set()
        if source == self.fixture:  # no project/ folder: the eval file sits in the copy
            exclude.add((source / "eval.json").resolve())
            if case_path:
                exclude.add(Path(case_path).resolve())
        self.root = Path(tempfile.mkdtemp(prefix=_WORKDIR_PREFIX))
        _OWNED.add(self.root)
        self.workdir = self.root / "project"
        try:
            _copy_project(source, self.workdir, exclude)
            self.skills_installed = self.context.install_skills(self.workdir)
        except OSError as exc:
            discard_workdir(str(self.workdir))
            raise UserError(f"cannot copy the fixture project {source}: {exc}") from None
        self._before = _digests(self.workdir)
        self._ran = False
        self._stdout = ""
        self._stderr = ""
        self._captured = Captured()
        self._exit_code: int | None = None
        self._duration = 0.0
        self._command = ""

    async def _run(self, prompt: str) -> str:
        if self._ran:
            raise AgentError("a command agent takes one prompt per run; got a second text turn")
        self._ran = True
        # Beside neither the project nor its parent: the agent sees only the project copy.
        prompt_dir = Path(tempfile.mkdtemp(prefix="casegen-prompt-"))
        prompt_file = prompt_dir / "prompt.txt"
        prompt_file.write_text(prompt, "utf-8")
        try:
            return await self._spawn(prompt, prompt_file)
        finally:
            shutil.rmtree(prompt_dir, ignore_errors=True)

    async def _spawn(self, prompt: str, prompt_file: Path) -> str:
        self._command = shown_command(self.target.template, prompt, str(prompt_file))
        token = new_token()
        env = child_env(
            token,
            pass_env=self.pass_env,
            extra={"PWD": str(self.workdir), PROMPT_ENV: prompt, PROMPT_FILE_ENV: str(prompt_file)},
        )
        started = time.monotonic()
        try:
            proc = await asyncio.create_subprocess_exec(
                "/bin/sh",
                "-c",
                render_command(self.target.template),
                cwd=self.workdir,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:  # E2BIG: a prompt over the environment's size limit
            raise AgentError(
                f"cannot start the agent command: {exc}",
                hint="for very long prompts use {prompt_file} (a file holding the prompt)",
            ) from None
        out, err = Captured(), Captured()
        readers = asyncio.gather(
            read_capped(proc.stdout, self.max_output_bytes, out),
            read_capped(proc.stderr, STDERR_TAIL_BYTES, err, tail=True),
        )
        try:
            await asyncio.wait_for(exited(proc), self.target.timeout_s)
            # A child left in the background may hold the pipes open: give it a moment.
            await asyncio.wait({readers}, timeout=OUTPUT_GRACE_S)
        except TimeoutError:
            await _stop(proc, token, readers)
            raise AgentTimeout(
                f"the agent command ran longer than {self.target.timeout_s:g}s and was stopped",
                hint="raise the command timeout, or check the agent is not waiting for input",
            ) from None
        except asyncio.CancelledError:
            await _stop(proc, token, readers)
            raise
        finally:
            self._duration = time.monotonic() - started
        await _stop(proc, token, readers)  # leftovers the agent started in the background
        self._captured = out
        self._stdout = out.text()
        self._stderr = err.text()
        self._exit_code = proc.returncode
        return self._output()

    def _output(self) -> str:
        stream = parse_stream(self._stdout)
        if stream is not None and stream.text:
            return stream.text
        return self._stdout or self._stderr

    async def send(self, turn: UserTurn) -> AgentReply:
        if turn.type == "start":
            return AgentReply()
        if turn.type != "text":
            raise AgentError(f"a command agent takes one text prompt; got {turn.as_text()}")
        output = await self._run(turn.text or "")
        return AgentReply(
            messages=[AgentMessage(text=output)], state={"exit_code": self._exit_code}, ended=True
        )

    async def close(self) -> FinalRecord:
        if not self._ran:
            if not self.prompt:
                raise AgentError("the command agent got no prompt (no text turn, no case prompt)")
            await self._run(self.prompt)
        stream = parse_stream(self._stdout)
        output = self._output()
        vocabulary = self.context.vocabulary
        skills, method = detect_skills(stream, output, vocabulary, self.expected_skills)
        files, skipped = read_text_files(self.workdir)
        after = _digests(self.workdir)
        meta: dict[str, Any] = {
            "command": self._command,
            "exit_code": self._exit_code,
            "duration_s": round(self._duration, 3),
            "stderr": self._stderr[-STDERR_TAIL_BYTES:],
            "files_created": sorted(set(after) - set(self._before)),
            "files_modified": sorted(
                p for p in after if p in self._before and after[p] != self._before[p]
            ),
            "files_deleted": sorted(set(self._before) - set(after)),
            "files_not_read": skipped,
            "skills_invoked": skills,
            "skills_detected_by": method,
            "skills_vocabulary": sorted(n for n, words in vocabulary.items() if words),
            "skills_installed": self.skills_installed,
        }
        if stream is not None:
            meta["stream_records"] = stream.records
        if self._captured.truncated:
            meta["output_truncated"] = True
            meta["output_bytes"] = self._captured.total
            meta["output_kept_bytes"] = len(self._captured.data)
        return FinalRecord(output=output, files=files, workdir=str(self.workdir), meta=meta)


class CommandTarget:
    """`command:"<cmd with {prompt}>"`; one fresh project copy per run."""

    def __init__(
        self,
        spec: str,
        template: str,
        *,
        timeout_s: float = DEFAULT_COMMAND_TIMEOUT_S,
        max_output_bytes: int | None = None,
    ) -> None:
        check_template(template, spec)
        self.spec = spec
        self.template = template
        self.timeout_s = timeout_s
        self.max_output_bytes = max_output_bytes
        """Stdout kept per run; None: `max_output_bytes` in the settings, else 1 MiB."""

    async def open(self, case: Any, run_index: int) -> CommandSession:
        return CommandSession(self, case)


__all__ = [
    "DEFAULT_COMMAND_TIMEOUT_S",
    "DEFAULT_MAX_OUTPUT_BYTES",
    "KEEP_ENV",
    "CommandSession",
    "CommandTarget",
    "discard_workdir",
    "project_source",
    "read_text_files",
    "render_command",
]
