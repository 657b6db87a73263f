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
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from ..errors import ConfigError
from ..redact import register_secret
from ..suggest import did_you_mean

Role = Literal["draft", "simulator", "judge"]
StructuredMethod = Literal["json_schema", "function_calling"]

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
    structured_output: StructuredMethod = "json_schema"
    """How structured answers are requested; `function_calling` for servers without
    `response_format: json_schema`."""
    retry_base_delay_s: float = Field(default=1.0, ge=0)
    """First backoff delay; doubles per retry, with jitter. Tests set it near zero."""
    retry_max_delay_s: float = Field(default=30.0, ge=0)
    """Cap on one backoff delay, including a server's Retry-After."""


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
    structured_output: StructuredMethod | None = None
    max_output_bytes: int | None = Field(default=None, gt=0)
    """What is kept of one agent answer (`command:` stdout, an HTTP reply); default 1 MiB."""
    pass_env: list[str] | None = None
    """Secret-named variables (`*_KEY`, `*_TOKEN`, ...) to pass to agents and checks anyway."""
    skills: dict[str, Any] | None = None
    """`[tool.casegen.skills.<name>]` vocabulary for base44 `command:` targets; read by
    `evalcore.agents._skills`, accepted (and ignored) here so model settings still load."""


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
        "structured_output": settings.structured_output,
    }
    # Unset file keys keep the ModelConfig defaults (temperature None would mean "don't send").
    return ModelConfig(**{k: v for k, v in values.items() if v is not None})


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
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
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
    "PLACEHOLDER_API_KEY",
    "FileSettings",
    "ModelConfig",
    "Role",
    "StructuredMethod",
    "find_settings",
    "resolve_model_config",
]
