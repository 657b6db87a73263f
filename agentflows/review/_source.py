"""Which skill, playbook or agent skill a case tests.

Rules need it (the collect steps of the skill under test, the playbook's outcomes) and so do
the critique and revise prompts (the definition to show the model). The case says it most
reliably (the skill its assertions name, `origin.playbookId`, `expectedSkills`); the file
name and the manifest entry are the fallbacks.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from evalcore.definitions import Project
from evalcore.dialects import dialect_names, get_dialect
from evalcore.lint import as_dict

from ._records import manifest_entry


def case_source(
    project: Project | None, dialect: str, data: Any, path: Path | None = None
) -> str | None:
    """The id of the skill / playbook / agent skill `data` tests, when one can be told."""
    if project is None or dialect not in dialect_names():
        return None
    plugin = get_dialect(dialect)
    known = plugin.source_ids(project)
    if not known:
        return None
    named = [s for s in plugin.named_sources(as_dict(data), project) if s in known]
    if named:
        return Counter(named).most_common(1)[0][0]
    if path is not None:
        stem = plugin.source_stem(path)
        by_prefix = [s for s in known if stem == s or stem.startswith((s + "_", s + "-"))]
        if by_prefix:
            return max(by_prefix, key=len)
        found = manifest_entry(path)
        if found is not None and found[2].source in known:
            return found[2].source
    return None


__all__ = ["case_source"]
