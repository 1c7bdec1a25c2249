#!/bin/sh
# `make install` into a scratch DESTDIR: the library with its soname link and .so, the header,
# scrolld.pc and every man page; a program built with `pkg-config --cflags --libs scrolld`
# against that tree needs libscrolld.so.1 and runs; `make uninstall` removes every file.
set -eu
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
make --no-print-directory -s install DESTDIR="$dest" PREFIX=/opt/scrolld LIBDIR=/opt/scrolld/lib
test "$(readlink "$dest/opt/scrolld/lib/libscrolld.so.1")" = libscrolld.so.1.0.0
test "$(readlink "$dest/opt/scrolld/lib/libscrolld.so")" = libscrolld.so.1
test -f "$dest/opt/scrolld/include/scrolld.h"
test "$(ls man/*.3 | wc -l)" = "$(ls "$dest/opt/scrolld/share/man/man3" | wc -l)"
export PKG_CONFIG_PATH="$dest/opt/scrolld/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
cc -std=c11 -Wall -Wextra -Werror -o "$dest/example" ../examples/scrolld_example.c $(pkg-config --cflags --libs scrolld)
readelf -d "$dest/example" | grep -q 'Shared library: \[libscrolld.so.1\]'
# Without a daemon at that socket it says so (exit 69): it loaded and ran.
status=0
LD_LIBRARY_PATH="$dest/opt/scrolld/lib" "$dest/example" "$dest/nobody.sock" 2>/dev/null || status=$?
test "$status" = 69
make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/opt/scrolld LIBDIR=/opt/scrolld/lib
left=$(find "$dest/opt" -type f -o -type l | wc -l)
test "$left" = 0
echo "ok install: soname link, header, scrolld.pc (a program built with pkg-config runs), $(ls man/*.3 | wc -l) man pages; uninstall removes them"
