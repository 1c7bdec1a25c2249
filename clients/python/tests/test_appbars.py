"""App bars against a real daemon (docs/design.md §21): the configure keys, the state's
`sticky_row` and `refreshing`, `begin_refresh`/`end_refresh`, the two observation keys, and
errors that name a bad value. Exact values from §21's formulas."""
import pytest

import scrolld
from daemon import DEADLINE, wait_for

# 30 rows of 50 px under no header, sections at rows 0, 5, 12: r0 = 0, r5 = 250, r12 = 600.
FEED = dict(container_size=(400, 300), rows={"count": 30, "height": 50, "sticky": [0, 5, 12]},
            refresh=(80, 60))


@pytest.fixture
def client(daemon):
    with scrolld.Client(daemon.socket, timeout=DEADLINE) as c:
        yield c


def test_welcome_lists_appbars(client):
    assert "appbars" in client.features


def test_sticky_row_pinned_and_pushed_off(client):
    client.configure("feed", **FEED)
    state = client.get("feed")
    assert state.sticky_row == scrolld.StickyRow(0, 0)
    assert state.refreshing is False
    # Row 0 is pushed off by row 5 from p = 250 - 50 = 200 on: drawn at 200, 30 px above the top.
    client.scroll_to("feed", y=230, animation="none")
    state = client.get("feed")
    assert state.sticky_row == (0, 200)
    assert state.sticky_row.top - state.content_offset.y == -30
    client.scroll_to("feed", y=250, animation="none")
    assert client.get("feed").sticky_row == (5, 250)


def test_enter_always_header_comes_back_at_once(client):
    client.configure("bar", container_size=(400, 300), content_size=(400, 5000),
                     header={"min_height": 20, "max_height": 100, "mode": "enterAlways", "snap": False})
    client.scroll_to("bar", y=2000, animation="none")
    assert client.get("bar").header == (20, 1)
    client.scroll_by("bar", dy=-30, animation="none")
    assert client.get("bar").header == (50, 0.625)


def test_begin_and_end_refresh(client):
    client.configure("feed", **FEED)
    with client.observe("feed", "refreshing") as refreshing:
        assert refreshing.next().new is False
        client.begin_refresh("feed")
        assert refreshing.next().new is True
        state = client.get("feed")
        assert state.refreshing is True and state.content_offset.y == 0
        # While refreshing, lo - r = -60 is the top of the resting range.
        client.scroll_to("feed", y=-100, animation="none")
        assert client.get("feed").content_offset.y == -60
        client.end_refresh("feed")
        assert refreshing.next().new is False
    # It springs back to lo = 0 with the bounce spring.
    wait_for(lambda: client.get("feed").phase == "idle", "the bounce back to rest")
    state = client.get("feed")
    assert state.content_offset.y == 0 and state.refreshing is False


def test_observe_sticky_row(client):
    client.configure("feed", **FEED)
    with client.observe("feed", "stickyRow") as sticky:
        assert sticky.next().new == 0
        client.scroll_to("feed", y=600, animation="none")
        change = sticky.next()
        assert (change.old, change.new) == (0, 12)


def test_errors_name_the_key(client):
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("feed", refresh=(50, 60))
    assert error.value.code == "invalid_value"
    assert "containers.feed.refresh.height" in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("feed", rows={"count": 30, "height": 50, "sticky": [5, 2]})
    assert "containers.feed.rows.sticky" in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("feed", header={"max_height": 100, "mode": "floating"})
    assert "containers.feed.header.mode" in error.value.message
    client.configure("plain", container_size=(400, 300))
    with pytest.raises(scrolld.ScrolldError) as error:
        client.begin_refresh("plain")
    assert error.value.code == "invalid_value" and "no refresh configured" in error.value.message
    # None takes pull to refresh away.
    client.configure("feed", **FEED)
    client.configure("feed", refresh=None)
    assert client.get("feed").refreshing is None


def test_asyncio_client_refreshes_too(daemon):
    import asyncio
    import scrolld.aio

    async def main():
        async with scrolld.aio.connect(daemon.socket) as client:
            await client.configure("feed", **FEED)
            await client.begin_refresh("feed")
            assert (await client.get("feed")).refreshing is True
            await client.end_refresh("feed")
            assert (await client.get("feed")).refreshing is False
    asyncio.run(asyncio.wait_for(main(), DEADLINE))


def test_a_reconnecting_client_sends_sticky_rows_after_the_inserts():
    from scrolld._router import Router
    router = Router()
    router._record_configure({"op": "configure", "container": "feed", "refresh": {"threshold": 80, "height": 60},
                              "rows": {"count": 10, "height": 44, "sticky": [0, 12]}})
    router._record_configure({"op": "configure", "container": "feed", "rows": {"insert": {"at": 10, "count": 5, "height": 60}}})
    router._record_configure({"op": "configure", "container": "feed", "rows": {"sticky": [0, 4, 12]}})
    assert router.descriptions["feed"].lines() == [
        {"op": "configure", "container": "feed", "refresh": {"threshold": 80, "height": 60},
         "rows": {"height": 44, "count": 10}},
        {"op": "configure", "container": "feed", "rows": {"insert": {"at": 10, "count": 5, "height": 60}}},
        {"op": "configure", "container": "feed", "rows": {"sticky": [0, 4, 12]}},
    ]
