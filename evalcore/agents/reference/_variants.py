"""Allowed variants of the reference agent: what Mantle leaves to the model, switched one at a time.

    [v.id for v in variants(project)]   # e.g. "skip_optional:check_bill.load_customer_profile"

A mutant puts in a fault a case must catch; a variant takes one freedom the definitions leave
to the model the other way. Every correct agent may behave like any variant, so a case must
pass them all: one that fails a variant asserts more than the definitions say (it is
over-specified). Like mutants, the list is derived from the definitions, and a variant only
exists where a skill has the freedom.

Kinds (the id is `<kind>:<target>`):

- `skip_optional` (`<skill>.<tool or field>`): a conditional lookup ("If username is missing
  …, call …" where the key has an `initial_value`, so a correct agent finds it filled), or
  an ask or question the prose only permits ("you may
  ask …", "optionally", "if useful"), skipped;
- `reorder_asks` (`<skill>`): the skill's prose-only asks in the reverse order, within each
  run of asks one after the other under the same condition (`ask_runs`): a question of a
  branch never moves before the answer that picks the branch, nor past a call;
- `reorder_writes` (`<skill>`): fields the model sets in one step written in the other
  order (a `set_fields` of two keys);
- `set_late` (`<key>`): a field the model sets (prose, instructions, the request, a flag it
  records) written later: its `memory_set` comes at the next tool, skill or block event;
- `paraphrase` (`<response>`): a reply the skill does not force with `utter:` (the
  cannot-help and goodbye replies the agent says on its own) said in its own words, without
  the template's name;
- `reformat_argument` (`<tool>`): a date the user gave in free text passed to the tool in
  another format ("8 May 2026" / "2026-05-08") where neither the field nor the tool fixes one.

Each kind's sites are in the engine (`FaultedEngine.freedom`), noted in `reached` as
`("variant:<kind>", target)`: a variant whose site a run never passed plays that run exactly
like the reference agent. An extra clarifying question is not a variant: the offline
simulator answers a question it cannot place once ("Sorry, I don't know that.") and stops
at the second, so the extra question would change the user, not the agent.
docs/verification.md says more.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from ...definitions import Project
from ...definitions.skill_model import skill_model, skill_models
from ...lexicon.en.permissive_words import PERMISSIVE
from ...lexicon.notation.empty_conditions import NOT_KEY as _MISSING
from ._prose import prose_items
from ._shared import once

KINDS = (
    "skip_optional",
    "reorder_asks",
    "reorder_writes",
    "set_late",
    "paraphrase",
    "reformat_argument",
)

_WHAT = {
    "skip_optional": "skips the optional or conditional {t}",
    "reorder_asks": "asks the prose-only questions of {t} in the other order",
    "reorder_writes": "writes the fields {t} sets in one step in the other order",
    "set_late": "records {t} later",
    "paraphrase": "says {t} in its own words",
    "reformat_argument": "passes a date to {t} in another format",
}

#: LLM-set fields: how the skill model says the model (not the runtime) sets them.
MODEL_SET = frozenset({"prose", "instructions", "request"})


def variant_site(kind: str, target: str) -> tuple[str, str]:
    """Where the engine notes a variant's freedom in `reached` (`FaultedEngine.freedom`)."""
    return (f"variant:{kind}", target)


@dataclass(frozen=True)
class Variant:
    kind: str
    target: str
    skill: str | None = None

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.target}"

    @property
    def site(self) -> tuple[str, str]:
        """The one site where this variant's run can leave the reference agent's: a run
        that never reached it plays move for move like the reference run."""
        return variant_site(self.kind, self.target)

    @property
    def behaviour(self) -> str:
        """The freedom in words: what a case that fails this variant over-specifies."""
        return _WHAT[self.kind].format(t=self.target)


def variants(project: Project) -> list[Variant]:
    """Every allowed variant of the project's reference agent, in a stable order (worked
    out once per loaded project: a case's checks ask for its skill's optional fields, and
    reading every skill's prose for each of them made a case cost more with every skill)."""
    return list(once("variants", project, None, lambda: tuple(_variants(project))))


def _variants(project: Project) -> list[Variant]:
    defs = project.mantle
    if defs is None:
        return []
    models = skill_models(project)
    filled = _filled_elsewhere(project)
    out: list[Variant] = []
    for skill_id, skill in defs.skills.items():
        model = models.get(skill_id)
        if model is None:
            continue
        items = prose_items(skill, model)
        for item in items:
            if item.kind == "lookup" and item.key and item.name:
                if _filled_by_other(filled, _key(item.key), item.name):
                    out.append(Variant("skip_optional", f"{skill_id}.{item.name}", skill_id))
            elif item.kind == "tool" and item.name and item.when and not item.cue:
                missing = _MISSING.match(item.when)
                key = _key(missing["key"]) if missing else None
                if key is not None and _filled_by_other(filled, key, item.name):
                    out.append(Variant("skip_optional", f"{skill_id}.{item.name}", skill_id))
            elif item.kind in ("ask_field", "question") and permitted(skill.body, item.sentence):
                out.append(Variant("skip_optional", optional_target(skill_id, item), skill_id))
        if ask_runs(items):
            out.append(Variant("reorder_asks", skill_id, skill_id))
        set_by_model = [f.qualified for f in model.fields if f.asked_by in MODEL_SET]
        set_by_model += [r.qualified for r in model.records]
        out += [Variant("set_late", key, skill_id) for key in dict.fromkeys(set_by_model)]
        if set_by_model:
            out.append(Variant("reorder_writes", skill_id, skill_id))
        for use in model.tools:
            formats = [model.field(k) for k in use.arguments.values()]
            if use.calls and use.parameters and not any(f and f.format for f in formats):
                out.append(Variant("reformat_argument", use.name, skill_id))
    for name in defs.responses:
        if "cannot_help" in name or "goodbye" in name:
            out.append(Variant("paraphrase", name))
    order = {kind: i for i, kind in enumerate(KINDS)}
    unique = {v.id: v for v in out}
    return sorted(unique.values(), key=lambda v: (order[v.kind], v.id))


