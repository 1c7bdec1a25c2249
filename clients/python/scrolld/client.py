"""The blocking client: requests are methods that return the reply, subscriptions and
observations are iterators. One reader thread per connection sorts what the daemon sends."""
import os
import select
import socket as _socket
import threading
import time
from typing import Any, Dict, List, Optional, Tuple, Union

from ._router import Router, Stream, check_welcome, newest_of
from ._types import ScrolldError, State
from ._wire import (configure_request, decode, default_socket, observe_request,
                    scroll_by_request, scroll_to_request)

#: Reconnection backoff: the first retry after 50 ms, doubling up to 2 s.
FIRST_RETRY, LAST_RETRY = 0.05, 2.0


def not_connected(path: str, reconnect: bool, closed: bool, timeout: float) -> ScrolldError:
    """Why a request finds no connection: the client was closed, the daemon went away, or a
    reconnection did not come within the timeout."""
    if closed:
        return ScrolldError("disconnected", f"the client of scrolld at {path} is closed")
    if reconnect:
        return ScrolldError("timeout", f"not connected to scrolld at {path} (waited {timeout} s for a reconnection)")
    return ScrolldError("disconnected", f"not connected to scrolld at {path}")


def checked_arguments(socket: Any, timeout: Any) -> Tuple[str, float]:
    """The socket's path (a str or an os.PathLike) and the timeout (seconds, a finite number
    above 0), checked before anything is opened: TypeError or ValueError naming the argument."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
    if not 0 < timeout < float("inf"):
        raise ValueError(f"timeout must be a finite number of seconds above 0, got {timeout!r}")
    if socket is None:
        return default_socket(), float(timeout)
    try:
        path = os.fspath(socket)
    except TypeError:
        raise TypeError(f"socket must be a path (str or os.PathLike), not {type(socket).__name__}") from None
    if not isinstance(path, str):
        path = os.fsdecode(path)
    return path, float(timeout)


def open_connection(path: str, timeout: float):
    """Connects and reads the welcome: (socket, its reading file, the welcome)."""
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
        reader = sock.makefile("rb")
        line = reader.readline()
        if not line:
            raise ScrolldError("disconnected", f"scrolld at {path} closed the connection before its welcome")
        welcome = check_welcome(decode(line))
        sock.settimeout(None)
        return sock, reader, welcome
    except (FileNotFoundError, ConnectionRefusedError) as error:
        sock.close()
        raise ScrolldError("not_running", f"scrolld is not running (no daemon at {path}: {error.strerror})") from None
    except _socket.timeout:
        sock.close()
        raise ScrolldError("timeout", f"no welcome from {path} within {timeout} s") from None
    except OSError as error:
        sock.close()
        raise ScrolldError("not_running", f"cannot connect to {path}: {error}") from None
    except ScrolldError:
        sock.close()
        raise


class _Reply:
    """One request's reply, waited for by the calling thread."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reply: Optional[dict] = None
        self.error: Optional[ScrolldError] = None

    def __call__(self, reply: Optional[dict], error: Optional[ScrolldError]) -> None:
        self.reply, self.error = reply, error
        self._event.set()

    def wait(self, timeout: float, budget: float) -> Optional[dict]:
        """The reply, waited for up to `timeout` s (what is left of the request's `budget`)."""
        if not self._event.wait(timeout):
            raise ScrolldError("timeout", f"no reply within {budget} s")
        if self.error is not None:
            raise self.error
        return self.reply


