"""The offline draft of a `task` prompt: a person asks for one task an Agent Skill supports.

    prompt, checks = draft_task(behavior.facts)

The planner (`agentflows.planning._base44_tasks`) chose the task, the language, the file the
prompt names and what the skill prescribes for its code; this module words the request as a
person would (in one turn: the person says to assume what they left out, so a correct agent
writes the file rather than asking back) and writes the checks. Each holds for every correct
agent: the file is where the person asked for it, Python compiles, the library the skill's
code uses is imported, the calls the skill's do-lines prescribe are there and the ones its
don't-lines warn about are not; a task on an input file of the starter project names it
in the request, and the file must name it too (the code opens that file). An agent that
writes nothing (or only echoes the request) fails the first.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.lexicon.notation.input_paths import URL_SCHEME

Check = dict[str, Any]
ASSUME = "Where I have not said something, make a reasonable assumption instead of asking me."
#: What a person asks for when they want a scheme's way of opening a file, in their own
#: words: a request that names the scheme itself would make its check test the prompt.
SCHEME_ASKS: dict[str, str] = {
    "file": (
        "I'd like a script that opens the page straight from its file, without starting a server."
    )
}
#: Parses an XML file without running anything of it (the standard library's parser).
XML_PARSES = 'python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" {path}'
#: Regex flags of code checks: case matters in code; `^` anchors at each line.
CODE_FLAGS = "m"


def draft_task(facts: dict[str, Any]) -> tuple[str, list[Check]]:
    """The prompt text and checks of a `task` behaviour's facts."""
    path, language = facts["path"], facts["language"]
    if facts.get("format"):
        return _format_task(facts)
    inputs = list(facts.get("inputs") or ())
    on = " and ".join(f"`{name}`" for name in inputs)
    jobs = list(facts.get("jobs") or ())
    output = facts.get("output") or ""
    reads = list(facts.get("reads") or ())
    thing = facts.get("thing") or ""
    if thing and reads and not (inputs or jobs or output):  # the job, in the person's words
        prompt = (
            f"Please write {_article(thing)} {thing} in {language}. "
            + "".join(f"{doc['about']} {doc['request']} " for doc in reads)
            + f"Put the code in `{path}`. {ASSUME}"
        )
    elif jobs and not (facts.get("own") or output):  # the input's job is all it asks
        prompt = (
            f"Please write a {language} script for {on}, in this folder. "
            + "".join(f"{job['request']} " for job in jobs)
            + f"Put the code in `{path}`. {ASSUME}"
        )
    else:
        prompt = (
            _ask(facts["phrase"])
            + (f"It's for {on}, in this folder. " if inputs else "")
            + "".join(f"{job['request']} " for job in jobs)
            + "".join(f"{doc['about']} {doc['request']} " for doc in reads)
            + (f"Save the result as `{output}`. " if output else "")
            + f"Use {language}, and put the code in `{path}`. {ASSUME}"
        )
    checks: list[Check] = [
        {
            "type": "file-exists",
            "description": f"The {language} file is where the request asked for it: {path}",
            "filePath": path,
        }
    ]
    checks += [
        {
            "type": "file-content",
            "description": f"Works on the file the request names: {name}",
            "filePath": path,
            "pattern": re.escape(name),
            "flags": CODE_FLAGS,
        }
        for name in inputs
    ]
    checks += [
        {
            "type": "file-content",
            "description": f"Does what the request asks: {job['says']}",
            "filePath": path,
            "pattern": job["done"],
            "flags": CODE_FLAGS,
        }
        for job in [*jobs, *reads]
        if job["done"]
    ]
    if output:  # the code writes it there (the fixture does not run the code)
        checks.append(
            {
                "type": "file-content",
                "description": f"Saves where the request asked: {output}",
                "filePath": path,
                "pattern": re.escape(output),
                "flags": CODE_FLAGS,
            }
        )
    checks += [
        {
            "type": "file-content",
            "description": _own_description(pattern),
            "filePath": path,
            "pattern": pattern,
            "flags": CODE_FLAGS,
        }
        for pattern in facts.get("own") or ()
    ]
    if path.endswith(".py"):
        checks.append(
            {
                "type": "command-passes",
                "description": f"{path} is valid Python (compiled, not run)",
                "command": f"python3 -m py_compile {path}",
            }
        )
    if facts.get("imports"):
        checks.append(
            {
                "type": "file-content",
                "description": "Imports the library the skill's code uses",
                "filePath": path,
                "pattern": facts["imports"],
                "flags": CODE_FLAGS,
            }
        )
    if facts.get("uses"):
        name = facts["uses"]
        checks.append(
            {
                "type": "file-content",
                "description": f"Uses {name}, which the skill's description names for it",
                "filePath": path,
                "pattern": rf"\b{re.escape(name)}\b",
                "flags": CODE_FLAGS,
            }
        )
    if facts.get("decorator"):
        name = facts["decorator"]
        checks.append(
            {
                "type": "file-content",
                "description": f"Registers its parts with @….{name}, as the skill's code does",
                "filePath": path,
                "pattern": rf"^\s*@\w+\.{re.escape(name)}\b",
                "flags": CODE_FLAGS,
            }
        )
    checks += [
        {
            "type": "file-content",
            "description": "Makes the call the skill says to make",
            "filePath": path,
            "pattern": pattern,
            "flags": CODE_FLAGS,
        }
        for pattern in facts.get("do") or ()
    ]
    checks += [
        {
            "type": "file-content-excluded",
            "description": "Does not make a call the skill warns against",
            "filePath": path,
            "pattern": pattern,
            "flags": CODE_FLAGS,
        }
        for pattern in facts.get("dont") or ()
    ]
    checks += [
        {
            "type": "file-content-excluded",
            "description": f"Keeps the library's default {unset['keeps']}, as the skill's "
            "code does (a call that leaves it out keeps it too): does not set the opposite",
            "filePath": path,
            "pattern": unset["pattern"],
            "flags": CODE_FLAGS,
        }
        for unset in facts.get("unset") or ()
    ]
    return prompt, checks


