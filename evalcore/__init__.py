"""evalcore: the engine under casegen's flows (definitions, dialects, runner, simulator, judge).

What the package itself offers, for code outside it: `read_limited` and `read_text`, the one
way casegen reads a file (a regular file, under the size limit of the settings nearest it),
and the user's cache folder (`cache_root`, `read_cache`: a bounded read of a file this user
owns). Everything else is offered by the subpackages' own `__init__`.
"""

from ._readbytes import read_limited, read_text
from ._valuecache import cache_root, read_cache

__all__ = ["cache_root", "read_cache", "read_limited", "read_text"]
