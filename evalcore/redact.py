"""Secrets out of everything casegen writes or prints.

A model endpoint or an agent may echo the API key in an error body, a check may print the
environment, a URL may carry `user:password@`. Every such text goes through `redact` before it
reaches a results file, a report, the checkpoint store, a tool reply or the terminal:

- the values of secret-looking environment variables (`OPENAI_API_KEY`, any name ending in
  `_KEY`, `_TOKEN`, `_SECRET` or `PASSWORD`) and of keys registered with `register_secret`
  (the configured model key, whatever variable holds it);
- `Bearer …` and `Authorization: Basic …` credentials; `sk-…`-style tokens (`sk-`,
  `sk-proj-`, `ghp_`, `xoxb-`, `AKIA…`);
- URL user-info: `http://user:pass@host` → `http://***@host`.

Values shorter than `MIN_SECRET_CHARS` are not replaced (a `_KEY=1` flag is not a secret and
replacing every "1" would wreck the text).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable
from typing import Any, TypeVar

# Variables whose values are secrets by name (`SECRET_NAME`), the shapes of secrets in text
# (`_BEARER`, `_TOKEN`, `_USERINFO`) and what every match of those three contains (`_MAYBE`):
# text without `_MAYBE` skips the three. Most texts are ids and words, and one search costs
# less than three subs.
from .lexicon.notation.secret_shapes import BEARER as _BEARER
from .lexicon.notation.secret_shapes import MAYBE_SECRET as _MAYBE
from .lexicon.notation.secret_shapes import SECRET_NAME
from .lexicon.notation.secret_shapes import TOKEN as _TOKEN
from .lexicon.notation.secret_shapes import USERINFO as _USERINFO

MASK = "***"
MIN_SECRET_CHARS = 6

_REGISTERED: set[str] = set()

T = TypeVar("T")


def register_secret(value: str | None) -> None:
    """Redact `value` from now on (the configured model key, a key from `api_key_env`)."""
    if value and len(value) >= MIN_SECRET_CHARS:
        _REGISTERED.add(value)


@functools.lru_cache(maxsize=4096)
def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name says it holds a secret."""
    return bool(SECRET_NAME.search(name.upper()))


def known_secrets(environ: dict[str, str] | None = None) -> list[str]:
    """Secret values known now, longest first (so a key is not half-replaced by a prefix).

    Read on every redaction (the environment may change): only the values of secret names
    are read, and each name is classified once. `os.environ` is read from its table of
    encoded names and values (its own iteration decodes every name, one generator step
    each, about 2 µs a variable; a Ray worker has dozens and redacts every record)."""
    env = os.environ if environ is None else environ
    raw = getattr(env, "_data", None) if env is os.environ else None
    if isinstance(raw, dict):
        decode = os.environ.decodevalue
        values = {
            v
            for k, encoded in raw.items()
            if _secret_key(k) and len(v := decode(encoded)) >= MIN_SECRET_CHARS
        }
    else:
        values = {v for k in env if is_secret_name(k) and len(v := env[k]) >= MIN_SECRET_CHARS}
    return sorted(values | _REGISTERED, key=len, reverse=True)


@functools.lru_cache(maxsize=4096)
def _secret_key(encoded: Any) -> bool:
    """`is_secret_name` of a name as `os.environ` keeps it (encoded)."""
    return is_secret_name(os.environ.decodekey(encoded))


def redact(text: str, secrets: Iterable[str] | None = None) -> str:
    """`text` with known secret values, bearer credentials, tokens and URL user-info masked."""
    if not text:
        return text
    for value in known_secrets() if secrets is None else secrets:
        if value in text:
            text = text.replace(value, MASK)
    if _MAYBE.search(text) is None:
        return text
    text = _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _TOKEN.sub(MASK, text)
    return _USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", text)


def redact_data(value: T, secrets: Iterable[str] | None = None) -> T:
    """Every string in a JSON-like value (dicts, lists, tuples) redacted; keys included."""
    known = known_secrets() if secrets is None else list(secrets)
    return _walk(value, known, {})


def redact_fresh(value: T) -> T:
    """`redact_data(value)` for a JSON value no one else holds (a record just dumped): the
    value itself when none of its texts has anything to mask.

    That is decided on its JSON text: every secret and every text the three patterns need
    (`_MAYBE`) is made of characters JSON writes as they are, so a string that has one puts
    it in the text too (a secret with a quote, a backslash or a control character is not,
    and takes the walk). ASCII text is searched for `_MAYBE`'s texts lower-cased, a few
    substring searches (the pattern itself, case-insensitive at its start, costs more than
    the walk on a whole record); other text, where case folding reaches further (`ı`, `K`),
    and a value JSON cannot write take the walk."""
    secrets = known_secrets()
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return _walk(value, secrets, {})
    if not text.isascii():
        return _walk(value, secrets, {})
    lowered = text.lower()
    if any(needle in lowered for needle in _NEEDLES) or any(
        _ESCAPED.search(s) is not None or s in text for s in secrets
    ):
        return _walk(value, secrets, {})
    return value


#: Characters JSON writes escaped.
_ESCAPED = re.compile(r'["\\\x00-\x1f]')
#: `_MAYBE`'s texts, lower-cased: lower-cased ASCII text with none of them has no match.
_NEEDLES = (
    *("bearer", "authorization", "sk-", "pk-", "rk-", "github_pat_", "akia", "://"),
    *(f"gh{c}_" for c in "pousr"),
    *(f"xox{c}-" for c in "abprs"),
)


def _walk(value: Any, secrets: list[str], done: dict[str, str]) -> Any:
    """`done`: the texts of this walk already redacted (a record repeats its keys)."""
    if isinstance(value, str):
        if value not in done:
            done[value] = redact(value, secrets)
        return done[value]
    if isinstance(value, dict):
        return {_walk(k, secrets, done): _walk(v, secrets, done) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, secrets, done) for v in value]
    if isinstance(value, tuple):
        return tuple(_walk(v, secrets, done) for v in value)
    return value


def scrubbed_env(pass_env: Iterable[str] = (), environ: dict[str, str] | None = None) -> dict:
    """The environment for an agent or check process: without secret-named variables.

    Names in `pass_env` are kept (the person asked for them: a token the agent needs).
    """
    env = dict(os.environ if environ is None else environ)
    keep = set(pass_env)
    return {k: v for k, v in env.items() if k in keep or not is_secret_name(k)}


__all__ = [
    "MASK",
    "MIN_SECRET_CHARS",
    "is_secret_name",
    "known_secrets",
    "redact",
    "redact_data",
    "redact_fresh",
    "register_secret",
    "scrubbed_env",
]
