"""`python -m benchmarks.blind_review.sample SUITE_DIR [--n 15] [--seed 7]`: the sample to review.

Prints the case files (relative to SUITE_DIR) drawn at random with the seed, one per line, so
the sample is named and can be drawn again.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def draw(suite: Path, n: int, seed: int) -> list[str]:
    files = sorted(p.relative_to(suite).as_posix() for p in suite.rglob("*.yml"))
    return sorted(random.Random(seed).sample(files, min(n, len(files))))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.blind_review.sample")
    parser.add_argument("suite", type=Path)
    parser.add_argument("--n", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print("\n".join(draw(args.suite, args.n, args.seed)))


if __name__ == "__main__":
    main()
