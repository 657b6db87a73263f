"""Review and revise: quality comments on cases, an interactive accept/edit/reject loop, and
model revisions from a reviewer's comment.

    report = await review_paths([Path("generated_cases/mantle")])        # rules only
    report = await review_paths(paths, critic=review_model("gpt-4.1"))  # + model critique
    revision = await revise_case(model, data=data, dialect=dialect, comment="...", project=p)
"""

from ._critique import Critique, CritiqueComment
from ._model import ReviewModel, review_model
from ._review import REVIEW_CODES, FileReview, Reviewer, ReviewReport, review_paths
from ._revise import (
    MAX_MODEL_REPAIR_ROUNDS,
    NO_MODEL_MESSAGE,
    ReviseError,
    Revision,
    revise_case,
    unified_diff,
)
from ._revise_edits import CaseEdit, CaseEdits, apply_case_edits
from ._views import ReviewEnv, case_views
from ._vocab import internal_tokens, vocabulary
from .rules import NEAR_DUPLICATE_THRESHOLD, RULES, Hit, ReviewRule, review_rule

__all__ = [
    "MAX_MODEL_REPAIR_ROUNDS",
    "NEAR_DUPLICATE_THRESHOLD",
    "NO_MODEL_MESSAGE",
    "REVIEW_CODES",
    "RULES",
    "CaseEdit",
    "CaseEdits",
    "Critique",
    "CritiqueComment",
    "FileReview",
    "Hit",
    "ReviewEnv",
    "ReviewModel",
    "ReviewReport",
    "ReviewRule",
    "Reviewer",
    "ReviseError",
    "Revision",
    "apply_case_edits",
    "case_views",
    "internal_tokens",
    "review_model",
    "review_paths",
    "review_rule",
    "revise_case",
    "unified_diff",
    "vocabulary",
]
