"""The asyncio client: the same requests as `scrolld.Client`, as coroutines; subscriptions and
observations as async iterators. One reader task per connection sorts what the daemon sends.

    async with scrolld.aio.connect() as client:
        async for state in client.subscribe("main"):
            ...
"""
import asyncio
import time
import os
from typing import Any, Dict, List, Optional, Union

from ._router import Router, Stream, check_welcome, newest_of
from ._types import ScrolldError, State
from ._wire import (configure_request, decode, observe_request,
                    scroll_by_request, scroll_to_request)
from .client import FIRST_RETRY, LAST_RETRY, checked_arguments, not_connected

__all__ = ["connect", "AsyncClient", "AsyncSubscription", "AsyncObserver"]

# A state line is a few hundred bytes; a megabyte leaves room for any reply.
_LINE_LIMIT = 1 << 20


async def _open(path: str, timeout: float):
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(path, limit=_LINE_LIMIT), timeout)
    except (FileNotFoundError, ConnectionRefusedError) as error:
        raise ScrolldError("not_running", f"scrolld is not running (no daemon at {path}: {error.strerror})") from None
    except asyncio.TimeoutError:
        raise ScrolldError("timeout", f"cannot connect to {path} within {timeout} s") from None
    except OSError as error:
        raise ScrolldError("not_running", f"cannot connect to {path}: {error}") from None
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
        if not line:
            raise ScrolldError("disconnected", f"scrolld at {path} closed the connection before its welcome")
        return reader, writer, check_welcome(decode(line))
    except asyncio.TimeoutError:
        writer.close()
        raise ScrolldError("timeout", f"no welcome from {path} within {timeout} s") from None
    except BaseException:
        writer.close()
        raise


class _AsyncIterator(Stream):
    def __init__(self, client: "AsyncClient", kind: str, request: Dict[str, Any]):
        super().__init__(kind, request)
        self._client = client
        self._changed = asyncio.Event()
        self._started = False

    def _put(self, item: Any) -> None:
        self._queue(item)
        self._changed.set()

    def _finish(self, error: Optional[ScrolldError]) -> None:
        self._error = error
        self._changed.set()

    async def _start(self):
        if not self._started:
            self._started = True
            try:
                await self._client._call(self.request, self)
            except BaseException as error:
                # Refused, unanswered or cancelled: the iterator ends with why, and nothing of
                # it stays for a reconnection to send again.
                self._client._router.abandon(self, error if isinstance(error, ScrolldError) else None)
                raise
        return self

    def __await__(self):
        return self._start().__await__()

    def __aiter__(self):
        return self

    async def __anext__(self):
        await self._start()
        while not self._items and not self.ended:
            self._changed.clear()
            await self._changed.wait()
        if self._items:
            return self._items.popleft()
        if self._error is not None:
            raise self._error
        raise StopAsyncIteration

    def poll(self):
        """The newest item waiting, the others dropped; None when nothing is waiting."""
        if self._items:
            return newest_of(self._items)
        if self.ended and self._error is not None:
            raise self._error
        return None

    async def aclose(self) -> None:
        """Unsubscribes (or unobserves); iteration then stops."""
        if not self.ended:
            await self._client._close_stream(self)

    async def __aenter__(self):
        return await self._start()

    async def __aexit__(self, *exc_info) -> None:
        await self.aclose()


class AsyncSubscription(_AsyncIterator):
    """Async-iterates over a container's `State`s. Awaiting it subscribes at once (and raises
    the daemon's error then); iterating without awaiting subscribes at the first item."""


class AsyncObserver(_AsyncIterator):
    """Async-iterates over an observed value's `Observation`s."""