def ask_runs(items: list[Any]) -> list[list[int]]:
    """The positions of the asks a correct agent may put in another order: each run of two
    or more `ask_field` items of distinct fields, one right after the other under the same
    condition. An ask of one `if:` section never moves into another (the answer that picks
    the branch comes first), nor past a call, block or hand-over between them (what it
    runs may need the answer)."""
    runs: list[list[int]] = []
    run: list[int] = []
    for n, item in enumerate(items):
        joins = bool(run) and items[run[-1]].condition == item.condition
        if item.kind == "ask_field" and joins:
            run.append(n)
            continue
        if len({items[k].name for k in run}) >= 2:
            runs.append(run)
        run = [n] if item.kind == "ask_field" else []
    if len({items[k].name for k in run}) >= 2:
        runs.append(run)
    return runs


def optional_fields(project: Project, skill_id: str) -> frozenset[str]:
    """The fields of `skill_id` a `skip_optional` variant never asks for: the prose only
    permits the ask ("you may ask for a quick rating. Set `rating` if they answer."), so a
    correct agent may leave them unset, and no goal or check may rest on them unless a
    case fixes their value itself."""
    return once("optional-fields", project, skill_id, lambda: _optional(project, skill_id))


def _optional(project: Project, skill_id: str) -> frozenset[str]:
    defs = project.mantle
    # The one skill's model, not every skill's (`skill_models` raises where there is no
    # Mantle definition, and so does `skill_model`; a skill the project lacks has none).
    model = skill_model(project, skill_id) if defs is None or skill_id in defs.skills else None
    fields = {f.qualified for f in model.fields} if model is not None else set()
    return frozenset(fields & _skippable(project))


def _skippable(project: Project) -> frozenset[str]:
    """The targets of the project's `skip_optional` variants (once per loaded project:
    listing them for each skill cost the square of the skills)."""
    return once(
        "skip-optional-targets",
        project,
        None,
        lambda: frozenset(v.target for v in variants(project) if v.kind == "skip_optional"),
    )


def optional_target(skill_id: str, item: Any) -> str:
    """`<skill>.<field>` for an optional ask, `<skill>.line<N>` for an optional question."""
    if item.kind == "ask_field" and item.name:
        return f"{skill_id}.{item.name.rsplit('.', 1)[-1]}"
    return f"{skill_id}.line{item.line}"


def permitted(body: str, sentence: str) -> bool:
    """Whether the paragraph holding `sentence`, up to its end, only permits it ("If they
    seem done, you may ask for a rating. Set rating to … if they answer.")."""
    flat = " ".join(sentence.split())
    for paragraph in re.split(r"\n\s*\n", body):
        text = " ".join(paragraph.split())
        at = text.find(flat) if flat else -1
        if at >= 0:
            return PERMISSIVE.search(text[: at + len(flat)]) is not None
    return False


def _key(name: str) -> str:
    return name.removeprefix("session.")


def _filled_by_other(filled: set[str], key: str, tool: str) -> bool:
    """Whether something other than `tool` fills `key` before the lookup asks."""
    return key in filled


def _filled_elsewhere(project: Project) -> set[str]:
    """Project keys Mantle fills before any skill runs: a field with an `initial_value`.
    (A seeded key or one another skill's tool writes is filled only in some runs, and a
    run where it is filled already skips the lookup: those are not freedoms.)"""
    defs = project.mantle
    assert defs is not None
    return set(defs.initial_memory())


_MONTHS = "january february march april may june july august september october november december"
_DAY_MONTH_YEAR = re.compile(
    rf"^(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m>{'|'.join(_MONTHS.split())})\s+(?P<y>\d{{4}})$",
    re.I,
)
_MONTH_DAY_YEAR = re.compile(
    rf"^(?P<m>{'|'.join(_MONTHS.split())})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})$",
    re.I,
)


def said_date(value: Any) -> date | None:
    """The date a free-text value states ("8 May 2026", "May 8, 2026", "2026-05-08")."""
    if not isinstance(value, str):
        return None
    return _said_date(value)


@functools.lru_cache(maxsize=4096)
def _said_date(value: str) -> date | None:
    """`said_date` of a string: asked of every argument of every call of every play (a
    failed `strptime` costs more than the play's other work on the call), and a function of
    the string alone."""
    text = value.strip().rstrip(".")
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        pass
    match = _DAY_MONTH_YEAR.match(text) or _MONTH_DAY_YEAR.match(text)
    if match is None:
        return None
    month = _MONTHS.split().index(match["m"].lower()) + 1
    try:
        return date(int(match["y"]), month, int(match["d"]))
    except ValueError:
        return None


def reformatted(value: str) -> str:
    """The same date in the other common format: ISO for a spoken date, else spoken."""
    day = said_date(value)
    assert day is not None
    if re.match(r"^\s*\d{4}-", value):
        return f"{day.day} {day.strftime('%B')} {day.year}"
    return day.isoformat()


__all__ = [
    "KINDS",
    "MODEL_SET",
    "PERMISSIVE",
    "Variant",
    "ask_runs",
    "optional_target",
    "permitted",
    "reformatted",
    "said_date",
    "variant_site",
    "variants",
]
