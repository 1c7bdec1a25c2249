#!/usr/bin/env bash
# `make bench-overload` (and the end of `make bench`): "within one frame" under overload, as a
# figure. Runs Tests/ScrolldTests/Overload/OverloadTests.swift RUNS times (default 10) against the
# release build `make release` ships, with SCROLLD_OVERLOAD_BENCH=1 (the daemon, the test's CPU
# sampler and its readers under SCHED_FIFO, so what is timed is the daemon's own work), reads
# the line each run prints ("OVERLOAD within one frame: met|not met (...)") and its staleness
# figures, and writes a table, with how many runs met the bound, between the
# "<!-- make bench: overload -->" markers of docs/performance.md and docs/security.md (and to
# Benchmarks/overload-results.md). `make test` runs the same test and judges behaviour only.
#
# With OVERLOAD_DAEMON_CPU=N (a CPU number, or `last`: the last one this process may use) the
# test pins the daemon's threads to that CPU and its own (the thousand clients, the readers) to
# the others, so that the load does not share the daemon's CPU; that table goes between the
# "<!-- make bench: overload, daemon alone on a CPU -->" markers instead (and to
# Benchmarks/overload-results-own-cpu.md). It needs two CPUs.
#
# With OVERLOAD_DEADLINE=RUNTIME/PERIOD (milliseconds, e.g. 9.5/10) the test puts the daemon's
# event loop under that SCHED_DEADLINE reservation instead of SCHED_FIFO, on CPUs shared with
# the load: Linux 6.12+'s fair server preempts SCHED_FIFO threads there, not an earlier
# deadline (Tests/ScrolldTests/Support/DeadlineReservation.swift). That table goes between the
# "<!-- make bench: overload, daemon under SCHED_DEADLINE -->" markers (and to
# Benchmarks/overload-results-deadline.md).
#
# Usage: [OVERLOAD_DAEMON_CPU=N|last] [OVERLOAD_DEADLINE=R/P] Benchmarks/scripts/overload.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
if [ -n "${OVERLOAD_DAEMON_CPU:-}" ] && [ "$(nproc)" -lt 2 ]; then
    echo "overload.sh: OVERLOAD_DAEMON_CPU needs two CPUs (this process may use $(nproc)); not run" >&2
    exit 0
fi
if [ -n "${OVERLOAD_DEADLINE:-}" ]; then
    # Checked before the runs, not found wrong after ten of them.
    if ! [[ $OVERLOAD_DEADLINE =~ ^[0-9]+(\.[0-9]+)?/[0-9]+(\.[0-9]+)?$ ]]; then
        echo "overload.sh: OVERLOAD_DEADLINE must be RUNTIME/PERIOD in ms, e.g. 9.5/10 (got $OVERLOAD_DEADLINE)" >&2
        exit 64
    fi
    if [ -n "${OVERLOAD_DAEMON_CPU:-}" ]; then
        # The kernel refuses to narrow a SCHED_DEADLINE thread's CPUs (EBUSY).
        echo "overload.sh: OVERLOAD_DEADLINE and OVERLOAD_DAEMON_CPU are separate sets; give one" >&2
        exit 64
    fi
    if [ "$(nproc)" -lt 2 ]; then
        # With the kernel's 5 % fair server, a 95 % reservation leaves no room on one CPU.
        echo "overload.sh: OVERLOAD_DEADLINE needs two CPUs (this process may use $(nproc)); not run" >&2
        exit 0
    fi
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

release_flags=(${RELEASE_FLAGS:---static-swift-stdlib -Xlinker -z -Xlinker now})
swift build -c release "${release_flags[@]}" --product scrolld >&2
swift build --build-tests >&2

before=$(cut -d' ' -f1-3 /proc/loadavg)
for run in $(seq "$runs"); do
    echo "overload run $run of $runs" >&2
    status=0
    SCROLLD_TEST_BINARY=$PWD/.build/release/scrolld SCROLLD_OVERLOAD_BENCH=1 SCROLLD_OVERLOAD_DAEMON_CPU=${OVERLOAD_DAEMON_CPU:-} \
        SCROLLD_OVERLOAD_DEADLINE=${OVERLOAD_DEADLINE:-} \
        swift test --skip-build --filter OverloadTests >"$logs/$run.log" 2>&1 || status=$?
    echo "$status" >"$logs/$run.status"
    grep -E '^OVERLOAD within one frame:' "$logs/$run.log" >&2 || echo "run $run: no verdict (status $status)" >&2
done

python3 - "$logs" "$runs" "$before" "${OVERLOAD_DAEMON_CPU:-}" "${OVERLOAD_DEADLINE:-}" <<'EOF'
import datetime, os, re, subprocess, sys

logs, runs, before, daemon_cpu, deadline = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
conditions = ("release build, SCHED_FIFO"
              + (r", the event loop under SCHED_DEADLINE [\d.]+ ms every [\d.]+ ms" if deadline else "")
              + (r", the daemon alone on CPU \d+" if daemon_cpu else ""))
