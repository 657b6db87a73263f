"""Is the model endpoint there, and does it take our key? One cheap `GET /models`.

Used before a run that needs a model (`generate`, `run`, `review`, `revise`), so an endpoint
that is down or refuses the key stops the run at once with one error and its hint, instead
of every case retrying into the same wall; and by `casegen doctor`, which also reads the
listed models and what the server says of its context size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evalcore.errors import UserError
from evalcore.llm import ModelConfig
from evalcore.llm.errors import FailureKind, failure_kind
from evalcore.redact import redact

#: The hint every endpoint failure carries.
HINT = (
    "`casegen doctor` checks the endpoint and says what casegen would use; "
    "`--model offline` runs without a model"
)
#: Where an OpenAI-compatible client goes without a base_url.
OPENAI_URL = "https://api.openai.com/v1"
#: A pre-flight should answer in seconds even when the configured timeout is minutes.
PROBE_TIMEOUT_S = 10.0


class EndpointError(UserError):
    """The model endpoint is unreachable or refused the key: nothing this run asks will work."""

    exit_code = 3

    def __init__(self, message: str, *, kind: FailureKind, hint: str | None = HINT) -> None:
        super().__init__(message, hint=hint)
        self.kind = kind


@dataclass
class ModelsProbe:
    """What `GET <base_url>/models` said."""

    url: str
    status: int | None = None
    """HTTP status; None: no answer at all."""
    kind: FailureKind | None = None
    """`unreachable` / `auth` when the endpoint cannot serve this run, else None."""
    error: str | None = None
    models: list[str] | None = None
    """Model ids the server lists (None: it lists none, e.g. no `/models` route)."""
    entries: list[dict[str, Any]] = field(default_factory=list)
    """The raw list entries (some carry the context size)."""

    @property
    def usable(self) -> bool:
        return self.kind is None


def endpoint_url(config: ModelConfig) -> str:
    return (config.base_url or OPENAI_URL).rstrip("/")


def auth_headers(config: ModelConfig) -> dict[str, str]:
    key = config.api_key.get_secret_value() if config.api_key is not None else ""
    return {"Authorization": f"Bearer {key}"} if key else {}


def probe_models(config: ModelConfig, *, timeout_s: float | None = None) -> ModelsProbe:
    """`GET /models` with the configured key; a missing route (404) still means reachable."""
    import httpx  # start-up: httpx, rich, pygments

    url = endpoint_url(config)
    probe = ModelsProbe(url=url)
    limit = min(config.timeout_s, timeout_s or PROBE_TIMEOUT_S)
    # A plain-HTTP endpoint has no TLS to verify, and the probe follows no redirect: the
    # CA bundle is loaded only for HTTPS (it cost a tenth of a second before the run's
    # first request).
    verify = not url.lower().startswith("http://")
    try:
        response = httpx.get(
            f"{url}/models", headers=auth_headers(config), timeout=limit, verify=verify
        )
    except httpx.HTTPError as exc:
        probe.kind = failure_kind(exc) or "unreachable"
        if probe.kind == "transient":
            # A connect time-out is as good as no connection for a pre-flight.
            probe.kind = "unreachable"
        probe.error = redact(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        return probe
    probe.status = response.status_code
    if response.status_code in (401, 403):
        probe.kind = "auth"
        probe.error = redact(f"HTTP {response.status_code}: {_message(response)}")
        return probe
    if response.status_code == 200:
        body = json_body(response)
        data = body.get("data") if isinstance(body, dict) else None
        if isinstance(data, list):
            probe.entries = [e for e in data if isinstance(e, dict)]
            probe.models = [str(e.get("id")) for e in probe.entries if e.get("id")]
    return probe


def preflight(config: ModelConfig, *, role: str = "model") -> ModelsProbe:
    """Raise `EndpointError` when `config`'s endpoint is unreachable or refuses the key.

    Anything else (no `/models` route, the model not listed, a 500 there) passes: the run's
    own calls say more than a probe can. Without a key for the OpenAI API nothing is asked:
    the client's own "no API key" error says it better.
    """
    if config.api_key is None:
        return ModelsProbe(url=endpoint_url(config))
    probe = probe_models(config)
    if probe.usable:
        return probe
    raise EndpointError(describe_failure(config, probe, role=role), kind=probe.kind or "auth")


def preflight_roles(configs: dict[str, ModelConfig | None]) -> None:
    """`preflight` each role's endpoint once (roles often share one): `{"judge": config}`."""
    seen: set[tuple[str, str]] = set()
    for role, config in configs.items():
        if config is None:
            continue
        key = (endpoint_url(config), auth_headers(config).get("Authorization", ""))
        if key in seen:
            continue
        seen.add(key)
        preflight(config, role=role)


def describe_failure(config: ModelConfig, probe: ModelsProbe, *, role: str = "model") -> str:
    if probe.kind == "auth":
        return (
            f"the {role} endpoint {probe.url} refused the API key for '{config.model}' "
            f"({probe.error}); check OPENAI_API_KEY or the variable named by api_key_env"
        )
    return (
        f"the {role} endpoint {probe.url} for '{config.model}' is unreachable ({probe.error}); "
        "start the server, or fix base_url / OPENAI_BASE_URL"
    )


def json_body(response: Any) -> Any:
    """The response's JSON, or None when it is not JSON casegen can read (garbage, not
    UTF-8, an event stream, nested past the parser's depth)."""
    try:
        return response.json()
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None


def body_text(response: Any, limit: int = 200) -> str:
    """The start of a response body on one line, secrets masked (an endpoint may echo the
    key it was sent)."""
    try:
        text = response.content[:4096].decode("utf-8", "replace")
    except (AttributeError, TypeError):
        text = ""
    return redact(" ".join(text.split())[:limit]) or "no message"


def _message(response: Any) -> str:
    body = json_body(response)
    if body is None:
        return body_text(response)
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return redact(str(error.get("message") or error)[:200])
    return redact(str(error or body)[:200])


__all__ = [
    "HINT",
    "EndpointError",
    "ModelsProbe",
    "auth_headers",
    "describe_failure",
    "endpoint_url",
    "preflight",
    "preflight_roles",
    "probe_models",
]
