"""Fixtures: a real scrolld (the binary `make test` builds, or $SCROLLD_BIN) on a socket of
its own, fed by a replay log the test writes. Waits have generous deadlines that only catch a
hang; no test judges time."""
import os
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
