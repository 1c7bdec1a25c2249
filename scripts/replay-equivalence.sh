#!/usr/bin/env bash
# Whether two builds replay every recording in the repository alike: each event log under
# examples/ and Tests/ (and each recording's own configuration, when one lies beside it), under
# the built-in defaults and under every configuration recipe in examples/, printing every
# state (the default), sampling (--every 50) and at chosen instants (--at), for every container
# the log names. Prints one line per difference and a count; exits 1 on any difference.
#
#   scripts/replay-equivalence.sh OLD_SCROLLD NEW_SCROLLD
#
# A refactoring of the session (docs/decisions.md, "The core as one step") must leave this
# empty.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1")
new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0
differences=0
while IFS= read -r log; do
    containers=$(grep -o '"container":"[^"]*"' "$log" | sort -u | sed 's/"container":"\(.*\)"/\1/')
    configs="none $(ls examples/*.toml) $(ls "$(dirname "$log")"/*.toml 2>/dev/null)"
    for container in main $containers; do
        for config in $configs; do
            for mode in "" "--every 50" "--at 0.1,0.5,1,2,5"; do
                args=(replay "$log" --container "$container")
                [ "$config" != none ] && args+=(--config "$config")
                # shellcheck disable=SC2206
                args+=($mode)
                "$old" "${args[@]}" >"$work/old.out" 2>"$work/old.err"; o=$?
                "$new" "${args[@]}" >"$work/new.out" 2>"$work/new.err"; n=$?
                runs=$((runs + 1))
                if [ "$o" != "$n" ] || ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
                    differences=$((differences + 1))
                    echo "differs: ${args[*]} (exit $o / $n, $(wc -l <"$work/old.out") / $(wc -l <"$work/new.out") lines)"
                fi
            done
        done
    done
done < <(find examples Tests -name '*.scrolllog' -not -path '*/.build/*' | sort)
echo "$runs replays, $differences differences"
[ "$differences" = 0 ]
