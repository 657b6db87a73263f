"""Whether a tool's code acts on a service outside the agent, read with `ast` (never imported).

A case that runs such a tool does what the tool does for real wherever its credentials are
set: it posts the message, sends the mail, books the slot. Nothing in a skill's definitions
says so except the code, so the tool's function is read for calls on

- a network or service library the file imports (`httpx.post`, `requests.get`, `boto3`,
  `smtplib`, a vendor SDK), or a client object one of them builds (`httpx.AsyncClient()`);
- a client module or object the file imports from elsewhere, named as one (`slack_client`,
  `crm_api`, `payments_sdk`): a wrapper around such a library that the project keeps apart.

A call whose method starts with a verb that changes something (`post`, `send`, `create`,
`delete`, ...) *changes* the outside state; one that only reads (`list`, `get`, `search`)
does not. The credentials are the environment variables the file reads (`os.environ[...]`,
`os.getenv(...)`) or names in its strings that look like one (`SLACK_BOT_TOKEN`): where a
tool reads them, the same case runs against the real service once they are set.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ...lexicon.en.skill_prose_words import READ_VERBS as _READS
from .._memo import memoized
from .._model import Project, ToolDef
from .._tools_ast import parsed_module
from ..conditions import condition_keys
from ._code import error_of, qualify, tool_source
from ._text import sentences

#: Top-level modules that reach a service over the network (HTTP clients, mail, cloud and
#: vendor SDKs, message brokers). Not a model provider's SDK: a completion changes nothing
#: outside (`create` there is no side effect a test target could stand in for).
_LIBRARIES = frozenset(
    {
        "aiohttp",
        "azure",
        "boto3",
        "botocore",
        "discord",
        "ftplib",
        "github",
        "googleapiclient",
        "grpc",
        "http",
        "httpx",
        "jira",
        "msgraph",
        "paramiko",
        "pika",
        "requests",
        "sendgrid",
        "slack",
        "slack_bolt",
        "slack_sdk",
        "smtplib",
        "stripe",
        "telegram",
        "twilio",
        "urllib",
        "urllib3",
        "websockets",
    }
)
#: Of those, the ones that name no service (a transport, not a vendor).
_GENERIC = frozenset(
    {"aiohttp", "ftplib", "grpc", "http", "httpx", "paramiko", "pika", "requests", "smtplib"}
    | {"urllib", "urllib3", "websockets"}
)
#: How a module or object that wraps a service is named (`slack_client`, `crm_api`).
_CLIENT_SUFFIXES = ("client", "api", "sdk", "service", "gateway")
#: First words of a method that changes the outside state.
_CHANGES = frozenset(
    {
        "add",
        "book",
        "cancel",
        "charge",
        "create",
        "delete",
        "insert",
        "invite",
        "issue",
        "notify",
        "order",
        "patch",
        "pay",
        "post",
        "publish",
        "put",
        "refund",
        "remove",
        "reply",
        "schedule",
        "send",
        "sendmail",
        "send_message",
        "set",
        "submit",
        "transfer",
        "update",
        "upload",
        "upsert",
        "write",
    }
)
#: Words of a name that make an upper-case string a credential's environment variable.
_SECRET_WORDS = frozenset({"TOKEN", "KEY", "SECRET", "PASSWORD", "CREDENTIALS", "AUTH"})
_UPPER_NAME = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")


@dataclass(frozen=True)
class OutsideEffect:
    """A tool whose code calls a service outside the agent."""

    tool: str
    calls: tuple[str, ...]
    """The calls that reach it, as written (`slack_client.post_message`)."""
    changes: bool
    """Some call changes the outside state (posts, sends, creates); else it only reads."""
    credentials: tuple[str, ...] = ()
    """Environment variables the file reads or names (`SLACK_BOT_TOKEN`)."""
    service: str | None = None
    """The service, where the client's name says it (`slack_client` -> `slack`)."""
    reads: tuple[str, ...] = ()
    """The inputs the function reads: its parameters and the memory keys it gets
    (`context.memory.get("channel_id")`), unqualified as written."""
    resolves: tuple[str, ...] = ()
    """The inputs the service looks up, where the tool returns an error result when it
    finds nothing (`channel = await slack_client.resolve_channel(channel_id)`, then `if
    channel is None: return {"error": …}`): whether the service knows a value no case can
    tell, and on that result a correct agent asks for it again."""
    answered: tuple[str, ...] = ()
    """The memory keys (unqualified, as written) the function writes at or after its first
    call on the service: the value, or whether the write is made at all, rests on what the
    service answers (`order["order_number"]`, a flag set only on a busy reply), which no
    case can fix."""
    valued: tuple[str, ...] = ()
    """Of `answered`, the keys whose value is read off the answer (`response.json()[…]`,
    or a name assigned from it), not worked out from the case's own inputs and data
    (`bool(short)` of a list the code computed before it posts): which branch such a value
    takes is the service's to pick."""
    server: str | None = None
    """The MCP server the tool belongs to (None: a tool whose own code reaches the service)."""
    entered: str | None = None
    """The skill a case's detour enters that runs the tool, where the case itself asserts
    nothing of it (see `detour_effects`)."""

    def sentence(self) -> str:
        """One line a reviewer reads in the case file and the run's output."""
        act = "acts on" if self.changes else "reads from"
        where = f"the {self.service} service" if self.service else "a service outside the agent"
        where = f"the MCP server {self.server}" if self.server else where
        keys = f" ({', '.join(self.credentials)})" if self.credentials else ""
        via = f", where the run enters {self.entered}" if self.entered else ""
        return (
            f"{self.tool} {act} {where} ({', '.join(self.calls[:2])}): with its credentials "
            f"in the environment{keys}, running this case does that for real{via}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "service": self.service,
            "calls": list(self.calls),
            "changes": self.changes,
            "credentials": list(self.credentials),
            "server": self.server,
            "entered": self.entered,
        }


