#!/usr/bin/python3
"""Checks of lock-guest.sh (the directional lock on real input, docs/design.md §22).

    check-lock.py WORKDIR TOUCHPAD_NAME

Reads WORKDIR/lock.scrolllog (the lock daemon's own recording), WORKDIR/replay-lock.jsonl (its
replay for container `lock`) and WORKDIR/live-lock.jsonl (what the subscriber received), and
appends one PASS/FAIL line per check to WORKDIR/results.txt. Exits 0 once it has run, whatever
the checks say (a crash is a failure of its own).

The rule, computed here from the finger events the daemon recorded (fingerScale 1, no
per-device rule): a drag holds its deltas until Σ(|Δx| + |Δy|) reaches 10 px; then, with Σ the
deltas summed so far, it locks to the major axis when min(|Σx|, |Σy|) ≤ tan 22.5° × max(...)
(a tie to y), else both axes move. The decision releases what was held (along the locked axis
only), then each delta moves the container (its locked axis only); the fling after the lift
moves along the locked axis only too. The touchscreen's drag is held to the same rule, its steps
being those of docs/design.md §25's displacement −s·(P − P₀) + 8·u past the slop. Offsets are
compared to 1e-9 px.
"""
import json
import math
import os
import sys

from e2e_results import Results

THRESHOLD, TANGENT, EPS = 10.0, math.sqrt(2) - 1, 1e-9
W, TOUCHPAD = sys.argv[1], sys.argv[2]
results = Results(W, always_print_details=True)
result, check = results.result, results.check


def read_states(name):
    out = []
    for line in open(os.path.join(W, name), "rb").read().splitlines():
        s = json.loads(line)
        out.append({"seq": s["seq"], "t": s["t"], "phase": s["phase"], "x": s["contentOffset"]["x"],
                    "y": s["contentOffset"]["y"], "v": s["velocity"], "reply": "id" in s,
                    "key": (s["seq"], s["t"], s["phase"], json.dumps(s["contentOffset"]), json.dumps(s["velocity"]),
                            json.dumps(s.get("indicators"), sort_keys=True))})
    return out


log = [json.loads(l) for l in open(os.path.join(W, "lock.scrolllog")).read().splitlines()[1:] if l]
touchpad = [e["dev"] for e in log if e["type"] == "device_added" and e.get("name") == TOUCHPAD]
fingers = [e for e in log if touchpad and e.get("dev") == touchpad[0] and e["type"] == "finger"]
replay = read_states("replay-lock.jsonl")
live_all = read_states("live-lock.jsonl")
live = [s for s in live_all if not s["reply"]]


def is_stop(e):
    return all(v == 0 for v in e["delta"].values())


def gestures():
    """The touchpad's drags: [(moving finger events, the stop that ends it)]."""
    out, moving = [], []
    for e in fingers:
        if not is_stop(e):
            moving.append(e)
        elif moving:
            out.append((moving, e))
            moving = []
    return out


def decide(sx, sy):
    x, y = abs(sx), abs(sy)
    major = "x" if x > y else "y"
    return major if min(x, y) <= TANGENT * max(x, y) else "free"


def predict(moves, x0, y0):
    """[(event, decision or None, expected x, expected y)] for a drag starting at (x0, y0)."""
    sx = sy = travelled = 0.0
    decision, rx, ry, out = None, x0, y0, []
    for e in moves:
        dx, dy = e["delta"].get("x", 0.0), e["delta"].get("y", 0.0)
        if decision is None:
            sx, sy, travelled = sx + dx, sy + dy, travelled + abs(dx) + abs(dy)
            if travelled >= THRESHOLD:
                decision = decide(sx, sy)
                dx, dy = sx, sy
            else:
                dx = dy = 0.0
        if decision == "x":
            dy = 0.0
        elif decision == "y":
            dx = 0.0
        rx, ry = rx + dx, ry + dy
        out.append((e, decision, rx, ry))
    return out


def state_after(t):
    """The container's state once the events at t were applied: the last state at or before t."""
    earlier = [s for s in replay if s["t"] <= t]
    return earlier[-1] if earlier else None


