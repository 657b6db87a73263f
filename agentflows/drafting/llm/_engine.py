"""The LLM drafting engine: prompts from `prompts/generate/`, answers as the dialect's model.

Each call renders one named prompt with the source's definition text and real ids, asks for
the dialect's pydantic case model through `structured_call` (retries, cache, usage), and
hands back the case as plain JSON data for validation, repair and writing.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from evalcore.definitions import Project
from evalcore.dialects import get_dialect
from evalcore.errors import ConfigError
from evalcore.findings import Finding
from evalcore.llm import (
    InvalidOutputError,
    LLMError,
    ModelConfig,
    ModelRequestError,
    ResponseCache,
    Usage,
    make_chat_model,
    structured_call,
)
from evalcore.prompts import load_prompt, render_prompt

from ...planning import Behavior
from .._engine import DraftContext, DraftResult
from ._context import definition_ids, definition_text
from ._edits import apply_edits, attach_edits
from ._plan import NOT_NEEDED, RefinedPlan, covered_elements, lean_ids, merge_plan, plan_view
from ._planned_entry import planned_drafting

log = logging.getLogger("casegen.llm")


class DraftingError(RuntimeError):
    """A case's model call failed after its retries (the flow fails that case only)."""

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


class LLMEngine:
    """Drafts, repairs and refines plans with a chat model over the OpenAI-compatible API.

    Args:
        config: The resolved model configuration.
        use_cache: Read and write the response cache under `config.cache_dir`.
        chat_model: A ready chat model (tests pass a fake one); default
            `make_chat_model(config)`.
    """

    can_repair = True

    def __init__(
        self, config: ModelConfig, use_cache: bool = True, *, chat_model: Any = None
    ) -> None:
        self.config = config
        self.name = f"llm:{config.model}"
        self.model: str | None = config.model
        self.chat_model = chat_model if chat_model is not None else make_chat_model(config)
        self.cache = ResponseCache(config.cache_dir) if use_cache else None
        self._sources: dict[tuple[int, str, str], tuple[str, str]] = {}

    async def draft(self, ctx: DraftContext) -> DraftResult:
        planned = planned_drafting(ctx.dialect)
        if planned is not None:
            return await self._words_call(ctx, planned)
        values = self._case_values(ctx)
        return await self._case_call(ctx, f"generate/draft_{ctx.dialect}", values)

    async def repair(
        self, ctx: DraftContext, data: dict[str, Any], findings: list[Finding]
    ) -> DraftResult:
        errors = _json([_finding(f) for f in findings if f.severity == "error"])
        planned = planned_drafting(ctx.dialect)
        if planned is not None:
            # On the plan only the words can be wrong: ask for the words again, with the
            # findings, and put the plan's ids and assertions back around them.
            document, _ = planned.planned_case(ctx)
            document, _ = await self._edited(ctx, planned, document)
            base = planned.keep_planned(document, data)
            rendered = render_prompt(
                f"generate/repair_words_{ctx.dialect}",
                **planned.repair_values(ctx, document, data, errors),
            )
            result = await self._draft_call(ctx, rendered.messages, planned.WORDS, kind="repair")
            # the new words are checked against the plan, not the previous draft's words:
            # a slip of the model's own is its to fix
            merged = planned.merge_words(base, result.value, plan=document, ctx=ctx)
            return DraftResult(data=merged, usage=result.usage)
        values = self._case_values(ctx)
        values["case"] = _json(data)
        values["findings"] = errors
        return await self._case_call(ctx, f"generate/repair_{ctx.dialect}", values, kind="repair")

    def draft_prompt(self, ctx: DraftContext) -> Any:
        """The rendered draft prompt of `ctx` (what `draft` sends), for size checks."""
        planned = planned_drafting(ctx.dialect)
        if planned is None:
            return render_prompt(f"generate/draft_{ctx.dialect}", **self._case_values(ctx))
        document, script = planned.planned_case(ctx)
        return render_prompt(
            f"generate/draft_{ctx.dialect}", **planned.prompt_values(ctx, document, script)
        )

    async def _words_call(self, ctx: DraftContext, planned: ModuleType) -> DraftResult:
        """Draft on the plan: the model answers the words, merged into the planned case."""
        document, script = ctx.planned or planned.planned_case(ctx)
        edited, edits = await self._edited(ctx, planned, document)
        rendered = render_prompt(
            f"generate/draft_{ctx.dialect}", **planned.prompt_values(ctx, edited, script)
        )
        result = await self._draft_call(ctx, rendered.messages, planned.WORDS, kind="draft")
        proposed = list(getattr(result.value, "edits", None) or [])
        if proposed and ctx.accepted_edits is None:
            # the model's own corrections of the case it was shown, judged the same way
            for edit in proposed:
                edit.target = ctx.behavior.id
            behavior = attach_edits(ctx.project, ctx.dialect, [ctx.behavior], proposed)[0]
            behavior = behavior.model_copy(
                update={"edits": behavior.edits[len(ctx.behavior.edits) :]}
            )
            edited, more = await self._edited(replace(ctx, behavior=behavior), planned, edited)
            edits = [*edits, *more]
        return DraftResult(
            data=planned.merge_words(edited, result.value, ctx=ctx),
            usage=result.usage,
            planned=document,
            edits=edits,
        )

    async def _edited(
        self, ctx: DraftContext, planned: ModuleType, document: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The planned case with the behaviour's plan edits that pass their checks, and
        each edit's outcome (`_edits.apply_edits`)."""
        return await apply_edits(
            ctx.project,
            ctx.dialect,
            ctx.behavior,
            planned,
            document,
            accepted=ctx.accepted_edits,
            verify=ctx.verify_edit,
        )

    async def _draft_call(self, ctx: DraftContext, messages: Any, schema: Any, *, kind: str) -> Any:
        """One structured call for a case; a model failure is this case's drafting error."""
        try:
            return await structured_call(
                self.chat_model,
                messages,
                schema,
                config=self.config,
                cache=self.cache,
                kind=kind,
            )
        except LLMError as exc:
            raise DraftingError(f"case {ctx.behavior.id}: {exc}", usage=exc.usage) from exc

    async def refine_plan(
        self,
        project: Project,
        dialect: str,
        source: str,
        behaviors: list[Behavior],
        direction: str | None,
    ) -> tuple[list[Behavior], Usage]:
        """The plan with the model's titles and descriptions, plus direction-driven additions.

        Refining is polish on a plan that is complete without it, so a model that cannot
        answer leaves the plan as planned (with a warning) and drafting goes on. A rejected
        request (bad key, unknown model) stops the run instead: every draft would fail the
        same way.

        Raises:
            ConfigError: the endpoint rejected the request.
        """
        if not behaviors:
            return behaviors, Usage()
        if not self.config.refines_plan:
            log.info(
                "plan for %s kept as planned: refine_plan is off (context %d tokens)",
                source,
                self.config.context_tokens,
            )
            return behaviors, Usage()
        rendered = self.plan_prompt(project, dialect, source, behaviors, direction)
        try:
            result = await structured_call(
                self.chat_model,
                rendered.messages,
                RefinedPlan,
                config=self.config,
                cache=self.cache,
                kind="plan",
            )
        except ModelRequestError as exc:
            raise ConfigError(
                str(exc),
                hint="check the model settings (--model, base_url, "
                "the API key), or run with --model offline",
            ) from exc
        except LLMError as exc:
            log.warning("plan for %s kept as planned: %s", source, exc)
            return behaviors, exc.usage
        merged = merge_plan(behaviors, result.value, source=source, dialect=dialect)
        merged = attach_edits(project, dialect, merged, result.value.edits)
        return merged, result.usage

    def plan_prompt(
        self,
        project: Project,
        dialect: str,
        source: str,
        behaviors: list[Behavior],
        direction: str | None,
    ) -> Any:
        """The rendered plan-refinement prompt (what `refine_plan` sends), for size checks.

        The model answers with edits, so it sees each behaviour's wording, not its covers;
        the ids (without their prose) and the covered elements only when a direction may
        add behaviours that need them."""
        definition = self._source_text(project, dialect, source)[0]
        directed = _direction(direction) != "none"
        ids = lean_ids(definition_ids(project, dialect, source)) if directed else None
        name = f"generate/plan_{dialect}"
        values = {
            "definition": definition,
            "ids": _json(ids) if directed else NOT_NEEDED,
            "elements": _json(covered_elements(behaviors)) if directed else NOT_NEEDED,
            "direction": _direction(direction),
            "behaviors": plan_view(behaviors),
        }
        if "file" in load_prompt(name).placeholders:  # where a plan edit's quote comes from
            planned = planned_drafting(dialect)
            values["file"] = planned.definition_file(project, source) if planned else ""
        return render_prompt(name, **values)

    # --- internals ------------------------------------------------------------------------

    def _source_text(self, project: Project, dialect: str, source: str) -> tuple[str, str]:
        """Definition text and ids JSON, built once per source: every case of a source shares
        them, and concurrent drafts should not each spend CPU rebuilding them."""
        key = (id(project), dialect, source)
        if key not in self._sources:
            self._sources[key] = (
                definition_text(project, dialect, source),
                _json(definition_ids(project, dialect, source)),
            )
        return self._sources[key]

    def _case_values(self, ctx: DraftContext) -> dict[str, Any]:
        definition, ids = self._source_text(ctx.project, ctx.dialect, ctx.behavior.source)
        return {
            "definition": definition,
            "ids": ids,
            "behavior": _json(_behavior(ctx.behavior)),
            "direction": _direction(ctx.direction),
            "conventions": load_prompt(f"generate/conventions_{ctx.dialect}").template.strip(),
            "siblings": _json(list(ctx.siblings)) if ctx.siblings else "none",
        }

    async def _case_call(
        self, ctx: DraftContext, prompt: str, values: dict[str, Any], *, kind: str = "draft"
    ) -> DraftResult:
        """A whole case from the model. An answer that is JSON but fails the case model
        after the retries goes on as a draft: validation turns what is wrong into findings
        and the findings-based repair gets its turn, instead of the case failing here."""
        dialect = get_dialect(ctx.dialect)
        rendered = render_prompt(prompt, **values)
        try:
            result = await self._draft_call(ctx, rendered.messages, dialect.model, kind=kind)
        except DraftingError as exc:
            cause = exc.__cause__
            if isinstance(cause, InvalidOutputError) and isinstance(cause.parsed, dict):
                log.info("case %s: invalid draft goes to repair", ctx.behavior.id)
                return DraftResult(data=cause.parsed, usage=exc.usage)
            raise
        return DraftResult(data=dump_case(ctx.dialect, result.value), usage=result.usage)


def dump_case(dialect: str, value: BaseModel) -> dict[str, Any]:
    """The case as file data, the way the dialect's model round-trips
    (`Dialect.case_data`)."""
    return get_dialect(dialect).case_data(value)


def _behavior(behavior: Behavior) -> dict[str, Any]:
    return behavior.model_dump(mode="json", exclude={"dialect", "priority", "edits"})


def _finding(finding: Finding) -> dict[str, Any]:
    out = {
        "code": finding.code,
        "path": finding.path,
        "message": finding.message,
        "value": finding.value,
        "suggestion": finding.suggestion,
    }
    return {k: v for k, v in out.items() if v is not None}


def _direction(direction: str | None) -> str:
    return direction.strip() if direction and direction.strip() else "none"


def _json(value: Any) -> str:
    """Compact JSON: models read it as well as indented JSON, for fewer input tokens."""
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