def outside_effect(project: Project, tool: ToolDef) -> OutsideEffect | None:
    """What `tool`'s code does outside the agent (None: nothing the code shows, or an MCP
    tool, whose server is the project's own concern). Kept per loaded project and tool."""
    if tool.source is None:
        return None
    key = ("outside_effect", tool.source.file, tool.name)
    return memoized(project, key, lambda: _effect(project, tool))


_ENV_NAME = re.compile(r"\$\{([A-Z][A-Z0-9_]*)\}")


def tool_effect(project: Project, tool: ToolDef) -> OutsideEffect | None:
    """What running `tool` does outside the agent: its code's calls (`outside_effect`), or
    for an MCP tool the server it is a tool of. No code of the project shows what an MCP
    tool does, so its name says whether it changes something: one that does not start with
    a verb that only reads (`page_responder`, `create_override`) is taken to, since a
    warning too many costs a reviewer a line and one too few a real page or booking."""
    if tool.scope != "mcp":
        return outside_effect(project, tool)
    if not tool.mcp_server:
        return None
    server = tool.mcp_server
    entry = _server_entry(project, server)
    credentials = tuple(dict.fromkeys(_ENV_NAME.findall(" ".join(map(str, entry.values())))))
    return OutsideEffect(
        tool=tool.name,
        calls=(f"mcp/{server}:{tool.name}",),
        changes=tool.name.lower().split("_")[0] not in _READS,
        credentials=credentials,
        server=server,
    )


def _server_entry(project: Project, server: str) -> dict[str, Any]:
    """The `mcp_servers` entry of integrations.yml for `server` (a list of `{name, url,
    token}` or a `{name: {...}}` map; empty when it has none)."""
    defs = project.mantle
    servers = defs.integrations.get("mcp_servers") if defs is not None else None
    if isinstance(servers, dict):
        entry = servers.get(server)
        return entry if isinstance(entry, dict) else {}
    for entry in servers if isinstance(servers, list) else []:
        if isinstance(entry, dict) and entry.get("name") == server:
            return entry
    return {}


