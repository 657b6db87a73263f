"""Paths of input files an example program opens, written as string literals in its code (a
web page: `'path/to/your/file.html'`): the person running the example supplies that file, so
a task taken from the example needs one in its starter project."""

from __future__ import annotations

from .. import phrase

#: A quoted path of a web page in code, the path as group 2.
PAGE_LITERAL = phrase(
    "notation.input_paths.page_literal",
    r"(['\"])([^'\"\s{}]+\.html?)\1",
    matches=("path = os.path.abspath('path/to/your/file.html')", 'open("index.htm")'),
    misses=("page.goto(url)", "'https://example.org/'", "f'{name}.html'"),
)
