#!/usr/bin/env bash
# Builds the fuzz binary, .build/fuzz/scrolld-fuzz: libFuzzer with AddressSanitizer (and so
# LeakSanitizer) around the real ScrollProtocol, ScrollLog and ScrollConfig sources.
#
# Why this way: SwiftPM cannot link an executable target with -sanitize=fuzzer (it renames the
# entry point, and libFuzzer brings its own main), so SwiftPM builds only the library targets,
# instrumented and optimised (release), in a scratch path of their own so that the ordinary
# debug and release builds are left alone. The sanitizers are given as compiler flags, not as
# `--sanitize fuzzer --sanitize address`: SwiftPM passes those to swiftc as two -sanitize= flags
# in no fixed order and swiftc keeps only the last, so half the time the Swift code got no
# coverage (or no AddressSanitizer). The objects are checked for both. That also builds the
# dependencies as the package pins them: swift-numerics' RealModule with its C shims, and
# scrolld's own TOML reader, instrumented too. Then swiftc compiles Fuzz/Sources
# against those modules and links one binary from all their objects; it serves every target,
# chosen at run time by SCROLLD_FUZZ_TARGET (see Fuzz/run.sh), so there is one build, not four.
#
# Usage: Fuzz/build.sh    (SWIFT=… and SWIFTC=… pick other toolchain commands)
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
SCRATCH=.build/fuzz
PRODUCTS=$SCRATCH/release
OUTPUT=$SCRATCH/scrolld-fuzz

# ScrollProtocol brings ScrollJSON, ScrollModel and RealModule; ScrollTranscript brings ScrollLog;
# ScrollConfig brings TOML.
for target in ScrollProtocol ScrollTranscript ScrollConfig; do
    "$SWIFT" build -c release --scratch-path "$SCRATCH" --target "$target" \
        -Xswiftc -sanitize=fuzzer,address \
        -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address
done

objects=()
for module in _NumericsShims RealModule ScrollModel ScrollJSON ScrollLog ScrollTranscript ScrollProtocol TOML ScrollConfig; do
    found=$(find "$PRODUCTS/$module.build" -name '*.o' | sort)
    if [ -z "$found" ]; then
        echo "Fuzz/build.sh: no objects for $module in $PRODUCTS/$module.build" >&2
        exit 1
    fi
    while IFS= read -r object; do objects+=("$object"); done <<<"$found"
    # Coverage feedback and AddressSanitizer, in every module with code (_NumericsShims has
    # only inline functions in its header, compiled where they are used).
    [ "$module" = _NumericsShims ] && continue
    symbols=$(for object in $found; do nm -u "$object"; done)
    for hook in __sanitizer_cov_8bit_counters_init __asan_init; do
        if ! grep -q "$hook" <<<"$symbols"; then
            echo "Fuzz/build.sh: $module was built without $hook (coverage or AddressSanitizer missing)" >&2
            exit 1
        fi
    done
done

checkouts=$SCRATCH/checkouts
echo "Linking $OUTPUT"
"$SWIFTC" -O -parse-as-library -sanitize=fuzzer,address -use-ld=lld -module-name ScrolldFuzz \
    -I "$PRODUCTS/Modules" \
    -I "$checkouts/swift-numerics/Sources/_NumericsShims/include" \
    Fuzz/Sources/*.swift "${objects[@]}" \
    -o "$OUTPUT"
