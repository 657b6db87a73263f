"""Rasa's project check (rasa-pro 3.22), run on what casegen read from a Mantle project.

`rasa train` and `rasa data validate` run `rasa.mantle.validation.collect_project_findings`
and refuse a project with any error finding. casegen reports the same findings, ported
rule by rule from Rasa's code (`rasa/mantle/{config,memory,skills,content,tools}/
validation.py`) and worked out from casegen's own reading (Python read with `ast`, never
imported), so a project Rasa would refuse is known before cases are planned for it.

Each finding is a project warning `path[:line]: rasa error [<Rasa's code>] <message>
(rasa-pro 3.22 rule)`; `rasa_errors` picks them out of a warning list. Skills Rasa's loader
drops (`skill.failed_to_load`, see `_rasa_load`) are reported and removed from the
definitions, so nothing downstream plans for them; the other rules then run, as in Rasa, on
the skills that loaded.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from .. import _valuecache
from .._valuecache import text_key
from ..documents import load_document
from ..lexicon.notation.mantle_references import MEMORY_LOOKALIKE as _MEMORY_LOOKALIKE
from ..lexicon.notation.mantle_references import MEMORY_REFERENCE_EXACT as _MEMORY_REF
from ..lexicon.notation.mantle_references import SESSION_REFERENCE as _SESSION_REF
from ..lexicon.notation.mantle_references import SKILL_REFERENCE_EXACT as _SKILL_REF
from ..lexicon.notation.mantle_references import TOOL_REFERENCE_EXACT as _TOOL_REF
from ..lexicon.notation.project_warnings import RASA_ERROR as _ERROR
from ..limits import InputLimits
from ._blocks import FRAMEWORK_TOOLS
from ._context import ReadContext
from ._model import MantleDefinitions, Skill
from ._rasa_load import load_error, memory_keys, prose_segments
from ._tools_ast import parsed_module

RASA_RULES_VERSION = "3.22"
_TAG = f"(rasa-pro {RASA_RULES_VERSION} rule)"

DEFAULT_SKILL_PUBLIC_MEMORY: dict[str, tuple[str, ...]] = {
    "default_completed": ("wants_to_continue",),
    "default_continue_interrupted": ("wants_to_resume", "interrupted_task_name"),
    "default_customer_satisfaction": ("csat_score",),
    "default_session_start": (),
    "default_silence_timeout": (),
    "default_silence_timeout_hangup": (),
    "default_unsupported_request_handler": ("request_type",),
}
"""The skills rasa-pro 3.22 bundles (`rasa/mantle/default_skills`) and their public memory:
a project skill may call or link them and read that memory; a project skill of the same id
replaces one."""
_EXECUTE_ONLY_TOOLS = frozenset({"record_handoff"})
"""Tools Rasa provides to `execute_tool` steps only (`rasa/mantle/tools/execute_only.py`)."""
_INTEGRATION_KEYS = frozenset(
    {
        "mcp_servers",
        "knowledge_stores",
        "model_groups",
        "channels",
        "tracing",
        "metrics",
        "a2a_server",
        "event_broker",
        "timer_store",
        "tracker_store",
        "lock_store",
        "secrets_manager",
        "rasa_model_server",
        "recordings",
    }
)
_CALM_ONLY_KEYS = frozenset(
    {"nlg", "action_endpoint", "vector_store", "nlu", "interaction_handling"}
)
_AT_LOOKALIKES = tuple(
    (
        re.compile(rf"(?<![\w])@{kind}\.([\w-]+)(?![\w-])(?!\.[\w-])"),
        re.compile(rf"(?<![\w])@{kind}(?:\.[\w-]+)*(?![\w-])"),
    )
    for kind in ("skill", "block", "tool")
)


def rasa_errors(warnings: list[str]) -> list[str]:
    """The warnings that are errors of Rasa's project check (each refuses `rasa train`)."""
    return [w for w in warnings if _ERROR.search(w)]


