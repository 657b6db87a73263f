"""Citations that point somewhere else than the element behind their check.

Every comment beside a check names the file and line that back it (`_justify.py`). A
reviewer reads that line, so it has to be the one that backs this check in the skill the
check is about: not another skill's sentence that happens to name the same tool, not the
first gate of several that share a reply, not a paragraph for a branch the case does not
play. `misplaced_citations` lists those a case's comments would carry; `benchmarks goldens`
runs it over everything the corpus projects write, so a wrong line shows as a failing test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._justify import MantleJustifier, _Case, judge_case, justifier_for

if TYPE_CHECKING:
    from ...definitions import Project
    from ...justify import Judged

#: The keys of a tool's constraint entry a citation names after the tool ("move_event
#: utter_on_user_denial ...").
_CONSTRAINT_KEYS = frozenset(
    {"utter_for_confirmation", "utter_on_user_denial", "on_success", "on_failure"}
    | {"requires_confirmation", "requires"}
)


def misplaced_citations(data: Any, project: Project | None) -> list[str]:
    """`<check path>: <why>` for each citation of `data` that points at a line that does not
    back its check: a file of a skill other than the one the check is about, a tool entry
    other than the tool it names, or a paragraph under an `if:` the case rules out."""
    if project is None or project.mantle is None or not isinstance(data, dict):
        return []
    justifier = justifier_for(project)
    case = _Case.of(data)
    case.fields |= justifier._gated_by(data, case)
    out: list[str] = []
    for judged in judge_case(data, project):
        out += [f"{judged.path}: {why}" for why in _wrong(judged, data, justifier, case)]
    return out


def _wrong(
    judged: Judged, data: dict[str, Any], justifier: MantleJustifier, case: _Case
) -> list[str]:
    found = judged.justification
    if found is None or found.line is None:
        return []
    out: list[str] = []
    parts = found.file.split("/")
    skill = justifier.defs.skills.get(parts[1]) if parts[0] == "skills" else None
    about = _about(_check_body(data, judged.path), judged.check, justifier, case)
    if skill is not None and about and skill.id not in about:
        out.append(f"cites {found.place}, a file of {skill.id}, for a check on {sorted(about)[0]}")
    tool, key = [*found.element.split(maxsplit=2), "", ""][:2]
    if (
        skill is not None
        and key.rstrip(":") in _CONSTRAINT_KEYS
        and found.file.endswith("skill.md")
    ):
        entry = _entry_lines(justifier, skill, tool)
        if entry and found.line not in entry:
            out.append(f"cites {found.place}, outside {tool}'s constraint entry")
    if skill is not None and found.file.endswith("skill.md"):
        for _text, line, condition, _ in justifier._sentences(skill):
            if line == found.line and condition and justifier._contradicts(condition, case):
                out.append(
                    f"cites {found.place}, under `if: {condition}`, which the case rules out"
                )
                break
    return out


def _check_body(data: dict[str, Any], path: str) -> dict[str, Any]:
    """The check at JSON pointer `path` of `data` (`/scenario/goals/assertions/3`)."""
    node: Any = data
    for part in path.strip("/").split("/"):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            return {}
    return node if isinstance(node, dict) else {}


def _about(body: dict[str, Any], check: str, justifier: MantleJustifier, case: _Case) -> set[str]:
    """The skills a check is about: a tool check's `skill_id`, else the skills the case
    activates that import the tool (or utter the response); a memory check's namespace.
    Empty where the check does not say (every skill may then be cited)."""
    inner = body.get(check, body)
    if not isinstance(inner, dict):
        inner = {"name": inner} if isinstance(inner, str) else {}
    skills = justifier.defs.skills
    if check in ("memory_was_set", "memory_was_not_set", "memory_was_cleared"):
        namespace = str(inner.get("name") or "").split(".", 1)[0]
        return {namespace} if namespace in skills else set()
    if check == "tool_executed":
        if isinstance(inner.get("skill_id"), str) and inner["skill_id"] in skills:
            return {inner["skill_id"]}
        name = str(inner.get("tool_name") or "")
        return {s for s in case.activated if s in skills and name in justifier.defs.tools_for(s)}
    if check == "bot_uttered":
        name = str(inner.get("utter_name") or "")
        return {s.id for s in justifier._may_utter(name) if s.id in case.activated}
    return set()


def _entry_lines(justifier: MantleJustifier, skill: Any, tool: str) -> range | None:
    """The lines of `tool`'s entry under the skill's `tool_constraints`."""
    start = justifier._constraint_line(skill, tool)
    if start is None:
        return None
    lines = justifier._file_lines(justifier._md(skill))
    indent = len(lines[start - 1]) - len(lines[start - 1].lstrip(" -"))
    end = start
    while end < len(lines):
        text = lines[end]
        if text.strip() == "---" or (text.strip() and len(text) - len(text.lstrip(" -")) <= indent):
            break
        end += 1
    return range(start, end + 1)


__all__ = ["misplaced_citations"]
