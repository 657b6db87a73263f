"""The generation flow: `casegen generate card_replace` as a LangGraph graph.

    request = build_request(["card_replace"], project="examples/bank")
    report = asyncio.run(run_generation(request))

A SQLite checkpointer (`.casegen/checkpoints.sqlite`) stores every finished step, so
`run_generation(None, resume=run_id)` finishes an interrupted run without re-drafting the
cases that were already drafted.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from evalcore.definitions import find_project, load_project
from evalcore.dialects import dialect_for_kind, get_dialect
from evalcore.errors import UserError
from evalcore.llm import ModelConfig, early, resolve_model_config
from evalcore.workdir import ensure_dir

from .._store import open_store, refused
from ..collector import collector_paused
from ..doctor import preflight
from ..drafting import DraftEngine, make_engine
from ..planning import resolve_targets
from ._checkpoints import DEFAULT_KEEP_RUNS, DURABILITY, prune_runs
from ._early import send_first_drafts
from ._engines import differing
from ._prewrite import prewrite
from .context import GenerateContext, GenerateRequest, now_iso
from .state import resumable

log = logging.getLogger("casegen.generate")

DEFAULT_CHECKPOINTS = Path(".casegen/checkpoints.sqlite")


def default_dialect(kind: str) -> str:
    """The dialect a project of `kind` is tested in (the one whose `project_kind` it is)."""
    plugin = dialect_for_kind(kind)
    if plugin is None:
        raise UserError(f"no dialect tests a project of kind '{kind}'")
    return plugin.name


UpdateHandler = Callable[[str, dict[str, Any]], None]


def build_request(
    targets: list[str],
    *,
    project: str | Path | None = None,
    dialect: str | None = None,
    **options: Any,
) -> GenerateRequest:
    """Resolve the project, default dialect and targets (UserError on anything unknown)."""
    root = Path(project) if project is not None else find_project(Path.cwd())
    if root is None:
        raise UserError("no project folder here or above", hint="pass --project DIR")
    loaded = load_project(root)
    chosen = dialect or default_dialect(loaded.kind)
    get_dialect(chosen)
    resolved = resolve_targets(loaded, chosen, targets)
    request = GenerateRequest(targets=resolved, project=str(root), dialect=chosen, **options)
    request.keep_project(loaded)  # read once per command: the run starts from this reading
    return request


def new_run_id() -> str:
    return f"gen-{datetime.now(tz=UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


async def run_generation(
    request: GenerateRequest | None,
    *,
    resume: str | None = None,
    engine: DraftEngine | None = None,
    checkpoints: Path = DEFAULT_CHECKPOINTS,
    on_update: UpdateHandler | None = None,
    on_start: Callable[[str], None] | None = None,
    keep_runs: int = DEFAULT_KEEP_RUNS,
) -> dict[str, Any]:
    """Run (or resume) a generation and return its report; afterwards the store keeps the
    newest `keep_runs` runs (this one included). The heap before the run is frozen for the
    garbage collector meanwhile (`agentflows.collector`)."""
    with collector_paused():
        if engine is None and request is not None and resume is None:
            _head_start(request)
        try:
            return await _flow(
                request,
                resume=resume,
                engine=engine,
                checkpoints=checkpoints,
                on_update=on_update,
                on_start=on_start,
                keep_runs=keep_runs,
            )
        finally:  # what the run did not take is not another run's
            early.forget()


async def _resumed(graph: Any, resume: str, checkpoints: Path) -> tuple[Any, GenerateRequest]:
    """The stored state of run `resume` and its request, read as data only.

    Raises:
        UserError: no such run, or a run whose state is not what casegen wrote.
    """
    try:
        snapshot = await graph.aget_state({"configurable": {"thread_id": resume}})
    except Exception as exc:  # a damaged store: a clear error, not LangGraph's traceback
        error = refused(exc, checkpoints) or UserError(
            f"{checkpoints}: run '{resume}' cannot be read ({type(exc).__name__}: {exc})",
            hint="the file was changed outside casegen: remove its runs with `casegen clean` "
            "(or delete the file) and start the run again",
        )
        raise error from None
    if not snapshot.values:
        raise UserError(
            f"no generation run '{resume}' in {checkpoints}",
            hint="run ids are printed when a run starts",
        )
    values = snapshot.values
    try:
        report = values.get("report", {})
        if not isinstance(report, dict):
            raise TypeError("its report is not a mapping")
        return snapshot, GenerateRequest.model_validate(values["request"])
    except (KeyError, TypeError, AttributeError, ValidationError) as exc:
        raise UserError(
            f"{checkpoints}: run '{resume}' does not hold a generation request casegen can "
            f"read ({str(exc).splitlines()[0]})",
            hint="start the run again; `casegen clean` removes stored runs",
        ) from None


def _head_start(request: GenerateRequest) -> None:
    """A new run with a model: check its endpoint, then send the first drafts, answered
    while LangGraph and the client stack load (`_early`)."""
    config = _preflight(request)  # before LangGraph and the client stack load
    project = request.loaded_project()
    if config is not None and project is not None:
        try:
            send_first_drafts(request, project, config)
        except Exception:  # a head start only: the flow plans and reports on its own
            log.debug("no early drafts", exc_info=True)


async def _flow(
    request: GenerateRequest | None,
    *,
    resume: str | None,
    engine: DraftEngine | None,
    checkpoints: Path,
    on_update: UpdateHandler | None,
    on_start: Callable[[str], None] | None,
    keep_runs: int,
) -> dict[str, Any]:
    # LangGraph and its SQLite saver load here, not at import: commands that never
    # generate (validate, sources, --help) start without them.
    # start-up: langgraph, langchain_core, langsmith and 25 casegen modules
    from .graph import compiled_graph

    ensure_dir(checkpoints.parent)
    async with open_store(checkpoints) as saver:
        graph = compiled_graph(saver)
        if resume is not None:
            snapshot, request = await _resumed(graph, resume, checkpoints)
            run_id = resume
            started_at = snapshot.values.get("report", {}).get("started_at") or now_iso()
            payload: dict[str, Any] | None = None
            retry = _resumable_ids(snapshot.values)
            if not snapshot.next and not retry:
                return snapshot.values["report"]
        else:
            if request is None:
                raise ValueError("a request or a run id to resume is needed")
            run_id = new_run_id()
            started_at = now_iso()
            payload = {"request": request.model_dump(mode="json")}
        if engine is None and resume is not None:
            _preflight(request)
        project = request.loaded_project() or load_project(Path(request.project))
        head = request.kept_head(project) if resume is None else None
        context = GenerateContext(
            request=request,
            project=project,
            dialect=get_dialect(request.dialect),
            engine=engine
            or make_engine(request.model, no_cache=request.no_cache, start=request.project),
            run_id=run_id,
            started_at=started_at,
            planned_marks=dict(head.marks) if head is not None else {},
            planned_cases=dict(head.cases) if head is not None else {},
        )
        if on_start is not None:
            on_start(run_id)
        config = {
            "configurable": {"thread_id": run_id},
            "max_concurrency": request.concurrency,
            "recursion_limit": 100,
        }
        if resume is not None and not snapshot.next:
            # A finished run whose endpoint failed some cases: pick it up after planning,
            # so those cases are drafted again (the others keep their drafts).
            await graph.aupdate_state(
                config, {"behaviors": snapshot.values.get("behaviors", [])}, as_node="plan"
            )
        report: dict[str, Any] | None = None
        async for update in graph.astream(
            payload, config, context=context, stream_mode="updates", durability=DURABILITY
        ):
            for node, values in update.items():
                if node == "report" and values:
                    report = values["report"]
                if on_update is not None:
                    on_update(node, values or {})
        if report is None:  # the report step did not run in this pass: the stored state's
            report = (await graph.aget_state(config)).values["report"]
    prune_runs(checkpoints, keep=max(keep_runs, 1))
    return report  # as the report step made it: reading the whole state back cost more


def _resumable_ids(values: dict[str, Any]) -> list[str]:
    return [key for key, work in (values.get("cases") or {}).items() if resumable(work)]


def _preflight(request: GenerateRequest) -> ModelConfig | None:
    """A run with a model: stop before planning when its endpoint is down or refuses the
    key (`EndpointError`), instead of every case retrying into it; the run's model
    configuration (None: offline)."""
    if request.model == "offline":
        return None
    config = resolve_model_config(request.model, start=request.project)
    if config is None:
        return None
    preflight(config)
    return config


__all__ = [
    "GenerateRequest",
    "build_request",
    "default_dialect",
    "differing",
    "new_run_id",
    "prewrite",
    "prune_runs",
    "run_generation",
]
