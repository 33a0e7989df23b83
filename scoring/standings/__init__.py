"""The standings (docs/architecture.md): the comparison of each deal and the session's and
event's standings, kept in the cache tables (``recompute``, the one writer; read by
``selectors``), and what the public sees of them — the one rule of what anyone may see
(``disclosure``), the published pages and files (``views``, ``exports``, ``public_access``,
``public_cache``), their addresses (``urls``).

``scoring.standings`` answers the readers' and the writer's names, so that a caller asks
the concept, not the module."""

from scoring.standings.recompute import *  # noqa: F403
from scoring.standings.selectors import *  # noqa: F403
