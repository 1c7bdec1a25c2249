#!/usr/bin/env python3
"""A scrolld client in a few lines of standard-library Python.

Subscribes to a container and prints its offset and phase as they change. Usage:
    python3 examples/client.py [CONTAINER] [--socket PATH]
"""
import json
import os
import socket
import sys


def default_socket():
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "scrolld", "scrolld.sock")
    return f"/tmp/scrolld-{os.getuid()}/scrolld.sock"


def main():
    args = sys.argv[1:]
    path = default_socket()
    if "--socket" in args:
        i = args.index("--socket")
        path = args[i + 1]
        del args[i:i + 2]
    container = args[0] if args else "main"

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        stream = s.makefile("rwb")
        welcome = json.loads(stream.readline())
        print(f"connected to {welcome['server']}, containers: {', '.join(welcome['containers'])}")
        stream.write(json.dumps({"op": "subscribe", "container": container, "id": 1}).encode() + b"\n")
        stream.flush()
        for line in stream:
            message = json.loads(line)
            if message["type"] == "error":
                sys.exit(f"scrolld: {message['code']}: {message['message']}")
            if message["type"] != "state":
                continue
            offset = message["contentOffset"]
            print(f"seq {message['seq']:>6}  y {offset['y']:>10.2f}  v {message['velocity']['y']:>9.1f}  {message['phase']}")


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    except (ConnectionRefusedError, FileNotFoundError) as error:
        sys.exit(f"scrolld is not running ({error})")
