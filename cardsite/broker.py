"""The embedded broker: kombu's filesystem transport, made safe for many writers at once.

kombu's transport writes a message by creating its file under its final name and then writing
into it; a worker listing the folder in between takes the empty file, fails to read it as JSON
and stops ("Unrecoverable error: JSONDecodeError"), and every later run stays queued. The
same holds for the exchange tables (a table file created, then written). Here:

- a message is written whole under a hidden name (which no queue reads) and renamed to its
  final name, an atomic step: a worker sees a whole message or none;
- an exchange table is rewritten the same way, under an exclusive lock of a file of its own;
- a message file that cannot be read as JSON all the same (one a full disk cut short, or
  left by an older writer) is logged as an error and skipped: the worker carries on with the
  next message instead of stopping.

Settings name it (`EMBEDDED_BROKER_TRANSPORT`) when `CELERY_BROKER_URL` is `filesystem://`.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import BinaryIO

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole: a hidden file in the same folder, renamed over it."""
    fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):  # type: ignore[override] # kombu's own two differ
        """Put a message on `queue`, visible only once written whole."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        path = Path(self.data_folder_out) / name
        try:
            _write_atomically(path, dumps(payload).encode())
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to the queue") from exc

    def _get(self, queue, timeout=None):
        """The next message of `queue`; one that cannot be read is set aside and skipped."""
        while True:
            try:
                return super()._get(queue)
            except Empty:
                raise
            except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
                # kombu has already taken the file out of the queue folder (or read it from
                # the processed folder): say so, and go on with the next message.
                logger.error(
                    "unreadable message skipped",
                    extra={"queue": queue, "error": f"{exc.__class__.__name__}: {exc}"},
                )

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(parents=True, exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(file):
            queues = self.get_table(exchange)
            if entry not in queues:
                queues.insert(0, entry)
                _write_atomically(file, dumps(queues).encode())

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        # the virtual channel's own bookkeeping, then the table (skipping the filesystem
        # channel's in-place rewrite)
        super(filesystem.Channel, self)._delete(
            queue, exchange, routing_key, pattern, *args, **kwargs
        )
        file = self._exchange_file(exchange)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_lock(file):
            queues = self.get_table(exchange)
            if entry in queues:
                queues.remove(entry)
                _write_atomically(file, dumps(queues).encode())

    def get_table(self, exchange):
        file = self._exchange_file(exchange)
        try:
            text = file.read_text()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc
        return [filesystem.exchange_queue_t(*q) for q in loads(text)]

    def _table_lock(self, file: Path):
        return _Lock(file.with_name(f".{file.name}.lock"))


class _Lock:
    """An exclusive lock of a file of its own (the table is replaced, not written in place)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: BinaryIO | None = None

    def __enter__(self):
        self.file = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        filesystem.lock(self.file, filesystem.LOCK_EX)
        return self

    def __exit__(self, *exc_info):
        assert self.file is not None
        try:
            filesystem.unlock(self.file)
        finally:
            self.file.close()


class Transport(filesystem.Transport):
    Channel = Channel
