#!/bin/bash -eu
# Builds every fuzz target for ClusterFuzzLite (and OSS-Fuzz, which runs the same script) and
# ships each with a seed corpus generated from the conformance vectors and the JSON dictionary.
cd "$SRC/canonfuzz"

# Two fuzz directories: fuzz/ (the core alone) and fuzz/differential/ (libraries compared in
# process), built into one target directory so that what they share is built once.
for dir in fuzz fuzz/differential; do
  cargo fuzz build -O --debug-assertions --fuzz-dir "$dir" --target-dir fuzz/target
done
built=fuzz/target/x86_64-unknown-linux-gnu/release

# The seed tool is an ordinary build: keep the fuzzing flags and directories out of it. A
# caller that has built it already names it in CANONFUZZ_SEEDS_TOOL.
tool=${CANONFUZZ_SEEDS_TOOL:-}
if [ -z "$tool" ]; then
  (
    unset RUSTFLAGS CFLAGS CXXFLAGS LIB_FUZZING_ENGINE
    cargo build --release --locked --bin canonfuzz --target-dir "$WORK/tools"
  )
  tool="$WORK/tools/release/canonfuzz"
fi
"$tool" seeds --corpus corpus --out "$WORK/seeds"

# Every target a family registers that checks a property; the speed baseline stays home.
for target in $("$tool" list fuzz-targets | awk '$3 == "checks" { print $1 }'); do
  cp "$built/$target" "$OUT/"
  (cd "$WORK/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  cp fuzz/jcs.dict "$OUT/$target.dict"
done
