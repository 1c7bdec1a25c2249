#!/usr/bin/python3
"""Whether a process is asleep for good, told from /proc in one look (the rules of
Tests/ScrolldTests/Support/Quiescence.swift, ProcessProbe.whatMayWakeIt), for systemd-guest.sh.

    quiescence.py PID OUT.json [DEADLINE_SECONDS]

Looks at PID every 0.3 s until nothing inside it can wake it, or until the deadline (120 s by
default: it only catches a process that never gets there, one that polls), writes the last
look to OUT.json and prints what may still wake it. Exit status 0 when it got there.
check-systemd.py judges the recorded look again with `what_may_wake` on the host.

Asleep for good:
- every thread is asleep (state S) in a system call that waits without a timeout: `read`,
  `epoll_wait`/`poll` with a negative timeout, `ppoll`/`epoll_pwait2`/`futex` without a
  timespec, ...; not `nanosleep`, not a finite poll;
- every timerfd is disarmed and has not fired unread (/proc/PID/fdinfo: `it_value: (0, 0)`,
  `ticks: 0`); NIO's event loop keeps its scheduled tasks in one, armed for the earliest;
- no POSIX timer (/proc/PID/timers is empty);
- and a second look at the threads, taken after the timers, finds none has run in between
  (same state, system call, context switches, run count): the timers were read while all slept.

systemd's watchdog, accounted for: when the process's environment has WATCHDOG_USEC (and
WATCHDOG_PID, if set, is the process), the daemon pings every WATCHDOG_USEC/2 from a repeated
NIO task. Then exactly one timerfd must be armed: one-shot (NIO arms it relative, with no
interval), unfired, due within WATCHDOG_USEC/2. Anything else the daemon scheduled would be one
more deadline in that same timerfd, so this look alone cannot tell it from the ping; the guest
therefore also looks at the daemon started with `WatchdogSec=0`, where no timerfd may be armed.

System call numbers are x86_64's: the guest is qemu-system-x86_64 running the host's build.
"""

import json
import os
import sys
import time

READ, POLL, PAUSE, ACCEPT, RECVFROM, RECVMSG, WAIT4 = 0, 7, 34, 43, 45, 47, 61
RT_SIGTIMEDWAIT, RT_SIGSUSPEND, FUTEX, EPOLL_WAIT = 128, 130, 202, 232
PSELECT6, PPOLL, EPOLL_PWAIT, ACCEPT4, EPOLL_PWAIT2 = 270, 271, 281, 288, 441


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        return None if e.errno == 2 else "<%s>" % e.strerror


def threads(pid):
    """Per thread: tid, name, state, the /proc syscall line, voluntary and involuntary switches,
    and schedstat's run count (times it was put on a CPU)."""
    base = "/proc/%s/task" % pid
    try:
        tids = sorted(os.listdir(base), key=int)
    except OSError:
        return []
    looks = []
    for tid in tids:
        status = _read("%s/%s/status" % (base, tid)) or ""
        look = {"tid": tid, "name": "?", "state": "?", "voluntary": -1, "involuntary": -1,
                "syscall": (_read("%s/%s/syscall" % (base, tid)) or "?").strip()}
        for line in status.splitlines():
            key, _, value = line.partition(":")
            value = value.strip()
            if key == "Name":
                look["name"] = value
            elif key == "State":
                look["state"] = value[:1]
            elif key == "voluntary_ctxt_switches":
                look["voluntary"] = int(value)
            elif key == "nonvoluntary_ctxt_switches":
                look["involuntary"] = int(value)
        schedstat = (_read("%s/%s/schedstat" % (base, tid)) or "").split()
        look["runs"] = int(schedstat[2]) if len(schedstat) == 3 else None
        looks.append(look)
    return looks


def timerfds(pid):
    """[fd, {fdinfo key: value}] for each timerfd the process holds."""
    base = "/proc/%s/fd" % pid
    try:
        names = sorted(os.listdir(base), key=int)
    except OSError:
        return []
    found = []
    for name in names:
        try:
            if os.readlink("%s/%s" % (base, name)) != "anon_inode:[timerfd]":
                continue
        except OSError:
            continue
        info = {}
        for line in (_read("/proc/%s/fdinfo/%s" % (pid, name)) or "").splitlines():
            key, _, value = line.partition(":")
            info[key.strip()] = value.strip()
        found.append([name, info])
    return found


def watchdog_usec(pid):
    """WATCHDOG_USEC from the process's environment when the watchdog is meant for it."""
    env = dict(v.split("=", 1) for v in (_read("/proc/%s/environ" % pid) or "").split("\0") if "=" in v)
    if "WATCHDOG_USEC" not in env or env.get("WATCHDOG_PID", str(pid)) != str(pid):
        return None
    return int(env["WATCHDOG_USEC"])


