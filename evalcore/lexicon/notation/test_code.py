"""The shapes of automated test code in a code sample: a test declared by a test framework
(`test('...', ...)`, `it("...")`, `def test_...`, `describe(`) or an assertion on a result
(`expect(x).toBe(...)`, `assert ...`, `self.assertEqual(`). A skill whose samples are tests
teaches writing tests."""

from __future__ import annotations

import re

from .. import phrase

TEST_CODE = phrase(
    "notation.test_code.test_code",
    r"^\s*(?:test|it|describe)\(\s*['\"`]|^\s*(?:async\s+)?def\s+test_\w*\(|"
    r"\bexpect\(.*\)\.to\w*\(|^\s*assert\s|\bself\.assert[A-Z]\w*\(",
    re.M,
    matches=(
        "test('retries three times', async () => {",
        "def test_total():",
        "expect(result).toBe('ok');",
        "    assert total == 3",
    ),
    misses=("const result = await fetch(url);", "def total(items):", "print('test')"),
)
