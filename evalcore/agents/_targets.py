"""`--target SPEC` → an `AgentTarget`: the one place that knows every scheme.

    parse_target("rasa:http://localhost:5005", project=project)
    parse_target("http:http://localhost:8080/agent")
    parse_target("python:my_agent:handle")
    parse_target("demo:clinic")
    parse_target("mantle:examples/bank?mutant=skip_confirmation:place_replacement_order")
    parse_target('command:"claude -p {prompt} --output-format stream-json --verbose"')

Schemes are explicit on purpose: a bare URL could be a Rasa server or a casegen JSON agent,
and guessing wrong fails in confusing ways, so it is refused with both spellings in the hint.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import UserError
from ..suggest import did_you_mean
from ._command import DEFAULT_COMMAND_TIMEOUT_S, CommandTarget
from ._errors import AgentError, AgentProtocolError, AgentTimeout, AgentUnavailable
from ._http import HttpTarget
from ._httpio import DEFAULT_TIMEOUT_S
from ._protocol import AgentTarget
from ._python import PythonTarget
from ._rasa import RasaTarget

if TYPE_CHECKING:
    from ..definitions import Project

#: `mantle:DIR`: the reference agent, playing the definitions of the project folder DIR.
REFERENCE_SCHEME = "mantle"
SCHEMES = ("rasa", "http", "python", "demo", "command", REFERENCE_SCHEME)
DEFAULT_RASA_URL = "http://localhost:5005"

_EXAMPLES = (
    "targets: rasa:http://localhost:5005, http:http://localhost:8080/agent, "
    'python:module:function, demo:<name>, command:"<cmd with {prompt}>", mantle:<project dir>'
)


def _url(value: str, *, scheme: str) -> str:
    value = value.strip()
    if not value:
        raise UserError(f"`{scheme}:` needs a URL", hint=_EXAMPLES)
    if "://" not in value:
        value = "http://" + value
    if not value.startswith(("http://", "https://")):
        raise UserError(f"`{scheme}:` takes an http(s) URL, not {value!r}", hint=_EXAMPLES)
    return value.rstrip("/")


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _python(spec: str, rest: str) -> PythonTarget:
    module, sep, attribute = rest.rpartition(":")
    if not sep or not module or not attribute:
        raise UserError(
            f"`{spec}`: name the callable as python:module:function",
            hint="e.g. python:my_agent:handle or python:agents/clinic.py:Agent",
        )
    return PythonTarget(spec, module, attribute)


def _demo(rest: str) -> AgentTarget:
    """`demo:NAME` or `demo:NAME?flag&flag=value`: a built-in demo agent, optionally with its
    documented mutations switched on (`demo:bank?skip_confirmation`,
    `demo:bank?fail_tool=place_replacement_order`)."""
    name, _, query = rest.strip().partition("?")
    if not name:
        raise UserError("`demo:` needs a demo agent name", hint="e.g. demo:clinic")
    try:
        demo = importlib.import_module("evalcore.agents.demo")
    except ImportError as exc:
        raise UserError(f"demo agents are not available: {exc}") from None
    factory = getattr(demo, "make_demo_target", None)
    if factory is None:
        raise UserError("demo agents are not available in this build of casegen")
    flags: dict[str, object] = {}
    for item in filter(None, query.split("&")):
        key, has_value, value = item.partition("=")
        flags[key] = value if has_value and value.lower() not in ("true", "1") else True
    return factory(name, **flags)


def _command(spec: str, rest: str, timeout_s: float | None) -> CommandTarget:
    template = _unquote(rest)
    if not template:
        raise UserError("`command:` needs a command line", hint='e.g. command:"claude -p {prompt}"')
    return CommandTarget(spec, template, timeout_s=timeout_s or DEFAULT_COMMAND_TIMEOUT_S)


def parse_target(
    spec: str, *, project: Project | None = None, timeout_s: float | None = None
) -> AgentTarget:
    """The target a spec names.

    Args:
        project: the project definitions, when known; `rasa:` needs them to tell seed slots
            (session-start metadata) from the others.
        timeout_s: per-request limit for `rasa:`/`http:` (default 60 s), whole-run limit for
            `command:` (default 15 min).

    Raises:
        UserError: an unknown scheme (with a did-you-mean), a malformed value, an unknown
            python module or function.
    """
    spec = spec.strip()
    scheme, sep, rest = spec.partition(":")
    scheme = scheme.lower()
    if scheme in {"https"} or (scheme == "http" and rest.startswith("//")):
        raise UserError(
            f"`{spec}` is a bare URL: say which protocol it speaks",
            hint=f"rasa:{spec} for a Rasa server, http:{spec} for casegen's JSON protocol",
        )
    if not sep:
        raise UserError(f"`{spec}` is not a target spec (scheme:value)", hint=_EXAMPLES)
    if scheme == "rasa":
        return RasaTarget(
            spec,
            _url(rest, scheme="rasa") if rest.strip() else DEFAULT_RASA_URL,
            project=project,
            timeout_s=timeout_s or DEFAULT_TIMEOUT_S,
        )
    if scheme == "http":
        return HttpTarget(spec, _url(rest, scheme="http"), timeout_s=timeout_s or DEFAULT_TIMEOUT_S)
    if scheme == "python":
        return _python(spec, rest)
    if scheme == "demo":
        return _demo(rest)
    if scheme == "command":
        return _command(spec, rest, timeout_s)
    if scheme == REFERENCE_SCHEME:
        from .reference import parse_reference  # start-up: yaml and 143 casegen modules

        return parse_reference(rest)
    suggestion = did_you_mean(scheme, SCHEMES, what="target scheme")
    close = suggestion is not None and suggestion.startswith("did you mean")
    raise UserError(
        f"unknown target scheme '{scheme}' in `{spec}`",
        hint=f"{suggestion} ({_EXAMPLES})" if close else _EXAMPLES,
    )


__all__ = [
    "SCHEMES",
    "AgentError",
    "AgentProtocolError",
    "AgentTimeout",
    "AgentUnavailable",
    "parse_target",
]
