"""`python -m benchmarks architecture`: counts of the layout's known debts, read from the code.

Each count may only go down (`tests/test_architecture.py` holds the ceilings):

- **dialect branches**: comparisons with a dialect's name (`dialect == "mantle"`,
  `kind in ("anychat", "base44")`) and tables keyed by one, outside the dialect's own package
  (`evalcore/dialects/<name>/`): knowledge that belongs behind the registry;
- **private imports across packages**: `from evalcore.definitions._memo import ...` in a module
  that is not inside `evalcore.definitions`: a package's `_` modules are its own business;
- **English regexes**: `re.compile`/`re.search`/... patterns that spell English words, outside a
  lexicon package (there is none yet, so every one counts);
- **import circles**: groups of modules that import each other, counting imports made inside
  functions too (they hide a circle from the interpreter, not from a reader);
- **function-level imports**: imports made inside a function body; they exist only to keep
  something heavy off a command's start-up, and say so:
- **unexplained function-level imports**: those with no `# start-up: <what is heavy>` comment
  on the statement's lines (or the comment line right above it) and in a module whose
  docstring does not declare, in one sentence, that it defers its imports for start-up;
- **English word tables**: module-level tables of lower-case words outside a lexicon package
  (`STOP = frozenset({"a", "an", "the"})`): a set, frozenset, tuple or list literal (wrapped
  in `frozenset(...)`/`set(...)`/`tuple(...)` or not, nested tuples flattened, `|` unions of
  such), a dict's string keys with its values' strings (a word map, words by number, words
  by topic; a dict holding anything but constants and such tables is a structure),
  `"a an the".split()` (also of a module-level string named by the call), and a table
  computed from such words: a comprehension over one (`frozenset(stem(w) for w in (...))`)
  or a call with it, or with one string of words, as its only argument (`stems("a an")`).
  It counts where three or more strings are all lower-case words or short phrases of
  letters (inner spaces, hyphens or apostrophes allowed, surrounding spaces ignored) and one
  has three letters or more. The shape cannot tell an English word from a format's
  lower-case name, so tables of field names, statuses, kinds or commands (`{"name", "body",
  "tools"}`) count too; they may stay where they are, and hold the figure above zero. A
  table a function builds, or one read from a name imported from elsewhere, is not seen.

The counts are static (`ast`), so they are cheap and the same on every machine.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("agentflows", "evalcore")
DIALECTS = ("mantle", "anychat", "base44")
#: Where English phrase patterns may live once there is one home for them.
LEXICON_HOMES = ("evalcore.lexicon",)
#: The demo agents beside their examples (`demo:bank` is `examples/bank/demo_agent`): casegen's
#: own code, counted like the packages (module names `examples.<name>.demo_agent...`).
EXAMPLE_AGENTS = "examples/*/demo_agent"
#: Generated code: counted by its generator, not line by line.
GENERATED = ("evalcore._fastchecks",)
_RE_FUNCS = frozenset(
    {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
)


@dataclass
class Counts:
    dialect_branches: list[str] = field(default_factory=list)
    private_imports: list[str] = field(default_factory=list)
    english_regexes: list[str] = field(default_factory=list)
    circles: list[list[str]] = field(default_factory=list)
    function_imports: list[str] = field(default_factory=list)
    function_imports_unexplained: list[str] = field(default_factory=list)
    english_word_tables: list[str] = field(default_factory=list)
    modules: int = 0

    def figures(self) -> dict[str, int]:
        return {
            "modules": self.modules,
            "dialect_branches": len(self.dialect_branches),
            "private_imports": len(self.private_imports),
            "english_regexes": len(self.english_regexes),
            "circles": len(self.circles),
            "function_imports": len(self.function_imports),
            "function_imports_unexplained": len(self.function_imports_unexplained),
            "english_word_tables": len(self.english_word_tables),
        }


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def iter_modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> Iterator[tuple[str, Path]]:
    folders = [root / package for package in packages] + sorted(root.glob(EXAMPLE_AGENTS))
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            name = module_name(path, root)
            if not name.startswith(GENERATED):
                yield name, path


def _in_plugin(module: str) -> bool:
    """True inside a dialect's own package (`<pkg>.dialects.<name>`)."""
    parts = module.split(".")
    return any(a == "dialects" and b in DIALECTS for a, b in pairwise(parts))


