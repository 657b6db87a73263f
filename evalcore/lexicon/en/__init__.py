"""English phrases, one module per kind of text read (see `evalcore.lexicon`), and the one
stemmer every English word comparison shares (`stem`: drafted words and the agents reading
them back, the simulator's labels, the skill model's verbs must meet on the same forms)."""

from ..._stem import stem

__all__ = ["stem"]
