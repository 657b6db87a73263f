"""One model per Mantle skill: what it asks, runs, branches on and counts as success.

    from evalcore.definitions.skill_model import skill_model
    model = skill_model(project, "file_claim")      # built once per Project, then cached
    [t.name for t in model.terminal_tools()], model.modes, model.uncertainties

Planners, drafters, lint rules and prompts read this instead of re-reading blocks, prose and
frontmatter; `casegen sources --explain SKILL` prints it.
"""

from ._answer_keys import answer_keys
from ._arguments import parameter_fields, sentence_arguments
from ._branches import branched_keys, skill_branches
from ._build import build_skill_model, skill_model, skill_models
from ._clock_windows import clock_window_calls, in_a_window, plain_sentence, quoted_windows
from ._code import UNKNOWN, CodeFacts, Write, code_facts, qualify, set_memory_keys, tool_keys
from ._completion import Completion, completes_at, completion_instruction
from ._data_files import data_readers
from ._fields import (
    asked_in_paragraph,
    asking_sentence,
    asks_for,
    instruction_prompt,
    literal_sets,
    skill_fields,
)
from ._flags import branch_target, branch_values, skipped_keys, skipped_tools
from ._held import held_thing, lacked_in_cue, lacking_cue, listed_things, says_lacking
from ._mentions import (
    asked_to,
    asks_before,
    kept_set_at,
    prose_reads,
    prose_verb,
    record_key,
    recorded_early,
    set_at,
    set_from_answer,
    written_by_agent,
)
from ._normalised import normalised_parameters
from ._outside import (
    OutsideEffect,
    answer_writers,
    detour_effects,
    outside_effect,
    reported_fields,
    runtime_reads,
    tool_effect,
)
from ._relations import related_keys, relation_waivers
from ._sums import summed_writes
from ._text import Paragraph, Sentence, body_first_line, paragraphs, sentences
from ._types import (
    Branch,
    BranchOption,
    CallSite,
    Delegation,
    FieldSpec,
    Gate,
    MemoryWrite,
    Mode,
    ModeValue,
    Record,
    Rule,
    SkillModel,
    SuccessSignal,
    ToolUse,
    Uncertainty,
    Where,
)

__all__ = [
    "UNKNOWN",
    "Branch",
    "BranchOption",
    "CallSite",
    "CodeFacts",
    "Completion",
    "Delegation",
    "FieldSpec",
    "Gate",
    "MemoryWrite",
    "Mode",
    "ModeValue",
    "OutsideEffect",
    "Paragraph",
    "Record",
    "Rule",
    "Sentence",
    "SkillModel",
    "SuccessSignal",
    "ToolUse",
    "Uncertainty",
    "Where",
    "Write",
    "answer_keys",
    "answer_writers",
    "asked_in_paragraph",
    "asked_to",
    "asking_sentence",
    "asks_before",
    "asks_for",
    "body_first_line",
    "branch_target",
    "branch_values",
    "branched_keys",
    "build_skill_model",
    "clock_window_calls",
    "code_facts",
    "completes_at",
    "completion_instruction",
    "data_readers",
    "detour_effects",
    "held_thing",
    "in_a_window",
    "instruction_prompt",
    "kept_set_at",
    "lacked_in_cue",
    "lacking_cue",
    "listed_things",
    "literal_sets",
    "normalised_parameters",
    "outside_effect",
    "paragraphs",
    "parameter_fields",
    "plain_sentence",
    "prose_reads",
    "prose_verb",
    "qualify",
    "quoted_windows",
    "record_key",
    "recorded_early",
    "related_keys",
    "relation_waivers",
    "reported_fields",
    "runtime_reads",
    "says_lacking",
    "sentence_arguments",
    "sentences",
    "set_at",
    "set_from_answer",
    "set_memory_keys",
    "skill_branches",
    "skill_fields",
    "skill_model",
    "skill_models",
    "skipped_keys",
    "skipped_tools",
    "summed_writes",
    "tool_effect",
    "tool_keys",
    "written_by_agent",
]