def start_of(moves):
    before = [s for s in replay if s["t"] < moves[0]["t"]]
    return before[-1] if before else None


SWIPES = (("diagonal swipe (45°)", "free"), ("nearly vertical swipe (10° off vertical)", "y"),
          ("swipe 20° off vertical", "y"))
TOUCH_SIZE, TOUCH_SLOP = 400.0, 8.0  # the container's size, the whole glass its frame: 400 px per unit


def drag_follows_rule(index, want):
    gs = gestures()
    if len(gs) != len(SWIPES):
        return False, "%d drags on the lock touchpad in the daemon's recording (want %d)" % (len(gs), len(SWIPES))
    moves, _ = gs[index]
    start = start_of(moves)
    rows, bad, held = [], 0, 0
    decision = None
    for e, decision_now, x, y in predict(moves, start["x"], start["y"]):
        s = state_after(e["t"])
        good = s is not None and abs(s["x"] - x) <= EPS and abs(s["y"] - y) <= EPS and s["phase"] == "interacting"
        bad += not good
        held += decision_now is None
        decision = decision_now
        rows.append("t=%d delta %s: want (%.9f, %.9f) [%s], state (%s, %s) %s%s" % (
            e["t"], e["delta"], x, y, decision_now, s and s["x"], s and s["y"], s and s["phase"], "" if good else "  <--"))
    xs = [m["delta"].get("x", 0.0) for m in moves]
    info = "%d moving finger events (%d held before the decision), %d with x != 0 (Σx %.3f, Σy %.3f); decided: %s " \
        "(want %s); start (%s, %s)" % (len(moves), held, sum(1 for v in xs if v != 0), sum(xs),
                                       sum(m["delta"].get("y", 0.0) for m in moves), decision, want, start["x"], start["y"])
    return bad == 0 and decision == want, info + "\n" + "\n".join(rows)


def fling_follows(index, want):
    """After the lift: a free drag's fling moves both axes to rest, a locked one only y (x never
    left the drag's start, velocity x 0)."""
    gs = gestures()
    moves, stop = gs[index]
    # Until the next input on the touchpad or the touchscreen: the next swipe's fingers land
    # (libinput's hold gesture) before they move.
    later = [e["t"] for e in log if e.get("dev") in (stop["dev"], touch_drag()[0]["dev"]) and e["t"] > stop["t"]
             and e["type"] not in ("device_added", "device_removed")]
    end = min(later) if later else None
    start = start_of(moves)
    drag = [s for s in replay if s["t"] >= moves[0]["t"] and (end is None or s["t"] < end)]
    after = [s for s in drag if s["t"] >= stop["t"]]
    lift, rest = after[0], after[-1]
    ok = lift["phase"] == "decelerating" and lift["v"].get("y", 0) > 0 and rest["phase"] == "idle" and rest["y"] > lift["y"]
    moved_x = [s for s in drag if s["x"] != start["x"]]
    if want == "free":
        ok = ok and lift["v"].get("x", 0) > 0 and rest["x"] > lift["x"]
    else:
        ok = ok and lift["v"].get("x", 0) == 0 and not moved_x
    return ok, "start x %s; lift t=%d %s at (%s, %s) velocity %s; rest %s at (%s, %s); %d of %d states with another x" % (
        start["x"], lift["t"], lift["phase"], lift["x"], lift["y"], lift["v"], rest["phase"], rest["x"], rest["y"],
        len(moved_x), len(drag))


def touch_drag():
    """The touchscreen's finger as the daemon recorded it: (down, [motions], up)."""
    screens = [e["dev"] for e in log if e["type"] == "device_added" and e.get("caps") == ["touch"]]
    touches = [e for e in log if screens and e.get("dev") == screens[0] and e["type"].startswith("touch_") and e["slot"] == 0]
    downs = [i for i, e in enumerate(touches) if e["type"] == "touch_down"]
    if len(downs) != 1:
        raise ValueError("%d touch_down in slot 0 on the touchscreen (want 1)" % len(downs))
    return touches[0], [e for e in touches if e["type"] == "touch_motion"], touches[-1]


