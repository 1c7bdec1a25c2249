"""What a connection knows, without doing I/O: which request waits for which reply, which
stream a state or an observation goes to, and what to send again after a reconnection.

The sync client drives it from its reader thread (under a lock), the asyncio client from its
reader task; both hand it the messages they read and write the bytes it returns."""
import collections
import dataclasses
import itertools
from typing import Any, Callable, Deque, Dict, List, Optional

from ._types import Observation, ScrolldError, State
from ._wire import encode, error_from

#: States a subscription keeps for a consumer that falls behind (older ones are dropped, the
#: daemon's own latest-wins rule: a gap in `seq` shows it), and observations an observer keeps
#: before the newest replaces the last one waiting.
BACKLOG = 1024


class Stream:
    """A subscription or an observation as the router sees it. The I/O layer's subclasses
    implement `_put` (hand an item to the consumer) and `_finish` (end it: None for a normal
    end, a ScrolldError to raise)."""

    def __init__(self, kind: str, request: Dict[str, Any]):
        self.kind = kind  # "subscribe" or "observe"
        self.request = request  # sent again, unchanged, after a reconnection
        self.resuming = False
        self.last_value: Any = None
        self.ended = False
        # what the consumer has not taken yet, and how the stream ended (the subclasses' _put
        # and _finish fill them, each under its own kind of lock or event)
        self._items: Deque[Any] = collections.deque(maxlen=BACKLOG if kind == "subscribe" else None)
        self._error: Optional[ScrolldError] = None

    @property
    def container(self) -> str:
        return self.request["container"]

    def deliver(self, message: dict) -> None:
        if self.ended:
            return
        if self.kind == "subscribe":
            item: Any = State.from_message(message, resumed=self.resuming)
        else:
            item = Observation.from_message(message, old=self.last_value, resumed=self.resuming)
            self.last_value = item.new
        self.resuming = False
        self._put(item)

    def _queue(self, item: Any) -> None:
        """Appends `item` for the consumer (the subclasses call it under their own lock).
        States beyond BACKLOG push the oldest out (a gap in `seq` shows it). Observations
        coalesce latest-wins as the daemon's do for a slow client (docs/design.md §13): beyond
        BACKLOG the newest replaces the last one waiting, keeping that one's `old` (the value the
        consumer last received) and `resumed`, and goes when that makes it no change at all."""
        if self.kind == "subscribe" or len(self._items) < BACKLOG:
            self._items.append(item)
            return
        replaced = self._items.pop()
        merged = dataclasses.replace(item, old=replaced.old, resumed=replaced.resumed or item.resumed)
        if merged.old != merged.new or merged.resumed:
            self._items.append(merged)

    def end(self, error: Optional[ScrolldError] = None) -> None:
        if not self.ended:
            self.ended = True
            self._finish(error)

    def _put(self, item: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _finish(self, error: Optional[ScrolldError]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class Pending:
    """A request waiting for its reply. `done(reply, error)` is the I/O layer's callback."""

    def __init__(self, op: str, done: Callable[[Optional[dict], Optional[ScrolldError]], None],
                 stream: Optional[Stream] = None, request: Optional[Dict[str, Any]] = None):
        self.op = op
        self.done = done
        self.stream = stream
        self.request = request


def _ignore(reply: Optional[dict], error: Optional[ScrolldError]) -> None:
    pass


class Description:
    """One container as this client last described it (docs/design.md §20): its settings, every
    configure call folded in, the rows kept as runs of equal heights with the edits applied, so
    memory grows with the rows' variety, never with the number of calls."""

    def __init__(self, container: str) -> None:
        self.container = container
        self.settings: Dict[str, Any] = {}
        self.rows: Optional[Dict[str, Any]] = None  # the rows' keys but count and heights
        self.runs: List[List[Any]] = []  # [height or None (the rows' own height), count]

    def fold(self, request: Dict[str, Any]) -> None:
        for key, value in request.items():
            if key in ("op", "id", "animation", "container"):
                continue
            if key != "rows":
                self.settings[key] = value
            elif value is None:
                self.rows, self.runs = None, []
            elif "insert" in value or "remove" in value:
                self._edit(value)
            elif self.rows is not None and not {"count", "height", "heights"} & set(value):
                # `top`, `threshold`, `visible_in`, `sticky`: keys that do not touch the rows.
                self.rows.update(value)
            else:
                self.rows = {k: v for k, v in value.items() if k not in ("count", "heights")}
                if "heights" in value:
                    self.runs = []
                    for height in value["heights"]:
                        self._append(height, 1)
                else:
                    self.runs = [[None, value.get("count", 0)]] if value.get("count", 0) else []

    def _append(self, height: Any, count: int) -> None:
        if self.runs and self.runs[-1][0] == height:
            self.runs[-1][1] += count
        elif count:
            self.runs.append([height, count])

    def _split(self, at: int) -> int:
        """The index of the run that starts at row `at` (splitting one that spans it)."""
        row = 0
        for index, (height, count) in enumerate(self.runs):
            if row == at:
                return index
            if at < row + count:
                self.runs[index:index + 1] = [[height, at - row], [height, row + count - at]]
                return index + 1
            row += count
        return len(self.runs)

    def _merge(self) -> None:
        runs, self.runs = self.runs, []
        for height, count in runs:
            self._append(height, count)

    def _edit(self, edit: Dict[str, Any]) -> None:
        if "insert" in edit:
            insert = edit["insert"]
            index = self._split(insert["at"])
            if "heights" in insert:
                new = [[h, 1] for h in insert["heights"]]
            else:
                new = [[insert.get("height"), insert.get("count", 1)]]
            self.runs[index:index] = new
        else:
            remove = edit["remove"]
            start = self._split(remove["at"])
            end = self._split(remove["at"] + remove["count"])
            del self.runs[start:end]
        self._merge()

    def lines(self) -> List[Dict[str, Any]]:
        """The requests that create it as it is now: one configure, then one insert per run of
        another height."""
        request: Dict[str, Any] = {"op": "configure", "container": self.container, **self.settings}
        if self.rows is None:
            return [request]
        runs = list(self.runs)
        first = runs.pop(0) if runs and runs[0][0] is None else [None, 0]
        request["rows"] = {**self.rows, "count": first[1]}
        # Sticky indices (docs/design.md §21) may name rows of later runs: they follow the inserts.
        sticky = request["rows"].pop("sticky", None)
        lines = [request]
        at = first[1]
        for height, count in runs:
            insert: Dict[str, Any] = {"at": at, "count": count}
            if height is not None:
                insert["height"] = height
            lines.append({"op": "configure", "container": self.container, "rows": {"insert": insert}})
            at += count
        if sticky is not None:
            lines.append({"op": "configure", "container": self.container, "rows": {"sticky": sticky}})
        return lines


def newest_of(items) -> Any:
    """The newest of `items` (emptied), marked `resumed` when one of those it replaces was: a
    UI that draws only the latest state must still learn that a reconnection happened."""
    newest = items[-1]
    resumed = any(item.resumed for item in items)
    items.clear()
    return dataclasses.replace(newest, resumed=True) if resumed and not newest.resumed else newest


def _follows_its_end(state: dict) -> bool:
    """Whether a bottom-anchored container's state shows it following its end: within 0.5 px
    of `hi` or beyond it (a bounce back comes to rest there), or moving towards it."""
    offset = (state.get("contentOffset") or {}).get("y", 0)
    content = (state.get("contentSize") or {}).get("height", 0)
    container = (state.get("containerSize") or {}).get("height", 0)
    insets = state.get("contentInsets") or {}
    lo = -insets.get("top", 0)
    hi = max(lo, content + insets.get("bottom", 0) - container)
    velocity = (state.get("velocity") or {}).get("y", 0)
    return offset >= hi - 0.5 or (state.get("phase") != "idle" and velocity > 0)


class Router:
    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.pending: Dict[Any, Pending] = {}
        self.subscriptions: Dict[str, List[Stream]] = {}
        self.observations: Dict[Any, Stream] = {}
        # One current description per container this client configured (in the order they
        # were first configured), its last resting offset, and what else a reconnection restores.
        self.descriptions: Dict[str, Description] = {}
        self.offsets: Dict[str, Dict[str, Any]] = {}
        # Bottom-anchored containers last seen following their end: put back there.
        self.following: set = set()
        # Whether a new daemon gets each container back at its last resting offset.
        self.restore_offsets = True
        self.owned: set = set()
        self.paused: set = set()
        # The container this client last gave the focus (undone when a connection closes).
        self.focus: Optional[str] = None
        self.instance: Optional[str] = None
        self.last_id = 0

    # --- requests -------------------------------------------------------------------------

    def request(self, request: Dict[str, Any], done, stream: Optional[Stream] = None,
                op: Optional[str] = None) -> bytes:
        """Registers `request` (giving it an id) and returns the line to send. `op` overrides
        what the reply is taken for ("restore": a configure sent again, not recorded again)."""
        # `id` first: the daemon finds it even in a line it then refuses to read further.
        request = {"id": next(self._ids), **{k: v for k, v in request.items() if k != "id"}}
        if stream is not None and stream.kind == "subscribe":
            self._check_rate(stream)
        # Encoded before anything is registered: a request that cannot be sent leaves nothing
        # behind (no stream a reconnection would try to send again).
        line = encode(request)
        self.last_id = request["id"]
        if stream is not None and stream.kind == "subscribe":
            self.subscriptions.setdefault(stream.container, []).append(stream)
        if stream is not None and stream.kind == "observe":
            # The observation is named by its request's id (docs/design.md §13).
            stream.request = request
            self.observations[request["id"]] = stream
        self.pending[request["id"]] = Pending(op or request["op"], done, stream, request)
        return line

    def _check_rate(self, stream: Stream) -> None:
        """The daemon keeps one subscription per container and connection, with one `rate`:
        iterators of one container on one client share it, so they must ask for the same."""
        def said(rate: Any) -> str:
            return "every state (no rate)" if rate is None else f"rate {rate}"
        for other in self.subscriptions.get(stream.container, ()):
            if other is not stream and other.request.get("rate") != stream.request.get("rate"):
                raise ScrolldError(
                    "invalid_value",
                    f"{stream.container!r} is already followed on this client at {said(other.request.get('rate'))} "
                    f"(one subscription per container and connection); use the same rate, or another "
                    f"Client for {said(stream.request.get('rate'))}")

    def abandon(self, stream: Stream, error: Optional[ScrolldError] = None) -> None:
        """Forgets a stream whose request failed or went unanswered (a reconnection must not
        send it again), or that is closed while there is no connection to tell."""
        self._drop(stream)
        stream.end(error)

    def unsubscribe(self, stream: Stream, done) -> Optional[bytes]:
        streams = self.subscriptions.get(stream.container, [])
        if stream in streams:
            streams.remove(stream)
        stream.end()
        if streams:
            return None  # another iterator still follows this container on this connection
        self.subscriptions.pop(stream.container, None)
        return self.request({"op": "unsubscribe", "container": stream.container}, done)

    def unobserve(self, stream: Stream, done) -> bytes:
        observation_id = stream.request["id"]
        self.observations.pop(observation_id, None)
        stream.end()
        self.pending[observation_id] = Pending("unobserve", done)
        return encode({"op": "unobserve", "id": observation_id})

    # --- messages -------------------------------------------------------------------------

    def dispatch(self, message: dict) -> None:
        kind, message_id = message["type"], message.get("id")
        if kind == "observation":
            pending = self.pending.get(message_id)
            if pending is not None and pending.op == "observe":
                del self.pending[message_id]
                pending.done(message, None)
            stream = self.observations.get(message_id)
            if stream is not None:
                stream.deliver(message)
            return
        if kind == "state" and message.get("container") in self.descriptions:
            self._track(message)
        if kind == "state" and message_id is None:
            for stream in list(self.subscriptions.get(message.get("container"), ())):
                stream.deliver(message)
            return
        if kind == "removed":
            self._removed(message.get("container"))
            return
        if kind == "error" and message_id is None:
            # A line the daemon could not read as far as its id: one over 64 KiB, which `encode`
            # refuses before sending, so only another client's bytes could cause it; the daemon
            # then closes the connection. Lines are answered in order: it is the oldest waiting
            # request's.
            if message.get("code") == "too_large" and self.pending:
                self._fail(self.pending.pop(next(iter(self.pending))), error_from(message))
            return
        pending = self.pending.pop(message_id, None) if message_id is not None else None
        if pending is None:
            return  # an unsolicited message this client has no use for
        if kind == "error":
            self._fail(pending, error_from(message))
            return
        if kind == "waiting":
            pass  # a subscription or observation waiting for its container (docs/design.md §20)
        elif pending.op == "subscribe" and kind == "state" and pending.stream is not None:
            pending.stream.deliver(message)
        elif pending.op == "configure":
            self._record_configure(pending.request)
        elif pending.op == "scrollTo":
            self._scrolled(pending.request)
        elif pending.op in ("pause", "resume"):
            container = pending.request["container"]
            (self.paused.add if pending.op == "pause" else self.paused.discard)(container)
        elif pending.op == "focus":
            self.focus = pending.request["container"]
        elif pending.op == "remove":
            self._forget(pending.request["container"])
        pending.done(message, None)

    def _fail(self, pending: Pending, error: ScrolldError) -> None:
        if pending.stream is not None:
            self._drop(pending.stream)
            pending.stream.end(error if pending.done is _ignore else None)
        pending.done(None, error)

    def _track(self, state: dict) -> None:
        """Where a reconnection puts the container back: its last resting offset, or, for a
        bottom-anchored one that is following its end (at it, beyond it, or moving towards it:
        a log chasing rows that keep arriving may never rest), the end again: the daemon's
        anchor puts it there and it keeps following (docs/decisions.md, "Where a client puts a
        container back")."""
        container = state["container"]
        if self._anchored_at_bottom(container):
            following = _follows_its_end(state)
            if following:
                self.following.add(container)
                return
            if state.get("phase") != "idle" and container in self.following:
                return  # leaving the end: still there until it rests somewhere else
            self.following.discard(container)
        if state.get("phase") == "idle":
            self.offsets[container] = state.get("contentOffset")

    def _scrolled(self, request: Dict[str, Any]) -> None:
        """A `scrollTo` this client made rests where it aims, known even to a client that does
        not subscribe: to an offset (the daemon clamps it again when it is put back), or, to a
        bottom-anchored container's bottom edge, at its end, following."""
        container = request.get("container")
        if container not in self.descriptions:
            return
        if request.get("edge") == "bottom" and self._anchored_at_bottom(container):
            self.following.add(container)
            return
        if "row" in request or "edge" in request:
            return  # where it rests is known from its states only
        offset = dict(self.offsets.get(container) or {"x": 0, "y": 0})
        for axis in ("x", "y"):
            if isinstance(request.get(axis), (int, float)):
                offset[axis] = request[axis]
        self.offsets[container] = offset
        self.following.discard(container)

    def _anchored_at_bottom(self, container: str) -> bool:
        description = self.descriptions.get(container)
        return description is not None and description.settings.get("anchor") == "bottom"

    def _record_configure(self, request: Dict[str, Any]) -> None:
        container = request["container"]
        if request.get("owned"):
            self.owned.add(container)
        if container not in self.descriptions:
            self.descriptions[container] = Description(container)
        self.descriptions[container].fold(request)

    def _removed(self, container: Any) -> None:
        """A removed container ends its subscriptions (the daemon says so) and its observations
        (which the daemon drops without a word)."""
        # Those asked for with `wait` wait again, as the daemon keeps them (docs/design.md §20).
        streams = self.subscriptions.pop(container, [])
        waiting = [stream for stream in streams if stream.request.get("wait")]
        if waiting:
            self.subscriptions[container] = waiting
        for stream in streams:
            if not stream.request.get("wait"):
                stream.end()
        for observation_id, stream in list(self.observations.items()):
            if stream.container == container and not stream.request.get("wait"):
                del self.observations[observation_id]
                stream.end()
        self._forget(container)

    def _forget(self, container: Any) -> None:
        """A removed container is not created again by a reconnection."""
        self.descriptions.pop(container, None)
        self.offsets.pop(container, None)
        self.following.discard(container)
        self.owned.discard(container)
        self.paused.discard(container)
        if self.focus == container:
            self.focus = None

    def _drop(self, stream: Stream) -> None:
        if stream.kind == "subscribe":
            streams = self.subscriptions.get(stream.container, [])
            if stream in streams:
                streams.remove(stream)
            if not streams:
                self.subscriptions.pop(stream.container, None)
        else:
            self.observations.pop(stream.request.get("id"), None)

    # --- the connection's life ------------------------------------------------------------

    def disconnected(self, reconnecting: bool, error: Optional[ScrolldError]) -> None:
        """Every waiting request fails; streams end with `error`, or wait for the new
        connection when reconnecting."""
        pending, self.pending = self.pending, {}
        failure = error or ScrolldError("disconnected", "the connection to scrolld ended")
        for entry in pending.values():
            entry.done(None, failure)
        streams = [s for group in self.subscriptions.values() for s in group] + list(self.observations.values())
        if reconnecting:
            for stream in streams:
                stream.resuming = True
            return
        self.subscriptions.clear()
        self.observations.clear()
        for stream in streams:
            stream.end(error)

    def restore(self, welcome: dict) -> List[bytes]:
        """The lines that bring a new connection where the old one was: the containers this
        client configured, each as it last described it (all of them when this is a new daemon,
        then at their last resting offset unless `restore_offsets` is off; else the owned ones,
        which went with the old connection), the pauses and the focus (undone when a
        connection closes), then the subscriptions and observations, whose first replies are
        marked resumed. These wait for their containers (docs/design.md §20) when the daemon
        can: another client may not have created its own yet."""
        instance = welcome.get("instance")
        new_daemon = instance is None or instance != self.instance
        self.instance = instance
        lines: List[bytes] = []
        wait = "follow" in welcome.get("features", ())
        for container, description in self.descriptions.items():
            if not (new_daemon or container in self.owned):
                continue
            for request in description.lines():
                lines.append(self.request(request, _ignore, op="restore"))
            offset = self.offsets.get(container)
            if self.restore_offsets and offset and container not in self.following:
                lines.append(self.request({"op": "scrollTo", "container": container, "x": offset.get("x", 0),
                                           "y": offset.get("y", 0), "animation": "none"}, _ignore, op="restore"))
        for container in sorted(self.paused):
            lines.append(self.request({"op": "pause", "container": container}, _ignore))
        # Only when nobody holds the focus now: another client's later focus wins
        # (docs/design.md §14).
        if self.focus is not None and welcome.get("focus") is None:
            lines.append(self.request({"op": "focus", "container": self.focus}, _ignore, op="restore"))
        for streams in self.subscriptions.values():
            for stream in streams:
                stream.request = {k: v for k, v in stream.request.items() if k != "id"}
        subscriptions = [s for group in self.subscriptions.values() for s in group]
        self.subscriptions = {}
        for stream in subscriptions:
            lines.append(self.request({**stream.request, "wait": True} if wait else stream.request, _ignore, stream))
        observations, self.observations = list(self.observations.values()), {}
        for stream in observations:
            observation_id = stream.request["id"]
            self.observations[observation_id] = stream
            self.pending[observation_id] = Pending("observe", _ignore, stream, stream.request)
            lines.append(encode({**stream.request, "wait": True} if wait else stream.request))
        return lines

    def welcomed(self, welcome: dict) -> None:
        self.instance = welcome.get("instance")


def check_welcome(message: dict) -> dict:
    if message.get("type") == "error":
        raise error_from(message)
    if message.get("type") != "welcome":
        raise ScrolldError("bad_reply", f"expected a welcome, got {message.get('type')!r}")
    return message