def detour_effects(project: Project, skill_id: str) -> list[OutsideEffect]:
    """The outside effects of a run that detours into `skill_id` (a case about another
    skill, whose assertions name none of the detour's tools): each tool the skill runs
    whatever the request (`_runs`) that changes something outside, and of each skill a
    step of its blocks calls, the tools the
    called skill's prose runs on the caller's behalf (its sections whose `if:` reads the
    caller's memory; all of its tools that change something where it has none). The
    detour is played to its end, every confirmation taken."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return []
    out: list[OutsideEffect] = []
    seen: set[str] = set()
    for owner, names in [(skill_id, _runs(project, skill_id)), *_called(project, skill_id)]:
        for name, tool in defs.tools_for(owner).items():
            if (names is not None and name not in names) or name in seen:
                continue
            effect = tool_effect(project, tool)
            if effect is not None and effect.changes:
                seen.add(name)
                out.append(replace(effect, entered=skill_id))
    return out


def _runs(project: Project, skill_id: str) -> set[str]:
    """The tools the skill runs whatever the request: those a step of its blocks executes
    and those its prose names outside an `if:` section ("When intake_confirmed is true,
    call submit_samples"); a tool only one of its modes runs (`if: …mode == "pay"`) is
    not the detour's to run."""
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[skill_id]
    tools = set(defs.tools_for(skill_id))
    out = {
        str(step.target)
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "execute_tool"
    }
    for sentence in sentences(skill.body or ""):
        if sentence.condition is None:
            out |= {t for t in tools if re.search(rf"(?<![\w.]){re.escape(t)}\b", sentence.text)}
            out |= {t for t in tools if f"@tool.{t}" in sentence.text}
    return out & tools


def _called(project: Project, skill_id: str) -> list[tuple[str, set[str] | None]]:
    """(skill, the tools it runs for `skill_id`; None: any) of each skill a `call` step of
    `skill_id`'s blocks runs."""
    defs = project.mantle
    assert defs is not None
    caller = defs.skills[skill_id]
    out: list[tuple[str, set[str] | None]] = []
    for block in caller.blocks.values():
        for step in block.steps:
            target = str(step.target)
            if step.kind != "call" or target not in defs.skills or target == skill_id:
                continue
            tools = set(defs.tools_for(target))
            named: set[str] = set()
            for sentence in sentences(defs.skills[target].body or ""):
                keys = condition_keys(sentence.condition or "")
                if any(k.removeprefix("session.").startswith(f"{skill_id}.") for k in keys):
                    named |= {t for t in tools if f"@tool.{t}" in sentence.text}
            out.append((target, named or None))
    return out


def _effect(project: Project, tool: ToolDef) -> OutsideEffect | None:
    text = tool_source(project, tool)
    if text is None:
        return None
    facts = _module_facts(text)
    if facts is None:
        return None
    functions, services, credentials = facts
    function = functions.get(tool.name)
    if function is None:
        return None
    clients = dict(services)
    for node in ast.walk(function):  # `client = httpx.AsyncClient()`: the client reaches it too
        if isinstance(node, ast.Assign | ast.withitem):
            value = node.value if isinstance(node, ast.Assign) else node.context_expr
            targets = node.targets if isinstance(node, ast.Assign) else [node.optional_vars]
            root = _root(value.func) if isinstance(value, ast.Call) else None
            if root in services:
                for target in targets:
                    if isinstance(target, ast.Name):
                        clients[target.id] = services[root]
    calls: list[str] = []
    named: set[str | None] = set()
    changed: list[ast.Call] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        root = _root(node.func, through_calls=False)
        if root not in clients or node.func.attr[:1].isupper():  # a class: the client built
            continue
        changing = _changing(node.func.attr)
        # the calls that change something first: what a reviewer has to see
        calls.insert(len(changed) if changing else len(calls), ast.unparse(node.func))
        if changing:
            changed.append(node)
        named.add(clients[root])
    changes = bool(changed)
    if not calls:
        return None
    service = next(iter(named)) if len(named) == 1 else None
    return OutsideEffect(
        tool=tool.name,
        calls=tuple(dict.fromkeys(calls)),
        changes=changes,
        credentials=credentials,
        service=service,
        reads=_reads(function),
        resolves=_resolves(function, clients),
        answered=_answered(function, clients),
        valued=_valued(function, clients),
    )


def reported_fields(project: Project, skill_id: str) -> frozenset[str]:
    """The skill's own memory fields (qualified) whose value a service outside the agent
    decides: written by an outside tool's code from its answer (`OutsideEffect.answered`;
    not a field the model may set too), or described as what such a tool or its MCP server
    reports ("Order status as fulfilment reports it": a choice or a yes/no; an id "as
    list_cards returned it" is the customer's pick of what the service listed). No case
    can choose their value, so no case can play a branch on one; a field a `collect` step
    asks the user for is the user's, never one of these."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return frozenset()
    key = ("reported_fields", skill_id)
    return memoized(project, key, lambda: _reported(project, skill_id))


def _reported(project: Project, skill_id: str) -> frozenset[str]:
    defs = project.mantle
    assert defs is not None
    skill = defs.skills[skill_id]
    names: set[str] = set()
    found: set[str] = set()
    for name, tool in defs.tools_for(skill_id).items():
        effect = outside_effect(project, tool)
        if tool.scope != "mcp" and effect is None:
            continue
        names |= {name.lower(), name.lower().replace("_", " ")}
        names |= {tool.mcp_server.lower()} if tool.mcp_server else set()
        answered = {qualify(k, skill_id, defs) for k in (effect.answered if effect else ())}
        # a field the model may also set (the customer's pick from what the tool listed)
        # is the model's as much as the service's: only its description can say otherwise
        found |= {k for k in answered if not getattr(defs.memory_field(k), "llm_settable", False)}
    asked = {
        f"{skill_id}.{step.target}"
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "collect"
    }
    for field in defs.memory_in(skill_id):
        if not field.description:
            continue
        if field.type not in ("categorical", "bool"):
            continue
        text = field.description.lower()
        if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            found.add(field.qualified)
    return frozenset(k for k in found - asked if k.startswith(f"{skill_id}."))


def answer_writers(project: Project) -> dict[str, str]:
    """Key (qualified) -> the tool that changes something outside and writes it from the
    service's answer (`OutsideEffect.answered` of a call that posts, books, creates: the
    id of what it made, a flag on what it saved): whether that write went through no case
    decides. A lookup's answer is a fact the case's records hold (the customer's cards, a
    coworker's id): not one of these. Kept per loaded project."""
    defs = project.mantle
    if defs is None:
        return {}
    return memoized(project, ("answer_writers",), lambda: _answer_writers(project))


def _answer_writers(project: Project) -> dict[str, str]:
    defs = project.mantle
    assert defs is not None
    found: dict[str, str] = {}
    for skill_id in defs.skills:
        for name, tool in defs.tools_for(skill_id).items():
            effect = outside_effect(project, tool)
            if effect is not None and effect.changes:
                found.update({qualify(k, skill_id, defs): name for k in effect.answered})
    return found


def runtime_reads(project: Project, skill_id: str, tool: str) -> set[str]:
    """The qualified keys the runtime reads before it runs `tool` in `skill_id`: its
    `requires` and the parameters an `execute_tool` step passes it."""
    defs = project.mantle
    skill = defs.skills.get(skill_id) if defs is not None else None
    if skill is None:
        return set()
    constraint = skill.tool_constraints.get(tool)
    keys = set(condition_keys(constraint.requires or "")) if constraint is not None else set()
    for block in skill.blocks.values():
        for step in block.steps:
            parameters = step.fields.get("parameters")
            if step.kind == "execute_tool" and step.target == tool and isinstance(parameters, dict):
                keys |= {str(v) for v in parameters.values() if isinstance(v, str)}
    return {k.removeprefix("session.") for k in keys}


#: A tool file's functions by name, the names that reach a service, its credentials.
_ModuleFacts = tuple[
    dict[str, ast.FunctionDef | ast.AsyncFunctionDef], dict[str, str | None], tuple[str, ...]
]


@lru_cache(maxsize=256)
def _module_facts(text: str) -> _ModuleFacts | None:
    """What `_effect` reads of a tool file as a whole, once per file text (its tools share
    it; keyed by the text, as `_code._file_facts` is, not by a tree whose identity a new
    parse changes): each function by name (the first in `ast.walk` order), the names that
    reach a service (imports and the file's builders) and `_credentials`; None where the
    text does not parse. Read only by the callers."""
    try:
        module = parsed_module(text)
    except (SyntaxError, ValueError):
        return None
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.setdefault(node.name, node)
    services = _service_names(module)
    services.update(_builders(module, services))
    return functions, services, _credentials(module)


def _builders(module: ast.Module, services: dict[str, str | None]) -> dict[str, str | None]:
    """The file's own functions that return a client a service library builds (`def
    _pipeline(): return httpx.AsyncClient(...)`): a call of one builds that client too."""
    out: dict[str, str | None] = {}
    for node in module.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for sub in ast.walk(node):
            value = sub.value if isinstance(sub, ast.Return) else None
            root = _root(value.func) if isinstance(value, ast.Call) else None
            if root in services:
                out[node.name] = services[root]
    return out


def _outside_calls(
    function: ast.FunctionDef | ast.AsyncFunctionDef, clients: dict[str, str | None]
) -> list[ast.Call]:
    """The function's calls on a service client (not a class of it: the client built)."""
    return [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and _root(node.func, through_calls=False) in clients
        and not node.func.attr[:1].isupper()
    ]


def _first_line(
    function: ast.FunctionDef | ast.AsyncFunctionDef, clients: dict[str, str | None]
) -> int | None:
    """The line of the function's first call on the service (None: it makes none)."""
    lines = [c.lineno for c in _outside_calls(function, clients)]
    return min(lines) if lines else None


def _answered(
    function: ast.FunctionDef | ast.AsyncFunctionDef, clients: dict[str, str | None]
) -> tuple[str, ...]:
    """The keys of `*.memory.set("<key>", …)` calls at or after the first service call (see
    `OutsideEffect.answered`)."""
    first = _first_line(function, clients)
    if first is None:
        return ()
    keys = []
    for node in ast.walk(function):
        func = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(func, ast.Attribute) and func.attr == "set" and node.args):
            continue
        owner, key = func.value, node.args[0]
        memory = isinstance(owner, ast.Attribute) and owner.attr == "memory"
        if memory and isinstance(key, ast.Constant) and node.lineno >= first:
            keys.append(str(key.value))
    return tuple(dict.fromkeys(keys))


