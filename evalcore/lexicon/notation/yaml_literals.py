"""YAML 1.2 core-schema plain scalars as ruamel.yaml resolves them (`ruamel/yaml/resolver.py`):
which plain texts are bools, floats, ints and nulls. YAML's spelling, not English."""

from __future__ import annotations

import re

from .. import phrase

BOOL = phrase(
    "notation.yaml_literals.bool",
    r"^(?:true|True|TRUE|false|False|FALSE)$",
    matches=("true", "False", "TRUE"),
    misses=("yes", "on", "tRue", "true "),
)
FLOAT = phrase(
    "notation.yaml_literals.float",
    r"""^(?:
             [-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
            |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
            |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$""",
    re.X,
    matches=("1.5", "-2e3", "1_000.25", ".5", "-.inf", ".NaN"),
    misses=("1_000", "0b101", ".5e3", "inf", "nan", "1.5 km"),
)
INT = phrase(
    "notation.yaml_literals.int",
    r"""^(?:[-+]?0b[0-1_]+
            |[-+]?0o?[0-7_]+
            |[-+]?[0-9_]+
            |[-+]?0x[0-9a-fA-F_]+)$""",
    re.X,
    matches=("1_000", "0b101", "017", "-0x1F", "0o17"),
    misses=("1.5", "0b102", "12 apples", "one"),
)
NULL = phrase(
    "notation.yaml_literals.null",
    r"^(?:~|null|Null|NULL|)$",
    matches=("~", "null", "NULL", ""),
    misses=("none", "nULL", "~ "),
)
