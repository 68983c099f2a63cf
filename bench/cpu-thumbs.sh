#!/usr/bin/env bash
# `exrview thumbs` (cold cache) against a cold full decode on the lent 16-core machine: bench/thumbs-vs-decode.mjs over
# the 40 files .cpu/run.sh decodes (10 copies each of its ZIP, PIZ, DWAA and B44A files); SET=30 leaves the ZIP file
# out, as the older figures in bench/results/cpu-16-cores.md did. Hosts differ from run to run, so compare two builds
# only interleaved on one machine.
#
# Prepare here (after ../shared/tools/cpu-kit.sh and npm run build): bash bench/cpu-thumbs.sh --prepare (makes the
# git-ignored .thumbkit/). With the device tool, carry [".thumbkit", "dist/cli.mjs", "dist/decode-worker.mjs",
# "dist/native"], command `bash bench/cpu-thumbs.sh` (ROUNDS=5 by default). The last line is thumbs-vs-decode's JSON.
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
