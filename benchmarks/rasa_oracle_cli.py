"""`python -m benchmarks rasa-oracle [CHECK ...] [--install] [--record] [--only TEXT]`.

Runs the differential checks against Rasa's own code (see `benchmarks/rasa_oracle`): `projects`
(project findings), `scenarios` (scenario validation), `assertions` (assertion verdicts); all
three by default. Exit 1 when a figure misses its goal, 2 when Rasa is not installed.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import rasa_oracle

CHECKS = ("projects", "scenarios", "assertions")


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks rasa-oracle")
    parser.add_argument("checks", nargs="*", metavar="CHECK", help=f"of {', '.join(CHECKS)}")
    parser.add_argument("--install", action="store_true", help="create the Rasa venv if missing")
    parser.add_argument("--record", action="store_true", help="write Rasa's verdicts to tests/data")
    parser.add_argument("--only", action="append", default=[], help="projects whose path has TEXT")
    args = parser.parse_args(argv)
    unknown = [name for name in args.checks if name not in CHECKS]
    if unknown:
        parser.error(f"unknown check {unknown[0]!r} (checks: {', '.join(CHECKS)})")
    env = rasa_oracle.install_env() if args.install else rasa_oracle.find_env()
    if env is None:
        print(
            f"rasa-pro {rasa_oracle.RASA_VERSION} is not installed in "
            f"{rasa_oracle.venv_dir()}: run `make rasa-oracle`",
            file=sys.stderr,
        )
        return 2
    missed = 0
    for name in args.checks or CHECKS:
        print(f"== {name} (rasa-pro {env.version})")
        module = importlib.import_module(f".rasa_oracle.{name}", __package__)
        options = {"only": args.only or None, "record": args.record}
        if name == "projects":
            options["install"] = args.install
        missed += module.main(env, **options)
    return 1 if missed else 0
