"""scrolld.aio: the same API as coroutines and async iterators, against a real daemon."""
import asyncio

import pytest

import scrolld
import scrolld.aio
from daemon import DEADLINE
from test_client import LIST, MIN_HEADER, ROW, ROWS_TOP


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, DEADLINE))


def test_requests_as_coroutines(daemon):
    async def main():
        async with scrolld.aio.connect(daemon.socket) as client:
            assert client.welcome["protocol"] == 1
            assert "observe" in client.features
            rtt = await client.ping()
            assert isinstance(rtt, float) and rtt > 0, rtt
            await client.configure("list", **LIST)
            await client.scroll_to("list", row=10, anchor="top", animation="none")
            state = await client.get("list")
            assert state.content_offset.y == ROWS_TOP + 10 * ROW - MIN_HEADER
            await client.scroll_by("list", dy=10, animation="none")
            assert (await client.get("list")).content_offset.y == ROWS_TOP + 10 * ROW - MIN_HEADER + 10
            await client.pause("list")
            assert (await client.get("list")).paused
            await client.resume("list")
            while not (await client.devices())["devices"]:  # the replay adds it as it starts
                await asyncio.sleep(0.02)
            assert [d["name"] for d in (await client.devices())["devices"]] == ["Test Wheel"]
            with pytest.raises(scrolld.ScrolldError) as error:
                await client.get("nope")
            assert error.value.code == "unknown_container"
    run(main())


def test_connect_is_awaitable_too(daemon):
    async def main():
        client = await scrolld.aio.connect(daemon.socket)
        assert (await client.get("main")).container == "main"
        await client.close()
    run(main())


def test_subscribe_and_observe_as_async_iterators(daemon):
    async def main():
        async with scrolld.aio.connect(daemon.socket) as client:
            await client.configure("list", **LIST)
            states = await client.subscribe("list")
            changes = await client.observe("list", "header.progress")
            first = await states.__anext__()
            assert first.header == (120, 0)
            assert (await changes.__anext__()).new == 0
            await client.scroll_to("list", y=35, animation="none")
            state = await states.__anext__()
            assert state.content_offset.y == 35
            # progress = (maxHeight - height) / (maxHeight - minHeight) = 35 / 70.
            assert state.header == (85, 0.5)
            change = await changes.__anext__()
            assert (change.old, change.new) == (0, 0.5)
            await states.aclose()
            await changes.aclose()
            assert [s async for s in states] == []
    run(main())


def test_async_for_subscribes_lazily(daemon):
    async def main():
        async with scrolld.aio.connect(daemon.socket) as client:
            async for state in client.subscribe("main"):
                assert state.container == "main"
                break
            with pytest.raises(scrolld.ScrolldError) as error:
                async for state in client.subscribe("nope"):
                    pass
            assert error.value.code == "unknown_container"
    run(main())


def test_focus_follows_the_daemons_features(daemon):
    async def main():
        async with scrolld.aio.connect(daemon.socket) as client:
            await client.configure("list", **LIST)
            if "routing" not in client.features:
                with pytest.raises(scrolld.ScrolldError) as error:
                    await client.focus("list")
                assert error.value.code == "unknown_op"
                return
            await client.focus("list")
            assert (await client.devices())["focus"] == "list"
    run(main())
