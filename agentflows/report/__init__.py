"""`casegen report`: a results batch to look at, in the terminal or as one HTML page, and
what changed against another batch.

    batch = load_batch(Path("eval/results"))          # the newest timestamp folder
    page = render_html(batch, compare(batch, load_batch(Path("old"))))
"""

from ._compare import KINDS, Change, Comparison, compare
from ._html import render_html
from ._load import Batch, CaseRuns, Problem, batch_dir, load_batch
from ._terminal import print_terminal, report_json
from ._turns import Layout, Turn, Verdict, layout, turn_refs

__all__ = [
    "KINDS",
    "Batch",
    "CaseRuns",
    "Change",
    "Comparison",
    "Layout",
    "Problem",
    "Turn",
    "Verdict",
    "batch_dir",
    "compare",
    "layout",
    "load_batch",
    "print_terminal",
    "render_html",
    "report_json",
    "turn_refs",
]
