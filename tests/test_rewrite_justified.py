"""A justified case stays justified when casegen rewrites it.

`generate` writes each check's justification as a comment above it. `repair`, `revise` and
the interactive review rewrite a case: they write it justified again (the comments follow
the changed checks), and the justification comments are no reason to hold a repair back;
a reviewer's own comment still is.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from stub_openai import StubOpenAI, ok, stub_fixture
from test_review_support import as_edits, fake_model

from agentflows.review.interactive import ReviewContext, open_review
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.justify import has_justifications, without_justifications
from evalcore.manifest import Manifest, ManifestEntry, save_manifest
from evalcore.yamlio import load_yaml

BANK = EXAMPLES / "bank"
JUSTIFIED = (
    EXAMPLES.parent / "generated_cases/mantle/card_replace/card_replace_damaged_happy_path.yml"
)
ROUTED = "      # enforced: skills/card_replace/skill.md:3 routing by the skill's description\n"
MANTLE = get_dialect("mantle")
openai_stub = stub_fixture()


@pytest.fixture(scope="module")
def bank() -> Any:
    return load_project(BANK)


def _revised() -> dict[str, Any]:
    data = load_yaml(JUSTIFIED.read_text("utf-8"))
    data["scenario"]["name"] = "Card replacement: a damaged card, shipped standard"
    return data


def test_the_justified_golden_is_what_the_dialect_writes(bank: Any) -> None:
    text = JUSTIFIED.read_text("utf-8")
    assert ROUTED in text and has_justifications(text)
    assert MANTLE.dump_justified(load_yaml(text), bank) == text
    assert not has_justifications(without_justifications(text))


def test_repair_writes_a_justified_case_justified_without_force(tmp_path: Path, run_cli) -> None:
    text = JUSTIFIED.read_text("utf-8")
    case = tmp_path / "case.yml"
    case.write_text(text.replace("skill_id: card_replace\n", "skill_id: card_replac\n", 1))
    code, out, _ = run_cli("repair", case, "--project", BANK, "--json")
    [record] = json.loads(out)["files"]
    assert code == 0 and record["written"] is True and record["skipped"] is None
    assert record["repairs"]
    assert case.read_text("utf-8") == text  # repaired, and every comment back in place


def test_repair_still_keeps_a_reviewers_comment(tmp_path: Path, run_cli) -> None:
    text = JUSTIFIED.read_text("utf-8")
    case = tmp_path / "case.yml"
    broken = text.replace("skill_id: card_replace\n", "skill_id: card_replac\n", 1)
    case.write_text("# Reviewed by Ana\n" + broken)
    code, out, _ = run_cli("repair", case, "--project", BANK, "--json")
    [record] = json.loads(out)["files"]
    assert record["written"] is False and "--force" in record["skipped"]
    assert case.read_text("utf-8").startswith("# Reviewed by Ana")
    code, out, _ = run_cli("repair", case, "--project", BANK, "--force", "--json")
    assert code == 0 and json.loads(out)["files"][0]["written"] is True
    assert case.read_text("utf-8") == text  # justified again; only the reviewer's line went


@pytest.fixture
def stub_model(openai_stub: StubOpenAI, monkeypatch: pytest.MonkeyPatch) -> StubOpenAI:
    monkeypatch.setenv("CASEGEN_MODEL", "stub-model")
    monkeypatch.setenv("OPENAI_BASE_URL", openai_stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "stub-key")
    return openai_stub


def test_revise_writes_the_revision_justified(
    tmp_path: Path, stub_model: StubOpenAI, bank: Any, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    case = tmp_path / "case.yml"
    shutil.copy(JUSTIFIED, case)
    stub_model.script(ok(as_edits(_revised())))
    code, out, _ = run_cli(
        "revise", case, "--comment", "name the shipping", "--project", BANK, "--yes", "--json"
    )
    assert code == 0 and json.loads(out)["written"] is True
    assert case.read_text("utf-8") == MANTLE.dump_justified(_revised(), bank)
    assert ROUTED in case.read_text("utf-8")


async def test_review_regenerate_and_accept_write_it_justified(tmp_path: Path, bank: Any) -> None:
    folder = tmp_path / "generated_cases" / "mantle" / "card_replace"
    folder.mkdir(parents=True)
    case = folder / JUSTIFIED.name
    shutil.copy(JUSTIFIED, case)
    manifest = Manifest()
    manifest.cases[f"mantle/card_replace/{JUSTIFIED.name}"] = ManifestEntry(
        dialect="mantle",
        source="card_replace",
        behavior="damaged",
        type="happy_path",
        engine="offline",
        generated_at="2026-01-01T00:00:00Z",
        run_id="gen-1",
        project=str(BANK),
        content_sha256="0" * 64,
    )
    save_manifest(tmp_path / "generated_cases" / "manifest.json", manifest)
    model = fake_model({"comments": []}, as_edits(_revised()))
    context = ReviewContext(
        reviews_dir=tmp_path / "reviews", clock=lambda: "2026-05-01T10:00:00Z", model=model
    )
    async with open_review(tmp_path / "ck.sqlite", context) as review:
        await review.start([str(case)], project=str(BANK))
        question = await review.decide({"action": "regenerate", "comment": "name the shipping"})
        assert question["changed"] and ROUTED in question["text"]
        assert await review.decide({"action": "accept"}) is None
    assert case.read_text("utf-8") == MANTLE.dump_justified(_revised(), bank)
