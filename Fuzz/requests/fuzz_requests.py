#!/usr/bin/env python3
"""A property-based fuzz of scrolld's request surface, against the real daemon over its real
Unix socket (docs/fuzzing.md, "The daemon's request surface").

Each example is a sequence of steps — requests of every op with values from the extremes, raw
lines, waits, reconnections — sent to a fresh `scrolld run` on a private socket. After every
request it checks that

  (a) the daemon is alive and answers a ping on a separate connection (the wait has a deadline
      that only catches hangs: nothing here judges time);
  (b) every line the daemon sent on any connection is JSON with only finite numbers (a parser
      that rejects NaN/Infinity and numbers that overflow a double) and no duplicate key;
  (c) every container's state (a `get` on another connection) is consistent: the header from the
      offset by docs/physics.md's formula (exactly), visibleRows from the offset and the rows, at
      rest the offset inside the resting range and no velocity, `paused` exactly while paused,
      and containers exist exactly as the requests answered so far say;
  (d) the request got exactly one reply of its op's type echoing its id, or an error with a
      known code and a message naming the problem — and its connection stays open unless the
      line was over 64 KiB (then `too_large` and a close).

Hypothesis shrinks a failure to a minimal sequence, printed as the exact lines sent.

Usage: fuzz_requests.py [--time SECONDS] [--seed N] [--bin PATH] [--no-replay] [--stop-at-first]
"""

import argparse
import json
import os
import subprocess
import sys
import time
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Hypothesis keeps nothing between runs here (no example database), and what it writes at all
# goes under .build, never into the tree.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(ROOT, ".build/fuzz/hypothesis"))

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed as hypothesis_seed, settings  # noqa: E402
from hypothesis.errors import Flaky, FlakyFailure, Unsatisfiable  # noqa: E402

import harness  # noqa: E402
from harness import ERROR_CODES, LINE_LIMIT, REPLY_TYPES, Connection, Container, Daemon, Failure, Model, fail  # noqa: E402
from requests_strategies import Raw, encode, steps as steps_strategy  # noqa: E402

EXPECTED_REPLY = {"ping": "pong", "devices": "devices", "reload": "reloaded", "get": "state",
                  "subscribe": "state", "observe": "observation"}
CONTAINER_OPS = {"get", "scrollTo", "scrollBy", "pause", "resume", "remove", "subscribe", "observe"}


def keys_of(value, out):
    if isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            out.add(harness.snake(key))
            # configure's messages name a setting by its configuration key.
            if key in ("contentInsets", "content_insets"):
                out.add("insets")
            keys_of(item, out)
    elif isinstance(value, list):
        for item in value:
            keys_of(item, out)
    return out


def show(line):
    """A line sent, as the transcript shows it: non-ASCII characters as JSON's \\u escapes (so
    that "Caf\\u00e9" and "Cafe\\u0301" differ on screen as they do in bytes); bytes that are not
    UTF-8 as Python's bytes literal."""
    try:
        text = line.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return repr(line)
    out = []
    for ch in text:
        code = ord(ch)
        if code < 128:
            out.append(ch)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return "".join(out)


def short(text, limit=400):
    return text if len(text) <= limit else text[:limit] + f"…(+{len(text) - limit} chars)"


