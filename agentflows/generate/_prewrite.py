"""Review before writing: `casegen review`'s deterministic rules on every valid draft.

A generated suite should pass its own review. Each valid draft is reviewed with the rules
(no model, no peers: near-duplicates are the dedupe step's job); what a rule flags is fixed
where a fix needs no judgement, and a draft still left with an error is dropped with the
finding as its reason:

- `slot-skips-step` (error): the initial slot is removed;
- `leaky-context` (error, internals): each internal id in the simulated user's text becomes
  plain words (`utter_order_placed` -> "order placed", `@tool.block_card` -> "block card");
- `compound-criterion` (warning): a criterion a model wrote is kept whole, never cut at
  "and"/";" by rule (its pieces lose their subject or condition: "The agent never to the
  policy"), with the warning in the case's record (`after` equal to `before`) for its author
  or a revise round; a criterion of the offline plan, casegen's own sentence built from
  whole clauses, is split into its single checks;
- `criterion-is-deterministic`, `vague-criterion` (warning): the criterion is dropped (an
  assertion says the first; the second cannot be judged the same way twice);
- `unreadable-text` (error, a model's junk words): a criterion is dropped, a title becomes
  the planned behaviour's title; an unreadable simulated user's text drops the draft.

Everything else (`no-decisive-assertion`, an outcome spelled out in the context) cannot be
fixed without inventing facts, so an error drops the draft.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from evalcore import pointer as ptr
from evalcore.definitions import Project
from evalcore.findings import Finding

from ..criterion_checks import split_compound

#: Codes whose flagged criterion is dropped rather than kept for the judge.
_DROP_CRITERION = ("criterion-is-deterministic", "vague-criterion")
_MAX_ROUNDS = 3


@dataclass
class PrewriteOutcome:
    data: dict[str, Any]
    fixes: list[dict[str, Any]] = field(default_factory=list)
    """`{code, path, before, after, reason, by: "review"}` per change."""
    errors: list[Finding] = field(default_factory=list)
    """Errors no fix removed: the draft is not written."""


def review_findings(data: dict[str, Any], dialect: str, project: Project | None) -> list[Finding]:
    """Rule comments on one in-memory document (what `casegen review` says about the file)."""
    # start-up: asyncio and 108 casegen modules
    from ..review import RULES, ReviewEnv, case_views, vocabulary

    env = ReviewEnv(project=project, vocab=_vocab(project, vocabulary))
    # No peers: near-duplicates are the dedupe step's job, so neither that rule nor the
    # fingerprint it alone reads is worked out for every draft.
    rules = [rule for code, rule in RULES.items() if code != "near-duplicate"]
    found: list[Finding] = []
    for index, view in enumerate(case_views(data, dialect, project, fingerprints=False)):
        env.order = index
        for rule in rules:
            found += rule.check(view, env)
    return found


_VOCABS: dict[int, Any] = {}


def _vocab(project: Project | None, build: Any) -> Any:
    key = id(project)
    if key not in _VOCABS:
        _VOCABS[key] = build(project)
    return _VOCABS[key]


def prewrite(
    data: dict[str, Any],
    dialect: str,
    project: Project | None,
    *,
    title: str | None = None,
    copy_clean: bool = True,
    model_criteria: bool = False,
) -> PrewriteOutcome:
    """Review `data`, apply the deterministic fixes, and say what errors are left; `title`
    (the planned behaviour's) replaces a title that does not read as words;
    `model_criteria`: the criteria are a model's words, so a compound one is kept whole.

    Fixes go to a deep copy; with `copy_clean=False`, a draft the rules find nothing in
    is handed back itself (the flow reads only the fixes and errors then, and most drafts
    have none: the copy was a tenth of the review)."""
    findings: list[Finding] | None = review_findings(data, dialect, project)
    if not findings and not copy_clean:
        return PrewriteOutcome(data)
    outcome = PrewriteOutcome(copy.deepcopy(data))
    for _ in range(_MAX_ROUNDS):
        if findings is None:
            findings = review_findings(outcome.data, dialect, project)
        changed = False
        # Later pointers first, so removing one list item does not shift the next one's index.
        for finding in sorted(findings, key=lambda f: _order_key(f.path or ""), reverse=True):
            if model_criteria and finding.code == "compound-criterion":
                continue  # noted where it stands once the rest is fixed (`_settled`)
            fix = _fix(outcome.data, finding, project, title)
            if fix is not None:
                outcome.fixes.append(fix)
                changed = True
        if not changed:
            return _settled(outcome, findings, model_criteria)
        findings = None
    return _settled(outcome, review_findings(outcome.data, dialect, project), model_criteria)


def _settled(
    outcome: PrewriteOutcome, findings: list[Finding], model_criteria: bool
) -> PrewriteOutcome:
    """The errors left, and each compound criterion of a model's kept whole, noted where it
    stands now."""
    outcome.errors = [f for f in findings if f.severity == "error"]
    for finding in findings:
        if model_criteria and finding.code == "compound-criterion":
            _keep_whole(outcome, finding)
    return outcome


def _keep_whole(outcome: PrewriteOutcome, finding: Finding) -> None:
    """A model's compound criterion stays as written, with the warning in the case's record:
    cut at "and"/";" by rule, its pieces lose their subject or their condition ("never to
    the policy for this claim"), so only its author or the model (a revise round) may split
    it."""
    outcome.fixes.append(
        {
            "code": f"review:{finding.code}",
            "path": finding.path or "",
            "before": finding.value,
            "after": finding.value,
            "reason": f"{finding.message}; kept whole: rewrite it as single checks, each a "
            "whole sentence with its own subject and condition",
            "by": "review",
        }
    )


def _order_key(pointer: str) -> list[tuple[int, int | str]]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in ptr.split(pointer)]


def _fix(
    data: dict[str, Any], finding: Finding, project: Project | None, title: str | None = None
) -> dict[str, Any] | None:
    path = finding.path or ""
    if not path or not ptr.exists(data, path):
        return None
    before = ptr.resolve(data, path)
    after: Any = None
    if finding.code == "unreadable-text":
        if "/criteria/" in path and (item := _list_item(data, path)) is not None:
            ptr.remove(data, item)
            _prune(data, ptr.parent(item))
        elif finding.message.startswith("the title") and title and title != before:
            after = title
            ptr.replace(data, path, after)
        else:
            return None
    elif finding.code == "slot-skips-step":
        ptr.remove(data, path)
        _prune(data, ptr.parent(path))
    elif finding.code == "leaky-context" and finding.severity == "error":
        if not isinstance(before, str):
            return None
        after = _plain_words(before, str(finding.value or ""))
        if after == before:
            return None
        ptr.replace(data, path, after)
    elif finding.code == "compound-criterion" and isinstance(before, str):
        pieces = split_compound(before)
        item = _list_item(data, path)
        if len(pieces) < 2 or item is None:
            return None
        _splice(data, item, path, pieces)
        after = pieces
    elif finding.code in _DROP_CRITERION and (item := _list_item(data, path)) is not None:
        ptr.remove(data, item)
        _prune(data, ptr.parent(item))
    else:
        return None
    return {
        "code": f"review:{finding.code}",
        "path": path,
        "before": before,
        "after": after,
        "reason": finding.message,
        "by": "review",
    }


def _plain_words(text: str, names: str) -> str:
    """`text` with each named internal (and every `@kind.x` / `session.x.y` token) in words."""
    from ..review import internal_tokens  # start-up: asyncio and 108 casegen modules

    for match in reversed(internal_tokens(text)):
        words = match.group(0).split(".")[-1].replace("_", " ")
        text = text[: match.start()] + words + text[match.end() :]
    for name in filter(None, (n.strip() for n in names.split(","))):
        words = name.split(".")[-1].removeprefix("utter_").replace("_", " ")
        text = re.sub(rf"`?\b{re.escape(name)}\b`?", words, text)
    return text


def _list_item(data: dict[str, Any], path: str) -> str | None:
    """The list item a criterion text lives in: the text itself (Mantle) or the object
    holding it (Anychat `{text: ...}`)."""
    for pointer in (path, ptr.parent(path)):
        parent = ptr.parent(pointer)
        if pointer and parent and isinstance(ptr.resolve(data, parent), list):
            return pointer
    return None


def _splice(data: dict[str, Any], item: str, path: str, pieces: list[str]) -> None:
    """Replace the criterion at `item` by one criterion per piece (same shape as before)."""
    container = ptr.resolve(data, ptr.parent(item))
    index = int(ptr.split(item)[-1])
    original = container[index]
    if item == path:
        container[index : index + 1] = pieces
        return
    key = ptr.split(path)[-1]
    split = [{**original, key: piece} for piece in pieces]
    if isinstance(original.get("id"), str):
        # each piece is its own criterion: one id each, or the judge's verdicts collide
        taken = {c.get("id") for c in container if isinstance(c, dict)}
        for number, criterion in enumerate(split[1:], start=2):
            while f"{original['id']}-{number}" in taken:
                number += 1
            criterion["id"] = f"{original['id']}-{number}"
            taken.add(criterion["id"])
    container[index : index + 1] = split


def _prune(data: dict[str, Any], pointer: str) -> None:
    """Remove containers a fix emptied (`initial_slots: {}`, `setup: {}`, `criteria: []`)."""
    while pointer and ptr.exists(data, pointer) and ptr.resolve(data, pointer) in ({}, []):
        ptr.remove(data, pointer)
        pointer = ptr.parent(pointer)


__all__ = ["PrewriteOutcome", "prewrite", "review_findings"]
