"""The reference agent: any Mantle project played offline from its skill model.

    target = parse_target("mantle:tests/data/corpus/harbor_mutual")
    broken = parse_target("mantle:DIR?mutant=skip_confirmation:submit_claim")
    [m.id for m in mutants(project)]

The reference agent is what a correct agent for the project does, as far as the definitions
say; a case it fails is one no correct agent can pass. Its mutants each put in one fault,
derived from the definitions; a suite that kills them asserts something an agent could get
wrong. Its allowed variants each take one freedom the definitions leave to the model the
other way (`variants(project)`); a case every correct agent passes passes them all. See
docs/verification.md.

Its core is the Mantle engine (`MantleEngine`, `_mantle_*.py`): the routing, the skill stack,
the ordered blocks and the gates, played by a brain. The reference agent's brain reads the
skill model; the `demo:bank` agent (examples/bank/demo_agent) adds the bank's backend. The
planner and the drafter read the same routing words and example modes (`routing_words`,
`example_mode`), so a case is drafted with the words the agent routes on.
"""

from ._asking import asked_request, reads_back, wanted_clause
from ._backend import placeholder
from ._brain import ModelBrain
from ._engine import ReferenceEngine
from ._example_modes import (
    QUOTED,
    description_phrases,
    every_value_sectioned,
    example_mode,
    example_modes,
    field_examples,
    mode_named,
)
from ._faults import returned
from ._mantle_engine import (
    ADVERSARIAL,
    CANCEL,
    CORRECTING,
    NO_ANSWER,
    Ask,
    Frame,
    MantleEngine,
    MantleFlags,
    Procedure,
    SkillContext,
    ToolResult,
    holds,
    parse_amount,
    stems,
    yes_or_no,
)
from ._mantle_words import field_words, routed_skill, routing_ties, routing_words
from ._mutants import KINDS, Mutant, find_mutant, mutants
from ._reach import SITES, reached, sites
from ._replies import play_turn
from ._snapshot import Snapshot, restore, take
from ._target import ReferenceTarget, parse_reference
from ._variants import Variant, ask_runs, optional_fields, variants

__all__ = [
    "ADVERSARIAL",
    "CANCEL",
    "CORRECTING",
    "KINDS",
    "NO_ANSWER",
    "QUOTED",
    "SITES",
    "Ask",
    "Frame",
    "MantleEngine",
    "MantleFlags",
    "ModelBrain",
    "Mutant",
    "Procedure",
    "ReferenceEngine",
    "ReferenceTarget",
    "SkillContext",
    "Snapshot",
    "ToolResult",
    "Variant",
    "ask_runs",
    "asked_request",
    "description_phrases",
    "every_value_sectioned",
    "example_mode",
    "example_modes",
    "field_examples",
    "field_words",
    "find_mutant",
    "holds",
    "mode_named",
    "mutants",
    "optional_fields",
    "parse_amount",
    "parse_reference",
    "placeholder",
    "play_turn",
    "reached",
    "reads_back",
    "restore",
    "returned",
    "routed_skill",
    "routing_ties",
    "routing_words",
    "sites",
    "stems",
    "take",
    "variants",
    "wanted_clause",
    "yes_or_no",
]
