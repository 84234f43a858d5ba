"""The Markdown tables of the report: per set and kernel over the runs (a
spread where runs differ), per task, residency, the mixed set, rt-tests.
"""
import math
import re

from .models import (base_rule, bw, clusters, demand_util, jumps, mean_work, pct,
                     residency, residency_energy, responses, series_rule, set_optimum,
                     set_totals, task_cluster, workload_energy)


# ---------------------------------------------------------------- repeats

def spread(values, nd=0):
    """"a" when all runs agree, else "min-max"."""
    v = [x for x in values if x is not None and not (isinstance(x, float) and math.isnan(x))]
    if not v:
        return '-'
    lo, hi = min(v), max(v)
    return f'{lo:.{nd}f}' if f'{lo:.{nd}f}' == f'{hi:.{nd}f}' else f'{lo:.{nd}f}-{hi:.{nd}f}'


def fmt(v, nd=2):
    return '-' if v is None or (isinstance(v, float) and math.isnan(v)) else f'{v:.{nd}f}'


def runs_of(runs, label, name):
    """The set @name in each run of kernel @label."""
    return [r.sets[name] for r in runs[label] if name in r.sets]


# ---------------------------------------------------------------- tables

def summary_table(runs, order):
    """One row per set and kernel, over its runs: misses, responses,
    energy, frequencies."""
    out = ['| set | U demand | kernel | runs | jobs | missed | missed, not after a jump '
           '| jobs hit by a jump > slack | largest jump ms | p95 R/D | max R/D | E (mJ) '
           '| E / E_opt | E_opt (mJ) at OPP | E_res (mJ) | mean big MHz | mean LITTLE MHz |',
           '|' + '---|' * 17]
    for name in order:
        for label in runs:
            ss = runs_of(runs, label, name)
            if not ss:
                out.append(f'| {name} | | {label} | 0 |' + ' |' * 13)
                continue
            tot = [set_totals(s) for s in ss]
            jmp = [jumps(s) for s in ss]
            ratios = sorted(r for t in tot for r in t[3])
            e = [workload_energy(s) for s in ss]
            opt = set_optimum(ss[0])
            e_res = [sum(residency_energy(s, c) or 0 for c in clusters(s)) for s in ss]
            mhz = {}
            for c in clusters(ss[0]):
                mhz[c[0]] = spread([sum(f * r for f, r in residency(s, c).items()) / 1000
                                    for s in ss])
            out.append(f'| {name} | {demand_util(ss[0]):.2f} | {label} | {len(ss)} '
                       f'| {spread([t[0] for t in tot])} | {spread([t[1] for t in tot])} '
                       f'| {spread([t[2] for t in tot])} | {spread([j[1] for j in jmp])} '
                       f'| {spread([j[0] * 1e3 for j in jmp])} | {fmt(pct(ratios, 95))} '
                       f'| {fmt(ratios[-1] if ratios else None)} | {spread(e, 1)} '
                       f'| {spread([x / opt[0] for x in e], 2) if opt and opt[0] else "-"} '
                       f'| {f"{opt[0]:.1f} ({opt[1]} MHz)" if opt else "n/a"} '
                       f'| {spread(e_res, 1)} | {mhz.get("big", "-")} '
                       f'| {mhz.get("LITTLE", "-")} |')
    return out


def flag_names(flags):
    return ','.join(x for b, x in ((0x02, 'RECLAIM'), (0x80, 'DEMOTION')) if flags & b) or '-'


def task_table(s):
    out = ['| task | CPUs | reservation | work/runtime | flags asked | ran with | setattr '
           '| jobs | missed | p50 ms | p95 ms | p99 ms | max ms | CPU share | work share '
           '| reserved | demand | energy mJ |', '|' + '---|' * 18]
    for n, t in s.tasks.items():
        v = s.summary.get(n, {})
        work = f'{t["work_lo"]:g}' if t['work_lo'] == t['work_hi'] \
            else f'{t["work_lo"]:g}-{t["work_hi"]:g}'
        r = responses(s, n)
        cells = [fmt(v.get('jobs'), 0), fmt(v.get('missed'), 0)]
        cells += [fmt(pct(r, p) * 1e3, 1) for p in (50, 95, 99)]
        cells += [fmt(r[-1] * 1e3 if r else None, 1), fmt(v.get('cpu_share'), 3),
                  fmt(v.get('work_share'), 3), f'{bw(t):.3f}',
                  f'{mean_work(t) / t["period"]:.3f}', fmt(v.get('energy_mj'), 1)]
        if t['setattr'] != 'ok':
            cells = ['-'] * len(cells)
        ran = flag_names(t['ran_flags']) if t['setattr'] == 'ok' else '-'
        out.append(f'| {n} | {t["in"]} | {t["runtime"] * 1e3:g}/{t["period"] * 1e3:g} ms '
                   f'| {work} | {flag_names(t["flags"])} | {ran} | {t["setattr"]} | '
                   + ' | '.join(cells) + ' |')
    return out


