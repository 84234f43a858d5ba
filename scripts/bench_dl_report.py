#!/usr/bin/env python3
"""The deadline-workload part of `make bench`: read the guest logs of
bench/dl_workload.c and rt-tests (guest/bench.sh, wbbench=dl) for each kernel,
write a Markdown report on stdout and PNG plots into OUTDIR.

usage: bench_dl_report.py OUTDIR LABEL=LOG [LABEL=LOG...]
       (the first label is the base, the last the series; a label given
       more than once is a repeat: its runs are summarised with their
       spread)

Every figure is derived from the logs; the rules used are stated in RULES,
printed in the report next to the tables.
"""
import collections
import math
import os
import re
import sys

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:         # the tables still come out
    plt = None


# ---------------------------------------------------------------- parsing

class Set:
    """One run of dl_workload: a task set on one kernel."""

    def __init__(self, name, a):
        self.name = name
        self.duration = float(a['duration_ms']) / 1000     # s
        self.sample = float(a['sample_ms']) / 1000         # s
        self.cpus = {}          # cpu -> (capacity, max_khz)
        self.em = collections.defaultdict(dict)  # cpu -> {khz: uW}
        self.umax = None        # sched_rt_runtime_us / sched_rt_period_us
        self.fair_server = {}   # cpu -> bandwidth (runtime / period)
        self.total_bw = {}      # cpu -> its root domain's total_bw (CPUs)
        self.tasks = collections.OrderedDict()   # name -> dict
        self.jobs = collections.defaultdict(list)
        self.summary = {}
        self.freq = []          # (t s, [khz per cpu])
        self.tis = collections.defaultdict(dict)  # "0-1" -> {khz: ticks}
        self.busy = {}          # cpu -> (busy, total) ticks
        self.ended = False      # its "wl end" line came


def kv(fields):
    return dict(f.split('=', 1) for f in fields if '=' in f)


class Run:
    """One boot of one kernel: its sets by name, its rt-tests lines, whether
    its kernel log stayed clean (None: the check did not run)."""

    def __init__(self, path):
        self.path = path
        self.sets = collections.OrderedDict()
        self.rt = []
        self.clean = None


def parse_log(path):
    run = Run(path)
    sets, rt, cur = run.sets, run.rt, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('rt '):
                rt.append(line[3:])
                continue
            if line.startswith('bench kernel_log_clean'):
                run.clean = line.split()[2] == 'ok'
                continue
            if not line.startswith('wl '):
                continue
            w = line.split()
            kind = w[1]
            if kind == 'set':
                cur = Set(w[2], kv(w[3:]))
                sets[cur.name] = cur
            elif cur is None:
                continue
            elif kind == 'cpu':
                a = kv(w[3:])
                cur.cpus[int(w[2])] = (int(a['capacity']), int(a['max_khz']))
            elif kind == 'em':
                a = kv(w[3:])
                cur.em[int(w[2])][int(a['khz'])] = int(a['power_uw'])
            elif kind == 'umax':
                a = kv(w[2:])
                if int(a['period_us']) and int(a['runtime_us']) >= 0:
                    cur.umax = int(a['runtime_us']) / int(a['period_us'])
            elif kind == 'fair_server':
                a = kv(w[3:])
                cur.fair_server[int(w[2])] = int(a['runtime_ns']) / int(a['period_ns'])
            elif kind == 'dlbw':
                tb = int(kv(w[3:])['total_bw'])
                if tb >= 0:
                    cur.total_bw[int(w[2])] = tb / (1 << 20)
            elif kind == 'task':
                a = kv(w[3:])
                lo, _, hi = a['work'].partition('-')
                cur.tasks[w[2]] = {
                    'runtime': int(a['runtime_us']) / 1e6, 'deadline': int(a['deadline_us']) / 1e6,
                    'period': int(a['period_us']) / 1e6, 'work_lo': float(lo),
                    'work_hi': float(hi or lo), 'flags': int(a['flags'], 16), 'in': a['in'],
                    'setattr': a['setattr'], 'affinity': a['affinity'],
                    'ran_flags': int(a['ran_flags'], 16)}
            elif kind == 'job':
                rel, start, fin, dl, cpu_us, units = (int(x) for x in w[4:10])
                work, step = (float(x) / 1e6 for x in w[12:14])
                cur.jobs[w[2]].append({'release': rel / 1e6, 'start': start / 1e6,
                                       'finish': None if fin < 0 else fin / 1e6,
                                       'deadline': dl / 1e6, 'cpu': cpu_us / 1e6,
                                       'units': units / 1e6, 'work': work, 'step': step})
            elif kind == 'summary':
                cur.summary[w[2]] = {k: float(v) for k, v in kv(w[3:]).items()}
            elif kind == 'freq':
                cur.freq.append((int(w[2]) / 1e6, [int(x) for x in w[3:]]))
            elif kind == 'tis':
                cur.tis[w[2]][int(w[3])] = int(w[4])
            elif kind == 'busy':
                cur.busy[int(w[2])] = (int(w[3]), int(w[4]))
            elif kind == 'end':
                cur.ended = True
                cur = None
    return run