def rasa_refusal(warnings: list[str]) -> dict[str, Any] | None:
    """What a command says when Rasa would refuse the project (None when it would not):
    how many errors, which rules' version, and the sentence to print."""
    count = len(rasa_errors(warnings))
    if not count:
        return None
    noun = "error" if count == 1 else "errors"
    return {
        "errors": count,
        "rules": f"rasa-pro {RASA_RULES_VERSION}",
        "message": f"rasa train would refuse this project: {count} {noun} "
        f"(rasa-pro {RASA_RULES_VERSION} rules); see casegen sources",
    }


def rasa_message(code: str, message: str, severity: str = "error") -> str:
    """A finding of Rasa's project check as casegen words it (what `rasa_errors` reads)."""
    return f"rasa {severity} [{code}] {message} {_TAG}"


class _Report:
    """Writes findings as project warnings in the one form `rasa_errors` reads."""

    def __init__(self, ctx: ReadContext) -> None:
        self.ctx = ctx
        self._lines: dict[Path, list[str]] = {}
        self._raw: dict[Path, Any] = {}

    def raw(self, path: Path) -> Any:
        """The file as Rasa's `read_yaml_file` reads it (YAML 1.2), once per check; None when
        it is absent or unreadable (several rules read agent.yml and integrations.yml)."""
        if path not in self._raw:
            self._raw[path] = _raw(path, self.ctx.limits(path)) if path.is_file() else None
        return self._raw[path]

    def line_of(self, path: Path, needle: str, *, key: bool = False) -> int | None:
        """The first line of `path` holding `needle` (`key`: a line that starts with the
        top-level key `needle:`), for a rule that knows what but not where; None when
        casegen did not read the file or the text is not there."""
        if path not in self._lines:
            text = None
            if self.ctx.rel(path) in self.ctx.hashes:
                try:
                    text = path.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    text = None
            self._lines[path] = text.splitlines() if text is not None else []
        for number, line in enumerate(self._lines[path], 1):
            if line.startswith(f"{needle}:") if key else needle in line:
                return number
        return None

    def __call__(
        self, path: Path, line: int | None, code: str, message: str, severity: str = "error"
    ) -> None:
        self.ctx.warn(path, line, rasa_message(code, message, severity))


def apply_rasa_rules(ctx: ReadContext, defs: MantleDefinitions) -> None:
    """Report what Rasa's project check reports and drop the skills Rasa does not load."""
    report = _Report(ctx)
    root = ctx.root
    dropped: list[Skill] = []
    for skill_id, skill in list(defs.skills.items()):
        problem = load_error(skill, ctx.limits(root / skill.path / "skill.md"))
        if problem is not None:
            report(
                root / skill.path / "skill.md",
                None,
                "mantle.validation.skill.failed_to_load",
                f"Skill directory 'skills/{skill_id}' failed to load and would be silently "
                f"skipped: {problem}. casegen plans no cases for it.",
            )
            dropped.append(defs.skills.pop(skill_id))
    _memory_descriptions(report, root, defs)
    everyone = _readable_everywhere(defs)
    for skill in defs.skills.values():
        _links_and_calls(report, root, skill, defs)
        _prose_rules(report, root, skill, defs, everyone)
    _response_conditions(report, root, defs, dropped, everyone)
    _tool_references(report, root, defs)
    _tool_memory_writes(report, root, defs)
    _integrations(report, root)
    _agent(report, root)


# --- memory (rasa/mantle/memory/validation.py) -------------------------------------------


def _nonempty(text: Any) -> bool:
    return isinstance(text, str) and bool(text.strip())


def _collect_descriptions(skill: Skill) -> dict[str, list[tuple[str, Any]]]:
    """Collect steps by the entry they fill, in document order: (step id, description)."""
    out: dict[str, list[tuple[str, Any]]] = {}
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "collect" and isinstance(step.target, str):
                out.setdefault(step.target, []).append((step.id, step.fields.get("description")))
    return out


