"""`goals.expected_tools` items, exactly as Rasa's packaged scenario schema and its parser take
them (CALM tool scoring; Mantle runs ignore them).

An item is a map, never a bare name: `{tool_called: NAME, gate?: bool}`, or
`{tool_group: [...]}` whose list items each hold one key, `{tool_called: NAME}`,
`{ordered: bool}` or `{gate: bool}`, with at least one `tool_called`. `tool_called` is a name
or `{tool_name, arguments?}`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Discriminator, Field, StrictBool, Tag, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def _check_key(value: Any) -> str | None:
    """A tool_group item is tagged by its single key."""
    if isinstance(value, dict):
        return next(iter(value), None) if len(value) == 1 else None
    if isinstance(value, BaseModel):
        set_fields = [k for k, v in value if v is not None]
        return set_fields[0] if len(set_fields) == 1 else None
    return None


class ToolCalledRef(_Model):
    """`tool_called` as a map: the tool and the arguments the call carries (Rasa's parser
    reads only these two keys and ignores any other, so others are kept as they are)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    tool_name: str = Field(pattern=r"\S")
    arguments: dict[str, Any] | None = None


#: A tool name: Rasa strips it, so it needs a character that is not white space.
ToolCalled = Annotated[str, Field(pattern=r"\S")] | ToolCalledRef


class ExpectedTool(_Model):
    """One expected tool call; `gate: true` makes a mismatch fail the run."""

    tool_called: ToolCalled = Field(description="The tool's name.")
    gate: StrictBool | None = Field(default=None, description="A mismatch fails the run.")


class GroupToolCalled(_Model):
    """A tool of a tool_group."""

    tool_called: ToolCalled


class GroupOrdered(_Model):
    """The group's tools must run in the listed order."""

    ordered: StrictBool


class GroupGate(_Model):
    """A mismatch of the group fails the run."""

    gate: StrictBool


ToolGroupItem = Annotated[
    Annotated[GroupToolCalled, Tag("tool_called")]
    | Annotated[GroupOrdered, Tag("ordered")]
    | Annotated[GroupGate, Tag("gate")],
    Discriminator(_check_key),
]


class ExpectedToolGroup(_Model):
    """Tools expected in the same user turn; each list item holds one key."""

    tool_group: list[ToolGroupItem] = Field(min_length=1)

    @model_validator(mode="after")
    def _has_a_tool(self) -> ExpectedToolGroup:
        if not any(isinstance(item, GroupToolCalled) for item in self.tool_group):
            raise ValueError("a tool_group needs at least one {tool_called: NAME} item")
        return self


def _expected_key(value: Any) -> str | None:
    if isinstance(value, dict):
        return "tool_group" if "tool_group" in value else "tool_called"
    if isinstance(value, BaseModel):
        return "tool_group" if isinstance(value, ExpectedToolGroup) else "tool_called"
    return None


ExpectedToolsItem = Annotated[
    Annotated[ExpectedTool, Tag("tool_called")] | Annotated[ExpectedToolGroup, Tag("tool_group")],
    Discriminator(_expected_key),
]
