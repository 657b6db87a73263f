"""The shared runner: simulate the user, record events, check assertions, judge criteria."""

from ._case import Criterion, RunCase, SimulationSpec, load_run_cases

__all__ = ["Criterion", "RunCase", "SimulationSpec", "load_run_cases"]
