"""Django's Redis cache, kept answering with Redis down, and with one Redis client per
connection pool instead of one per call; and the embedded default's file cache, which does
not list its whole folder on every write (:class:`FileCache`).

Redis down: the cache is a token store and a store of documents built from the database
(``events.clockdoc``), never the only copy of anything, so a Redis that does not answer is a
cache that is empty. A call that meets a connection error or a timeout answers a miss (``get``
its default, ``get_many`` nothing, ``add`` False, ``incr`` a missing key's ValueError), stores
nothing, and logs at most once a minute per process; for ``RETRY_SECONDS`` after it the cache
answers so at once without trying Redis, so a dead Redis costs each request nothing and one
request a second at most the connect timeout (``CACHE_CONNECT_TIMEOUT_MS``). Every token read
is then a miss, a fresh token is made each time and every document is built from the database:
correct, only slower.

Writes lost meanwhile — a token bumped while Redis did not answer this process — would leave
the old token, and the documents under it, in a Redis that answers again (it was unreachable,
or restarted from its snapshot), and every process would serve them. So once this process has
seen Redis fail, the first call that finds it answering again first deletes every key under
this cache's prefix (``SCAN``, never ``FLUSHDB``: Celery's queue is in the same database): a
missing token is a fresh one, and every document is built again once.

The client: Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every operation, and
building one (0.15 ms: its table of response callbacks) costs more than the round trip to
Redis it wraps (0.08 ms). The clock documents (events/clockdoc.py) are read by hundreds of
polls a second, each with one round trip, so the client is kept. A cache instance belongs to
one thread (``django.core.cache.caches`` is thread-local) and so do its pools and clients; what
an outage leaves to do is the process's, shared by its threads (:class:`_Outage`).
"""

from __future__ import annotations

import logging
import re
import threading
import time

import redis as redis_py
from django.core.cache.backends import filebased, redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT

logger = logging.getLogger("config.cache")

#: After a failed call the cache answers misses at once for this long, then tries Redis again.
RETRY_SECONDS = 1.0
#: «Redis does not answer» is logged at most this often per process.
LOG_SECONDS = 60.0
#: What a Redis that is down, unreachable or hung raises (``BusyLoadingError``, a Redis
#: still loading its snapshot, is a ConnectionError).
DOWN = (redis_py.exceptions.ConnectionError, redis_py.exceptions.TimeoutError)


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class _Outage:
    """One process's view of one Redis cache (its servers and prefix): since when to try it
    again, and whether its keys must be dropped before it is used again."""

    def __init__(self):
        self.lock = threading.Lock()
        self.retry_at = 0.0  # time.monotonic(); before it, calls answer misses untried
        self.stale = False  # it failed since its keys were last dropped
        self.logged_at: float | None = None


_outages: dict[tuple, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(servers, prefix: str) -> _Outage:
    with _outages_lock:
        return _outages.setdefault((tuple(servers), prefix), _Outage())


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._outage = _outage_of(self._servers, self.key_prefix)

    # --- an outage ---------------------------------------------------------------------

    def _failed(self, error: Exception) -> None:
        outage, now = self._outage, time.monotonic()
        outage.retry_at = now + RETRY_SECONDS
        outage.stale = True
        if outage.logged_at is None or now - outage.logged_at >= LOG_SECONDS:
            outage.logged_at = now
            logger.warning(
                "the cache's Redis does not answer (%s): every read is a miss, the pages are "
                "built from the database until it answers again",
                error,
            )

    def _drop_stale_keys(self) -> bool:
        """After an outage, delete this cache's keys before anything else reads them; False
        while that is not done (another thread is at it, or Redis failed again)."""
        outage = self._outage
        if not outage.lock.acquire(blocking=False):
            return False
        try:
            if not outage.stale:
                return True
            client = self._cache.get_client(write=True)
            pattern = re.sub(r"([\\*?\[\]])", r"\\\1", self.key_prefix) + ":*"
            dropped, batch = 0, []
            for key in client.scan_iter(match=pattern, count=1000):
                batch.append(key)
                if len(batch) == 1000:
                    dropped += client.unlink(*batch)
                    batch = []
            if batch:
                dropped += client.unlink(*batch)
            outage.stale = False
            logger.warning(
                "the cache's Redis answers again: its %d keys dropped (tokens may have been "
                "lost meanwhile), the pages are built again once",
                dropped,
            )
            return True
        except DOWN as error:
            self._failed(error)
            return False
        finally:
            outage.lock.release()

    def _call(self, miss, method, *args, **kwargs):
        """``method(*args, **kwargs)`` on Redis; ``miss`` when Redis does not answer."""
        outage = self._outage
        if outage.retry_at > time.monotonic():
            return miss
        if outage.stale and not self._drop_stale_keys():
            return miss
        try:
            return method(*args, **kwargs)
        except DOWN as error:
            self._failed(error)
            return miss

    # --- the calls, answering a miss with Redis down ---------------------------------------

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._call(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call(None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._call(False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._call({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._call(False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        missing = object()
        found = self._call(missing, super().incr, key, delta, version)
        if found is missing:
            raise ValueError(f"Key '{key}' not found.")  # as Django says of a missing key
        return found

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # Django's answer: the keys that could not be stored.
        return self._call(list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        self._call(None, super().delete_many, keys, version)


class FileCache(filebased.FileBasedCache):
    """The embedded default's cache (``make run`` without Redis): Django's file cache, whose
    every write first lists the whole folder to see whether it holds ``MAX_ENTRIES`` files and
    must be culled. Expired files leave only when read, so the folder grows through an evening
    (every room's documents per change and language, every phone's seat block); listing it
    cost each write 1.5 ms at 500 files and 32 ms at 20,000 (bench/bench_file_cache.py). Here a process looks at most
    once every ``CULL_EVERY_S`` seconds (the first write of a process looks at once), shared by
    its threads: the folder may pass ``MAX_ENTRIES`` by what a minute writes before it is cut
    back, which a limit of 100,000 files allows."""

    CULL_EVERY_S = 60.0
    _looked: dict[str, float] = {}
    _lock = threading.Lock()

    def _cull(self):
        now = time.monotonic()
        with self._lock:
            last = self._looked.get(self._dir)
            if last is not None and now - last < self.CULL_EVERY_S:
                return
            self._looked[self._dir] = now
        super()._cull()
