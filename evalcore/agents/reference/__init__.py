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
"""

from ._asking import asked_request, reads_back, wanted_clause
from ._backend import placeholder
from ._brain import ModelBrain
from ._engine import ReferenceEngine
from ._faults import returned
from ._mutants import KINDS, Mutant, find_mutant, mutants
from ._reach import SITES, reached, sites
from ._snapshot import Snapshot, restore, take
from ._target import ReferenceTarget, parse_reference
from ._variants import Variant, ask_runs, optional_fields, variants

__all__ = [
    "KINDS",
    "SITES",
    "ModelBrain",
    "Mutant",
    "ReferenceEngine",
    "ReferenceTarget",
    "Snapshot",
    "Variant",
    "ask_runs",
    "asked_request",
    "find_mutant",
    "mutants",
    "optional_fields",
    "parse_reference",
    "placeholder",
    "reached",
    "reads_back",
    "restore",
    "returned",
    "sites",
    "take",
    "variants",
    "wanted_clause",
]
