"""`command:` targets: case content never runs as code, output is capped, the agent's
process tree (including children that leave with `setsid`) ends with the run."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from evalcore.agents import FinalRecord, parse_target
from evalcore.agents._command import discard_workdir
from evalcore.agents._template import check_template, render_command
from evalcore.errors import UserError
from evalcore.runner import RunCase

HOSTILE = [
    "$(touch {marker})",
    "`touch {marker}`",
    "'; touch {marker}; echo '",
    '"; touch {marker}; echo "',
    "$(touch {marker})'\"`touch {marker}`",
]


def _fixture(tmp_path: Path) -> Path:
    fixture = tmp_path / "fixture"
    (fixture / "project").mkdir(parents=True)
    (fixture / "project" / "README.md").write_text("hi", "utf-8")
    return fixture


def _case(fixture: Path, prompt: str) -> RunCase:
    return RunCase(
        slug="c",
        name="c",
        dialect="base44",
        path=str(fixture / "eval.json"),
        setup={"fixture": str(fixture)},
        checks={"checks": [], "expectedSkills": []},
        prompt=prompt,
    )


async def _run(spec: str, case: RunCase, **kwargs) -> FinalRecord:
    session = await parse_target(spec, **kwargs).open(case, 1)
    final = await session.close()
    discard_workdir(final)
    return final


@pytest.mark.parametrize("template", ['"Task: {prompt}"', "'Task: {prompt}'"])
def test_a_placeholder_inside_quotes_is_refused_with_what_to_write(template: str) -> None:
    with pytest.raises(UserError, match=r"inside .* quotes") as caught:
        parse_target(f"command:echo {template}")
    assert "CASEGEN_PROMPT" in (caught.value.hint or "")


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ('sh -c "echo {prompt}"', "inside"),
        ("agent --prompt={prompt}", "longer word"),
        ("agent x{prompt}", "longer word"),
        ("sh -c {prompt}", "runs it as code"),
        ("bash -c {prompt}", "runs it as code"),
        ("python3 -c {prompt}", "runs it as code"),
        ("true && eval {prompt}", "runs it as code"),
        ("agent -p", r"no \{prompt\} placeholder"),
        # reported bypasses of the earlier pattern check
        ("bash -lc {prompt}", "runs it as code"),
        ("sh -c -- {prompt}", "runs it as code"),
        ("timeout 30 sh -c {prompt}", "runs it as code"),
        ("env sh -c {prompt}", "runs it as code"),
        ("true; eval {prompt}", "runs it as code"),
        ("eval echo {prompt}", "runs it as code"),
        # through pipes, files, variables and `sh -c` strings
        ("cat {prompt_file} | sh", "standard input"),
        ("printf %s {prompt} | xargs sh -c", "runs it as code"),
        ("sh {prompt_file}", "the script"),
        (". {prompt_file}", "runs it as code"),
        ("sh < {prompt_file}", "standard input"),
        ("sh -c 'eval \"$1\"' sh {prompt}", "runs it as code"),
        ("sh -c 'eval \"$CASEGEN_PROMPT\"'", "runs it as code"),
        ('sh -c "$CASEGEN_PROMPT"', "runs it as code"),
        ("X={prompt}; eval $X", "longer word"),
        ("read x < {prompt_file}; eval $x", "runs it as code"),
        ("env -S 'sh -c' {prompt}", "runs it as code"),
        ("timeout 30 {prompt}", "the program to run"),
        ("find . -exec sh -c {prompt} ;", "runs it as code"),
        ("ssh host {prompt}", "hands it to a shell"),
        ("echo $( cat {prompt_file} )", "not followed"),
        ("if true; then sh -c {prompt}; fi", "not followed"),
        ("true # comment\neval {prompt}", "runs it as code"),
        ("mywrapper --flag sh -c {prompt}", "runs it as code"),
    ],
)
def test_unsafe_templates_are_refused(template: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        check_template(template)


@pytest.mark.parametrize(
    "template",
    [
        "claude -p {prompt} --output-format stream-json --verbose",
        "codex exec {prompt}",
        "agent {prompt} | tee out.txt",
        "awk '{print $1}' input && run {prompt}",
        "agent --file {prompt_file}",
        "sh -c 'agent \"$CASEGEN_PROMPT\" > log.txt'",
        "agent -c config.toml {prompt}",
        "timeout 30 nice -n 5 claude -p {prompt}",
        "env FOO=1 agent {prompt}",
        "sh -c 'agent \"$1\" > log.txt' sh {prompt}",
        "python3 -c 'import sys; print(sys.argv[1])' {prompt}",
        "python -m agent {prompt}",
        "agent < {prompt_file}",
        "agent {prompt} 2>&1 | tee log.txt",
    ],
)
def test_safe_templates_are_accepted(template: str) -> None:
    check_template(template)
    assert "{prompt}" not in render_command(template)


@pytest.mark.parametrize(
    "template",
    [
        "printf %s {prompt}",
        "sh -c 'printf %s \"$CASEGEN_PROMPT\"'",
        "cat {prompt_file}",
        "printf %s {prompt} | cat",
    ],
)
@pytest.mark.parametrize("hostile", HOSTILE)
async def test_hostile_prompts_run_no_code(tmp_path: Path, template: str, hostile: str) -> None:
    marker = tmp_path / "pwned"
    prompt = hostile.format(marker=marker)
    final = await _run(f"command:{template}", _case(_fixture(tmp_path), prompt))
    assert not marker.exists(), f"{template!r} ran code from the prompt {prompt!r}"
    assert final.output == prompt  # passed through verbatim, as one argument
    assert final.meta["exit_code"] == 0


async def test_output_beyond_the_cap_is_cut_and_recorded(tmp_path: Path) -> None:
    code = "import sys; sys.stdout.write(sys.argv[1] * 3_000_000)"
    spec = f"command:{sys.executable} -c '{code}' {{prompt}}"
    final = await _run(spec, _case(_fixture(tmp_path), "x"), timeout_s=60)
    assert len(final.output) == 1024 * 1024  # the documented default
    assert final.meta["output_truncated"] is True
    assert final.meta["output_bytes"] == 3_000_000
    assert final.meta["output_kept_bytes"] == 1024 * 1024


async def test_the_cap_is_configurable(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path)
    (tmp_path / "casegen.toml").write_text("max_output_bytes = 1000\n", "utf-8")
    spec = f"command:{sys.executable} -c 'import sys; print(sys.argv[1] * 5000)' {{prompt}}"
    final = await _run(spec, _case(fixture, "y"), timeout_s=60)
    assert final.output == "y" * 1000
    assert final.meta["output_truncated"] is True and final.meta["output_bytes"] > 1000


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.is_file() and stat.read_text().split(") ")[-1].startswith("Z"))


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
async def test_a_setsid_child_does_not_outlive_the_run(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    script = tmp_path / "agent.sh"
    # the agent waits for its child to say its pid before it answers: on a loaded machine
    # the run's clean-up could otherwise kill the child before it wrote it
    script.write_text(
        f"setsid sh -c 'echo $$ > {pidfile}.part && mv {pidfile}.part {pidfile}; exec sleep 60'"
        " </dev/null >/dev/null 2>&1 &\n"
        f"while [ ! -s {pidfile} ]; do sleep 0.01; done\n"
        'echo "started: $1"\n',
        "utf-8",
    )
    started = time.monotonic()
    final = await _run(f"command:sh {script} {{prompt}}", _case(_fixture(tmp_path), "go"))
    assert final.output == "started: go\n"
    child = int(pidfile.read_text())
    for _ in range(40):
        if not _alive(child):
            break
        time.sleep(0.05)
    assert not _alive(child), "the setsid child outlived the run"
    assert time.monotonic() - started < 20


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
async def test_a_background_child_holding_stdout_does_not_hold_the_run(tmp_path: Path) -> None:
    started = time.monotonic()
    final = await _run(
        "command:setsid sleep 30 & echo {prompt}", _case(_fixture(tmp_path), "done"), timeout_s=60
    )
    assert final.output == "done\n"
    assert time.monotonic() - started < 10


async def test_a_symlinked_project_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (elsewhere / "id_rsa").write_text("private", "utf-8")
    fixture = tmp_path / "fixture"
    fixture.mkdir()
    (fixture / "project").symlink_to(elsewhere)
    with pytest.raises(UserError, match="symbolic link"):
        await parse_target("command:echo {prompt}").open(_case(fixture, "x"), 1)


async def test_model_keys_do_not_reach_the_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-value-123456")
    monkeypatch.setenv("CASEGEN_JUDGE_KEY", "judge-secret-999")
    monkeypatch.setenv("GITHUB_TOKEN", "gh-token-passed-on")
    monkeypatch.setenv("HARMLESS_SETTING", "visible")
    fixture = _fixture(tmp_path)
    script = tmp_path / "show-env.sh"
    script.write_text("env\n", "utf-8")
    final = await _run(f"command:sh {script} {{prompt}}", _case(fixture, "--"))
    assert "sk-test-secret" not in final.output and "judge-secret" not in final.output
    assert "gh-token-passed-on" not in final.output
    assert "HARMLESS_SETTING=visible" in final.output
    (tmp_path / "casegen.toml").write_text('pass_env = ["GITHUB_TOKEN"]\n', "utf-8")
    final = await _run(f"command:sh {script} {{prompt}}", _case(fixture, "--"))
    assert "GITHUB_TOKEN=gh-token-passed-on" in final.output
    assert "sk-test-secret" not in final.output
