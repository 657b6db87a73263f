"""The reference agent's engine base: the fault sites every `Mutant` needs, the test accounts.

`FaultedEngine` is `MantleEngine` with a mutant (or none), a demo's mutation flags (or
none) and a demo's tool backend (or the one built from the definitions): `fault` says
whether the mutant's fault applies at a site and notes the site in `reached`; memory
writes and responses are where `forget_memory`, `wrong_enum` and `drop_on_success` act; a
seeded value of a test account is read at session start. It plays one allowed variant
(`_variants.py`) the same way: `freedom` says whether the variant's freedom is taken at a
site and notes the site; the event log is where `set_late` and `reorder_writes` act, the
model's own replies where `paraphrase` does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...definitions import MantleDefinitions, Project, memoized
from ...testdata import FAILING_ACCOUNT, NEGATIVE_ACCOUNT, account_of, account_value
from ._mantle_engine import MantleEngine, MantleFlags
from ._mantle_words import routing_words
from ._mutants import Mutant
from ._reach import WatchedFlags
from ._variants import Variant, variant_site

#: Events a late `memory_set` (`set_late`) is written before: the runtime's own steps.
_FLUSH = frozenset(
    {
        "tool_executed",
        "skill_activated",
        "skill_completed",
        "skill_interrupted",
        "skill_resumed",
        "skill_cancelled",
        "ordered_block_entered",
        "ordered_block_completed",
    }
)


class FaultedEngine(MantleEngine):
    """`MantleEngine` playing one mutant (or none), noting every fault site it passes."""

    def __init__(
        self,
        project: Project,
        brain: Any,
        mutant: Mutant | None = None,
        variant: Variant | None = None,
        *,
        flags: MantleFlags | None = None,
        backend: Any = None,
    ) -> None:
        kind = mutant.kind if mutant else None
        given = flags or MantleFlags()
        flags = replace(
            given,
            ignore_digression=given.ignore_digression or kind == "ignore_digression",
            ignore_handoff=given.ignore_handoff or kind == "never_handoff",
        )
        super().__init__(project, brain, flags)
        #: The session's own tool backend (a demo's, with its test customers and state), or
        #: None: the brain's `FakeBackend`, built from the definitions.
        self.backend = backend
        #: Every fault site the run passed (see `fault` and `_reach.py`): a mutant whose
        #: sites a run never passed plays that run exactly like the reference agent.
        self.reached: set[tuple[str, str | None]] = set()
        self.flags = WatchedFlags(flags, self.reached)  # type: ignore[assignment]
        self.mutant = mutant
        # `hidden` keeps a skill out of what the agent offers, not out of routing: a
        # hidden skill nobody calls is reached by the user's words alone
        self.skill_words = routing_words(self.defs)
        self.notes: list[str] = []
        self.account: str | None = None
        self.variant = variant
        #: Writes the runtime or a tool makes (not the model): >0 while one is under way.
        self.runtime_writes = 0
        self._model_key: str | None = None
        self.last_model_write = -1
        self.held_writes: list[tuple[str, dict[str, Any]]] = []
        self._collected, self._when_responses = memoized(
            self.defs, "faulted-engine-sets", lambda: _collected_and_when(self.defs)
        )

    def fault(self, kind: str, target: str | None = None) -> bool:
        """Whether the mutant's fault applies here; every mutant-dependent choice of a run
        asks this (or reads `flags`), so the site is noted in `reached`."""
        self.reached.add((kind, target))
        return (
            self.mutant is not None
            and self.mutant.kind == kind
            and (target is None or self.mutant.target == target)
        )

    def freedom(self, kind: str, target: str) -> bool:
        """Whether the variant takes this freedom here; every variant-dependent choice of a
        run asks this, so the site is noted in `reached` as `("variant:<kind>", target)`."""
        self.reached.add(variant_site(kind, target))
        variant = self.variant
        return variant is not None and variant.kind == kind and variant.target == target

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # --- session ----------------------------------------------------------------------------

    def start(self, initial_slots: Any = None) -> None:
        if self.started and not initial_slots:
            return  # every user message starts the session again: nothing new to read
        values = {v for v in dict(initial_slots or {}).values() if isinstance(v, str)}
        account = account_of(values)
        if account is not None:  # a later start without slots keeps the session's account
            self.account = account
        self.runtime_writes += 1  # the channel's seeds, not the model's writes
        try:
            super().start(initial_slots)
        finally:
            self.runtime_writes -= 1

    # --- memory and responses ---------------------------------------------------------------

    def remember(self, key: str, value: Any) -> None:
        if self.fault("forget_memory", key):
            return
        if self.fault("wrong_enum", key):
            values = list(self.field_words(key).values)
            if value in values and len(values) > 1:
                value = values[(values.index(value) + 1) % len(values)]
        by_model = not self.runtime_writes and key not in self._collected
        self._model_key = key if by_model else None
        super().remember(key, value)
        self._model_key = None

    def emit(self, event: str, **payload: Any) -> None:
        """The event, recorded as the variant lets the model order it: a late write held
        until the runtime's next step, two writes of one step in the other order."""
        key = self._model_key
        # the write the model makes (`remember` names its key while it records it)
        if key is not None and event == "memory_set" and payload.get("key") == key:
            if self.freedom("set_late", key):
                self.held_writes.append((event, payload))
                return
            adjacent = self.last_model_write == len(self.events) - 1 and self.events
            top = self.top()
            if (
                adjacent
                and self.events[-1].get("key") != key
                and top is not None
                and self.freedom("reorder_writes", top.skill.id)
            ):
                super().emit(event, **payload)
                first, second = self.events[-2], self.events[-1]
                # new entries: an event the engine emitted is never changed afterwards
                self.events[-2:] = [
                    {**second, "timestamp": first["timestamp"]},
                    {**first, "timestamp": second["timestamp"]},
                ]
                return
            self.last_model_write = len(self.events)
        elif self.held_writes and (
            event in _FLUSH
            or (
                event == "bot"
                and payload.get("metadata", {}).get("utter_action") in self._when_responses
            )
        ):
            self.flush()
        super().emit(event, **payload)

    def flush(self) -> None:
        """Write the held late writes (before the runtime's next step, or at the end)."""
        held, self.held_writes = self.held_writes, []
        for event, payload in held:
            super().emit(event, **payload)

    # --- replies the model words itself -------------------------------------------------

    def utter_first(self, word: str) -> None:
        name = next((n for n in self.defs.responses if word in n), None)
        if name and self.freedom("paraphrase", name):
            self.paraphrase(name)
            return
        super().utter_first(word)

    def cannot_help(self) -> None:
        name = next((n for n in self.defs.responses if "cannot_help" in n), None)
        if name and self.freedom("paraphrase", name):
            self.paraphrase(name)
            return
        super().cannot_help()

    def paraphrase(self, name: str) -> None:
        """The response's words without its template: what a model says in its own words."""
        count = len(self.events)
        self.utter(name)
        if len(self.events) > count and self.events[-1]["event"] == "bot":
            self.events[-1] = {**self.events[-1], "data": {}, "metadata": {}}

    def utter(self, name: str | None, skill_id: str | None = None) -> None:
        if name:
            self.reached.add(("utter", name))
        if name and self.mutant is not None and self.mutant.kind == "drop_on_success":
            skill = self.defs.skills.get(self.mutant.skill or "")
            constraint = skill.tool_constraints.get(self.mutant.target or "") if skill else None
            if constraint is not None and constraint.on_success == name:
                return
        super().utter(name, skill_id)


__all__ = ["FAILING_ACCOUNT", "NEGATIVE_ACCOUNT", "FaultedEngine", "account_of", "account_value"]


def _collected_and_when(defs: MantleDefinitions) -> tuple[frozenset[str], frozenset[str]]:
    """Entries a block's `collect` step fills (the runtime writes them, not the model) and
    responses an `utter: when:` rule says: one pair per project, where each played run
    built them again over every skill."""
    collected = frozenset(
        f"{s.id}.{step.target}"
        for s in defs.skills.values()
        for b in s.blocks.values()
        for step in b.steps
        if step.kind == "collect"
    )
    when = frozenset(rule.response for s in defs.skills.values() for rule in s.utter if rule.when)
    return collected, when