class _Iterator(Stream):
    """A subscription's states or an observation's changes, in order, as an iterator."""

    def __init__(self, client: "Client", kind: str, request: Dict[str, Any]):
        super().__init__(kind, request)
        self._client = client
        self._ready = threading.Condition()

    def _put(self, item: Any) -> None:
        with self._ready:
            self._queue(item)
            self._ready.notify_all()

    def _finish(self, error: Optional[ScrolldError]) -> None:
        with self._ready:
            self._error = error
            self._ready.notify_all()

    def __iter__(self):
        return self

    def __next__(self):
        item = self.next(timeout=None)
        if item is None:
            raise StopIteration
        return item

    def next(self, timeout: Optional[float] = None):
        """The next item; None when the stream ended or after `timeout` seconds."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self.ended, timeout)
            if self._items:
                return self._items.popleft()
            if self.ended and self._error is not None:
                raise self._error
            return None

    def poll(self):
        """The newest item waiting, the others dropped (a UI drawing at its own frame rate
        wants only the latest state); None when nothing is waiting. Raises like iteration
        when the stream ended with an error."""
        with self._ready:
            if self._items:
                return newest_of(self._items)
            if self.ended and self._error is not None:
                raise self._error
            return None

    def close(self) -> None:
        """Unsubscribes (or unobserves); iteration then stops."""
        if not self.ended:
            self._client._close_stream(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class Subscription(_Iterator):
    """Iterates over a container's `State`s: the current one first, then every change."""


class Observer(_Iterator):
    """Iterates over an observed value's `Observation`s: the current value first (`old` None),
    then every change."""


