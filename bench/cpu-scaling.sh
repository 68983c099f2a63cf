#!/usr/bin/env bash
# Scaling from 8 to 16 cores, exrview against OpenEXR 3.4, in more rounds than .cpu/run.sh's two: the same 40 files and
# the same commands (exr_decode_ref N, `exrview bench --json`, each under taskset), 8 and 16 cores interleaved round by
# round. For the lent 16-core machine after ../shared/tools/cpu-kit.sh: carry [".cpu", "dist/cli.mjs",
# "dist/decode-worker.mjs", "dist/native"], then `ROUNDS=5 bash bench/cpu-scaling.sh`. JSON lines, one per round and
# core count; the last line is the summary: each tool's time over the rounds (best and median) and its scaling, 8-core
# time over 16-core time, from the best times (as run.sh's done-when reads it), from the medians, and per round.
#
# Why: one host's two rounds decide run.sh's clause, and OpenEXR's own 8-core time moves a lot between rounds, enough to
# reverse the verdict (bench/results/cpu-16-cores.md).
set -u
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
[ -f .cpu/node.xz ] && { mkdir -p /tmp/n && xz -dc .cpu/node.xz > /tmp/n/node && chmod +x /tmp/n/node; export PATH=/tmp/n:$PATH; }
D=/tmp/set40
if [ ! -d $D ]; then mkdir -p $D; for i in $(seq 1 10); do for f in .cpu/set/*.exr; do cp "$f" $D/$(basename "$f" .exr)_$i.exr; done; done; fi
cat $D/*.exr > /dev/null
node bin/exrview.mjs bench $D --json > /dev/null 2>/tmp/scaling-warm.err || { echo "exrview bench failed:"; head -5 /tmp/scaling-warm.err; exit 1; }
lines=$(for r in $(seq 1 "$rounds"); do for c in 8 16; do
  o=$(taskset -c 0-$((c-1)) .cpu/openexr/exr_decode_ref $c $D/*.exr | tail -1 | sed -E 's/total ([0-9.]+) ms.*/\1/')
  e=$(taskset -c 0-$((c-1)) node bin/exrview.mjs bench $D --json 2>/dev/null | tail -1 | sed -E 's/.*"decode":\{"wallMs":([0-9.]+).*/\1/')
  echo "{\"round\":$r,\"cores\":$c,\"openexrMs\":$o,\"exrviewMs\":$e}"
done; done)
echo "$lines"
echo "$lines" | node -e '
const rows = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const round3 = (v) => Math.round(v * 1000) / 1000;
const median = (v) => { const s = v.slice().sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const summary = {};
for (const tool of ["openexr", "exrview"]) {
  const at = (c) => rows.filter((r) => r.cores === c).map((r) => r[tool + "Ms"]);
  const perRound = [...new Set(rows.map((r) => r.round))].map((n) => rows.find((r) => r.round === n && r.cores === 8)[tool + "Ms"] / rows.find((r) => r.round === n && r.cores === 16)[tool + "Ms"]);
  summary[tool] = {
    ms8: { best: Math.min(...at(8)), median: median(at(8)) },
    ms16: { best: Math.min(...at(16)), median: median(at(16)) },
    scalingFromBest: round3(Math.min(...at(8)) / Math.min(...at(16))),
    scalingFromMedians: round3(median(at(8)) / median(at(16))),
    scalingPerRound: perRound.map(round3),
  };
}
summary.roundsExrviewAhead = summary.exrview.scalingPerRound.filter((s, i) => s >= summary.openexr.scalingPerRound[i]).length;
summary.rounds = summary.exrview.scalingPerRound.length;
console.log(JSON.stringify(summary));'
