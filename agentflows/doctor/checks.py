"""`casegen doctor`: every check of the configured model endpoint, and what casegen will use.

Checks, in order (each `ok`, `warn` or `fail`, with its detail):

1. `endpoint`: `GET /models` answers, and takes the key (unreachable / refused stop here);
2. `model`: the configured model is among the listed ones (a warning: some servers serve any
   name);
3. `structured:<method>`: `json_schema`, a forced tool call and `json_object`, each asked
   once with a tiny schema; `structured` fails when the configured method is not one that
   works (and names the setting that would);
4. `context`: the context size, where the server states it;
5. `smoke-draft`: one real draft of the project's first planned case, through validation
   and the review rules (`--no-smoke` skips it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from evalcore.llm import METHOD_ORDER as ORDER
from evalcore.llm import LLMError, ModelConfig, resolve_model_config
from evalcore.redact import redact

from ._endpoint import describe_failure, endpoint_url, probe_models
from ._structured import SETTING_NAME, context_size, probe_methods

Status = Literal["ok", "warn", "fail", "skip"]
EXIT_OK, EXIT_FAILED, EXIT_ENDPOINT = 0, 1, 3


@dataclass
class Check:
    name: str
    status: Status
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)
    uses: dict[str, Any] = field(default_factory=dict)
    """What casegen will use: model, endpoint, method, context, simulator, judge."""
    exit_code: int = EXIT_OK

    def add(self, name: str, status: Status, detail: str) -> None:
        """Add a check; its detail is redacted (it may quote what the endpoint said, and an
        endpoint may echo the key it was sent)."""
        self.checks.append(Check(name, status, redact(detail)))

    def to_json(self) -> dict[str, Any]:
        return {
            "checks": [c.to_json() for c in self.checks],
            "uses": self.uses,
            "exit_code": self.exit_code,
        }


def run_doctor(
    model: str | None, *, start: Path, project: Path | None = None, smoke: bool = True
) -> DoctorReport:
    report = DoctorReport()
    config = resolve_model_config(model, start=project or start)
    report.uses = _uses(model, project or start, config)
    if config is None:
        report.add(
            "model", "skip", "no model configured: the offline drafter and simulator run, no judge"
        )
        return report
    if config.api_key is None:
        report.add(
            "endpoint",
            "fail",
            f"no API key for '{config.model}' at the OpenAI API: set OPENAI_API_KEY (or the "
            "variable named by api_key_env), or base_url for a local server",
        )
        report.exit_code = EXIT_ENDPOINT
        return report
    probe = probe_models(config)
    if not probe.usable:
        report.add("endpoint", "fail", describe_failure(config, probe))
        report.exit_code = EXIT_ENDPOINT
        return report
    report.add("endpoint", "ok", f"{probe.url} answers (GET /models: HTTP {probe.status})")
    if probe.models is None:
        report.add("model", "warn", "the server lists no models; asking for it anyway")
    elif config.model in probe.models:
        report.add("model", "ok", f"'{config.model}' is listed")
    else:
        listed = ", ".join(probe.models[:8]) or "none"
        report.add("model", "warn", f"'{config.model}' is not listed (listed: {listed})")
    _structured(report, config)
    size, where = context_size(config, probe.entries)
    report.uses["context"] = size
    report.add("context", "ok" if size else "warn", f"{size} tokens ({where})" if size else where)
    if smoke and report.exit_code == EXIT_OK:
        _smoke(report, config, project or start)
    elif not smoke:
        report.add("smoke-draft", "skip", "--no-smoke")
    return report


def _uses(model: str | None, start: Path, config: ModelConfig | None) -> dict[str, Any]:
    roles = {
        role: resolve_model_config(model, start=start, role=role) for role in ("simulator", "judge")
    }
    return {
        "drafting": f"llm:{config.model}" if config else "offline",
        "endpoint": endpoint_url(config) if config else None,
        "structured": config.structured if config else None,
        "timeout_s": config.timeout_s if config else None,
        "max_retries": config.max_retries if config else None,
        "simulator": f"llm:{roles['simulator'].model}" if roles["simulator"] else "offline",
        "judge": f"llm:{roles['judge'].model}" if roles["judge"] else "none (criteria unjudged)",
    }


def _structured(report: DoctorReport, config: ModelConfig) -> None:
    """Each method probed once; then whether the `structured` setting gets one that works
    (`auto` takes the strongest: json_schema, tools, json, else text with the JSON
    extracted, as the model layer does)."""
    probes = probe_methods(config)
    for probe in probes:
        report.add(f"structured:{probe.method}", "ok" if probe.works else "warn", probe.detail)
    working = [SETTING_NAME[p.method] for p in probes if p.works]
    setting = config.structured
    if setting == "auto":
        chosen = next((m for m in ORDER if m in working), "text")
        report.uses["structured"] = f"auto: {chosen}"
        if chosen == "text":
            report.add(
                "structured",
                "warn",
                "no structured-output method answered: casegen will ask for plain text and "
                "extract the JSON (small models often fail at that)",
            )
        else:
            report.add("structured", "ok", f"structured = auto: casegen will use {chosen}")
        return
    if setting in working or setting == "text":
        report.add("structured", "ok", f"structured = {setting}, which this server answers")
        return
    better = next((m for m in ORDER if m in working), None)
    report.add(
        "structured",
        "fail",
        f"structured = {setting}, which this server does not answer; set "
        + (f'structured = "{better}"' if better else 'structured = "auto"')
        + " in [tool.casegen]",
    )
    report.exit_code = EXIT_FAILED


def _smoke(report: DoctorReport, config: ModelConfig, start: Path) -> None:
    """One draft of the project's first planned case, judged like any generated case."""
    # start-up: yaml and 34 casegen modules
    from evalcore.definitions import find_project, load_project
    from evalcore.dialects import get_dialect  # start-up: yaml and 14 casegen modules
    from evalcore.validation import check_data  # start-up: yaml and 40 casegen modules

    from ..drafting import DraftContext  # start-up: yaml and 83 casegen modules

    # start-up: langchain_core, langchain_openai, langsmith and 100 casegen modules
    from ..drafting.llm import LLMEngine
    from ..generate import default_dialect, prewrite  # start-up: yaml and 93 casegen modules
    from ..planning import plan_source, source_ids  # start-up: yaml and 81 casegen modules

    root = find_project(start)
    if root is None:
        report.add("smoke-draft", "skip", "no project here (pass --project DIR)")
        return
    loaded = load_project(root)
    dialect = default_dialect(loaded.kind)
    sources = source_ids(loaded, dialect)
    plan = plan_source(loaded, dialect, sources[0], None) if sources else None
    if plan is None or not plan.behaviors:
        report.add("smoke-draft", "skip", f"{root} plans no case")
        return
    behavior = plan.behaviors[0]
    engine = LLMEngine(config, use_cache=False)
    try:
        result = asyncio.run(engine.draft(DraftContext(loaded, dialect, behavior)))
    except (LLMError, RuntimeError) as exc:
        report.add("smoke-draft", "fail", f"{behavior.id}: {exc}")
        report.exit_code = EXIT_FAILED
        return
    calls = result.usage.calls
    errors = [
        f for f in check_data(result.data, get_dialect(dialect), loaded) if f.severity == "error"
    ]
    reviewed = prewrite(result.data or {}, dialect, loaded, title=behavior.title)
    if not errors:
        errors = reviewed.errors
    if errors:
        first = errors[0]
        report.add(
            "smoke-draft",
            "fail",
            f"{behavior.id}: {len(errors)} error(s) after {calls} call(s); first "
            f"[{first.code}] {first.path or '/'}: {first.message}",
        )
        report.exit_code = EXIT_FAILED
        return
    if not _model_wrote(DraftContext(loaded, dialect, behavior), reviewed.data, behavior.title):
        report.add(
            "smoke-draft",
            "warn",
            f"{behavior.id}: valid after {calls} call(s), but none of the model's words "
            "were usable: the case is the offline plan's",
        )
        return
    report.add("smoke-draft", "ok", f"{behavior.id}: valid after {calls} call(s)")


def _model_wrote(ctx: Any, data: dict[str, Any], title: str) -> bool:
    """Whether the reviewed `data` differs from the reviewed offline plan (always, for
    dialects drafted whole)."""
    # start-up: langchain_core, langchain_openai, langsmith and 100 casegen modules
    from ..drafting.llm import planned_drafting
    from ..generate import differing, prewrite  # start-up: yaml and 93 casegen modules

    planned = planned_drafting(ctx.dialect)
    if planned is None:
        return True
    document, _ = planned.planned_case(ctx)
    plan = prewrite(document, ctx.dialect, ctx.project, title=title).data
    return bool(differing(plan, data))


__all__ = ["Check", "DoctorReport", "run_doctor"]
