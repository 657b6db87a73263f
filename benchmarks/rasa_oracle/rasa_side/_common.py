"""Shared set-up for the scripts that run under Rasa's interpreter (never casegen's).

Imported first by each script: quiets Rasa's logging before any `rasa` import and, on request,
maps the 3.19/3.20 module names (`rasa.calm_v2.*`) to their 3.21+ home (`rasa.mantle.*`), so a
project pinned to the old names can be checked by the current build.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import logging
import sys
from typing import Any

_OLD, _NEW = "rasa.calm_v2", "rasa.mantle"


class _RenamedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves `rasa.calm_v2.x` as the already-importable `rasa.mantle.x`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name == _OLD or name.startswith(_OLD + "."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec: Any) -> Any:
        return importlib.import_module(_NEW + spec.name[len(_OLD) :])

    def exec_module(self, module: Any) -> None:
        return None


def quiet_logs() -> None:
    """Rasa logs through structlog at debug level; the oracle wants only its return values."""
    logging.disable(logging.CRITICAL)
    try:
        import structlog

        structlog.configure(
            wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL),
            logger_factory=structlog.ReturnLoggerFactory(),
        )
    except Exception:  # structlog is Rasa's; without it there is nothing to quiet
        pass


def map_old_module_names() -> None:
    """Let `from rasa.calm_v2.tools.decorator import tool` resolve on 3.21+ builds."""
    if importlib.util.find_spec(_OLD) is None:
        sys.meta_path.insert(0, _RenamedModules())


def read_payload() -> Any:
    return json.loads(sys.stdin.read() or "null")


def answer(result: Any) -> None:
    sys.stdout.write("\n" + json.dumps(result, default=str) + "\n")
    sys.stdout.flush()


def rasa_version() -> str:
    from importlib.metadata import version

    return version("rasa-pro")
