"""docs/design.md §20 from a client's side, against a real daemon killed and restarted: viewers
wait for their containers, and a client keeps one current description per container and puts it
back where it rested."""
import asyncio
import random
import threading
import tracemalloc

import scrolld.aio

import scrolld
from scrolld._router import Router
from daemon import DEADLINE, wait_for

LOG = dict(container_size=(420, 720), rows={"count": 60, "height": 24}, anchor="bottom")


def gone(client, container):
    try:
        client.get(container)
        return False
    except scrolld.ScrolldError as error:
        return error.code == "unknown_container"


def test_a_waiting_subscription_starts_when_its_container_is_created(daemon):
    viewer = scrolld.Client(daemon.socket, timeout=DEADLINE)
    assert "follow" in viewer.features
    states = viewer.subscribe("log", wait=True)
    owner = scrolld.Client(daemon.socket, timeout=DEADLINE)
    owner.configure("log", owned=True, **LOG)
    assert next(states).content_offset.y == 720
    owner.close()  # removed: the viewer waits again
    again = scrolld.Client(daemon.socket, timeout=DEADLINE)
    wait_for(lambda: gone(again, "log"),
             "the owner's container to go with its connection")
    again.configure("log", owned=True, **LOG)
    again.scroll_to("log", y=100, animation="none")
    ys = [next(states).content_offset.y for _ in range(2)]
    assert ys == [720, 100]
    for client in (viewer, again):
        client.close()


def test_a_viewer_that_reconnects_before_the_owner_waits_for_it(daemon):
    owner = scrolld.Client(daemon.socket, timeout=DEADLINE)
    owner.configure("log", owned=True, **LOG)
    viewer = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    states = viewer.subscribe("log")
    assert next(states).content_offset.y == 720
    daemon.kill()
    daemon.start()
    wait_for(lambda: viewer.connected, "the viewer to reconnect")
    # The viewer is back and its container is not: it waits instead of failing.
    rtt = viewer.ping()
    assert isinstance(rtt, float) and rtt > 0, rtt
    owner = scrolld.Client(daemon.socket, timeout=DEADLINE)
    owner.configure("log", owned=True, **LOG)
    resumed = next(states)
    assert resumed.resumed is True
    assert resumed.content_size.height == 1440
    owner.close()
    viewer.close()


def test_owner_and_viewer_reconnecting_in_either_order_never_fail(daemon):
    """The trial's race: both clients reconnect after each restart, in whichever order their
    backoff brings them; the viewer's iterator never raises."""
    owner = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    owner.configure("log", owned=True, **LOG)
    viewer = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    states = viewer.subscribe("log")
    observations = viewer.observe("log", "contentOffset.y")
    next(states)
    next(observations)
    rng = random.Random(31)
    for round in range(100):
        daemon.kill()
        daemon.start()
        owner.scroll_to("log", y=rng.randrange(0, 720), animation="none")  # waits for the owner
        while True:  # the viewer's states until it shows this round's offset
            state = next(states)
            if state.content_offset.y == owner.get("log").content_offset.y:
                break
    owner.close()
    viewer.close()


def test_asyncio_a_viewer_that_reconnects_before_the_owner_waits_for_it(daemon):
    async def run():
        owner = scrolld.Client(daemon.socket, timeout=DEADLINE)
        owner.configure("log", owned=True, **LOG)
        async with scrolld.aio.connect(daemon.socket, reconnect=True, timeout=DEADLINE) as viewer:
            states = await viewer.subscribe("log")
            assert (await states.__anext__()).content_offset.y == 720
            daemon.kill()
            daemon.start()
            await asyncio.wait_for(viewer._connected.wait(), DEADLINE)
            await viewer.ping()
            again = scrolld.Client(daemon.socket, timeout=DEADLINE)
            again.configure("log", owned=True, **LOG)
            resumed = await asyncio.wait_for(states.__anext__(), DEADLINE)
            assert resumed.resumed is True
            again.close()
    asyncio.run(run())


