"""The blocking client against a real daemon: every request, the typed state, errors,
subscriptions and observations. Exact values come from docs/design.md §4, §12, §13."""
import dataclasses
import os

import pytest

import scrolld
from daemon import DEADLINE, wait_for

# A list as in docs/protocol.md's session: 400x300, header 50..120, 40 rows of 44 px whose
# first row starts under the expanded header (rows' top defaults to the header's maxHeight).
LIST = dict(container_size=(400, 300), header={"min_height": 50, "max_height": 120},
            rows={"count": 40, "height": 44})
ROWS_TOP, ROW, MIN_HEADER = 120, 44, 50


@pytest.fixture
def client(daemon):
    with scrolld.Client(daemon.socket, timeout=DEADLINE) as c:
        yield c


def test_welcome_and_features(client):
    assert client.welcome["type"] == "welcome"
    assert client.welcome["protocol"] == 1
    assert "main" in client.welcome["containers"]
    assert "positions" in client.features and "observe" in client.features
    # ping() returns only once the daemon's reply came back (an error or none raises): a round
    # trip of some time, as a float.
    rtt = client.ping()
    assert isinstance(rtt, float) and rtt > 0, rtt


def test_default_socket_is_where_scrollctl_looks(monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1234")
    assert scrolld.default_socket() == "/run/user/1234/scrolld/scrolld.sock"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert scrolld.default_socket() == f"/tmp/scrolld-{os.getuid()}/scrolld.sock"


def test_configure_with_snake_case_keys_and_get(client):
    client.configure("list", **LIST)
    state = client.get("list")
    assert isinstance(state, scrolld.State)
    assert state.container == "list"
    assert state.phase == "idle"
    assert state.content_offset == (0, 0)
    assert state.velocity == (0, 0)
    assert state.container_size == (400, 300)
    # Unless configured, the content height follows the rows: top + count x height.
    assert state.content_size == (400, ROWS_TOP + 40 * ROW)
    assert state.content_insets == (0, 0, 0, 0)
    assert state.header == (120, 0)
    assert state.header.height == 120 and state.header.progress == 0
    assert state.visible_rows is not None and state.visible_rows.first == 0
    assert state.paused is False and state.resumed is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.seq = 0


def test_shorthands_insets_and_header_pair(client):
    client.configure("box", container_size=(200, 100), content_size=[200, 1000],
                     content_insets=(10, 0, 20, 0), header=(30, 60))
    state = client.get("box")
    assert state.content_insets == (10, 0, 20, 0)
    assert state.content_insets.bottom == 20
    assert state.header == (60, 0)
    assert state.visible_rows is None


def test_scroll_to_row_with_anchor_lands_on_the_formula(client):
    client.configure("list", **LIST)
    # docs/design.md §12, anchor top (A = 0): y* = r_N - a_lo - m = 120 + 44 N - 50.
    client.scroll_to("list", row=10, anchor="top", animation="none")
    assert client.get("list").content_offset.y == ROWS_TOP + 10 * ROW - MIN_HEADER


def test_scroll_to_y_edge_and_scroll_by(client):
    client.configure("list", **LIST)
    client.scroll_to("list", y=200, animation="none")
    assert client.get("list").content_offset == (0, 200)
    client.scroll_by("list", dy=-50, animation="none")
    assert client.get("list").content_offset.y == 150
    client.scroll_to("list", edge="bottom", animation="none")
    state = client.get("list")
    assert state.content_offset.y == state.content_size.height - state.container_size.height


def test_errors_carry_code_and_message(client):
    with pytest.raises(scrolld.ScrolldError) as error:
        client.get("nope")
    assert error.value.code == "unknown_container"
    assert "nope" in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("list", container_size="big")
    assert error.value.code == "invalid_value"
    assert "containerSize" in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.scroll_to("main", row=3)  # main has no rows
    assert error.value.code == "invalid_value"
    # The connection serves on after errors.
    assert client.get("main").container == "main"


def test_subscribe_yields_the_current_state_then_every_change(client):
    client.configure("list", **LIST)
    with client.subscribe("list") as states:
        first = next(states)
        assert first.container == "list" and first.content_offset.y == 0
        client.scroll_to("list", y=300, animation="none")
        changed = next(states)
        assert changed.seq > first.seq
        assert changed.content_offset.y == 300
        assert changed.header == (MIN_HEADER, 1)


def test_an_animated_scroll_ends_idle_at_its_target(client):
    client.configure("list", **LIST)
    states = client.subscribe("list", rate=60)
    client.scroll_to("list", y=400, animation=scrolld.spring(0.2))
    seen = []
    for state in states:
        seen.append(state)
        if state.phase == "idle" and state.content_offset.y == 400:
            break
    assert "animating" in [s.phase for s in seen]
    assert [s.seq for s in seen] == sorted(s.seq for s in seen)
    states.close()
    assert next(states, None) is None


def test_observe_near_end_reports_old_and_new(client):
    client.configure("list", **LIST)
    with client.observe("list", "nearEnd", distance=100) as changes:
        first = next(changes)
        assert isinstance(first, scrolld.Observation)
        assert (first.old, first.new) == (None, False)
        client.scroll_to("list", edge="bottom", animation="none")
        change = next(changes)
        assert (change.old, change.new) == (False, True)
        assert change.seq > first.seq
        assert change.of == "nearEnd" and change.container == "list"


def test_observe_visible_rows_gives_typed_values(client):
    client.configure("list", **LIST)
    changes = client.observe("list", "visibleRows")
    first = next(changes)
    assert first.new == client.get("list").visible_rows
    assert isinstance(first.new, scrolld.VisibleRows)
    client.scroll_to("list", row=20, anchor="top", animation="none")
    change = next(changes)
    assert change.old == first.new
    assert change.new == client.get("list").visible_rows
    # Under the pinned header (visible_in = "container"), the row before 20 still shows.
    assert change.new.first == 19
    changes.close()


def test_observe_with_a_bad_option_names_it(client):
    with pytest.raises(scrolld.ScrolldError) as error:
        client.observe("main", "nearEnd")
    assert error.value.code == "invalid_value"
    assert "distance" in error.value.message


def test_pause_and_resume_show_in_the_state(client):
    client.pause("main")
    assert client.get("main").paused is True
    client.resume("main")
    assert client.get("main").paused is False


def test_devices_lists_the_replayed_device(client):
    # The replay adds its device as the daemon starts serving: wait for it, it never goes.
    devices = wait_for(lambda: client.devices()["devices"], "the replayed device")
    assert [d["name"] for d in devices] == ["Test Wheel"]


def test_focus_follows_the_daemons_features(client):
    client.configure("list", **LIST)
    if "routing" not in client.features:
        with pytest.raises(scrolld.ScrolldError) as error:
            client.focus("list")
        assert error.value.code == "unknown_op"
        return
    client.focus("list")
    assert client.devices()["focus"] == "list"
    client.focus(None)
    assert client.devices()["focus"] is None


def test_removing_a_container_ends_its_subscription(client):
    client.configure("temp", container_size=(100, 100), content_size=(100, 500))
    states = client.subscribe("temp")
    phases = client.observe("temp", "phase")
    assert next(states).container == "temp"
    assert next(phases).new == "idle"
    client.remove("temp")
    assert list(states) == []
    assert list(phases) == []
    with pytest.raises(scrolld.ScrolldError) as error:
        client.get("temp")
    assert error.value.code == "unknown_container"


def test_an_owned_container_goes_with_its_connection(daemon, client):
    with scrolld.Client(daemon.socket) as owner:
        owner.configure("mine", container_size=(100, 100), content_size=(100, 500), owned=True)
        states = client.subscribe("mine")
        next(states)
    assert list(states) == []


def test_poll_returns_the_newest_state(client):
    client.configure("list", **LIST)
    states = client.subscribe("list")
    for y in (10, 20, 30):
        client.scroll_to("list", y=y, animation="none")
    # The three states arrive in order before the reply to a later request.
    client.ping()
    assert states.poll().content_offset.y == 30
    assert states.poll() is None


def test_threads_share_one_client(client):
    import threading
    client.configure("list", **LIST)
    failures = []

    def work(n):
        try:
            for k in range(30):
                assert client.get("list").container == "list"
                rtt = client.ping()
                assert isinstance(rtt, float) and rtt > 0, rtt
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    assert not any(thread.is_alive() for thread in threads), "a thread's requests never finished"
    assert failures == []


def test_two_iterators_on_one_container(client):
    client.configure("list", **LIST)
    first, second = client.subscribe("list"), client.subscribe("list")
    assert next(first).seq == next(second).seq
    client.scroll_to("list", y=44, animation="none")
    assert next(first).content_offset.y == next(second).content_offset.y == 44
    first.close()  # the other goes on
    client.scroll_to("list", y=88, animation="none")
    assert next(second).content_offset.y == 88
    assert next(first, None) is None


def test_two_iterators_on_one_container_share_one_rate(client):
    # The daemon keeps one subscription per container and connection (one rate): a second
    # iterator asking for another rate is refused instead of changing the first one's.
    client.configure("list", **LIST)
    every = client.subscribe("list")
    with pytest.raises(scrolld.ScrolldError) as error:
        client.subscribe("list", rate=5)
    assert error.value.code == "invalid_value" and "rate" in error.value.message
    also_every = client.subscribe("list")
    client.scroll_to("list", y=44, animation="none")
    assert next(every).seq == next(also_every).seq
    assert next(every).content_offset.y == next(also_every).content_offset.y == 44


def test_a_value_json_cannot_carry_is_invalid_value_and_leaves_nothing_behind(client):
    with pytest.raises(scrolld.ScrolldError) as error:
        client.subscribe("main", rate=float("inf"))
    assert error.value.code == "invalid_value" and "subscribe" in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.observe("main", "contentOffset.y", step=float("nan"))
    assert error.value.code == "invalid_value"
    # Nothing was registered: a subscription at another rate is still possible.
    states = client.subscribe("main", rate=30)
    assert next(states).container == "main"


def test_a_line_over_64_kib_is_too_large_before_it_is_sent(client):
    # The daemon would answer `too_large` without an id and close the connection; the client
    # refuses the line itself, and the connection stays.
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("big", rows={"heights": [44.123456789] * 8000})
    assert error.value.code == "too_large" and "configure" in error.value.message
    rtt = client.ping()
    assert isinstance(rtt, float) and rtt > 0, rtt
    with pytest.raises(scrolld.ScrolldError) as error:
        client.get("big")
    assert error.value.code == "unknown_container"


def test_the_daemons_too_large_fails_the_oldest_waiting_request():
    # What another writer's overlong line gets: an error without an id, which only the oldest
    # waiting request can have caused (lines are answered in order); others keep waiting.
    from scrolld._router import Router
    router = Router()
    outcomes = {}
    router.request({"op": "ping"}, lambda reply, error: outcomes.setdefault("first", error))
    router.request({"op": "ping"}, lambda reply, error: outcomes.setdefault("second", error))
    router.dispatch({"type": "error", "code": "bad_request", "message": "not JSON"})
    assert outcomes == {}  # no id, not too_large: nobody's
    router.dispatch({"type": "error", "code": "too_large", "message": "a line over 65536 bytes"})
    assert outcomes["first"].code == "too_large" and "second" not in outcomes
    assert len(router.pending) == 1


def test_an_observer_that_does_not_read_coalesces_latest_wins():
    # No daemon needed: what the reader thread hands an observer that is never read. Beyond the
    # backlog the newest replaces the last one waiting, keeping the value the consumer last
    # received as its `old` (docs/design.md §13's latest-wins for a slow client); memory stays
    # bounded.
    from scrolld._router import BACKLOG
    from scrolld.client import _Iterator
    observer = _Iterator(None, "observe", {"op": "observe", "container": "main", "of": "contentOffset.y", "id": 1})
    values = list(range(3 * BACKLOG)) + [3 * BACKLOG - 2]  # the last one returns to an earlier value
    previous = None
    for seq, value in enumerate(values, 1):
        observer.deliver({"type": "observation", "id": 1, "container": "main", "of": "contentOffset.y",
                          "seq": seq, "t": seq, "old": previous, "new": value})
        previous = value
    items = list(observer._items)
    assert len(items) == BACKLOG
    assert [i.new for i in items[:BACKLOG - 1]] == values[:BACKLOG - 1]
    # Each one's old is the previous one's new: a consumer sees one unbroken chain of changes.
    assert all(a.new == b.old for a, b in zip(items, items[1:]))
    assert items[0].old is None
    assert items[-1].new == values[-1] and items[-1].seq == len(values)
