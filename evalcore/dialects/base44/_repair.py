"""Repair rules for base44 evals, on top of the generic ones (skill ids, key typos, types).

- `fix_enum_spelling` (`evalcore.repair`, which Anychat uses too): a check type written with
  other separators or case (`file_exists`, `fileContent`) becomes the one allowed type it
  spells.
- a lone string as `expectedSkills` becomes a one-item list.

Nothing else is safe without a person: a `filePath` outside the project, a regex that does not
compile or a json-schema check's broken schema each need the author's intent.
"""

from __future__ import annotations

from ...repair import fix_enum_spelling, string_list_rule
from ...repair.actions import RepairRule

BASE44_RULES: list[RepairRule] = [fix_enum_spelling, string_list_rule({"expectedSkills"})]

__all__ = ["BASE44_RULES"]