def look(pid):
    first = threads(pid)
    timers = timerfds(pid)
    posix = _read("/proc/%s/timers" % pid)
    second = threads(pid)
    return {"pid": int(pid), "watchdog_usec": watchdog_usec(pid), "threads": first, "timerfds": timers,
            "posix_timers": posix, "threads_again": second}


def waits_with_a_timeout(line):
    """Why a thread in this system call (a /proc/PID/task/TID/syscall line: number, six
    arguments, stack and instruction pointers) could wake by itself, or None."""
    fields = line.split()
    if len(fields) < 7 or not fields[0].isdigit():
        return "not in a system call (%s)" % line
    number = int(fields[0])
    args = [int(a, 16) for a in fields[1:7]]

    def forever_int(i):  # an int timeout (poll, epoll_wait): negative is for ever
        return args[i] & 0xFFFFFFFF >= 0x80000000

    def forever_pointer(i):  # a timeout by pointer (ppoll, epoll_pwait2, futex): NULL is for ever
        return args[i] == 0

    if number in (READ, RECVFROM, RECVMSG, ACCEPT, ACCEPT4, RT_SIGSUSPEND, WAIT4, PAUSE):
        forever = True
    elif number in (POLL,):
        forever = forever_int(2)
    elif number in (EPOLL_WAIT, EPOLL_PWAIT):
        forever = forever_int(3)
    elif number == EPOLL_PWAIT2:
        forever = forever_pointer(3)
    elif number in (PPOLL, RT_SIGTIMEDWAIT):
        forever = forever_pointer(2)
    elif number == PSELECT6:
        forever = forever_pointer(4)
    elif number == FUTEX:
        operation = args[1] & 0x7F  # FUTEX_WAIT (0), FUTEX_WAIT_BITSET (9), whatever the flags
        if operation not in (0, 9):
            return "in futex operation %d" % operation
        forever = forever_pointer(3)
    else:
        return "in system call %d, which is not known to wait without a timeout" % number
    return None if forever else "in system call %d with a timeout" % number


def _pair(text):
    """fdinfo's "(seconds, nanoseconds)" as nanoseconds, None when unreadable."""
    try:
        s, ns = text.strip("()").split(",")
        return int(s) * 1_000_000_000 + int(ns)
    except (ValueError, AttributeError):
        return None


def what_may_wake(seen):
    """[] when the look `seen` shows a process asleep for good (with systemd's watchdog, its one
    timer armed); otherwise what may still wake it, one reason a line."""
    reasons = []

    def named(t):
        return "%s (%s): state %s, syscall %s" % (t["name"], t["tid"], t["state"], t["syscall"])

    if not seen["threads"]:
        return ["no threads (has it exited?)"]
    for t in seen["threads"]:
        if t["state"] != "S":
            reasons.append("%s: not asleep" % named(t))
        else:
            why = waits_with_a_timeout(t["syscall"])
            if why:
                reasons.append("%s: %s" % (named(t), why))
    usec = seen.get("watchdog_usec")
    armed = []
    for fd, info in seen["timerfds"]:
        value, interval = _pair(info.get("it_value")), _pair(info.get("it_interval"))
        if info.get("ticks") != "0":
            reasons.append("timerfd %s has fired unread: ticks %s" % (fd, info.get("ticks")))
        if value != 0 or interval != 0:
            armed.append((fd, value, interval))
    if usec is None:
        reasons.extend("timerfd %s is armed: it_value %s ns, it_interval %s ns" % a for a in armed)
    else:
        # The watchdog's ping, due in at most WATCHDOG_USEC/2, one-shot: exactly one such timer.
        limit = usec * 1000 // 2
        if len(armed) != 1 or armed[0][2] != 0 or armed[0][1] is None or armed[0][1] > limit:
            reasons.append("with WATCHDOG_USEC=%d, not exactly one one-shot timerfd due within %d ns (the ping): armed %s"
                           % (usec, limit, ["fd %s: it_value %s ns, it_interval %s ns" % a for a in armed]))
    if seen["posix_timers"]:
        reasons.append("POSIX timers: %r" % seen["posix_timers"])
    if seen["threads_again"] != seen["threads"]:
        reasons.append("a thread ran while it was looked at: %s then %s" % (seen["threads"], seen["threads_again"]))
    return reasons


def main():
    pid, out = sys.argv[1], sys.argv[2]
    deadline = time.monotonic() + (float(sys.argv[3]) if len(sys.argv) > 3 else 120)
    looks = 0
    while True:
        seen = look(pid)
        looks += 1
        reasons = what_may_wake(seen)
        if not reasons or time.monotonic() >= deadline:
            break
        time.sleep(0.3)
    seen["looks"] = looks
    with open(out, "w", encoding="utf-8") as f:
        json.dump(seen, f, indent=1)
    print("asleep for good after %d looks" % looks if not reasons else "still may wake after %d looks:\n%s" % (looks, "\n".join(reasons)))
    return 0 if not reasons else 1


if __name__ == "__main__":
    sys.exit(main())
