"""The daemon side of the request fuzz: a real `scrolld run` on a private socket, its
connections, a model of what the requests sent so far should have made of its containers, and
the checks run after every request (docs/fuzzing.md, "The daemon's request surface").

Nothing here judges time: every wait has a deadline (HANG_DEADLINE) that only catches a hang.
"""

import json
import math
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unicodedata

HANG_DEADLINE = float(os.environ.get("SCROLLD_FUZZ_DEADLINE", "30"))
LINE_LIMIT = 64 * 1024  # docs/protocol.md, "Errors": longer lines get too_large and a close
PHASES = {"idle", "tracking", "interacting", "decelerating", "animating"}
ERROR_CODES = {"bad_request", "unknown_op", "unknown_container", "invalid_value", "too_large", "forbidden"}
REPLY_TYPES = {"ok", "error", "pong", "devices", "reloaded"}


class Failure(Exception):
    """A broken property. `kind` is short and stable (it names the failure when failures are
    counted and deduplicated); `detail` says what exactly was seen."""

    classes = {}

    def __init__(self, kind, detail=""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail

    @classmethod
    def of(cls, kind, detail=""):
        # One exception class per kind, so that Hypothesis, which tells failures apart by type
        # and place, shrinks each kind of failure on its own rather than drifting to another.
        sub = cls.classes.get(kind)
        if sub is None:
            sub = type("Failure_" + re.sub(r"\W+", "_", kind)[:60], (cls,), {})
            cls.classes[kind] = sub
        return sub(kind, detail)


# Failures after which a run cannot go on (the daemon is gone or wedged, or the model of its
# containers no longer holds). Any other failure of a kind already reported in this campaign is
# let pass, so that one frequent failure does not hide the others behind it.
FATAL = {"daemon did not start", "cannot connect", "no welcome", "hang", "connection closed",
         "malformed state", "long line did not close the connection", "close not undone",
         "request on a missing container succeeded", "container missing", "unexpected container",
         "state of another container", "welcome lists other containers"}
KNOWN = set()  # kinds reported already in this campaign


def is_fatal(kind):
    return kind in FATAL or kind.startswith(("daemon died", "hang", "connection closed"))


def fail(kind, detail=""):
    if kind in KNOWN and not is_fatal(kind):
        return
    raise Failure.of(kind, detail)


# --- Strict JSON ----------------------------------------------------------------------------

def _reject_constant(token):
    raise ValueError(f"non-JSON number token {token}")


def _finite_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is not finite")
    return value


def _no_duplicates(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen.add(key)
    return dict(pairs)


def parse_strict(line):
    """A line the daemon sent, as JSON that has no NaN/Infinity token, no number that is not
    finite as a double, and no duplicate key. Raises ValueError otherwise."""
    return json.loads(line, parse_constant=_reject_constant, parse_float=_finite_float,
                      object_pairs_hook=_no_duplicates)


def classify_violation(line):
    """A kind for a line that is not strict JSON: what is wrong, and where."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return "line from the daemon that is not JSON"
    if not isinstance(message, dict):
        return "line from the daemon that is not an object"

    def bad(value):
        if isinstance(value, float):
            return not math.isfinite(value)
        if isinstance(value, dict):
            return any(bad(v) for v in value.values())
        if isinstance(value, list):
            return any(bad(v) for v in value)
        return False

    where = [key for key, value in message.items() if bad(value)]
    if where == ["id"]:
        return "non-finite number echoed in a reply's id"
    if where:
        return f"non-finite number in {message.get('type')}.{where[0]}"
    return f"duplicate key in a {message.get('type')} message"


def parse_lenient(line):
    """A line the fuzz sent, read as Python reads it (last duplicate wins, NaN allowed); None when
    it is not JSON at all."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


# --- The daemon -------------------------------------------------------------------------------

class Daemon:
    """`scrolld run --config /dev/null --socket DIR/s.sock [--replay LOG --loop]` with private
    XDG directories, its stderr in DIR/stderr."""

    def __init__(self, binary, replay=None, speed=1.0):
        self.dir = tempfile.mkdtemp(prefix="scrolld-fuzz-")
        os.chmod(self.dir, 0o700)
        for sub in ("runtime", "config"):
            os.mkdir(os.path.join(self.dir, sub), 0o700)
        self.socket_path = os.path.join(self.dir, "s.sock")
        self.stderr_path = os.path.join(self.dir, "stderr")
        args = [binary, "run", "--config", "/dev/null", "--socket", self.socket_path,
                # No SCHED_RR: a wedged debug daemon must not starve the machine's other work.
                "--set", "daemon.realtime_priority=0"]
        if replay:
            args += ["--replay", replay, "--loop", "--speed", repr(speed)]
        env = dict(os.environ, XDG_RUNTIME_DIR=os.path.join(self.dir, "runtime"),
                   XDG_CONFIG_HOME=os.path.join(self.dir, "config"))
        self.stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=self.stderr)
        deadline = time.monotonic() + HANG_DEADLINE
        while not os.path.exists(self.socket_path):
            if self.process.poll() is not None:
                fail("daemon did not start", self.crash_summary())
            if time.monotonic() > deadline:
                fail("daemon did not start", "no socket within the deadline")
            time.sleep(0.005)

    def alive(self):
        return self.process.poll() is None

    def died(self):
        summary = self.crash_summary()
        fail(f"daemon died: {summary.split('; exit status')[0].split('; signal')[0]}", summary)

    def crash_summary(self):
        """The daemon's own words about how it ended: the fatal error line and the first frame
        in scrolld's sources, or its exit status."""
        try:
            with open(self.stderr_path, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError:
            text = ""
        lines = text.splitlines()
        fatal = next((l for l in lines if "Fatal error" in l or "Program crashed" in l
                      or "error:" in l.lower()), None)
        where = None
        for l in lines:
            # "N [ra] 0xADDRESS FUNCTION + OFFSET in scrolld at PATH:LINE:COLUMN", the first one
            # in scrolld's own sources (not a package checkout under .build).
            m = re.search(r"0x[0-9a-f]+ (.+?) \+ \d+ in scrolld at (\S+?\.swift:\d+)", l)
            if m and "/.build/" not in m.group(2) and "/Sources/" in m.group(2):
                where = f"{m.group(1)} at Sources/{m.group(2).split('/Sources/', 1)[1]}"
                break
        status = self.process.poll()
        parts = []
        if fatal:
            parts.append(fatal.strip())
        if where:
            parts.append("first scrolld frame: " + where)
        if status is not None:
            parts.append(f"exit status {status}" if status >= 0 else f"signal {-status}")
        return "; ".join(parts) or "no message"

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=HANG_DEADLINE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class Connection:
    """One client connection. A thread reads every line the daemon sends, parses it strictly
    (any violation is kept in `violations`) and queues it."""

    def __init__(self, daemon, name):
        self.name = name
        deadline = time.monotonic() + HANG_DEADLINE
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.sock.connect(daemon.socket_path)
                break
            except OSError as error:
                # The socket file exists a moment before the daemon listens on it.
                self.sock.close()
                if not daemon.alive():
                    daemon.died()
                if time.monotonic() > deadline:
                    fail("cannot connect", f"{name}: {error}")
                time.sleep(0.005)
        self.messages = queue.Queue()
        self.violations = []
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.welcome = self.next_message(lambda m: True, "the welcome line")
        if self.welcome.get("type") != "welcome":
            fail("no welcome", f"{name} got {self.welcome!r} first")

    def _read(self):
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    try:
                        text = line.decode("utf-8")
                        message = parse_strict(text)
                        if not isinstance(message, dict):
                            raise ValueError("not an object")
                    except (ValueError, UnicodeDecodeError, RecursionError) as error:
                        self.violations.append((classify_violation(line),
                                                f"{self.name} received an invalid line ({error}): {line[:300]!r}"))
                        # Read as Python would, it still answers what it answers.
                        try:
                            message = json.loads(line)
                        except (ValueError, UnicodeDecodeError, RecursionError):
                            continue
                        if not isinstance(message, dict):
                            continue
                    self.messages.put(message)
        except OSError:
            pass
        finally:
            self.closed.set()
            self.messages.put(None)

    def check_violations(self):
        while self.violations:
            kind, detail = self.violations.pop(0)
            fail(kind, detail)

    def send(self, data):
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            return False

    def next_message(self, accept, what, others=None):
        """The next message `accept` takes; the ones it does not go to `others`. Fails on a
        closed connection or a hang."""
        deadline = time.monotonic() + HANG_DEADLINE
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                fail("hang", f"{self.name}: no {what} within {HANG_DEADLINE:g} s (the daemon is alive but does not answer)")
            self.check_violations()
            try:
                message = self.messages.get(timeout=min(remaining, 0.05))
            except queue.Empty:
                continue
            if message is None:
                self.messages.put(None)
                fail("connection closed", f"{self.name} was closed while waiting for {what}")
            if accept(message):
                return message
            if others is not None:
                others(message)

    def drain(self, sink):
        while True:
            try:
                message = self.messages.get_nowait()
            except queue.Empty:
                return
            if message is None:
                self.messages.put(None)
                return
            sink(message)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(timeout=HANG_DEADLINE)


# --- The model ----------------------------------------------------------------------------------

def snake(key):
    """KeyCase.snake: each ASCII capital becomes `_` and its lower case (none before the first)."""
    out = []
    for ch in key:
        if "A" <= ch <= "Z":
            if out:
                out.append("_")
            out.append(ch.lower())
        else:
            out.append(ch)
    return "".join(out)


def number(value):
    """A JSON value the daemon took as a number, as a float (ints beyond a double round)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError
    return float(value)


class Rows:
    """A container's rows as runs of (count, height), top, threshold and visible_in."""

    def __init__(self, runs, top, threshold, visible_in):
        self.runs = [(n, h) for n, h in runs if n > 0]
        self.top = top
        self.threshold = threshold
        self.visible_in = visible_in

    @property
    def count(self):
        return sum(n for n, _ in self.runs)

    def overlapping(self, lo, hi):
        """(index, start, end) of the rows that may matter for [lo, hi]: those that reach into
        it, and the first one after it."""
        out = []
        index, position = 0, self.top
        for n, h in self.runs:
            end_of_run = position + n * h
            if end_of_run < lo and h > 0:
                index += n
                position = end_of_run
                continue
            first = 0
            if h > 0 and position < lo:
                first = max(0, int((lo - position) // h) - 1)
            for k in range(first, n):
                start = position + k * h
                if start > hi and h > 0:
                    out.append((index + k, start, start + h))
                    return out
                out.append((index + k, start, start + h))
                if len(out) > 100000:
                    return None  # too many rows of no height to judge cheaply
            index += n
            position = end_of_run
        return out


class Container:
    def __init__(self, name, owner=None, from_file=False):
        self.name = name
        self.owner = owner  # the connection whose close removes it (owned: true)
        self.from_file = from_file
        self.axes = "vertical"
        self.header = None  # dict of snake_case keys, as configured
        self.rows = None  # dict of snake_case keys
        self.edited = None  # runs after insert/remove edits
        self.known = True  # False once a request the model cannot follow succeeded
        self.paused_by = None

    def copy(self):
        other = Container(self.name, self.owner, self.from_file)
        other.axes = self.axes
        other.header = dict(self.header) if self.header is not None else None
        other.rows = dict(self.rows) if self.rows is not None else None
        other.edited = list(self.edited) if self.edited is not None else None
        other.known = self.known
        other.paused_by = self.paused_by
        return other

    def header_config(self):
        if self.header is None:
            return None
        M = number(self.header["max_height"])
        m = number(self.header.get("min_height", 0))
        return M, m, self.header.get("stretch", True)

    def resolved_runs(self):
        if self.edited is not None:
            return list(self.edited)
        if "heights" in self.rows:
            return [(1, number(h)) for h in self.rows["heights"]]
        return [(int(number(self.rows["count"])), max(0.0, number(self.rows["height"])))]

    def row_layout(self):
        if self.rows is None:
            return None
        header = self.header_config()
        top = number(self.rows["top"]) if "top" in self.rows else (header[0] if header else 0.0)
        return Rows(self.resolved_runs(), top, number(self.rows.get("threshold", 0.5)),
                    self.rows.get("visible_in", "container"))

    def apply_configure(self, request):
        """The settings of a configure that the daemon accepted."""
        for key, value in request.items():
            if key in ("op", "id", "container", "animation", "owned", "containerSize", "contentSize",
                       "contentInsets", "insets", "physics", "scrollTarget", "scroll_target", "devices",
                       "parent", "overscroll", "anchor"):
                continue
            if key == "axes":
                self.axes = value
            elif key == "header":
                if not isinstance(value, dict):
                    self.known = False
                    continue
                if not value:
                    continue  # no key: the header stays as it is (none stays none)
                self.header = dict(self.header or {})
                for k, v in value.items():
                    self.header[snake(k)] = v
            elif key == "rows":
                if not isinstance(value, dict):
                    self.known = False
                elif "insert" in value or "remove" in value:
                    self.apply_edit(value)
                elif value:
                    self.rows = dict(self.rows or {})
                    for k, v in value.items():
                        k = snake(k)
                        self.rows[k] = v
                        if k in ("count", "height", "heights"):
                            self.edited = None
            else:
                self.known = False

    def apply_edit(self, value):
        runs = self.resolved_runs()
        if "insert" in value:
            edit = value["insert"]
            at = int(number(edit["at"]))
            if "heights" in edit:
                new = [(1, number(h)) for h in edit["heights"]]
            else:
                h = number(edit["height"]) if "height" in edit and edit["height"] is not None else number(self.rows["height"])
                new = [(int(number(edit["count"])), h)]
            runs = split_runs(runs, at)
            runs = runs[0] + new + runs[1]
        else:
            edit = value["remove"]
            at, n = int(number(edit["at"])), int(number(edit["count"]))
            before, rest = split_runs(runs, at)
            _, after = split_runs(rest, n)
            runs = before + after
        self.edited = [(n, h) for n, h in runs if n > 0]
        self.rows["count"] = sum(n for n, _ in self.edited)
        self.rows.pop("heights", None)


def split_runs(runs, at):
    before, after, index = [], [], 0
    for n, h in runs:
        if index + n <= at:
            before.append((n, h))
        elif index >= at:
            after.append((n, h))
        else:
            before.append((at - index, h))
            after.append((index + n - at, h))
        index += n
    return before, after


def name_key(name):
    """Container names as the daemon tells them apart: byte for byte (docs/design.md, "Limits").
    "Caf\u00e9" and "Cafe\u0301" are two names; the daemon refuses to create the second while
    the first exists, and a request naming the one that does not exist is unknown_container."""
    return name


class Names(dict):
    """Containers by name_key."""

    def __getitem__(self, name):
        return super().__getitem__(name_key(name))

    def __setitem__(self, name, value):
        super().__setitem__(name_key(name), value)

    def __contains__(self, name):
        return super().__contains__(name_key(name))

    def get(self, name, default=None):
        return super().get(name_key(name), default)

    def pop(self, name, *default):
        return super().pop(name_key(name), *default)


class Model:
    """What the requests answered so far should have made of the daemon's containers."""

    def __init__(self, welcome):
        self.containers = Names()
        for name in welcome.get("containers", []):
            self.containers[name] = Container(name, from_file=True)
        self.focus = welcome.get("focus")
        self.focus_by = None


# --- Checks on states ------------------------------------------------------------------------------

def _pair(state, key, a, b):
    value = state.get(key)
    if not isinstance(value, dict) or not all(isinstance(value.get(k), (int, float)) and not isinstance(value.get(k), bool) for k in (a, b)):
        fail("malformed state", f"{key} is {value!r} in {json.dumps(state)[:400]}")
    return float(value[a]), float(value[b])


def check_state_shape(state):
    """What any state must be, whatever the model knows (docs/protocol.md, "The state")."""
    text = json.dumps(state)[:600]
    if not isinstance(state.get("container"), str):
        fail("malformed state", f"no container name: {text}")
    for key in ("seq", "t"):
        if not isinstance(state.get(key), int) or isinstance(state.get(key), bool):
            fail("malformed state", f"{key} is not an integer: {text}")
    if state.get("phase") not in PHASES:
        fail("malformed state", f"phase {state.get('phase')!r}: {text}")
    ox, oy = _pair(state, "contentOffset", "x", "y")
    vx, vy = _pair(state, "velocity", "x", "y")
    cw, ch = _pair(state, "contentSize", "width", "height")
    W, H = _pair(state, "containerSize", "width", "height")
    top, bottom = _pair(state, "contentInsets", "top", "bottom")
    leading, trailing = _pair(state, "contentInsets", "leading", "trailing")
    if "paused" in state and state["paused"] is not True:
        fail("malformed state", f"paused is present but not true: {text}")
    header = state.get("header")
    if header is not None:
        hh, progress = _pair(state, "header", "height", "progress")
        if not 0 <= progress <= 1:
            fail("header.progress outside [0, 1]", text)
    rows = state.get("visibleRows")
    if rows is not None:
        if not isinstance(rows, dict) or set(rows) != {"first", "last"}:
            fail("malformed state", f"visibleRows {rows!r}: {text}")
        first, last = rows["first"], rows["last"]
        if (first is None) != (last is None):
            fail("visibleRows half null", text)
        if first is not None and not (isinstance(first, int) and isinstance(last, int) and 0 <= first <= last):
            fail("visibleRows out of order", text)
    # At rest the offset lies in the resting range of each axis, and nothing moves.
    if state["phase"] == "idle":
        for axis, offset, velocity, content, length, a_lo, a_hi in (
                ("y", oy, vy, ch, H, top, bottom), ("x", ox, vx, cw, W, leading, trailing)):
            lo = -a_lo
            hi = max(content - length + a_hi, -a_lo)
            if not lo <= offset <= hi:
                fail("idle offset outside the resting range",
                     f"contentOffset.{axis} = {offset!r} outside [{lo!r}, {hi!r}] in {text}")
            if velocity != 0:
                fail("idle with a velocity", f"velocity.{axis} = {velocity!r} in {text}")


def check_state_model(state, container):
    """What a state must be given the container's configuration (docs/physics.md "Header",
    docs/protocol.md "The state", "Drawing a state")."""
    text = json.dumps(state)[:600]
    if not container.known:
        return
    try:
        config = container.header_config()
        layout = container.row_layout()
    except (KeyError, TypeError, ValueError, OverflowError):
        container.known = False  # a configuration the model cannot follow: judged no further
        return
    horizontal = container.axes == "horizontal"
    axis = "x" if horizontal else "y"
    offset = state["contentOffset"][axis]
    length = state["containerSize"]["width" if horizontal else "height"]
    a_lo = state["contentInsets"]["leading" if horizontal else "top"]
    a_hi = state["contentInsets"]["trailing" if horizontal else "bottom"]
    # paused is present exactly while a connection's pause holds.
    if ("paused" in state) != (container.paused_by is not None):
        fail("paused flag wrong", f"expected paused={container.paused_by is not None} in {text}")
    if (config is None) != ("header" not in state):
        fail("header presence wrong", f"expected {'a' if config else 'no'} header in {text}")
    if config is not None:
        M, m, stretch = config
        lo = -a_lo
        u = offset - lo
        height = (M - u if stretch else M) if u < 0 else max(m, M - u)
        progress = 0.0 if M == m else min(max((M - height) / (M - m), 0.0), 1.0)
        if math.isfinite(height) and math.isfinite(progress):
            if state["header"]["height"] != height or state["header"]["progress"] != progress:
                fail("header inconsistent with the offset",
                     f"header {m}…{M} stretch={stretch}, u = {u!r}: expected height {height!r}, "
                     f"progress {progress!r}, got {state['header']} in {text}")
    if (layout is None) != ("visibleRows" not in state):
        fail("visibleRows presence wrong", f"expected {'' if layout else 'no '}visibleRows in {text}")
    if layout is not None:
        if layout.visible_in == "usable":
            m_min = config[1] if config else 0.0
            lo, hi = offset + a_lo + m_min, offset + length - a_hi
            hi = max(lo, hi)
        else:
            lo, hi = offset, offset + length
        check_visible_rows(state, layout, lo, hi, text)


def check_visible_rows(state, layout, lo, hi, text):
    """visibleRows: the first and last row more than `threshold` of which lies in [lo, hi]. Only
    rows clearly visible or clearly not (by 1e-9 of the window) are judged; a row on the edge
    may go either way with rounding."""
    values = [lo, hi, layout.top] + [h * n for n, h in layout.runs]
    if not all(math.isfinite(v) for v in values) or abs(lo) > 1e15 or abs(hi) > 1e15:
        return
    rows = layout.overlapping(lo, hi)
    if rows is None:
        return
    eps = 1e-9 * max(1.0, abs(lo), abs(hi), hi - lo)

    def visibility(start, end):
        height = end - start
        inside = min(end, hi) - max(start, lo)
        need = max(layout.threshold * height, 0.0)
        if inside > need + eps and inside > eps:
            return True
        if inside < need - eps or inside < -eps or (height <= eps and inside <= eps):
            return False
        return None  # on the edge

    judged = {index: visibility(start, end) for index, start, end in rows}
    got = state["visibleRows"]
    first, last = got["first"], got["last"]
    clearly = [i for i, v in judged.items() if v is True]
    if first is None:
        if clearly:
            fail("visibleRows wrong", f"null, but row {clearly[0]} shows in [{lo!r}, {hi!r}] in {text}")
        return
    count = layout.count
    if last >= count:
        fail("visibleRows wrong", f"last {last} but the list has {count} rows: {text}")
    if clearly and (first > clearly[0] or last < clearly[-1]):
        fail("visibleRows wrong", f"rows {clearly[0]}…{clearly[-1]} show in [{lo!r}, {hi!r}], got {got} in {text}")
    for index in (first, last):
        if judged.get(index, False) is False:
            fail("visibleRows wrong", f"row {index} does not show in [{lo!r}, {hi!r}], got {got} in {text}")
