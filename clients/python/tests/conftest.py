"""Fixtures: a real scrolld (the binary `make test` builds, or $SCROLLD_BIN) on a socket of
its own, fed by a replay log the test writes. Waits have generous deadlines that only catch a
hang; no test judges time."""
import os
import signal
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
# The package from this tree, installed or not.
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from daemon import Daemon, QUIET_LOG, write_log  # noqa: E402


@pytest.fixture
def quiet_log(tmp_path):
    """A log with one wheel device and no input: nothing moves unless a request moves it."""
    return write_log(tmp_path / "quiet.scrolllog", QUIET_LOG)


@pytest.fixture
def daemon(tmp_path, quiet_log):
    d = Daemon(tmp_path, replay=quiet_log)
    d.start()
    yield d
    d.stop()


#: A test still running after this long is stuck: it fails with a traceback of where.
HANG = 120


@pytest.fixture(autouse=True)
def hang_guard():
    def stuck(signum, frame):
        raise TimeoutError(f"test still running after {HANG} s: stuck (this catches hangs only)")
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(HANG)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)
