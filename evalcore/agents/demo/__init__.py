"""Demo agents: deterministic, in-process targets that make casegen runnable with no service.

    target = make_demo_target("bank")                          # the `demo:bank` target
    broken = make_demo_target("bank", skip_confirmation=True)  # a mutation, for tests
    session = await target.open(run_case, 1)

Each demo plays one example project the way its real runtime would, without a model, so the
same case gives the same events every time. Keyword flags are the demo's documented
mutations: switches that make it wrong on purpose, so a test can show that a case catches
the fault.

A demo's agent lives beside its example, so a reader of the example finds it there:
`examples/<folder>/demo_agent/` is a small package whose `__init__` offers the target class
(`demo:bank` is `examples/bank/demo_agent`, `demo:clinic` is `examples/clinic/demo_agent`).
`DEMOS` maps a demo name to its example folder and class; the package is imported (by file,
under the module name `casegen_demo_<name>`) only when asked for, so one demo's import problem
never breaks another. The examples sit next to the `evalcore` package in a checkout, which is
also where an editable install (`pip install -e .`) runs casegen from, so a demo is found from
any working directory; an installation without the examples gets a `UserError` that says so.
Add a demo with one line.

The Mantle engine the bank demo plays is the reference agent's (`evalcore.agents.reference`);
the demos share nothing else but this registry.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ...errors import UserError
from ...suggest import did_you_mean
from .._protocol import AgentTarget

#: The package in an example folder that holds the example's demo agent.
AGENT_FOLDER = "demo_agent"


@dataclass(frozen=True)
class Demo:
    """Where a demo agent lives: `examples/<example>/demo_agent`, offering `target`."""

    example: str
    target: str


DEMOS: dict[str, Demo] = {
    "bank": Demo("bank", "BankTarget"),
    "clinic": Demo("clinic", "ClinicTarget"),
}


def demo_names() -> list[str]:
    return sorted(DEMOS)


def examples_root() -> Path:
    """The `examples` folder of the checkout this `evalcore` package belongs to."""
    return Path(__file__).resolve().parents[3] / "examples"


def demo_project(name: str) -> Path:
    """The example folder the demo `name` plays (`examples/bank` for `bank`)."""
    return examples_root() / _demo(name).example


def demo_for(root: Path | str) -> str | None:
    """The demo written for the project folder `root`, if it is one of the examples."""
    where = Path(root).resolve()
    return next((n for n in demo_names() if demo_project(n).resolve() == where), None)


def demo_module(name: str) -> ModuleType:
    """The package of the demo `name` (its example's `demo_agent` folder), imported once.

    Raises:
        UserError: an unknown demo, or its example folder is not there (an installation
            without casegen's examples).
    """
    module_name = f"casegen_demo_{name}"
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        return loaded
    folder = demo_project(name) / AGENT_FOLDER
    init = folder / "__init__.py"
    if not init.is_file():
        raise UserError(
            f"demo:{name} is not available: its agent ({folder}) is missing",
            hint="the demo agents live beside casegen's examples; install casegen from its "
            "source checkout (`pip install -e .`) to use them",
        )
    spec = importlib.util.spec_from_file_location(
        module_name, init, submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise UserError(f"demo:{name}: {init} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for key in [k for k in sys.modules if k == module_name or k.startswith(module_name + ".")]:
            del sys.modules[key]
        raise
    return module


def make_demo_target(name: str, **flags: Any) -> AgentTarget:
    """The `demo:<name>` target, built with the demo's keyword flags (mutations, project)."""
    target_class = getattr(demo_module(name), _demo(name).target)
    try:
        return target_class(**flags)
    except TypeError as exc:  # an unknown flag
        known = _flag_names(target_class)
        unknown = next((f for f in flags if f not in known), None)
        if unknown is None or not known:
            raise UserError(f"demo:{name}: {exc}") from exc
        raise UserError(
            f"demo:{name} has no flag '{unknown}'",
            hint=did_you_mean(unknown, known, what="flag"),
        ) from exc


def rebuilt_target(name: str, keywords: dict[str, Any]) -> AgentTarget:
    """A demo target unpickled in another process (a Ray worker): rebuilt by its name and
    keywords, since its package is imported by file and cannot be found by module name."""
    return make_demo_target(name, **keywords)


def _demo(name: str) -> Demo:
    demo = DEMOS.get(name)
    if demo is None:
        raise UserError(
            f"unknown demo agent '{name}'",
            hint=did_you_mean(name, DEMOS, what="demo") or "demos: " + ", ".join(demo_names()),
        )
    return demo


def _flag_names(target_class: type) -> list[str]:
    """The mutation flags a demo documents (its `FLAGS` class, if it names one)."""
    flags = getattr(target_class, "flag_names", None)
    return list(flags()) if callable(flags) else []


__all__ = [
    "AGENT_FOLDER",
    "DEMOS",
    "Demo",
    "demo_for",
    "demo_module",
    "demo_names",
    "demo_project",
    "examples_root",
    "make_demo_target",
    "rebuilt_target",
]