def _memory_descriptions(report: _Report, root: Path, defs: MantleDefinitions) -> None:
    """A description only where the model can set the field (`llm_settable` or filled by a
    collect step); such a field needs one. Project fields take none."""
    for skill in defs.skills.values():
        collects = _collect_descriptions(skill)
        for name, field in skill.memory.items():
            path = root / skill.path / "memory.yml"
            line = field.source.line if field.source else None
            can_set = field.llm_settable is True or name in collects
            if not can_set and _nonempty(field.description):
                report(
                    path,
                    line,
                    "mantle.validation.memory.description_not_exposed",
                    f"Memory field {name!r} in skill {skill.id!r} declares a description but "
                    "is neither llm_settable nor collect-owned; remove the description or "
                    "mark the field settable.",
                )
            steps = collects.get(name, [])
            winning = steps[-1][1] if steps else None
            if can_set and not _nonempty(winning) and not _nonempty(field.description):
                report(
                    path,
                    line,
                    "mantle.validation.memory.description_required",
                    f"Memory field {name!r} in skill {skill.id!r} can be set by the model but "
                    "has no description (on the memory field or the collect step that fills it).",
                )
    for name, field in defs.memory.items():
        if _nonempty(field.description):
            report(
                root / "memory.yml",
                field.source.line if field.source else None,
                "mantle.validation.memory.description_not_exposed",
                f"Project memory field {name!r} declares a description; the model cannot set "
                "project fields, so it is never shown. Remove the description.",
            )


def _readable(defs: MantleDefinitions, skill_id: str | None, everyone: set[str]) -> set[str]:
    """Memory readable while `skill_id` is active (None: from every skill): `everyone`
    (`_readable_everywhere`) and the skill's own fields."""
    own = defs.skills.get(skill_id) if skill_id is not None else None
    if own is None:
        return everyone
    return everyone | {f"{own.id}.{name}" for name in own.memory}


def _readable_everywhere(defs: MantleDefinitions) -> set[str]:
    """Memory readable from every skill: the project's fields and every skill's public
    ones (bundled defaults included). Made once per check: per skill it grew with the
    skills."""
    readable = {f"project.{name}" for name in defs.memory}
    for default_id, names in DEFAULT_SKILL_PUBLIC_MEMORY.items():
        if default_id not in defs.skills:
            readable |= {f"{default_id}.{name}" for name in names}
    for other in defs.skills.values():
        readable |= {
            f"{other.id}.{name}"
            for name, field in other.memory.items()
            if field.visibility == "public"
        }
    return readable


# --- links and calls (validate_links_and_calls) --------------------------------------------


def _links_and_calls(report: _Report, root: Path, skill: Skill, defs: MantleDefinitions) -> None:
    """`call:`/`link:` must start another skill: not its own skill, not one of its own
    blocks when the skill has prose (its blocks are then internal), not an unknown id."""
    path = root / skill.path / "skill.md"
    has_prose = bool(_segments(skill))
    known = set(defs.skills) | set(DEFAULT_SKILL_PUBLIC_MEMORY)
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind not in ("call", "link") or not isinstance(step.target, str):
                continue
            target, keyword = step.target, step.kind
            where = f"Step {step.id!r} in skill {skill.id!r} uses '{keyword}: {target}'"
            if target == skill.id:
                report(
                    path,
                    step.line,
                    "mantle.validation.skill.self_skill_not_callable",
                    f"{where}: an ordered block cannot call or link the skill that contains it.",
                )
            elif target in skill.blocks:
                if has_prose:
                    report(
                        path,
                        step.line,
                        "mantle.validation.flow.internal_not_callable",
                        f"{where}, but {target!r} is another ordered block in the same skill; "
                        "use call/link only to start a different skill.",
                    )
            elif target not in known:
                report(
                    path,
                    step.line,
                    f"mantle.validation.flow.unresolved_{keyword}",
                    f"{where}, but no skill with that id exists in the project or the "
                    "bundled default skills.",
                )


