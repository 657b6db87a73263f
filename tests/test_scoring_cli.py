"""`casegen score` and the corpus benchmark's helpers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_scoring import ACTIVATED, BANK, DENIED, ORDERED, scenario, tiny_project, write_suite

from agentflows.scoring import FIGURES
from benchmarks.corpus import (
    SECTION_END,
    SECTION_START,
    corpus_projects,
    markdown_table,
    score_corpus,
    write_markdown,
)


def good_suite(folder: Path) -> Path:
    context = (
        "You are Ana, whose debit card was lost on a train. Ask for a new card, choose "
        "standard shipping and confirm the order, then stop."
    )
    refusal = (
        "You are Omar, who wants a replacement for a stolen card but changes his mind when "
        "the agent reads the order back: decline it, then stop."
    )
    return write_suite(
        folder,
        {
            "happy": scenario("happy", "happy_path", [ACTIVATED, ORDERED], context=context),
            "refused": scenario("refused", "edge_case", [ACTIVATED, DENIED], context=refusal),
        },
    )


def test_score_json_is_one_object(tmp_path: Path, run_cli_json) -> None:
    suite = good_suite(tmp_path / "suite")
    code, payload = run_cli_json("score", suite, "--project", BANK)
    assert code == 0
    assert set(payload["figures"]) == {f.key for f in FIGURES}
    assert payload["files"] == 2
    assert payload["cases_by_type"] == {"edge_case": 1, "happy_path": 1}
    assert payload["misses"] == []


def test_check_exits_one_when_a_figure_misses(tmp_path: Path, run_cli) -> None:
    suite = write_suite(tmp_path / "s", {"a": scenario("a", "happy_path", [ACTIVATED])})
    code, out, _ = run_cli("score", suite, "--project", BANK)
    assert code == 0
    assert "happy paths asserting their skill's success" in out
    code, _, _ = run_cli("score", suite, "--project", BANK, "--check")
    assert code == 1
    code, _, _ = run_cli("score", good_suite(tmp_path / "good"), "--project", BANK, "--check")
    assert code == 0


def test_score_finds_the_enclosing_project(run_cli_json) -> None:
    code, payload = run_cli_json("score", BANK / "eval" / "scenarios")
    assert code == 0
    assert payload["name"] == "bank" and payload["files"] == 5


def test_score_needs_a_mantle_project(tmp_path: Path, run_cli) -> None:
    suite = good_suite(tmp_path / "suite")
    code, _, err = run_cli("score", suite)
    assert code == 2 and "--project" in err


def test_corpus_projects_lists_mantle_folders(tmp_path: Path) -> None:
    tiny_project(tmp_path / "b_claims")
    tiny_project(tmp_path / "a_other")
    (tmp_path / "notes").mkdir()
    assert [p.name for p in corpus_projects(tmp_path)] == ["a_other", "b_claims"]
    assert [p.name for p in corpus_projects(tmp_path, ["b_claims"])] == ["b_claims"]
    with pytest.raises(ValueError, match="no Mantle project missing"):
        corpus_projects(tmp_path, ["missing"])


def test_score_corpus_generates_and_scores_each_project(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(BANK, corpus / "bank_copy", ignore=shutil.ignore_patterns("eval"))
    before = sorted(p.relative_to(corpus) for p in corpus.rglob("*"))
    scores = score_corpus(corpus)
    assert [s.name for s in scores] == ["bank_copy"]
    score = scores[0]
    assert score.files > 10 and score.types.get("happy_path", 0) >= 1
    assert score.figures["refusal"].counted == 2  # card_replace's two gated order tools
    assert sorted(p.relative_to(corpus) for p in corpus.rglob("*")) == before
    table = markdown_table(scores)
    assert "`bank_copy`" in table and "| mean | goal |" in table


def test_markdown_section_is_replaced_in_place(tmp_path: Path) -> None:
    suite = good_suite(tmp_path / "suite")
    from agentflows.scoring import score_suite_sync

    scores = [score_suite_sync([suite], BANK)]
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nintro\n", "utf-8")
    write_markdown(doc, scores)
    write_markdown(doc, scores)
    text = doc.read_text("utf-8")
    assert text.startswith("# Benchmarks\n\nintro\n")
    assert text.count(SECTION_START) == 1 and text.count(SECTION_END) == 1
    assert "| happy paths asserting their skill's success | 100% | **100%** | 100% |" in text


def test_reference_project_is_shown_beside_the_mean(tmp_path: Path) -> None:
    from agentflows.scoring import score_suite_sync

    good = score_suite_sync([good_suite(tmp_path / "good")], BANK)
    weak_suite = write_suite(tmp_path / "weak", {"a": scenario("a", "happy_path", [ACTIVATED])})
    weak = score_suite_sync([weak_suite], BANK)
    good.name, weak.name = "good", "weak"
    table = markdown_table([good], reference=weak)
    assert "| figure | `good` | mean | `weak` | goal |" in table
    assert "| happy paths asserting their skill's success | 100% | **100%** | 0% | 100% |" in table


def test_missing_suite_path_is_a_usage_error(tmp_path: Path, run_cli) -> None:
    code, _, err = run_cli("score", tmp_path / "nowhere", "--project", BANK)
    assert code == 2 and "no such file or folder" in err
