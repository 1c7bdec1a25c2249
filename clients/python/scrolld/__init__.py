"""scrolld's Python client: standard library only, blocking (`scrolld.Client`) or asyncio
(`scrolld.aio.connect`). docs/clients.md in the scrolld tree has the guide."""
from ._types import Header, Indicator, Indicators, Insets, Observation, Point, ScrolldError, Size, State, StickyRow, VisibleRows
from ._wire import default_socket, spring
from .client import Client, Observer, Subscription
from . import aio  # noqa: E402  (scrolld.aio.connect)

__all__ = [
    "Client", "Subscription", "Observer", "State", "Observation", "ScrolldError",
    "Point", "Size", "Insets", "Header", "VisibleRows", "StickyRow", "Indicator", "Indicators", "default_socket", "spring", "aio",
]
__version__ = "0.1.0"
