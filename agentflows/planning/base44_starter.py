"""The starter project a practice task is done on: a small Python module with one bug, one
missing function and one untested function, and a unittest suite that passes.

    files = STARTER_FILES            # path under the fixture's `project/` → text
    work = STARTER_WORK["bug_fix"]   # what the person asks, and how the result is checked

Python's own `unittest` runs the tests, so the project needs nothing installed and every
check is a `command-passes` whose command only imports the project's module and its tests.
Each kind of work is checked three ways, each of which a correct agent passes and an agent
that changes nothing fails at least once:

- `behaviour`: the module does what the person asked (literal, hand-derived values);
- the project's tests all pass (`RUN_TESTS`);
- `before`: the agent's tests FAIL when the code is put back the way it was (the old buggy
  function, the new function removed, the refactored function replaced by a stub): a test
  that catches the break exists, which is what a test written first and watched failing
  leaves behind. The starter's own tests pass on the old code, so only a new test fails it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MODULE = "cart.py"
RUN_TESTS = "python3 -m unittest"

STARTER_FILES: dict[str, str] = {
    "README.md": (
        "# cart\n\nAmounts of a shopping cart, in cents (`cart.py`).\n\n"
        "Run the tests with `python3 -m unittest` (they live in `tests/`).\n"
    ),
    MODULE: '''"""Amounts of a shopping cart, in cents."""


def subtotal(items):
    """The cost of `items`, a list of (price in cents, quantity) pairs."""
    total = 0
    for price, quantity in items:
        total += price
    return total


def apply_discount(amount, percent):
    """`amount` less `percent` per cent, rounded down to a whole cent."""
    return amount - amount * percent // 100


def receipt_line(name, cents):
    """One line of a receipt: the name and the amount in dollars ("Tea: $12.34")."""
    if cents < 0:
        dollars = str(-cents // 100)
        rest = str(-cents % 100).zfill(2)
        return name + ": -$" + dollars + "." + rest
    dollars = str(cents // 100)
    rest = str(cents % 100).zfill(2)
    return name + ": $" + dollars + "." + rest
''',
    "tests/__init__.py": "",
    "tests/test_cart.py": """import unittest

from cart import apply_discount, subtotal


class SubtotalTest(unittest.TestCase):
    def test_single_item(self):
        self.assertEqual(subtotal([(250, 1)]), 250)

    def test_empty_cart(self):
        self.assertEqual(subtotal([]), 0)


class DiscountTest(unittest.TestCase):
    def test_ten_percent(self):
        self.assertEqual(apply_discount(1000, 10), 900)
""",
}


#: Input files a task's example opens at a path the person supplies, by extension: the name
#: the prompt gives it and its text (a small page with a heading, a form and a link).
INPUT_FILES: dict[str, tuple[str, str]] = {
    ".html": (
        "page.html",
        """<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign up</title></head>
  <body>
    <h1>Sign up</h1>
    <form id="signup">
      <label>Name <input id="name" name="name"></label>
      <label>Email <input id="email" name="email" type="email"></label>
      <button type="submit">Join</button>
    </form>
    <p id="status"></p>
    <a href="terms.html">Terms</a>
    <script>
      document.getElementById("signup").addEventListener("submit", (event) => {
        event.preventDefault();
        document.getElementById("status").textContent = "Thanks!";
        console.log("signed up");
      });
    </script>
  </body>
</html>
""",
    ),
}
INPUT_FILES[".htm"] = INPUT_FILES[".html"]


@dataclass(frozen=True)
class InputJob:
    """What a person asks to be done on an input file, so a request names a concrete thing
    to do rather than the skill's task in the abstract, and how the code shows it did it."""

    request: str
    """One sentence, in the person's words."""
    about: str = ""
    """For a document the person points at (not a file the code opens): the sentence that
    says what the work is for; the request follows it."""
    subject: str = ""
    """For a document: what it describes, as a noun phrase ("the to-do API that ..."), so a
    request about work built on it (evaluations of a server) can name what was built."""
    done: str = ""
    """A regex the code matches when it checks what the request says to check."""
    done_says: str = ""


def endpoint_pattern(path: str) -> str:
    """A regex for code that calls an API path (`/todos`): with or without its leading slash,
    since a request helper joins `f"{BASE}/{endpoint}"` and is called with `"todos"`."""
    return r"['\"/]" + re.escape(path.lstrip("/")) + r"\b"


#: Documents a person points at when a task's words leave its subject abstract ("integrate
#: external APIs or services"): by kind of subject, the name and text of one concrete one.
SUBJECT_FILES: dict[str, tuple[str, str]] = {
    "api": (
        "api.md",
        """# To-do API

Base URL: `https://todo.example.com/v1`. Every request sends `Authorization: Bearer <token>`;
the token is in the `TODO_API_TOKEN` environment variable.

- `GET /todos?done=false&limit=20`: the to-dos, newest first:
  `[{"id": 7, "title": "Buy milk", "done": false}]`
- `POST /todos` with `{"title": "Call the plumber"}`: adds one and returns it with its `id`.
""",
    ),
}