def _valued(
    function: ast.FunctionDef | ast.AsyncFunctionDef, clients: dict[str, str | None]
) -> tuple[str, ...]:
    """The keys of `*.memory.set("<key>", value)` calls whose value reads a service call's
    result, directly or through names assigned from it (see `OutsideEffect.valued`)."""
    calls = {id(c) for c in _outside_calls(function, clients)}
    carrying: set[str] = set()

    def reads_answer(node: ast.AST) -> bool:
        return any(
            id(sub) in calls or (isinstance(sub, ast.Name) and sub.id in carrying)
            for sub in ast.walk(node)
        )

    nodes = [n for n in ast.walk(function) if isinstance(n, ast.Assign | ast.AnnAssign)]
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if node.value is not None and reads_answer(node.value):
            carrying |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    keys = []
    for node in ast.walk(function):
        func = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(func, ast.Attribute) and func.attr == "set" and len(node.args) > 1):
            continue
        owner, key = func.value, node.args[0]
        memory = isinstance(owner, ast.Attribute) and owner.attr == "memory"
        if memory and isinstance(key, ast.Constant) and reads_answer(node.args[1]):
            keys.append(str(key.value))
    return tuple(dict.fromkeys(keys))


def _reads(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The function's parameters (not the runtime's `context`) and the memory keys it
    reads with `*.memory.get("<key>")`."""
    names = [a.arg for a in [*function.args.args, *function.args.kwonlyargs]]
    names = [n for n in names if n not in ("self", "context", "ctx")]
    for node in ast.walk(function):
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            owner = func.value
            first = node.args[0]
            memory = isinstance(owner, ast.Attribute) and owner.attr == "memory"
            if memory and isinstance(first, ast.Constant) and isinstance(first.value, str):
                names.append(first.value)
    return tuple(dict.fromkeys(names))


def _changing(method: str) -> bool:
    """Whether a client's method changes the outside state (`post_message`, `book`)."""
    method = method.lower()
    return method in _CHANGES or method.split("_")[0] in _CHANGES