# ---------------------------------------------------------------- the machine

def clusters(s):
    """Clusters as (name, [cpus]): the CPUs of one time_in_state policy,
    "big" if of the largest capacity, else "LITTLE"."""
    out = []
    top = max(c[0] for c in s.cpus.values())
    for policy in s.tis:
        lo, _, hi = policy.partition('-')
        cpus = list(range(int(lo), int(hi or lo) + 1))
        out.append(('big' if s.cpus[cpus[0]][0] == top else 'LITTLE', cpus))
    return out


def task_cluster(s, task):
    """The cluster a task runs on: its partition's CPUs (the set's only
    partition holds the LITTLE CPUs, guest/bench.sh), or the root's."""
    want = 'LITTLE' if s.tasks[task]['in'] != 'root' else 'big'
    cls = clusters(s)
    return next((c for c in cls if c[0] == want), cls[0])


def capacity(s, cpus):
    """Sum of cpu_capacity / 1024: capacity in big-CPU units."""
    return sum(s.cpus[c][0] for c in cpus) / 1024


def speed(s, cpu, khz):
    cap, fmax = s.cpus[cpu]
    return cap / 1024 * (khz / fmax if fmax else 1.0)


def power(s, cpu, khz):
    """EM power (uW) of one CPU at the lowest OPP >= khz."""
    em = s.em.get(cpu, {})
    for f in sorted(em):
        if f >= khz:
            return em[f]
    return em[max(em)] if em else 0


def residency(s, cluster):
    """{kHz: fraction of the run} of the cluster's policy."""
    tis = s.tis.get(f'{cluster[1][0]}-{cluster[1][-1]}', {})
    total = sum(tis.values())
    return {f: t / total for f, t in tis.items()} if total else {}


def mean_speed(s, cluster):
    """The cluster's speed averaged over the run: capacity/1024 x mean f /
    f_max, the mean f from time_in_state."""
    res = residency(s, cluster)
    cpu = cluster[1][0]
    return speed(s, cpu, sum(f * r for f, r in res.items())) if res else speed(s, cpu, 0)


# ---------------------------------------------------------------- energy

def workload_energy(s):
    """E in mJ: sum over the tasks of their energy in the window
    (dl_workload: CPU time x P(f) chunk by chunk, the emulated-work model)."""
    return sum(v.get('energy_mj', 0) for v in s.summary.values())


def residency_energy(s, cluster):
    """E_res of a cluster in mJ: EM power x time_in_state x the mean number
    of busy CPUs of the cluster (/proc/stat). A second view, biased: busy
    time correlates with the frequency."""
    cpus = cluster[1]
    tis = s.tis.get(f'{cpus[0]}-{cpus[-1]}', {})
    busy = sum(s.busy.get(c, (0, 1))[0] for c in cpus)
    total = sum(s.busy.get(c, (0, 1))[1] for c in cpus)
    if not tis or not total:
        return None
    busy_cpus = len(cpus) * busy / total
    # time_in_state is in 10 ms ticks (USER_HZ 100); uW x s = uJ
    return sum(power(s, cpus[0], f) * t / 100 for f, t in tis.items()) * busy_cpus / 1000


def mean_work(t):
    return t['runtime'] * (t['work_lo'] + t['work_hi']) / 2