# --- prose (rasa/mantle/skills/validation.py) ----------------------------------------------


def _segments(skill: Skill) -> tuple[tuple[str | None, str], ...]:
    try:
        return prose_segments(skill.body)
    except ValueError:  # a skill Rasa does not load was dropped before the rules run
        return ()


def _instruction_texts(skill: Skill) -> list[str]:
    """What the model reads as instructions: prose paragraphs and `instructions:` steps."""
    texts = [text for _condition, text in _segments(skill)]
    for block in skill.blocks.values():
        texts += [s.target for s in block.steps if s.kind == "instructions" and s.target]
    return [t for t in texts if isinstance(t, str)]


def _prose_rules(
    report: _Report, root: Path, skill: Skill, defs: MantleDefinitions, everyone: set[str]
) -> None:
    path = root / skill.path / "skill.md"
    readable = _readable(defs, skill.id, everyone)
    segments = _segments(skill)
    for condition, _text in segments:
        if condition is None:
            continue
        for key in sorted(memory_keys(condition) - readable):
            report(
                path,
                report.line_of(path, f"if: {condition}"),
                "mantle.validation.prose.unknown_memory_key",
                f"Skill {skill.id!r} has a prose 'if:' condition reading memory {key!r}, which "
                "is not readable while this skill is active (own fields, other skills' public "
                "fields, project memory).",
            )
    prose = "\n".join(text for _condition, text in segments)
    for target in dict.fromkeys(_SKILL_REF.findall(prose)):
        other = defs.skills.get(target)
        if other is not None and other.hidden:
            report(
                path,
                report.line_of(path, f"@skill.{target}"),
                "skill.prose.hidden_skill_reference",
                f"Skill {skill.id!r} references hidden skill {target!r} via '@skill.{target}' "
                "in prose; hidden skills cannot be started from routing (use a call: or link: "
                "step).",
            )
    texts = _instruction_texts(skill)
    seen: set[str] = set()
    for text in texts:
        for match in _SESSION_REF.finditer(text):
            ref = f"session.{match[1]}.{match[2]}"
            if ref not in seen:
                seen.add(ref)
                report(
                    path,
                    report.line_of(path, ref),
                    "mantle.validation.prose.session_reference_in_instructions",
                    f"Skill {skill.id!r} contains {ref!r} in instruction prose; 'session.*' is "
                    "not substituted there. Write '@memory.<namespace>.<entry>' for a live "
                    "value, or move it into an 'if:' condition.",
                )
        for match in _MEMORY_REF.finditer(text):
            key = f"{match[1]}.{match[2]}"
            if key not in readable and key not in seen:
                seen.add(key)
                report(
                    path,
                    report.line_of(path, f"@memory.{key}"),
                    "mantle.validation.prose.unknown_memory_reference",
                    f"Skill {skill.id!r} references '@memory.{key}' in instruction prose, but "
                    "that memory is not readable while this skill is active.",
                )
        for token in _incomplete_tokens(text):
            if token not in seen:
                seen.add(token)
                code = "memory" if token.startswith("@memory") else "at"
                report(
                    path,
                    report.line_of(path, token),
                    f"mantle.validation.prose.incomplete_{code}_reference",
                    f"Skill {skill.id!r} contains {token!r} in instruction prose; it is left "
                    "as literal text (write '@memory.<namespace>.<entry>', '@skill.<id>', "
                    "'@block.<id>' or '@tool.<name>').",
                )


def _incomplete_tokens(text: str) -> list[str]:
    """`@memory`, `@skill`, `@block`, `@tool` look-alikes Rasa does not substitute."""
    found = []
    complete = {m.group(0) for m in _MEMORY_REF.finditer(text)}
    found += [m.group(0) for m in _MEMORY_LOOKALIKE.finditer(text) if m.group(0) not in complete]
    for whole, lookalike in _AT_LOOKALIKES:
        complete = {m.group(0) for m in whole.finditer(text)}
        found += [m.group(0) for m in lookalike.finditer(text) if m.group(0) not in complete]
    return list(dict.fromkeys(found))