def touch_follows_rule():
    """docs/design.md §25's displacement −s·(P − P₀) + slop·u past the slop, its steps held by the
    lock until they have travelled 10 px, then y only (checked: the drag is meant to lock)."""
    down, motions, up = touch_drag()
    start = [s for s in replay if s["t"] <= down["t"]][-1]
    u, previous, sx, sy, travelled, decision = None, (0.0, 0.0), 0.0, 0.0, 0.0, None
    rows, bad, held = [], 0, 0
    for e in motions:
        mx, my = TOUCH_SIZE * (e["x"] - down["x"]), TOUCH_SIZE * (e["y"] - down["y"])
        d = math.hypot(mx, my)
        want = (start["x"], start["y"])
        if u is not None or d > TOUCH_SLOP:
            u = u or (mx / d, my / d)
            disp = (-mx + TOUCH_SLOP * u[0], -my + TOUCH_SLOP * u[1])
            if decision is None:
                step = (disp[0] - previous[0], disp[1] - previous[1])
                sx, sy, travelled, previous = sx + step[0], sy + step[1], travelled + abs(step[0]) + abs(step[1]), disp
                decision = decide(sx, sy) if travelled >= THRESHOLD else None
                held += decision is None
            if decision is not None:
                want = (start["x"] + (disp[0] if decision != "y" else 0.0), start["y"] + (disp[1] if decision != "x" else 0.0))
        s = state_after(e["t"])
        good = s is not None and abs(s["x"] - want[0]) <= EPS and abs(s["y"] - want[1]) <= EPS
        bad += not good
        rows.append("t=%d P=(%r, %r): want (%.9f, %.9f) [%s], state (%s, %s)%s" % (
            e["t"], e["x"], e["y"], want[0], want[1], decision, s and s["x"], s and s["y"], "" if good else "  <--"))
    after = [s for s in replay if s["t"] >= down["t"]]
    moved_x = [s for s in after if s["x"] != start["x"]]
    lift, rest = state_after(up["t"]), after[-1]
    ok = (bad == 0 and decision == "y" and not moved_x and lift["phase"] == "decelerating" and lift["v"].get("x", 0) == 0
          and rest["phase"] == "idle" and rest["y"] > lift["y"])
    return ok, "%d motions, %d held past the slop; decided %s; %d states with another x than %s; lift %s %s; rest %s (%s, %s)\n%s" % (
        len(motions), held, decision, len(moved_x), start["x"], lift["phase"], lift["v"], rest["phase"], rest["x"], rest["y"],
        "\n".join(rows))


def live_is_replay():
    by_seq = {r["seq"]: r for r in replay}
    seqs = [s["seq"] for s in live]
    bad = [s for s in live if s["seq"] not in by_seq or by_seq[s["seq"]]["key"] != s["key"]]
    last_same = bool(live) and bool(replay) and live[-1]["key"] == replay[-1]["key"]
    ok = len(live) >= 20 and all(b > a for a, b in zip(seqs, seqs[1:])) and not bad and last_same
    return ok, "%d live states, the replay has %d; differing: %s" % (
        len(live), len(replay), ["live %s / replay %s" % (s["key"], by_seq.get(s["seq"], {}).get("key")) for s in bad[:3]])


for n, (name, want) in enumerate(SWIPES):
    rule = "both axes follow the fingers exactly" if want == "free" else "locked to y: y follows the fingers exactly, x never moves"
    check("directional lock, real touchpad, %s: nothing moves until the drag has travelled 10 px, then %s (the held "
          "deltas released at the decision)" % (name, rule), lambda n=n, want=want: drag_follows_rule(n, want))
    check("directional lock, %s: the fling after the lift %s to rest" % (
        name, "moves both axes" if want == "free" else "moves y only, x never moves"),
        lambda n=n, want=want: fling_follows(n, want))
check("directional lock, real touchscreen, a nearly vertical drag: still within the slop, then held until its steps "
      "travelled 10 px, then y follows §25's displacement exactly while x never moves, through the fling to rest",
      touch_follows_rule)
check("directional lock: every state the lock subscriber received is the replay's state of that seq (t, phase, "
      "offset, velocity, indicators), in the same order, to the last", live_is_replay)
