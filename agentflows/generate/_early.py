"""A model run's first drafts, asked before LangGraph and the chat client are imported.

Importing LangGraph, LangChain and the OpenAI SDK costs more CPU than planning bank's cases
(docs/benchmarks.md, "Where users wait"). A new run with a model plans its targets here,
before those imports, prepares the drafts the flow starts first (one per `--concurrency`
slot, in plan order, past the cases its look back records as twins of earlier ones,
`_planned_twins`) and sends their requests early (`evalcore.llm.early`); the imports then
run while the model answers. The flow takes the plans and planned cases made here
(`HeadStart`) and, through `structured_call`, each of those drafts the answer to its
identical request, so the run writes what it writes without this.

Nothing is sent early when the plan is refined by the model (its behaviours are not known
yet), for a dialect drafted whole, for a response the cache already holds, for a prompt
the call would cut to fit the context, or where `evalcore.llm.early.eligible` says no.
"""

from __future__ import annotations

import logging

from evalcore.definitions import Project
from evalcore.dialects import get_dialect
from evalcore.llm import ModelConfig, ResponseCache, cache_key, early
from evalcore.prompts import render_prompt

from ..drafting import DraftContext
from ..drafting.llm import planned_drafting
from ..planning import plan_source
from ._planned_twins import asserted, comparable, dialect_mark
from ._selection import chosen
from ._siblings import siblings
from .context import GenerateRequest, HeadStart

log = logging.getLogger("casegen.llm")


def send_first_drafts(request: GenerateRequest, project: Project, config: ModelConfig) -> int:
    """Plan `request`'s targets, keep the plans for the flow and send the requests of the
    drafts it starts first; the number sent."""
    if config.refines_plan or not early.eligible(config):
        return 0
    planned = planned_drafting(request.dialect)
    if planned is None:  # drafted whole: nothing planned to send
        return 0
    dialect = get_dialect(request.dialect)
    plans = [
        plan_source(project, request.dialect, source, request.direction)
        for source in request.targets
    ]
    head = HeadStart(plans=plans)
    request.keep_head(project, head)
    behaviors, _ = chosen([plan.behaviors for plan in plans], request)
    dumped = [b.model_dump(mode="json") for b in behaviors]
    titles: dict[str, list[str]] = {}
    for one in dumped:
        titles.setdefault(one["source"], []).append(one["title"])
    spec = early.output_spec_of(planned.WORDS, False)
    max_tokens = config.max_tokens_for("draft")
    cache = None if request.no_cache else ResponseCache(config.cache_dir)
    seen: set[frozenset[str]] = set()
    first = 0
    sent = 0
    for behavior, one in zip(behaviors, dumped, strict=True):
        if first == request.concurrency:
            break
        if not comparable(behavior):  # not drafted (edits come with a refined plan only)
            continue
        ctx = DraftContext(
            project=project,
            dialect=request.dialect,
            behavior=behavior,
            direction=request.direction,
            siblings=tuple(siblings(one, dumped, titles)),
        )
        document, script = planned.planned_case(ctx)
        marks = head.marks[behavior.id] = asserted(dialect_mark(dialect, document))
        head.cases[behavior.id] = (document, script)
        if marks and marks in seen:  # recorded as a twin by its look back: never drafted
            continue
        seen.add(marks)
        first += 1
        messages = render_prompt(
            f"generate/draft_{request.dialect}", **planned.prompt_values(ctx, document, script)
        ).messages
        if not early.fits(config, messages, max_tokens) or _cached(cache, config, messages, spec):
            continue
        body = early.wire_body(config, messages, spec, max_tokens=max_tokens)
        sent += body is not None and early.send(config, body)
    log.debug("sent %d first drafts early", sent)
    return sent


def _cached(
    cache: ResponseCache | None,
    config: ModelConfig,
    messages: list[tuple[str, str]],
    spec: dict[str, object],
) -> bool:
    """Whether the response cache holds this call's answer (as `structured_call` keys it)."""
    if cache is None:
        return False
    key = cache_key(
        model=config.model,
        base_url=config.base_url,
        messages=early.cache_messages(messages),
        schema=spec,
        method="structured",
        temperature=config.temperature,
    )
    return cache.get(key) is not None


__all__ = ["send_first_drafts"]