def test_containers_come_back_as_last_described_at_their_last_resting_offset(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.configure("feed", container_size=(400, 600), rows={"count": 100, "height": 44})
    for at in range(100, 300):
        client.configure("feed", rows={"insert": {"at": at, "count": 1}})
    client.configure("feed", rows={"insert": {"at": 0, "count": 2, "height": 10}})
    client.configure("feed", rows={"remove": {"at": 50, "count": 10}})
    client.scroll_to("feed", y=640, animation="none")
    states = client.subscribe("feed")
    before = next(states)
    assert before.content_offset.y == 640
    # One description, not 204 calls.
    assert list(client._router.descriptions) == ["feed"]
    assert client._router.descriptions["feed"].runs == [[10, 2], [None, 290]]
    daemon.kill()
    daemon.start()
    resumed = next(states)
    assert resumed.resumed is True
    assert resumed.content_size == before.content_size
    assert resumed.content_offset.y == 640
    client.close()


def test_restoring_offsets_can_be_turned_off(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE, restore_offsets=False)
    client.configure("feed", container_size=(400, 600), rows={"count": 100, "height": 44})
    client.scroll_to("feed", y=640, animation="none")
    states = client.subscribe("feed")
    assert next(states).content_offset.y == 640
    daemon.kill()
    daemon.start()
    assert next(states).content_offset.y == 0
    client.close()


def test_a_description_stays_small_under_100000_edits():
    router = Router()
    router._record_configure({"op": "configure", "container": "log", "rows": {"count": 0, "height": 24}})
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    for at in range(100_000):
        router._record_configure({"op": "configure", "container": "log", "rows": {"insert": {"at": at, "count": 1}}})
    end, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    description = router.descriptions["log"]
    assert description.runs == [[None, 100_000]]
    assert end - start < 10_000  # bytes: nothing kept per edit (a list of them held > 10 MB)
    assert description.lines() == [{"op": "configure", "container": "log", "rows": {"height": 24, "count": 100_000}}]


def test_a_log_following_its_end_comes_back_at_its_end(daemon):
    """The trial's log: rows arrive faster than its spring to the end settles, so it never
    rests; killed mid-motion, it comes back at its (new) end and keeps following."""
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.configure("log", owned=True, **LOG)
    client.scroll_to("log", y=0, animation="none")
    states = client.subscribe("log")
    assert next(states).content_offset.y == 0
    # A ten-second spring: still on its way when the daemon dies, however late this reads.
    client.scroll_to("log", edge="bottom", animation=scrolld.spring(10))
    client.configure("log", rows={"insert": {"at": 60, "count": 1}})
    moving = next(state for state in states if state.phase != "idle")
    assert moving.content_offset.y < 744  # killed before it rests
    daemon.kill()
    daemon.start()
    resumed = next(state for state in states if state.resumed)
    while not (resumed.phase == "idle" and resumed.content_size.height == 61 * 24):
        resumed = next(states)
    assert resumed.content_offset.y == 61 * 24 - 720
    client.configure("log", rows={"insert": {"at": 61, "count": 1}})
    following = next(state for state in states if state.content_size.height == 62 * 24 and state.phase == "idle")
    assert following.content_offset.y == 62 * 24 - 720
    client.close()


def test_an_offset_scrolled_to_comes_back_without_a_subscription(daemon):
    """A controller that scrolls and never subscribes still gets its offset back."""
    owner = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    owner.configure("log", owned=True, **LOG)
    owner.scroll_to("log", y=300, animation="none")
    daemon.kill()
    daemon.start()
    wait_for(lambda: owner.connected, "the owner to reconnect")
    wait_for(lambda: owner.get("log").content_offset.y == 300, "the log back at 300")
    owner.close()


def test_poll_keeps_the_mark_of_a_reconnection(daemon):
    """A UI drawing only the newest state with poll() still learns that states were missed."""
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.configure("log", owned=True, **LOG)
    states = client.subscribe("log")
    assert next(states).resumed is False
    daemon.kill()
    daemon.start()
    client.configure("log", rows={"insert": {"at": 60, "count": 1}})  # waits for the reconnection
    wait_for(lambda: client.get("log").content_size.height == 61 * 24, "the appended row")
    # Every state up to the append's came before the get's reply on the one connection: one
    # poll() takes them all and keeps the newest.
    newest = states.poll()
    assert newest is not None and newest.content_size.height == 61 * 24
    assert newest.resumed is True
    client.close()


def test_a_request_that_waits_for_a_reconnection_in_vain_times_out(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    daemon.kill()
    wait_for(lambda: not client.connected, "the client to see the daemon go")
    client.timeout = 1.0  # nothing timed while a daemon is there: the welcome has no bound
    try:
        client.get("main")
        raise AssertionError("get succeeded without a daemon")
    except scrolld.ScrolldError as error:
        assert error.code == "timeout", error
    client.timeout = DEADLINE  # the reconnection's welcome, from the new daemon
    daemon.start()
    wait_for(lambda: client.connected, "the client to reconnect")
    client.close()
