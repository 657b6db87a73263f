"""What Rasa's `load_scenario` does to a scenario beyond reading YAML 1.2.

Environment variables. Rasa reads scenarios with `expand_env_vars=True`: every plain
(unquoted) scalar that matches `^(.*)\\$\\{(.*)\\}(.*)$`, key or value, is replaced by
`os.path.expandvars` of itself, and the file is refused when a word of the result still
starts with `$` and was in the original (an unset variable, or `${}`). Values under a few
credential keys are kept as written (`rasa.shared.constants`: `SENSITIVE_DATA`, and
`DEFERRED_RESOLUTION_KEYS`, which may even stay unset). casegen validates what Rasa would
then hold, in the environment `casegen validate` runs in, and reports an unset variable as
the error Rasa's loader raises.

Tagged scalars. Rasa reads scenarios with ruamel.yaml's round-trip loader, which keeps a
value with an explicit `!!str` tag as a `TaggedScalar` object, not as text; its schema check
then fails where text is wanted. casegen refuses the tag (a plain `=` and a `<<` value, which
that loader keeps the same way, are refused by casegen's YAML reader, `evalcore.yamlio`).
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
from typing import Any

from ... import pointer as ptr
from ..._pyyaml import yaml
from ...findings import Finding
from ...yamlio import CaseLoader, case_loader

_ENV_VAR = re.compile(r"^(.*)\$\{(.*)\}(.*)$")
#: `rasa.shared.constants.DEFERRED_RESOLUTION_KEYS` (3.22): may stay unset at load time.
_DEFERRED = frozenset(
    {"client_id", "client_secret", "token_url", "public_key", "private_key", "secret"}
)
#: `rasa.shared.constants.SENSITIVE_DATA` (3.22): kept as written even when set.
_SENSITIVE = _DEFERRED | {
    "api_key",
    "aws_access_key_id",
    "aws_secret_access_key",
    "aws_session_token",
}
_STR = "tag:yaml.org,2002:str"


def as_loaded(text: str, data: Any) -> tuple[Any, list[Finding]]:
    """The data as Rasa holds it once loaded, and what its loader would refuse."""
    findings = explicit_str_tags(text) if "!!str" in text else []
    data, expanding = expand_env_vars(text, data)
    return data, findings + expanding


def explicit_str_tags(text: str) -> list[Finding]:
    """A `parse` finding per explicit `!!str` tag (a tagged object for Rasa, not text)."""
    found = []
    with contextlib.suppress(yaml.YAMLError):
        for token in yaml.scan(text, Loader=CaseLoader):
            if isinstance(token, yaml.TagToken) and token.value == ("!!", "str"):
                found.append(
                    Finding(
                        code="parse",
                        line=token.start_mark.line + 1,
                        message="an explicit !!str tag is kept by Rasa's reader as a tagged "
                        "object, not as text (its schema check then fails)",
                        suggestion="write the value in quotes instead of tagging it",
                    )
                )
    return found


def expand_env_vars(text: str, data: Any) -> tuple[Any, list[Finding]]:
    """`data` with `${VAR}` expanded as Rasa expands it, and an error per unset variable."""
    if "${" not in text or data is None:
        return data, []
    loader = case_loader(text, fast=False)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        return data, []  # the parse findings already say why
    finally:
        loader.dispose()
    if root is None:
        return data, []
    values: list[tuple[tuple[Any, ...], str]] = []
    keys: list[tuple[tuple[Any, ...], str]] = []
    findings: list[Finding] = []
    _walk(text, root, (), None, values, keys, findings, depth=0)
    if not values and not keys:
        return data, findings
    expanded = copy.deepcopy(data)
    for path, value in values:
        _set(expanded, path, value)
    for path, key in sorted(keys, key=lambda item: -len(item[0])):
        _rename(expanded, path, key)
    return expanded, findings


def _plain(text: str, node: yaml.ScalarNode) -> bool:
    """An untagged plain scalar: the only kind Rasa's resolver tags `!env_var`."""
    index = node.start_mark.index
    return node.style is None and node.tag == _STR and not text.startswith("!", index)


def _expand(value: str, key: Any, path: tuple[Any, ...], findings: list[Finding]) -> str | None:
    """The expanded value (None: kept as written), as `_env_var_constructor` decides."""
    expanded = os.path.expandvars(value)
    missing = [word for word in expanded.split() if word.startswith("$") and word in value]
    if missing:
        if key in _DEFERRED:
            return None
        names = ", ".join(missing)
        findings.append(
            Finding(
                code="env-var",
                path=ptr.join("", *path),
                value=value,
                message=(
                    f"{names} is not set: Rasa expands ${{VAR}} in unquoted values when it "
                    "loads the scenario and refuses the file"
                ),
                suggestion="set the variable where the scenario runs, or quote the value "
                "to keep it as written",
            )
        )
        return None
    if key in _SENSITIVE:
        return None
    return expanded


def _walk(
    text: str,
    node: yaml.Node,
    path: tuple[Any, ...],
    key: Any,
    values: list[tuple[tuple[Any, ...], str]],
    keys: list[tuple[tuple[Any, ...], str]],
    findings: list[Finding],
    depth: int,
) -> None:
    if depth > 200:  # the document already passed the depth limit; aliases may share nodes
        return
    if isinstance(node, yaml.ScalarNode):
        if _plain(text, node) and _ENV_VAR.match(node.value):
            new = _expand(node.value, key, path, findings)
            if new is not None and new != node.value:
                values.append((path, new))
        return
    if isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(text, item, (*path, index), None, values, keys, findings, depth + 1)
        return
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        name = key_node.value
        if _plain(text, key_node) and _ENV_VAR.match(name):
            new = _expand(name, None, (*path, name), findings)
            if new is not None and new != name:
                keys.append(((*path, name), new))
        _walk(text, value_node, (*path, name), name, values, keys, findings, depth + 1)


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def _set(data: Any, path: tuple[Any, ...], value: str) -> None:
    with contextlib.suppress(KeyError, IndexError, TypeError):  # a merged key: left as read
        _parent(data, path)[path[-1]] = value


def _rename(data: Any, path: tuple[Any, ...], key: str) -> None:
    try:
        parent = _parent(data, path)
        items = list(parent.items())
    except (KeyError, IndexError, TypeError, AttributeError):
        return
    parent.clear()
    parent.update((key if name == path[-1] else name, value) for name, value in items)
