"""`casegen mutate`: how many of the reference agent's mutants a suite kills.

    report = asyncio.run(mutate(cases, project_dir, concurrency=4))
    report.score, report.survivors()

A case kills a mutant when it passes against the reference agent and fails against the
mutant. A surviving mutant is a fault no case catches; each gets a reason class derived
from the definitions and the suite's runs (`_reasons`) and a `casegen generate --direction`
suggestion for the case that would.
"""

from ._reasons import REASONS, Reason
from ._run import MutantResult, MutationReport, mutate

__all__ = ["REASONS", "MutantResult", "MutationReport", "Reason", "mutate"]
