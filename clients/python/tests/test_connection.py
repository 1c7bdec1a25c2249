"""A daemon that is not running, one that goes away, and one that comes back: reconnection
restores configure calls, subscriptions and observations, whose iterators go on."""
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

import scrolld
import scrolld.aio
from daemon import DEADLINE, wait_for
from test_client import LIST


def test_a_daemon_that_is_not_running(tmp_path):
    path = os.path.join(str(tmp_path), "nobody.sock")
    with pytest.raises(scrolld.ScrolldError) as error:
        scrolld.Client(path)
    assert error.value.code == "not_running"
    assert path in error.value.message
    with pytest.raises(scrolld.ScrolldError) as error:
        scrolld.Client(path, reconnect=True)
    assert error.value.code == "not_running"

    async def main():
        with pytest.raises(scrolld.ScrolldError) as error:
            await scrolld.aio.connect(path)
        assert error.value.code == "not_running"
    asyncio.run(main())


def test_a_stale_socket_file_is_not_running(daemon):
    daemon.kill()  # the socket file stays behind, nobody listens
    assert os.path.exists(daemon.socket)
    with pytest.raises(scrolld.ScrolldError) as error:
        scrolld.Client(daemon.socket)
    assert error.value.code == "not_running"


def test_without_reconnect_iterators_end_with_disconnected(daemon):
    client = scrolld.Client(daemon.socket, timeout=DEADLINE)
    states = client.subscribe("main")
    changes = client.observe("main", "phase")
    next(states)
    next(changes)
    daemon.kill()
    with pytest.raises(scrolld.ScrolldError) as error:
        next(states)
    assert error.value.code == "disconnected"
    with pytest.raises(scrolld.ScrolldError) as error:
        next(changes)
    assert error.value.code == "disconnected"
    with pytest.raises(scrolld.ScrolldError) as error:
        client.ping()
    assert error.value.code == "disconnected"
    client.close()


