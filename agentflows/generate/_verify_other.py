"""Verification of a draft whose dialect has no reference agent, against what exists for it.

A draft for the project a demo agent is
written for (`demo:clinic` plays `examples/clinic`) is played against it in-process, like
a Mantle draft against the reference agent; a case it fails is dropped with the failing
check. Any other project gets a static check that every referenced id and check *can* be
satisfied, as the dialect tells (`Dialect.unsatisfiable`): the ids exist in the
definitions, every check type is known and well formed (a pattern compiles), and no two
checks contradict each other (a tool both called and not called, a text both included and
excluded, a file pattern both required and excluded).
The report says which was done (`method: demo | static`). No mutants exist here, so a
case is never `weak`.
"""

from __future__ import annotations

from typing import Any

from evalcore.agents.demo import demo_for, make_demo_target

from ._verify_play import play, run_case
from ._verify_types import Verdict, VerifyEnv


async def verify_other(data: dict[str, Any], env: VerifyEnv) -> Verdict:
    demo = demo_for(env.project.root)
    if demo is not None:
        return await _against_demo(data, env, demo)
    problems = env.dialect.unsatisfiable(data, env.project)
    if problems:
        return Verdict("dropped", "static", data, reason="; ".join(problems[:3]), method="static")
    return Verdict("yes", "static", data, method="static")


async def _against_demo(data: dict[str, Any], env: VerifyEnv, demo: str) -> Verdict:
    spec = f"demo:{demo}"
    target = make_demo_target(demo)
    for case in run_case(data, env.path, env.dialect.name):
        played = await play(case, target, env.project)
        if played.status == "errored":
            return Verdict(
                "skipped", spec, data, reason=f"{spec} errored: {played.error}", method="demo"
            )
        if played.status == "failed":
            first = played.failing[0]
            return Verdict(
                "dropped",
                spec,
                data,
                reason=f"{spec} fails it ({first['type']}: {first['detail']})",
                method="demo",
            )
    return Verdict("yes", spec, data, method="demo")


__all__ = ["verify_other"]
