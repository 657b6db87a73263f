"""Results batches for the report tests, and a small HTML tree parser to read the page.

The batches are real runs: examples/bank's generated card_replace cases against `demo:bank`
(all pass) and against `demo:bank?skip_confirmation` (the confirmation cases fail).
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from agentflows.cli import main

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "generated_cases" / "mantle" / "card_replace"
VOID = {"meta", "input", "br", "img", "link", "hr", "wbr", "source", "col", "area", "base"}


def run_batch(results: Path, target: str) -> Path:
    """Run the card_replace cases against `target` into `results`; the timestamp folder."""
    with (
        contextlib.redirect_stdout(io.StringIO()) as out,
        contextlib.redirect_stderr(io.StringIO()),
    ):
        args = ["run", str(CASES), "--target", target, "--model", "offline", "--json"]
        code = main([*args, "--results", str(results)])
    assert code in (0, 1), out.getvalue()
    return Path(json.loads(out.getvalue())["results_dir"])


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    contents: list[Node | str] = field(default_factory=list)
    """Children and text in document order."""

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.contents)

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str, **attrs: str) -> list[Node]:
        """Descendants with `tag` (or any tag for "*"); `class_` matches one class."""
        out = []
        for node in self.iter():
            if node is self or (tag != "*" and node.tag != tag):
                continue
            ok = True
            for key, value in attrs.items():
                if key == "class_":
                    ok &= value in node.attrs.get("class", "").split()
                else:
                    ok &= node.attrs.get(key.replace("_", "-")) == value
            if ok:
                out.append(node)
        return out

    def find(self, tag: str, **attrs: str) -> Node:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag} {attrs}>"
        return found[0]

    def ancestor(self, tag: str, class_: str | None = None) -> Node | None:
        node = self.parent
        while node is not None:
            if node.tag == tag and (class_ is None or class_ in node.attrs.get("class", "")):
                return node
            node = node.parent
        return None


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        self.stack[-1].contents.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.stack[-1].tag != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1].tag}>")
            while len(self.stack) > 1 and self.stack[-1].tag != tag:
                self.stack.pop()
        if len(self.stack) > 1:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].contents.append(data)


def parse_html(text: str) -> Node:
    """The page as a tree; fails on unbalanced tags (the page must be well nested)."""
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    assert not builder.errors, builder.errors[:5]
    assert builder.stack == [builder.root], [n.tag for n in builder.stack]
    return builder.root
