"""What a how-to answer must say, where the skill's own text holds the procedure under a
heading ("### Plan your vacation" above numbered steps and the rules that go with them).

A skill that answers from policy text it quotes is judged on whether the answer is that
text's: "answers instead of deflecting" and "does not invent balances" pass an agent that
makes up steps. So a case that opens with a question the body answers under one of its
headings gets a criterion naming that section and what it says first (its first step, and
the first rule it states under a condition), read from the project at generation time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evalcore.definitions import Skill

from ._direction import content_stems

#: A Markdown heading line.
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
#: A numbered list item ("1. Add the days ...").
_STEP = re.compile(r"^\s*\d+[.)]\s+(?P<text>.+)$")
#: A link in prose: Slack's `<url|text>`, Markdown's `[text](url)`; a bare `<url>`.
_LINK = re.compile(r"<\w+://[^|>\s]+\|([^>]+)>|\[([^\]]+)\]\(\w+://[^)\s]+\)|<(\w+://[^>\s]+)>")
#: The end of a sentence (not a decimal point or an abbreviation's dot).
_END = re.compile(r"(?<=[a-z0-9)\"”][.!?])\s+(?=[A-Z])")
_CHARS = 240


@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]

    @property
    def steps(self) -> list[str]:
        """The numbered items, each with its indented continuation lines."""
        out: list[str] = []
        for line in self.lines:
            found = _STEP.match(line)
            if found:
                out.append(found["text"])
            elif out and line.startswith((" ", "\t")) and line.strip():
                out[-1] += " " + line.strip()
            elif line.strip():
                out.append("")  # prose between items ends the one before
        return [s for s in out if s]

    @property
    def prose(self) -> str:
        """The section's text outside its numbered items."""
        kept: list[str] = []
        inside = False
        for line in self.lines:
            if _STEP.match(line):
                inside = True
            elif not line.strip():
                inside = False
            elif not (inside and line.startswith((" ", "\t"))):
                inside = False
                kept.append(" ".join(line.split()))
        return " ".join(kept)


def sections(body: str) -> list[Section]:
    """The body's headed sections, each with the lines up to the next heading."""
    out: list[Section] = []
    title: str | None = None
    lines: list[str] = []
    for line in [*body.splitlines(), "# end"]:
        found = _HEADING.match(line)
        if found is None:
            if title is not None:
                lines.append(line)
            continue
        if title is not None and any(x.strip() for x in lines):
            out.append(Section(title, tuple(lines)))
        title, lines = found["title"], []
    return out


def section_criterion(skill: Skill, question: str) -> str | None:
    """For a question the skill's text answers under one heading ("how do I take vacation"
    and "### Plan your vacation"), the criterion that the answer is that section's: its first
    step (or first sentence) and the first rule it states under a condition. None where the
    opening asks nothing, or no heading shares a word with it beyond the skill's name."""
    if "?" not in question:
        return None
    named = set(content_stems(f"{skill.id.replace('_', ' ')} {skill.name or ''}"))
    wanted = set(content_stems(question))
    found = sections(skill.body or "")

    def rank(item: tuple[int, Section]) -> tuple[int, int, int]:
        index, section = item
        shared = wanted & set(content_stems(section.title))
        # a "how do I" question is answered by steps where a section has them
        return (len(shared - named) * 2 + len(shared & named), bool(section.steps), -index)

    scored = [(i, s) for i, s in enumerate(found) if wanted & set(content_stems(s.title))]
    if not scored:
        return None
    _, best = max(scored, key=rank)
    first = _sentence(best.steps[0] if best.steps else best.prose)
    if not first:
        return None
    said = [first]
    rule = next((s for s in _sentences(best.prose) if s.split(" ", 1)[0] in ("If", "When")), None)
    if rule and rule != first:
        said.append(rule)
    what = " and ".join(f'"{s}"' for s in said)
    if len(what) > _CHARS:
        what = f'"{first}"'
    return (
        f"The agent's answer gives what the skill's \"{best.title}\" section says (in its own "
        f"words, not steps of its own), including {what}"
    )


def _plain(text: str) -> str:
    text = _LINK.sub(lambda m: next(g for g in m.groups() if g), text)
    return " ".join(text.replace("*", "").replace("`", "").split())


def _sentences(text: str) -> list[str]:
    return [s.strip().rstrip(".") for s in _END.split(_plain(text)) if s.strip()]


def _sentence(text: str) -> str:
    found = _sentences(text)
    return found[0] if found else ""


__all__ = ["Section", "section_criterion", "sections"]
