"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every operation, and building
one (0.15 ms: its table of response callbacks) costs more than the round trip to Redis it
wraps (0.08 ms). The clock documents (events/clockdoc.py) are read by hundreds of polls a
second, each with one round trip, so the client is kept. A cache instance belongs to one
thread (``django.core.cache.caches`` is thread-local) and so do its pools and clients.
"""

from django.core.cache.backends import redis


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


class RedisCache(redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
