"""The embedded broker (config/broker.py) never shows a worker a message half written: a
burst of messages put from two threads while a consumer drains the queue folder arrives
whole, every one of them, exactly once. kombu's own filesystem transport created the file
before writing it, and a worker that read it in between stopped on the empty JSON. With
messages of 400 KB (the write takes long enough to be caught) kombu's own transport fails
this test about one run in three."""

import threading
import time
from queue import Empty

import pytest
from kombu import Connection
from kombu.transport import TRANSPORT_ALIASES

pytestmark = pytest.mark.backend


def test_a_burst_of_messages_arrives_whole_and_once(tmp_path):
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "control"),
        "store_processed": False,
    }
    (tmp_path / "control").mkdir()
    sent = 300
    got: list[dict] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def produce(start: int) -> None:
        with Connection("atomicfs://localhost//", transport_options=options) as conn:
            queue = conn.SimpleQueue("burst")
            for i in range(start, sent, 2):
                queue.put({"n": i, "pad": "x" * 400_000})
            queue.close()

    def consume() -> None:
        try:
            with Connection("atomicfs://localhost//", transport_options=options) as conn:
                queue = conn.SimpleQueue("burst")
                deadline = time.monotonic() + 60
                while len(got) < sent and time.monotonic() < deadline:
                    try:
                        message = queue.get(timeout=0.01)
                    except Empty:
                        if done.is_set() and not any(folder.glob("*.msg")):
                            break
                        continue
                    got.append(message.payload)
                    message.ack()
                queue.close()
        except BaseException as error:  # the JSON error a partial file gave
            errors.append(error)

    # Registered by config.settings in the embedded default; here whatever the backend.
    TRANSPORT_ALIASES.setdefault("atomicfs", "config.broker:Transport")
    # The queue and its binding declared once, before the threads: kombu's filesystem
    # exchange table is read and rewritten by each declaration, and three declaring at once
    # could lose the binding (a race of kombu's, not the one this test is about).
    with Connection("atomicfs://localhost//", transport_options=options) as conn:
        conn.SimpleQueue("burst").close()
    consumer = threading.Thread(target=consume)
    consumer.start()
    producers = [threading.Thread(target=produce, args=(k,)) for k in (0, 1)]
    for thread in producers:
        thread.start()
    for thread in producers:
        thread.join()
    done.set()
    consumer.join(timeout=60)
    assert errors == []
    assert sorted(p["n"] for p in got) == list(range(sent))
    assert all(p["pad"] == "x" * 400_000 for p in got)
    assert not list(folder.iterdir())  # no partial file left behind