class Client:
    """A connection to scrolld.

    `socket`: the socket's path (default: where scrollctl looks). `reconnect`: when the daemon
    goes away, connect again with backoff and restore what this client set up: its containers
    as it last described them (on a new daemon, at their last resting offset unless
    `restore_offsets=False`), pauses, focus, subscriptions and observations (these waiting for
    a container another client has not created again yet); without it iterators end with
    ScrolldError("disconnected").
    `timeout`: how long a request waits for its reply (and, reconnecting, for a connection)."""

    def __init__(self, socket: Optional[Union[str, "os.PathLike[str]"]] = None, reconnect: bool = False,
                 timeout: float = 30.0, restore_offsets: bool = True):
        self.socket_path, self.timeout = checked_arguments(socket, timeout)
        self.reconnect = reconnect
        self._router = Router()
        self._router.restore_offsets = restore_offsets
        self._lock = threading.Condition(threading.RLock())
        self._write_lock = threading.Lock()
        self._closing = threading.Event()
        self._sock, reader, self.welcome = open_connection(self.socket_path, self.timeout)
        self._router.welcomed(self.welcome)
        self._thread = threading.Thread(target=self._run, args=(reader,), name="scrolld-reader", daemon=True)
        self._thread.start()

    @property
    def features(self) -> List[str]:
        return list(self.welcome.get("features", []))

    @property
    def connected(self) -> bool:
        return self._sock is not None

    # --- requests ---------------------------------------------------------------------------

    def configure(self, container: str, **settings: Any) -> None:
        """Creates `container` or changes the given settings, snake_case keys with shorthands:
        `container_size=(400, 300)`, `content_insets=(top, leading, bottom, trailing)`,
        `header=(min, max)` or a dict, `rows={"count": 40, "height": 44}` or an edit
        (`rows={"insert": {"at": 40, "count": 20}}`), `touch_frame=(x, y, width, height)` (where
        the container lies on a touchscreen, normalized; None removes it),
        `refresh=(threshold, height)` (pull to refresh; None removes it), the gesture keys of
        docs/design.md §22 (`directional_lock=True`, `bounce="basedOnSize"`,
        `snap_type="proximity"`, `snap_proximity=40`, `snap_stop=True`,
        `indicator_min_length=36`, `indicator_linger_ms=500`), `owned=True`, `animation=...`.
        App bars (docs/design.md §21): `header={"max_height": 100, "mode": "enterAlways"}`,
        `rows={"count": 40, "height": 44, "sticky": [0, 5, 12]}`."""
        self._call(configure_request(container, settings))

    def scroll_to(self, container: str, *, x=None, y=None, row=None, anchor=None, edge=None, animation=None) -> None:
        self._call(scroll_to_request(container, x, y, row, anchor, edge, animation))

    def scroll_by(self, container: str, *, dx=None, dy=None, animation=None) -> None:
        self._call(scroll_by_request(container, dx, dy, animation))

    def pause(self, container: str) -> None:
        self._call({"op": "pause", "container": container})

    def resume(self, container: str) -> None:
        self._call({"op": "resume", "container": container})

    def flash_indicators(self, container: str) -> None:
        """Shows the container's scroll indicators for their linger time (SwiftUI's
        `flashScrollIndicators`, docs/design.md §22)."""
        self._call({"op": "flashIndicators", "container": container})

    def focus(self, container: Optional[str]) -> None:
        """Sends input to `container` only (None: to every container again), docs/design.md §14."""
        self._call({"op": "focus", "container": container})

    def remove(self, container: str) -> None:
        self._call({"op": "remove", "container": container})

    def begin_refresh(self, container: str) -> None:
        """Starts a refresh without a pull (docs/design.md §21): `refreshing` turns True and the
        top of the resting range becomes `lo - height`; nothing moves."""
        self._call({"op": "beginRefresh", "container": container})

    def end_refresh(self, container: str) -> None:
        """Ends the refresh: the container springs back to the top if it rests beyond it."""
        self._call({"op": "endRefresh", "container": container})

    def get(self, container: str) -> State:
        return State.from_message(self._call({"op": "get", "container": container}))

    def devices(self) -> Dict[str, Any]:
        """The `devices` reply without `type` and `id`: `devices` (a list) and, with routing,
        `focus`."""
        reply = self._call({"op": "devices"})
        return {k: v for k, v in reply.items() if k not in ("type", "id")}

    def reload(self) -> Dict[str, Any]:
        reply = self._call({"op": "reload"})
        return {k: v for k, v in reply.items() if k not in ("type", "id")}

    def ping(self) -> float:
        """The round trip in seconds."""
        start = time.monotonic()
        self._call({"op": "ping"})
        return time.monotonic() - start

    def subscribe(self, container: str, rate: Optional[float] = None, wait: bool = False) -> Subscription:
        """Follows a container: its current state, then every change (at most `rate` a
        second). Iterators of one container on one client share the connection's subscription,
        so they must ask for the same rate (`invalid_value` otherwise). `wait=True`: a container
        that does not exist yet is waited for, and one removed is waited for again
        (docs/design.md §20)."""
        request: Dict[str, Any] = {"op": "subscribe", "container": container}
        if rate is not None:
            request["rate"] = rate
        if wait:
            request["wait"] = True
        subscription = Subscription(self, "subscribe", request)
        self._call(request, subscription)
        return subscription

    def observe(self, container: str, of: str, wait: bool = False, **options: Any) -> Observer:
        """Observes a value (`phase`, `contentOffset.y`, `nearEnd` with `distance=`, …);
        `wait` as for `subscribe`."""
        request = observe_request(container, of, options)
        if wait:
            request["wait"] = True
        observer = Observer(self, "observe", request)
        self._call(request, observer)
        return observer

    def close(self) -> None:
        """Closes the connection; iterators stop."""
        self._closing.set()
        with self._lock:
            sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(_socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not threading.current_thread():
            self._thread.join(self.timeout)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # --- the connection -------------------------------------------------------------------

    def _call(self, request: Dict[str, Any], stream: Optional[Stream] = None) -> dict:
        # One budget for the whole request, as the asyncio client has: waiting for a
        # reconnection, for the daemon to take the line, and for its reply.
        deadline = time.monotonic() + self.timeout
        reply = _Reply()
        with self._lock:
            if self.reconnect:
                self._lock.wait_for(lambda: self._sock is not None or self._closing.is_set(), self.timeout)
            sock = self._sock
            if sock is None:
                raise not_connected(self.socket_path, self.reconnect, self._closing.is_set(), self.timeout)
            line = self._router.request(request, reply, stream)
            request_id = self._router.last_id
        try:
            self._send(sock, line, deadline)
            return reply.wait(max(0.0, deadline - time.monotonic()), self.timeout)
        except BaseException as error:
            # Refused, unanswered, or interrupted while it waited (Ctrl-C): its late reply is
            # nobody's, and the caller gets no iterator, so nothing may follow it, nor a
            # reconnection send its request again.
            failure = error if isinstance(error, ScrolldError) else None
            with self._lock:
                if failure is None or failure.code == "timeout":
                    self._router.pending.pop(request_id, None)
                if stream is not None:
                    self._router.abandon(stream, failure)
            raise

    def _send(self, sock, line: bytes, deadline: float) -> None:
        """Writes a line, waiting until `deadline` (time.monotonic()) for the daemon to take it
        (one that stopped reading fills its socket): ScrolldError("timeout") when none of it
        went. A line the socket took only part of ends the connection, since the daemon would
        read the next line as its rest: the reader sees the end (and a reconnecting client
        connects again). Lines from several threads go whole, one after the other."""
        if not self._write_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise ScrolldError("timeout", f"scrolld did not take the request within {self.timeout} s")
        try:
            view, sent = memoryview(line), 0
            writable = select.poll()
            writable.register(sock, select.POLLOUT)
            while sent < len(view):
                try:
                    # Non-blocking per call: the reader thread blocks on the same socket.
                    sent += sock.send(view[sent:], _socket.MSG_DONTWAIT)
                    continue
                except BlockingIOError:
                    pass
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not writable.poll(remaining * 1000):
                    break
            if sent == len(view):
                return
            if sent == 0:
                raise ScrolldError("timeout", f"scrolld did not take the request within {self.timeout} s")
            sock.shutdown(_socket.SHUT_RDWR)  # before any other line can follow the cut one
            raise ScrolldError("disconnected", f"scrolld took only part of a request within {self.timeout} s; "
                                               "the connection was closed")
        except (OSError, ValueError):
            # The connection broke, or the reader closed the socket (ValueError: no descriptor
            # any more): the reader sees the end and fails the waiting requests.
            return
        finally:
            self._write_lock.release()

    def _close_stream(self, stream: Stream) -> None:
        with self._lock:
            sock = self._sock
            if sock is None:
                return self._router.abandon(stream)  # nothing to tell: no request waits for ever
            if stream.kind == "subscribe":
                line = self._router.unsubscribe(stream, lambda reply, error: None)
            else:
                line = self._router.unobserve(stream, lambda reply, error: None)
        if sock is not None and line is not None:
            try:
                self._send(sock, line, time.monotonic() + self.timeout)
            except ScrolldError:
                pass  # the stream has ended here; the daemon ends it when the connection goes

    def _run(self, reader) -> None:
        while True:
            self._read(reader)
            reader.close()
            with self._lock:
                sock, self._sock = self._sock, None
                reconnecting = self.reconnect and not self._closing.is_set()
                error = None if self._closing.is_set() else ScrolldError(
                    "disconnected", f"scrolld at {self.socket_path} went away")
                self._router.disconnected(reconnecting, error)
                self._lock.notify_all()
            if sock is not None:
                sock.close()
            if not reconnecting:
                return
            reader = self._reconnect()
            if reader is None:
                with self._lock:
                    self._router.disconnected(False, None)
                return

    def _read(self, reader) -> None:
        try:
            for line in reader:
                if not line.strip():
                    continue
                try:
                    message = decode(line)
                except ScrolldError:
                    continue  # a line this client cannot read is skipped, the rest still count
                with self._lock:
                    self._router.dispatch(message)
        except (OSError, ValueError):
            pass

    def _reconnect(self):
        delay = FIRST_RETRY
        while not self._closing.wait(delay):
            delay = min(delay * 2, LAST_RETRY)
            try:
                sock, reader, welcome = open_connection(self.socket_path, self.timeout)
            except ScrolldError:
                continue
            with self._lock:
                lines = self._router.restore(welcome)
                self.welcome = welcome
            try:
                with self._write_lock:
                    sock.settimeout(self.timeout)  # a daemon that stopped at once: try again
                    sock.sendall(b"".join(lines))
                    sock.settimeout(None)
            except OSError:
                sock.close()
                continue
            with self._lock:
                self._sock = sock
                self._lock.notify_all()
            return reader
        return None
