"""What a tool's code does, read with `ast` (never imported): memory writes and error results.

Tools state their memory writes only in code (`context.memory.set("card_blocked", True)`), so
every `*.memory.set("<key>", <value>)` call inside the tool's function is collected. A key
without a namespace belongs to the calling skill; `project.x` is project memory. The value is
kept when it is a literal. A tool's documented error results are `raise` statements, results
with an `error` key or `is_error=True`, and a docstring `Returns:`/`Raises:` line naming an
error or failure.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..._readbytes import read_text
from ...lexicon.en.tool_texts import ERROR_DOC as _ERROR_DOC
from ...lexicon.notation.python_source import DOCSTRING_RESULT as _DOCSTRING_RESULT
from .._memo import memoized
from .._model import Project, ToolDef
from .._tools_ast import parsed_module


class _Unknown:
    """A value only the running tool knows (an id, a label, a computed flag)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


@dataclass(frozen=True)
class Write:
    key: str
    """Unqualified as written (`card_blocked`) or `project.<key>`."""
    value: Any = UNKNOWN
    guarded: bool = False
    """Made only when a value of the key's name, or the value it writes, is there: the write
    sits under an `if` that tests it (`if inspection_date:`, `if row.get("inspection_date"):`,
    `if result.get("ts"): memory.set("last_message_ts", result["ts"])`), so a record or a
    result without one (`inspection_date: null`, a post no live service answered) leaves the
    key unset."""
    failure: bool = False
    """Made on the tool's error branch only: the write sits in an `if` body that returns an
    error result (`if not row: memory.set("claim_status", "5"); return {"error": …}`), so
    a call that finds its record never makes it."""
    source: str | None = None
    """The record field the value is read from (`rx["refills_left"]`, `row.get("par")`):
    the key holds what the record the tool finds holds in that field."""


@dataclass(frozen=True)
class Threshold:
    """A flag the tool writes from comparing number arguments of its own with a field of a
    data file's rows (`short = [s for s, n in counts.items() if n < int(pars[s]["par"])]`,
    then `memory.set("below_par", bool(short))`): which side of the rows' field the user's
    numbers are on decides the flag, and so the branch on it."""

    key: str
    """The flag, as written (`below_par`)."""
    field: str
    """The rows' field compared (`par`)."""
    op: str
    """`<`, `<=`, `>` or `>=`: the flag holds where an argument is `op` the field."""
    parameters: tuple[str, ...]
    """The number arguments compared (`whole_milk_gallons`, …)."""
    labels: tuple[tuple[str, str], ...] = ()
    """Argument -> the value a dict of the file maps its name to (`"whole_milk_gallons":
    "MLK-WHL-GAL"`): the row of that value is the one the argument is compared with."""


@dataclass(frozen=True)
class CodeFacts:
    writes: tuple[Write, ...] = ()
    errors: tuple[str, ...] = ()
    """Short descriptions of documented error results."""
    requires: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    """Values of a record's field the tool refuses to work without: `if int(claim_status)
    != 2: return {"error": …}` gives `("claim_status", (2,))` (a booking only for a claim
    in inspection status), so a case that expects it to work draws such a record."""
    codes: tuple[str, ...] = ()
    """The literal values of the `error` key of its error results (`"claim_not_found"`,
    `"invalid_date"`): what the code calls each way it refuses an input."""
    thresholds: tuple[Threshold, ...] = ()
    """Flags it writes from its number arguments against a data file's field (`Threshold`)."""
    chance: bool = False
    """The tool draws at random (`random.randint(10, 140)`): what it returns and writes, and
    so any branch on it, is up to chance in a real run; no case can fix it."""
    clock: bool = False
    """The tool compares the run's date or time with something (`date.today() < earliest`,
    `now.hour < 20` in a helper it calls, a data row's date against `datetime.now() - …`):
    what it returns and writes depends on when the case runs, which no case fixes."""
    compared: tuple[tuple[str, str], ...] = ()
    """(parameter, record key) for each argument the tool compares with a record's field,
    nested records included: `p["last"].lower() == last_name.strip().lower()` gives
    `("last_name", "last")`, so a caller is told the value that record key holds."""