def is_periodic_set(s):
    """Only sets whose jobs fit their reservation have an offline optimum."""
    return all(t['work_hi'] <= 1 for t in s.tasks.values())


def optimum(s, cluster):
    """(f kHz, energy mJ) of the lowest constant OPP of the cluster that the
    Goossens-Funk-Baruah test proves schedulable, or None."""
    cpus = cluster[1]
    tasks = [t for n, t in s.tasks.items() if task_cluster(s, n) == cluster]
    if not tasks:
        return 0, 0.0
    m = len(cpus)
    for f in sorted(s.em.get(cpus[0], {})):
        sp = speed(s, cpus[0], f)
        u = [t['runtime'] * t['work_hi'] / t['period'] / sp for t in tasks]
        if max(u) <= 1 and sum(u) <= m - (m - 1) * max(u):
            busy = sum(mean_work(t) / t['period'] for t in tasks) / sp * s.duration
            return f, power(s, cpus[0], f) * busy / 1000
    return None


def set_optimum(s):
    """(E_opt mJ, "big 800, LITTLE 600") over the clusters, or None."""
    if not is_periodic_set(s):
        return None
    total, opp = 0.0, []
    for c in clusters(s):
        o = optimum(s, c)
        if o is None:
            return None
        total += o[1]
        if o[0]:
            opp.append(f'{c[0]} {o[0] // 1000}')
    return total, ', '.join(opp)


def demand_util(s):
    """Mean demand of the periodic tasks (work units per s) / the platform's
    capacity in big-CPU units (from the log's cpu_capacity)."""
    return sum(mean_work(s.tasks[n]) / s.tasks[n]['period']
               for n in periodic_tasks(s)) / capacity(s, s.cpus)


# ---------------------------------------------------------------- per task

def pct(v, p):
    """Nearest-rank percentile of a sorted list (the only one)."""
    if not v:
        return float('nan')
    return v[min(len(v) - 1, max(0, math.ceil(p / 100 * len(v)) - 1))]


def responses(s, task):
    """Response times (finish - release, s) of the finished jobs, sorted."""
    return sorted(j['finish'] - j['release'] for j in s.jobs[task] if j['finish'] is not None)


def periodic_tasks(s):
    """Tasks whose jobs fit their reservation: the ones that can meet
    deadlines (the mixed set's overrunning tasks are late by design)."""
    return [n for n, t in s.tasks.items() if t['work_hi'] <= 1 and n in s.summary]


def is_missed(j):
    return j['finish'] is None or j['finish'] > j['deadline']


def hit_by_jump(t, j):
    """One step of the CPU clock charged more than the job's slack: J s of
    CPU time at the job's mean speed (units / CPU time) charge J x speed of
    runtime at once; beyond runtime - work the job overruns."""
    rate = j['units'] / j['cpu'] if j['cpu'] else 1.0
    return j['step'] * rate > t['runtime'] - j['work']


def misses_after_jumps(s, task):
    """Missed jobs that follow a jump: the job hit by one, and the missed
    jobs right after it (the backlog it left), up to the first job on time."""
    t, after, tainted = s.tasks[task], 0, False
    for j in s.jobs[task]:
        tainted = hit_by_jump(t, j) or (tainted and is_missed(j))
        after += is_missed(j) and tainted
    return after


def set_totals(s):
    """Jobs, missed, missed not after a jump, response/deadline ratios."""
    tasks = periodic_tasks(s)
    jobs = sum(s.summary[n]['jobs'] for n in tasks)
    missed = sum(s.summary[n]['missed'] for n in tasks)
    clean = missed - sum(misses_after_jumps(s, n) for n in tasks)
    ratios = sorted(r / s.tasks[n]['deadline'] for n in tasks for r in responses(s, n))
    return jobs, missed, clean, ratios


def jumps(s):
    """(largest step of a periodic task's CPU clock in s, jobs hit by one)."""
    largest, hit = 0.0, 0
    for n in periodic_tasks(s):
        for j in s.jobs[n]:
            largest = max(largest, j['step'])
            hit += hit_by_jump(s.tasks[n], j)
    return largest, hit


# ---------------------------------------------------------------- GRUB

def bw(t):
    return t['runtime'] / t['period']