def _within(module: str, homes: tuple[str, ...]) -> bool:
    return any(module == home or module.startswith(home + ".") for home in homes)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ImportFrom names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join([*base, *(node.module.split(".") if node.module else [])])


def _private_owner(target: str) -> str | None:
    """`evalcore.definitions` for `evalcore.definitions._memo` (the package whose private
    module it is); None when no part of the name is private."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def _english(pattern: str) -> bool:
    """True when a regex spells an English word (3+ letters outside escapes, group names
    and character classes)."""
    text = re.sub(r"\\.", " ", pattern)
    text = re.sub(r"\(\?P<\w+>|\(\?P=\w+\)|\(\?[a-zA-Z]+\)", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    return bool(re.search(r"[a-zA-Z]{3,}", text))


def _string(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string(node.left), _string(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return None


def _names_dialect(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in DIALECTS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_dialect(e) for e in node.elts)
    return False


_START_UP = re.compile(r"#.*\bstart-up\b", re.IGNORECASE)


def declares_start_up(docstring: str | None) -> bool:
    """True when a module docstring has a sentence saying that it defers imports for
    start-up (one declaration for a module that defers many)."""
    sentences = re.split(r"(?<=[.!?])\s+", docstring or "")
    return any(
        re.search(r"\bstart-up\b", s, re.IGNORECASE) and re.search(r"\bimport", s, re.IGNORECASE)
        for s in sentences
    )


def _explained(node: ast.stmt, lines: list[str]) -> bool:
    """A `# start-up` comment on the statement's lines or alone on the line above it."""
    end = getattr(node, "end_lineno", None) or node.lineno
    if any(_START_UP.search(line) for line in lines[node.lineno - 1 : end]):
        return True
    above = lines[node.lineno - 2].strip() if node.lineno >= 2 else ""
    return above.startswith("#") and bool(_START_UP.search(above))


class _Visitor(ast.NodeVisitor):
    def __init__(
        self,
        module: str,
        is_package: bool,
        where: str,
        counts: Counts,
        lines: list[str] | None = None,
        declared: bool = False,
    ) -> None:
        self.module, self.is_package, self.where, self.counts = module, is_package, where, counts
        self.lines, self.declared = lines or [], declared
        self.depth = 0
        self.imports: set[str] = set()

    def _place(self, node: ast.AST) -> str:
        return f"{self.where}:{getattr(node, 'lineno', 0)}"

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def _imported(self, node: ast.AST, targets: list[str], named: list[str]) -> None:
        """`targets`: what the graph follows; `named`: the modules the statement names."""
        if self.depth:
            self.counts.function_imports.append(self._place(node))
            if not self.declared and not _explained(node, self.lines):  # type: ignore[arg-type]
                self.counts.function_imports_unexplained.append(self._place(node))
        self.imports.update(targets)
        for target in named:
            owner = _private_owner(target)
            if owner is not None and not _within(self.module, (owner,)):
                self.counts.private_imports.append(f"{self._place(node)} {target}")

    def visit_Import(self, node: ast.Import) -> None:
        names = [alias.name for alias in node.names]
        self._imported(node, names, names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _resolve(self.module, self.is_package, node)
        # `from pkg import mod` imports the module `pkg.mod` where there is one (the graph
        # falls back to `pkg` where there is not); `from pkg import _mod` names a private
        # module (or name) of pkg as surely as `import pkg._mod`
        targets = sorted({f"{base}.{alias.name}" for alias in node.names})
        private = sorted({f"{base}.{a.name}" for a in node.names if a.name.startswith("_")})
        self._imported(node, targets, [base] if _private_owner(base) else private[:1])

    def visit_Compare(self, node: ast.Compare) -> None:
        if not _in_plugin(self.module) and any(
            _names_dialect(c) for c in [node.left, *node.comparators]
        ):
            self.counts.dialect_branches.append(self._place(node))
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        if not _in_plugin(self.module) and any(
            k is not None and _names_dialect(k) for k in node.keys
        ):
            self.counts.dialect_branches.append(self._place(node))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _RE_FUNCS
            and isinstance(func.value, ast.Name)
            and func.value.id == "re"
            and node.args
            and not _within(self.module, LEXICON_HOMES)
        ):
            pattern = _string(node.args[0])
            if pattern is not None and _english(pattern):
                self.counts.english_regexes.append(self._place(node))
        self.generic_visit(node)


