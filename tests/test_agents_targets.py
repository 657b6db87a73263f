"""`parse_target`: every scheme, and the errors a person can fix."""

from __future__ import annotations

import sys
import types

import pytest

from evalcore.agents import parse_target
from evalcore.agents._command import DEFAULT_COMMAND_TIMEOUT_S, CommandTarget
from evalcore.agents._http import HttpTarget
from evalcore.agents._python import PythonTarget
from evalcore.agents._rasa import RasaTarget
from evalcore.errors import UserError


@pytest.mark.parametrize(
    ("spec", "cls", "attrs"),
    [
        ("rasa:http://localhost:5005/", RasaTarget, {"url": "http://localhost:5005"}),
        ("rasa:localhost:5006", RasaTarget, {"url": "http://localhost:5006"}),
        ("rasa:", RasaTarget, {"url": "http://localhost:5005", "timeout_s": 60.0}),
        ("RASA:https://bot.example.com", RasaTarget, {"url": "https://bot.example.com"}),
        ("http:http://127.0.0.1:8080/agent", HttpTarget, {"url": "http://127.0.0.1:8080/agent"}),
        ("python:scripted_agent:handle", PythonTarget, {"per_session": False}),
        ("python:scripted_agent:Agent", PythonTarget, {"per_session": True}),
        (
            'command:"claude -p {prompt}"',
            CommandTarget,
            {"template": "claude -p {prompt}", "timeout_s": DEFAULT_COMMAND_TIMEOUT_S},
        ),
        ("command:codex exec {prompt}", CommandTarget, {"template": "codex exec {prompt}"}),
    ],
)
def test_specs(spec: str, cls: type, attrs: dict) -> None:
    target = parse_target(spec)
    assert isinstance(target, cls) and target.spec == spec
    for name, value in attrs.items():
        assert getattr(target, name) == value


def test_timeout_and_project_are_passed_on() -> None:
    project = object()
    rasa = parse_target("rasa:", project=project, timeout_s=5)
    assert rasa.project is project and rasa.timeout_s == 5
    assert parse_target('command:"x {prompt}"', timeout_s=30).timeout_s == 30
    assert parse_target("http:localhost:1/a", timeout_s=2).timeout_s == 2


@pytest.mark.parametrize(
    ("spec", "message", "hint"),
    [
        ("rsa:http://localhost:5005", "unknown target scheme 'rsa'", "did you mean 'rasa'?"),
        ("htp:x", "unknown target scheme 'htp'", "did you mean 'http'?"),
        ("bogus:x", "unknown target scheme 'bogus'", "targets: rasa:"),
        ("http://localhost:5005", "is a bare URL", "rasa:http://localhost:5005 for a Rasa server"),
        ("https://bot.example.com", "is a bare URL", "http:https://bot.example.com"),
        ("clinic", "not a target spec", "demo:<name>"),
        ("http:", "needs a URL", None),
        ("http:ftp://x", r"takes an http\(s\) URL", None),
        ("demo:", "needs a demo agent name", None),
    ],
)
def test_spec_errors(spec: str, message: str, hint: str | None) -> None:
    with pytest.raises(UserError, match=message) as info:
        parse_target(spec)
    if hint:
        assert hint in (info.value.hint or "")


def test_demo_delegates_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    fake = types.ModuleType("evalcore.agents.demo")
    fake.make_demo_target = lambda name: made.append(name) or f"target for {name}"
    monkeypatch.setitem(sys.modules, "evalcore.agents.demo", fake)
    assert parse_target("demo:clinic") == "target for clinic"
    assert made == ["clinic"]


def test_demo_without_factory_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        sys.modules, "evalcore.agents.demo", types.ModuleType("evalcore.agents.demo")
    )
    with pytest.raises(UserError, match="demo agents are not available"):
        parse_target("demo:clinic")
