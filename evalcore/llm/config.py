"""Which model to call and how: one `ModelConfig`, resolved the same way for every role.

Precedence, first match wins, for the model name:

1. the explicit `model` argument (`--model`); `offline` means no model;
2. the environment: the role's own variable (`CASEGEN_JUDGE_MODEL`, `CASEGEN_SIMULATOR_MODEL`),
   then `CASEGEN_MODEL`;
3. the settings file: `casegen.toml`, or `[tool.casegen]` of `pyproject.toml`, in the nearest
   folder at or above `start` that has one; the role's key (`judge_model`,
   `simulator_model`) before `model`.

No model anywhere → `None`, and callers run offline. The other settings (endpoint, key
variable, timeout, retries, prices) come from the same settings file:

    [tool.casegen]
    model = "gpt-4.1-mini"
    judge_model = "gpt-4.1"
    base_url = "http://localhost:8000/v1"   # else OPENAI_BASE_URL, else OpenAI
    api_key_env = "OPENAI_API_KEY"          # the variable that holds the key
    timeout_s = 60
    max_retries = 3
    input_cost_per_mtok = 0.40
    output_cost_per_mtok = 1.60
    structured = "auto"                     # auto | json_schema | tools | json | text
    context = 8192                          # the model's context window, in tokens
    max_tokens = { draft = 700, judge = 400 }   # answer limits per call kind (or one number)
    refine_plan = false                     # default: on when the context is 16k or more

`structured_output` (`json_schema` / `function_calling`) is the older name of `structured`
and still works.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from .._readbytes import describe, read_text
from ..errors import ConfigError
from ..redact import register_secret
from ..suggest import did_you_mean

Role = Literal["draft", "simulator", "judge"]
Method = Literal["json_schema", "tools", "json", "text"]
"""How a structured answer is requested: `response_format: json_schema`, one forced tool
call, `response_format: json_object`, or plain text with the JSON extracted."""
#: The methods strongest first: the order `structured = "auto"` tries them in.
METHOD_ORDER: tuple[Method, ...] = ("json_schema", "tools", "json", "text")
StructuredSetting = Literal["auto", "json_schema", "tools", "json", "text"]
StructuredMethod = Literal["auto", "json_schema", "tools", "json", "text", "function_calling"]
"""What callers and older settings may name; `function_calling` is the old name of `tools`."""
CallKind = Literal[
    "draft", "repair", "plan", "critique", "revise", "judge", "simulate", "triage", "other"
]

#: Answer limits per call kind (tokens): small enough that a looping model stops early,
#: large enough for the longest honest answer of that kind (a repaired whole case).
DEFAULT_MAX_TOKENS: dict[str, int] = {
    "draft": 700,
    "repair": 1500,
    "plan": 1200,
    "critique": 700,
    "revise": 1000,  # edits to the case, not the case re-typed
    "judge": 500,
    "simulate": 250,
    "triage": 700,
    "other": 1000,
}
#: The context assumed for a model the settings say nothing about: 8k for a local server
#: (llama.cpp's and Ollama's common default), 128k for the OpenAI API.
LOCAL_CONTEXT = 8192
HOSTED_CONTEXT = 128_000
#: Plan refinement fits an 8k context uncut since it answers with edits (benchmarks
#: llm-prompts), but it is polish a small model has not been shown to improve: below this
#: context it is off by default (`refine_plan = true` turns it on).
REFINE_PLAN_MIN_CONTEXT = 16_384

#: Sent as the key to self-hosted endpoints (vLLM, Ollama, llama.cpp) that need none; the
#: OpenAI client refuses to start without some key.
PLACEHOLDER_API_KEY = "not-needed"

_ROLE_ENV = {"judge": "CASEGEN_JUDGE_MODEL", "simulator": "CASEGEN_SIMULATOR_MODEL"}
_ROLE_KEY = {"judge": "judge_model", "simulator": "simulator_model"}


class ModelConfig(BaseModel):
    """Everything needed to call one model over the OpenAI-compatible API."""

    model_config = ConfigDict(frozen=True)

    model: str
    base_url: str | None = None
    """None: the OpenAI API."""
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=60.0, gt=0)
    """Per-request limit; a slower answer counts as a timeout and is retried."""
    max_retries: int = Field(default=3, ge=0)
    """Retries after the first attempt, for transient errors and, separately, for invalid
    output (each has this budget)."""
    temperature: float | None = 0.0
    """None: do not send one (some reasoning models accept only their default)."""
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None
    cache_dir: Path = Path(".casegen/cache")
    structured: StructuredSetting = "auto"
    """How structured answers are requested; `auto`: the strongest method the endpoint
    accepts, found on the first call and remembered for the run (see `evalcore.llm._methods`)."""
    context: int | None = Field(default=None, gt=0)
    """The model's context window in tokens; None: `LOCAL_CONTEXT` or `HOSTED_CONTEXT`."""
    max_tokens: dict[str, int] = Field(default_factory=dict)
    """Answer limits per call kind, over `DEFAULT_MAX_TOKENS` (`*` sets every kind)."""
    refine_plan: bool | None = None
    """None: refine the plan only when the context is at least `REFINE_PLAN_MIN_CONTEXT`."""
    retry_base_delay_s: float = Field(default=1.0, ge=0)
    """First backoff delay; doubles per retry, with jitter. Tests set it near zero."""
    retry_max_delay_s: float = Field(default=30.0, ge=0)
    """Cap on one backoff delay, including a server's Retry-After."""
    rpm: int | None = Field(default=None, gt=0)
    """Requests per minute this endpoint allows (shared by every call in the process)."""
    tpm: int | None = Field(default=None, gt=0)
    """Tokens per minute (prompt + answer) this endpoint allows."""

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        """`structured_output` (json_schema / function_calling) still sets `structured`."""
        if isinstance(data, dict) and "structured_output" in data:
            data = dict(data)
            old = data.pop("structured_output")
            data.setdefault("structured", normalize_method(old))
        return data

    @property
    def structured_output(self) -> str:
        """The older name of `structured`."""
        return self.structured

    @property
    def self_hosted(self) -> bool:
        """An OpenAI-compatible server other than the OpenAI API."""
        return bool(self.base_url) and not _is_openai_host(self.base_url or "")

    @property
    def context_tokens(self) -> int:
        """The context window calls are fitted into."""
        if self.context is not None:
            return self.context
        return LOCAL_CONTEXT if self.self_hosted else HOSTED_CONTEXT

    def max_tokens_for(self, kind: str) -> int:
        """The answer limit of one call kind (settings over the defaults)."""
        if kind in self.max_tokens:
            return self.max_tokens[kind]
        if "*" in self.max_tokens:
            return self.max_tokens["*"]
        return DEFAULT_MAX_TOKENS.get(kind, DEFAULT_MAX_TOKENS["other"])

    @property
    def refines_plan(self) -> bool:
        """Whether plan refinement runs: the setting, else on for large contexts only."""
        if self.refine_plan is not None:
            return self.refine_plan
        return self.context_tokens >= REFINE_PLAN_MIN_CONTEXT


