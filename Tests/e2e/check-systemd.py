#!/usr/bin/python3
"""Judges what systemd-guest.sh observed in the guest (the units under a real systemd, docs/systemd.md).

    Tests/e2e/check-systemd.py WORKDIR

Reads WORKDIR/facts.txt (KEY=VALUE lines) and the outputs beside it, writes one "PASS: ..." or
"FAIL: ..." line per check (failures followed by indented details) and a final "N passed, M
failed" line to WORKDIR/results.txt and stdout. Exit status 0 only when every check passed.
The exposure score the guest measured must be the one docs/systemd.md records.
"""

import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quiescence  # noqa: E402  (beside this file: the guest's look, judged again here)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Checker:
    def __init__(self, work):
        self.work = work
        self.lines = []
        self.passed = 0
        self.failed = 0
        self.facts = {}
        path = os.path.join(work, "facts.txt")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    key, sep, value = line.rstrip("\n").partition("=")
                    if sep:
                        # a key seen twice (DeviceAllow lists) keeps every value
                        self.facts[key] = value if key not in self.facts else self.facts[key] + "\n" + value

    def fact(self, key, default=None):
        return self.facts.get(key, default)

    def text(self, name):
        try:
            with open(os.path.join(self.work, name), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError as e:
            return "<%s: %s>" % (name, e.strerror)

    def check(self, what, ok, details=""):
        self.lines.append(("PASS: " if ok else "FAIL: ") + what)
        if not ok and details:
            self.lines.extend("    " + line for line in str(details).splitlines())
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def json(self, name):
        """The JSON in `name` beside the facts, None when missing or unreadable."""
        try:
            with open(os.path.join(self.work, name), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def info(self, what):
        self.lines.append("INFO: " + what)

    def facts_equal(self, what, expected):
        """Checks that every KEY in `expected` has exactly its value."""
        wrong = ["%s=%r, expected %r" % (k, self.fact(k), v) for k, v in expected.items() if self.fact(k) != v]
        self.check(what, not wrong, "\n".join(wrong))

    def finish(self):
        self.lines.append("%d passed, %d failed" % (self.passed, self.failed))
        text = "\n".join(self.lines) + "\n"
        with open(os.path.join(self.work, "results.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        sys.stdout.write(text)
        return 0 if self.failed == 0 and self.passed > 0 else 1


def mounts(mountinfo):
    """mount point -> (root within its file system, per-mount options, type, super options) of the
    mount on top at that point (mountinfo lists mounts in the order they were made)."""
    table = {}
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        table[fields[4]] = (fields[3], set(fields[5].split(",")), fields[dash + 1], set(fields[dash + 3].split(",")))
    return table


def containing(table, path):
    """The mount that holds `path`: the one at its longest mounted prefix."""
    while path not in table and path != "/":
        path = os.path.dirname(path)
    return path, table.get(path)


def threads_of(c, key):
    """`key`.threads as (name, policy, rt_priority) triples, policy 0 SCHED_OTHER, 2 SCHED_RR."""
    # A name may hold spaces (GLib's "dconf worker"): each entry ends with its two numbers.
    return re.findall(r"(\S.*?):(-?[0-9]+):(-?[0-9]+)(?= |$)", c.facts.get(key + ".threads") or "")


def check_sessions(c):
    """docs/design.md §15 under a real logind: two users' sessions on tty2 and tty3, chvt, sleep."""
    f = c.fact
    active = '"input":{"state":"active","reason":null}'
    c.check("two users' logind sessions on seat0 (tty2, tty3); chvt 2 makes the test user's the active one",
            f("vt.session.a.rc") == "0" and f("vt.session.b.rc") == "0" and f("vt.a.active") == "0",
            c.text("vt-sessions.out") + c.text("vt-seat0.out"))
    c.check("user active: the devices are open and the devices reply says active",
            f("session.active.listed") == "0" and int(f("session.active.fds") or 0) > 0 and f("session.active.input") == active,
            "listed %s, fds %s, %s" % (f("session.active.listed"), f("session.active.fds"), f("session.active.input")))
    c.check("user active: uinput wheel clicks and a two-finger scroll reach the user's subscriber",
            f("session.active.wheel") == "0" and f("session.active.fingers") == "0",
            "wheel %s, fingers %s" % (f("session.active.wheel"), f("session.active.fingers")))
    c.check("chvt to the other user's VT: the daemon holds no /dev/input descriptor (from /proc)",
            f("session.away.closed") == "0" and f("session.away.fds") == "0" and f("session.away.active_user") == "scrolld-e2e-b",
            "closed %s, fds %s, active user %s" % (f("session.away.closed"), f("session.away.fds"), f("session.away.active_user")))
    c.info("devices closed %s ms after chvt returned (the aim is 1 s; measured, not judged: no wall-clock verdicts)" % f("session.away.closed_ms"))
    phases = (f("session.away.phases") or "").split()
    c.check("a two-finger scroll in progress at the switch ends as a scroll stop does: a fling, then rest",
            f("session.away.settled") == "0" and '"phase":"decelerating"' in phases and phases[-1:] == ['"phase":"idle"'],
            "phases after the switch: %s" % phases)
    c.check("away: the devices reply says paused, session_inactive",
            f("session.away.input") == '"input":{"state":"paused","reason":"session_inactive"}', f("session.away.input"))
    c.check("away: injected wheel clicks reach no subscriber", f("session.away.lines_after_input") == "0",
            "lines after input: %s" % f("session.away.lines_after_input"))
    c.check("back on the user's VT: devices reopened, the mouse plugged in while away is listed and its wheel reaches the subscriber",
            f("session.back.opened") == "0" and f("session.back.listed") == "0" and f("session.back.input") == active
            and f("session.back.hotplugged_wheel") == "0",
            "opened %s, listed %s, %s, wheel %s" % (f("session.back.opened"), f("session.back.listed"), f("session.back.input"), f("session.back.hotplugged_wheel")))
    c.info("devices reopened %s ms after chvt returned" % f("session.back.opened_ms"))
    c.check("one log line per transition: followed seat0 once, paused once, resumed once",
            f("session.log.following") == "1" and f("session.log.paused") == "1" and f("session.log.resumed") == "1",
            c.text("session-journal.out"))
    # Asleep for good, judged again here from the look the guest recorded (quiescence.py): the
    # daemon with WatchdogSec=0 has nothing armed at all; with the unit's WatchdogSec=30 it has
    # the one timer of its ping, due within WATCHDOG_USEC/2.
    for key, watchdog, what in (("session.idle", None, "with WatchdogSec=0: every thread asleep in a system call without a timeout, no timerfd armed, no POSIX timer, no thread run between two looks"),
                                ("session.idle_watchdog", 30000000, "with WatchdogSec=30: the same, but for exactly one one-shot timerfd due within WATCHDOG_USEC/2 (the watchdog's ping)")):
        look = c.json(key + "-look.json")
        reasons = quiescence.what_may_wake(look) if look else ["no look recorded: %s" % c.text(key + "-look.out")]
        c.check("idle with sd-bus attached (logind followed, devices open), asleep for good " + what,
                f(key + ".following") == "0" and int(f(key + ".fds") or 0) > 0 and f(key + ".asleep") == "0"
                and look is not None and look.get("watchdog_usec") == watchdog and not reasons,
                "following %s, fds %s, quiescence.py %s after %s looks, WATCHDOG_USEC %s\n%s" % (
                    f(key + ".following"), f(key + ".fds"), f(key + ".asleep"), (look or {}).get("looks"),
                    (look or {}).get("watchdog_usec"), "\n".join(reasons)))
        if look:
            c.info("%s: %d looks; threads %s; timerfds %s" % (key, look.get("looks", 0),
                   ["%s %s" % (t["name"], t["syscall"].split()[0]) for t in look["threads"]],
                   ["fd %s it_value %s it_interval %s" % (fd, i.get("it_value"), i.get("it_interval")) for fd, i in look["timerfds"]]))
    sleep_log = c.text("sleep-journal.out")
    paused = [l for l in sleep_log.splitlines() if "input paused: sleep" in l]
    resumed = [l for l in sleep_log.splitlines() if "input resumed: the system woke up" in l]
    def stamp(line):
        m = re.match(r"\[\s*([0-9.]+)\]", line)
        return float(m.group(1)) if m else None
    suspend = [l for l in sleep_log.splitlines() if "System Suspend" in l]
    ordered = bool(paused and resumed and suspend) and stamp(paused[0]) <= stamp(suspend[0]) <= stamp(resumed[0])
    c.check("systemctl suspend: logind's PrepareForSleep pauses input before the system suspend (the delay inhibitor held until the devices are closed) and its end resumes it, devices found anew",
            f("sleep.woke") == "0" and len(paused) == 1 and len(resumed) == 1 and ordered and int(f("sleep.fds_after") or 0) > 0
            and f("sleep.listed_after") == "0" and "scrolld" in (f("sleep.inhibitors") or ""),
            "woke %s, fds after %s, listed %s, inhibitors %r\n%s" % (f("sleep.woke"), f("sleep.fds_after"), f("sleep.listed_after"), f("sleep.inhibitors"), sleep_log))
    # What the daemon held, from /proc, not what it logged: suspend-stub.sh, systemd-suspend.service's
    # stand-in, runs where the kernel would suspend and writes "PID TOTAL INPUT" for the daemon.
    asleep = (f("sleep.asleep") or "").split()
    def count(value):
        return int(value) if (value or "").isdigit() else -1
    before, after = count(f("sleep.fds_before")), count(f("sleep.fds_after"))
    asleep_input = count(asleep[2]) if len(asleep) == 3 else -1
    c.check("while the system sleeps (sampled by systemd-suspend.service's stand-in, after the delay inhibitors were released) "
            "the daemon holds no /dev/input descriptor; before and after it holds some (from /proc)",
            len(asleep) == 3 and asleep[0] == f("sleep.pid") == f("sleep.pid_after") and count(asleep[1]) > 0
            and asleep_input == 0 and before > 0 and after > 0,
            "daemon pid %s (after waking %s); /dev/input descriptors before %s, asleep %s, after %s; the stub wrote %r" % (
                f("sleep.pid"), f("sleep.pid_after"), f("sleep.fds_before"), asleep_input if asleep_input >= 0 else "?",
                f("sleep.fds_after"), f("sleep.asleep")))
    c.info("sleep: /dev/input descriptors before / asleep / after: %s / %s / %s" % (
        f("sleep.fds_before"), asleep[2] if len(asleep) == 3 else "?", f("sleep.fds_after")))
    c.info("sleep: /sys/power/state %r, mem_sleep %r, CanSuspend %r, systemd-suspend.service (suspend-stub.sh instead of systemd-sleep: the guest cannot wake from S3) %s" % (
        f("sleep.power_state"), f("sleep.mem_sleep"), f("sleep.can_suspend"), f("sleep.suspend_result")))


def check_realtime(c, key, where, daemon_lines):
    """The daemon (pid `key`.pid) asked for and got SCHED_RR at daemon.realtime_priority's default
    (10) for its event loop and input thread, under the unit's LimitRTTIME=100ms:200ms.

    Under qemu's emulated CPU (tens of times slower than the host) a real-time thread can run
    100 ms of CPU without sleeping, and the kernel's SIGXCPU then takes the daemon out of real
    time, as designed: that case is accepted when the daemon logged it and every thread is then
    SCHED_OTHER. (The kernel raises the soft limit by a second per SIGXCPU, and the daemon puts
    it back when it asks again 10 s later, which can trip again under emulation: the soft limit
    read with the threads says nothing about whether one came.)"""
    pid = c.facts.get(key + ".pid") or "?"
    own = [l for l in daemon_lines if "scrolld[%s]:" % pid in l]
    # Each thread asked: granted, or (the input thread, which asks later) refused because a
    # SIGXCPU had just taken the daemon out of real time.
    asked = all(any(("%s runs at real-time priority 10 (SCHED_RR)" % t) in l
                    or ("%s runs at normal priority: real-time scheduling dropped again: RLIMIT_RTTIME's SIGXCPU came while it asked" % t) in l
                    for l in own) for t in ("event loop", "input thread"))
    soft, _, hard = (c.facts.get(key + ".rttime") or "").partition(" ")
    hard = hard.split(" ")[0]
    left = any("without sleeping (RLIMIT_RTTIME)" in l for l in own)
    threads = threads_of(c, key)
    realtime = sorted((name, policy, priority) for name, policy, priority in threads if policy != "0")
    granted = (len(realtime) == 2 and all(p == "2" and r == "10" for _, p, r in realtime)
               and realtime[0][0].startswith("NIO-ELT") and realtime[1][0] == "scrolld-input")
    c.check("%s: the event loop and input threads were granted SCHED_RR 10 and run it, the rest SCHED_OTHER%s (%s)" % (
                key, " (left real time by RLIMIT_RTTIME's SIGXCPU under emulation: all SCHED_OTHER)" if left and not realtime else "", where),
            asked and (granted or (left and threads != [] and not realtime)),
            "threads (name:policy:priority): %s; log of pid %s: %s" % (c.facts.get(key + ".threads"), pid, "\n".join(own)))
    c.check("%s: RLIMIT_RTTIME is LimitRTTIME=100ms:200ms (the soft limit a second higher per SIGXCPU)" % key,
            hard == "200000" and soft.isdigit() and (int(soft) == 100000 or (left and (int(soft) - 100000) % 1000000 == 0)),
            "Max realtime timeout: %s" % c.facts.get(key + ".rttime"))


def documented_exposure(command):
    """The exposure docs/systemd.md records for the table row whose command is `command`."""
    try:
        with open(os.path.join(REPO, "docs/systemd.md"), encoding="utf-8") as f:
            lines = f.readlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("|") and "`%s`" % command in line:
            found = re.search(r"\|\s*([0-9]+\.[0-9])\s", line)
            if found:
                return found.group(1)
    return None


def check_sandbox(c, key, uid, gid, input_gid, proc_options):
    """What the kernel says about the daemon process that `key` facts describe."""
    c.check("%s: the daemon runs (pid %s)" % (key, c.fact(key + ".pid")),
            (c.fact(key + ".pid") or "none").isdigit())
    c.facts_equal("%s: own user namespace mapping only uid %s and gid %s (PrivateUsers=yes)" % (key, uid, gid), {
        key + ".uid_map": "%s %s 1" % (uid, uid),
        key + ".gid_map": "%s %s 1" % (gid, gid),
        key + ".ns.user": "own",
    })
    c.facts_equal("%s: own mount and UTS namespaces, the host's network namespace (netlink)" % key, {
        key + ".ns.mnt": "own", key + ".ns.uts": "own", key + ".ns.net": "shared",
    })
    c.facts_equal("%s: no capabilities, no new privileges, a seccomp filter" % key, {
        key + ".status.CapEff": "0000000000000000",
        key + ".status.CapBnd": "0000000000000000",
        key + ".status.NoNewPrivs": "1",
        key + ".status.Seccomp": "2",
    })
    if input_gid is not None:
        groups = (c.fact(key + ".status.Groups") or "").split()
        c.check("%s: keeps the input group (gid %s) inside the namespace" % (key, input_gid),
                input_gid in groups, "Groups: %s" % groups)
    table = mounts(c.text("mountinfo-%s.txt" % key))
    if not table:
        c.check("%s: mountinfo" % key, False, c.text("mountinfo-%s.txt" % key))
        return
    wrong = []
    read_only = ["/", "/usr", "/etc", "/var", "/home", "/root", "/run/user/%s" % uid, "/sys/fs/cgroup"]
    for path in read_only:  # ProtectSystem=strict, ProtectHome=read-only, ProtectControlGroups=yes
        point, mount = containing(table, path)
        if "ro" not in mount[1]:
            wrong.append("%s (mounted at %s) is writable: %s" % (path, point, ",".join(sorted(mount[1]))))
    for path in ["/tmp", "/var/tmp"]:  # PrivateTmp=yes
        mount = table.get(path)
        if mount is None or "systemd-private-" not in mount[0] or "rw" not in mount[1]:
            wrong.append("%s is not a private writable directory: %s" % (path, mount))
    # ProtectKernelLogs=, ProtectKernelModules= (with ProcSubset=pid, /proc/kcore is not there at all)
    for path in ["/dev/kmsg", "/usr/lib/modules"] + ([] if proc_options else ["/proc/kcore"]):
        mount = table.get(path)
        if mount is None or "/systemd/inaccessible/" not in mount[0]:
            wrong.append("%s is not made inaccessible: %s" % (path, mount))
    c.check("%s: read-only system, home, runtime dir and cgroups; private /tmp and /var/tmp; kernel logs and modules inaccessible" % key,
            not wrong, "\n".join(wrong))
    proc = table.get("/proc")
    supers = proc[3] if proc else set()
    if proc_options:
        c.check("%s: /proc shows only processes (ProcSubset=pid) and hides others' (ProtectProc=invisible)" % key,
                {"subset=pid", "hidepid=invisible"} <= supers, "/proc: %s" % (proc,))
    else:
        # A user namespace that does not own the pid namespace cannot mount a procfs of its own.
        c.info("%s: /proc super options %s: ProtectProc= and ProcSubset= cannot apply under a regular user's manager" % (key, ",".join(sorted(supers))))
        proc_sys = table.get("/proc/sys")
        c.check("%s: /proc/sys is read-only (ProtectKernelTunables=yes)" % key,
                proc_sys is not None and "ro" in proc_sys[1], "/proc/sys: %s" % (proc_sys,))


def device_paths(text):
    try:
        reply = json.loads(text.strip().splitlines()[-1])
        return [d.get("path") for d in reply["devices"]], reply
    except (ValueError, KeyError, IndexError):
        return None, text


def load_json(c, name):
    try:
        return json.loads(c.text(name))
    except ValueError:
        return None


def check_restore(c, daemon_lines):
    """docs/design.md §16: connections and the session survive SIGKILL, a watchdog timeout and
    (connections only) a corrupt store."""
    f = c.fact
    c.facts_equal("restore: both clients configured, subscribed and scrolled list to 1234.5 before the kills", {
        "restore.a.ready": "0", "restore.b.ready": "0", "restore-before.FileDescriptorStoreMax": "4096"})
    # The memfd and the two clients (and nothing else: scrollctl's connections left the store).
    c.check("restore: systemd holds the session's memfd and the two connections (NFileDescriptorStore=3)",
            f("restore-before.NFileDescriptorStore") == "3",
            "NFileDescriptorStore=%s\n%s" % (f("restore-before.NFileDescriptorStore"), c.text("restore-status.out")))
    for k, how in ((1, "SIGKILL"), (2, "a watchdog timeout (SIGSTOP past WatchdogSec=5)")):
        for role in ("a", "b"):
            r = load_json(c, "restore-%s.round-%d.json" % (role, k))
            got = (r or {}).get("received") or {}
            ok = (r is not None and not r["eof"] and r["error"] is None and got.get("type") == "state"
                  and got.get("contentOffset", {}).get("y") == 1234.5 and got.get("phase") == "idle"
                  and got.get("seq", 0) > r["seq_before"] and "welcome" not in r["types_seen"]
                  and (r.get("ping") or {}).get("type") == "pong"
                  and (r.get("get") or {}).get("contentOffset", {}).get("y") == 1234.5)
            c.check("restore after %s: client %s's connection stays open (no EOF, no error, no new welcome) and gets list "
                    "at rest at 1234.5 with a seq above the last it saw, then ping and get work" % (how, role), ok, json.dumps(r))
            if r and r.get("after_s") is not None:
                c.info("restore after %s: client %s had list's state %.2f s after the kill" % (how, role, r["after_s"]))
    welcome = load_json(c, "restore-c.welcome.json") or {}
    c.check("restore: a client connecting after the restart sees list in welcome, the focus client a set, and \"restore\" in its features",
            "list" in (welcome.get("containers") or []) and welcome.get("focus") == "main"
            and "restore" in (welcome.get("features") or []), json.dumps(welcome))
    a2 = load_json(c, "restore-a.round-2.json") or {}
    c.check("restore: input after the restart reaches the taken-back subscription to main (wheel: main moves before the next kill)",
            f("restore.main-moved") == "0" and a2.get("main_moving_before", 0) > 0,
            "restore.main-moved=%s\n%s" % (f("restore.main-moved"), json.dumps(a2)))
    c.check("restore: the watchdog killed the stopped daemon and systemd restarted it",
            "watchdog timeout" in c.text("restore-watchdog.out").lower(), c.text("restore-watchdog.out"))
    refused = [l for l in daemon_lines if "restart: the stored session is refused" in l]
    c.check("restore: garbage written into the memfd (%s) is refused with a clear log line" % f("restore.memfd"),
            f("restore.garbage.rc") == "0" and len(refused) == 1, "\n".join(refused) or c.text("restore-journal.out"))
    for role in ("a", "b"):
        r = load_json(c, "restore-%s.round-3.json" % role)
        got = (r or {}).get("received") or {}
        ok = (r is not None and not r["eof"] and got.get("type") == "welcome"
              and (r.get("ping") or {}).get("type") == "pong"
              and (r.get("get") or {}).get("code") == "unknown_container"
              and (r.get("resubscribe") or {}).get("code") == "unknown_container")
        c.check("restore after a corrupt store: client %s's connection is still taken back, greeted anew (the session starts empty)" % role,
                ok, json.dumps(r))
    c.check("restore: the service runs after the three restarts, with a new pid each time",
            len({f("restore-before.MainPID"), f("restore-round1.MainPID"), f("restore-round2.MainPID"), f("restore-round3.MainPID")} - {None, "0"}) == 4,
            "pids %s %s %s %s" % (f("restore-before.MainPID"), f("restore-round1.MainPID"), f("restore-round2.MainPID"), f("restore-round3.MainPID")))


def check_gnome(c, daemon_lines):
    """GNOME's settings followed live (docs/design.md §23): gsettings as the user, scrolld as
    their service; the next drag after natural scrolling is turned on moves the other way, and
    with animations off a smooth scrollTo lands at once."""
    f = c.fact
    c.check("the running daemon follows GNOME through GSettings on the user's session bus (set up before it started)",
            f("gnome-setup.rc") == "0" and f("gnome.followed") == "0" and f("gnome.touchpad.listed") == "0", c.text("gnome-looked-for.out") + "\n".join(daemon_lines[-5:]))
    c.facts_equal("`gsettings set` natural-scroll false, then true: `devices` says each for the touchpad, from desktop:gnome", {
        "gnome-set-natural-off.rc": "0", "gnome.natural.off": "0", "gnome-set-natural-on.rc": "0", "gnome.natural.on": "0",
    })
    try:
        before, after = float(f("gnome-drag-off.y")) - 1000, float(f("gnome-drag-on.y")) - 1000
    except (TypeError, ValueError):
        before = after = None
    c.check("the same two-finger drag moves the content one way before and the other way after natural scrolling is on",
            f("gnome-drag-off.rest") == "0" and f("gnome-drag-on.rest") == "0" and before is not None
            and before * after < 0,
            "from y = 1000: %s before, %s after" % (f("gnome-drag-off.y"), f("gnome-drag-on.y")))
    c.facts_equal("`gsettings set` enable-animations false: `devices` says reduced motion, from desktop:gnome", {
        "gnome-set-animations-off.rc": "0", "gnome.reduced": "0",
    })
    c.check("with GNOME's animations off a smooth scrollTo lands at once (the next get is at rest at 3000)",
            f("gnome.scroll-to.rc") == "0" and f("gnome.after-scroll-to") == '"phase":"idle" "y":3000 ',
            "%r: %s" % (f("gnome.after-scroll-to"), c.text("gnome-after-scroll-to.out")))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: check-systemd.py WORKDIR\n")
        return 2
    c = Checker(sys.argv[1])
    f = c.fact
    uid = f("user.uid", "?")
    input_gid = f("input.gid")
    journal = c.text("journal.txt")
    daemon_lines = [l for l in journal.splitlines() if re.search(r" scrolld\[[0-9]+\]: ", l)]

    c.check("the guest script ran to the end", f("finished") == "yes",
            "facts.txt ends with: %s" % list(c.facts.items())[-3:] if c.facts else "no facts.txt")

    # The units are the repository's, with only the binary's path changed.
    with open(os.path.join(REPO, "systemd/scrolld.service"), encoding="utf-8") as s:
        source_service = s.read()
    with open(os.path.join(REPO, "systemd/scrolld.socket"), encoding="utf-8") as s:
        source_socket = s.read()
    installed = c.text("units/scrolld.service")
    normalized = re.sub(r"(?m)^ExecStart=\S*/scrolld ", "ExecStart=/usr/local/bin/scrolld ", installed)
    # The guest installs the build under test at the unit's own /usr/local/bin/scrolld.
    c.check("the installed scrolld.service is systemd/scrolld.service, the build under test at its ExecStart",
            normalized == source_service and f("unit.binary.matches") == "yes", installed)
    c.check("the installed scrolld.socket is systemd/scrolld.socket", c.text("units/scrolld.socket") == source_socket)

    c.check("the test user is in the input group, the mouse node is 0660 root:input",
            "input" in (f("user.groups") or "").split() and f("mouse.mode") == "660 input",
            "groups %s, node %s" % (f("user.groups"), f("mouse.mode")))
    c.facts_equal("the user's manager (user@%s.service) runs" % uid, {"user-manager.rc": "0", "user-manager.state": "active"})

    # Socket activation of the Type=notify service.
    c.facts_equal("scrolld.socket listens on %t/scrolld/scrolld.sock: a socket 0600 in a 0700 dir, both the user's", {
        "socket-start.rc": "0", "socket.ActiveState": "active", "socket.SubState": "listening",
        "socket.file": "600 scrolld-e2e socket", "socket.dir": "700 scrolld-e2e",
    })
    c.facts_equal("scrolld.service is not started before a client connects", {"before.ActiveState": "inactive"})
    ping = c.text("ping.out")
    c.check("the first connection (scrollctl ping) starts the service and is answered",
            f("ping.rc") == "0" and ping.startswith("pong from scrolld "), "rc %s: %s" % (f("ping.rc"), ping))
    c.facts_equal("the service reached READY=1: Type=notify, active/running, no restart", {
        "after-ping.Type": "notify", "after-ping.ActiveState": "active", "after-ping.SubState": "running",
        "after-ping.NRestarts": "0",
    })
    c.check("STATUS= reaches systemd (NotifyAccess=main)",
            re.fullmatch(r"[0-9]+ devices?, [0-9]+ clients?", f("after-ping.StatusText") or "") is not None,
            "StatusText=%r" % f("after-ping.StatusText"))
    activations = [l for l in daemon_lines if "listening on the socket systemd passed (fd 3)" in l]
    own_binds = [l for l in daemon_lines if re.search(r"listening on /", l)]
    c.check("every start served the socket systemd passed, none bound its own (10 starts: the first, after SIGKILL, the two "
            "idle restarts, the restore section's restart, its three restarts after SIGKILL, the watchdog and SIGKILL, its "
            "final restart, root's)",
            len(activations) == 10 and not own_binds, "\n".join(activations + own_binds))

    check_sandbox(c, "sandbox", uid, uid, input_gid, proc_options=False)
    check_realtime(c, "sandbox", "the user's manager, RLIMIT_RTPRIO 20 from limits.d for @input", daemon_lines)
    # Only this daemon's lines after a cursor taken just before the test's own kill -XCPU count:
    # under TCG the daemon can have passed RLIMIT_RTTIME on its own before, and such an earlier
    # line says nothing about this signal. A re-entry into real time after the cursor (a retry
    # pending from an earlier SIGXCPU) not left again before the journal was read would make the
    # sample stale; the guest then tries again. On a busy host the daemon re-enters real time and
    # passes RLIMIT_RTTIME on its own again and again: its last word must be leaving it.
    xcpu = threads_of(c, "sandbox-xcpu")
    since = c.text("xcpu-journal.out")
    reported = [l for l in since.splitlines() if "without sleeping (RLIMIT_RTTIME)" in l]
    realtime_words = [l for l in since.splitlines() if "without sleeping (RLIMIT_RTTIME)" in l or "runs at real-time priority" in l]
    c.check("after SIGXCPU (RLIMIT_RTTIME's signal) every thread runs SCHED_OTHER and the daemon (pid %s) says so after the signal" % f("sandbox.pid"),
            f("xcpu.logged") == "0" and bool(f("xcpu.cursor")) and reported != [] and "without sleeping" in realtime_words[-1]
            and xcpu != [] and all(policy == "0" for _, policy, _ in xcpu),
            "logged %s (try %s); threads (name:policy:priority): %s; the daemon's lines after the cursor:\n%s" % (
                f("xcpu.logged"), f("xcpu.tries"), f("sandbox-xcpu.threads"), since))
    c.info("SIGXCPU sent %s time(s) (again when a retry from an earlier SIGXCPU re-entered real time before the sample)" % f("xcpu.tries"))
    check_realtime(c, "sandbox-after-crash", "the service restarted after SIGKILL asks anew", daemon_lines)

    # The daemon works inside the sandbox: requests, /dev/input, hotplug over netlink, reload.
    get = c.text("get.out")
    c.check("scrollctl get main answers with container main's state",
            f("get.rc") == "0" and '"container":"main"' in get, get)
    paths, reply = device_paths(c.text("devices.out"))
    c.check("scrollctl devices lists the uinput mouse (%s) read through /dev/input as soon as the service is ready" % f("mouse.node"),
            f("ready.rc") == "0" and f("devices.listed") == "0" and paths == [f("mouse.node")], reply)
    state = c.text("get-wheel.out")
    try:
        wheel = json.loads(state)
        offset = wheel["contentOffset"]["y"]
    except (ValueError, KeyError, TypeError):
        wheel, offset = None, None
    step = 600 ** (2 / 3)  # wheel_step "auto": H^(2/3) for the 600 px tall default container
    c.check("3 wheel clicks on the mouse scroll main by exactly 3 steps of 600^(2/3) px and come to rest",
            f("get-wheel.rc") == "0" and wheel is not None and wheel["phase"] == "idle" and offset == 3 * step,
            "expected y %r, got: %s" % (3 * step, state))
    paths, reply = device_paths(c.text("devices-hotplug.out"))
    c.check("a mouse hotplugged into the running service is listed (udev monitor over AF_NETLINK)",
            f("devices-hotplug.listed") == "0" and paths == [f("mouse.node"), f("mouse2.node")], reply)
    c.check("systemctl --user reload runs ExecReload in the sandbox and the daemon reloads",
            f("reload.rc") == "0" and f("reload.logged") == "0", c.text("reload.out"))
    refusal = "refused a connection: uid 65534 may not connect (the daemon runs as uid %s" % uid
    c.check("root is refused (SO_PEERCRED): inside the daemon's namespace it is the overflow uid 65534",
            f("ping-as-root.rc") not in (None, "0") and any(refusal in l for l in daemon_lines),
            "scrollctl rc %s: %s" % (f("ping-as-root.rc"), c.text("ping-as-root.out")))
    # 77 when scrollctl reads the refusal; 69 ("closed the connection") when its request was sent
    # after the daemon had already closed: scrollctl does not read the refusal after EPIPE.
    c.info("scrollctl as root exited %s: %s" % (f("ping-as-root.rc"), c.text("ping-as-root.out").strip()))

    # A crash: Restart=on-failure, the same socket served again.
    c.check("after SIGKILL the service restarts (Restart=on-failure): active/running, NRestarts=1, a new pid",
            f("after-crash.ActiveState") == "active" and f("after-crash.SubState") == "running"
            and f("after-crash.NRestarts") == "1" and f("after-crash.MainPID") not in (None, "0", f("sandbox.pid")),
            "ActiveState=%s SubState=%s NRestarts=%s MainPID=%s (was %s)" % (
                f("after-crash.ActiveState"), f("after-crash.SubState"), f("after-crash.NRestarts"),
                f("after-crash.MainPID"), f("sandbox.pid")))
    c.check("the restarted daemon answers on the same socket", f("ping-after-crash.rc") == "0", c.text("ping-after-crash.out"))
    check_sandbox(c, "sandbox-after-crash", uid, uid, input_gid, proc_options=False)

    # A clean stop.
    c.facts_equal("systemctl --user stop: SIGTERM, the daemon exits with status 0", {
        "stop.rc": "0", "stopped-service.ActiveState": "inactive", "stopped-service.Result": "success",
        "stopped-service.ExecMainCode": "1", "stopped-service.ExecMainStatus": "0",
    })
    c.facts_equal("stopping scrolld.socket removes the socket file (RemoveOnStop=yes)", {
        "stop-socket.rc": "0", "stopped-socket.ActiveState": "inactive", "stopped-socket.Result": "success",
        "socket-after-stop": "absent",
    })

    # A broken configuration: EX_CONFIG, not retried.
    c.facts_equal("a configuration that does not load: exit status 78 and no restart (RestartPreventExitStatus=78)", {
        "bad-config.ActiveState": "failed", "bad-config.SubState": "failed", "bad-config.Result": "exit-code",
        "bad-config.ExecMainCode": "1", "bad-config.ExecMainStatus": "78", "bad-config.NRestarts": "0",
    })
    config_error = "/home/scrolld-e2e/.config/scrolld/scrolld.toml:2: physics.profile: expected one of ios, gtk, none"
    c.check("the daemon read the user's ~/.config/scrolld/scrolld.toml through the sandbox and named the problem",
            f("bad-config-start.rc") not in (None, "0") and any(config_error in l for l in daemon_lines),
            "systemctl rc %s; daemon lines:\n%s" % (f("bad-config-start.rc"), "\n".join(daemon_lines[-5:])))

    check_sessions(c)
    check_gnome(c, daemon_lines)
    check_restore(c, daemon_lines)

    # Root's manager: the same units, and a device policy that is enforced there.
    paths, reply = device_paths(c.text("root-devices.out"))
    c.check("under root's manager (user@0) socket activation works and the three mice are listed",
            f("root-manager.rc") == "0" and f("root-socket-start.rc") == "0" and f("root-devices.listed") == "0"
            and paths == [f("mouse.node"), f("mouse2.node"), f("mouse3.node")], reply)
    check_sandbox(c, "root-sandbox", "0", "0", None, proc_options=True)
    c.check("root's manager applies DevicePolicy=closed with char-input rw (and ProtectClock's char-rtc r)",
            f("root.DevicePolicy") == "closed" and sorted((f("root.DeviceAllow") or "").split("\n")) == ["char-input rw", "char-rtc r"],
            "DevicePolicy=%s DeviceAllow=%r" % (f("root.DevicePolicy"), f("root.DeviceAllow")))
    c.check("in the service's cgroup an input node opens and /dev/uinput does not (the BPF device filter)",
            f("root-cgroup.input") == "opened" and "Operation not permitted" in (f("root-cgroup.uinput") or ""),
            "input: %s\nuinput: %s" % (f("root-cgroup.input"), f("root-cgroup.uinput")))
    c.facts_equal("root's service stops cleanly (exit status 0) and its socket file goes", {
        "root-stop.rc": "0", "root-stopped.Result": "success", "root-stopped.ExecMainCode": "1",
        "root-stopped.ExecMainStatus": "0", "root-stop-socket.rc": "0", "root-socket-after-stop": "absent",
    })

    c.check("root's daemon (follow_session = false) reads its devices while another user's session is active (docs/design.md §15)",
            f("root.vt.other_active") == "0" and int(f("root.follow.fds") or 0) > 0
            and f("root.follow.input") == '"input":{"state":"active","reason":null}',
            "other active %s, fds %s, %s" % (f("root.vt.other_active"), f("root.follow.fds"), f("root.follow.input")))

    # Nothing in the sandbox was quietly dropped or refused on the way.
    degraded = [l for l in journal.splitlines()
                if re.search(r"scrolld\.service: .*(ignoring|Failed at step|Failed to set up)", l)]
    c.check("systemd set up every sandboxing option (no 'ignoring', no failed step for scrolld.service)",
            not degraded, "\n".join(degraded))
    terms = [l for l in daemon_lines if "SIGTERM: shutting down" in l]
    c.check("the daemon logged its six SIGTERM shutdowns (the two idle restarts, the restore section's two restarts, the stops of the user's and root's)",
            len(terms) == 6, "\n".join(terms))

    documented = documented_exposure("systemd-analyze --user security scrolld.service")
    c.check("the user manager's exposure score (%s) is the one docs/systemd.md records (%s)" % (f("security.live"), documented),
            f("security.live") is not None and f("security.live") == documented, c.text("security-live.txt"))
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