def admitted(s, cluster):
    """Names of the tasks admitted in the cluster's root domain."""
    return [n for n, t in s.tasks.items()
            if t['setattr'] == 'ok' and task_cluster(s, n) == cluster]


def domain_total_bw(s, cluster):
    """The root domain's total_bw at the start (the tasks admitted), CPUs."""
    v = [s.total_bw[c] for c in cluster[1] if c in s.total_bw]
    return v[0] if v else None


def water_fill(u, spare, cap):
    """Share @spare among bandwidths @u in proportion, none above @cap."""
    x, capped = {}, set()
    while True:
        left = spare - cap * len(capped)
        usum = sum(v for n, v in u.items() if n not in capped)
        grew = False
        for n, v in u.items():
            if n in capped:
                continue
            x[n] = left * v / usum if usum else 0.0
            if x[n] > cap:
                x[n], grew = cap, True
                capped.add(n)
        if not grew:
            return x


def series_rule(s, cluster):
    """{reclaiming task: CPU-time share} by the rule of the series'
    dl_grub_test (expected_shares()), or None when a fact is missing."""
    tb, umax = domain_total_bw(s, cluster), s.umax
    if tb is None or umax is None:
        return None
    names = admitted(s, cluster)
    rec = {n: bw(s.tasks[n]) for n in names if s.tasks[n]['ran_flags'] & 0x02}
    norm = [bw(s.tasks[n]) for n in names if not s.tasks[n]['ran_flags'] & 0x02]
    m, sp = len(cluster[1]), mean_speed(s, cluster)
    u_o = tb - sum(bw(s.tasks[n]) for n in names)        # admitted before the set
    spare = m * umax - sum(min(u / sp, 1) for u in norm)
    work = capacity(s, cluster[1]) * umax - sum(norm) - u_o
    x = water_fill(rec, min(spare, work / sp), umax)
    return {n: max(x[n], min(u / sp, 1)) for n, u in rec.items()}


def base_rule(s, cluster):
    """{reclaiming task: CPU-time share} by 6.12's grub_reclaim() (GRUB-PA,
    time charged unscaled), or None when a fact is missing."""
    tb, umax = domain_total_bw(s, cluster), s.umax
    if tb is None or umax is None:
        return None
    m = len(cluster[1])
    out = {}
    for n in admitted(s, cluster):
        if s.tasks[n]['ran_flags'] & 0x02:
            u = bw(s.tasks[n])
            out[n] = min(umax, u * umax / max(u, tb / m))
    return out


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


# ---------------------------------------------------------------- plots

def shares_over_time(s, task, step=0.1):
    """Work units received per window of `step` s / step: each job's units
    spread evenly over [start, finish]."""
    n = max(1, int(round(s.duration / step)))
    bins = [0.0] * n
    for j in s.jobs[task]:
        end = j['finish'] if j['finish'] is not None else s.duration
        a, b = j['start'], max(end, j['start'] + 1e-6)
        rate = j['units'] / (b - a)
        for k in range(min(n, int(a / step)), min(n, int(b / step) + 1)):
            lo, hi = max(a, k * step), min(b, (k + 1) * step)
            if hi > lo:
                bins[k] += rate * (hi - lo)
    # the last value again at the end, for a step plot
    return [k * step for k in range(n + 1)], [v / step for v in bins + bins[-1:]]


def first_runs(runs, name):
    """(label, the set in the kernel's first run) for the plots."""
    return [(label, rs[0].sets.get(name)) for label, rs in runs.items()]


