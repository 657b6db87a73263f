"""A model's drafts are settled as their answers arrive: while the last answer is awaited,
every other case is already validated, reviewed, verified and its file text made, so what
follows the last answer is that one case and the steps that look at every case (dedupe,
write, report). The engine here is the offline drafter holding one behaviour's answer
back, as a slow model would; each case is one task, as with a model. And a model's case
is planned once (its plan's document is kept for the engine label)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_generate_flow import llm_engine, words

from agentflows.drafting import DraftContext, DraftResult
from agentflows.drafting.llm import _mantle
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from evalcore.dialects.mantle import MantleDialect

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "examples" / "bank"


class HeldAnswer(OfflineEngine):
    """Offline drafting that answers `hold` only once `release` is set, and counts."""

    def __init__(self, hold: str | None = None) -> None:
        self.hold = hold
        self.release = asyncio.Event()
        self.asked: list[str] = []

    async def draft(self, ctx: DraftContext) -> DraftResult:
        self.asked.append(ctx.behavior.id)
        if ctx.behavior.id == self.hold:
            await self.release.wait()
        return await super().draft(ctx)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("CASEGEN_MODEL", "CASEGEN_JUDGE_MODEL", "CASEGEN_SIMULATOR_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_other_cases_are_verified_and_rendered_before_the_last_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    request = build_request(["card_replace"], project=BANK, out="out", concurrency=64)
    probe = HeldAnswer()
    asyncio.run(run_generation(request, engine=probe, checkpoints=Path("probe.sqlite")))
    held = probe.asked[-1]
    others = set(probe.asked) - {held}
    assert others

    engine = HeldAnswer(hold=held)
    settled: dict[str, dict[str, Any]] = {}  # each case's draft update, before the release
    rendered_after: list[str] = []  # the cases whose file text was made after the release
    real_dump = MantleDialect.dump_justified

    def counting_dump(self: MantleDialect, data: Any, project: Any) -> str:
        if engine.release.is_set():
            rendered_after.append(data["scenario"]["name"])
        return real_dump(self, data, project)

    monkeypatch.setattr(MantleDialect, "dump_justified", counting_dump)

    def on_update(node: str, values: dict[str, Any]) -> None:
        if node == "draft" and not engine.release.is_set():
            settled.update(values.get("cases") or {})
            if others <= set(settled):
                engine.release.set()  # the last answer arrives only now

    async def run() -> dict[str, Any]:
        return await asyncio.wait_for(
            run_generation(request, engine=engine, on_update=on_update), timeout=120
        )

    report = asyncio.run(run())
    written = {c["behavior"]: c for c in report["cases"]}
    assert others & set(written), "some case besides the held one is written"
    for behavior_id in others & set(written):
        work = settled[behavior_id]
        assert work["status"] == "valid"
        assert work["verification"] == written[behavior_id]["verification"]
    # After the last answer only the held case's text is made; the others' were kept.
    held_title = next((c["title"] for c in report["cases"] if c["behavior"] == held), None)
    assert set(rendered_after) <= {held_title}


def test_a_model_draft_plans_its_case_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan's document the model's words were merged into is the one the report's
    engine label compares against: the case is not planned a second time for it."""
    planned: list[str] = []
    real = _mantle.planned_case

    def counting(ctx: DraftContext) -> Any:
        planned.append(ctx.behavior.id)
        return real(ctx)

    monkeypatch.setattr(_mantle, "planned_case", counting)
    engine, chat = llm_engine(words)
    request = build_request(["card_replace"], project=BANK, out="out", verify=False)
    report = asyncio.run(run_generation(request, engine=engine))
    assert report["cases"] and {c["engine"] for c in report["cases"]} == {"llm:fake"}
    assert len(planned) == len(set(planned))  # one plan per case
    assert set(planned) == set(chat.calls) | _planned_twins(report)


def test_a_model_draft_walks_its_case_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The planned document and the script the prompt is made from come from one walk of
    the behaviour (the walk cost as much as the document)."""
    from agentflows.drafting.offline import _mantle as offline_mantle
    from agentflows.drafting.offline import _mantle_script

    walked: list[str] = []
    real = _mantle_script.build_script

    def counting(project: Any, behavior: Any, **options: Any) -> Any:
        walked.append(behavior.id)
        return real(project, behavior, **options)

    monkeypatch.setattr(_mantle_script, "build_script", counting)
    monkeypatch.setattr(offline_mantle, "build_script", counting)
    engine, chat = llm_engine(words)
    request = build_request(["card_replace"], project=BANK, out="out", verify=False)
    report = asyncio.run(run_generation(request, engine=engine))
    assert report["cases"] and chat.calls
    assert len(walked) == len(set(walked))  # one walk per case
    assert set(walked) == set(chat.calls) | _planned_twins(report)


def _planned_twins(report: dict[str, Any]) -> set[str]:
    """The cases planned but not drafted: their planned case asserts what an earlier one's
    does (a duplicate found before its model call)."""
    return {d["behavior"] for d in report["duplicates"] if d["duplicate_of"].startswith("draft:")}
