#!/bin/sh
# A scrolld client in shell with socat: ask for one state, then scroll to 500 with a spring.
# Usage: examples/client.sh [SOCKET]
if [ -n "$1" ]; then
  socket=$1
elif [ -n "$XDG_RUNTIME_DIR" ]; then
  socket=$XDG_RUNTIME_DIR/scrolld/scrolld.sock
else
  socket=/tmp/scrolld-$(id -u)/scrolld.sock
fi
printf '%s\n' \
  '{"op":"get","container":"main","id":1}' \
  '{"op":"scrollTo","container":"main","y":500,"animation":"smooth","id":2}' \
  | socat -t 1 - "UNIX-CONNECT:$socket"
