"""`casegen report`: the batch summary, the per-case transcripts with each verdict at its
turn, the comparison of two batches, and escaping of what results hold.

The HTML is read with html.parser (tests/report_fixtures.py), not by string matching.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from report_fixtures import Node, parse_html, run_batch

from agentflows.report import compare, layout, load_batch, render_html, turn_refs

BROKEN = "demo:bank?skip_confirmation"


@pytest.fixture(scope="module")
def batches(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(good, broken): the same cases against the demo agent and a mutation of it."""
    root = tmp_path_factory.mktemp("results")
    return run_batch(root / "good", "demo:bank"), run_batch(root / "broken", BROKEN)


def _runs(folder: Path) -> dict[str, dict]:
    return {
        p.parent.name: json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("*/run_1.json"))
    }


def _stat(page: Node, key: str) -> str:
    return page.find("div", data_stat=key).find("dd").text


def test_summary_numbers_match_the_run_files(batches: tuple[Path, Path]) -> None:
    _, broken = batches
    runs = _runs(broken)
    page = parse_html(render_html(load_batch(broken)))
    failed = sum(r["status"] == "failed" for r in runs.values())
    assert failed >= 1
    assert _stat(page, "total") == str(len(runs))
    assert _stat(page, "passed") == str(sum(r["status"] == "passed" for r in runs.values()))
    assert _stat(page, "failed") == str(failed)
    assert _stat(page, "errored") == "0"
    assert _stat(page, "cases") == str(len(runs))
    assert "assertions only" in page.find("section", id="summary").text


def test_one_section_per_case_with_its_status(batches: tuple[Path, Path]) -> None:
    _, broken = batches
    runs = _runs(broken)
    page = parse_html(render_html(load_batch(broken)))
    articles = page.find_all("article", class_="case")
    assert sorted(a.attrs["data-slug"] for a in articles) == sorted(runs)
    assert len({a.attrs["id"] for a in articles}) == len(articles)
    for article in articles:
        assert article.attrs["data-status"] == runs[article.attrs["data-slug"]]["status"]
        # failing cases start open, passing ones folded
        details = article.find("details")
        assert ("open" in details.attrs) == (article.attrs["data-status"] != "passed")
    # the index links every case to its section
    links = {a.attrs["href"] for a in page.find("table", class_="index").find_all("a")}
    assert links == {"#" + a.attrs["id"] for a in articles}


def test_transcript_turns_hold_what_was_said(batches: tuple[Path, Path]) -> None:
    good, _ = batches
    slug, run = next(iter(_runs(good).items()))
    page = parse_html(render_html(load_batch(good)))
    article = next(a for a in page.find_all("article") if a.attrs["data-slug"] == slug)
    for utterance in run["transcript"]:
        turn = article.find("li", class_="turn", data_turn=str(utterance["turn"]))
        said = [m.text for m in turn.find_all("p", class_=utterance["role"])]
        assert any(utterance["text"] in text for text in said), utterance


def test_assertion_verdicts_sit_at_the_turn_their_detail_names(batches: tuple[Path, Path]) -> None:
    _, broken = batches
    page = parse_html(render_html(load_batch(broken)))
    placed = unplaced = 0
    for slug, run in _runs(broken).items():
        article = next(a for a in page.find_all("article") if a.attrs["data-slug"] == slug)
        for item in run["assertions"]:
            verdict = next(
                v
                for v in article.find_all("li", class_="verdict", data_kind="assertion")
                if v.attrs["data-index"] == str(item["index"])
            )
            assert verdict.attrs["data-outcome"] == ("pass" if item["passed"] else "fail")
            named = [int(n) for n in re.findall(r"\bturn (\d+)", item["detail"])]
            turn = verdict.ancestor("li", "turn")
            if named:
                assert turn is not None and turn.attrs["data-turn"] == str(max(named)), item
                placed += 1
            else:
                box = verdict.ancestor("div", "unplaced")
                assert turn is None and box is not None, item
                # a failure at no turn (it never happened) has its own box, the first thing
                # in the run: see below
                assert ("failing" in box.attrs["class"].split()) == (not item["passed"]), item
                unplaced += 1
    assert placed and unplaced
    for run_html in render_html(load_batch(broken)).split('<section class="run"')[1:]:
        if 'class="unplaced failing"' in run_html:
            assert run_html.index('class="unplaced failing"') < run_html.index('class="turns"')


