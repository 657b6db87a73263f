"""Justification comments are placed by libyaml's composer, at the same lines as before.

`annotate_yaml` finds each check's line by composing the case's YAML; PyYAML's pure-Python
composer took two thirds of writing a justified case. libyaml's gives the same nodes and
marks, so the comments land on the same lines; text libyaml does not read as the case
loader would (tabs, control characters) still goes to the pure-Python one.
"""

from __future__ import annotations

import pytest

from evalcore import justify, yamlio
from evalcore._pyyaml import yaml
from evalcore.justify import Judged, Justification, Note, annotate_yaml

TEXT = """\
scenario:
  name: Café refund — “quoted” name
  type: happy_path
  simulation_context: >-
    You are Zoë, who ordered a flat white at the café on the corner and was charged twice for
    it; you want the second charge refunded.
  setup:
    initial_slots:
      project.caller_phone: '+15550142'
  goals:
    criteria:
      - The agent confirms the refund before placing it.
    assertions:
      - tool_executed: refund_payment
      - memory_was_set:
          - name: refund_amount
            value: 4.5
"""
JUDGED = [
    Note("", "the case needs review", label="needs-review"),
    Note("/scenario/setup/initial_slots/project.caller_phone", "+15550142 is built in"),
    Judged("/scenario/goals/criteria/0", "criterion", None, top=True),
    Judged(
        "/scenario/goals/assertions/0",
        "tool_executed",
        Justification("enforced", "skills/refund/skill.md", 7, "execute_tool refund_payment"),
        top=True,
    ),
    Judged(
        "/scenario/goals/assertions/1/memory_was_set/0",
        "memory_was_set",
        Justification("instructed", "skills/refund/skill.md", 12, "prose sets refund_amount"),
    ),
    Judged("/scenario/goals/assertions/9", "tool_executed", None),
]


def _pure_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlio, "deferred_loader", lambda text: None)


@pytest.mark.parametrize("text", [TEXT, TEXT.replace("4.5", "'4.5'\n  # note"), "", "a: [1\n"])
def test_comments_land_where_the_pure_composer_puts_them(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    fast = annotate_yaml(text, JUDGED)
    _pure_only(monkeypatch)
    assert annotate_yaml(text, JUDGED) == fast


def test_libyamls_composer_is_the_one_used(monkeypatch: pytest.MonkeyPatch) -> None:
    if yamlio.deferred_loader(TEXT) is None:
        pytest.skip("PyYAML without libyaml")

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pure-Python composer was asked")

    monkeypatch.setattr(yaml, "compose", refused)
    out = annotate_yaml(TEXT, JUDGED)
    lines = out.split("\n")
    at = lines.index("      - tool_executed: refund_payment")
    assert lines[at - 1] == (
        "      # enforced: skills/refund/skill.md:7 execute_tool refund_payment"
    )
    assert justify.without_justifications(out) == TEXT


def test_text_libyaml_would_read_otherwise_goes_to_the_pure_composer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tabbed = TEXT.replace("Zoë, who", "Zoë,\twho")
    asked: list[str] = []
    real = yaml.compose
    monkeypatch.setattr(
        yaml, "compose", lambda text, Loader: asked.append(text) or real(text, Loader=Loader)
    )
    fast = annotate_yaml(tabbed, JUDGED)
    assert asked == [tabbed]
    assert "# enforced: skills/refund/skill.md:7" in fast
