#!/usr/bin/env bash
# Fuzzes idflow's parsers of outside input with libFuzzer (DESIGN.md, "Fuzzing").
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [TARGET…]   run each target N seconds (default 60), J at a time (default 1)
#   scripts/fuzz.sh --list                               name the targets and what each feeds
#
# Builds `idflow-fuzz` (every target in one binary, libFuzzer + AddressSanitizer) in .build-fuzz/, which git
# ignores, and runs each target from its corpus: .build-fuzz/corpus/TARGET (what the fuzzer found worth keeping,
# kept between runs), seeded from Fuzz/Seeds/TARGET and the recorded responses of Tests/Fixtures, with the
# dictionary Fuzz/idflow.dict. A crash, leak, input slower than 1 s or heavier than 512 MiB is a finding: the
# run exits 1 and names the folder with the reproducer (.build-fuzz/findings/TARGET/). Replay one with
#   IDFLOW_FUZZ_TARGET=TARGET .build-fuzz/debug/idflow-fuzz FILE
# Ends with a markdown table of executions and coverage (libFuzzer's cov:) per target.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=1
list=false
targets=()
while (($#)); do
    case "$1" in
        --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
        --seconds=*) seconds="${1#*=}"; shift ;;
        --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
        --list) list=true; shift ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds takes whole seconds, not $seconds" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs takes a positive number, not $jobs" >&2; exit 2; }

scratch=.build-fuzz
binary="$scratch/debug/idflow-fuzz"
echo "fuzz.sh: building idflow-fuzz (libFuzzer, AddressSanitizer) in $scratch/" >&2
IDFLOW_FUZZ=1 swift build --scratch-path "$scratch" --product idflow-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2

if $list; then
    IDFLOW_FUZZ_TARGET=--list "$binary" 2>/dev/null
    exit 0
fi
known=$(IDFLOW_FUZZ_TARGET=--list "$binary" 2>/dev/null | cut -f1)
if ((${#targets[@]} == 0)); then
    mapfile -t targets <<<"$known"
fi
for target in "${targets[@]}"; do
    grep -qx -- "$target" <<<"$known" || { echo "fuzz.sh: no target $target; --list names them" >&2; exit 2; }
done

# The recorded responses each target starts from, besides Fuzz/Seeds/TARGET.
fixtures_for() {
    case "$1" in
        idx) echo Tests/Fixtures/okta-idx/*.json Tests/Fixtures/okta-idx-widget/*.json ;;
        okta-response) echo Tests/Fixtures/okta-core/{user,authn,error}-*.json Tests/Fixtures/okta-devices/error-*.json ;;
        oauth-response) echo Tests/Fixtures/okta-core/{oauth,oidc}-*.json Tests/Fixtures/okta-oauth-service/token-*.json Tests/Fixtures/okta-devices/oauth2-*.json ;;
        push) echo Tests/Fixtures/okta-devices/*.json ;;
        redactor) echo Tests/Fixtures/okta-core/*.json Tests/Fixtures/okta-idx/0*.json Tests/Fixtures/okta-oauth-service/*.json ;;
    esac
}

results="$scratch/results"
rm -rf "$results"
mkdir -p "$results"

run_target() {
    local target="$1"
    local corpus="$scratch/corpus/$target" seeds="$scratch/seeds/$target" findings="$scratch/findings/$target"
    mkdir -p "$corpus" "$findings"
    rm -rf "$seeds"
    mkdir -p "$seeds"
    [[ -d "Fuzz/Seeds/$target" ]] && cp "Fuzz/Seeds/$target"/* "$seeds/"
    for file in $(fixtures_for "$target"); do
        # Two folders may hold a file of the same name: the second is kept beside the first.
        local seed
        seed="$seeds/$(basename "$file")"
        [[ -e "$seed" ]] && seed="$seeds/$(basename "$(dirname "$file")")-$(basename "$file")"
        if [[ "$target" == idx ]]; then
            # The embedded sign-in follows forms on the org's host only: the recordings' hosts become the test
            # org's, as RecordedIdentityEngine.reply makes them for the tests.
            sed -E 's#"href"( *): *"https?://[^/"]+#"href"\1: "https://example.com#g; s#https://(foo\.okta(preview)?\.com|ios-idx-sdk\.okta\.com)#https://example.com#g' \
                "$file" >"$seed"
        else
            cp "$file" "$seed"
        fi
    done
    local log="$results/$target.log"
    local status=0
    # A Swift trap is a deadly signal for libFuzzer; Swift's own backtracer would run into AddressSanitizer.
    IDFLOW_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" "$binary" "$corpus" "$seeds" \
        -dict=Fuzz/idflow.dict -max_total_time="$seconds" -timeout=1 -rss_limit_mb=512 -malloc_limit_mb=512 \
        -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || status=$?
    local execs cov
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 || true)
    cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
    if ((status == 0)); then
        echo -e "$target\t${execs:-?}\t${cov:-?}\tno finding" >"$results/$target.row"
    else
        local what
        what=$(grep -m1 -oE 'Fatal error: .*|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-zA-Z -]+' "$log" || echo "exit $status")
        echo -e "$target\t${execs:-?}\t${cov:-?}\tFINDING: $what (reproducer in $findings/, log $log)" >"$results/$target.row"
    fi
    echo "fuzz.sh: $(cut -f1,4 "$results/$target.row" | tr '\t' ' ')" >&2
}

echo "fuzz.sh: ${#targets[@]} target(s), ${seconds}s each, $jobs at a time" >&2
running=0
for target in "${targets[@]}"; do
    run_target "$target" &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

echo
echo "| target | executions | coverage (cov:) | result |"
echo "|---|---|---|---|"
failed=0
for target in "${targets[@]}"; do
    IFS=$'\t' read -r name execs cov result <"$results/$target.row"
    echo "| $name | $execs | $cov | $result |"
    [[ "$result" == "no finding" ]] || failed=1
done
exit $failed
