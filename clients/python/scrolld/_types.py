"""The values a client hands out: states, observations and errors (docs/design.md §4, §13)."""
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional


class Point(NamedTuple):
    x: float
    y: float


class Size(NamedTuple):
    width: float
    height: float


class Insets(NamedTuple):
    top: float
    leading: float
    bottom: float
    trailing: float


class Header(NamedTuple):
    height: float
    progress: float


class VisibleRows(NamedTuple):
    """`first`/`last` are None when no row is visible."""

    first: Optional[int]
    last: Optional[int]


class StickyRow(NamedTuple):
    """The sticky row pinned at the pin line (docs/design.md §21): its index, and where its top is
    drawn in content coordinates (on screen at `top - content_offset.y`)."""

    row: int
    top: float


class Indicator(NamedTuple):
    """A scroll indicator's thumb along its track (docs/design.md §22): where it starts, how long
    it is, px, and whether it shows."""

    offset: float
    length: float
    visible: bool


class Indicators(NamedTuple):
    """The thumbs of the axes a container scrolls; None along an axis it does not scroll."""

    x: Optional[Indicator]
    y: Optional[Indicator]


def _indicators(message: Optional[dict]) -> Optional[Indicators]:
    if message is None:
        return None

    def thumb(axis: str) -> Optional[Indicator]:
        value = message.get(axis)
        return Indicator(value["offset"], value["length"], bool(value["visible"])) if value is not None else None

    return Indicators(thumb("x"), thumb("y"))


class ScrolldError(Exception):
    """An error reply of the daemon (`code` as on the wire: `unknown_container`,
    `invalid_value`, …) or of the client itself: `not_running` (no daemon at the socket),
    `disconnected` (the connection ended), `timeout` (no reply in time), `bad_reply`."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code


@dataclass(frozen=True)
class State:
    """One published state of a container, the schema of docs/design.md §4 in Python's spelling.

    `resumed` is True on the first state a reconnecting client yields from a new connection:
    whatever happened in between was not seen, and `seq` may have started over.

    `sticky_row` is the pinned section header (None when none is pinned); `refreshing` is True
    while a refresh runs, False when none does, None for a container without `refresh`
    (docs/design.md §21)."""

    container: str
    seq: int
    t: int
    phase: str
    content_offset: Point
    velocity: Point
    content_size: Size
    container_size: Size
    content_insets: Insets
    header: Optional[Header] = None
    visible_rows: Optional[VisibleRows] = None
    indicators: Optional[Indicators] = None
    paused: bool = False
    resumed: bool = False
    sticky_row: Optional[StickyRow] = None
    refreshing: Optional[bool] = None

    @classmethod
    def from_message(cls, message: dict, resumed: bool = False) -> "State":
        offset, velocity = message["contentOffset"], message["velocity"]
        content, container = message["contentSize"], message["containerSize"]
        insets = message["contentInsets"]
        header, rows = message.get("header"), message.get("visibleRows")
        sticky, refreshing = message.get("stickyRow"), message.get("refreshing")
        return cls(
            container=message["container"],
            seq=message["seq"],
            t=message["t"],
            phase=message["phase"],
            content_offset=Point(offset["x"], offset["y"]),
            velocity=Point(velocity["x"], velocity["y"]),
            content_size=Size(content["width"], content["height"]),
            container_size=Size(container["width"], container["height"]),
            content_insets=Insets(insets["top"], insets["leading"], insets["bottom"], insets["trailing"]),
            header=Header(header["height"], header["progress"]) if header is not None else None,
            visible_rows=VisibleRows(rows["first"], rows["last"]) if rows is not None else None,
            indicators=_indicators(message.get("indicators")),
            paused=bool(message.get("paused", False)),
            resumed=resumed,
            sticky_row=StickyRow(sticky["row"], sticky["top"]) if sticky is not None else None,
            refreshing=bool(refreshing) if refreshing is not None else None,
        )


def observed_value(value: Any) -> Any:
    """`visibleRows` values become `VisibleRows`; numbers, strings and booleans stay."""
    if isinstance(value, dict) and set(value) == {"first", "last"}:
        return VisibleRows(value["first"], value["last"])
    return value


@dataclass(frozen=True)
class Observation:
    """A change of an observed value (docs/design.md §13): `old` is the value last received (None at
    first), `new` the current one; `seq` and `t` are those of the state that changed it.

    After a reconnection the first observation is marked `resumed` and always yielded, its
    `old` being the last value this iterator had."""

    old: Any
    new: Any
    seq: int
    t: int
    container: str = ""
    of: str = ""
    resumed: bool = False

    @classmethod
    def from_message(cls, message: dict, old: Any = None, resumed: bool = False) -> "Observation":
        return cls(
            old=observed_value(message.get("old")) if not resumed else old,
            new=observed_value(message.get("new")),
            seq=message["seq"],
            t=message["t"],
            container=message.get("container", ""),
            of=message.get("of", ""),
            resumed=resumed,
        )