def plot_shares(runs, name, path):
    fig, axes = plt.subplots(len(runs), 1, figsize=(10, 3.2 * len(runs)), sharex=True,
                             squeeze=False)
    for ax, (label, s) in zip(axes[:, 0], first_runs(runs, name)):
        if not s:
            continue
        # windows of the longest period: every task has a job in each
        step = max(t['period'] for t in s.tasks.values())
        for n in s.tasks:
            if s.tasks[n]['setattr'] != 'ok':
                continue
            t, v = shares_over_time(s, n, step)
            line, = ax.step(t, v, where='post', label=n, lw=1)
            ax.axhline(bw(s.tasks[n]), color=line.get_color(), ls=':', lw=0.8)
        ax.set_title(f'{name} on {label} (run 1): work share per {step * 1000:g} ms '
                     '(dotted: reservation)')
        ax.set_ylabel('work units / s')
        ax.legend(fontsize=7, ncol=4)
    axes[-1, 0].set_xlabel('time (s, virtual)')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_freq(runs, name, path):
    fig, axes = plt.subplots(len(runs), 1, figsize=(10, 2.6 * len(runs)), sharex=True,
                             squeeze=False)
    for ax, (label, s) in zip(axes[:, 0], first_runs(runs, name)):
        if not s or not s.freq:
            continue
        for cname, cpus in clusters(s):
            ax.step([t for t, _ in s.freq], [k[cpus[0]] / 1000 for _, k in s.freq],
                    where='post', label=f'{cname} (CPUs {cpus[0]}-{cpus[-1]})')
        ax.set_title(f'{name} on {label} (run 1): frequency per cluster '
                     f'(sampled every {s.sample * 1000:g} ms)')
        ax.set_ylabel('MHz')
        ax.legend(fontsize=8)
    axes[-1, 0].set_xlabel('time (s, virtual)')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_energy(runs, order, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    platform = None
    for kind, ls in (('fixed', '-'), ('variable', '--')):
        names = [n for n in order if n.startswith(kind + '-')]
        opt = {}
        for label in runs:
            pts = []
            for n in names:
                ss = runs_of(runs, label, n)
                if not ss:
                    continue
                s = ss[0]
                platform = platform or s
                pts.append((demand_util(s), sum(workload_energy(x) for x in ss) / len(ss)))
                o = set_optimum(s)
                if o:
                    opt[n] = (demand_util(s), o[0])
            if pts:
                ax.plot(*zip(*sorted(pts)), ls=ls, marker='o', label=f'{label}, {kind}')
        if opt:
            ax.plot(*zip(*sorted(opt.values())), ls=ls, marker='x', color='k',
                    label=f'optimum, {kind}')
    cap = f'{capacity(platform, platform.cpus):g}' if platform else '?'
    ax.set_xlabel(f'total demanded utilisation (mean work / period, of {cap} CPUs '
                  'of capacity 1024)')
    ax.set_ylabel('workload energy over the window (mJ, Energy Model, mean of runs)')
    ax.set_title('Energy vs utilisation')
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_cdfs(runs, order, path):
    cols = 3
    rows = int(math.ceil(len(order) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for ax, name in zip(axes.flat, order):
        for label in runs:
            r = sorted(x for s in runs_of(runs, label, name) for x in set_totals(s)[3])
            if r:
                ax.step(r, [(i + 1) / len(r) for i in range(len(r))], where='post', label=label)
        ax.axvline(1.0, color='grey', ls=':', lw=0.8)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel('response time / deadline (all runs)')
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(order):]:
        ax.axis('off')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def make_plots(outdir, runs, order):
    if plt is None:
        return ['No plots: python3-matplotlib is not installed (make deps installs it).']
    os.makedirs(outdir, exist_ok=True)
    done = []
    for name in order:
        plot_freq(runs, name, os.path.join(outdir, f'dl-freq-{name}.png'))
        plot_shares(runs, name, os.path.join(outdir, f'dl-share-{name}.png'))
        done += [f'dl-freq-{name}.png', f'dl-share-{name}.png']
    plot_energy(runs, order, os.path.join(outdir, 'dl-energy.png'))
    plot_cdfs(runs, order, os.path.join(outdir, 'dl-response-cdf.png'))
    done += ['dl-energy.png', 'dl-response-cdf.png']
    return ['Plots (PNG, next to this report): ' + ', '.join(done) + '.']


# ---------------------------------------------------------------- main

RULES = """\
How to read it (all times are the guest's virtual time under -icount):

- Work units: dl_workload credits CPU time x cur_freq/max_freq x
  capacity/1024 (scaling_cur_freq, cpuinfo_max_freq, cpu_capacity): QEMU
  does not slow a vCPU down at a lower OPP or on a LITTLE CPU, the work model
  does. A job's work is a fraction of its runtime in these units. It is the
  scale this series charges every reservation with; 6.12 charges
  non-reclaiming tasks the same, but reclaiming ones (SCHED_FLAG_RECLAIM)
  unscaled CPU time (GRUB-PA: the spare bandwidth is meant to lower the
  frequency). "work share" is units per second received in the release
  window (a job running at its end counted up to there), "CPU share" CPU
  time per second, "demand" mean work / period, "reserved" runtime / period.
- R/D: response time (finish - release) / relative deadline; a miss is a job
  finishing after its absolute deadline or not finishing before the run
  stops (one deadline after the last release). The summary counts the
  periodic tasks only (work <= runtime); "U demand" is their mean work /
  period over the platform's capacity ({platform}).
- Jumps: with several busy vCPUs the emulation lets a vCPU stand still
  for tens of ms while its task's CPU clock runs on (README, virtual time);
  the kernel charges that step to the reservation at once. A job "hit by a
  jump > slack" had one step of J s with J x (its units / CPU time) >
  runtime - work: it overruns, the CBS postpones the task by a period or
  more. "missed, not after a jump" leaves out the missed jobs hit by a jump
  and the missed jobs of the same task right after one (its backlog, up to
  its first job on time): what is left is the scheduler's. A kernel that
  held a CPU for that long would show the same steps, so a difference in
  jumps between the kernels is a finding to look into, not a verdict.
- Repeats: each kernel ran the sets {runs} (kernels alternating, one boot
  each); a cell "a-b" is the spread (min-max) over the runs, a single value
  means every run agreed; R/D percentiles pool the jobs of all runs; the
  per-set tables and the plots show run 1.
- E: the workload's energy in the release window, the same model as E_opt:
  sum over the tasks of sum over 100 us chunks of its CPU time of
  dt x P(f), P the Energy Model's power of one CPU at the chunk's frequency
  (debugfs energy_model, uW; the mean of the chunk's start and end), i.e.
  power(f) x CPU time at f (the emulated-work model). Idle and other tasks
  cost nothing.
- E_res (a second view, not comparable with E_opt): per cluster, sum over
  its OPPs of P(OPP) x time_in_state(OPP) x the mean number of busy CPUs of
  the cluster (/proc/stat over the run). It assumes the busy fraction does
  not depend on the OPP, which is biased: a busy cluster runs fast.
- E_opt: per cluster the lowest constant OPP that the Goossens-Funk-Baruah
  test proves schedulable under global EDF on its m CPUs, with the
  emulated utilisations u_i(f) = w_i / (P_i s(f)), s(f) = f/f_max x
  capacity/1024, w_i the largest work of a job: u_max <= 1 and
  sum u_i <= m - (m - 1) u_max. The test is sufficient, not necessary, so
  this OPP is an upper bound on the true optimum's OPP (and E_opt on its
  energy). Its energy: P(f) x sum_i (mean work_i / P_i) / s(f) x window
  (busy time at f, no idle cost). Sets with jobs larger than their
  reservation (mixed) have none.
- Predicted share of a reclaiming task (CPU time), per kernel, from the
  logged set: Umax = sched_rt_runtime_us / sched_rt_period_us, m the CPUs
  of its root domain, TB its total_bw at the start with the tasks admitted
  (debugfs sched/debug), u_i = runtime/period, s the domain's capacity/1024
  x mean f / f_max (time_in_state). The periodic tasks end a job with
  sched_yield() and stay active until their next period, so they count with
  their whole reservation.
  - 6.12 rule (grub_reclaim(), per CPU): runtime drains at
    max(u_i, Umax - Uinact - Uextra) / Umax per unit of CPU time, unscaled.
    With Uinact = 0 (the set's tasks never sleep; an idle fair server would
    add its bandwidth, a few points more) and Uextra = Umax - TB/m (what
    __dl_add() keeps when the accounting is exact):
    x_i = min(Umax, u_i Umax / max(u_i, TB/m)).
  - series rule (dl_grub_test's expected_shares()): R = min(m Umax - sum of
    the others' min(u_j/s, 1), (C Umax - sum u_j - U_o) / s), C the domain's
    capacity/1024, U_o = TB - the set's admitted bandwidth (fair servers,
    schedutil's worker); shared in proportion to u_i, none above Umax,
    none below min(u_i/s, 1).
  Both are models of a whole domain: they let the task use the spare
  bandwidth of every CPU of it, while one thread runs on one CPU at a time
  and, under a per-CPU rule, reclaims what the tasks beside it there leave.
  Where the measured share is far from both, the models are what to check
  first (see the README); they are not a verdict on either kernel.
  A task asking for SCHED_FLAG_DL_DEMOTION on a kernel without it ran with
  the same reservation, plain ("ran with").
"""


def check_logs(runs):
    """Errors that make the comparison meaningless: no sets, a set that did
    not end, no Energy Model or time_in_state (a base built without the test
    cpufreq driver)."""
    errors = []
    for label, rs in runs.items():
        for r in rs:
            if not r.sets:
                errors.append(f'{r.path}: no dl_workload set')
            for name, s in r.sets.items():
                if not s.ended:
                    errors.append(f'{r.path}: set {name} has no "wl end" line')
                if not s.em or not s.tis:
                    errors.append(f'{r.path}: set {name} has no Energy Model or '
                                  'time_in_state (kernel without the test cpufreq driver?)')
    return errors


def platform_text(s):
    caps = collections.Counter(c[0] for c in s.cpus.values())
    parts = ' + '.join(f'{n} x {cap}' for cap, n in sorted(caps.items(), reverse=True))
    return f'{capacity(s, s.cpus):g} CPUs of capacity 1024: {parts}'


def rt_args(runs, prog):
    for rs in runs.values():
        for r in rs:
            for line in r.rt:
                if line.startswith(prog + '-args '):
                    return line[len(prog) + 6:]
    return '?'


def main(args):
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = args[0]
    runs = collections.OrderedDict()
    for a in args[1:]:
        label, _, path = a.partition('=')
        runs.setdefault(label, []).append(parse_log(path))
    errors = check_logs(runs)
    if errors:
        print('\n'.join(f'bench_dl_report: {e}' for e in errors), file=sys.stderr)
        return 1
    order = []
    for rs in runs.values():
        for r in rs:
            order += [n for n in r.sets if n not in order]
    first = next(iter(next(iter(runs.values()))[0].sets.values()))
    nruns = sorted({len(rs) for rs in runs.values()})
    print('## Deadline workloads (arm64 big.LITTLE guest, bench/dl_workload.c)\n')
    print(RULES.format(platform=platform_text(first),
                       runs='-'.join(str(n) for n in nruns) + ' time(s)'))
    print('### Summary\n')
    print('\n'.join(summary_table(runs, order)))
    print()
    state = {True: 'clean', False: 'NOT clean', None: 'not checked (the run did not end)'}
    for label, rs in runs.items():
        print(f'- {label}: kernel log ' + ', '.join(state[r.clean] for r in rs))
    print('\n### Reclaiming and demotion (set "mixed")\n')
    print('\n'.join(mixed_rows(runs)))
    print('\n### Per set and kernel (run 1)\n')
    for name in order:
        for label, s in first_runs(runs, name):
            if not s:
                continue
            print(f'#### {name} on {label} ({s.duration:g} s)\n')
            print('\n'.join(task_table(s)))
            print()
            print('\n'.join(residency_table(s)))
            print()
    rc, cyc, dt = rt_tests_rows(runs)
    print('### Cross-check: rt-tests on the same guests\n')
    print('\n'.join(rc))
    print(f'\ncyclicdeadline {rt_args(runs, "cyclicdeadline")} (latency of each period\'s '
          'wake-up, us):\n')
    print('\n'.join(cyc))
    print(f'\ndeadline_test {rt_args(runs, "deadline_test")}: each of its threads gets '
          '-p x (its CPUs) / -t of bandwidth (its "percent per task" line), deadline = '
          'period = -i + k x -s, and runs loops calibrated to -P of its runtime; the '
          'bandwidths add up to -p of the CPUs, so global EDF meets every deadline '
          '(Goossens-Funk-Baruah) and a correct kernel shows 0 missed deadlines and 0 '
          'missed periods, unless a vCPU jump larger than the slack (1 - -P of the runtime) '
          'hits a job. It widens a thread\'s deadline after a job that overran, so the '
          'kernels\' threads need not end with the same parameters:\n')
    print('\n'.join(dt))
    print()
    print('\n'.join(make_plots(outdir, runs, order)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
