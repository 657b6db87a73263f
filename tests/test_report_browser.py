"""The HTML report in a real headless Chromium: it renders, its script runs under its own
Content-Security-Policy, and the console stays silent. Skipped when chromium is absent
(Debian: `apt-get install chromium`)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from report_fixtures import run_batch

from agentflows.report import compare, load_batch, render_html
from agentflows.report._assets import SCRIPT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

#: Chromium writes each console message (errors, CSP violations) as `...:CONSOLE(:N)] "..."`.
CONSOLE = re.compile(r":CONSOLE[:(\d)]*\]? ?(.*)")


def chromium(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            *extra,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def console_lines(stderr: str) -> list[str]:
    return [m.group(1) for line in stderr.splitlines() if (m := CONSOLE.search(line))]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    good = run_batch(root / "good", "demo:bank")
    broken = run_batch(root / "broken", "demo:bank?skip_confirmation")
    batch = load_batch(broken)
    out = root / "report.html"
    out.write_text(render_html(batch, compare(batch, load_batch(good))), "utf-8")
    return out


def test_report_renders_with_no_console_error(page: Path, tmp_path: Path) -> None:
    done = chromium(page, tmp_path / "profile", "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_lines(done.stderr) == []
    dom = done.stdout
    assert 'data-ready="1"' in dom  # the inline script ran: its CSP hash matches
    assert dom.count('class="case"') == 14
    assert 'id="compare-regressed"' in dom
    shot = tmp_path / "report.png"
    done = chromium(page, tmp_path / "profile", "--window-size=1280,2000", f"--screenshot={shot}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_lines(done.stderr) == []
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_a_script_the_policy_does_not_allow_is_reported(page: Path, tmp_path: Path) -> None:
    """The check above can fail: a changed script no longer matches the page's CSP hash,
    Chromium blocks it and says so on the console."""
    tampered = tmp_path / "tampered.html"
    tampered.write_text(
        page.read_text("utf-8").replace(SCRIPT, SCRIPT.replace("'1'", "'2'")), "utf-8"
    )
    done = chromium(tampered, tmp_path / "profile", "--dump-dom")
    assert any("Content Security Policy" in line for line in console_lines(done.stderr))
    assert 'data-ready="' not in done.stdout
