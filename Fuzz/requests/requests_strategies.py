"""Hypothesis strategies for request lines of every op of docs/protocol.md, with values drawn
from the extremes: ±0, subnormals, 1e±308, huge integers, negative numbers, NaN/Infinity
tokens, wrong types, empty and 64 KiB strings, NFC/NFD names, duplicate keys, deep nesting.

A request is built as a `Obj` (ordered pairs, duplicates allowed) of values that may be `Raw`
JSON text (tokens Python's json would not write), and encoded by `encode`.
"""

import json
import types

from hypothesis import strategies as st


class Raw:
    """JSON text written as it is: number tokens, NaN/Infinity, deep nesting."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return f"Raw({self.text[:40]!r}{'…' if len(self.text) > 40 else ''})"


class Obj:
    """A JSON object as ordered pairs; a key may repeat."""

    def __init__(self, pairs):
        self.pairs = list(pairs)

    def __repr__(self):
        return f"Obj({self.pairs!r})"


def encode(value, ascii_only=False):
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Obj):
        return "{" + ",".join(json.dumps(k, ensure_ascii=ascii_only) + ":" + encode(v, ascii_only) for k, v in value.pairs) + "}"
    if isinstance(value, dict):
        return encode(Obj(value.items()), ascii_only)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(encode(v, ascii_only) for v in value) + "]"
    if isinstance(value, float):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else "null"
    return json.dumps(value, ensure_ascii=ascii_only)


BIG = "a" * 65536  # a line with it is over the limit: too_large, and the connection closes
NEARLY_BIG = "b" * 60000  # a line with it fits
NAMES = ["a", "b", "main", "Caf\u00e9", "Cafe\u0301"]
ODD_NAMES = ["", "x.y", " ", "\u0000", "\U0001F600", "\ud7ff", "main ", "MAIN", "a\nb", NEARLY_BIG, BIG]

EXTREME_NUMBERS = [
    "0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "5e-324", "-5e-324", "4.9406564584124654e-324",
    "2.2250738585072014e-308", "2.225073858507201e-308", "1e-320", "1e-310", "1e-300", "1e-10",
    "1e308", "-1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1e309", "-1e309",
    "1e400", "1e30", "-1e30", "1e13", "1e200", "1e-200", "1e15", "9007199254740993",
    "18446744073709551617", "-18446744073709551617", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "4294967296", "10000001", "10000000",
    "1" + "0" * 400, "0." + "0" * 400 + "1", "-1", "-0.5", "0.5", "1", "2", "1E2", "1e+2",
    "0.49999999999999994", "0.9999999999999999", "1.0000000000000002", "1000", "1000.0000000001",
]
BAD_NUMBER_TOKENS = ["NaN", "Infinity", "-Infinity", "nan", "inf", "+1", "01", ".5", "1.", "0x10", "1e", "--1"]


def deep(depth, kind):
    if kind == "array":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "1" + "}" * depth)


plausible_numbers = st.one_of(
    st.integers(0, 1200),
    st.sampled_from([0, 1, 44, 50, 100, 200, 300, 600, 800, 1000, 20000]),
    st.floats(0, 5000, allow_nan=False, allow_infinity=False),
)
extreme_numbers = st.one_of(
    st.sampled_from(EXTREME_NUMBERS).map(Raw),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(2 ** 70), 2 ** 70),
)
bad_tokens = st.sampled_from(BAD_NUMBER_TOKENS).map(Raw)
wrong_types = st.one_of(
    st.sampled_from(["", "0", "auto", "none", "top", "1e308", "NaN", NEARLY_BIG, BIG, "Caf\u00e9"]),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.just([]),
    st.just(Obj([])),
    st.lists(plausible_numbers, max_size=3),
    st.sampled_from([1, 100, 1000, 30000]).flatmap(lambda d: st.sampled_from([deep(d, "array"), deep(d, "object")])),
)


# The extremes by kind, each kind as likely as another whatever the length of its list.
EXTREME_CLASSES = [
    ["0", "-0", "0.0", "-0.0", "0e0", "-0e-0"],
    ["5e-324", "-5e-324", "4.9406564584124654e-324", "2.2250738585072014e-308", "2.225073858507201e-308",
     "1e-320", "1e-310", "0." + "0" * 400 + "1"],
    ["1e-300", "1e-200", "1e-10", "0.49999999999999994", "0.9999999999999999", "1.0000000000000002"],
    ["1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1e200", "1e30", "1e15", "1e13"],
    ["1e309", "-1e309", "1e400", "1" + "0" * 400],
    ["-1e308", "-1e30", "-1", "-0.5", "-9223372036854775808", "-9223372036854775809", "-18446744073709551617"],
    ["9007199254740993", "18446744073709551617", "9223372036854775807", "9223372036854775808", "4294967296",
     "10000001", "10000000"],
]
assert sorted(sum(EXTREME_CLASSES, [])) == sorted(set(EXTREME_NUMBERS) - {"1", "2", "1E2", "1e+2", "1000", "1000.0000000001", "0.5"})
extreme_list = st.one_of(*[st.sampled_from(values) for values in EXTREME_CLASSES]).map(Raw)


def mix(good, weight=3):
    """Often `good`; otherwise an extreme number (as often), a bad token or a wrong type."""
    return st.one_of(*([good] * weight), extreme_list, extreme_list, extreme_list, extreme_numbers, wrong_types, bad_tokens)


def tame(good, weight=3):
    return good


def build(mix, wild):
    """The strategies, with `mix` deciding how wild each value is."""
    numbers = mix(plausible_numbers)
    names = st.one_of(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(ODD_NAMES),
                      wrong_types) if wild else st.sampled_from(NAMES)
    animations = mix(st.one_of(
        st.sampled_from(["none", "smooth", "snappy", "bouncy"]),
        st.builds(lambda d, b: {"spring": Obj([("duration", d), ("bounce", b)])},
                  mix(st.sampled_from([0.1, 0.25, 0.5, 1])), mix(st.sampled_from([0, 0.15, 0.3, -0.5, 0.9]))),
        st.builds(lambda d: {"spring": {"duration": d}}, numbers),
        st.builds(lambda k, c: {"spring": {"stiffness": k, "damping": c}}, numbers, numbers),
        st.sampled_from([{"spring": {}}, {"spring": None}, {"spring": {"duration": 1, "stiffness": 2}}, {"spring": {"mass": 1}},
                         {"spring": {"duration": Raw("1e200")}}, {"spring": {"duration": Raw("5e-324")}},
                         {"spring": {"bounce": Raw("0.9999999999999999")}}, {"other": 1}]),
    ))


    def optional_fields(fields):
        """An Obj of a random subset of `fields` (name → strategy), in a random order."""
        names_ = sorted(fields)

        @st.composite
        def build(draw):
            chosen = draw(st.lists(st.sampled_from(names_), unique=True, max_size=min(len(names_), 4)))
            return Obj([(name, draw(fields[name])) for name in chosen])

        return build()


    sizes = mix(st.one_of(
        st.builds(lambda w, h: Obj([("width", w), ("height", h)]), numbers, numbers),
        st.builds(lambda w, h: [w, h], numbers, numbers),
        st.sampled_from(["400x300", "800x600", "0x0", "1e308x1e308", "-1x5", "x", "400×300"]),
        optional_fields({"width": numbers, "height": numbers, "depth": numbers}),
    ))
    insets = mix(st.one_of(
        optional_fields({"top": numbers, "leading": numbers, "bottom": numbers, "trailing": numbers}),
        st.sampled_from(["0,0,0,0", "10,20,30,40", "1e308,0,0,0", "-5,0,0,0", "1,2,3"]),
        st.lists(numbers, min_size=3, max_size=5),
    ))
    header = mix(optional_fields({
        "minHeight": numbers, "maxHeight": numbers, "min_height": numbers, "max_height": numbers,
        "stretch": mix(st.booleans()), "snap": mix(st.booleans()), "MaxHeight": numbers,
        "mode": mix(st.sampled_from(["pinned", "enterAlways", "enter_always", "floating"])),
    }))
    refresh = mix(st.one_of(st.none(), optional_fields({"threshold": numbers, "height": numbers})))
    row_counts = mix(st.one_of(st.integers(0, 300), st.sampled_from([10_000_000, 10_000_001, 1_000_000])))
    row_heights = mix(st.sampled_from([0, 1, 44, 50, 0.5, 100]))
    rows_description = optional_fields({
        "count": row_counts, "height": row_heights, "heights": mix(st.lists(row_heights, max_size=12)),
        "top": numbers, "threshold": mix(st.sampled_from([0, 0.5, 0.99, 1, 0.9999999999999999])),
        "visibleIn": mix(st.sampled_from(["container", "usable"])), "visible_in": mix(st.sampled_from(["container", "usable"])),
        "sticky": mix(st.lists(mix(st.integers(-1, 400)), max_size=12)),
    })
    row_edit = st.one_of(
        st.builds(lambda f: {"insert": f}, optional_fields({"at": row_counts, "count": row_counts, "height": row_heights})),
        st.builds(lambda at, hs: {"insert": {"at": at, "heights": hs}}, row_counts, mix(st.lists(row_heights, max_size=8))),
        st.builds(lambda f: {"remove": f}, optional_fields({"at": row_counts, "count": row_counts})),
        st.builds(lambda at: {"insert": {"at": at, "count": 1}, "remove": {"at": 0, "count": 1}}, row_counts),
    )
    rows = mix(st.one_of(rows_description, rows_description, row_edit, row_edit))

    PHYSICS_KEYS = [
        "profile", "wheel_step", "wheel_animation", "wheel_duration", "wheel_idle", "finger_scale",
        "rubber_band", "overscroll", "momentum", "min_fling_velocity", "velocity_window",
        "deceleration_rate", "deceleration_end_distance", "bounce_stiffness", "settle_distance",
        "settle_velocity", "friction", "stop_velocity", "drag_overshoot_limit", "fling_overshoot_limit",
    ]


    def camel(key):
        head, *rest = key.split("_")
        return head + "".join(part.title() for part in rest)


    def physics_value(key):
        if key == "profile":
            return mix(st.sampled_from(["ios", "gtk", "none", "android"]))
        if key == "wheel_step":
            return mix(st.one_of(st.just("auto"), plausible_numbers))
        if key == "wheel_animation":
            return mix(st.sampled_from(["smooth", "none", "bouncy"]))
        if key in ("overscroll", "momentum"):
            return mix(st.booleans())
        if key == "deceleration_rate":
            return mix(st.sampled_from([0.998, 0.99, 0.5, 0.9999999999999999, 1e-300]))
        if key in ("wheel_duration", "wheel_idle", "velocity_window"):
            return mix(st.sampled_from([0.01, 0.1, 0.15, 0.25, 1]))
        return numbers


    @st.composite
    def physics(draw):
        chosen = draw(st.lists(st.sampled_from(PHYSICS_KEYS), unique=True, max_size=5))
        pairs = []
        for key in chosen:
            spelling = draw(st.sampled_from([key, camel(key)]))
            pairs.append((spelling, draw(physics_value(key))))
        if wild and draw(st.integers(0, 9)) == 0:
            pairs.append((draw(st.sampled_from(["unknown_key", "WheelStep", "wheel-step", ""])), 1))
        return Obj(pairs)


    CONFIGURE_FIELDS = {
        "containerSize": sizes, "contentSize": sizes, "contentInsets": insets, "insets": insets,
        "axes": mix(st.sampled_from(["vertical", "horizontal", "both", "diagonal"])),
        "header": header, "rows": rows, "physics": mix(physics()), "refresh": refresh,
        "scrollTarget": mix(st.sampled_from(["none", "paging", "rows", "pages"])),
        "scroll_target": mix(st.sampled_from(["none", "paging", "rows"])),
        "devices": mix(st.lists(st.sampled_from(["Logitech MX Master 3", "SynPS/2 Synaptics TouchPad", "Generic USB Mouse", "", "nope"]), max_size=3)),
        "parent": st.one_of(names, st.none(), st.just("")),
        "overscroll": mix(st.sampled_from(["auto", "contain", "none", "bounce"])),
        "anchor": mix(st.sampled_from(["top", "bottom", "leading", "trailing", "center"])),
        "owned": mix(st.booleans()),
        "animation": animations,
    }
    OBSERVE_KEYS = ["phase", "contentOffset.x", "contentOffset.y", "velocity.x", "velocity.y", "header.height",
                    "header.progress", "visibleRows", "rowVisible", "nearEnd", "atEdge", "source", "stickyRow",
                    "refreshing"]
    edges = mix(st.sampled_from(["top", "bottom", "leading", "trailing", "center"]))
    anchors = mix(st.one_of(st.sampled_from(["top", "center", "bottom", "leading", "trailing", "middle"]),
                            st.sampled_from([0, 0.25, 0.5, 1, 1.0000000000000002]).map(lambda v: v)))
    row_indices = mix(st.one_of(st.integers(0, 120), st.sampled_from([0, 9_999_999, 10_000_000])))


    FIELDS = {
        "configure": CONFIGURE_FIELDS,
        "scrollTo": {"x": numbers, "y": numbers, "row": row_indices, "anchor": anchors, "edge": edges,
                     "animation": animations},
        "scrollBy": {"dx": numbers, "dy": numbers, "animation": animations},
        "subscribe": {"rate": mix(st.sampled_from([1, 30, 60, 120, 1000, 1001, 0.5]))},
        "observe": {"step": mix(st.sampled_from([1, 0.5, 10, 0.001])), "row": row_indices,
                    "threshold": mix(st.sampled_from([0, 0.5, 1])), "distance": numbers,
                    "axis": mix(st.sampled_from(["x", "y", "z"])), "edge": edges},
    }


    @st.composite
    def request(draw):
        """One request as an Obj, of every op, most of them plausible, many not."""
        op = draw(st.sampled_from(["configure", "configure", "configure", "scrollTo", "scrollTo", "scrollBy",
                                   "subscribe", "unsubscribe", "get", "observe", "observe", "unobserve", "focus",
                                   "pause", "resume", "remove", "beginRefresh", "endRefresh", "devices", "reload",
                                   "ping", "<bogus>"]))
        pairs = []
        if op == "<bogus>":
            op_value = draw(st.one_of(st.sampled_from(["warp", "", "Ping", "ping ", "configure\u0000"]), wrong_types))
            pairs.append(("op", op_value))
        elif not wild or draw(st.integers(0, 19)) != 0:
            pairs.append(("op", op))
        container = ("container", draw(names))
        if op == "configure":
            pairs.append(container)
            pairs += draw(optional_fields(CONFIGURE_FIELDS)).pairs
        elif op == "scrollTo":
            pairs.append(container)
            pairs += draw(optional_fields(FIELDS["scrollTo"])).pairs
        elif op == "scrollBy":
            pairs.append(container)
            pairs += draw(optional_fields(FIELDS["scrollBy"])).pairs
        elif op == "subscribe":
            pairs.append(container)
            pairs += draw(optional_fields(FIELDS["subscribe"])).pairs
        elif op == "unsubscribe":
            pairs += draw(optional_fields({"container": names})).pairs
        elif op in ("get", "pause", "resume", "remove", "beginRefresh", "endRefresh"):
            pairs.append(container)
        elif op == "focus":
            pairs.append(("container", draw(st.one_of(names, st.none()))))
        elif op == "observe":
            pairs.append(container)
            pairs.append(("of", draw(st.one_of(st.sampled_from(OBSERVE_KEYS), st.sampled_from(OBSERVE_KEYS),
                                               st.sampled_from(["offset", "contentOffset", "header"]), wrong_types))))
            pairs += draw(optional_fields(FIELDS["observe"])).pairs
        if wild and draw(st.integers(0, 9)) == 0 and pairs:
            # A key given twice: the last one counts, as in the daemon's reader and Python's json.
            key, _ = draw(st.sampled_from(pairs))
            pairs.append((key, draw(numbers if key != "op" else st.sampled_from(["ping", "get", "configure"]))))
        if wild and draw(st.integers(0, 14)) == 0:
            pairs.append((draw(st.sampled_from(["extra", "Container", "OP", ""])), draw(numbers)))
        return op, pairs


    return types.SimpleNamespace(**locals())


WILD = build(mix, True)
TAME = build(tame, False)


@st.composite
def request(draw):
    """One request of every op: plausible throughout, or with one value from the extremes (so
    that the rest of the request lets it through to where it matters), or wild throughout."""
    mode = draw(st.sampled_from(["tame", "one", "one", "one", "wild"]))
    if mode == "wild":
        return draw(WILD.request())
    op, pairs = draw(TAME.request())
    fields = WILD.FIELDS.get(op)
    candidates = [i for i, (key, _) in enumerate(pairs) if fields and key in fields]
    if mode == "one" and candidates:
        i = draw(st.sampled_from(candidates))
        pairs[i] = (pairs[i][0], draw(fields[pairs[i][0]]))
    elif mode == "one" and fields:
        key = draw(st.sampled_from(sorted(fields)))
        pairs.append((key, draw(fields[key])))
    return op, pairs


ids = st.one_of(st.sampled_from(["int"] * 8), st.sampled_from([
    None, "", "id", Raw("-0"), Raw("1e308"), Raw("5e-324"), Raw("18446744073709551617"), [1, [2]],
    Obj([("a", Obj([("b", None)]))]), "Caf\u00e9", True, Raw("1e400"), deep(500, "array"),
]))

garbage_lines = st.sampled_from([
    b"", b" ", b"\r", b"\xff\xfe", b"{", b"}", b"[]", b"null", b"1", b'"op"', b'{"op":1}', b'{"op":null}',
    b'{"op":"ping"} x', b'{"op":"ping",}', b'{"op":"ping" "id":1}', b'{"op":"ping","id":NaN}',
    b'{"op":"ping","id":Infinity}', b'{"op":"get","container":"\xc3"}', b'{"op":"get","container":"\\ud800"}',
    b'{"op":"ping","id":"\\u0000"}', b'\xef\xbb\xbf{"op":"ping"}', b'{"op":"ping"}\r', b"[" * 40000,
    b'{"op":"ping","id":' + b"1" * 70000 + b"}", b'{"op":"get","container":"' + BIG.encode() + b'"}',
    b'{"op":"ping","id":"' + NEARLY_BIG.encode() + b'"}',
])


@st.composite
def step(draw):
    kind = draw(st.sampled_from(["request"] * 14 + ["garbage", "wait", "reconnect"]))
    conn = draw(st.integers(0, 1))
    if kind == "wait":
        return ("wait", draw(st.sampled_from([0.02, 0.1, 0.3, 1.0])))
    if kind == "reconnect":
        return ("reconnect", conn)
    if kind == "garbage":
        return ("line", conn, draw(garbage_lines), None)
    op, pairs = draw(request())
    ident = draw(ids)
    ascii_only = draw(st.booleans())
    return ("request", conn, op, pairs, ident, ascii_only)


steps = st.lists(step(), min_size=1, max_size=25)
