"""Reference lint for base44 `eval.json` files, single- and multi-prompt alike.

- `unknown-agent-skill`: an `expectedSkills` entry (top level or per prompt) that no
  `skills/<name>/SKILL.md` of the project (or of one of its fixtures) defines.
- `path-outside-project`: a check `filePath` that is absolute or, once normalised, climbs out
  with `..`. The runner joins it onto the fixture's `project/` folder, so such a path reads
  files the agent never wrote (the fixture's own `eval.json`, say) or the host's.
- `bad-regex`: the `pattern` of a `file-content` / `file-content-excluded` check that does not
  compile. The runner compiles it as a JavaScript `RegExp(pattern, 'i')`; this checks it with
  Python's `re` and IGNORECASE after rewriting JavaScript named groups (`(?<n>…)`, `\\k<n>`),
  and lets variable-width look-behind pass (JavaScript allows it, Python does not).
- `schema`: the `schema` of a `json-schema` check that is not itself a valid JSON Schema
  (meta-validated by its `$schema` draft, draft-07 like the eval file when it has none).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ... import pointer as ptr
from ...findings import Finding
from ...lint import as_dict, as_list, regex_error, unknown_id

if TYPE_CHECKING:
    from ...definitions import Project

_REGEX_CHECKS = ("file-content", "file-content-excluded")
_JS_GROUP = re.compile(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>")
_JS_BACKREF = re.compile(r"\\k<([A-Za-z_][A-Za-z0-9_]*)>")
_DRIVE = re.compile(r"^[A-Za-z]:/")


def lint_base44(data: Any, project: Project) -> list[Finding]:
    """Reference and check-content findings for one eval (never raises)."""
    if not isinstance(data, dict):
        return []
    defs = project.agent_skills
    skills: set[str] = set()
    if defs is not None:
        skills = set(defs.skills) | {s for f in defs.fixtures for s in f.skills}
    findings: list[Finding] = []
    prompts = as_list(data.get("prompts"))
    units = [("", data)] + [(ptr.join("/prompts", i), as_dict(e)) for i, e in enumerate(prompts)]
    for base, unit in units:
        if defs is not None:
            findings += _expected_skills(unit, base, skills)
        for index, check in enumerate(as_list(unit.get("checks"))):
            findings += _check(as_dict(check), ptr.join(base, "checks", index))
    return findings


def _expected_skills(unit: dict[str, Any], base: str, skills: set[str]) -> Iterator[Finding]:
    for index, name in enumerate(as_list(unit.get("expectedSkills"))):
        if isinstance(name, str) and name not in skills:
            path = ptr.join(base, "expectedSkills", index)
            yield unknown_id("unknown-agent-skill", path, name, skills, what="skill")


def _check(check: dict[str, Any], path: str) -> Iterator[Finding]:
    file_path = check.get("filePath")
    if isinstance(file_path, str):
        finding = _outside_project(file_path, ptr.join(path, "filePath"))
        if finding is not None:
            yield finding
    pattern = check.get("pattern")
    if check.get("type") in _REGEX_CHECKS and isinstance(pattern, str):
        error = js_regex_error(pattern)
        if error is not None:
            yield Finding(
                code="bad-regex",
                path=ptr.join(path, "pattern"),
                value=pattern,
                message=(
                    f"pattern does not compile: {error} (checked with Python's re and "
                    "IGNORECASE; the runner uses JavaScript RegExp with the 'i' flag)"
                ),
                suggestion=_REGEX_HINT,
            )
    schema = check.get("schema")
    if check.get("type") == "json-schema" and isinstance(schema, dict):
        error = json_schema_error(schema)
        if error is not None:
            yield Finding(
                code="schema",
                path=ptr.join(path, "schema"),
                message=f"the json-schema check's schema is not a valid JSON Schema: {error}",
            )


def _outside_project(file_path: str, path: str) -> Finding | None:
    text = file_path.replace("\\", "/")
    if text.startswith("/") or _DRIVE.match(text):
        inside = text.rsplit("/project/", 1)[1] if "/project/" in text else None
        return Finding(
            code="path-outside-project",
            path=path,
            value=file_path,
            message=f"filePath '{file_path}' is absolute; checks read files inside the "
            "fixture's project/ folder",
            suggestion=f"use '{inside}'" if inside else _RELATIVE_HINT,
        )
    normalised = posixpath.normpath(text)
    if normalised == ".." or normalised.startswith("../"):
        return Finding(
            code="path-outside-project",
            path=path,
            value=file_path,
            message=f"filePath '{file_path}' climbs out of the fixture's project/ folder",
            suggestion=_RELATIVE_HINT,
        )
    return None


_REGEX_HINT = (
    "escape characters meant literally, such as ( [ { . + * ?, with a backslash "
    "(written twice inside a JSON string)"
)
_RELATIVE_HINT = "use a path relative to the fixture's project/ folder, e.g. 'src/App.jsx'"


def js_regex_error(pattern: str) -> str | None:
    """The compile error of a JavaScript regex (flag i), as far as Python's re can tell."""
    translated = _JS_BACKREF.sub(r"(?P=\1)", _JS_GROUP.sub(r"(?P<\1>", pattern))
    error = regex_error(translated, flags=re.IGNORECASE)
    if error is not None and "look-behind requires fixed-width" in error:
        return None
    return error


def json_schema_error(schema: dict[str, Any]) -> str | None:
    """Why `schema` is not a valid JSON Schema, or None (jsonschema imported on first need)."""
    from jsonschema.exceptions import SchemaError  # start-up: jsonschema, attrs
    from jsonschema.validators import Draft7Validator, validator_for  # start-up: jsonschema, attrs

    meta = schema.get("$schema")
    if meta is not None and not isinstance(meta, str):
        return "'$schema' must be a string"
    cls = validator_for(schema, default=Draft7Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        where = ptr.from_parts(exc.absolute_path)
        return exc.message + (f" (at {where})" if where else "")
    return None


__all__ = ["js_regex_error", "json_schema_error", "lint_base44"]