class Run:
    """One example: a fresh daemon, two client connections, a health connection and a monitor."""

    def __init__(self, options):
        self.options = options
        self.transcript = []
        self.counter = 0
        self.names_used = set()
        self.daemon = Daemon(options.bin, None if options.no_replay else options.replay, options.speed)
        self.conns = [None, None]
        self.health = None
        self.monitor = None
        self.observations = [{}, {}]  # per client slot: json(id) → container
        self.seqs = {}  # (connection name, container) → last seq of a subscription's state
        self.monitor_subscribed = set()

    # --- bookkeeping of what connections receive ---------------------------------------

    def sink(self, conn):
        def on_message(message):
            kind = message.get("type")
            if kind == "state":
                harness.check_state_shape(message)
                if "id" not in message:
                    key = (conn.name, message["container"])
                    last = self.seqs.get(key)
                    if last is not None and message["seq"] <= last:
                        fail("subscription went back", f"{conn.name}: seq {message['seq']} after {last} for {message['container']!r}")
                    self.seqs[key] = message["seq"]
            elif kind == "removed":
                name = message.get("container")
                self.seqs.pop((conn.name, name), None)
                if conn is self.monitor:
                    self.monitor_subscribed.discard(harness.name_key(name))
                for slot, c in enumerate(self.conns):
                    if c is conn:
                        for ident, container in list(self.observations[slot].items()):
                            if container == name:
                                del self.observations[slot][ident]
            elif kind == "observation":
                for key in ("id", "container", "of", "seq", "t", "old", "new"):
                    if key not in message:
                        fail("malformed observation", f"no {key}: {short(json.dumps(message))}")
            elif kind in ("welcome",) or kind in REPLY_TYPES:
                pass
            elif kind is None:
                fail("message without a type", short(json.dumps(message)))
        return on_message

    def check_violations(self):
        for conn in [*self.conns, self.health, self.monitor]:
            if conn is not None:
                conn.check_violations()

    def drain(self):
        for conn in [*self.conns, self.health, self.monitor]:
            if conn is not None:
                conn.drain(self.sink(conn))
        self.check_violations()

    def alive(self):
        if not self.daemon.alive():
            self.daemon.died()

    def next_id(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def ask(self, conn, request, accept_types):
        """Sends a request of the harness's own on `conn` and returns its reply."""
        ident = request["id"]
        conn.send((json.dumps(request) + "\n").encode())
        try:
            return conn.next_message(lambda m: m.get("id") == ident and m.get("type") in accept_types,
                                     f"the reply to {json.dumps(request)}", self.sink(conn))
        except Failure:
            self.check_violations()
            self.alive()
            raise

    # --- setup ------------------------------------------------------------------------------

    def start(self):
        self.health = Connection(self.daemon, "health")
        self.monitor = Connection(self.daemon, "monitor")
        self.model = Model(self.health.welcome)
        for slot in (0, 1):
            self.open(slot)
        self.after_request()

    def open(self, slot):
        conn = Connection(self.daemon, f"client{slot}")
        welcome = conn.welcome
        if {harness.name_key(n) for n in welcome.get("containers", [])} != set(self.model.containers):
            fail("welcome lists other containers", f"{welcome.get('containers')} but the requests made {sorted(self.model.containers)}")
        if harness.name_key(welcome.get("focus")) != harness.name_key(self.model.focus):
            fail("welcome has another focus", f"{welcome.get('focus')!r}, expected {self.model.focus!r}")
        self.conns[slot] = conn
        self.observations[slot] = {}

    def stop(self):
        for conn in [*self.conns, self.health, self.monitor]:
            if conn is not None:
                conn.close()
        self.daemon.stop()

    # --- steps --------------------------------------------------------------------------------

    def execute(self, step):
        if os.environ.get("FUZZ_TRACE"):
            print("step", repr(step)[:300], file=sys.stderr, flush=True)
        try:
            self.execute_step(step)
        except Failure as failure:
            if failure.kind in ("hang", "connection closed"):
                # A crashing daemon closes its sockets a moment before it exits (Swift's
                # backtracer runs first): give it time to, so that a crash is called one.
                try:
                    self.daemon.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
                self.alive()
                # Told apart by what was sent last: one wedge must not hide another.
                last = step[2] if step[0] == "request" else step[0]
                fail(f"{failure.kind} after {last}", failure.detail)
            raise

    def execute_step(self, step):
        kind = step[0]
        if kind == "wait":
            self.transcript.append(f"(wait {step[1]} s)")
            time.sleep(step[1])
            self.after_request()
        elif kind == "reconnect":
            self.transcript.append(f"(client{step[1]} closes its connection and connects again)")
            self.close_slot(step[1])
            self.open(step[1])
            self.after_request()
        elif kind == "line":
            self.send_line(step[1], step[2])
        else:
            _, slot, op, pairs, ident, ascii_only = step
            pairs = list(pairs)
            if ident == "int":
                if op == "observe":
                    ident = self.next_id("o")
                elif op == "unobserve" and self.observations[slot]:
                    ident = json.loads(sorted(self.observations[slot])[-1])
                else:
                    self.counter += 1
                    ident = self.counter
            pairs.insert(min(1, len(pairs)), ("id", ident))
            text = "{" + ",".join(json.dumps(k, ensure_ascii=ascii_only) + ":" + encode(v, ascii_only) for k, v in pairs) + "}"
            self.send_line(slot, text.encode("utf-8", "surrogatepass"))

    def send_line(self, slot, line):
        conn = self.conns[slot]
        self.transcript.append(f"client{slot}> {show(line)}")
        text = line.decode("utf-8", "surrogatepass") if _utf8(line) else None
        parsed = harness.parse_lenient(text) if text is not None else None
        if isinstance(parsed, dict) and isinstance(parsed.get("container"), str):
            self.names_used.add(parsed["container"])
        # The daemon drops a trailing \r; a line over the limit gets too_large and a close.
        if len(line) > LINE_LIMIT:
            conn.send(line + b"\n")
            reply = conn.next_message(lambda m: m.get("type") == "error", "too_large for a line over 64 KiB", self.sink(conn))
            self.transcript.append(f"client{slot}< {short(json.dumps(reply), 300)}")
            if reply.get("code") != "too_large":
                fail("long line not too_large", short(json.dumps(reply)))
            if not conn.closed.wait(harness.HANG_DEADLINE):
                fail("long line did not close the connection", f"client{slot} still open after too_large")
            self.close_slot(slot)
            self.open(slot)
            self.after_request()
            return
        conn.send(line + b"\n")
        op = parsed.get("op") if isinstance(parsed, dict) else None
        ident = parsed.get("id") if isinstance(parsed, dict) else None
        active = self.observations[slot]

        def is_reply(m):
            kind = m.get("type")
            if kind in REPLY_TYPES:
                return True
            if kind == "state":
                return "id" in m
            if kind == "observation":
                return (op == "observe" and "id" in m and json.dumps(m["id"]) not in active
                        and m.get("old") is None and m["id"] == ident)
            return False

        try:
            reply = conn.next_message(is_reply, f"a reply to {short(line.decode('utf-8', 'replace'), 200)}", self.sink(conn))
        except Failure:
            self.check_violations()
            self.alive()
            raise
        self.transcript.append(f"client{slot}< {short(json.dumps(reply), 300)}")
        self.judge_reply(slot, parsed, op, ident, reply, line)
        self.after_request()

    def judge_reply(self, slot, parsed, op, ident, reply, line):
        kind = reply["type"]
        if kind == "error":
            code, message = reply.get("code"), reply.get("message")
            if code not in ERROR_CODES:
                fail("unknown error code", short(json.dumps(reply)))
            if not isinstance(message, str) or not message.strip() or "\n" in message:
                fail("error without a one-line message", short(json.dumps(reply)))
            if code in ("bad_request", "unknown_op") and len(message.encode()) > 1024:
                fail("error message over 1024 bytes", f"{code}: {len(message.encode())} bytes")
            if code == "invalid_value" and isinstance(parsed, dict):
                keys = keys_of(parsed, set()) | {"container", "rows", "header", "physics"}
                if not any(key and key in message for key in keys):
                    fail("invalid_value names no key", f"{short(message)} for {short(line.decode('utf-8', 'replace'))}")
            if code == "unknown_container" and "container" not in message:
                fail("unknown_container says nothing of a container", short(message))
            if code == "too_large" and not message.startswith("too many containers"):
                fail("too_large for a line within 64 KiB", f"{len(line)} bytes")
            if isinstance(parsed, dict) and "id" in reply and reply["id"] != ident:
                fail("reply echoes another id", f"sent {ident!r}, got {reply['id']!r}")
            name = parsed.get("container") if isinstance(parsed, dict) else None
            if (code == "unknown_container" and op in CONTAINER_OPS and isinstance(name, str)
                    and name in self.model.containers and self.model.containers[name].known):
                fail("existing container reported unknown", f"{op} on {name!r}: {short(message)}")
            return
        # Not an error: the request was a JSON object with a known op.
        if not isinstance(parsed, dict) or not isinstance(op, str):
            fail("non-request accepted", f"{kind} for {short(line.decode('utf-8', 'replace'))}")
        expected = EXPECTED_REPLY.get(op, "ok")
        if kind != expected:
            fail("wrong reply type", f"{op} got {kind}: {short(json.dumps(reply))}")
        if ident is not None and reply.get("id") != ident:
            fail("reply echoes another id", f"sent {ident!r}, got {reply.get('id')!r}")
        name = parsed.get("container")
        model = self.model
        if op in CONTAINER_OPS and name not in model.containers:
            fail("request on a missing container succeeded", f"{op} on {name!r}: {short(json.dumps(reply))}")
        existing = model.containers.get(name) if isinstance(name, str) else None
        if existing is not None and existing.name != name:
            fail("canonically equivalent names are one container",
                 f"{op} on {name!r} acted on the container {existing.name!r}, a different string "
                 f"({name.encode()!r} vs {existing.name.encode()!r}): {short(json.dumps(reply))}")
        if op == "configure":
            container = model.containers.get(name)
            if container is None:
                container = Container(name, owner=slot if parsed.get("owned") is True else None)
                model.containers[name] = container
            try:
                container.apply_configure(parsed)
            except (KeyError, TypeError, ValueError, OverflowError):
                container.known = False
        elif op == "remove":
            self.forget(name)
        elif op == "pause":
            model.containers[name].paused_by = slot
        elif op == "resume":
            model.containers[name].paused_by = None
        elif op == "focus":
            model.focus, model.focus_by = name, slot
        elif op == "reload":
            if reply.get("ok") is True:
                for cname, container in model.containers.items():
                    if container.from_file:
                        fresh = Container(cname, from_file=True)
                        fresh.paused_by = container.paused_by
                        model.containers[cname] = fresh
        elif op == "devices":
            if harness.name_key(reply.get("focus")) != harness.name_key(model.focus):
                fail("devices has another focus", f"{reply.get('focus')!r}, expected {model.focus!r}")
        elif op == "subscribe":
            self.seqs[(self.conns[slot].name, name)] = reply["seq"]
            harness.check_state_shape(reply)
        elif op == "unsubscribe":
            for key in list(self.seqs):
                if key[0] == self.conns[slot].name and (name is None or key[1] == name):
                    del self.seqs[key]
        elif op == "observe":
            self.observations[slot][json.dumps(ident)] = name
        elif op == "unobserve":
            self.observations[slot].pop(json.dumps(ident), None)

    def forget(self, name):
        self.model.containers.pop(name, None)
        if harness.name_key(self.model.focus) == harness.name_key(name):
            self.model.focus = None
        for slot in (0, 1):
            for ident, container in list(self.observations[slot].items()):
                if harness.name_key(container) == harness.name_key(name):
                    del self.observations[slot][ident]

    def close_slot(self, slot):
        """Closes a client connection and waits until the daemon has undone what it owned: its
        owned containers removed, its pauses and its focus undone (docs/design.md §19)."""
        conn = self.conns[slot]
        conn.close()
        self.seqs = {k: v for k, v in self.seqs.items() if k[0] != conn.name}
        self.observations[slot] = {}
        gone, unpaused = [], []
        for name, container in list(self.model.containers.items()):
            if container.owner == slot:
                self.forget(name)
                gone.append(name)
            elif container.paused_by == slot:
                container.paused_by = None
                unpaused.append(name)
        if self.model.focus_by == slot and self.model.focus is not None:
            self.model.focus = None
        deadline = time.monotonic() + harness.HANG_DEADLINE
        while True:
            self.alive()
            pending = []
            for name in gone:
                reply = self.ask(self.monitor, {"op": "get", "container": name, "id": self.next_id("m")}, {"state", "error"})
                if reply["type"] == "state":
                    pending.append(f"owned container {name!r} still there")
            for name in unpaused:
                reply = self.ask(self.monitor, {"op": "get", "container": name, "id": self.next_id("m")}, {"state", "error"})
                if reply.get("paused"):
                    pending.append(f"{name!r} still paused")
            devices = self.ask(self.monitor, {"op": "devices", "id": self.next_id("m")}, {"devices"})
            if harness.name_key(devices.get("focus")) != harness.name_key(self.model.focus):
                pending.append(f"focus {devices.get('focus')!r}, expected {self.model.focus!r}")
            if not pending:
                return
            if time.monotonic() > deadline:
                fail("close not undone", "; ".join(pending))
            time.sleep(0.01)

    # --- the checks after each request ----------------------------------------------------------

    def after_request(self):
        self.drain()
        self.alive()
        # (a) a ping on the health connection, a separate one.
        reply = self.ask(self.health, {"op": "ping", "id": self.next_id("h")}, {"pong", "error"})
        if reply["type"] != "pong":
            fail("unhealthy ping", short(json.dumps(reply)))
        # (c) every container's state, from the monitor.
        for name in sorted(set(self.model.containers) | self.names_used):
            if not probeable(name):
                continue
            reply = self.ask(self.monitor, {"op": "get", "container": name, "id": self.next_id("m")}, {"state", "error"})
            container = self.model.containers.get(name)
            if reply["type"] == "error":
                if container is not None and container.known:
                    fail("container missing", f"get {name!r}: {short(json.dumps(reply))}")
                continue
            if container is None:
                fail("unexpected container", f"get {name!r} answered a state, but no request made it: {short(json.dumps(reply))}")
            harness.check_state_shape(reply)
            if harness.name_key(reply.get("container")) != harness.name_key(name):
                fail("state of another container", f"get {name!r} gave {reply.get('container')!r}")
            harness.check_state_model(reply, container)
            if harness.name_key(name) not in self.monitor_subscribed:
                self.ask(self.monitor, {"op": "subscribe", "container": name, "id": self.next_id("m")}, {"state", "error"})
                self.monitor_subscribed.add(harness.name_key(name))
        self.drain()
        self.alive()


def probeable(name):
    """A name the monitor can ask about in a line of its own: a non-empty string without a dot
    that JSON can carry as UTF-8 (no lone surrogate), well within the line limit."""
    if not isinstance(name, str) or not name or "." in name or len(name) > 1000:
        return False
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _utf8(line):
    try:
        line.decode("utf-8", "surrogatepass")
        return True
    except UnicodeDecodeError:
        return False


# --- the driver -------------------------------------------------------------------------------------

class Campaign:
    def __init__(self, options):
        self.options = options
        self.failures = {}  # kind → (detail, transcript)
        self.examples = 0
        self.last = None
        self.smallest = {}  # kind → the failure with the shortest transcript seen
        self.shrink_deadline = None
        self.end = time.monotonic() + options.time

    def run_example(self, steps):
        if self.shrink_deadline is None and time.monotonic() > self.end:
            reject()  # the time is up, and nothing is being shrunk: the batch ends here
        if self.shrink_deadline is not None and time.monotonic() > self.shrink_deadline:
            # Shrinking has had its time: the smallest failing sequence so far is reported.
            reject()
        self.examples += 1
        run = Run(self.options)
        self.last = run
        try:
            run.start()
            for step in steps:
                run.execute(step)
        except Failure as failure:
            failure.transcript = list(run.transcript)
            if failure.kind in harness.KNOWN and not self.options.stop_at_first:
                # Reported already, with its minimal sequence: not worth shrinking again.
                reject()
            smallest = self.smallest.get(failure.kind)
            if smallest is None or _size(failure.transcript) < _size(smallest.transcript):
                self.smallest[failure.kind] = failure
            if self.shrink_deadline is None:
                self.shrink_deadline = time.monotonic() + self.options.shrink_time
            raise
        finally:
            run.stop()

    def batch(self, seed, examples):
        self.shrink_deadline = None
        @hypothesis_seed(seed)
        @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
                  phases=[Phase.generate, Phase.shrink], print_blob=False, verbosity=Verbosity.quiet)
        @given(steps_strategy)
        def test(steps):
            self.run_example(steps)

        test()


