"""`python3 -m scrolld observe CONTAINER KEY [--json]`: scrollctl's `observe` in Python, for
widgets on machines that have the Python client but not scrollctl; same options, same lines.

    python3 -m scrolld observe main header.progress --step 0.1
    python3 -m scrolld observe main phase --json      (the daemon's observation lines)
"""
import argparse
import json
import sys

from . import Client, ScrolldError, VisibleRows

# Exit statuses as scrollctl's: 1 an error reply (or the container removed), 64 a key or option
# the daemon refused, 69 not running or went away, 75 a timeout.
EXIT = {"not_running": 69, "disconnected": 69, "timeout": 75, "invalid_value": 64}


def _wire(value):
    if isinstance(value, VisibleRows):
        return {"first": value.first, "last": value.last}
    return value


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, VisibleRows):
        return f"{value.first}-{value.last}" if value.first is not None else "none"
    return str(value)


def observe(args) -> int:
    options = {k: v for k, v in (("step", args.step), ("row", args.row), ("threshold", args.threshold),
                                 ("distance", args.distance), ("axis", args.axis), ("edge", args.edge))
               if v is not None}
    printed = 0
    with Client(args.socket, timeout=args.timeout) as client:
        changes = client.observe(args.container, args.key, **options)
        for change in changes:
            if args.json:
                line = json.dumps({"type": "observation", "id": changes.request["id"], "container": change.container,
                                   "of": change.of, "seq": change.seq, "t": change.t,
                                   "old": _wire(change.old), "new": _wire(change.new)}, separators=(",", ":"))
            else:
                line = _text(change.new)
            print(line, flush=True)
            printed += 1
            if args.count is not None and printed >= args.count:
                return 0
    # The observation ended without an error: its container was removed.
    print(f"scrolld: container {json.dumps(args.container)} was removed", file=sys.stderr)
    return 1


class _Parser(argparse.ArgumentParser):
    """A bad command line exits 64 (EX_USAGE), as scrollctl's does, not argparse's 2."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def _positive(kind):
    """An option's value of `kind` above 0 (and finite), as scrollctl takes it."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expects a positive number, got {text!r}") from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"expects a positive number, got {text!r}")
        return value
    return parse


def main(argv=None) -> int:
    parser = _Parser(prog="python3 -m scrolld", description="scrolld's Python client")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub = commands.add_parser("observe", help="print a value of a container's state each time it changes")
    sub.add_argument("container")
    sub.add_argument("key", help="phase, contentOffset.y, header.progress, visibleRows, nearEnd, …")
    sub.add_argument("--step", type=float)
    sub.add_argument("--row", type=int)
    sub.add_argument("--threshold", type=float)
    sub.add_argument("--distance", type=float)
    sub.add_argument("--axis")
    sub.add_argument("--edge")
    sub.add_argument("--json", action="store_true", help="print the daemon's observation lines")
    sub.add_argument("--count", type=_positive(int), help="exit after this many lines")
    sub.add_argument("--socket", help="the daemon's socket (default: where scrollctl looks)")
    sub.add_argument("--timeout", type=_positive(float), default=5.0, help="seconds to wait for a reply")
    args = parser.parse_args(argv)
    try:
        return observe(args)
    except ScrolldError as error:
        print(f"scrolld: {error.code}: {error.message}", file=sys.stderr)
        return EXIT.get(error.code, 1)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
