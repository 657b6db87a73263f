"""Pre-flight checks of the configured model endpoint (`casegen doctor`, and the quick
reachability check every model-backed command makes before its first call)."""

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
