"""Pre-flight checks of the configured model endpoint (`casegen doctor`, and the quick
reachability check every model-backed command makes before its first call).

`casegen doctor`'s full report (`run_doctor`, `DoctorReport`) is the public module
`agentflows.doctor.checks`, not re-exported here: its smoke draft uses the generation flow,
which imports this package for `preflight`."""

from __future__ import annotations

from ._endpoint import (
    HINT,
    EndpointError,
    ModelsProbe,
    preflight,
    preflight_roles,
    probe_models,
)

__all__ = ["HINT", "EndpointError", "ModelsProbe", "preflight", "preflight_roles", "probe_models"]