def test_a_judge_reason_places_its_criterion_at_the_turn_it_names(
    batches: tuple[Path, Path], tmp_path: Path
) -> None:
    good, _ = batches
    copy = tmp_path / good.name
    shutil.copytree(good, copy)
    file = sorted(copy.glob("*/run_1.json"))[0]
    run = json.loads(file.read_text("utf-8"))
    assert run["turns"] >= 2 and len(run["criteria"]) >= 2
    run["criteria"][0] |= {"verdict": "fail", "reason": "At [T2] the agent skipped the read-back."}
    run["criteria"][1] |= {"verdict": "pass", "reason": "It stayed polite throughout."}
    file.write_text(json.dumps(run), "utf-8")
    page = parse_html(render_html(load_batch(copy)))
    article = next(
        a for a in page.find_all("article") if a.attrs["data-slug"] == run["scenario_slug"]
    )
    criteria = {
        v.attrs["data-index"]: v
        for v in article.find_all("li", class_="verdict", data_kind="criterion")
    }
    first, second = criteria["1"], criteria["2"]
    assert first.attrs["data-outcome"] == "fail"
    assert first.ancestor("li", "turn").attrs["data-turn"] == "2"
    assert "skipped the read-back" in first.text
    assert second.ancestor("li", "turn") is None and second.ancestor("div", "unplaced")


def test_compare_lists_regressions_with_the_checks_that_broke(batches: tuple[Path, Path]) -> None:
    good, broken = batches
    before, after = _runs(good), _runs(broken)
    regressed = {
        s for s in after if before[s]["status"] == "passed" and after[s]["status"] == "failed"
    }
    assert regressed
    comparison = compare(load_batch(broken), load_batch(good))
    page = parse_html(render_html(load_batch(broken), comparison))
    section = page.find("section", id="compare-regressed")
    items = section.find_all("li", data_slug=None) or []
    slugs = {li.attrs["data-slug"] for li in section.find_all("li") if "data-slug" in li.attrs}
    assert slugs == regressed, items
    for li in section.find_all("li"):
        if "data-slug" not in li.attrs:
            continue
        assert li.find("a").attrs["href"].startswith("#case-")
        assert "now failing: assertion" in li.text
    assert not page.find_all("section", id="compare-fixed")
    # the other way round, the same cases are fixes
    reverse = compare(load_batch(good), load_batch(broken))
    assert {c.slug for c in reverse.of("fixed")} == regressed
    assert not reverse.of("regressed")


def test_compare_names_added_and_removed_cases(batches: tuple[Path, Path], tmp_path: Path) -> None:
    good, broken = batches
    copy = tmp_path / "batch"
    shutil.copytree(broken, copy)
    (copy / "summary.json").unlink()  # totals are then computed from the run files
    gone = sorted(p for p in copy.iterdir() if p.is_dir())[0]
    shutil.rmtree(gone)
    comparison = compare(load_batch(copy), load_batch(good))
    assert [c.slug for c in comparison.of("removed")] == [gone.name]
    reverse = compare(load_batch(good), load_batch(copy))
    assert [c.slug for c in reverse.of("added")] == [gone.name]
    page = parse_html(render_html(load_batch(copy), comparison))
    removed = page.find("section", id="compare-removed").find("li")
    assert removed.attrs["data-slug"] == gone.name and not removed.find_all("a")


def test_everything_from_results_is_escaped(batches: tuple[Path, Path], tmp_path: Path) -> None:
    good, _ = batches
    copy = tmp_path / good.name
    shutil.copytree(good, copy)
    file = sorted(copy.glob("*/run_1.json"))[0]
    run = json.loads(file.read_text("utf-8"))
    evil = '</p><script>alert("x")</script><img src=x onerror=alert(1)>"\'&'
    run["scenario_name"] = evil
    run["transcript"][0]["text"] = evil
    run["assertions"][0]["detail"] = evil + " at turn 1"
    run["error"] = evil
    file.write_text(json.dumps(run), "utf-8")
    text = render_html(load_batch(copy))
    page = parse_html(text)
    assert len(page.find_all("script")) == 1  # the page's own
    assert not page.find_all("img")
    assert "alert(1)" not in page.find("script").text
    article = next(
        a for a in page.find_all("article") if a.attrs["data-slug"] == run["scenario_slug"]
    )
    assert evil in article.find("summary").text
    assert evil in article.find("p", class_="error").text
    csp = page.find("meta", http_equiv="Content-Security-Policy").attrs["content"]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp


def test_a_damaged_run_file_is_shown_not_fatal(batches: tuple[Path, Path], tmp_path: Path) -> None:
    good, _ = batches
    copy = tmp_path / good.name
    shutil.copytree(good, copy)
    files = sorted(copy.glob("*/run_1.json"))
    files[0].write_text("{not json", "utf-8")
    data = json.loads(files[1].read_text("utf-8"))
    data["status"] = "maybe"
    files[1].write_text(json.dumps(data), "utf-8")
    batch = load_batch(copy)
    assert len(batch.cases) == len(files) - 2
    problems = {Path(p.path).parent.name: p.message for p in batch.problems}
    assert problems.keys() == {files[0].parent.name, files[1].parent.name}
    assert "/status" in problems[files[1].parent.name]
    page = parse_html(render_html(batch))
    assert len(page.find_all("p", class_="problem")) == 2


