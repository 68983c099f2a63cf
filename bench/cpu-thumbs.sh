#!/usr/bin/env bash
# `exrview thumbs` (cold cache) against a cold full decode on the lent 16-core machine: bench/thumbs-vs-decode.mjs over
# 30 files, 10 copies each of the PIZ, DWAA and B44A files of the .cpu set. The ZIP file is left out because with it,
# Node, the set and sharp (thumbs writes PNGs) come to 73 MB, over the 64 MB the device carries.
#
# Prepare here (after ../shared/tools/cpu-kit.sh and npm run build): bash bench/cpu-thumbs.sh --prepare (makes the
# git-ignored .thumbkit/). With the device tool, carry [".thumbkit", "node_modules/sharp", "node_modules/@img",
# "node_modules/detect-libc", "node_modules/semver", "dist/cli.mjs", "dist/decode-worker.mjs", "dist/native"], command
# `bash bench/cpu-thumbs.sh` (ROUNDS=5 by default). The last line is thumbs-vs-decode's JSON.
#
# Measured 2026-11-26 at 33dc2f9 (H200 machine): thumbs 1.17-1.26x the cold decode (medians of 3 runs of 4-5 rounds;
# with UV_THREADPOOL_SIZE=16, 1.24-1.33x), while bench's thumbnail pass ran 0.92-1.0x its decode pass. The command's main thread was busy 180 of the last 320 ms
# (a --cpu-prof profile: tone mapping, band messages, PNG and cache writes), and its workers wait on it for bands.
# At abf8eba (workers hold their next band; headers from the library; tone-mapping in the finishing worker; cache
# writes without a copy), three runs of 5 rounds: 1.074x, 1.146x, 1.079x; thumbs on a warm cache 44-49 ms (was 75).
# Traced then: the workers still idle ~350-480 ms in all (the decode's: 16-46 ms), each waiting for the main thread to
# post its next band (~90 of the command's ~170 ms busy: PNG encodes' and cache writes' file calls, crc32, sharp's
# pipelines, GC, band messages).
# At a5646eb (the last band finishes a row at a time in its own buffers, tone-mapping natively through the memo; no
# whole sums in shared memory; no copy on the main thread) five runs: 0.957, 1.007, 1.099, 1.011, 0.980. In --cpu-prof
# profiles of 7 of the 16 workers (before: on an H100 host; after: on an H200 host), finishing (adding up, halves,
# tone-map) went from 19% of their busy time to 1%; then per-band file opens (open, fstat, header parse) were 7% and the
# box filter's PIZ table lookups 14%. At 7ab6730 (those lookups as AVX2 gathers): 0.918, 0.939, 1.047.
# Without PNGs and cache writes (a diagnostic build) thumbs took ~6% less: the output's share on this machine.
# At b9b8163 the cold decode got faster (plane buffers in size classes: 28-40 made instead of 68-80), the thumbnails
# did not: .thumbkit/ab2.sh (builds interleaved, 8 rounds, H200 host) gave thumbs 180 ms against a cold decode of
# 186.7 ms before (0.964) and 192.5 against 178.6 after (1.078); thumbs alone, 14 rounds, 215/224/221 ms for the
# builds before, after, and after without the band-open change: no difference within the noise. Profiles of the 16
# workers over the thumbs: busy 84% (bench's decode and thumbnail passes in one process: 93%); of the busy time PIZ
# decompression 23%, DWA about a quarter, the box filter 15%; the main thread busy half the time; every thread
# stalled ~12 ms once in both commands. A thread of its own for the PNG encodes and writes took the main thread from 103 to 93 ms
# busy and changed nothing measurable (10 rounds): not kept.
# At cf5012a (the box filter's gathers no longer wait on each other: 0.82 -> 0.39 ns a PIZ sample in the kernel), on
# an H100 host: summed resize 621-795 -> 546-750 ms (14 rounds), thumbs' wall time within the noise; ab2.sh over 10
# rounds, thumbs 217 ms against a cold decode of 209.6 (the build before: 223.5 against 224.9; the decode is the same
# code in both, so the hosts' noise is ~7%). On the 2-core VM: thumbs-vs-decode 0.897x on both the 20- and 30-file sets.
# The ~12 ms stall of every thread: thread states sampled from /proc every 0.25 ms (a small C sampler reading each
# thread's stat and wchan) showed all of them in expand_files/synchronize_rcu for 16-22 ms mid-run, in both commands:
# the descriptor table growing past 128. At 09f5a7a (grown before the workers start, and their optimizing compiles on
# their own threads: electron/host/decode/worker-process.ts), H200 host, 6 rounds interleaved with the build before:
# thumbs 157 ms (162 before), with start-up 615 ms (727), cold decode 145 ms (167); then this script, 5 rounds: thumbs
# 168 ms against a cold decode of 172.8 (0.972x), bench's own thumbnail pass 0.874x its decode.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = --prepare ]; then
  mkdir -p .thumbkit/set && cp .cpu/node.xz .thumbkit/ && cp .cpu/set/*_dwaa.exr .cpu/set/*_b44a.exr .cpu/set/*_piz.exr .thumbkit/set/
  grep -qx '/.thumbkit/' .git/info/exclude 2>/dev/null || echo '/.thumbkit/' >> .git/info/exclude
  du -sh .thumbkit
  exit 0
fi
mkdir -p /tmp/n && xz -dc .thumbkit/node.xz > /tmp/n/node && chmod +x /tmp/n/node
export PATH=/tmp/n:$PATH
D=/tmp/set30; mkdir -p $D
for i in $(seq 1 10); do for f in .thumbkit/set/*.exr; do cp "$f" "$D/$(basename "$f" .exr)_$i.exr"; done; done
cat $D/*.exr > /dev/null
node bench/thumbs-vs-decode.mjs $D --rounds "${ROUNDS:-5}"
