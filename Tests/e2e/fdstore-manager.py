#!/usr/bin/python3
"""systemd's part in a restart without loss (docs/design.md §16), for a test on the host: the socket
unit's listening socket, the notify socket with its file descriptor store, and restarts.

    fdstore-manager.py WORKDIR SCROLLD [ARGS...]

Listens on WORKDIR/s.sock (passed as fd 3, "scrolld.socket", like scrolld.socket), binds the
notify socket WORKDIR/notify.sock and keeps every descriptor sent with FDSTORE=1 under its
FDNAME (FDSTOREREMOVE=1 closes the ones of that name), as systemd does. It starts SCROLLD with
$NOTIFY_SOCKET and the store passed after the listening socket ($LISTEN_FDS, $LISTEN_FDNAMES,
$LISTEN_PID), prints "started PID" and then reads commands on stdin, answering each with a line:
  kill             SIGKILL, then start again with the store ("started PID")
  store            the names in the store, sorted ("store NAME ...")
  corrupt          4 KiB of garbage over the start of the stored session memfd ("corrupted")
  truncate         ftruncate(2) the stored session memfd to 0 bytes, as anyone holding it could
                   ("truncated N", or "refused ERRNO" when a seal forbids it)
  empty            replace the stored session with an empty memfd ("emptied")
  quit             SIGTERM and exit
Every notify message goes to WORKDIR/notify.log once it is applied to the store (a test waits
for a message's line there before it asks for the store: the daemon's messages are handled by a
thread of their own, so the store is only known to reflect what the log shows).
"""

import array
import errno
import fcntl
import os
import signal
import socket
import subprocess
import sys
import threading

work, scrolld, args = sys.argv[1], sys.argv[2], sys.argv[3:]
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(os.path.join(work, "s.sock"))
listener.listen(128)
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(os.path.join(work, "notify.sock"))
store = []  # (name, fd), in the order stored
lock = threading.Lock()
log = open(os.path.join(work, "notify.log"), "a", buffering=1)


def handle(msg, fds):
    fields = dict(line.split("=", 1) for line in msg.decode().split("\n") if "=" in line)
    with lock:
        # Logged once applied: a test that saw the line may rely on the store reflecting it.
        log.write("%s fds=%s\n" % (msg.decode().replace("\n", " "), ",".join(map(str, fds)) or "0"))
        if fields.get("FDSTORE") == "1":
            for fd in fds:
                store.append((fields.get("FDNAME", "stored"), fd))
        else:
            for fd in fds:
                os.close(fd)
        if fields.get("FDSTOREREMOVE") == "1":
            for name, fd in [e for e in store if e[0] == fields.get("FDNAME")]:
                store.remove((name, fd))
                os.close(fd)


def receive():
    # Every message is handled on its own: one that fails is logged, never the end of the store.
    while True:
        # MSG_CMSG_CLOEXEC: the stored descriptors reach a restarted daemon only where start()
        # puts them, as with systemd, never also at the numbers they have here.
        msg, anc, _, _ = notify.recvmsg(4096, socket.CMSG_SPACE(16 * 4), socket.MSG_CMSG_CLOEXEC)
        fds = []
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds += array.array("i", data[: len(data) - len(data) % 4])
        try:
            handle(msg, fds)
        except Exception as error:  # noqa: BLE001 - reported in the log the test prints
            log.write("manager error: %r on %r\n" % (error, msg))


threading.Thread(target=receive, daemon=True).start()


def start():
    with lock:
        passed = [("scrolld.socket", listener.fileno())] + list(store)

    def arrange():
        # The passed descriptors at 3, 4, …, in order (moved out of the way first), and
        # LISTEN_PID naming this process, as systemd sets them up between fork and exec.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100) for _, fd in passed]
        for index, fd in enumerate(high):
            os.dup2(fd, 3 + index)
        os.environ["LISTEN_PID"] = str(os.getpid())

    env = dict(os.environ, NOTIFY_SOCKET=os.path.join(work, "notify.sock"), LISTEN_FDS=str(len(passed)),
               LISTEN_FDNAMES=":".join(name for name, _ in passed))
    env.pop("LISTEN_PID", None)
    os.environ.clear()
    os.environ.update(env)
    with open(os.path.join(work, "scrolld.log"), "a") as output:
        child = subprocess.Popen([scrolld] + args, close_fds=False, preexec_fn=arrange, stdout=output, stderr=subprocess.STDOUT)
    print("started %d" % child.pid, flush=True)
    return child


child = start()
for command in sys.stdin:
    command = command.strip()
    if command == "kill":
        child.send_signal(signal.SIGKILL)
        child.wait()
        child = start()
    elif command == "store":
        with lock:
            print("store " + " ".join(sorted(name for name, _ in store)), flush=True)
    elif command == "corrupt":
        with lock:
            session = [fd for name, fd in store if name == "session"]
        for fd in session:
            os.pwrite(fd, os.urandom(4096), 0)
        print("corrupted %d" % len(session), flush=True)
    elif command == "truncate":
        with lock:
            session = [fd for name, fd in store if name == "session"]
        try:
            for fd in session:
                os.ftruncate(fd, 0)
            print("truncated %d" % len(session), flush=True)
        except OSError as error:
            print("refused %s" % errno.errorcode.get(error.errno, error.errno), flush=True)
    elif command == "empty":
        with lock:
            for name, fd in [e for e in store if e[0] == "session"]:
                store.remove((name, fd))
                os.close(fd)
            store.append(("session", os.memfd_create("empty", os.MFD_CLOEXEC)))
        print("emptied", flush=True)
    elif command == "quit":
        break
child.send_signal(signal.SIGTERM)
child.wait()
