"""The protocol's spelling (docs/design.md §7, docs/protocol.md): where the socket is, and how
Python arguments become request objects. No I/O here, so the sync and asyncio clients share it."""
import json
import math
import os
import re
from typing import Any, Dict, Optional

from ._types import ScrolldError


def default_socket() -> str:
    """The socket scrollctl looks for: `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`, else
    `/tmp/scrolld-UID/scrolld.sock` (the daemon's own default)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "scrolld", "scrolld.sock")
    return f"/tmp/scrolld-{os.getuid()}/scrolld.sock"


#: The longest line the daemon reads (docs/design.md §7: a longer one closes the connection).
MAX_LINE = 64 * 1024


def encode(request: Dict[str, Any]) -> bytes:
    """The request's line. Raised here, before anything is sent or registered: a value JSON
    cannot carry (nan, inf, an object of no JSON type) as `invalid_value`, a line longer than
    the daemon reads as `too_large` (the connection stays open)."""
    op = request.get("op", "a request")
    try:
        line = json.dumps(request, separators=(",", ":"), allow_nan=False).encode()
    except (ValueError, TypeError) as error:
        where = _first_unencodable(request)
        named = f'invalid "{where}": ' if where else ""
        raise ScrolldError("invalid_value", f"{op}: {named}a value JSON cannot carry ({error})") from None
    if len(line) > MAX_LINE:
        raise ScrolldError("too_large", f"{op}: {len(line)} bytes, more than the {MAX_LINE} a request may have")
    return line + b"\n"


def _first_unencodable(value: Any, path: str = "") -> Optional[str]:
    """Where in a request the first value JSON cannot carry is (`y`, `animation.spring.duration`,
    `rows.heights[3]`), as the daemon names a key it refuses; None when it is not found."""
    if isinstance(value, float):
        return path if not math.isfinite(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _first_unencodable(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = _first_unencodable(item, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    if value is None or isinstance(value, (str, int, bool)):
        return None
    return path


def decode(line: bytes) -> dict:
    try:
        message = json.loads(line)
    except ValueError as error:
        raise ScrolldError("bad_reply", f"not JSON: {line[:200]!r} ({error})") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ScrolldError("bad_reply", f"not a message: {line[:200]!r}")
    return message


_SNAKE = re.compile(r"_([a-z0-9])")


def camel(key: str) -> str:
    """`container_size` -> `containerSize`; camelCase keys pass unchanged."""
    return _SNAKE.sub(lambda m: m.group(1).upper(), key)


def _size(value: Any) -> Any:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return {"width": value[0], "height": value[1]}
    return value


def _insets(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"top": value, "leading": value, "bottom": value, "trailing": value}
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return dict(zip(("top", "leading", "bottom", "trailing"), value))
    return value


def _header(value: Any) -> Any:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return {"minHeight": value[0], "maxHeight": value[1]}
    return _camel_keys(value)


def _touch_frame(value: Any) -> Any:
    """`touch_frame=(x, y, width, height)` in the touchscreen's normalized coordinates
    (docs/design.md §25), or a dict, or None / {} for no frame."""
    if value is None:
        return {}
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return dict(zip(("x", "y", "width", "height"), value))
    return value


def _refresh(value: Any) -> Any:
    """`refresh=(threshold, height)` (docs/design.md §21), or a dict, or None for no pull to
    refresh."""
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return {"threshold": value[0], "height": value[1]}
    return value


def _camel_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {camel(k) if isinstance(k, str) else k: _camel_keys(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_camel_keys(v) for v in value]
    return value


# Values with a shorthand: a (width, height) pair, (top, leading, bottom, trailing) or one
# number for insets, (min, max) for a header. Everything else goes as given, keys camelCased
# (the daemon names an unknown key or a bad value in its `invalid_value` error).
_SHORTHANDS = {
    "containerSize": _size,
    "contentSize": _size,
    "contentInsets": _insets,
    "insets": _insets,
    "header": _header,
    "touchFrame": _touch_frame,
    "refresh": _refresh,
}


def configure_request(container: str, settings: Dict[str, Any]) -> Dict[str, Any]:
    request: Dict[str, Any] = {"op": "configure", "container": container}
    for key, value in settings.items():
        key = camel(key)
        if key == "insets":
            key = "contentInsets"
        request[key] = _SHORTHANDS.get(key, _camel_keys)(value)
    return request


def without_none(**fields: Any) -> Dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def scroll_to_request(container: str, x=None, y=None, row=None, anchor=None, edge=None, animation=None):
    return dict(op="scrollTo", container=container,
                **without_none(x=x, y=y, row=row, anchor=anchor, edge=edge, animation=animation))


def scroll_by_request(container: str, dx=None, dy=None, animation=None):
    return dict(op="scrollBy", container=container, **without_none(dx=dx, dy=dy, animation=animation))


def observe_request(container: str, of: str, options: Dict[str, Any]) -> Dict[str, Any]:
    request = {"op": "observe", "container": container, "of": of}
    request.update({camel(k): v for k, v in options.items()})
    return request


def spring(duration: float, bounce: float = 0.0) -> Dict[str, Any]:
    """An `animation` value: a SwiftUI spring of this perceptual duration and bounce."""
    return {"spring": {"duration": duration, "bounce": bounce}}


def error_from(message: dict) -> ScrolldError:
    return ScrolldError(str(message.get("code", "error")), str(message.get("message", "")))
