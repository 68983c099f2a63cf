#!/usr/bin/env bash
# `exrview thumbs` (cold cache) against a cold full decode on the lent 16-core machine: bench/thumbs-vs-decode.mjs over
# the 40 files .cpu/run.sh decodes (10 copies each of its ZIP, PIZ, DWAA and B44A files); SET=30 leaves the ZIP file
# out, as the figures before b9e6680 did (sharp then travelled too, and with the ZIP file was over the 64 MB the device
# carries; the PNGs are now made by the native kernels, and sharp is not loaded).
#
# Prepare here (after ../shared/tools/cpu-kit.sh and npm run build): bash bench/cpu-thumbs.sh --prepare (makes the
# git-ignored .thumbkit/). With the device tool, carry [".thumbkit", "dist/cli.mjs", "dist/decode-worker.mjs",
# "dist/native"], command `bash bench/cpu-thumbs.sh` (ROUNDS=5 by default). The last line is thumbs-vs-decode's JSON.
#
# What moved the figure (thumbs over the cold decode; the full story is in git log -p of this file): the workers holding
# their next band, tone-mapping in the finishing worker, native finishing and box filter (1.17-1.26x -> ~1.0x); the
# descriptor table grown before the workers start (worker-process.ts; 0.97-1.10x); then at b9e6680 the finishing worker
# encoding the PNG natively and writing it and the cache file, which took sharp's pipelines and the file I/O off the
# main thread (its reply latency 0.4-0.9 ms -> ~0.1 ms median). This script at b9e6680, 8-10 rounds a run: SET=30 on
# H200 hosts 0.991x, 0.971x, 0.998x, on an H100 host 0.944x; the 40 files 0.983x and 1.007x (H100), 0.963x and
# 0.959x (H200).
# .thumbkit A/B (builds interleaved, 12 rounds, H200, 30 files): 1.041x before, 0.966x after. ZIP files leave the least
# room: their inflate is the same work in both commands (bench's thumbnail pass 0.99x its decode on ZIP alone).
# Then (per-task traces from a diagnostic build) a fresh worker's first band spent 8-18 ms building its axis bin tables in
# V8's interpreter, and the finishing took ~3 ms a thumbnail: at 1f764e8/35a23cb (tables by arithmetic; finishing's
# divisions and halves as vectors), .thumbkit A/B interleaved (10 rounds, H200) 0.984x -> 0.959x, and this script's
# 40 files, 8 rounds, two runs on one H200 host: 0.939x and 0.936x, one on an H100 host: 0.918x; bench's own thumbnail
# pass 0.86-0.88x its decode (was 0.93-0.99).
# At eccbbf5 (a worker's header open does less), ROUNDS=8 on an H100 host: 0.952x (cold decode 254.3 ms, thumbs 242 ms).
# At 637fbd8 (the worker warm-up reworked for the cold decode, which got ~4% faster), .thumbkit A/B interleaved, 8
# rounds, one H100 host, thumbs over the cold decode (medians of the per-round ratios): 899e9cd 0.988, 3930dcb 1.0,
# 637fbd8 0.981 (per-round 0.90-1.04); on another host 899e9cd 0.993 against 3930dcb 1.039. This script: 1.074x at
# 3930dcb (5 rounds), 0.857x at 637fbd8 on a host whose cold decodes ranged 249-356 ms (8 rounds).
# .thumbkit A/B against c213f6c, interleaved, H100 hosts: the box filter's bin runs by masked vectors and PIZ codes
# gathered sixteen at a time (236112c's bins.c alone), 10 rounds: 0.991 -> 0.973; all of 236112c (the ZIP predictor
# by AVX-512 too), 8 rounds on another host: 0.969 -> 0.943 (cold decode 271.0 and 277.2 ms, thumbs 270.5 -> 254.5). At 02b1483 (Huffman tables built
# from the coded symbols only: DWA's decode a quarter faster), thumbs-vs-decode on the 40 files (6 rounds, H100):
# 0.929 (cold decode 253.0 ms, thumbs 235 ms; resize 531 ms, decompress 2,325 ms summed over workers).
# At 35b893e (thumbs-vs-decode pauses 4 s before each cold command), the 40 files' thumbs-vs-decode, 6 rounds, on an
# H100 host: 0.943 by medians (cold decode 201.4 ms, thumbs 190), 0.94 by the best runs, per round 0.83-1.01.
# Hosts differ by ~10% from run to run: a slow run here was every worker slowed at once with no kernel wait (sampled
# with bench/thread-states.c), so compare builds only interleaved on one machine.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = --prepare ]; then
  mkdir -p .thumbkit/set && cp .cpu/node.xz .thumbkit/ && cp .cpu/set/*.exr .thumbkit/set/
  grep -qx '/.thumbkit/' .git/info/exclude 2>/dev/null || echo '/.thumbkit/' >> .git/info/exclude
  du -sh .thumbkit
  exit 0
fi
mkdir -p /tmp/n && xz -dc .thumbkit/node.xz > /tmp/n/node && chmod +x /tmp/n/node
export PATH=/tmp/n:$PATH
D=/tmp/set${SET:-40}; mkdir -p $D
files=(.thumbkit/set/*.exr); [ "${SET:-40}" = 30 ] && files=(.thumbkit/set/*_piz.exr .thumbkit/set/*_dwaa.exr .thumbkit/set/*_b44a.exr)
for i in $(seq 1 10); do for f in "${files[@]}"; do cp "$f" "$D/$(basename "$f" .exr)_$i.exr"; done; done
cat $D/*.exr > /dev/null
node bench/thumbs-vs-decode.mjs $D --rounds "${ROUNDS:-5}"
