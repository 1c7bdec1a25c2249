"""Every ```python example in docs/clients.md runs, as written, against a real daemon on the
default socket (XDG_RUNTIME_DIR points at the test's own), and runs again on the same daemon."""
import os
import re
import subprocess
import sys

import pytest

from daemon import DEADLINE, QUIET_LOG, REPO, Daemon, write_log

DOC = os.path.join(REPO, "docs", "clients.md")
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def examples():
    with open(DOC) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


def test_the_guide_has_examples():
    assert len(examples()) >= 5


@pytest.mark.parametrize("index", range(len(examples())))
def test_example_runs(tmp_path, index):
    runtime = tmp_path / "run"
    (runtime / "scrolld").mkdir(parents=True, mode=0o700)
    runtime.chmod(0o700)
    daemon = Daemon(runtime / "scrolld", write_log(tmp_path / "quiet.scrolllog", QUIET_LOG))
    daemon.start()
    try:
        env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), PYTHONPATH=PACKAGE)
        # Twice on the same daemon: a reader tries an example again, and it must not depend on
        # a daemon nobody has used (what its first run left behind).
        for run in ("first", "second"):
            result = subprocess.run([sys.executable, "-c", examples()[index]], env=env, cwd=str(tmp_path),
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=DEADLINE)
            assert result.returncode == 0, f"example {index + 1} of docs/clients.md failed on its {run} run:\n{result.stdout.decode()}"
    finally:
        daemon.stop()