def _resolves(
    function: ast.FunctionDef | ast.AsyncFunctionDef, clients: dict[str, str | None]
) -> tuple[str, ...]:
    """The inputs (see `OutsideEffect.resolves`) that reach a service call whose answer an
    `if` tests before returning an error result. An input reaches what is assigned from an
    expression that reads it (`name = channel_id.strip()`); a test of the input itself
    (`if not channel_id:`) checks that it was given, not that the service knows it."""
    inputs = set(_reads(function))
    carries: dict[str, set[str]] = {}  # local name -> the inputs its value comes from
    looked_up: dict[str, set[str]] = {}  # local name -> the inputs a service call looked up
    assigns = [n for n in ast.walk(function) if isinstance(n, ast.Assign | ast.AnnAssign)]
    for node in sorted(assigns, key=lambda n: (n.lineno, n.col_offset)):
        if node.value is None:
            continue
        sources = _sources(node.value, inputs, carries)
        calls = [  # a lookup: a call on a client that reads (one that posts or books is no
            # lookup of one input: its answer says whether the whole request went through)
            c
            for c in ast.walk(node.value)
            if isinstance(c, ast.Call)
            and isinstance(c.func, ast.Attribute)
            and _root(c.func, through_calls=False) in clients
            and not _changing(c.func.attr)
        ]
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                carries[name] = sources
                if calls and sources:
                    looked_up[name] = sources
    found: list[str] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.If):
            continue
        tested = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
        keys = set().union(*(looked_up.get(name, set()) for name in tested))
        if keys and any(_refuses(stmt) for stmt in node.body):
            found += sorted(keys)
    return tuple(dict.fromkeys(found))


