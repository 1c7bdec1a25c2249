"""A real scrolld process for the tests: started on a private socket, stopped (or killed) and
started again on the same socket."""
import json
import os
import signal
import socket
import subprocess
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
#: A deadline that only catches a hang.
DEADLINE = 30.0

QUIET_LOG = [
    {"t": 1_000_000, "dev": 1, "type": "device_added", "name": "Test Wheel", "caps": ["wheel"]},
]


def scrolld_bin() -> str:
    return os.environ.get("SCROLLD_BIN") or os.path.join(REPO, ".build", "debug", "scrolld")


def scrollctl_bin() -> str:
    """scrollctl beside the scrolld in use ($SCROLLCTL_BIN overrides)."""
    return os.environ.get("SCROLLCTL_BIN") or os.path.join(os.path.dirname(scrolld_bin()), "scrollctl")


def write_log(path, events, source="python client tests"):
    """An event log (docs/design.md §3): the header, then `events` in order."""
    header = {"format": "scrolld-events", "version": 1, "created": "2026-11-25T00:00:00Z", "source": source}
    with open(path, "w") as f:
        for line in [header] + list(events):
            f.write(json.dumps(line) + "\n")
    return str(path)


def wait_for(condition, what, deadline=DEADLINE, interval=0.02):
    """Polls `condition` until it is true; fails (never passes) on the deadline."""
    end = time.monotonic() + deadline
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {deadline} s waiting for {what}")
        time.sleep(interval)


class Daemon:
    def __init__(self, directory, replay, config=None, extra=(), name="scrolld.sock"):
        self.directory = str(directory)
        self.socket = os.path.join(self.directory, name)
        self.replay = replay
        self.config = config or "/dev/null"
        self.extra = list(extra)
        self.process = None
        self.starts = 0

    def start(self):
        binary = scrolld_bin()
        assert os.access(binary, os.X_OK), f"no scrolld at {binary}: build it (make test does) or set SCROLLD_BIN"
        self.starts += 1
        self.stderr_path = os.path.join(self.directory, f"scrolld-{self.starts}.stderr")
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                [binary, "run", "--replay", self.replay, "--socket", self.socket, "--config", self.config] + self.extra,
                stdout=subprocess.DEVNULL, stderr=stderr, stdin=subprocess.DEVNULL)
        wait_for(self.accepts, f"scrolld to listen on {self.socket} ({self.stderr_path})")

    def accepts(self):
        if self.process.poll() is not None:
            raise AssertionError(f"scrolld exited with {self.process.returncode}: {self.stderr()}")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(self.socket)
            return True
        except OSError:
            return False
        finally:
            probe.close()

    def stderr(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def kill(self):
        """SIGKILL: the daemon goes away without a word, its socket file left behind."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(DEADLINE)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(DEADLINE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