def residency_table(s):
    out = []
    for c in clusters(s):
        res = residency(s, c)
        if not res:
            continue
        states = ', '.join(f'{f // 1000} MHz {r:.0%}' for f, r in sorted(res.items()) if r)
        out.append(f'- {c[0]} (CPUs {c[1][0]}-{c[1][-1]}): {states}; '
                   f'E_res {fmt(residency_energy(s, c), 1)} mJ')
    return out


def mixed_rows(runs):
    """The overrunning tasks of the mixed set, per kernel, over its runs:
    measured CPU share against the reservation and what each GRUB rule
    predicts for a reclaiming task."""
    out = ['| kernel | task | flags asked | ran with | reservation | CPU share (runs) '
           '| work share (runs) | 6.12 rule | series rule |', '|' + '---|' * 9]
    for label in runs:
        ss = runs_of(runs, label, 'mixed')
        if not ss:
            continue
        s = ss[0]
        for n, t in s.tasks.items():
            if t['work_hi'] <= 1:
                continue
            ok = [x for x in ss if x.tasks[n]['setattr'] == 'ok']
            cpu = spread([x.summary[n]['cpu_share'] for x in ok], 3)
            work = spread([x.summary[n]['work_share'] for x in ok], 3)
            base = series = '-'
            if t['ran_flags'] & 0x02 and ok:
                c = task_cluster(s, n)
                base = spread([(base_rule(x, c) or {}).get(n) for x in ok], 3)
                series = spread([(series_rule(x, c) or {}).get(n) for x in ok], 3)
            ran = flag_names(t['ran_flags']) if ok else t['setattr']
            if ok and t['ran_flags'] != t['flags']:
                ran += ' (plain: the kernel refused the flag with EINVAL)'
            out.append(f'| {label} | {n} | {flag_names(t["flags"])} | {ran} '
                       f'| {bw(t):.3f} | {cpu} | {work} | {base} | {series} |')
    return out


# ---------------------------------------------------------------- rt-tests

def rt_tests_rows(runs):
    """cyclicdeadline: per thread cycles and latencies; deadline_test: per
    thread missed deadlines and periods; each program's exit code."""
    rc = ['| kernel | run | cyclicdeadline exit | deadline_test exit |', '|---|---|---|---|']
    cyc = ['| kernel | run | cyclicdeadline thread | interval us | cycles | min us | avg us '
           '| max us |', '|' + '---|' * 8]
    dt = ['| kernel | run | deadline_test thread | deadline us | runtime us | periods '
          '| missed deadlines | missed periods |', '|' + '---|' * 8]
    for label, rs in runs.items():
        for i, r in enumerate(rs, 1):
            codes = {}
            block = {}
            for line in r.rt:
                m = re.match(r'(cyclicdeadline|deadline_test) rc=(\d+)', line)
                if m:
                    codes[m.group(1)] = m.group(2)
                m = re.match(r'cyclicdeadline T:\s*(\d+)\s*\(\s*\d+\)\s*I:(\d+)\s*C:\s*(\d+)\s*'
                             r'Min:\s*(\d+)\s*Act:\s*\d+\s*Avg:\s*(\d+)\s*Max:\s*(\d+)', line)
                if m:
                    cyc.append(f'| {label} | {i} | ' + ' | '.join(m.groups()) + ' |')
                if not line.startswith('deadline_test '):
                    continue
                body = line[len('deadline_test '):]
                m = re.match(r'\[(\d+)\]', body)
                if m:
                    block = {'thread': m.group(1)}
                for key, pat in (('missed_dl', r'missed deadlines\s*=\s*(\d+)'),
                                 ('missed_p', r'missed periods\s*=\s*(\d+)'),
                                 ('deadline', r'deadline\s*:\s*(\d+)'),
                                 ('runtime', r'runtime\s*:\s*(\d+)'),
                                 ('periods', r'nr_periods\s*:\s*(\d+)')):
                    m = re.match(pat, body)
                    if m:
                        block[key] = m.group(1)
                if 'periods' in block and 'thread' in block:
                    dt.append(f'| {label} | {i} | {block["thread"]} '
                              f'| {block.get("deadline", "?")} | {block.get("runtime", "?")} '
                              f'| {block["periods"]} | {block.get("missed_dl", "?")} '
                              f'| {block.get("missed_p", "?")} |')
                    block = {}
            rc.append(f'| {label} | {i} | {codes.get("cyclicdeadline", "missing")} '
                      f'| {codes.get("deadline_test", "missing")} |')
    return rc, cyc, dt
