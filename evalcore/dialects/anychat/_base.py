"""The base of every Anychat model and the value types the schema repeats."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator


def _integral(value: Any) -> Any:
    """JSON Schema counts 3.0 as an integer; strict mode alone would reject it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


NonNegativeInt = Annotated[int, Field(ge=0), BeforeValidator(_integral)]
PositiveInt = Annotated[int, Field(ge=1), BeforeValidator(_integral)]
#: A value a People field or an opener slot takes; numbers and booleans are stored as text.
FieldValue = Annotated[str, Field(max_length=2000)] | bool | int | float
CheckValue = str | bool | int | float

Channel = Literal["rcs", "sms", "whatsapp", "appleMessages"]
OriginKind = Literal["conversation", "playbookExample", "generated"]
LeadStatus = Literal["new", "contacted", "qualified", "converted", "lost"]
ConsentStatus = Literal["granted", "denied", "unknown"]
Role = Literal["user", "assistant"]
AppointmentStatus = Literal["scheduled", "cancelled", "completed"]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
SystemEvent = Literal["optOut", "optIn", "subscribed", "unsubscribed"]
ActionKind = Literal["calendar", "dial", "url", "viewLocation"]
MediaKind = Literal["image", "video"]
PartKind = Literal[
    "text", "card", "carousel", "showcase", "ask.time", "ask.choice", "confirm", "media", "chips"
]

KEY_PATTERN = r"^[a-z0-9][a-z0-9-]{0,118}$"
CRITERION_ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,58}$"
DURATION_PATTERN = r"^-?P(?!$)(\d+D)?(T(\d+H)?(\d+M)?)?$"
CLOCK_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d$"


class AnychatModel(BaseModel):
    """Base of every Anychat model: strict, closed, null-as-absent on optional keys."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        regex_engine="python-re",  # the duration pattern uses a look-ahead
        use_attribute_docstrings=True,
    )

    _keeps_null: ClassVar[frozenset[str]] = frozenset()
    """Keys whose null is a value of its own, not "absent"."""

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        return {
            k: v
            for k, v in data.items()
            if v is not None or k in cls._keeps_null or k not in cls.model_fields
        }
