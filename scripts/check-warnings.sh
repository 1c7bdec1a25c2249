#!/usr/bin/env bash
# `make check-warnings`: the project's own code builds without a single compiler warning —
# Sources and Tests (the package), Benchmarks (its own package) and Fuzz/Sources. Lists every
# warning as FILE:LINE:COLUMN: MESSAGE and exits 1 if there is any.
#
# How: SCROLLD_WARNINGS_AS_ERRORS=1 makes Package.swift (and Benchmarks/Package.swift) pass
# -warnings-as-errors to the project's own targets only, in scratch paths of their own
# (.build-warnings, Benchmarks/.build-warnings), so the everyday builds are left alone and the
# dependencies build as SwiftPM always builds them. A file with a warning then never compiles,
# so an incremental run finds it again (a build log alone would not: an up-to-date file is not
# compiled, and prints nothing). The Fuzz sources, which only Fuzz/build.sh builds (with
# sanitizers, in minutes), are compiled here against the debug modules, warnings as errors.
# Any other warning line in the output (SwiftPM's own, about the manifest or unhandled files)
# fails the check too; warnings from dependencies' checkouts do not count.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
scratch=.build-warnings
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
export SCROLLD_WARNINGS_AS_ERRORS=1
failed=()

echo "check-warnings: the package (Sources, Tests) in $scratch" >&2
"$SWIFT" build --build-tests --scratch-path "$scratch" >"$logs/package.log" 2>&1 || failed+=("swift build --build-tests")

echo "check-warnings: Fuzz/Sources" >&2
modules=$("$SWIFT" build --scratch-path "$scratch" --show-bin-path 2>/dev/null)/Modules
if [ -d "$modules" ]; then
    "$SWIFTC" -parse-as-library -wmo -warnings-as-errors -module-name ScrolldFuzz \
        -I "$modules" -I "$scratch/checkouts/swift-numerics/Sources/_NumericsShims/include" \
        -c Fuzz/Sources/*.swift -o "$logs/fuzz.o" >"$logs/fuzz.log" 2>&1 || failed+=("swiftc Fuzz/Sources")
else
    failed+=("Fuzz/Sources (no modules in $modules)")
fi

echo "check-warnings: Benchmarks in Benchmarks/$scratch" >&2
(cd Benchmarks && "$SWIFT" build --scratch-path "$scratch") >"$logs/benchmarks.log" 2>&1 || failed+=("Benchmarks: swift build")

# Diagnostics in the project's files (warnings, made errors); any other warning line, from
# anywhere but a dependency's checkout or a build directory.
cat "$logs"/*.log | sed "s|$root/||g" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' \
    | grep -vE '^(\.build|Benchmarks/\.build)' | sort -u >"$logs/diagnostics"
cat "$logs"/*.log | grep -E '(^|[^-])warning: ' | grep -vE '^ *\|' | grep -vE '/(\.build[^/]*|checkouts)/' \
    | sed "s|$root/||g" | grep -vE '^[^ ]+:[0-9]+:[0-9]+: ' | sort -u >>"$logs/diagnostics"

if [ -s "$logs/diagnostics" ] || [ ${#failed[@]} -gt 0 ]; then
    count=$(grep -c . "$logs/diagnostics")
    echo "check-warnings: $count diagnostics in the project's code:" >&2
    cat "$logs/diagnostics" >&2
    if [ ${#failed[@]} -gt 0 ]; then
        echo "check-warnings: failed: ${failed[*]}" >&2
        [ "$count" -gt 0 ] || { echo "(no diagnostic found: the build logs' last lines follow)" >&2; tail -n 20 "$logs"/*.log >&2; }
    fi
    exit 1
fi
echo "check-warnings: no warnings in Sources, Tests, Benchmarks or Fuzz/Sources"