#: The job of each input file (by its name in `INPUT_FILES`), from the file's own contents.
INPUT_JOBS: dict[str, InputJob] = {
    "page.html": InputJob(
        request=(
            "On it, fill in the sign-up form's Name and Email fields, press Join, and check "
            'that the page then says "Thanks!".'
        ),
        done=r"Thanks!|#status",
        done_says='checks the "Thanks!" the page shows after the form is sent (#status)',
    ),
    "api.md": InputJob(
        about="It's for the to-do API that `api.md` in this folder describes.",
        subject="the to-do API that `api.md` in this folder describes",
        request="Give it two tools: one that lists the open to-dos and one that adds a to-do.",
        done=endpoint_pattern("/todos"),
        done_says="calls the API's /todos endpoint that api.md describes",
    ),
}


@dataclass(frozen=True)
class Work:
    request: str
    """What the person asks, in their words (the module and function named)."""
    behaviour: str
    """Python statements (one line, no single quote: the shell quotes it whole) that raise
    unless the module does what was asked."""
    behaviour_says: str
    before: str
    """Python statements (one line) that put the module's old code back, in memory only."""
    before_says: str
    after: str = ""
    """Python statements (one line, no single quote) that raise unless the change asked for
    is in the code itself, where behaviour cannot tell (a refactoring leaves it as it was);
    "" when `behaviour` already tells."""
    after_says: str = ""


STARTER_WORK: dict[str, Work] = {
    "bug_fix": Work(
        request=(
            "There's a bug in `cart.py`: `subtotal()` ignores quantities, so `[(250, 2)]` "
            "comes to 250 cents instead of 500. Please fix it."
        ),
        behaviour=(
            "from cart import subtotal; assert subtotal([(250, 2)]) == 500; "
            "assert subtotal([(100, 3), (50, 1)]) == 350; assert subtotal([]) == 0"
        ),
        behaviour_says=(
            "subtotal() counts quantities: [(250, 2)] is 500, [(100, 3), (50, 1)] is 350"
        ),
        before="cart.subtotal = lambda items: sum(price for price, _ in items)",
        before_says="a test fails on the old subtotal() that ignored quantities (the bug is "
        "reproduced by a test)",
    ),
    "feature": Work(
        request=(
            "Please add a function `shipping(amount)` to `cart.py`: orders of 5000 cents or "
            "more ship free, smaller orders pay 499 cents."
        ),
        behaviour=(
            "from cart import shipping; assert shipping(5000) == 0; assert shipping(7250) == 0; "
            "assert shipping(4999) == 499; assert shipping(100) == 499"
        ),
        behaviour_says="shipping() is 0 from 5000 cents up and 499 below",
        before="del cart.shipping",
        before_says="a test fails when shipping() does not exist (the feature has a test)",
    ),
    "refactor": Work(
        request=(
            "`receipt_line()` in `cart.py` writes the dollar formatting twice, once for "
            "refunds (negative amounts). Please refactor it so the formatting is written "
            "once; what it returns must not change."
        ),
        behaviour=(
            'from cart import receipt_line as r; assert r("Tea", 1234) == "Tea: $12.34"; '
            'assert r("Refund", -505) == "Refund: -$5.05"; assert r("Gum", 7) == "Gum: $0.07"; '
            'assert r("Box", 0) == "Box: $0.00"'
        ),
        behaviour_says="receipt_line() returns what it returned before the refactoring",
        before="cart.receipt_line = lambda name, cents: None",
        before_says="a test fails when receipt_line() returns nothing (its behaviour is "
        "pinned by a test before it is refactored)",
        # The starter writes the cents arithmetic (`// 100`, `% 100`) twice in receipt_line
        # and once in apply_discount: 5 times; written once, the module has 3 at most (the
        # number alone: a 1000 or 10000 in a new docstring does not count).
        after=(
            "import inspect, re, cart; "
            'assert len(re.findall(r"\\b100\\b", inspect.getsource(cart))) <= 3'
        ),
        after_says="the dollar formatting is written once: the module no longer repeats "
        "the cents arithmetic of receipt_line() (5 uses of 100 before, 3 at most after)",
    ),
}


def behaviour_command(work: Work) -> str:
    """Single quotes: the shell expands nothing inside (`$12.34` stays text)."""
    return f"python3 -c '{work.behaviour}'"


def after_command(work: Work) -> str:
    """Single quotes, as `behaviour_command`."""
    return f"python3 -c '{work.after}'"


def before_command(work: Work) -> str:
    """The project's tests run with the old code put back: exit 0 when they FAIL."""
    return (
        f"python3 -c 'import sys, unittest, cart; {work.before}; "
        'result = unittest.main(module=None, argv=["unittest"], exit=False).result; '
        "sys.exit(0 if result.testsRun and not result.wasSuccessful() else 1)'"
    )


__all__ = [
    "INPUT_FILES",
    "INPUT_JOBS",
    "MODULE",
    "RUN_TESTS",
    "STARTER_FILES",
    "STARTER_WORK",
    "SUBJECT_FILES",
    "InputJob",
    "Work",
    "after_command",
    "before_command",
    "behaviour_command",
]