def _sources(value: ast.expr, inputs: set[str], carries: dict[str, set[str]]) -> set[str]:
    """The inputs an expression's value comes from: an input read by name or with
    `*.memory.get("<key>")`, or a local name that carries some."""
    out: set[str] = set()
    for node in ast.walk(value):
        if isinstance(node, ast.Name):
            out |= {node.id} & inputs if node.id not in carries else carries[node.id]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, first = node.func.value, node.args[0] if node.args else None
            memory = isinstance(owner, ast.Attribute) and owner.attr == "memory"
            if memory and node.func.attr == "get" and isinstance(first, ast.Constant):
                out |= {str(first.value)} & inputs
    return out


def _refuses(stmt: ast.stmt) -> bool:
    """A `raise`, or a `return` of an error result (see `_code`)."""
    if isinstance(stmt, ast.Raise):
        return True
    value = stmt.value if isinstance(stmt, ast.Return) else None
    return value is not None and any(error_of(sub) for sub in ast.walk(value))


def _service_names(module: ast.Module) -> dict[str, str | None]:
    """Local name -> the service it reaches (None: a library that names none), for each
    import of a network library or of a client module."""
    out: dict[str, str | None] = {}
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                service = _service(alias.name)
                if service is not False:
                    out[local] = service or None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            for alias in node.names:
                service = _service(f"{base}.{alias.name}" if base else alias.name)
                if service is False and base:
                    service = _service(base)
                if service is not False:
                    out[alias.asname or alias.name] = service or None
    return out


def _service(dotted: str) -> str | bool | None:
    """The service a module reaches (`slack_client` -> `slack`), None for a library that
    names none (`httpx`), False for a module that reaches none."""
    parts = dotted.split(".")
    if parts[0] in _LIBRARIES:
        return None if parts[0] in _GENERIC else parts[0].split("_")[0]
    last = parts[-1].lower()
    for suffix in _CLIENT_SUFFIXES:
        if last.endswith(suffix) and last != suffix:
            stem = last.removesuffix(suffix).strip("_")
            return stem or None
    return False


def _root(node: ast.expr, *, through_calls: bool = True) -> str | None:
    """`a` of `a.b.c(...)`; without `through_calls`, None for a method of what a call
    returned (`requests.get(url).json`: the reply's, not the client's)."""
    kinds = (ast.Attribute, ast.Call) if through_calls else (ast.Attribute,)
    while isinstance(node, kinds):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else None


def _credentials(module: ast.Module) -> tuple[str, ...]:
    """Environment variables the file reads, and upper-case names in its strings made of a
    secret's words (`SLACK_BOT_TOKEN`, `API_KEY`)."""
    found: list[str] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Call) and _reads_environment(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(first.value)
        elif isinstance(node, ast.Subscript) and _reads_environment(node.value):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.append(node.slice.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for name in _UPPER_NAME.findall(node.value):
                if _SECRET_WORDS & set(name.split("_")):
                    found.append(name)
    return tuple(dict.fromkeys(found))


def _reads_environment(node: ast.expr) -> bool:
    """`os.environ`, `os.environ.get`, `os.getenv`."""
    text = ast.unparse(node)
    return text in ("os.environ", "os.environ.get", "os.getenv", "environ", "getenv")


__all__ = [
    "OutsideEffect",
    "answer_writers",
    "detour_effects",
    "outside_effect",
    "reported_fields",
    "runtime_reads",
    "tool_effect",
]
