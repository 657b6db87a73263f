"""An agent's command template: the `{prompt}`/`{prompt_file}` placeholders, the
`$CASEGEN_PROMPT` variables a template may read instead, and the interpreters that read
code (which a safety check must treat like a shell). Command-line names, not English."""

from __future__ import annotations

from .. import phrase

#: A placeholder casegen fills, its name as group 1.
PLACEHOLDER = phrase(
    "notation.agent_commands.placeholder",
    r"\{(prompt|prompt_file)\}",
    matches=("my-agent --ask {prompt}", "my-agent < {prompt_file}"),
    misses=("my-agent --ask {question}", "my-agent $CASEGEN_PROMPT"),
)
#: The prompt's environment variables named in a template (`$X` or `${X}`).
NAMES_VARIABLE = phrase(
    "notation.agent_commands.names_variable",
    r"\$\{?(CASEGEN_PROMPT|CASEGEN_PROMPT_FILE)\b",
    matches=('my-agent "$CASEGEN_PROMPT"', "cat ${CASEGEN_PROMPT_FILE}"),
    misses=("my-agent $CASEGEN_PROMPTS", "my-agent CASEGEN_PROMPT"),
)
#: Interpreters by program name (a code flag, a script path as first operand, or stdin).
INTERPRETERS = phrase(
    "notation.agent_commands.interpreters",
    r"^(?:python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl[\d.]*|ruby[\d.]*|php[\d.]*|lua[\d.]*"
    r"|luajit|tclsh[\d.]*|wish|Rscript|R|julia|osascript|gawk|mawk|nawk|awk|sed|gsed|jshell"
    r"|groovy|scala|kotlin|erl|escript|elixir|guile|racket|sbcl|clisp|ghci|runghc|expect)$",
    matches=("python3.12", "node", "awk", "R"),
    misses=("my-agent", "pythonista", "git", "/usr/bin/python3"),
)
