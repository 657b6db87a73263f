"""`python -m benchmarks.blind_review.tally ROUND_DIR`: the figures of one review round.

Per project: assertions justified (of those judged), cases mergeable as-is, after edits,
rejected; then every rejected case with the reviewer's reason. Goals (issue 29): at least 95%
of assertions justified and 80% of cases mergeable as-is.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def tally(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    verdicts = Counter(case["verdict"] for case in data["cases"])
    judged = [a["verdict"] for case in data["cases"] for a in case.get("assertions", [])]
    justified = sum(v == "justified" for v in judged)
    return {
        "project": data["project"],
        "cases": len(data["cases"]),
        "mergeable": verdicts["mergeable"],
        "after_edits": verdicts["after-edits"],
        "reject": verdicts["reject"],
        "assertions": len(judged),
        "justified": justified,
        "rejected": [
            (c["file"], c.get("why", "")) for c in data["cases"] if c["verdict"] == "reject"
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.blind_review.tally")
    parser.add_argument("round", type=Path)
    args = parser.parse_args()
    print("| project | cases | mergeable as-is | after edits | reject | assertions justified |")
    print("|---|---|---|---|---|---|")
    rows = [tally(path) for path in sorted(args.round.glob("*.json"))]
    for row in rows:
        share = row["justified"] / row["assertions"] if row["assertions"] else 0.0
        print(
            f"| {row['project']} | {row['cases']} | {row['mergeable']} | {row['after_edits']} "
            f"| {row['reject']} | {row['justified']}/{row['assertions']} ({share:.0%}) |"
        )
    for row in rows:
        for file, why in row["rejected"]:
            print(f"- {row['project']} {file}: {why}")


if __name__ == "__main__":
    main()