columns = []
for run in range(1, runs + 1):
    text = open(os.path.join(logs, "%d.log" % run), errors="replace").read()
    status = open(os.path.join(logs, "%d.status" % run)).read().strip()
    verdict = re.search(r"^OVERLOAD within one frame: (met|not met) \((\d+) of (\d+) healthy subscribers[^;]*; (\d+) fell behind[^;]*; ([^)]*)\)", text, re.M)
    column = {"status": status}
    if verdict:
        judged = re.fullmatch(conditions, verdict.group(5)) is not None
        column["verdict"] = verdict.group(1) if judged else "not judged (%s)" % verdict.group(5)
        column["met"] = judged and verdict.group(1) == "met"
        column["late"] = "%s of %s" % (verdict.group(2), verdict.group(3))
        column["behind"] = verdict.group(4)
    else:
        column.update(verdict="no verdict (test status %s)" % status, met=False, late="?", behind="?")
    for name, key in (("unthrottled", "unthrottled"), ("rate 120 Hz", "120"), ("rate 60 Hz", "60")):
        m = re.search(r"^  %s \(\d+, bound ([\d.]+) ms\):.*?at the socket \(lower bound\) p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms" % re.escape(name), text, re.M)
        none = re.search(r"^  %s \(0, bound ([\d.]+) ms\): none judged" % re.escape(name), text, re.M)
        column[key] = "%s / %s / %s" % m.group(2, 3, 4) if m else "none judged" if none else "?"
        column[key + " bound"] = m.group(1) if m else none.group(1) if none else "?"
    m = re.search(r"daemon during the pass: (\d+) % of a CPU busy, (\d+) % waiting for one", text)
    column["busy"] = m.group(1) + " %" if m else "?"
    column["waiting"] = m.group(2) + " %" if m else "?"
    m = re.search(r"load average ([\d.]+ [\d.]+ [\d.]+)", text)
    column["load"] = m.group(1) if m else "?"
    column["behaviour"] = "passed" if status == "0" else "FAILED"
    columns.append(column)

met = sum(c["met"] for c in columns)
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
bound = lambda key: columns[0].get(key + " bound", "?") if columns else "?"
header = "| | " + " | ".join("run %d" % (i + 1) for i in range(runs)) + " |\n|---|" + "---|" * runs + "\n"
row = lambda label, key: "| %s | %s |\n" % (label, " | ".join(c[key] for c in columns))
block = (
    "**Within one frame under overload, `make bench`: met in %d of %d runs** (%s, commit %s; %s, %d cores; "
    "load average before %s). `Benchmarks/scripts/overload.sh %d`: the overload test against the static "
    "release build, the daemon and the test's readers under SCHED_FIFO%s%s; staleness at the socket (lower "
    "bound), p50 / p99 / max in ms:\n\n" % (met, runs, date, commit or "?", cpu, os.cpu_count(), before, runs,
    ", the daemon's event loop under a SCHED_DEADLINE reservation instead, on CPUs shared with the test (`OVERLOAD_DEADLINE=%s`: ms of runtime / period)" % deadline if deadline else "",
    ", the daemon's threads pinned to a CPU of their own and the test's to the others (`OVERLOAD_DAEMON_CPU=%s`)" % daemon_cpu if daemon_cpu else "")
    + header
    + row("within one frame", "verdict")
    + row("healthy subscribers with a state beyond the bound", "late")
    + row("subscribers that fell behind their socket (the test's readers), not judged", "behind")
    + row("unthrottled (bound %s)" % bound("unthrottled"), "unthrottled")
    + row("rate 120 Hz (bound %s)" % bound("120"), "120")
    + row("rate 60 Hz (bound %s)" % bound("60"), "60")
    + row("daemon busy during the pass", "busy")
    + row("daemon runnable but waiting for a CPU", "waiting")
    + row("load average during the run", "load")
    + row("the test's behaviour checks", "behaviour")
)
name = "make bench: overload" + (", daemon under SCHED_DEADLINE" if deadline else "") + (", daemon alone on a CPU" if daemon_cpu else "")
start, end = "<!-- %s -->" % name, "<!-- end: %s -->" % name
for path in ("docs/performance.md", "docs/security.md"):
    text = open(path).read()
    if start not in text or end not in text:
        sys.exit("%s has no %s ... %s markers" % (path, start, end))
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    open(path, "w").write(head + start + "\n" + block + end + tail)
results = "Benchmarks/overload-results%s%s.md" % ("-deadline" if deadline else "", "-own-cpu" if daemon_cpu else "")
title = "# Overload: within one frame" + (" (the event loop under SCHED_DEADLINE)" if deadline else "") + (" (the daemon alone on a CPU)" if daemon_cpu else "")
open(results, "w").write(title + "\n\n" + block)
print(block)
print("within one frame: met in %d of %d runs" % (met, runs))
EOF
