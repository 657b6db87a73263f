"""Projects built in code for dialect tests, so they do not depend on the definition readers.

- `anychat_project()`: a dental clinic with four Playbooks, one Outreach and People fields;
- `skills_project()`: Agent Skills `base44-cli` and `base44-sdk`;
- `valid_anychat_case()` / `valid_base44_eval()` / `valid_multi_prompt_eval()`: documents that
  validate clean against them, for tests to break one thing at a time;
- `expected_line()`: where a finding should point in `json.dumps(indent=2)` text.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

# Import every dialect package: `evalcore.dialects` loads them only while its registry is
# empty, so a module that imported one dialect package first would hide the other two.
import evalcore.dialects.anychat
import evalcore.dialects.base44
import evalcore.dialects.mantle  # noqa: F401
from evalcore import pointer as ptr
from evalcore.definitions import (
    AgentSkill,
    AgentSkillsDefinitions,
    AnychatDefinitions,
    AnychatTool,
    Outreach,
    PersonField,
    Playbook,
    PlaybookExample,
    Project,
)
from evalcore.documents import parse_text

BUILTIN_PERSON_FIELDS = (
    "name",
    "email",
    "phone",
    "company",
    "title",
    "status",
    "source",
    "firstName",
    "lastName",
    "fullName",
)
CUSTOM_PERSON_FIELDS = ("insuranceProvider", "preferredDentist")
TOOLS = ("check_availability", "book_appointment", "reschedule_appointment", "cancel_appointment")


def anychat_project(root: Path | None = None) -> Project:
    """A clinic: playbooks general (default) / book / reschedule / cancel, one outreach."""
    playbooks = {
        "general": Playbook(id="general", name="General questions", default=True),
        "book": Playbook(
            id="book",
            name="Book an appointment",
            tools=["check_availability", "book_appointment"],
            outcomes=["booked"],
            pickers=["ask.time"],
            examples=[
                PlaybookExample(
                    title="Books a cleaning",
                    turns=[{"user": "I need a cleaning"}, {"agent": "Which day suits you?"}],
                    end={"activePlaybook": "book", "outcomes": ["booked"]},
                )
            ],
        ),
        "reschedule": Playbook(
            id="reschedule",
            name="Reschedule",
            tools=["check_availability", "reschedule_appointment"],
            outcomes=["rescheduled"],
        ),
        "cancel": Playbook(
            id="cancel", name="Cancel", tools=["cancel_appointment"], outcomes=["cancelled"]
        ),
    }
    fields = {k: PersonField(key=k, builtin=True) for k in BUILTIN_PERSON_FIELDS}
    fields.update({k: PersonField(key=k) for k in CUSTOM_PERSON_FIELDS})
    anychat = AnychatDefinitions(
        agent={"name": "Brightsmile Dental"},
        default_playbook="general",
        channels=["sms", "rcs"],
        playbooks=playbooks,
        outreaches={
            "visit_reminder": Outreach(
                id="visit_reminder",
                name="Visit reminder",
                opener="Hi {firstName}, your visit is on {visitDate}. Still good?",
                inputs=["firstName", "visitDate"],
                playbook="reschedule",
            )
        },
        person_fields=fields,
        tools={name: AnychatTool(name=name) for name in TOOLS},
        outcomes=["booked", "rescheduled", "cancelled"],
        cases_dir="cases",
    )
    return Project(root=root or Path("clinic"), kind="anychat", anychat=anychat)


def skills_project(root: Path | None = None) -> Project:
    """Agent Skills `base44-cli` and `base44-sdk`."""
    skills = {
        name: AgentSkill(name=name, path=f"skills/{name}", description=f"The {name} skill.")
        for name in ("base44-cli", "base44-sdk")
    }
    return Project(
        root=root or Path("skills"),
        kind="agent_skills",
        agent_skills=AgentSkillsDefinitions(skills=skills),
    )


_ANYCHAT_CASE: dict[str, Any] = {
    "key": "clinic-reschedule-from-reminder",
    "title": "Patient moves a visit after the reminder",
    "brief": {
        "scenario": "A patient gets the visit reminder and asks to move the visit to Friday.",
        "expected": "The agent offers Friday slots and reschedules the visit.",
    },
    "tags": ["reschedule", "outreach"],
    "samples": 3,
    "origin": {
        "kind": "generated",
        "playbookId": "reschedule",
        "generatedAt": "2026-11-30T09:00:00Z",
    },
    "scenario": {
        "channel": "sms",
        "persona": {
            "preset": {
                "fields": {
                    "firstName": "Dana",
                    "phone": "+15550100",
                    "customFields": {"insuranceProvider": "Delta", "preferredDentist": "Dr. Li"},
                },
                "consent": {"status": "granted"},
            }
        },
        "appointments": [{"startsIn": "P2DT10H", "durationMinutes": 30}],
        "start": {
            "outreach": {
                "outreachId": "visit_reminder",
                "inputs": {"firstName": "Dana", "visitDate": "Wednesday"},
            }
        },
        "clock": {"weekday": "monday", "time": "09:30", "timezone": "America/New_York"},
    },
    "turns": [
        "Can we move it to Friday?",
        {"slot": 0, "fallback": "The first one works"},
        {"confirm": True},
    ],
    "expect": {
        "checks": {
            "activePlaybookAtEnd": "reschedule",
            "outcomes": ["rescheduled"],
            "activeAppointments": 1,
            "toolsCalled": {"reschedule_appointment": 1},
            "toolsNotCalled": ["cancel_appointment"],
            "personFields": {"insuranceProvider": "Delta"},
            "partsOnLastTurn": ["text"],
            "noWarnings": True,
        },
        "judge": {
            "criteria": [
                {"id": "offers-friday", "text": "Offers at least one Friday time."},
                {"id": "confirms-change", "text": "Confirms the new time before ending."},
            ]
        },
    },
}

_BASE44_EVAL: dict[str, Any] = {
    "$schema": "../../eval.schema.json",
    "name": "nextjs-todo-entities",
    "description": "Creates Todo entities in an existing Next.js Base44 project",
    "prompt": "Create a Todo entity in base44/entities/todo.jsonc with a required title.",
    "expectedSkills": ["base44-cli"],
    "checks": [
        {
            "type": "file-exists",
            "description": "Todo entity file created",
            "filePath": "base44/entities/todo.jsonc",
        },
        {
            "type": "file-content",
            "description": "Todo has a title property",
            "filePath": "base44/entities/todo.jsonc",
            "pattern": '"title"\\s*:\\s*\\{',
        },
        {"type": "contains", "description": "Mentions the entity", "value": "todo"},
        {
            "type": "entity-config",
            "description": "Todo validates as an entity",
            "filePath": "base44/entities/todo.jsonc",
            "target": "file",
        },
        {
            "type": "json-schema",
            "description": "Answer is an object with a name",
            "schema": {"type": "object", "required": ["name"]},
        },
    ],
}

_MULTI_PROMPT_EVAL: dict[str, Any] = {
    "name": "anti-hallucination",
    "description": "Correct Base44 APIs are used and hallucinated ones avoided",
    "prompts": [
        {
            "name": "anti-hallucination-crud",
            "description": "Entity CRUD method names",
            "prompt": "Create src/components/ProductManager.jsx with CRUD for Product.",
            "expectedSkills": ["base44-sdk"],
            "checks": [
                {
                    "type": "file-content-excluded",
                    "description": "Does not hallucinate find()",
                    "filePath": "src/components/ProductManager.jsx",
                    "pattern": "Product\\.find\\(",
                }
            ],
        },
        {
            "name": "anti-hallucination-auth",
            "prompt": "Create src/pages/AuthPage.jsx with Google login.",
            "expectedSkills": ["base44-sdk", "base44-cli"],
            "checks": [
                {
                    "type": "file-content",
                    "description": "Uses loginWithProvider",
                    "filePath": "src/pages/AuthPage.jsx",
                    "pattern": "loginWithProvider\\s*\\(\\s*['\"]google['\"]",
                }
            ],
        },
    ],
}


def expected_line(text: str, path: str) -> int:
    """The line a person would look at, found in `json.dumps(indent=2)` text by indentation:
    the key's line (a list item's first line), or for a missing key its object's line."""
    data = json.loads(text)
    if not ptr.exists(data, path):
        path = ptr.parent(path)
    if not path:
        return 1
    tokens = ptr.split(path)
    indent = " " * (2 * len(tokens))
    lines = text.splitlines()
    start = parse_text(text, "json").line_of(ptr.parent(path)) or 1
    if tokens[-1].isdigit():  # the n-th line opening an item at this depth
        openers = [
            n
            for n in range(start + 1, len(lines) + 1)
            if lines[n - 1].startswith(indent) and lines[n - 1][len(indent)] not in " ]}"
        ]
        return openers[int(tokens[-1])]
    key = indent + f'"{tokens[-1]}":'
    return next(n for n in range(start, len(lines) + 1) if lines[n - 1].startswith(key))


def valid_anychat_case() -> dict[str, Any]:
    return copy.deepcopy(_ANYCHAT_CASE)


def valid_base44_eval() -> dict[str, Any]:
    return copy.deepcopy(_BASE44_EVAL)


def valid_multi_prompt_eval() -> dict[str, Any]:
    return copy.deepcopy(_MULTI_PROMPT_EVAL)
