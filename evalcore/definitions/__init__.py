"""Definition readers: what a project defines, read from files (user code is never imported).

project = load_project(Path("examples/bank"))
project.mantle.skills["card_replace"].blocks
"""

from ._blocks import FRAMEWORK_TOOLS
from ._context import ReadContext
from ._discover import find_project, project_kind_of
from ._frontmatter import body_on_disk
from ._load import load_project
from ._mantle_rasa_rules import RASA_RULES_VERSION, rasa_errors, rasa_refusal
from ._mantle_set_fields import undeclared_set_fields
from ._memo import memo_of, memoized
from ._model import (
    Block,
    Branch,
    Confirmation,
    MantleDefinitions,
    MemoryField,
    Project,
    ProjectKind,
    Response,
    ResponseButton,
    ResponseVariant,
    Skill,
    SourceFile,
    Step,
    ToolConstraint,
    ToolDef,
    ToolParameter,
    UtterRule,
)
from ._model_agent_skills import (
    AgentSkill,
    AgentSkillsDefinitions,
    Base44Fixture,
    SkillElement,
)
from ._model_anychat import (
    AnychatDefinitions,
    AnychatTool,
    Outreach,
    PersonField,
    Playbook,
    PlaybookExample,
)
from ._model_base import (
    SourceRef,
)
from ._preconditions import (
    gate_seeds,
    is_prerequisite,
    opener_of,
    opening_seeds,
    precondition_of,
    resolver_of,
    runs_first,
    shut_gates,
)
from .kinds import ProjectReader, project_kinds, project_reader, register_project_kind

__all__ = [
    "FRAMEWORK_TOOLS",
    "RASA_RULES_VERSION",
    "AgentSkill",
    "AgentSkillsDefinitions",
    "AnychatDefinitions",
    "AnychatTool",
    "Base44Fixture",
    "Block",
    "Branch",
    "Confirmation",
    "MantleDefinitions",
    "MemoryField",
    "Outreach",
    "PersonField",
    "Playbook",
    "PlaybookExample",
    "Project",
    "ProjectKind",
    "ProjectReader",
    "ReadContext",
    "Response",
    "ResponseButton",
    "ResponseVariant",
    "Skill",
    "SkillElement",
    "SourceFile",
    "SourceRef",
    "Step",
    "ToolConstraint",
    "ToolDef",
    "ToolParameter",
    "UtterRule",
    "body_on_disk",
    "find_project",
    "gate_seeds",
    "is_prerequisite",
    "load_project",
    "memo_of",
    "memoized",
    "opener_of",
    "opening_seeds",
    "precondition_of",
    "project_kind_of",
    "project_kinds",
    "project_reader",
    "rasa_errors",
    "rasa_refusal",
    "register_project_kind",
    "resolver_of",
    "runs_first",
    "shut_gates",
    "undeclared_set_fields",
]
