"""The interactive review through its graph API (no terminal): accept, reject, edit,
regenerate, stop and resume; plus the CLI loop with scripted answers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_review_support import BANK, SCENARIOS, bank_case, fake_model

from agentflows.review.interactive import (
    DEFAULT_CHECKPOINTS,
    ReviewContext,
    build_graph,
    open_review,
)
from evalcore.errors import UserError
from evalcore.manifest import Manifest, ManifestEntry, load_manifest, save_manifest

STEMS = [
    "card_replace_damaged",
    "card_replace_refused_confirmation",
    "card_replace_stolen",
    "check_balance_savings_happy",
]


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    """Four bank scenarios in a generated-cases folder with a manifest listing them."""
    folder = tmp_path / "generated_cases" / "mantle" / "card_replace"
    folder.mkdir(parents=True)
    manifest = Manifest()
    for stem in STEMS:
        shutil.copy(SCENARIOS / f"{stem}.yml", folder / f"{stem}.yml")
        manifest.cases[f"mantle/card_replace/{stem}.yml"] = ManifestEntry(
            dialect="mantle",
            source="card_replace",
            behavior=stem,
            type="edge_case",
            engine="offline",
            generated_at="2026-01-01T00:00:00Z",
            run_id="gen-1",
            project=str(BANK),
            content_sha256="0" * 64,
        )
    save_manifest(tmp_path / "generated_cases" / "manifest.json", manifest)
    return folder


class Editor:
    """A scripted editor: each call returns the next text (or a function of the text)."""

    def __init__(self, *edits: Any) -> None:
        self.edits = list(edits)
        self.seen: list[tuple[str, str]] = []

    def __call__(self, text: str, suffix: str) -> str | None:
        self.seen.append((text, suffix))
        edit = self.edits.pop(0)
        return edit(text) if callable(edit) else edit


def context(tmp_path: Path, **options: Any) -> ReviewContext:
    return ReviewContext(
        reviews_dir=tmp_path / "reviews", clock=lambda: "2026-05-01T10:00:00Z", **options
    )


def record(tmp_path: Path, review_id: str) -> dict[str, Any]:
    return json.loads((tmp_path / "reviews" / f"{review_id}.json").read_text("utf-8"))


def verdicts(tmp_path: Path) -> dict[str, str | None]:
    manifest = load_manifest(tmp_path / "generated_cases" / "manifest.json")
    return {Path(k).stem: e.review for k, e in manifest.cases.items()}


def test_graph_shape() -> None:
    graph = build_graph().compile()
    assert set(graph.get_graph().nodes) >= {
        "load",
        "present",
        "accept",
        "reject",
        "edit",
        "regenerate",
        "finish",
    }


async def test_accept_and_reject(tmp_path: Path, cases: Path) -> None:
    checkpoints = tmp_path / "ck.sqlite"
    async with open_review(checkpoints, context(tmp_path), review_id="rev-1") as review:
        question = await review.start([str(cases)], project=str(BANK))
        assert question is not None
        assert (question["index"], question["total"]) == (0, 4)
        assert question["path"].endswith("card_replace_damaged.yml")
        assert question["text"] == (SCENARIOS / "card_replace_damaged.yml").read_text()
        assert question["can_accept"] and not question["can_regenerate"]
        before = (cases / "card_replace_damaged.yml").read_bytes()
        question = await review.decide({"action": "accept"})
        assert question["index"] == 1
        question = await review.decide({"action": "reject", "reason": "duplicates stolen"})
        assert question["index"] == 2
        question = await review.decide({"action": "accept"})
        question = await review.decide({"action": "reject"})
        assert question is None
        state = await review.state()
    # an unchanged accepted case keeps its bytes; a rejected one is removed
    assert (cases / "card_replace_damaged.yml").read_bytes() == before
    assert not (cases / "card_replace_refused_confirmation.yml").exists()
    assert not (cases / "check_balance_savings_happy.yml").exists()
    assert [i["status"] for i in state["items"]] == ["accepted", "rejected", "accepted", "rejected"]
    saved = record(tmp_path, "rev-1")
    assert saved["status"] == "complete"
    assert [(Path(d["path"]).stem, d["action"], d["reason"]) for d in saved["decisions"]] == [
        ("card_replace_damaged", "accepted", None),
        ("card_replace_refused_confirmation", "rejected", "duplicates stolen"),
        ("card_replace_stolen", "accepted", None),
        ("check_balance_savings_happy", "rejected", None),
    ]
    assert all(d["time"] == "2026-05-01T10:00:00Z" for d in saved["decisions"])
    assert verdicts(tmp_path) == {
        "card_replace_damaged": "accepted",
        "card_replace_refused_confirmation": "rejected",
        "card_replace_stolen": "accepted",
        "check_balance_savings_happy": "rejected",
    }


async def test_edit_is_revalidated_and_written_only_on_accept(tmp_path: Path, cases: Path) -> None:
    file = cases / "card_replace_damaged.yml"
    original = file.read_text("utf-8")
    invalid = original.replace("tool_name: order_replacement", "tool_name: order_replacment_x")
    renamed = original.replace(
        "Customer replaces a damaged card", "Customer replaces a cracked card"
    )
    editor = Editor(invalid, renamed)
    ctx = context(tmp_path, editor=editor)
    async with open_review(tmp_path / "ck.sqlite", ctx, review_id="rev-edit") as review:
        await review.start([str(file)], project=str(BANK))
        question = await review.decide({"action": "edit"})
        assert editor.seen == [(original, ".yml")]
        assert question["changed"] and not question["can_accept"]
        assert any(f["code"] == "unknown-tool" for f in question["findings"])
        assert "error" in question["note"]
        assert file.read_text("utf-8") == original  # nothing written while editing
        question = await review.decide({"action": "accept"})  # refused: the case has errors
        assert question["index"] == 0 and "cannot accept" in question["note"]
        question = await review.decide({"action": "edit"})  # the editor gets the invalid text
        assert editor.seen[1][0] == invalid
        assert question["can_accept"] and question["note"] == "edited: valid"
        assert file.read_text("utf-8") == original
        assert await review.decide({"action": "accept"}) is None
    written = yaml.safe_load(file.read_text("utf-8"))
    assert written["scenario"]["name"] == "Customer replaces a cracked card"
    assert record(tmp_path, "rev-edit")["decisions"][0]["changed"] is True


async def test_edit_without_saving_changes_nothing(tmp_path: Path, cases: Path) -> None:
    ctx = context(tmp_path, editor=Editor(None))
    async with open_review(tmp_path / "ck.sqlite", ctx) as review:
        await review.start([str(cases / "card_replace_stolen.yml")], project=str(BANK))
        question = await review.decide({"action": "edit"})
        assert question["note"] == "no change made" and not question["changed"]


async def test_regenerate_with_the_model(tmp_path: Path, cases: Path) -> None:
    file = cases / "card_replace_damaged.yml"
    revised = bank_case("card_replace_damaged")
    revised["scenario"]["type"] = "happy_path"
    criterion = "The agent does not mention a fraud review"
    revised["scenario"]["goals"]["criteria"].append(criterion)
    critique = {"comments": [{"path": "/scenario", "message": "No type set."}]}
    edits = [
        {"op": "set", "path": "/scenario/type", "value": "happy_path"},
        {"op": "add", "path": "/scenario/goals/criteria", "value": criterion},
    ]
    model = fake_model(critique, {"edits": edits})
    async with open_review(tmp_path / "ck.sqlite", context(tmp_path, model=model)) as review:
        question = await review.start([str(file)], project=str(BANK))
        assert question["can_regenerate"]
        assert "critique" in [c["code"] for c in question["comments"]]
        question = await review.decide(
            {"action": "regenerate", "comment": "say it is a happy path; no fraud talk"}
        )
        assert question["changed"] and question["can_accept"]
        assert question["note"].startswith("regenerated from: say it is a happy path")
        assert "type: happy_path" in question["text"]
        assert "say it is a happy path; no fraud talk" in model.chat_model.prompts[1]
        assert file.read_text("utf-8") == (SCENARIOS / "card_replace_damaged.yml").read_text()
        assert await review.decide({"action": "accept"}) is None
    assert yaml.safe_load(file.read_text("utf-8")) == revised


async def test_regenerate_without_a_model_is_reoffered(tmp_path: Path, cases: Path) -> None:
    async with open_review(tmp_path / "ck.sqlite", context(tmp_path)) as review:
        await review.start([str(cases / "card_replace_stolen.yml")], project=str(BANK))
        question = await review.decide({"action": "regenerate", "comment": "shorter"})
        assert question["index"] == 0
        assert question["note"] == "regenerate needs a model: set CASEGEN_MODEL or pass --model"
        question = await review.decide({"action": "frobnicate"})
        assert "unknown action" in question["note"]
        assert await review.decide({"action": "accept"}) is None


async def test_stop_and_resume_in_a_new_graph(tmp_path: Path, cases: Path) -> None:
    checkpoints = tmp_path / "ck.sqlite"
    async with open_review(checkpoints, context(tmp_path), review_id="rev-stop") as review:
        await review.start([str(cases)], project=str(BANK))
        await review.decide({"action": "accept"})
        question = await review.decide({"action": "reject", "reason": "not needed"})
        assert question["index"] == 2  # stop here, with the third case on screen
    assert record(tmp_path, "rev-stop")["status"] == "in_progress"

    # a new graph object on the same sqlite file, as a new process would build it
    async with open_review(
        checkpoints, context(tmp_path), review_id="rev-stop", resume=True
    ) as again:
        question = await again.pending()
        assert question["index"] == 2
        assert question["path"].endswith("card_replace_stolen.yml")
        state = await again.state()
        assert [d["action"] for d in state["decisions"]] == ["accepted", "rejected"]
        await again.decide({"action": "accept"})
        assert await again.decide({"action": "accept"}) is None
    saved = record(tmp_path, "rev-stop")
    assert saved["status"] == "complete"
    assert [d["action"] for d in saved["decisions"]] == [
        "accepted",
        "rejected",
        "accepted",
        "accepted",
    ]


async def test_resuming_an_unknown_review(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no review 'rev-missing'"):
        async with open_review(
            tmp_path / "ck.sqlite", context(tmp_path), review_id="rev-missing", resume=True
        ):
            pass


async def test_nothing_to_review(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    async with open_review(tmp_path / "ck.sqlite", context(tmp_path)) as review:
        assert await review.start([str(tmp_path / "empty")]) is None
        assert (await review.state())["done"] is True


# --- the CLI loop ---------------------------------------------------------------------------


def test_cli_loop_stops_and_resumes(
    tmp_path: Path, cases: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CASEGEN_MODEL", raising=False)
    answers = iter(["a", "g", "r", "no longer needed", "q"])
    monkeypatch.setattr("agentflows.cli._review.Prompt.ask", lambda *a, **k: next(answers))
    code, out, _ = run_cli("review", "--interactive", str(cases), "--project", str(BANK))
    assert code == 0
    assert "regenerate needs a model" in out
    review_id = out.split("--resume ")[-1].strip()
    assert review_id.startswith("rev-")
    assert (tmp_path / DEFAULT_CHECKPOINTS).is_file()
    assert not (cases / "card_replace_refused_confirmation.yml").exists()

    answers = iter(["a", "a"])
    monkeypatch.setattr("agentflows.cli._review.Prompt.ask", lambda *a, **k: next(answers))
    code, out, _ = run_cli("review", "--interactive", "--resume", review_id)
    assert code == 0
    assert "3/4" in out and f"review {review_id} done: 3 accepted, 1 rejected" in out


def test_cli_interactive_refuses_json(run_cli) -> None:
    code, out, _ = run_cli("review", "--interactive", "--json", str(SCENARIOS))
    assert code == 2 and "--json cannot be combined" in json.loads(out)["error"]


def test_in_a_terminal_one_key_decides_without_enter(
    tmp_path: Path, cases: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a terminal the decision is one key press: keys that mean nothing are ignored, no
    line is read (`Prompt.ask` is only for the reject reason)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CASEGEN_MODEL", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    keys = iter(["x", "\r", "A", "q"])
    monkeypatch.setattr("typer.getchar", lambda *a, **k: next(keys))

    def no_line(*args: object, **kwargs: object) -> str:
        raise AssertionError("a line was read for a one-key decision")

    monkeypatch.setattr("agentflows.cli._review.Prompt.ask", no_line)
    code, out, _ = run_cli("review", "--interactive", str(cases), "--project", str(BANK))
    assert code == 0 and "--resume rev-" in out
    assert next(keys, None) is None  # every key was read, "q" last
