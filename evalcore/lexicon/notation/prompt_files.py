"""The sections of a prompt file: `<System>` … `</System>` and `<User>` … `</User>`, each
on lines of their own. casegen's prompt format, not English."""

from __future__ import annotations

import re

from .. import phrase

SECTION = phrase(
    "notation.prompt_files.section",
    r"^<(System|User)>[ \t]*\n(.*?)\n^</\1>[ \t]*$",
    re.S | re.M,
    matches=("<System>\nBe brief.\n</System>", "x\n<User>\nHi {{ name }}\n</User>\n"),
    misses=("<System>\nBe brief.\n</User>", "<Assistant>\nHi\n</Assistant>", "<System>x</System>"),
)
