"""base44 eval checks: the original runner's ten check types, with its quirks fixed on purpose.

Semantics and every difference from the original are in docs/checks.md (base44). In short:
paths cannot leave the project; `file-exists` wants a file; regexes are case-insensitive by
default and say so (`flags`); an excluded pattern in a missing file passes; JSONC parsing
knows strings; `command-passes` goes through a shell; `json-schema` honours `filePath` and the
whole JSON Schema; config checks flag the mistakes that silently break a deployment. The case
passes when the expected skills were invoked (a last result, `expectedSkills`) and every
check passed.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from typing import IO, Any

from jsonschema import FormatChecker, validators
from jsonschema.exceptions import SchemaError

from ...agents import FinalRecord, child_env, exec_settings, kill_tree, new_token
from ...assertions import Verdict
from ...suggest import did_you_mean
from .._trace import RunTrace
from . import CheckResult, register_checks
from ._base44_configs import CONFIG_KINDS, config_problems, schema_errors
from ._base44_files import ProjectFiles
from ._jsontext import JsonTextError, extract_json, loads

COMMAND_TIMEOUT_S = 120.0
DEFAULT_FLAGS = "i"
_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


Check = Callable[[Mapping[str, Any], FinalRecord, ProjectFiles], Verdict]
_CHECKS: dict[str, Check] = {}


def _check(name: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        _CHECKS[name] = fn
        return fn

    return register


class _Bad(Exception):
    """The check is not written so that it can be evaluated (a missing field, a bad regex)."""


def _field(check: Mapping[str, Any], name: str, kind: type = str) -> Any:
    value = check.get(name)
    if value is None or (kind is str and value == ""):
        raise _Bad(f"needs `{name}`")
    if not isinstance(value, kind):
        raise _Bad(f"`{name}` must be a {kind.__name__}")
    return value


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _js_to_python(pattern: str) -> str:
    """The JavaScript regex syntax that differs: named groups and their back-references."""
    pattern = re.sub(r"\(\?<(?![=!])([A-Za-z_]\w*)>", r"(?P<\1>", pattern)
    return re.sub(r"\\k<([A-Za-z_]\w*)>", r"(?P=\1)", pattern)


def _regex(check: Mapping[str, Any]) -> tuple[re.Pattern[str], str]:
    pattern = _field(check, "pattern")
    flags = check.get("flags", DEFAULT_FLAGS)
    if not isinstance(flags, str) or set(flags) - set(_FLAG_BITS):
        raise _Bad(f"`flags` must be letters from {''.join(_FLAG_BITS)}, got {flags!r}")
    bits = 0
    for letter in flags:
        bits |= _FLAG_BITS[letter]
    try:
        return re.compile(_js_to_python(pattern), bits), f"/{pattern}/{flags}"
    except re.error as exc:
        raise _Bad(f"bad regular expression /{pattern}/: {exc}") from None


def _where(text: str, start: int) -> str:
    line_no = text.count("\n", 0, start) + 1
    line = text.splitlines()[line_no - 1] if text else ""
    return f"line {line_no}: {_excerpt(line)}"


def _content_matches(check: Mapping[str, Any], content: str) -> tuple[list[str], list[str]]:
    """(what was found, what was not) for `pattern` and/or `value`."""
    has_pattern, has_value = check.get("pattern") is not None, check.get("value") is not None
    if not has_pattern and not has_value:
        raise _Bad("needs `pattern` or `value`")
    found, absent = [], []
    if has_pattern:
        regex, shown = _regex(check)
        match = regex.search(content)
        (found if match else absent).append(
            f"{shown} at {_where(content, match.start())}" if match else shown
        )
    if has_value:
        value = _field(check, "value")
        at = content.find(value)
        (found if at >= 0 else absent).append(
            f"{value!r} at {_where(content, at)}" if at >= 0 else repr(value)
        )
    return found, absent


@_check("contains")
def _contains(check: Mapping[str, Any], final: FinalRecord, _: ProjectFiles) -> Verdict:
    value = _field(check, "value")
    output = final.output or ""
    if value.casefold() in output.casefold():
        return Verdict(True, f"the answer contains {value!r}")
    return Verdict(False, f"{value!r} not in the answer ({len(output)} chars: {_excerpt(output)})")


@_check("file-exists")
def _file_exists(check: Mapping[str, Any], _: FinalRecord, files: ProjectFiles) -> Verdict:
    rel = _field(check, "filePath")
    _, problem = files.resolve(rel)
    if problem:
        raise _Bad(problem)
    kind = files.kind(rel)
    if kind == "file":
        return Verdict(True, f"{rel} exists")
    if kind == "dir":
        return Verdict(False, f"{rel} is a directory, not a file")
    return Verdict(False, files.missing(rel))


def _read(check: Mapping[str, Any], files: ProjectFiles) -> tuple[str, str | None]:
    rel = _field(check, "filePath")
    _, problem = files.resolve(rel)
    if problem:
        raise _Bad(problem)
    return rel, files.read(rel)


@_check("file-content")
def _file_content(check: Mapping[str, Any], _: FinalRecord, files: ProjectFiles) -> Verdict:
    rel, content = _read(check, files)
    if content is None:
        _content_matches(check, "")  # report a badly written check before the missing file
        return Verdict(False, files.missing(rel))
    found, absent = _content_matches(check, content)
    if absent:
        return Verdict(False, f"{rel} has no match for {' and '.join(absent)}")
    return Verdict(True, f"{rel} matches {' and '.join(found)}")


@_check("file-content-excluded")
def _file_content_excluded(
    check: Mapping[str, Any], _: FinalRecord, files: ProjectFiles
) -> Verdict:
    rel, content = _read(check, files)
    if content is None:
        _content_matches(check, "")
        return Verdict(True, f"{rel} does not exist, so it cannot contain the excluded text")
    found, absent = _content_matches(check, content)
    if found:
        return Verdict(False, f"{rel} contains {' and '.join(found)}")
    return Verdict(True, f"{rel} has no match for {' or '.join(absent)}")


@_check("valid-json")
def _valid_json(check: Mapping[str, Any], _: FinalRecord, files: ProjectFiles) -> Verdict:
    rel, content = _read(check, files)
    if content is None:
        return Verdict(False, files.missing(rel))
    strict = check.get("strict") is True
    try:
        loads(content, jsonc=not strict)
    except JsonTextError as exc:
        return Verdict(False, f"{rel} is not valid {'JSON' if strict else 'JSON/JSONC'}: {exc}")
    return Verdict(True, f"{rel} is valid {'JSON' if strict else 'JSON/JSONC'}")


def _tail(stream: IO[bytes], limit: int = 500) -> str:
    """The last `limit` characters the command wrote (read from its file, never all of it)."""
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    stream.seek(max(0, size - 4 * limit))
    return stream.read().decode("utf-8", "replace").strip()[-limit:]


@_check("command-passes")
def _command_passes(check: Mapping[str, Any], _: FinalRecord, files: ProjectFiles) -> Verdict:
    command = _field(check, "command")
    timeout = check.get("timeout", COMMAND_TIMEOUT_S)
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
        raise _Bad("`timeout` must be a positive number of seconds")
    if files.root is None:
        return Verdict(False, "the project folder is gone, so the command cannot run")
    token = new_token()
    # Output goes to files, not pipes: a child left in the background cannot hold the check
    # open, and a command printing gigabytes costs disk, not memory.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", command],
            cwd=files.root,
            env=child_env(token, pass_env=files.pass_env),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return Verdict(False, f"`{command}` ran longer than {timeout:g}s and was stopped")
        finally:
            kill_tree(proc.pid, token)  # the group, and children that left it with setsid
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        if proc.returncode == 0:
            return Verdict(True, f"`{command}` exited 0")
        tail = _tail(err) or _tail(out)
    return Verdict(False, f"`{command}` exited {proc.returncode}" + (f": {tail}" if tail else ""))


def _document(
    check: Mapping[str, Any],
    final: FinalRecord,
    files: ProjectFiles,
    accept: Callable[[Any], bool],
    *,
    use_file: bool,
    what: str,
) -> tuple[Any, str] | Verdict:
    """The JSON to validate: the file (JSONC) or the answer, or a failed verdict saying why."""
    if use_file:
        rel, content = _read(check, files)
        if content is None:
            return Verdict(False, files.missing(rel))
        try:
            return loads(content), rel
        except JsonTextError as exc:
            return Verdict(False, f"{rel} is not valid JSON/JSONC: {exc}")
    found = extract_json(final.output or "", accept)
    if found is None:
        return Verdict(
            False, f"no {what} found in the answer (no fenced JSON block or balanced JSON value)"
        )
    value, where = found
    return value, f"the answer ({where})"


def _schema_errors(schema: Mapping[str, Any], value: Any, limit: int = 5) -> list[str]:
    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    cls.check_schema(schema)
    errors = schema_errors(cls(schema, format_checker=FormatChecker()), value)
    return errors[:limit] + ([f"… {len(errors) - limit} more"] if len(errors) > limit else [])


@_check("json-schema")
def _json_schema(check: Mapping[str, Any], final: FinalRecord, files: ProjectFiles) -> Verdict:
    schema = _field(check, "schema", dict)
    use_file = check.get("filePath") is not None
    found = _document(check, final, files, lambda _: True, use_file=use_file, what="JSON value")
    if isinstance(found, Verdict):
        return found
    value, source = found
    try:
        errors = _schema_errors(schema, value)
    except SchemaError as exc:
        raise _Bad(f"`schema` is not a valid JSON Schema: {exc.message}") from None
    if errors:
        return Verdict(False, f"{source} does not match the schema: {'; '.join(errors)}")
    return Verdict(True, f"{source} matches the schema")


def _config_check(kind: str) -> Check:
    label, accept = CONFIG_KINDS[kind]

    def evaluate(check: Mapping[str, Any], final: FinalRecord, files: ProjectFiles) -> Verdict:
        expected_valid = check.get("expectedValid", True)
        if not isinstance(expected_valid, bool):
            raise _Bad("`expectedValid` must be true or false")
        target = check.get("target")
        if target not in (None, "file", "output"):
            raise _Bad(f'`target` must be "file" or "output", got {target!r}')
        if target == "file" and not check.get("filePath"):
            raise _Bad('`target: "file"` needs a `filePath`')
        use_file = bool(check.get("filePath")) and target != "output"
        found = _document(check, final, files, accept, use_file=use_file, what=label)
        want = f"expected {'a valid' if expected_valid else 'an invalid'} {label}"
        if isinstance(found, Verdict):
            return Verdict(not expected_valid, f"{want}; {found.detail}")
        value, source = found
        problems = config_problems(kind, value)
        if problems:
            return Verdict(
                not expected_valid, f"{want}; {source} is invalid: {'; '.join(problems[:6])}"
            )
        return Verdict(expected_valid, f"{want}; {source} is valid")

    return evaluate


for _kind in CONFIG_KINDS:
    _CHECKS[_kind] = _config_check(_kind)


def _skills_result(index: int, expected: list[str], meta: Mapping[str, Any]) -> CheckResult:
    invoked = [str(s) for s in meta.get("skills_invoked") or []]
    method = str(meta.get("skills_detected_by") or "none")
    covered = set(meta.get("skills_vocabulary") or [])
    seen = f"invoked ({method}): {', '.join(invoked) or 'none'}"
    if not expected:
        return CheckResult(index, "expectedSkills", True, f"no skills expected; {seen}")
    if method == "none":
        return CheckResult(
            index,
            "expectedSkills",
            False,
            f"expected {', '.join(expected)}; cannot tell which skills ran: "
            "the agent printed no JSON stream and no vocabulary is configured "
            "for these skills (docs/agent-protocol.md §7)",
        )
    unknowable = [s for s in expected if method == "vocabulary" and s not in covered]
    missing = [s for s in expected if s not in invoked and s not in unknowable]
    problems = []
    if missing:
        problems.append(f"not invoked: {', '.join(missing)}")
    if unknowable:
        problems.append(f"no vocabulary to detect {', '.join(unknowable)}")
    detail = f"expected {', '.join(expected)}; {seen}"
    return CheckResult(
        index,
        "expectedSkills",
        not problems,
        detail + (f" ({'; '.join(problems)})" if problems else ""),
    )


def evaluate_one(index: int, check: Any, final: FinalRecord, files: ProjectFiles) -> CheckResult:
    """One check; a badly written check is a failed result with the reason."""
    if not isinstance(check, Mapping):
        return CheckResult(index, "invalid", False, f"a check must be an object, got {check!r}")
    kind = str(check.get("type") or "invalid")
    label = str(check.get("description") or kind)
    fn = _CHECKS.get(kind)
    if fn is None:
        hint = did_you_mean(kind, _CHECKS, what="check type")
        return CheckResult(
            index,
            kind,
            False,
            f"{label}: unknown check type '{kind}'" + (f"; {hint}" if hint else ""),
        )
    try:
        verdict = fn(check, final, files)
    except _Bad as exc:
        return CheckResult(index, kind, False, f"{label}: cannot check: {exc}")
    return CheckResult(index, kind, verdict.passed, f"{label}: {verdict.detail}")


def evaluate_base44(
    checks: Any, final: FinalRecord, *, pass_env: list[str] | None = None
) -> list[CheckResult]:
    """Every check in order, then the `expectedSkills` verdict (index = number of checks)."""
    entry = checks if isinstance(checks, Mapping) else {"checks": checks}
    items = entry.get("checks") or []
    if not isinstance(items, list):
        return [CheckResult(0, "checks", False, "`checks` must be a list")]
    files = ProjectFiles(final, pass_env)
    results = [evaluate_one(i, item, final, files) for i, item in enumerate(items)]
    expected = [str(s) for s in entry.get("expectedSkills") or []]
    results.append(_skills_result(len(items), expected, final.meta))
    return results


@register_checks("base44")
def base44_checks(checks: Any, trace: RunTrace) -> list[CheckResult]:
    """The base44 evaluator as the runner calls it (docs/checks.md, base44)."""
    shipped = (trace.case.setup or {}).get("fixture_context")  # resolved by a Ray driver
    if isinstance(shipped, dict):
        pass_env = list(shipped.get("pass_env") or [])
    else:
        _, pass_env = exec_settings(trace.case.path or None)
    return evaluate_base44(checks, trace.final, pass_env=pass_env)


def check_types() -> list[str]:
    return list(_CHECKS)


__all__ = ["base44_checks", "check_types", "evaluate_base44", "evaluate_one"]
