#!/usr/bin/env python3
"""Compare the "bench NAME VALUE UNIT ..." lines of the base and series
guests (make bench): per figure, the median over the runs of each kernel,
their ratio series/base, and the spread (max/min - 1 of each kernel's runs).
A Markdown table on stdout.

usage: bench_report.py BASE_LABEL SERIES_LABEL LABEL=LOG [LABEL=LOG...]
"""
import re
import statistics
import sys

LINE = re.compile(r'^bench (\S+) ([0-9.]+) (\S+)')
NOISE = 0.01


def main(args):
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, series = args[0], args[1]
    values = {}        # (label, name) -> [values]
    units = {}
    names = []
    for arg in args[2:]:
        label, _, path = arg.partition('=')
        with open(path, errors='replace') as f:
            for line in f:
                m = LINE.match(line.strip())
                if not m:
                    continue
                name, value, unit = m.group(1), float(m.group(2)), m.group(3)
                if name not in names:
                    names.append(name)
                units[name] = unit
                values.setdefault((label, name), []).append(value)
    print('| figure | unit | base | series | series/base | spread base | spread series |')
    print('|---|---|---|---|---|---|---|')
    worst = None
    noisy = []
    for name in names:
        b, s = values.get((base, name)), values.get((series, name))
        if not b or not s:
            print(f'| {name} | {units[name]} | {"-" if not b else statistics.median(b)} '
                  f'| {"-" if not s else statistics.median(s)} | missing | | |')
            continue
        mb, ms = statistics.median(b), statistics.median(s)
        ratio = ms / mb
        spread = max(max(b) / min(b), max(s) / min(s)) - 1
        # a ratio is read to 1% only where the runs agree to better than that
        if spread < NOISE:
            worst = ratio if worst is None else max(worst, ratio)
        else:
            noisy.append(name)
        print(f'| {name} | {units[name]} | {mb:.6g} | {ms:.6g} | {ratio:.4f} '
              f'| {max(b) / min(b) - 1:.2%} | {max(s) / min(s) - 1:.2%} |')
    print()
    print(f'{len(args) - 2} guest runs; values are medians; time is the guest\'s '
          f'(virtual under -icount: it follows the instructions executed).')
    if worst is not None:
        print(f'Worst ratio of the figures whose runs agree within {NOISE:.0%}: {worst:.4f}')
    if noisy:
        print(f'Too noisy for a 1% comparison (runs spread by {NOISE:.0%} or more): '
              f'{", ".join(noisy)}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
