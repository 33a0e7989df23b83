"""The app's settings with the embedded SQLite's synchronous=NORMAL instead of FULL: for
``bench/load_event_day.py --embedded --sqlite-synchronous NORMAL`` only, to measure what FULL
costs (docs/operations.md, «Durability»). Never a way to run the app: NORMAL may lose the
last acknowledged saves on a power cut."""

from config.settings import *  # noqa: F403
from config.settings import DATABASES

DATABASES["default"]["OPTIONS"]["init_command"] = (
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
)