def normalize_method(value: Any) -> Any:
    """The current name of a structured-output method (`function_calling` → `tools`)."""
    return "tools" if value == "function_calling" else value


class FileSettings(BaseModel):
    """The `[tool.casegen]` / `casegen.toml` keys (unknown keys are an error, not ignored)."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    judge_model: str | None = None
    simulator_model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float | None = Field(default=None, gt=0)
    max_retries: int | None = Field(default=None, ge=0)
    temperature: float | None = None
    input_cost_per_mtok: float | None = Field(default=None, ge=0)
    output_cost_per_mtok: float | None = Field(default=None, ge=0)
    cache_dir: str | None = None
    structured: StructuredSetting | None = None
    structured_output: Literal["json_schema", "function_calling"] | None = None
    """The older name of `structured` (`function_calling` is `tools`)."""
    context: int | None = Field(default=None, gt=0)
    max_tokens: int | dict[str, int] | None = None
    refine_plan: bool | None = None
    max_output_bytes: int | None = Field(default=None, gt=0)
    """What is kept of one agent answer (`command:` stdout, an HTTP reply); default 1 MiB."""
    pass_env: list[str] | None = None
    """Secret-named variables (`*_KEY`, `*_TOKEN`, ...) to pass to agents and checks anyway."""
    rpm: int | None = Field(default=None, gt=0)
    tpm: int | None = Field(default=None, gt=0)
    skills: dict[str, Any] | None = None
    """`[tool.casegen.skills.<name>]` vocabulary for base44 `command:` targets; read by
    `evalcore.agents._skills`, accepted (and ignored) here so model settings still load."""
    limits: dict[str, Any] | None = None
    """`[tool.casegen.limits]` input limits; read by `evalcore.limits`, accepted here."""


def find_settings(start: str | Path | None = None) -> tuple[FileSettings, Path | None]:
    """The settings in the nearest folder at/above `start` (default: cwd) that has any.

    In one folder `casegen.toml` wins over `pyproject.toml`; a `pyproject.toml` without
    `[tool.casegen]` does not stop the search.
    """
    folder = Path(start if start is not None else Path.cwd()).resolve()
    if folder.is_file():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        dedicated = candidate / "casegen.toml"
        if dedicated.is_file():
            return _parse_settings(_read_toml(dedicated), dedicated), dedicated
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            table = _read_toml(pyproject).get("tool", {}).get("casegen")
            if isinstance(table, dict):
                return _parse_settings(table, pyproject), pyproject
    return FileSettings(), None


def resolve_model_config(
    model: str | None,
    *,
    start: str | Path | None = None,
    role: Role = "draft",
) -> ModelConfig | None:
    """The model to use for `role`, or None to run offline (see the module docstring).

    Raises:
        ConfigError: the settings file is unreadable or has unknown/invalid keys.
    """
    if model == "offline":
        return None  # offline needs no settings, so a broken settings file cannot stop it
    settings, settings_file = find_settings(start)
    name = _model_name(model, settings, role)
    if name is None or name == "offline":
        return None
    base_url = settings.base_url or os.environ.get("OPENAI_BASE_URL") or None
    key_env = settings.api_key_env or "OPENAI_API_KEY"
    key = os.environ.get(key_env) or None
    register_secret(key)  # whatever the variable is called, its value never reaches a report
    if key is None and base_url is not None and not _is_openai_host(base_url):
        key = PLACEHOLDER_API_KEY
    cache_dir = Path(settings.cache_dir) if settings.cache_dir else None
    if cache_dir is not None and not cache_dir.is_absolute() and settings_file is not None:
        cache_dir = settings_file.parent / cache_dir
    values: dict[str, Any] = {
        "model": name,
        "base_url": base_url,
        "api_key": SecretStr(key) if key else None,
        "timeout_s": settings.timeout_s,
        "max_retries": settings.max_retries,
        "temperature": settings.temperature,
        "input_cost_per_mtok": settings.input_cost_per_mtok,
        "output_cost_per_mtok": settings.output_cost_per_mtok,
        "cache_dir": cache_dir,
        "structured": settings.structured or normalize_method(settings.structured_output),
        "context": settings.context,
        "max_tokens": _max_tokens(settings.max_tokens, settings_file),
        "refine_plan": settings.refine_plan,
        "rpm": settings.rpm,
        "tpm": settings.tpm,
    }
    # Unset file keys keep the ModelConfig defaults (temperature None would mean "don't send").
    return ModelConfig(**{k: v for k, v in values.items() if v is not None})


def _max_tokens(value: int | dict[str, int] | None, path: Path | None) -> dict[str, int] | None:
    """`max_tokens = 800` (every kind) or a table per call kind, checked by name."""
    if value is None:
        return None
    if isinstance(value, int):
        value = {"*": value}
    for kind, limit in value.items():
        if kind != "*" and kind not in DEFAULT_MAX_TOKENS:
            raise ConfigError(
                f"unknown call kind '{kind}' in max_tokens of {path}",
                hint=did_you_mean(kind, DEFAULT_MAX_TOKENS, what="call kind")
                or "kinds: " + ", ".join(DEFAULT_MAX_TOKENS),
            )
        if limit <= 0:
            raise ConfigError(f"max_tokens.{kind} in {path} must be positive, not {limit}")
    return dict(value)


def _model_name(model: str | None, settings: FileSettings, role: Role) -> str | None:
    if model:
        return model
    for variable in (_ROLE_ENV.get(role), "CASEGEN_MODEL"):
        if variable and os.environ.get(variable):
            return os.environ[variable]
    role_key = _ROLE_KEY.get(role)
    return (getattr(settings, role_key) if role_key else None) or settings.model


def _is_openai_host(base_url: str) -> bool:
    host = urlparse(base_url).hostname or ""
    return host == "openai.com" or host.endswith(".openai.com")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path))
    except OSError as exc:
        raise ConfigError(f"cannot read model settings from {path}: {describe(exc)}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read model settings from {path}: {exc}") from None


def _parse_settings(table: dict[str, Any], path: Path) -> FileSettings:
    where = "[tool.casegen] in " + str(path) if path.name == "pyproject.toml" else str(path)
    try:
        return FileSettings.model_validate(table)
    except ValidationError as exc:
        error = exc.errors()[0]
        key = ".".join(str(p) for p in error["loc"])
        if error["type"] == "extra_forbidden":
            raise ConfigError(
                f"unknown model setting '{key}' in {where}",
                hint=did_you_mean(key, FileSettings.model_fields, what="setting")
                or "settings: " + ", ".join(FileSettings.model_fields),
            ) from None
        raise ConfigError(f"invalid model setting '{key}' in {where}: {error['msg']}") from None


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "METHOD_ORDER",
    "PLACEHOLDER_API_KEY",
    "CallKind",
    "FileSettings",
    "Method",
    "ModelConfig",
    "Role",
    "StructuredMethod",
    "StructuredSetting",
    "find_settings",
    "normalize_method",
    "resolve_model_config",
]
