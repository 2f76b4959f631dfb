#!/usr/bin/env bash
# A short, bounded fuzzing run of every fuzz target (fuzz/), part of the test suite: each target gets
# TONGWEN_FUZZ_SECONDS (default 30) from the fixtures as seeds, without a sanitizer (a panic, a timeout
# of 10 s on one input, or more than 2 GB of memory is a failure). Longer runs: see fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${TONGWEN_FUZZ_SECONDS:-30}"
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --version '^0.13' --locked
fi
# The fuzz build has its own flags: its own folder, beside the main build's when there is a cache.
target="${CARGO_TARGET_DIR:-$PWD/target}/fuzz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for format in txt docx pdf; do
  corpus="$work/extract_$format"
  mkdir -p "$corpus"
  find "tests/fixtures/$format" "tests/fixtures/conformance" -type f -name "*.$format" \
    -exec cp {} "$corpus/" \;
  echo "== fuzz extract_$format for ${seconds} s"
  (cd fuzz && RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$target" cargo fuzz run --sanitizer none \
    "extract_$format" "$corpus" -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/" -print_final_stats=1 2>&1 | tail -n 12)
done