# --- responses (rasa/mantle/content/validation.py) -----------------------------------------


def _response_conditions(
    report: _Report, root: Path, defs: MantleDefinitions, dropped: list[Skill], everyone: set[str]
) -> None:
    """A response variant's `condition` and `set:` button payloads name only memory
    readable where it is delivered: the skill's own for a skill response, every skill's for
    a project response. Rasa checks every responses.yml, a dropped skill's too (whose own
    memory is then unknown)."""
    scopes: list[tuple[str | None, Path, dict[str, Any]]] = [
        (None, root / "responses.yml", defs.responses)
    ]
    scopes += [
        (s.id, root / s.path / "responses.yml", s.responses)
        for s in [*defs.skills.values(), *dropped]
    ]
    for skill_id, path, responses in scopes:
        readable = _readable(defs, skill_id, everyone)
        where = f"while skill {skill_id!r} is active" if skill_id else "from every skill"
        for response in responses.values():
            line = response.source.line if response.source else None
            for index, variant in enumerate(response.variants):
                keys = [
                    (key, "condition reads")
                    for key in sorted(memory_keys(variant.condition))
                    if isinstance(variant.condition, str)
                ]
                for button in variant.buttons:
                    key = _set_payload_key(button.payload)
                    if key is not None:
                        keys.append((key, f"button {button.title!r} sets"))
                for key, what in keys:
                    if key in readable and not key.startswith("system."):
                        continue
                    report(
                        path,
                        line,
                        "mantle.validation.response.unknown_memory_key",
                        f"Response {response.name!r} variant {index} {what} memory {key!r}, "
                        f"which is not readable {where}.",
                    )


def _set_payload_key(payload: str | None) -> str | None:
    """The memory key of a `set:session.<namespace>.<entry>=<value>` button payload."""
    if not payload or not payload.startswith("set:session.") or "=" not in payload:
        return None
    namespace, dot, entry = payload[len("set:session.") :].partition("=")[0].strip().partition(".")
    return f"{namespace}.{entry}" if dot and namespace and entry and "." not in entry else None


# --- tools (rasa/mantle/tools/validation.py) -----------------------------------------------


def _tool_references(report: _Report, root: Path, defs: MantleDefinitions) -> None:
    """Every tool a skill names (gates, `execute_tool` steps, `@tool.x` in instructions)
    must be a local tool, an imported shared tool or an imported MCP tool."""
    for skill in defs.skills.values():
        mcp = {n.rpartition(":")[2] for n in skill.import_tools if n.startswith("mcp/")}
        shared_imports = [n for n in skill.import_tools if not n.startswith("mcp/")]
        gates = set(shared_imports) | mcp | set(skill.tool_constraints)
        executes: set[str] = set()
        for block in skill.blocks.values():
            gates |= set(block.tools)
            executes |= {
                s.target
                for s in block.steps
                if s.kind == "execute_tool" and isinstance(s.target, str)
            }
        prose = {m for text in _instruction_texts(skill) for m in _TOOL_REF.findall(text)}
        referenced = gates | executes | prose
        declared = (gates - mcp) | set(shared_imports)
        available = set(skill.tools) | (set(defs.shared_tools) & declared) | mcp
        unresolved = referenced - available
        unresolved -= (prose & FRAMEWORK_TOOLS) - (gates | executes)
        unresolved -= {n for n in _EXECUTE_ONLY_TOOLS & executes if n not in prose | gates}
        for name in sorted(unresolved):
            context = " in instruction prose" if name in prose else ""
            path = root / skill.path / "skill.md"
            report(
                path,
                report.line_of(path, f"@tool.{name}" if name in prose else name),
                "mantle.validation.tools.unresolved_tool",
                f"Skill {skill.id!r} references tool {name!r}{context}, but no local @tool "
                "function, imported shared tool or imported MCP tool of that name is visible "
                "while this skill is active.",
            )