def test_turn_refs_reads_both_spellings() -> None:
    assert turn_refs("matched at turn 3 (event 9); related: turn 5 (event 12)", {3, 5}) == (3, 5)
    assert turn_refs("At [T2] and [T7] the agent …", {0, 1, 2}) == (2,)
    assert turn_refs("expected skill_completed; no events recorded", {1, 2}) == ()


def test_layout_numbers_turns_like_the_runner(batches: tuple[Path, Path]) -> None:
    good, _ = batches
    batch = load_batch(good)
    record = batch.cases[0].runs[0]
    plan = layout(record)
    said = {u.turn for u in record.transcript}
    numbers = [t.number for t in plan.turns]
    assert numbers == sorted(numbers) and said <= set(numbers)
    # turn 0 (before the first user message) holds the session-start events only
    assert plan.turns[0].number == 0 and plan.turns[0].events and 0 not in said
    user_turns = [t for t in plan.turns if any(role == "user" for role, _ in t.messages)]
    assert len(user_turns) == record.turns


def test_cli_terminal_json_html_and_exit_codes(
    batches: tuple[Path, Path], tmp_path: Path, run_cli, run_cli_json
) -> None:
    good, broken = batches
    code, out, _ = run_cli("report", str(good.parent))  # the results root: newest batch
    assert code == 0
    runs = len(_runs(good))
    assert runs >= 10
    assert "cases not passing" not in out and f"{runs} runs: {runs} passed" in out
    assert str(good) in out
    code, out, _ = run_cli("report", str(broken), "--compare", str(good))
    assert code == 1
    assert "Regressions (" in out and "cases not passing" in out
    code, payload = run_cli_json("report", str(good), "--compare", str(broken))
    assert code == 0
    assert payload["compare"]["counts"]["fixed"] >= 1 and payload["compare"]["regressed"] == []
    assert payload["summary"]["totals"]["total"] == len(payload["cases"])
    target = tmp_path / "out" / "report.html"
    code, payload = run_cli_json("report", str(broken), "--html", str(target))
    assert code == 0 and payload["html"] == str(target)
    parse_html(target.read_text("utf-8"))
    code, out, err = run_cli("report", str(tmp_path / "nowhere"))
    assert code == 2 and "no such results folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli("report", str(empty))
    assert code == 2 and "no run results" in err


def test_quality_metrics_are_shown_when_measured(
    batches: tuple[Path, Path], tmp_path: Path
) -> None:
    good, _ = batches
    copy = tmp_path / good.name
    shutil.copytree(good, copy)
    file = sorted(copy.glob("*/run_1.json"))[0]
    run = json.loads(file.read_text("utf-8"))
    run |= {"scale_metrics": {"helpfulness": 0.8, "bot_quality": 0.75}, "task_completion": True}
    file.write_text(json.dumps(run), "utf-8")
    page = parse_html(render_html(load_batch(copy)))
    texts = [p.text for p in page.find_all("p", class_="metrics")]
    assert any("helpfulness 0.8" in t and "task_completion True" in t for t in texts)
    assert any("not measured" in t for t in texts)  # the other runs say why they have none


def test_compare_across_targets_warns_and_names_what_each_assertion_is_about(
    batches: tuple[Path, Path], tmp_path: Path, run_cli
) -> None:
    good, broken = batches
    other = tmp_path / "other"
    shutil.copytree(broken, other)
    for run in other.rglob("run_*.json"):
        record = json.loads(run.read_text("utf-8"))
        record["target"] = "http://elsewhere.invalid/agent"
        run.write_text(json.dumps(record), "utf-8")
    summary = other / "summary.json"
    if summary.is_file():
        data = json.loads(summary.read_text("utf-8"))
        data["target"] = "http://elsewhere.invalid/agent"
        summary.write_text(json.dumps(data), "utf-8")
    comparison = compare(load_batch(other), load_batch(good))
    assert comparison.warnings and "different targets" in comparison.warnings[0]
    assert "http://elsewhere.invalid/agent" in comparison.warnings[0]
    failing = [k for c in comparison.of("regressed") for k in c.newly_failing]
    assert failing and all(len(k.split()) == 4 for k in failing), failing  # `... bot_uttered X`
    _, out, _ = run_cli("report", str(other), "--compare", str(good))
    assert "warning: the batches ran against different targets" in " ".join(out.split())
    assert not compare(load_batch(broken), load_batch(good)).warnings