class AsyncClient:
    """See `scrolld.Client`; create one with `await scrolld.aio.connect(...)`."""

    def __init__(self, path: str, reconnect: bool, timeout: float, restore_offsets: bool = True):
        self.socket_path = path
        self.reconnect = reconnect
        self.timeout = timeout
        self.welcome: Dict[str, Any] = {}
        self._router = Router()
        self._router.restore_offsets = restore_offsets
        self._writer: Optional[asyncio.StreamWriter] = None
        self._write_lock = asyncio.Lock()
        self._connected = asyncio.Event()
        self._closing = asyncio.Event()
        self._task: Optional[asyncio.Task] = None

    async def _start(self) -> "AsyncClient":
        reader, self._writer, self.welcome = await _open(self.socket_path, self.timeout)
        self._router.welcomed(self.welcome)
        self._connected.set()
        self._task = asyncio.ensure_future(self._run(reader))
        return self

    @property
    def features(self) -> List[str]:
        return list(self.welcome.get("features", []))

    @property
    def connected(self) -> bool:
        return self._writer is not None

    async def configure(self, container: str, **settings: Any) -> None:
        await self._call(configure_request(container, settings))

    async def scroll_to(self, container: str, *, x=None, y=None, row=None, anchor=None, edge=None, animation=None) -> None:
        await self._call(scroll_to_request(container, x, y, row, anchor, edge, animation))

    async def scroll_by(self, container: str, *, dx=None, dy=None, animation=None) -> None:
        await self._call(scroll_by_request(container, dx, dy, animation))

    async def pause(self, container: str) -> None:
        await self._call({"op": "pause", "container": container})

    async def resume(self, container: str) -> None:
        await self._call({"op": "resume", "container": container})

    async def focus(self, container: Optional[str]) -> None:
        await self._call({"op": "focus", "container": container})

    async def flash_indicators(self, container: str) -> None:
        """Shows the container's scroll indicators for their linger time (docs/design.md §22)."""
        await self._call({"op": "flashIndicators", "container": container})

    async def remove(self, container: str) -> None:
        await self._call({"op": "remove", "container": container})

    async def begin_refresh(self, container: str) -> None:
        """`Client.begin_refresh`: starts a refresh without a pull (docs/design.md §21)."""
        await self._call({"op": "beginRefresh", "container": container})

    async def end_refresh(self, container: str) -> None:
        """`Client.end_refresh`: ends the refresh, springing back to the top."""
        await self._call({"op": "endRefresh", "container": container})

    async def get(self, container: str) -> State:
        return State.from_message(await self._call({"op": "get", "container": container}))

    async def devices(self) -> Dict[str, Any]:
        reply = await self._call({"op": "devices"})
        return {k: v for k, v in reply.items() if k not in ("type", "id")}

    async def reload(self) -> Dict[str, Any]:
        reply = await self._call({"op": "reload"})
        return {k: v for k, v in reply.items() if k not in ("type", "id")}

    async def ping(self) -> float:
        start = time.monotonic()
        await self._call({"op": "ping"})
        return time.monotonic() - start

    def subscribe(self, container: str, rate: Optional[float] = None, wait: bool = False) -> AsyncSubscription:
        request: Dict[str, Any] = {"op": "subscribe", "container": container}
        if rate is not None:
            request["rate"] = rate
        if wait:
            request["wait"] = True
        return AsyncSubscription(self, "subscribe", request)

    def observe(self, container: str, of: str, wait: bool = False, **options: Any) -> AsyncObserver:
        request = observe_request(container, of, options)
        if wait:
            request["wait"] = True
        return AsyncObserver(self, "observe", request)

    async def close(self) -> None:
        self._closing.set()
        if self._writer is not None:
            self._writer.close()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), self.timeout)
            except asyncio.TimeoutError:
                self._task.cancel()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    # --- the connection -------------------------------------------------------------------

    async def _call(self, request: Dict[str, Any], stream: Optional[Stream] = None) -> dict:
        if self.reconnect and self._writer is None and not self._closing.is_set():
            try:
                await asyncio.wait_for(self._connected.wait(), self.timeout)
            except asyncio.TimeoutError:
                pass
        writer = self._writer
        if writer is None:
            raise not_connected(self.socket_path, self.reconnect, self._closing.is_set(), self.timeout)
        reply: asyncio.Future = asyncio.get_running_loop().create_future()

        def done(message: Optional[dict], error: Optional[ScrolldError]) -> None:
            if not reply.done():
                if error is not None:
                    reply.set_exception(error)
                else:
                    reply.set_result(message)

        line = self._router.request(request, done, stream)
        request_id = self._router.last_id

        async def exchange() -> dict:
            # Both bounded by the one timeout: a daemon that stopped reading with its socket
            # full never lets drain() return (the line, in the transport's buffer, goes when it
            # reads again; its reply is then nobody's).
            await self._send(writer, line)
            return await reply
        try:
            return await asyncio.wait_for(exchange(), self.timeout)
        except asyncio.TimeoutError:
            self._router.pending.pop(request_id, None)
            raise ScrolldError("timeout", f"no reply within {self.timeout} s") from None
        except asyncio.CancelledError:
            # The caller's task was cancelled (its own wait_for, Ctrl-C): the late reply is
            # nobody's.
            self._router.pending.pop(request_id, None)
            raise

    async def _send(self, writer: asyncio.StreamWriter, line: bytes) -> None:
        try:
            async with self._write_lock:
                writer.write(line)
                await writer.drain()
        except (OSError, RuntimeError):
            pass  # the reader task sees the connection end and fails the waiting requests

    async def _close_stream(self, stream: Stream) -> None:
        if self._writer is None:
            return self._router.abandon(stream)  # nothing to tell: no request waits for ever
        if stream.kind == "subscribe":
            line = self._router.unsubscribe(stream, lambda reply, error: None)
        else:
            line = self._router.unobserve(stream, lambda reply, error: None)
        if self._writer is not None and line is not None:
            try:
                await asyncio.wait_for(self._send(self._writer, line), self.timeout)
            except asyncio.TimeoutError:
                pass  # the line waits in the transport; the stream has ended here

    async def _run(self, reader: asyncio.StreamReader) -> None:
        while True:
            await self._read(reader)
            writer, self._writer = self._writer, None
            self._connected.clear()
            if writer is not None:
                writer.close()
            reconnecting = self.reconnect and not self._closing.is_set()
            error = None if self._closing.is_set() else ScrolldError(
                "disconnected", f"scrolld at {self.socket_path} went away")
            self._router.disconnected(reconnecting, error)
            if not reconnecting:
                return
            reader = await self._reconnect()
            if reader is None:
                self._router.disconnected(False, None)
                return

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await reader.readline()
            except (OSError, ValueError, asyncio.IncompleteReadError):
                return
            if not line:
                return
            if not line.strip():
                continue
            try:
                message = decode(line)
            except ScrolldError:
                continue
            self._router.dispatch(message)

    async def _reconnect(self) -> Optional[asyncio.StreamReader]:
        delay = FIRST_RETRY
        while not self._closing.is_set():
            try:
                await asyncio.wait_for(self._closing.wait(), delay)
                return None
            except asyncio.TimeoutError:
                pass
            delay = min(delay * 2, LAST_RETRY)
            try:
                reader, writer, welcome = await _open(self.socket_path, self.timeout)
            except ScrolldError:
                continue
            lines = self._router.restore(welcome)
            self.welcome = welcome
            writer.write(b"".join(lines))
            self._writer = writer
            self._connected.set()
            return reader
        return None


class _Connect:
    """`await connect(...)` gives the client; `async with connect(...) as client` closes it too."""

    def __init__(self, client: AsyncClient):
        self._client = client

    def __await__(self):
        return self._client._start().__await__()

    async def __aenter__(self) -> AsyncClient:
        return await self._client._start()

    async def __aexit__(self, *exc_info) -> None:
        await self._client.close()


def connect(socket: Optional[Union[str, "os.PathLike[str]"]] = None, reconnect: bool = False, timeout: float = 30.0,
            restore_offsets: bool = True) -> _Connect:
    """Connects to scrolld (default socket: where scrollctl looks). Raises
    ScrolldError("not_running") when no daemon listens there, TypeError or ValueError for a
    socket that is no path or a timeout that is no positive number. `restore_offsets` as for
    `scrolld.Client`."""
    path, seconds = checked_arguments(socket, timeout)
    return _Connect(AsyncClient(path, reconnect, seconds, restore_offsets))