def set_memory_keys(step: Any, skill_id: str, defs: Any = None) -> list[str]:
    """The memory slots a block's `set_memory` step writes, where the runtime puts them: a
    name with a namespace as written, a bare one through `qualify` (a project field too);
    none for any other step."""
    if step.kind != "set_memory" or not isinstance(step.target, dict):
        return []
    return [k if "." in k else qualify(k, skill_id, defs) for k in map(str, step.target)]


def qualify(key: str, skill_id: str, defs: Any = None) -> str:
    """The memory slot a bare name written by `skill_id` lands in, as Rasa resolves it: the
    skill's own field when its memory.yml declares the name, else the project's field of
    that name (`context.memory.set("username", …)` in a skill with no `username` writes
    `project.username`), else the skill's (`defs`: the project's definitions; without them,
    the skill's)."""
    if key.startswith(("project.", "system.")):
        return key
    if defs is not None and "." not in key:
        skill = defs.skills.get(skill_id)
        declared = skill.memory if skill is not None else {}
        if key not in declared and key in defs.memory:
            return f"project.{key}"
    return f"{skill_id}.{key}"


def _is_memory(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "memory"


def _walk(root: ast.AST) -> list[ast.AST]:
    """Every node under `root`, in `ast.walk`'s order (breadth first), without its
    generators: the facts of every tool file of a project are read with it."""
    out: list[ast.AST] = []
    todo = deque([root])
    while todo:
        node = todo.popleft()
        out.append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                todo.append(value)
            elif isinstance(value, list):
                todo.extend(item for item in value if isinstance(item, ast.AST))
    return out


def _write_of(call: ast.AST) -> Write | None:
    """The memory write a `*.memory.set("<key>", <value>)` call makes (None for any other)."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None
    target = call.func
    if target.attr != "set" or not _is_memory(target.value) or not call.args:
        return None
    key = call.args[0]
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return None
    value: Any = UNKNOWN
    if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
        value = call.args[1].value
    source = record_field(call.args[1]) if len(call.args) > 1 else None
    return Write(key.value, value, source=source)


def record_field(node: ast.expr) -> str | None:
    """The field a value reads off a record, `rx["refills_left"]`, `row.get("par")`, also
    through `int(…)`/`str(…)` (None for anything else: a variable, a literal, a sum)."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Name):
        node = node.args[0]
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        key = node.args[0]
        if node.func.attr == "get" and isinstance(key, ast.Constant):
            return str(key.value)
    return None


def error_of(sub: ast.AST) -> str | None:
    """The documented error result a node of the function's code is (None for most)."""
    if isinstance(sub, ast.Raise) and sub.exc is not None:
        return "raises " + ast.unparse(sub.exc).split("(")[0]
    if isinstance(sub, ast.keyword) and sub.arg == "is_error":
        if isinstance(sub.value, ast.Constant) and sub.value.value is True:
            return "returns is_error=True"
    elif isinstance(sub, ast.Dict):
        keys = [k.value for k in sub.keys if isinstance(k, ast.Constant)]
        if "error" in keys:
            return "returns an 'error' result"
    return None


def _codes(sub: ast.AST) -> list[str]:
    """The literal `error` value of an error result dict (`{"error": "claim_not_found"}`)."""
    if not isinstance(sub, ast.Dict):
        return []
    return [
        v.value
        for k, v in zip(sub.keys, sub.values, strict=True)
        if isinstance(k, ast.Constant)
        and k.value == "error"
        and isinstance(v, ast.Constant)
        and isinstance(v.value, str)
        and v.value.strip()
    ]


def _tests_key(test: ast.expr, key: str) -> bool:
    """Whether an `if` test reads a value of the key's name: a variable, an attribute, a
    subscript or a `.get("<key>")` of it."""
    short = key.rsplit(".", 1)[-1]
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and node.id == short:
            return True
        if isinstance(node, ast.Attribute) and node.attr == short:
            return True
        if isinstance(node, ast.Constant) and node.value == short:
            return True
    return False


def _fields(node: ast.AST) -> set[str]:
    """The fields an expression reads off a record or result: `x["ts"]`, `x.get("ts")`,
    `x.ts` (not the `.get` itself, nor a bare variable such as `row`)."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant):
            out.add(str(sub.slice.value))
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            first = sub.args[0] if sub.func.attr == "get" and sub.args else None
            if isinstance(first, ast.Constant):
                out.add(str(first.value))
        elif isinstance(sub, ast.Attribute) and not isinstance(sub.ctx, ast.Store):
            out.add(sub.attr)
    return out - {"get", "memory", "set"}


def _guarded(call: ast.Call, key: str, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether `call` runs only under an `if` whose test reads the key's value, or a field
    of the value it writes (`if result.get("ts"): memory.set(..., result["ts"])`)."""
    written = _fields(call.args[1]) if len(call.args) > 1 else set()
    child, node = call, parents.get(call)
    while node is not None:
        tested = isinstance(node, ast.If) and child is not node.test
        if tested and (_tests_key(node.test, key) or written & _fields(node.test)):
            return True
        child, node = node, parents.get(node)
    return False


def _on_failure(call: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether `call` sits in an `if` branch that ends in an error result (see `Write`)."""
    child, node = call, parents.get(call)
    while node is not None and not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        if isinstance(node, ast.If) and child is not node.test:
            branch = node.body if child in node.body else node.orelse
            for stmt in branch:
                if isinstance(stmt, ast.Raise):
                    return True
                value = stmt.value if isinstance(stmt, ast.Return) else None
                if value is not None and any(error_of(sub) for sub in ast.walk(value)):
                    return True
        child, node = node, parents.get(node)
    return False


def _named(node: ast.expr) -> str | None:
    """The field a compared expression reads: `claim_status`, `int(claim_status)`,
    `row["claim_status"]`, `row.get("claim_status")`, `claim.claim_status`."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Name):
        node = node.args[0]  # int(x), str(x)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        key = node.args[0] if node.func.attr == "get" and node.args else None
        if isinstance(key, ast.Constant):
            return str(key.value)
    return None


def _required(node: ast.If) -> tuple[str, tuple[Any, ...]] | None:
    """`if <field> != <literal>:` (or `not in (<literals>)`) whose body ends in an error
    result: the field's values the tool works with (see `CodeFacts.requires`)."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    name = _named(test.left)
    right = test.comparators[0]
    if name is None:
        return None
    if isinstance(test.ops[0], ast.NotEq) and isinstance(right, ast.Constant):
        values: tuple[Any, ...] = (right.value,)
    elif isinstance(test.ops[0], ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        if not all(isinstance(e, ast.Constant) for e in right.elts):
            return None
        values = tuple(e.value for e in right.elts if isinstance(e, ast.Constant))
    else:
        return None
    refuses = any(
        isinstance(stmt, ast.Raise)
        or (
            isinstance(stmt, ast.Return)
            and stmt.value is not None
            and any(error_of(sub) for sub in ast.walk(stmt.value))
        )
        for stmt in node.body
    )
    return (name, values) if refuses else None


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_ORDER_OPS: dict[type, str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _thresholds(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    writes: list[tuple[ast.Call, Write]],
    labels: dict[str, str],
) -> list[Threshold]:
    """The flags of `node` written from its number arguments against a row's field (see
    `Threshold`): the written value is followed back through the function's assignments to
    a comparison of a record field with something the arguments feed."""
    numbers = {
        a.arg
        for a in (*node.args.args, *node.args.kwonlyargs)
        if isinstance(a.annotation, ast.Name) and a.annotation.id in ("int", "float")
    }
    if not numbers:
        return []
    assigned: dict[str, list[ast.expr]] = {}
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign):
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(sub.value)
    out: list[Threshold] = []
    for call, write in writes:
        if len(call.args) < 2 or write.value is not UNKNOWN or write.source:
            continue
        exprs: list[ast.expr] = [call.args[1]]
        seen: set[str] = set()
        todo = list(_names(call.args[1]))
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            for value in assigned.get(name, ()):
                exprs.append(value)
                todo.extend(_names(value))
        fed = tuple(sorted(numbers & seen))
        if not fed:
            continue
        for expr in exprs:
            for cmp in ast.walk(expr):
                if not (isinstance(cmp, ast.Compare) and len(cmp.ops) == 1):
                    continue
                op = _ORDER_OPS.get(type(cmp.ops[0]))
                left, right = record_field(cmp.left), record_field(cmp.comparators[0])
                if op is None or (left is None) == (right is None):
                    continue
                field = right or left
                assert field is not None
                oriented = op if right else _FLIPPED[op]
                named = tuple((p, labels[p]) for p in fed if p in labels)
                out.append(Threshold(write.key, field, oriented, fed, named))
    return list(dict.fromkeys(out))


def _labels(tree: ast.AST) -> dict[str, str]:
    """Every `"<name>": "<value>"` pair of a dict literal in a file (see `Threshold`)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and isinstance(key.value, str)
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    out.setdefault(key.value, value.value)
    return out


def _field_read(node: ast.expr) -> str | None:
    """The record key a side of a comparison reads, through method calls on it
    (`p["last"].lower()`, `str(row["pnr"]).strip()`)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
        node = node.func.value
    return record_field(node)


def _compared(
    node: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST]
) -> list[tuple[str, str]]:
    """(parameter, record key) of each comparison of a record's field with one argument,
    at once or through a name assigned from it (`wanted = pnr.strip().upper()`)."""
    params = {a.arg for a in [*node.args.args, *node.args.kwonlyargs]} - {"self", "context"}
    origin = {p: p for p in params}

    def sources(expr: ast.AST) -> set[str]:
        return {origin[n.id] for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in origin}

    for sub in nodes:
        if isinstance(sub, ast.Assign) and len(used := sources(sub.value)) == 1:
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    origin[target.id] = next(iter(used))
    out: list[tuple[str, str]] = []
    for sub in nodes:
        if not (isinstance(sub, ast.Compare) and len(sub.ops) == 1):
            continue
        for side, other in ((sub.left, sub.comparators[0]), (sub.comparators[0], sub.left)):
            key = _field_read(side)
            names = sources(other)
            if key is not None and len(names) == 1:
                out.append((names.pop(), key))
    return out


def _facts(
    node: ast.FunctionDef | ast.AsyncFunctionDef, labels: dict[str, str] | None = None
) -> CodeFacts:
    """Writes and errors of one function, from one walk of its code (in `ast.walk` order)."""
    writes: list[Write] = []
    calls: list[tuple[ast.Call, Write]] = []
    found: list[str] = []
    codes: list[str] = []
    nodes = _walk(node)
    parents = {c: p for p in nodes for c in ast.iter_child_nodes(p)}
    for sub in nodes:
        if isinstance(sub, ast.Call):
            write = _write_of(sub)
            if write is not None:
                guarded = _guarded(sub, write.key, parents)
                failure = _on_failure(sub, parents)
                if guarded or failure:
                    write = replace(write, guarded=guarded, failure=failure)
                writes.append(write)
                calls.append((sub, write))
        elif isinstance(sub, ast.Raise | ast.keyword | ast.Dict):
            error = error_of(sub)
            if error is not None:
                found.append(error)
                codes += _codes(sub)
    found += _doc_errors(node)
    requires = [r for n in nodes if isinstance(n, ast.If) for r in [_required(n)] if r]
    return CodeFacts(
        tuple(dict.fromkeys(writes)),
        tuple(dict.fromkeys(found)),
        tuple(dict.fromkeys(requires)),
        codes=tuple(dict.fromkeys(codes)),
        thresholds=tuple(_thresholds(node, calls, labels or {})),
        chance=any(_draws(n) for n in nodes),
        clock=_compares_clock(nodes),
        compared=tuple(dict.fromkeys(_compared(node, nodes))),
    )


#: `date.today()`, `datetime.now(…)`, `datetime.utcnow()`, `time.time()`: the run's clock.
_CLOCK_CALLS = frozenset(
    {("date", "today"), ("datetime", "today"), ("datetime", "now"), ("datetime", "utcnow")}
    | {("time", "time"), ("time", "monotonic")}
)


def _reads_clock(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    base = node.func.value
    owner = base.id if isinstance(base, ast.Name) else getattr(base, "attr", None)
    return (owner, node.func.attr) in _CLOCK_CALLS


def _compares_clock(nodes: list[ast.AST]) -> bool:
    """Whether a comparison of the function reads the clock, at once or through a name
    assigned from it (`now = datetime.now(...)`, `since = date.today() - timedelta(...)`)."""
    timed = {
        target.id
        for node in nodes
        if isinstance(node, ast.Assign) and any(_reads_clock(n) for n in ast.walk(node.value))
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return any(
        isinstance(node, ast.Compare)
        and any(
            _reads_clock(n) or (isinstance(n, ast.Name) and n.id in timed) for n in ast.walk(node)
        )
        for node in nodes
    )


#: Modules whose calls draw at random.
_CHANCE_MODULES = frozenset({"random", "secrets"})


def _draws(node: ast.AST) -> bool:
    """A call of the `random` module (`random.randint(…)`, `random.choice(…)`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in _CHANCE_MODULES
    )


def _doc_errors(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Error results the docstring's `Returns:` / `Raises:` section names."""
    found: list[str] = []
    doc = ast.get_docstring(node) or ""
    section = False
    for line in doc.splitlines():
        stripped = line.strip()
        if _DOCSTRING_RESULT.match(stripped):
            section = True
            rest = stripped.split(":", 1)[1].strip()
            if rest and _ERROR_DOC.search(rest):
                found.append(rest)
            continue
        if section and stripped and _ERROR_DOC.search(stripped):
            found.append(stripped)
        if section and not stripped:
            section = False
    return found


# Kept across loads of a project (the reference agent loads its own copy): with a tool file
# per skill, 128 texts were fewer than a project of 160 skills has, and a second load
# parsed and walked files again.
@lru_cache(maxsize=1024)
def _file_facts(text: str) -> dict[str, CodeFacts]:
    try:
        tree = parsed_module(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    out: dict[str, CodeFacts] = {}
    called: dict[str, set[str]] = {}
    labels = _labels(tree)
    for node in _walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out[node.name] = _facts(node, labels)
            called[node.name] = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
    for name, facts in out.items():
        # a helper of the same file that compares the clock (`if not _open_now():`)
        if not facts.clock and any(out[c].clock for c in called[name] if c in out):
            out[name] = replace(facts, clock=True)
    return out


def code_facts(project: Project, tool: ToolDef) -> CodeFacts:
    """Writes and error results of one tool's function (empty for MCP or unreadable files).

    Kept per loaded project and tool: a walk asks for every tool it runs."""
    if tool.source is None:
        return CodeFacts()
    key = ("code_facts", tool.source.file, tool.name)
    return memoized(project, key, lambda: _code_facts(project, tool))


def _code_facts(project: Project, tool: ToolDef) -> CodeFacts:
    text = tool_source(project, tool)
    if text is None:
        return CodeFacts()
    # kept per loaded project and text as well: a project with more tool files than the
    # parse cache holds parsed each file again for its next tool
    facts = memoized(project, ("file_facts", text), lambda: _file_facts(text))
    return facts.get(tool.name, CodeFacts())


def tool_source(project: Project, tool: ToolDef) -> str | None:
    """The text of the file that defines `tool` (None: an MCP tool, or unreadable)."""
    if tool.source is None:
        return None
    path = Path(tool.source.file)
    if not path.is_absolute():
        path = project.root / path
    return memoized(project, ("tool_source", str(path)), lambda: _read(path))


def _read(path: Path) -> str | None:
    """A tool file's text, read once per loaded project (planning asks per tool call)."""
    try:
        return read_text(path)
    except (OSError, UnicodeDecodeError):
        return None


def tool_keys(project: Project, tool: ToolDef, skill_id: str) -> dict[str, Any]:
    """Qualified key -> written value (or UNKNOWN) for a tool called on behalf of a skill.

    A fresh dict of pairs kept per loaded project, tool and skill (a walk asks for every
    tool it runs; a shared tool's keys are qualified by the skill that calls it)."""
    if tool.source is None:
        return {}
    key = ("tool_keys", tool.source.file, tool.name, skill_id)
    return dict(memoized(project, key, lambda: _qualified_writes(project, tool, skill_id)))


def _qualified_writes(
    project: Project, tool: ToolDef, skill_id: str
) -> tuple[tuple[str, Any], ...]:
    writes = code_facts(project, tool).writes
    # the error branch's writes are not the success's (the walk plays the tool's success;
    # its failure is played apart), and a write the row's value decides is no one's promise
    kept = [w for w in writes if not w.failure and not w.guarded]
    return tuple((qualify(w.key, skill_id, project.mantle), w.value) for w in kept)


__all__ = ["UNKNOWN", "CodeFacts", "Write", "code_facts", "qualify", "tool_keys"]