def test_reconnects_across_a_daemon_restart(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    first_instance = client.welcome.get("instance")
    client.configure("list", **LIST)
    client.configure("list", rows={"insert": {"at": 40, "count": 10}})
    client.scroll_to("list", y=100, animation="none")
    states = client.subscribe("list")
    changes = client.observe("list", "nearEnd", distance=100)
    first = next(states)
    assert first.content_offset.y == 100
    assert next(changes).new is False

    daemon.kill()
    daemon.start()  # a new daemon on the same socket

    resumed = next(states)
    assert resumed.resumed is True
    # The configure calls were applied again, in order: 50 rows, the insert included.
    assert resumed.container_size == (400, 300)
    assert resumed.content_size.height == 120 + 50 * 44
    assert resumed.header == first.header  # at the same offset, as far collapsed
    # A new daemon gets the container back at its last resting offset (docs/design.md §20).
    assert resumed.content_offset.y == 100
    change = next(changes)
    assert change.resumed is True and change.old is False and change.new is False
    if first_instance is not None:
        assert client.welcome["instance"] != first_instance

    # The iterators go on with the new daemon's states.
    client.scroll_to("list", edge="bottom", animation="none")
    moved = next(states)
    assert moved.resumed is False
    assert moved.content_offset.y == resumed.content_size.height - 300
    change = next(changes)
    assert (change.old, change.new, change.resumed) == (False, True, False)
    client.close()
    assert next(states, None) is None


def test_requests_wait_for_the_new_connection(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.configure("list", **LIST)
    daemon.kill()
    wait_for(lambda: not client.connected, "the client to notice")
    daemon.start()
    # Sent while the client may still be reconnecting: it waits, then the restored container answers.
    assert client.get("list").container_size == (400, 300)
    client.close()


def test_an_owned_container_comes_back_with_a_reconnection(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.configure("mine", container_size=(100, 100), content_size=(100, 500), owned=True)
    states = client.subscribe("mine")
    next(states)
    daemon.kill()
    daemon.start()
    assert next(states).resumed
    assert client.get("mine").content_size == (100, 500)
    client.close()


def test_the_focus_comes_back_with_a_reconnection(daemon):
    # The daemon undoes a connection's focus when it closes; the client gives it again, after
    # its configure calls (a new daemon has to have the container first).
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    assert "routing" in client.features
    client.configure("mine", container_size=(100, 100), content_size=(100, 500))
    client.focus("mine")
    states = client.subscribe("mine")
    next(states)
    daemon.kill()
    daemon.start()
    assert next(states).resumed
    assert client.devices()["focus"] == "mine"
    client.focus(None)
    daemon.kill()
    daemon.start()
    assert next(states).resumed
    assert client.devices()["focus"] is None
    client.close()


def test_asyncio_reconnects_across_a_daemon_restart(daemon):
    async def main():
        async with scrolld.aio.connect(daemon.socket, reconnect=True, timeout=DEADLINE) as client:
            await client.configure("list", **LIST)
            states = await client.subscribe("list")
            changes = await client.observe("list", "phase")
            assert (await states.__anext__()).resumed is False
            assert (await changes.__anext__()).new == "idle"
            daemon.kill()
            daemon.start()
            resumed = await states.__anext__()
            assert resumed.resumed and resumed.container_size == (400, 300)
            change = await changes.__anext__()
            assert change.resumed and (change.old, change.new) == ("idle", "idle")
            await client.scroll_to("list", y=10, animation="none")
            assert (await states.__anext__()).content_offset.y == 10
    asyncio.run(asyncio.wait_for(main(), DEADLINE))


def test_asyncio_without_reconnect_ends_with_disconnected(daemon):
    async def main():
        client = await scrolld.aio.connect(daemon.socket)
        states = await client.subscribe("main")
        await states.__anext__()
        daemon.kill()
        with pytest.raises(scrolld.ScrolldError) as error:
            await states.__anext__()
        assert error.value.code == "disconnected"
        await client.close()
    asyncio.run(asyncio.wait_for(main(), DEADLINE))


def test_python_m_scrolld_observe_prints_changes_and_exit_statuses(daemon, tmp_path):
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=package)
    command = [sys.executable, "-m", "scrolld", "observe", "main", "phase", "--socket", daemon.socket]
    first = subprocess.run(command + ["--count", "1"], env=env, stdout=subprocess.PIPE, timeout=DEADLINE)
    assert (first.returncode, first.stdout) == (0, b"idle\n")
    line = subprocess.run(command + ["--json", "--count", "1"], env=env, stdout=subprocess.PIPE, timeout=DEADLINE)
    message = json.loads(line.stdout)
    assert (message["type"], message["of"], message["old"], message["new"]) == ("observation", "phase", None, "idle")
    bad = subprocess.run(command[:4] + ["nope", "phase", "--socket", daemon.socket], env=env,
                         stderr=subprocess.PIPE, timeout=DEADLINE)
    assert bad.returncode == 1 and b"unknown_container" in bad.stderr
    gone = subprocess.run(command[:6] + ["--socket", str(tmp_path / "nobody.sock")], env=env,
                          stderr=subprocess.PIPE, timeout=DEADLINE)
    assert gone.returncode == 69 and b"not_running" in gone.stderr
    refused = subprocess.run(command[:5] + ["nope", "--socket", daemon.socket], env=env,
                             stderr=subprocess.PIPE, timeout=DEADLINE)
    assert refused.returncode == 64 and b"invalid_value" in refused.stderr


def test_python_m_scrolld_observe_ends_with_1_when_its_container_is_removed(daemon):
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=package)
    with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
        client.configure("gone", container_size=(100, 100))
        watcher = subprocess.Popen([sys.executable, "-m", "scrolld", "observe", "gone", "phase", "--json",
                                    "--socket", daemon.socket], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            first = json.loads(watcher.stdout.readline())
            assert (first["type"], first["of"], first["new"]) == ("observation", "phase", "idle")
            assert isinstance(first["id"], int)
            client.remove("gone")
            out, err = watcher.communicate(timeout=DEADLINE)
        finally:
            if watcher.poll() is None:
                watcher.kill()
                watcher.wait()
    assert watcher.returncode == 1
    assert err == b'scrolld: container "gone" was removed\n'


def test_a_refused_request_does_not_break_reconnection(daemon):
    # A request that could not be sent left its stream registered, and the reconnection's
    # attempt to send it again killed the reader: iterators then waited for ever.
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    with pytest.raises(scrolld.ScrolldError):
        client.subscribe("main", rate=float("inf"))
    states = client.subscribe("main")
    assert next(states).resumed is False
    daemon.kill()
    daemon.start()
    assert next(states).resumed is True
    rtt = client.ping()
    assert isinstance(rtt, float) and rtt > 0, rtt
    client.close()


def stopped(pid):
    """Whether the process is in state T (stopped), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] == "T"


def test_a_subscription_that_timed_out_leaves_nothing_behind(daemon):
    # Its stream would otherwise stay registered: sent again by every reconnection, and holding
    # the container's rate against the next subscribe.
    client = scrolld.Client(daemon.socket, timeout=DEADLINE)
    os.kill(daemon.process.pid, signal.SIGSTOP)
    # Stopped for sure: a signal takes effect when a thread of its target next runs.
    wait_for(lambda: stopped(daemon.process.pid), "the daemon to stop")
    client.timeout = 0.3  # nothing timed before the daemon has stopped
    try:
        with pytest.raises(scrolld.ScrolldError) as error:
            client.subscribe("main", rate=5)
        assert error.value.code == "timeout"
    finally:
        os.kill(daemon.process.pid, signal.SIGCONT)
    client.timeout = DEADLINE
    states = client.subscribe("main")  # another rate: nothing holds the old one
    assert next(states).container == "main"
    client.close()


def test_a_subscription_interrupted_by_ctrl_c_leaves_nothing_behind(daemon):
    # Interrupted while it waited for the reply (KeyboardInterrupt, as Ctrl-C raises it): its
    # stream stayed registered and held the container's rate against the next subscribe.
    import _thread
    client = scrolld.Client(daemon.socket, timeout=DEADLINE)
    os.kill(daemon.process.pid, signal.SIGSTOP)
    wait_for(lambda: stopped(daemon.process.pid), "the daemon to stop")
    try:
        # Sent once the subscribe waits on the stopped daemon, however late this thread runs.
        interrupter = threading.Timer(0.3, _thread.interrupt_main)
        interrupter.start()
        with pytest.raises(KeyboardInterrupt):
            client.subscribe("main", rate=5)
        interrupter.join()
    finally:
        os.kill(daemon.process.pid, signal.SIGCONT)
    assert client._router.subscriptions == {}
    states = client.subscribe("main", rate=20)  # another rate: nothing holds the old one
    assert next(states).container == "main"
    client.close()


def test_asyncio_a_cancelled_subscription_leaves_nothing_behind(daemon):
    async def run():
        async with scrolld.aio.connect(daemon.socket, timeout=DEADLINE) as client:
            os.kill(daemon.process.pid, signal.SIGSTOP)
            wait_for(lambda: stopped(daemon.process.pid), "the daemon to stop")
            try:
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(client.subscribe("main", rate=5), 0.3)
            finally:
                os.kill(daemon.process.pid, signal.SIGCONT)
            assert client._router.subscriptions == {}
            states = client.subscribe("main", rate=20)
            async for state in states:
                assert state.container == "main"
                break
    asyncio.run(run())


def test_arguments_that_are_not_a_path_or_a_timeout_are_refused_before_connecting(daemon):
    import pathlib
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)  # a socket left open fails the test
        for socket_path, timeout, kind, said in [
            (daemon.socket, -1, ValueError, "timeout must be a finite number of seconds above 0, got -1"),
            (daemon.socket, float("nan"), ValueError, "timeout must be a finite number of seconds above 0, got nan"),
            (daemon.socket, None, TypeError, "timeout must be a number of seconds, not NoneType"),
            (daemon.socket, "5", TypeError, "timeout must be a number of seconds, not str"),
            (123, 5, TypeError, "socket must be a path (str or os.PathLike), not int"),
        ]:
            with pytest.raises(kind) as error:
                scrolld.Client(socket_path, timeout=timeout)
            assert str(error.value) == said
            with pytest.raises(kind):
                scrolld.aio.connect(socket_path, timeout=timeout)
            import gc
            gc.collect()
    # A pathlib.Path is a path.
    with scrolld.Client(pathlib.Path(daemon.socket), timeout=DEADLINE) as client:
        assert client.get("main").container == "main"


def test_a_closed_reconnecting_client_says_it_is_closed(daemon):
    client = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    client.close()
    with pytest.raises(scrolld.ScrolldError) as error:
        client.get("main")
    assert (error.value.code, error.value.message) == ("disconnected", f"the client of scrolld at {daemon.socket} is closed")


def test_a_value_json_cannot_carry_is_named(daemon):
    with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
        with pytest.raises(scrolld.ScrolldError) as error:
            client.scroll_to("main", y=float("nan"))
        assert error.value.code == "invalid_value"
        assert error.value.message.startswith('scrollTo: invalid "y": a value JSON cannot carry')


def test_python_m_scrolld_observe_usage_errors_exit_64(daemon):
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=package)
    command = [sys.executable, "-m", "scrolld", "observe", "main", "phase", "--socket", daemon.socket]
    for bad in (["--count", "0"], ["--timeout", "-1"], ["--timeout", "nan"], ["--nosuch"]):
        result = subprocess.run(command + bad, env=env, stderr=subprocess.PIPE, timeout=DEADLINE)
        assert result.returncode == 64, (bad, result.stderr)
    zero = subprocess.run(command + ["--count", "0"], env=env, stderr=subprocess.PIPE, timeout=DEADLINE)
    assert b"argument --count: expects a positive number, got '0'" in zero.stderr


def requests_to_fill(line=60000):
    """How many requests of `line` bytes (60 KB: under the daemon's 64 KiB limit) fill a
    socket's send buffer (net.core.wmem_default, ~208 KB), and then some."""
    with open("/proc/sys/net/core/wmem_default") as wmem:
        return max(12, int(wmem.read()) // line + 4)


def test_a_request_the_daemon_cannot_take_times_out(daemon):
    # A daemon that stopped reading fills its socket. Each request waits no longer than the
    # timeout; a line the socket took only part of (whether one is depends on how the kernel
    # splits it) ends the connection, since the daemon would read the next line as its rest.
    client = scrolld.Client(daemon.socket, timeout=DEADLINE)
    count, codes = requests_to_fill(), []

    def requests():
        for _ in range(count):
            try:
                client.get("x" * 60000)
                codes.append(None)
            except scrolld.ScrolldError as error:
                codes.append((error.code, error.message))
    thread = threading.Thread(target=requests, daemon=True)
    os.kill(daemon.process.pid, signal.SIGSTOP)
    try:
        wait_for(lambda: stopped(daemon.process.pid), "the daemon to stop")
        client.timeout = 0.3  # nothing timed before the daemon has stopped
        thread.start()
        thread.join(DEADLINE)  # only catches a send that waits for ever
    finally:
        os.kill(daemon.process.pid, signal.SIGCONT)
    assert not thread.is_alive(), "a request waited for a stopped daemon to take its line"
    assert len(codes) == count
    timeouts = [("timeout", "no reply within 0.3 s"), ("timeout", "scrolld did not take the request within 0.3 s")]
    # Whole lines time out waiting for their replies, lines that found no room waiting for it;
    # then possibly the cut one, and after it nothing but the connection's end.
    assert codes[0] == timeouts[0], codes
    rest = codes[next((i for i, code in enumerate(codes) if code not in timeouts), len(codes)):]
    cut = ("disconnected", "scrolld took only part of a request within 0.3 s; the connection was closed")
    assert rest[:1] in ([], [cut]), codes
    assert all(code[0] == "disconnected" for code in rest), codes
    client.close()
    other = scrolld.Client(daemon.socket, timeout=DEADLINE)
    other.ping()  # the daemon read the whole lines and the cut one's end, and serves on
    other.close()


def test_asyncio_a_request_the_daemon_cannot_take_times_out(daemon):
    # The transport keeps what the socket does not take, so nothing is cut: every request times
    # out, and the connection goes on once the daemon reads.
    async def main():
        client = await scrolld.aio.connect(daemon.socket, timeout=DEADLINE)
        count, codes = requests_to_fill(), []

        async def requests():
            for _ in range(count):
                try:
                    await client.get("x" * 60000)
                    codes.append(None)
                except scrolld.ScrolldError as error:
                    codes.append(error.code)
        os.kill(daemon.process.pid, signal.SIGSTOP)
        try:
            wait_for(lambda: stopped(daemon.process.pid), "the daemon to stop")
            client.timeout = 0.3
            await asyncio.wait_for(requests(), DEADLINE)  # only catches a wait for ever
        finally:
            os.kill(daemon.process.pid, signal.SIGCONT)
        assert codes == ["timeout"] * count
        client.timeout = DEADLINE
        await client.ping()
        await client.close()
    asyncio.run(main())


def test_asyncio_an_iterator_whose_request_was_refused_ends_with_the_error(daemon):
    async def main():
        client = await scrolld.aio.connect(daemon.socket, timeout=DEADLINE)
        states = client.subscribe("main", rate=float("nan"))
        with pytest.raises(scrolld.ScrolldError) as error:
            await states
        assert error.value.code == "invalid_value"
        with pytest.raises(scrolld.ScrolldError):
            await asyncio.wait_for(states.__anext__(), DEADLINE)  # ended: no wait for ever
        await client.close()
    asyncio.run(main())


def test_a_reconnection_leaves_another_clients_later_focus_alone(daemon):
    mine = scrolld.Client(daemon.socket, reconnect=True, timeout=DEADLINE)
    theirs = scrolld.Client(daemon.socket, timeout=DEADLINE)
    mine.configure("a", container_size=(100, 100))
    theirs.configure("b", container_size=(100, 100))
    mine.focus("a")
    theirs.focus("b")  # the last focus wins (docs/design.md §14)
    # The same daemon drops only my connection: the focus it holds is b's, and stays b's.
    dropped = mine._sock
    dropped.shutdown(socket.SHUT_RDWR)
    wait_for(lambda: mine._sock is not None and mine._sock is not dropped, "the reconnection")
    rtt = mine.ping()
    assert isinstance(rtt, float) and rtt > 0, rtt
    assert theirs.devices()["focus"] == "b"
    theirs.close()
    mine.close()


def test_asyncio_a_refused_request_does_not_break_reconnection(daemon):
    async def main():
        client = await scrolld.aio.connect(daemon.socket, reconnect=True, timeout=DEADLINE)
        with pytest.raises(scrolld.ScrolldError):
            await client.observe("main", "contentOffset.y", step=float("nan"))
        states = await client.subscribe("main")
        assert (await states.__anext__()).resumed is False
        daemon.kill()
        daemon.start()
        assert (await states.__anext__()).resumed is True
        rtt = await client.ping()
        assert isinstance(rtt, float) and rtt > 0, rtt
        await client.close()
    asyncio.run(main())