#: A lower-case word or short phrase: letters, with inner spaces, hyphens or apostrophes.
_WORD = re.compile(r"[a-z]+(?:[-' ’][a-z]+)*")


def _table_strings(node: ast.AST, texts: dict[str, str]) -> list[str] | None:
    """The strings a table expression holds (None when it is not a table of strings only)."""
    if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
        return _table_strings(node.generators[0].iter, texts)  # the words it ranges over
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "split" and not node.args:
            base = func.value
            text = texts.get(base.id) if isinstance(base, ast.Name) else _string(base)
            return text.split() if text is not None else None
        if len(node.args) != 1 or node.keywords:
            return None
        # `frozenset(...)`, or a helper over one table or one string of words (`stems("a b")`)
        text = _string(node.args[0])
        return text.split() if text is not None else _table_strings(node.args[0], texts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _table_strings(node.left, texts), _table_strings(node.right, texts)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Dict):
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
        found = [k for k in keys if isinstance(k, str)]
        by_number = not found  # words by number: the values are the table
        for value in node.values:
            if isinstance(value, ast.Constant):
                if by_number and isinstance(value.value, str):
                    found.append(value.value)
                continue
            inner = None if isinstance(value, ast.Dict) else _table_strings(value, texts)
            if inner is None:
                return None  # a nested structure (a schema, rules), not a table of words
            found.extend(inner)
        return found
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        found: list[str] = []
        for element in node.elts:
            if isinstance(element, (ast.Tuple, ast.List)):
                inner = _table_strings(element, texts)
                if inner is None:
                    return None
                found.extend(inner)
            elif isinstance(element, ast.Constant) and isinstance(element.value, str):
                found.append(element.value)
            else:
                return None
        return found
    return None


def _word_table(strings: list[str] | None) -> bool:
    """Three or more lower-case words or phrases, one of three letters or more."""
    if not strings or len(strings) < 3:
        return False
    words = [s.strip() for s in strings]
    return all(_WORD.fullmatch(w) for w in words) and any(len(w) >= 3 for w in words)


def word_tables(tree: ast.Module) -> list[int]:
    """The lines of `tree`'s module-level English word tables (see the module docstring)."""
    texts: dict[str, str] = {}
    found: list[int] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not isinstance(target, ast.Name) or target.id.startswith("__"):
            continue
        text = _string(value)
        if text is not None:
            texts[target.id] = text
        elif _word_table(_table_strings(value, texts)):
            found.append(node.lineno)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of 2+ modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def measure(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> Counts:
    counts = Counts()
    graph: dict[str, set[str]] = {}
    for module, path in iter_modules(root, packages):
        counts.modules += 1
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        where = str(path.relative_to(root))
        declared = declares_start_up(ast.get_docstring(tree))
        lines = text.splitlines()
        visitor = _Visitor(module, path.name == "__init__.py", where, counts, lines, declared)
        visitor.visit(tree)
        graph[module] = visitor.imports
        if not _within(module, LEXICON_HOMES):
            counts.english_word_tables.extend(f"{where}:{line}" for line in word_tables(tree))
    known = set(graph)
    # an import of `pkg.name` where `name` is not a module imports `pkg`
    edges = {
        m: {t if t in known else t.rpartition(".")[0] for t in targets} & known - {m}
        for m, targets in graph.items()
    }
    counts.circles = circles(edges)
    return counts


async def main(argv: list[str]) -> int:
    """Print the counts (`--json`: with every place counted)."""
    counts = measure()
    if "--json" in argv:
        print(json.dumps({**counts.figures(), "places": counts.__dict__}, indent=2))
        return 0
    print("architecture (static counts; each may only go down)")
    for name, value in counts.figures().items():
        print(f"  {name:28} {value}")
    for group in counts.circles:
        print("  circle: " + " ⇄ ".join(group), file=sys.stdout)
    return 0


__all__ = ["Counts", "circles", "measure", "word_tables"]
