#!/bin/sh
# The shared library exports exactly the symbols libscrolld.map lists (every one of them, and
# nothing else, not even a global of the library's own files), under the version LIBSCROLLD_1,
# and carries the soname.
# usage: check-symbols.sh LIBRARY MAP SONAME
set -eu
library=$1 map=$2 soname=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^[[:space:]]*\(scrolld_[a-z0-9_]*\);$/\1/p' "$map" | sort > "$tmp/listed"
# Defined dynamic symbols, without the version node itself.
nm -D --defined-only "$library" | awk '{print $3}' | grep -v '^LIBSCROLLD_1$' | sed 's/@@LIBSCROLLD_1$//' | sort > "$tmp/exported"
if ! diff -u "$tmp/listed" "$tmp/exported"; then
    echo "$library exports other symbols than $map lists (- listed only, + exported only)" >&2
    exit 1
fi
unversioned=$(nm -D --defined-only "$library" | awk '{print $3}' | grep -v '^LIBSCROLLD_1$' | grep -vc '@@LIBSCROLLD_1$' || true)
if [ "$unversioned" != 0 ]; then
    echo "$library: $unversioned exported symbols lack the version LIBSCROLLD_1" >&2
    exit 1
fi
if ! readelf -d "$library" | grep -q "Library soname: \[$soname\]"; then
    echo "$library: no soname $soname" >&2
    exit 1
fi
# Exported, and declared in the header: every listed symbol is in scrolld.h.
header=$(dirname "$map")/include/scrolld.h
while read -r symbol; do
    grep -q "\\b$symbol(" "$header" || { echo "$symbol is exported but not declared in $header" >&2; exit 1; }
done < "$tmp/listed"
echo "ok symbols: $(wc -l < "$tmp/exported") exported, as libscrolld.map lists; soname $soname"
