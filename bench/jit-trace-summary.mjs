// Where V8's optimising compiler and deoptimiser spent a bench run, pass by pass. Every decode worker is an isolate of
// its own and compiles on its own thread (host/decode/worker-process.ts), so a function that turns hot in the
// middle of a pass stalls that worker while it compiles; this says how much of that fell in each pass.
// Usage: EXRVIEW_BENCH_PASS_MARKS=1 node --trace-opt --trace-deopt bin/exrview.mjs bench DIR --json [--runs N] > OUT.txt
//        node bench/jit-trace-summary.mjs OUT.txt [--top N]
// Per pass (the text before the first mark is the workers' start and warm-up): compiles, their milliseconds summed
// over every thread (V8's own "took" figures), the functions that took longest, and deoptimisations by function and
// reason. Prints one JSON line last. V8 prints a line in pieces, and two threads printing at once can break one apart:
// a compile whose line was broken is not counted (a few in a thousand).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 8;
const file = args.find((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1));
if (!file) {
  console.error('usage: node bench/jit-trace-summary.mjs OUT.txt [--top N]   (OUT.txt: see the header of this script)');
  process.exit(2);
}

const round = (v) => Math.round(v * 10) / 10;
const passes = [];
let current;
const open = (name) => {
  current = { pass: name, compiles: 0, compileMs: 0, byFunction: new Map(), deopts: new Map() };
  passes.push(current);
};
open('start-and-warm-up');
let marks = 0;
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const mark = /^exrview-bench-pass (start|end) (\S+)/.exec(line);
  if (mark) {
    marks++;
    open(mark[1] === 'start' ? mark[2] : `after-${mark[2]}`);
    continue;
  }
  // [completed compiling 0x... <JSFunction name (sfi = 0x...)> (target TURBOFAN) [OSR] - took 0.010, 7.537, 0.091 ms]
  const compiled = /completed compiling .*?<JSFunction ([^ >]*)[^>]*>.*took ([0-9.]+), ([0-9.]+), ([0-9.]+) ms/.exec(line);
  if (compiled) {
    const ms = Number(compiled[2]) + Number(compiled[3]) + Number(compiled[4]);
    const name = !compiled[1] || compiled[1].startsWith('(') ? '(anonymous)' : compiled[1];
    current.compiles++;
    current.compileMs += ms;
    current.byFunction.set(name, (current.byFunction.get(name) ?? 0) + ms);
    continue;
  }
  // [bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x... <JSFunction name (sfi = ...)>, ...
  const deopt = /bailout \(kind: [^,]+, reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction ([^ >]*)/.exec(line);
  if (deopt) {
    const key = `${!deopt[2] || deopt[2].startsWith('(') ? '(anonymous)' : deopt[2]}: ${deopt[1]}`;
    current.deopts.set(key, (current.deopts.get(key) ?? 0) + 1);
  }
}
if (marks === 0)
  console.error('no pass marks in the file: was EXRVIEW_BENCH_PASS_MARKS=1 set? (everything is counted as start-and-warm-up)');

const summary = passes
  .filter((p) => p.compiles > 0 || p.deopts.size > 0)
  .map((p) => ({
    pass: p.pass,
    compiles: p.compiles,
    compileMs: round(p.compileMs),
    slowest: Object.fromEntries(
      [...p.byFunction]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, ms]) => [name, round(ms)]),
    ),
    deopts: Object.fromEntries([...p.deopts].sort((a, b) => b[1] - a[1]).slice(0, top)),
  }));
for (const p of summary) {
  console.log(
    `${p.pass}: ${p.compiles} compiles, ${p.compileMs} ms; ${Object.entries(p.slowest)
      .map(([n, ms]) => `${n} ${ms}`)
      .join(', ')}`,
  );
  for (const [what, count] of Object.entries(p.deopts)) console.log(`  deopt ${count}x ${what}`);
}
console.log(JSON.stringify({ file, passes: summary }));
