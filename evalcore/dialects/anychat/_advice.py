"""What a criterion states, said as an Anychat check: review's advice when a criterion is a
lookup against events the judge could only get wrong (`Dialect.structural_check`)."""

from __future__ import annotations


def structural_check(kind: str, name: str | None, *, negated: bool) -> str | None:
    if kind == "tool":
        return (
            f"check `toolsNotCalled: [{name}]`"
            if negated
            else (f'check `toolsCalled: {{"{name}": 1}}`')
        )
    if kind == "playbook" and not negated:
        return f'check `activePlaybookAtEnd: "{name}"`'
    if kind == "outcome" and not negated:
        return f'check `outcomes: ["{name}"]`'
    if kind == "field" and not negated:
        return f'check `personFields: {{"{name}": <expected value>}}`'
    return None
