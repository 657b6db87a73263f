"""Every dialect's case schema is a valid JSON Schema of the draft it names.

Validation no longer checks the schema against its metaschema in every process (it cost
more than validating a few files), so this test does it once for all of them.
"""

from __future__ import annotations

import jsonschema
import pytest

from evalcore.dialects import all_dialects
from evalcore.schemas import make_validator


@pytest.mark.parametrize("dialect", all_dialects(), ids=lambda d: d.name)
def test_dialect_schema_passes_its_metaschema(dialect) -> None:  # type: ignore[no-untyped-def]
    make_validator(dialect.schema, check=True)


def test_a_bad_schema_is_refused_when_checked() -> None:
    bad = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 12}
    with pytest.raises(jsonschema.SchemaError):
        make_validator(bad, check=True)
