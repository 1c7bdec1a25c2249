"""docs/design.md §22 through the Python client against a real daemon: the gesture keys, the
state's scroll indicators with their exact geometry, their linger and flash_indicators."""
import pytest

import scrolld
from daemon import DEADLINE

# 400 x 300 over 1200 px of content: the track is T = 300, the thumb l = 300 x 300 / 1200 = 75,
# and hi = 900.
CANVAS = dict(container_size=(400, 300), content_size=(400, 1200))


@pytest.fixture
def client(daemon):
    with scrolld.Client(daemon.socket, timeout=DEADLINE) as c:
        yield c


def test_the_daemon_says_it_has_gestures(client):
    assert "gestures" in client.features


def test_indicators_at_rest_and_mid_content(client):
    client.configure("canvas", **CANVAS)
    state = client.get("canvas")
    assert state.indicators == scrolld.Indicators(None, scrolld.Indicator(0, 75, False))
    client.scroll_to("canvas", y=450, animation="none")
    thumb = client.get("canvas").indicators.y
    # o = (T - l) x (y - lo) / (hi - lo) = 225 x 0.5; shown since the offset changed.
    assert thumb == scrolld.Indicator(112.5, 75, True)


def test_the_indicators_hide_by_one_state_500_ms_after_the_rest(client):
    client.configure("canvas", **CANVAS)
    with client.subscribe("canvas") as states:
        next(states)
        client.scroll_to("canvas", y=900, animation="none")
        shown = next(states)
        assert shown.phase == "idle" and shown.indicators.y == scrolld.Indicator(225, 75, True)
        hidden = next(states)
        assert hidden.t == shown.t + 500_000
        assert hidden.seq == shown.seq + 1
        assert hidden.content_offset == shown.content_offset
        assert hidden.indicators.y == scrolld.Indicator(225, 75, False)


def test_flash_indicators_shows_them_for_the_linger(client):
    client.configure("canvas", indicator_linger_ms=250, **CANVAS)
    with client.subscribe("canvas") as states:
        first = next(states)
        assert first.indicators.y.visible is False
        client.flash_indicators("canvas")
        flashed = next(states)
        assert flashed.indicators.y.visible is True
        hidden = next(states)
        assert hidden.indicators.y.visible is False
        assert hidden.t == flashed.t + 250_000


def test_the_gesture_keys_in_both_spellings(client):
    client.configure("cards", container_size=(300, 200), content_size=(3000, 200), axes="horizontal",
                     scroll_target="paging", snap_stop=True, snap_type="proximity", snap_proximity=40,
                     bounce="basedOnSize", directional_lock=True, indicator_min_length=20)
    # A 300 px track over 3000 px: l = 300 x 300 / 3000 = 30, above the minimum of 20.
    assert client.get("cards").indicators == scrolld.Indicators(scrolld.Indicator(0, 30, False), None)
    client.configure("cards", indicator_min_length=50)
    assert client.get("cards").indicators.x.length == 50
    # The configuration's spelling on the wire is accepted too.
    client._call({"op": "configure", "container": "cards", "indicator_min_length": 60})
    assert client.get("cards").indicators.x.length == 60


@pytest.mark.parametrize("key, value, named", [
    ("snap_proximity", -1, "snap_proximity"),
    ("indicator_linger_ms", 60001, "indicator_linger_ms"),
    ("indicator_min_length", "long", "indicator_min_length"),
    ("bounce", "sometimes", "bounce"),
    ("snap_type", "always", "snap_type"),
    ("directional_lock", 1, "directional_lock"),
])
def test_bad_values_are_refused_naming_the_key(client, key, value, named):
    with pytest.raises(scrolld.ScrolldError) as error:
        client.configure("canvas", **{key: value})
    assert error.value.code == "invalid_value"
    assert named in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        client.flash_indicators("nope")
    assert error.value.code == "unknown_container"
