#!/usr/bin/python3
"""Writes the guests' measured figures into Tests/e2e/README.md, from the work dirs of real runs.

    Tests/e2e/summarize.py [--readme PATH] [--allow-failed] [--print] WORKDIR...

Each WORKDIR is one run's: run-guest.sh wrote run-guest.txt there (guest script, PID 1, wall
time, timeout, status, load) and the guest (scrolld-guest.sh) or the judge (check-systemd.py)
wrote results.txt (PASS/FAIL lines and a final "N passed, M failed"). The README's block between
the two marker comments holds one table row per guest script; the runs given replace their
guests' rows and leave the others. Several runs of one guest make one row: the wall times as a
range, the check counts of the latest run (all must have the same number of checks). A run that failed (guest status not 0, or a FAIL line) is refused unless
--allow-failed: the table says what a passing run takes. --print shows the block instead of
writing it. Exit status 0 when the README was written (or printed), 1 when a run was refused, 2
on a usage error.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN = "<!-- summarize.py: begin. Generated from real runs by Tests/e2e/summarize.py WORKDIR...; do not edit by hand. -->"
END = "<!-- summarize.py: end -->"
HEADER = [
    "| guest script | PID 1 | checks | wall time | slowest run, of its `E2E_TIMEOUT` | load (1 min) at start → end | date (UTC) | kernel |",
    "|---|---|---|---|---|---|---|---|",
]
ORDER = ["smoke-guest.sh", "scrolld-guest.sh", "systemd-guest.sh"]


class Refused(Exception):
    pass


def read_run(work):
    """The row for one work dir: (guest script, table row)."""
    path = os.path.join(work, "run-guest.txt")
    try:
        with open(path, encoding="utf-8") as f:
            run = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    except OSError as e:
        raise Refused("%s: %s (run-guest.sh writes it; was this run made before it did?)" % (path, e.strerror))
    for key in ("script", "init", "elapsed_s", "timeout_s", "status", "started"):
        if key not in run:
            raise Refused("%s: no %s=" % (path, key))
    results = os.path.join(work, "results.txt")
    try:
        with open(results, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Refused("%s: %s" % (results, e.strerror))
    passed = sum(1 for line in lines if line.startswith("PASS: "))
    failed = sum(1 for line in lines if line.startswith("FAIL: "))
    summary = re.fullmatch(r"([0-9]+) passed, ([0-9]+) failed", lines[-1] if lines else "")
    if not summary or (int(summary.group(1)), int(summary.group(2))) != (passed, failed):
        raise Refused("%s: %d PASS and %d FAIL lines, but the last line is %r" % (
            results, passed, failed, lines[-1] if lines else ""))
    return run, passed, failed


def row(runs):
    """One table row for the runs of one guest script: [(run, passed, failed)], oldest first."""
    runs = sorted(runs, key=lambda r: r[0]["started"])
    last, passed, failed = runs[-1]
    if len({p + f for _, p, f in runs}) != 1:
        raise Refused("%s: the runs have different numbers of checks (%s)" % (
            last["script"], ", ".join(str(p + f) for _, p, f in runs)))
    times = [float(r["elapsed_s"]) for r, _, _ in runs]
    wall = "%.0f s" % times[0] if len(times) == 1 else "%.0f–%.0f s (%d runs)" % (min(times), max(times), len(times))
    slowest = max(runs, key=lambda r: float(r[0]["elapsed_s"]))[0]
    checks = "%d passed, %d failed" % (passed, failed)
    if last["status"] != "0":
        checks += " (guest status %s)" % last["status"]
    loads = "; ".join("%s → %s" % (r.get("load_start", "?"), r.get("load_end", "?")) for r, _, _ in runs)
    dates = sorted({r["started"][:10] for r, _, _ in runs})
    return "| `%s` | %s | %s | %s | %.0f%% of %d s | %s; %s cores | %s | %s |" % (
        last["script"], "systemd" if last["init"] == "systemd" else "guest-init.sh", checks, wall,
        100 * float(slowest["elapsed_s"]) / int(slowest["timeout_s"]), int(slowest["timeout_s"]),
        loads, last.get("cpus", "?"), " to ".join(dates[:1] + dates[1:][-1:]), last.get("kernel", "?"))


def main(argv):
    readme = os.path.join(HERE, "README.md")
    allow_failed = printing = False
    works = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--readme" and args:
            readme = args.pop(0)
        elif arg == "--allow-failed":
            allow_failed = True
        elif arg == "--print":
            printing = True
        elif arg.startswith("-"):
            works = []
            break
        else:
            works.append(arg)
    if not works:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2

    with open(readme, encoding="utf-8") as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.stderr.write("summarize.py: %s has no single block between %r and %r\n" % (readme, BEGIN, END))
        return 1
    head, rest = text.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    rows = {}
    for line in block.splitlines():
        found = re.match(r"\| `([^`]+)` \|", line)
        if found:
            rows[found.group(1)] = line

    status = 0
    by_script = {}
    for work in works:
        try:
            run, passed, failed = read_run(work)
            if (run["status"] != "0" or failed) and not allow_failed:
                raise Refused("%s: %s did not pass (guest status %s, %d failed); --allow-failed takes it anyway" % (
                    work, run["script"], run["status"], failed))
        except Refused as e:
            sys.stderr.write("summarize.py: %s\n" % e)
            status = 1
            continue
        by_script.setdefault(run["script"], []).append((run, passed, failed))
    for script, runs in by_script.items():
        try:
            rows[script] = row(runs)
        except Refused as e:
            sys.stderr.write("summarize.py: %s\n" % e)
            status = 1
            continue
        sys.stderr.write("summarize.py: %s\n" % rows[script])
    if status:
        return status

    ordered = [rows[s] for s in ORDER if s in rows] + [rows[s] for s in sorted(rows) if s not in ORDER]
    generated = "\n" + "\n".join(HEADER + ordered) + "\n"
    if printing:
        sys.stdout.write(generated)
        return 0
    with open(readme + ".tmp", "w", encoding="utf-8") as f:
        f.write(head + BEGIN + generated + END + tail)
    os.replace(readme + ".tmp", readme)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
