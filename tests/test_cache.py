"""The shared cache with Redis down (config/cache.py): every call answers a miss and stores
nothing, the clock's token store makes its tokens up and keeps nothing built under them; and
once Redis answers again, whatever it kept from before is dropped (the tokens bumped
meanwhile were lost), this cache's keys only."""

import contextlib
import os
import secrets
import socket
import threading
import time

import pytest
import redis

from config import cache as cache_module
from events import clockdoc

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _backend(location: str, prefix: str) -> cache_module.RedisCache:
    return cache_module.RedisCache(location, {"KEY_PREFIX": prefix})


def test_with_redis_down_every_call_answers_a_miss():
    dead = _backend(DEAD_REDIS, f"dead-{secrets.token_hex(4)}")
    assert dead.get("a") is None and dead.get("a", "default") == "default"
    assert dead.get_many(["a", "b"]) == {}
    assert dead.add("a", 1) is False
    assert dead.set("a", 1) is None and dead.get("a") is None
    assert dead.set_many({"a": 1, "b": 2}) == ["a", "b"]  # Django's «not stored»
    assert dead.delete("a") is False and dead.delete_many(["a"]) is None
    assert dead.has_key("a") is False and dead.touch("a") is False
    assert dead.get_or_set("a", 5) == 5
    with pytest.raises(ValueError):  # as for a missing key
        dead.incr("a")


@pytest.fixture
def dead_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": DEAD_REDIS}}
    clockdoc.forget_local()
    yield
    clockdoc.forget_local()


def test_with_redis_down_the_tokens_are_made_up_and_nothing_built_under_them_is_kept(
    dead_cache,
):
    first = clockdoc.tokens([clockdoc.SETUP, clockdoc.clock_key(1)])
    again = clockdoc.tokens([clockdoc.SETUP, clockdoc.clock_key(1)])
    assert all(token.startswith(clockdoc.LOCAL) for token in first.values())
    assert first != again  # each read its own: nothing is stored
    built = []

    def build():
        built.append(1)
        return len(built)

    key = f"table-round:x:{first[clockdoc.SETUP]}"
    assert [clockdoc.by_tokens(key, build) for _ in range(3)] == [1, 2, 3]  # each its own
    rows = clockdoc.many_by_tokens([f"{key}:row"], lambda keys: dict.fromkeys(keys, "row"))
    assert rows == {f"{key}:row": "row"}
    # Kept nowhere: a process would fill its memory with what nobody asks for again.
    assert clockdoc._memo.get(key) is None and clockdoc._memo.get(f"{key}:row") is None


class _Proxy:
    """A TCP relay to the suite's Redis that can be cut and restored on the same port: a
    Redis that goes away and comes back with what it held (its snapshot, a network cut)."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._conns: list[socket.socket] = []
        self._listener = None

    def up(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self):
        with contextlib.suppress(OSError):  # wakes the accept() of the thread (Linux)
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()
        self._conns.clear()

    def _accept(self, listener):
        while True:
            try:
                client, _addr = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self._conns += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()


@pytest.mark.backend
@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the suite's Redis")
def test_once_redis_answers_again_its_keys_of_before_the_outage_are_dropped(monkeypatch):
    monkeypatch.setattr(cache_module, "RETRY_SECONDS", 0.05)
    url = redis.connection.parse_url(os.environ["REDIS_URL"])
    raw = redis.Redis.from_url(os.environ["REDIS_URL"])
    proxy = _Proxy((url.get("host", "127.0.0.1"), url.get("port", 6379)))
    proxy.up()
    prefix = f"outage-{secrets.token_hex(4)}"
    other = f"other-{secrets.token_hex(4)}:1:kept"
    cache = _backend(f"redis://127.0.0.1:{proxy.port}/{url.get('db', 0)}", prefix)
    try:
        raw.set(other, "someone else's")
        cache.set("clock:room:1", "token-before")
        assert cache.get("clock:room:1") == "token-before"

        proxy.down()
        cache.set("clock:room:1", "token-bumped-meanwhile")  # lost: Redis does not answer
        assert cache.get("clock:room:1") is None

        proxy.up()
        time.sleep(0.1)  # past RETRY_SECONDS: the next call tries Redis again
        # Not the token of before the outage: every key of this cache was dropped first.
        assert cache.get("clock:room:1") is None
        assert raw.keys(f"{prefix}:*") == []
        assert raw.get(other) == b"someone else's"  # another prefix's, Celery's: untouched
        cache.set("clock:room:1", "token-after")
        assert cache.get("clock:room:1") == "token-after"
    finally:
        proxy.down()
        for key in raw.keys(f"{prefix}:*"):
            raw.delete(key)
        raw.delete(other)
        raw.close()


def test_the_file_cache_looks_at_its_folder_once_a_minute_not_on_every_write(tmp_path):
    """config.cache.FileCache: a write no longer lists the whole folder; the folder is still
    cut back past MAX_ENTRIES, at the first write after CULL_EVERY_S."""
    location = str(tmp_path / "cache")
    files = cache_module.FileCache(location, {"OPTIONS": {"MAX_ENTRIES": 10}})
    cache_module.FileCache._looked.pop(files._dir, None)
    for i in range(30):
        files.set(f"k{i}", i)
    # Only the first write looked (an empty folder): 30 files, over the limit of 10.
    assert len(os.listdir(location)) == 30
    cache_module.FileCache._looked[files._dir] -= files.CULL_EVERY_S  # a minute later
    files.set("later", 1)
    assert len(os.listdir(location)) == 30 - 30 // 3 + 1  # culled by a third, then written
    assert files.get("later") == 1


@pytest.mark.backend
def test_each_backend_has_its_own_cache_class():
    from django.core.cache import caches

    expected = cache_module.RedisCache if os.environ.get("REDIS_URL") else cache_module.FileCache
    assert type(caches["default"]) is expected