def _size(transcript):
    return (sum(1 for line in transcript if "> " in line), sum(len(line) for line in transcript))


def _inner_failure(error):
    """The Failure inside a Hypothesis exception group, if any."""
    if isinstance(error, Failure):
        return error
    for inner in getattr(error, "exceptions", ()):
        found = _inner_failure(inner)
        if found is not None:
            return found
    return None


def report(kind, failure, transcript, out):
    lines = [f"FAILURE: {kind}", f"  what: {failure.detail}", "  minimal sequence (client lines sent, '<' the replies):"]
    lines += ["    " + short(line, 2000) for line in transcript]
    text = "\n".join(lines)
    print(text, flush=True)
    if out:
        os.makedirs(out, exist_ok=True)
        index = len(os.listdir(out)) + 1
        with open(os.path.join(out, f"{index:03d}.txt"), "w") as f:
            f.write(f"FAILURE: {kind}\nwhat: {failure.detail}\n\n")
            f.write("\n".join(transcript) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time", type=float, default=float(os.environ.get("FUZZ_TIME", 60)),
                        help="seconds to keep generating examples (default: $FUZZ_TIME, else 60)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", 0)) or None,
                        help="seed of the first batch (default: random; each batch uses the next)")
    parser.add_argument("--examples-per-batch", type=int, default=25)
    parser.add_argument("--bin", default=os.environ.get("SCROLLD_BIN", os.path.join(ROOT, ".build/debug/scrolld")))
    parser.add_argument("--replay", default=os.path.join(ROOT, "examples/demo.scrolllog"),
                        help="the event log the daemon replays, looped, as its input")
    parser.add_argument("--speed", type=float, default=8.0,
                        help="how much faster than recorded the log plays (default 8: the demo's "
                             "9 s of wheel and touchpad input every 1.1 s, so that short sequences meet it)")
    parser.add_argument("--no-replay", action="store_true", help="run the daemon without input")
    parser.add_argument("--shrink-time", type=float, default=float(os.environ.get("FUZZ_SHRINK_TIME", 60)),
                        help="seconds Hypothesis may spend shrinking each failure (default 60)")
    parser.add_argument("--stop-at-first", action="store_true", help="stop at the first failure")
    parser.add_argument("--out", default=os.path.join(ROOT, ".build/fuzz/requests"),
                        help="where each failure's report is written")
    options = parser.parse_args()
    warnings.filterwarnings("ignore", module="hypothesis")
    if not os.access(options.bin, os.X_OK):
        print(f"fuzz_requests: {options.bin} is not an executable; build it with `swift build` "
              f"(or set SCROLLD_BIN)", file=sys.stderr)
        return 2
    seed = options.seed if options.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"fuzz requests: daemon {options.bin}, {options.time:g} s, seed {seed}"
          f"{'' if options.no_replay else f', input replayed from {os.path.relpath(options.replay, ROOT)} at {options.speed:g}x, looped'}", flush=True)
    campaign = Campaign(options)
    start = time.monotonic()
    batch = 0
    while time.monotonic() - start < options.time:
        current = seed + batch
        batch += 1
        try:
            campaign.batch(current, options.examples_per_batch)
        except (Failure, Unsatisfiable, FlakyFailure, Flaky) as error:
            # Without a Failure inside, a Flaky is Hypothesis noticing that the shrink deadline
            # rejected a sequence that had run before: nothing to report.
            pass
        except Exception:  # the harness's own mistake: say so, loudly
            traceback.print_exc()
            return 2
        # Every kind of failure this batch met, each with the shortest sequence that showed it.
        for kind, failure in campaign.smallest.items():
            if kind not in campaign.failures:
                campaign.failures[kind] = failure
                harness.KNOWN.add(kind)
                print(f"(batch seed {current}; rerun it alone with --seed {current} --stop-at-first)")
                report(kind, failure, failure.transcript, options.out)
        if campaign.failures and options.stop_at_first:
            break
    elapsed = time.monotonic() - start
    print(f"fuzz requests: {campaign.examples} runs (examples and shrinks) in {elapsed:.0f} s; "
          f"{len(campaign.failures)} distinct failure(s)" + (": " + "; ".join(campaign.failures) if campaign.failures else ""))
    return 1 if campaign.failures else 0


if __name__ == "__main__":
    sys.exit(main())
