"""The embedded default's Celery broker: kombu's filesystem transport, each message written
whole before it shows in the queue folder.

kombu's own ``_put`` creates the message's file in the queue folder and only then writes
it; a worker listing the folder in between moves and reads an empty file, and the JSON
error that follows is «unrecoverable»: the worker stops. A burst of tasks (a table's sheets
saved one after another, a publication replaying the ladder) hit it. Here the message is
written under a hidden name in the same folder (the worker's listing skips it: its name
names no queue) and renamed into place, which is atomic on one filesystem.

Registered as the ``atomicfs`` transport in ``config.settings``.
"""

import contextlib
import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` onto ``queue``: written whole, then renamed into the folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        folder = self.data_folder_out
        partial = os.path.join(folder, f".partial-{uuid.uuid4().hex}")
        try:
            with open(partial, "wb", buffering=0) as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, os.path.join(folder, name))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(partial)
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
