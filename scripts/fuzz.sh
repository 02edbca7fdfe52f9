#!/usr/bin/env bash
# Fuzzes targets one after another, then minimises each one's corpus into fuzz/corpus/TARGET.
#
#   scripts/fuzz.sh SECONDS TARGET...     e.g. scripts/fuzz.sh 3600 fen pgn ws
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Each target runs for
# SECONDS of wall time at `nice -n 19` (it gives way to everything else on the machine); its
# CPU time (user + system, by /usr/bin/time), executions and coverage go to one line of
# fuzz/runs/summary.tsv (started, target, wall s, CPU s, executions, coverage, corpus files
# before->after, crashes): the figures docs/fuzzing.md records. SIGINT to the fuzzer itself
# (`pkill -INT -f release/TARGET`) ends its run early; what it found is still minimised. A crash
# stops the run and leaves its input in fuzz/artifacts/TARGET/.
set -euo pipefail

seconds=${1:?usage: scripts/fuzz.sh SECONDS TARGET...}
shift
[ $# -gt 0 ] || { echo "usage: scripts/fuzz.sh SECONDS TARGET..." >&2; exit 2; }
cd "$(dirname "$0")/../fuzz"
mkdir -p runs

# Every target is built with both features, so one build serves all of them.
nice -n 19 cargo +nightly fuzz build --features server,variants
# cargo fuzz builds for the host's target triple.
bin_dir=target/$(rustc +nightly -vV | sed -n 's/^host: //p')/release

# Options by target: mail is large. The timeout is wall time: a fuzzer at nice 19 beside a
# busy machine (a CI run compiling) once waited 10 s for an input that runs in a fraction of
# a second, which ended its run.
# Crash, timeout and slow inputs go to artifacts/TARGET/ (libFuzzer's default is the folder
# it runs in).
options_of() {
  mkdir -p "artifacts/$1"
  local options=(-timeout=60 -rss_limit_mb=2048 -print_final_stats=1 "-artifact_prefix=artifacts/$1/")
  case $1 in
    ws) options+=(-max_len=4096 -dict=dicts/ws.dict) ;;
    mail) options+=(-max_len=65536) ;;
    *) options+=(-max_len=4096) ;;
  esac
  echo "${options[@]}"
}

for target in "$@"; do
  stamp=$(date -u +%Y%m%dT%H%M%S)
  found=runs/$target-$stamp
  log=runs/$target-$stamp.log
  mkdir -p "$found"
  echo "fuzzing $target for $seconds s (log $log)"
  # libFuzzer writes what it finds into the first folder and reads the corpus from the second.
  # shellcheck disable=SC2046
  /usr/bin/time -f 'times %e %U %S' -o "$log.time" \
    nice -n 19 "$bin_dir/$target" $(options_of "$target") -max_total_time="$seconds" \
    "$found" "corpus/$target" > "$log" 2>&1 || true
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
  wall=$(awk '/^times/ { printf "%.0f", $2 }' "$log.time")
  cpu=$(awk '/^times/ { printf "%.0f", $3 + $4 }' "$log.time")
  crashes=$(find "artifacts/$target" -type f -newer "$found" | wc -l)

  # Minimise: a fresh folder gets the smallest set of inputs that keeps the coverage of both.
  before=$(find "corpus/$target" -type f | wc -l)
  minimised=runs/$target-$stamp-min
  mkdir -p "$minimised"
  # shellcheck disable=SC2046
  nice -n 19 "$bin_dir/$target" $(options_of "$target") -merge=1 "$minimised" \
    "corpus/$target" "$found" > "$log.merge" 2>&1
  rm -rf "corpus/$target"
  mv "$minimised" "corpus/$target"
  after=$(find "corpus/$target" -type f | wc -l)

  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$target" "$wall" "$cpu" \
    "${executions:-?}" "${coverage:-?}" "$before->$after" "$crashes" | tee -a runs/summary.tsv
done
