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

#: A URL scheme named in prose or code ("using file:// URLs"), the scheme as group 1.
URL_SCHEME = phrase(
    "notation.input_paths.url_scheme",
    r"\b([a-z][a-z0-9+.-]*)://",
    matches=("using file:// URLs", "f'file://{path}'"),
    misses=("a local file", "C:\\pages"),
)

#: Code that builds a URL of a scheme without writing it out: Python's `Path.as_uri()`
#: (and JavaScript's `pathToFileURL`) make a `file://` URL.
SCHEME_BUILDERS: dict[str, str] = {"file": r"\.as_uri\(|\bpathToFileURL\("}

#: A call's keyword argument naming the file it writes (`path='/tmp/shot.png'`), the
#: extension as group 1.
OUTPUT_PATH_ARG = phrase(
    "notation.input_paths.output_path_arg",
    r"\bpath\s*=\s*['\"][^'\"]*?(\.[a-z0-9]+)['\"]",
    matches=("path='/tmp/inspect.png', full_page=True", 'path="out.pdf"'),
    misses=("path=out", "full_page=True"),
)