def _article(noun: str) -> str:
    """ "a" or "an" by how the noun is said: a capitalised acronym by its first letter's name
    ("an MCP server", "a REST client"), a word by its first letter."""
    first = noun.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return "an" if first[:1].lower() in "aeio" else "a"


def _format_task(facts: dict[str, Any]) -> tuple[str, list[Check]]:
    """A file in the data format the skill shows a sample of: it exists, it parses, and an
    XML file has the sample's elements (the skill prescribes that structure)."""
    path, name = facts["path"], facts["language"]
    prompt = f"Can you help me {facts['phrase']}? Put the result in `{path}` as {name}. {ASSUME}"
    thing, reads = facts.get("thing") or "", list(facts.get("reads") or ())
    built = [doc["subject"] for doc in reads if doc.get("subject")]
    if thing and built:  # the work is on what the person built: say it exists, and on what
        prompt = (
            f"I wrote {_article(thing)} {thing} for {built[0]}. Can you help me "
            f"{facts['phrase']} for it? Put the result in `{path}` as {name}. {ASSUME}"
        )
        reads = []
    elif facts.get("context"):
        prompt = f"I'm {facts['context']}. {prompt}"
    for doc in reads:
        prompt = prompt.replace(f" {ASSUME}", f" {doc['about']} {ASSUME}")
    checks: list[Check] = [
        {
            "type": "file-exists",
            "description": f"The {name} file is where the request asked for it: {path}",
            "filePath": path,
        }
    ]
    if facts["format"] == "json":
        checks.append(
            {"type": "valid-json", "description": f"{path} is valid JSON", "filePath": path}
        )
    elif facts["format"] == "xml":
        checks.append(
            {
                "type": "command-passes",
                "description": f"{path} is well-formed XML",
                "command": XML_PARSES.format(path=path),
            }
        )
    checks += [
        {
            "type": "file-content",
            "description": f"Has <{tag}> elements, as the skill's {name} sample shows",
            "filePath": path,
            "pattern": f"<{re.escape(tag)}[\\s>/]",
            "flags": CODE_FLAGS,
        }
        for tag in facts.get("tags") or ()
    ]
    return prompt, checks


def _ask(phrase: str) -> str:
    """The request's opening: the task's words, unless they name a URL scheme; then what the
    person wants of it in their own words, so the scheme's check measures the skill and not
    an echo of the request."""
    asks = [SCHEME_ASKS[s] for s in URL_SCHEME.findall(phrase) if s in SCHEME_ASKS]
    return f"{asks[0]} " if asks else f"Can you help me with {phrase}? "


def _own_description(pattern: str) -> str:
    """What an own-call check asks: one that looks for a quoted name says which name, so two
    such checks of one task read apart."""
    name = re.search(r"\)\*(\w+)\\b", pattern) if pattern.startswith("['") else None
    if name:
        return f"Names '{name.group(1)}', as the skill's code for the task does"
    return "Makes the call that does the task, as the skill's code for it does"


__all__ = ["draft_task"]
