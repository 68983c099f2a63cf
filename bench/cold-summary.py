#!/usr/bin/env python3
"""One line per JSON line of bench/cpu-cold.sh: set, cores, round, variant, wall ms and, for exrview, its stages
(read, decompress, unpack, summed over workers), process CPU and minor page faults. Usage: ... | python3 bench/cold-summary.py"""
import json, sys

for line in sys.stdin:
    try:
        d = json.loads(line)
    except ValueError:
        print(line.rstrip())
        continue
    head = f"{d.get('set', 'all'):6} {d['cores']:>2} cores r{d['round']} {d['variant']:14}"
    if 'openexrMs' in d:
        print(f"{head} {d['openexrMs']:8.1f} ms")
        continue
    e = d['exrview']
    if not e:
        print(f"{head} failed")
        continue
    s, p = e['stages'], e['process']
    print(f"{head} {e['decode']['wallMs']:8.1f} ms  read {s['readMs']:7.1f} decompress {s['decompressMs']:7.1f} unpack {s['unpackMs']:7.1f}"
          f"  cpu {p['userCpuMs']:7.1f}+{p['systemCpuMs']:6.1f}  faults {p['minorPageFaults']}")
