"""The widget recipes in examples/widgets: the waybar modules and eww's deflisten variables,
parsed as waybar and eww read them, and their commands run against a real daemon while the
test scrolls. With a scrollctl that has `observe`, the commands run as written; with one
that has not (yet), `scrollctl observe` is played by `python3 -m scrolld observe`, the same
lines through this package."""
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading

import pytest

import scrolld
from daemon import DEADLINE, QUIET_LOG, REPO, Daemon, scrollctl_bin, write_log

WIDGETS = os.path.join(REPO, "examples", "widgets")
# main with a collapsing header, so header.progress has a value: (120 - height) / 70.
CONFIG = """[containers.main]
contentSize = "800x20000"
[containers.main.header]
min_height = 50
max_height = 120
"""


def jsonc(path):
    """waybar's config: JSON with // comments (none inside these strings)."""
    with open(path) as f:
        text = "".join(re.sub(r"^\s*//.*$", "", line) for line in f)
    return json.loads(text)


def yuck(path):
    """eww's configuration language as nested lists: symbols, keywords and strings."""
    with open(path) as f:
        text = f.read()
    tokens = re.findall(r';[^\n]*|"(?:\\.|[^"\\])*"|\'[^\']*\'|`[^`]*`|[()\[\]]|[^\s()\[\]]+', text)
    stack = [[]]
    for token in tokens:
        if token.startswith(";"):
            continue
        if token in "([":
            stack.append([])
        elif token in ")]":
            done = stack.pop()
            stack[-1].append(done)
        elif token[0] in "\"'`":
            stack[-1].append(("string", token[1:-1].replace('\\"', '"')))
        else:
            stack[-1].append(token)
    assert len(stack) == 1, f"{path}: unbalanced parentheses"
    return stack[0]


def deflistens(forms):
    found = {}
    for form in forms:
        if form and form[0] == "deflisten":
            name, rest = form[1], form[2:]
            options = {rest[i]: rest[i + 1] for i in range(0, len(rest) - 1, 2) if str(rest[i]).startswith(":")}
            command = rest[-1]
            assert isinstance(command, tuple), f"deflisten {name}: the command must be a string"
            found[name] = (options, command[1])
    return found


def symbols(forms):
    for form in forms:
        if isinstance(form, list):
            yield from symbols(form)
        elif isinstance(form, tuple):
            yield form[1]
        else:
            yield form


@pytest.fixture
def widget_env(tmp_path):
    """A daemon on the default socket of an XDG_RUNTIME_DIR of our own, and a PATH whose
    scrollctl has `observe`."""
    runtime = tmp_path / "run"
    (runtime / "scrolld").mkdir(parents=True, mode=0o700)
    runtime.chmod(0o700)
    config = tmp_path / "scrolld.toml"
    config.write_text(CONFIG)
    daemon = Daemon(runtime / "scrolld", write_log(tmp_path / "quiet.scrolllog", QUIET_LOG), config=str(config))
    daemon.start()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scrollctl = scrollctl_bin()
    has_observe = os.access(scrollctl, os.X_OK) and subprocess.run(
        [scrollctl, "observe", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=DEADLINE
    ).stdout.decode().startswith("OVERVIEW: Print a value")
    shim = bin_dir / "scrollctl"
    if has_observe:
        shim.symlink_to(scrollctl)
    else:
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        shim.write_text(f'#!/bin/sh\n[ "$1" = observe ] || exit 64\n'
                        f'PYTHONPATH="{package}" exec "{sys.executable}" -m scrolld "$@"\n')
        shim.chmod(0o755)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), PATH=f"{bin_dir}:{os.environ['PATH']}")
    yield daemon, env
    daemon.stop()


class Command:
    """A widget's command in `sh -c`, as waybar and eww run it; its lines on a queue."""

    def __init__(self, command, env):
        self.process = subprocess.Popen(["sh", "-c", command], env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.decode())
        self.lines.put(None)

    def next(self):
        try:
            line = self.lines.get(timeout=DEADLINE)
        except queue.Empty:
            raise AssertionError(f"no line from the widget's command within {DEADLINE} s")
        assert line is not None, f"the command exited: {self.process.stderr.read().decode()}"
        return json.loads(line)

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(DEADLINE)


def test_waybar_modules_show_phase_and_header_progress(widget_env):
    daemon, env = widget_env
    require_jq()
    config = jsonc(os.path.join(WIDGETS, "waybar-scrolld.jsonc"))
    modules = {name: config[name] for name in config["modules-right"]}
    assert set(modules) == {"custom/scroll-phase", "custom/scroll-header"}
    for module in modules.values():
        assert module["return-type"] == "json" and "scrollctl observe main" in module["exec"]

    phase = Command(modules["custom/scroll-phase"]["exec"], env)
    header = Command(modules["custom/scroll-header"]["exec"], env)
    try:
        assert phase.next() == {"text": "idle", "class": "idle", "tooltip": "scrolld main: idle"}
        assert header.next() == {"text": "0%", "percentage": 0, "tooltip": "header collapsed 0%"}
        with scrolld.Client(daemon.socket) as client:
            client.scroll_to("main", y=35, animation="none")  # progress 35 / 70
            assert header.next()["percentage"] == 50
            client.scroll_to("main", y=0, animation=scrolld.spring(0.2))
            assert phase.next()["class"] == "animating"
            assert phase.next()["class"] == "idle"
    finally:
        phase.stop()
        header.stop()


def test_eww_deflisten_variables_follow_the_container(widget_env):
    daemon, env = widget_env
    forms = yuck(os.path.join(WIDGETS, "eww-scrolld.yuck"))
    variables = deflistens(forms)
    assert set(variables) == {"scroll-phase", "scroll-header"}
    used = " ".join(str(s) for s in symbols(forms))
    for name, (options, command) in variables.items():
        assert json.loads(options[":initial"][1])["new"] is not None
        assert f"{{{name}.new" in used, f"the widget never reads {name}"
        assert command.startswith("scrollctl observe main ") and command.endswith(" --json")

    phase = Command(variables["scroll-phase"][1], env)
    header = Command(variables["scroll-header"][1], env)
    try:
        assert phase.next()["new"] == "idle"
        assert header.next()["new"] == 0
        with scrolld.Client(daemon.socket) as client:
            client.scroll_to("main", y=70, animation="none")
            change = header.next()
            assert (change["type"], change["of"], change["old"], change["new"]) == \
                ("observation", "header.progress", 0, 1)
            client.scroll_by("main", dy=-35, animation="snappy")
            assert phase.next()["new"] == "animating"
    finally:
        phase.stop()
        header.stop()


def require_jq():
    assert shutil.which("jq"), "jq is missing: `make test-python-deps` installs it"