def _tool_memory_writes(report: _Report, root: Path, defs: MantleDefinitions) -> None:
    """A literal `<context>.memory.set("<entry>", ...)` in a tool module writes a declared
    entry: the owning skill's or the project's (any skill's for a shared module)."""
    project = set(defs.memory)
    by_skill = {s.id: set(s.memory) for s in defs.skills.values()}
    every = set().union(*by_skill.values()) if by_skill else set()
    files: list[tuple[Path, str | None]] = []
    for skill in defs.skills.values():
        folder = root / skill.path
        files += [(folder / "tools.py", skill.id)] if (folder / "tools.py").is_file() else []
        files += [(p, skill.id) for p in sorted((folder / "tools").glob("*.py"))]
    files += [(p, None) for p in sorted((root / "tools").glob("*.py"))]
    for path, owner in files:
        if path.name == "__init__.py":
            continue
        owned = by_skill[owner] if owner else every
        for entry, line in _memory_set_literals(report.ctx, path):
            if not _declared_write(entry, owner, owned, project, by_skill):
                report(
                    path,
                    line,
                    "mantle.validation.tools.undeclared_memory_write",
                    f"A tool writes undeclared memory entry {entry!r} via memory.set(...); "
                    "declare it in the skill's memory.yml schema or the project memory.yml, "
                    "or Rasa rejects the write at runtime.",
                )


def _declared_write(
    entry: str, owner: str | None, owned: set[str], project: set[str], by_skill: dict[str, set[str]]
) -> bool:
    namespace, dot, rest = entry.partition(".")
    if not dot:
        return entry in owned | project
    if namespace == "project":
        return rest in project
    if namespace == "system":
        return False
    if namespace not in by_skill:
        return entry in owned | project
    if owner is not None and namespace != owner:
        return False
    return rest in by_skill[namespace]


def _memory_set_literals(ctx: ReadContext, path: Path) -> list[tuple[str, int]]:
    """(entry, line) of each `<param>.memory.set("<entry>", ...)` call whose receiver is a
    parameter of the enclosing function (Rasa's `_memory_set_literals`), in a tool file
    casegen read (one too big or unreadable was warned about already). Kept between
    processes by the file's text, as the tools a file defines are."""
    if ctx.rel(path) not in ctx.hashes:
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    key = text_key("rasa-memory-set", RASA_RULES_VERSION + "/1", text)
    kept = _valuecache.VALUES.get(key)  # looked up per call: tests swap the cache
    if kept is None:
        kept = _scan_memory_sets(text)
        _valuecache.VALUES.put(key, kept)
    return [(str(entry), int(line)) for entry, line in kept]


