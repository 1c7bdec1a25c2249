#!/usr/bin/python3
"""A client that stays connected while scrolld is killed and restarted (docs/design.md §16).

    restore-client.py SOCKET DIR ROLE ROUNDS

ROLE a: configures container `list`, subscribes to it and to `main`, observes list's offset,
scrolls list to 1234.5, focuses `main` (input goes to main only), then writes DIR/a.ready. ROLE b: subscribes to `list` only, then
DIR/b.ready. For each round K (1..ROUNDS) it waits for DIR/round-K.kill (the time the guest
script killed or stopped the daemon, CLOCK_REALTIME seconds), then for the first `list` state
(or, when DIR/round-K.lost exists, a new `welcome`) after it, sends `ping` and `get list`, and
writes what it saw to DIR/ROLE.round-K (JSON). Before the kill of round K, the first state of
`main` that is not idle is written to DIR/ROLE.round-K.main-moved. It never reconnects: an end of file or an error
is recorded and ends it. ROLE c: connects once and writes its welcome to DIR/c.welcome.
"""

import json
import os
import select
import socket
import sys
import time


class Lines:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.pending = b""
        self.eof = False
        self.error = None

    def send(self, obj):
        self.sock.sendall((json.dumps(obj) + "\n").encode())

    def next(self, timeout):
        """The next line as an object, or None after `timeout` seconds (or at EOF/error)."""
        deadline = time.time() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.time()
            if left <= 0 or self.eof:
                return None
            ready, _, _ = select.select([self.sock], [], [], left)
            if not ready:
                continue
            try:
                chunk = self.sock.recv(65536)
            except OSError as e:
                self.error = str(e)
                self.eof = True
                return None
            if not chunk:
                self.eof = True
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return json.loads(line)

    def until(self, predicate, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.next(deadline - time.time())
            if line is None:
                return None
            if predicate(line):
                return line
        return None


def is_state(container):
    return lambda l: l.get("type") == "state" and l.get("container") == container


def main():
    path, directory, role = sys.argv[1], sys.argv[2], sys.argv[3]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    c = Lines(path)
    welcome = c.next(30)
    if role == "c":
        with open(os.path.join(directory, "c.welcome"), "w") as f:
            json.dump(welcome, f)
        return 0
    if role == "a":
        c.send({"op": "configure", "container": "list", "containerSize": {"width": 400, "height": 600},
                "contentSize": {"width": 400, "height": 20000}, "id": 1})
        c.until(lambda l: l.get("id") == 1, 30)
        c.send({"op": "subscribe", "container": "list", "id": 2})
        c.send({"op": "subscribe", "container": "main", "id": 3})
        c.send({"op": "observe", "container": "list", "of": "contentOffset.y", "id": "offset"})
        c.send({"op": "scrollTo", "container": "list", "y": 1234.5, "animation": "none", "id": 4})
        # The wheel the guest turns later is for main alone (docs/design.md §14): list stays at
        # 1234.5.
        c.send({"op": "focus", "container": "main", "id": 5})
        state = c.until(lambda l: is_state("list")(l) and l["contentOffset"]["y"] == 1234.5, 30)
    else:
        state = None
        deadline = time.time() + 60
        while state is None and time.time() < deadline:
            c.send({"op": "subscribe", "container": "list", "id": "s"})
            reply = c.until(lambda l: l.get("id") == "s", 30)
            if reply and reply.get("type") == "state" and reply["contentOffset"]["y"] == 1234.5:
                state = reply
            else:
                time.sleep(0.3)
    if state is None:
        with open(os.path.join(directory, role + ".failed"), "w") as f:
            json.dump({"eof": c.eof, "error": c.error}, f)
        return 1
    last_seq = state["seq"]
    open(os.path.join(directory, role + ".ready"), "w").close()

    for k in range(1, rounds + 1):
        kill_file = os.path.join(directory, "round-%d.kill" % k)
        main_states = 0
        moving = 0
        # Everything before the kill: keep the last seq of list, count main's states (input).
        # The first moving state of main in this round writes DIR/ROLE.round-K.main-moved (whole,
        # through a rename): the guest script waits for it before the kill rather than for a time.
        moved_file = os.path.join(directory, "%s.round-%d.main-moved" % (role, k))
        while not os.path.exists(kill_file):
            line = c.next(0.1)
            if c.eof:
                break
            if line and is_state("list")(line):
                last_seq = line["seq"]
            if line and is_state("main")(line):
                main_states += 1
                if line.get("phase") != "idle":
                    moving += 1
                    if moving == 1:
                        with open(moved_file + ".tmp", "w") as f:
                            json.dump(line, f)
                        os.rename(moved_file + ".tmp", moved_file)
        result = {"seq_before": last_seq, "main_states_before": main_states, "main_moving_before": moving}
        lost = os.path.exists(os.path.join(directory, "round-%d.lost" % k))
        while not os.path.exists(kill_file):
            time.sleep(0.05)
        time.sleep(0.05)
        with open(kill_file) as f:
            killed = float(f.read().strip())
        wanted = (lambda l: l.get("type") == "welcome") if lost else is_state("list")
        seen = []
        got = None
        deadline = time.time() + 90
        while got is None and time.time() < deadline and not c.eof:
            line = c.next(deadline - time.time())
            if line is None:
                continue
            seen.append(line.get("type"))
            if wanted(line):
                got = line
        result.update({"received": got, "after_s": (time.time() - killed) if got else None,
                       "eof": c.eof, "error": c.error, "types_seen": seen})
        if got is not None:
            if not lost:
                last_seq = got["seq"]
            c.send({"op": "ping", "id": "p%d" % k})
            result["ping"] = c.until(lambda l: l.get("id") == "p%d" % k, 30)
            c.send({"op": "get", "container": "list", "id": "g%d" % k})
            result["get"] = c.until(lambda l: l.get("id") == "g%d" % k, 30)
            if lost:
                # The session was refused: subscribe again, as a client meeting a new daemon does.
                c.send({"op": "subscribe", "container": "list", "id": "r%d" % k})
                result["resubscribe"] = c.until(lambda l: l.get("id") == "r%d" % k, 30)
        with open(os.path.join(directory, "%s.round-%d" % (role, k)), "w") as f:
            json.dump(result, f)
        if c.eof:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