def _scan_memory_sets(text: str) -> list[tuple[str, int]]:
    try:
        tree = parsed_module(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []  # the tool reader already says why the file is not read
    found: list[tuple[str, int]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = function.args
        params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        for node in _own_nodes(function):
            func = node.func if isinstance(node, ast.Call) else None
            if not (isinstance(func, ast.Attribute) and func.attr == "set"):
                continue
            holder = func.value
            if not (isinstance(holder, ast.Attribute) and holder.attr == "memory"):
                continue
            if not (isinstance(holder.value, ast.Name) and holder.value.id in params):
                continue
            assert isinstance(node, ast.Call)
            entry = (
                node.args[0]
                if node.args
                else next((k.value for k in node.keywords if k.arg == "entry"), None)
            )
            if isinstance(entry, ast.Constant) and isinstance(entry.value, str):
                found.append((entry.value, node.lineno))
    return sorted(found, key=lambda item: item[1])


def _own_nodes(function: ast.AST) -> list[ast.AST]:
    """The nodes of `function`'s body, without those of functions nested in it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


# --- agent.yml and integrations.yml (rasa/mantle/config/validation.py) ---------------------


def _raw(path: Path, limits: InputLimits | None = None) -> Any:
    """The file as Rasa's `read_yaml_file` reads it (YAML 1.2), or None when unreadable."""
    doc = load_document(path, limits=limits)
    return doc.data if doc.parsed else None


def _integrations(report: _Report, root: Path) -> None:
    path = root / "integrations.yml"
    if not path.is_file():
        report(
            path,
            None,
            "mantle.validation.config.missing_integrations",
            "'integrations.yml' is required for a Mantle project.",
        )
        return
    raw = report.raw(path)
    if not isinstance(raw, dict):
        return
    if "llm" in raw:
        report(
            path,
            report.line_of(path, "llm", key=True),
            "mantle.validation.config.unexpected_llm",
            "'integrations.yml' must not contain an 'llm:' section: name the orchestrator's "
            "model group in agent.yml ('orchestrator.model_group') and declare it under "
            "'model_groups:'.",
        )
    if "models" in raw:
        report(
            path,
            report.line_of(path, "models", key=True),
            "mantle.validation.config.invalid_model_server",
            "'integrations.yml' must not contain a top-level 'models:' section; the remote "
            "model server is 'rasa_model_server:'.",
        )
    for key in raw:
        if key in _INTEGRATION_KEYS or key in ("llm", "models"):
            continue
        code = "unsupported" if key in _CALM_ONLY_KEYS else "unknown"
        report(
            path,
            report.line_of(path, str(key), key=True),
            f"mantle.validation.config.{code}_integration_key",
            f"'integrations.yml' has a top-level key '{key}' Mantle does not accept "
            f"(allowed: {', '.join(sorted(_INTEGRATION_KEYS))}).",
        )


def _agent(report: _Report, root: Path) -> None:
    path = root / "agent.yml"
    if not path.is_file():
        report(
            path,
            None,
            "mantle.validation.config.missing_agent_yml",
            "'agent.yml' is required at the project root.",
        )
        return
    raw = report.raw(path)
    if not isinstance(raw, dict):
        report(
            path,
            None,
            "mantle.validation.config.invalid_agent_yml",
            "'agent.yml' must contain a YAML mapping.",
        )
        return
    agent = raw.get("agent")
    if not isinstance(agent, dict):
        report(
            path,
            None,
            "mantle.validation.config.missing_agent_section",
            "'agent.yml' must contain an 'agent:' section with 'persona' (and optionally "
            "'id', 'language').",
        )
        return
    problem = None
    persona = agent.get("persona")
    orchestrator = raw.get("orchestrator")
    if not isinstance(persona, str) or not persona.strip():
        problem = "'agent.persona' must be a non-empty string."
    elif not isinstance(orchestrator, dict):
        problem = "'orchestrator.model_group' is required."
    elif not _nonempty(orchestrator.get("model_group")):
        problem = "'orchestrator.model_group' must be a non-empty string."
    if problem is not None:
        report(
            path,
            None,
            "mantle.validation.config.invalid_agent_section",
            f"Invalid agent configuration in agent.yml: {problem}",
        )
        return
    assert isinstance(orchestrator, dict)
    group = orchestrator["model_group"].strip()
    declared = _model_group_ids(report.raw(root / "integrations.yml"))
    if declared is not None and group not in declared:
        report(
            path,
            None,
            "mantle.validation.config.unknown_model_group",
            f"'orchestrator.model_group' in 'agent.yml' references model group '{group}', "
            "which is not declared under 'model_groups:' in 'integrations.yml'.",
        )


def _model_group_ids(raw: Any) -> set[str] | None:
    """Declared model group ids in integrations.yml as read (None when the section cannot
    be read: nothing to check)."""
    groups = raw.get("model_groups") if isinstance(raw, dict) else None
    if groups is None:
        return set()
    if not isinstance(groups, list):
        return None
    ids = set()
    for entry in groups:
        if not isinstance(entry, dict) or not _nonempty(entry.get("id")):
            return None
        ids.add(entry["id"].strip())
    return ids
