#!/usr/bin/env python3
"""The deadline-workload part of `make bench`: read the guest logs of
bench/dl_workload.c and rt-tests (guest-init.sh, wbbench=dl) for each kernel,
write a Markdown report on stdout and PNG plots into OUTDIR.

usage: bench_dl_report.py OUTDIR LABEL=LOG [LABEL=LOG...]
       (the first label is the base, the last the series)

Every figure is derived from the logs; the rules used are stated in the
report next to the tables:

- work units: CPU time x cur_freq/max_freq x capacity/1024 (dl_workload's
  emulated work model: QEMU does not slow a vCPU down at a lower OPP);
- cluster energy: E_c = sum over the cluster's OPPs of P(OPP) x
  time_in_state(OPP) x (busy CPU time of the cluster / run length), with P
  the Energy Model's power of one CPU (uW); i.e. the EM power x residency,
  weighted by how many of the cluster's CPUs were busy on average;
- the offline optimum: per cluster the lowest OPP f at which the set is
  schedulable by global EDF on the cluster's m CPUs with the emulated
  utilisations u_i(f) = w_i / (P_i x s(f)), s(f) = f/f_max x capacity/1024,
  w_i the largest work of a job: u_max <= 1 and sum u_i <= m - (m-1) u_max
  (Goossens, Funk, Baruah: sufficient for no miss); its energy is
  P(f) x sum_i (mean work_i / P_i) / s(f) x run length.
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

    def __init__(self, name, duration_ms):
        self.name = name
        self.duration = duration_ms / 1000.0     # s
        self.cpus = {}          # cpu -> (capacity, max_khz)
        self.em = collections.defaultdict(dict)  # cpu -> {khz: uW}
        self.umax = 0.95
        self.tasks = collections.OrderedDict()   # name -> dict
        self.jobs = collections.defaultdict(list)
        self.summary = {}
        self.freq = []          # (t s, [khz per cpu])
        self.tis = collections.defaultdict(dict)  # "0-1" -> {khz: ticks}
        self.busy = {}          # cpu -> (busy, total) ticks


def kv(fields):
    return dict(f.split('=', 1) for f in fields if '=' in f)


def parse_log(path):
    """Sets by name, rt-tests lines, whether the kernel log stayed clean."""
    sets, rt, clean, cur = collections.OrderedDict(), [], None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            if line.startswith('rt '):
                rt.append(line[3:])
                continue
            if line.startswith('bench kernel_log_clean'):
                clean = line.split()[2] == 'ok'
                continue
            if not line.startswith('wl '):
                continue
            w = line.split()
            kind = w[1]
            if kind == 'set':
                cur = Set(w[2], float(kv(w[3:])['duration_ms']))
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
                if int(a['period_us']):
                    cur.umax = int(a['runtime_us']) / int(a['period_us'])
            elif kind == 'task':
                a = kv(w[3:])
                lo, _, hi = a['work'].partition('-')
                cur.tasks[w[2]] = {
                    'runtime': int(a['runtime_us']) / 1e6, 'deadline': int(a['deadline_us']) / 1e6,
                    'period': int(a['period_us']) / 1e6, 'work_lo': float(lo),
                    'work_hi': float(hi or lo), 'flags': int(a['flags'], 16), 'in': a['in'],
                    'setattr': a['setattr'], 'affinity': a['affinity']}
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
                cur = None
    return sets, rt, clean


# ---------------------------------------------------------------- the machine

def clusters(s):
    """Clusters as (name, [cpus]): CPUs of one time_in_state policy."""
    out = []
    for policy in s.tis:
        lo, _, hi = policy.partition('-')
        cpus = list(range(int(lo), int(hi or lo) + 1))
        cap = s.cpus[cpus[0]][0]
        out.append(('big' if cap == 1024 else 'LITTLE', cpus))
    if not out:                         # no cpufreq: one cluster of all CPUs
        out.append(('all', sorted(s.cpus)))
    return out


def task_cluster(s, task, cls):
    """The cluster a task runs on: its partition's CPUs, or the root's."""
    name = 'LITTLE' if s.tasks[task]['in'] == 'little' else 'big'
    for c in cls:
        if c[0] == name:
            return c
    return cls[0]


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


# ---------------------------------------------------------------- energy

def cluster_energy(s, cluster):
    """E_c in mJ (EM power x residency x mean busy CPUs), and the residency."""
    name, cpus = cluster
    policy = f'{cpus[0]}-{cpus[-1]}'
    tis = s.tis.get(policy, {})
    total_ticks = sum(tis.values())
    busy = sum(s.busy.get(c, (0, 1))[0] for c in cpus)
    total = sum(s.busy.get(c, (0, 1))[1] for c in cpus)
    if not total_ticks or not total:
        return None, {}
    busy_cpus = len(cpus) * busy / total          # mean number of busy CPUs
    residency = {f: t / total_ticks for f, t in tis.items()}
    # time_in_state is in 10 ms ticks; power in uW: uW x s = uJ
    energy_uj = sum(power(s, cpus[0], f) * t / 100 for f, t in tis.items()) * busy_cpus
    return energy_uj / 1000, residency


def mean_work(t):
    return t['runtime'] * (t['work_lo'] + t['work_hi']) / 2


def is_periodic_set(s):
    """Only sets whose jobs fit their reservation have an offline optimum."""
    return all(t['work_hi'] <= 1 for t in s.tasks.values())


def optimum(s, cluster):
    """(f kHz, energy mJ) of the lowest schedulable constant OPP, or None."""
    name, cpus = cluster
    tasks = [t for n, t in s.tasks.items() if task_cluster(s, n, clusters(s)) == cluster]
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


def demand_util(s):
    """Mean demand of the periodic tasks (work units per s) / platform
    capacity (in big CPUs)."""
    cap = sum(c[0] for c in s.cpus.values()) / 1024
    return sum(mean_work(s.tasks[n]) / s.tasks[n]['period'] for n in periodic_tasks(s)) / cap


# ---------------------------------------------------------------- per task

def response_ratios(s, task):
    """(response / relative deadline) of each finished job, sorted."""
    t = s.tasks[task]
    return sorted((j['finish'] - j['release']) / t['deadline']
                  for j in s.jobs[task] if j['finish'] is not None)


def periodic_tasks(s):
    """Tasks whose jobs fit their reservation: the ones that can meet
    deadlines (the mixed set's overrunning tasks are late by design)."""
    return [n for n, t in s.tasks.items() if t['work_hi'] <= 1 and n in s.summary]


def set_totals(s):
    tasks = periodic_tasks(s)
    jobs = sum(s.summary[n]['jobs'] for n in tasks)
    missed = sum(s.summary[n]['missed'] for n in tasks)
    ratios = sorted(r for n in tasks for r in response_ratios(s, n))
    return jobs, missed, ratios


def jumps(s):
    """(largest step of a periodic task's CPU clock in s, number of jobs in
    which one step charged more than the job's slack). A step of J s of CPU
    time at the job's mean speed (units / CPU time) charges about J x speed
    of runtime at once; beyond runtime - work the job overruns."""
    largest, hit = 0.0, 0
    for n in periodic_tasks(s):
        t = s.tasks[n]
        for j in s.jobs[n]:
            largest = max(largest, j['step'])
            speed = j['units'] / j['cpu'] if j['cpu'] else 1.0
            if j['step'] * speed > t['runtime'] - j['work']:
                hit += 1
    return largest, hit


def pct(v, p):
    """Nearest-rank percentile of a sorted list."""
    if not v:
        return float('nan')
    return v[min(len(v) - 1, max(0, math.ceil(p / 100 * len(v)) - 1))]


def grub_bound(s, task):
    """Upper bound of a reclaiming task's CPU-time share (see the report)."""
    mine = task_cluster(s, task, clusters(s))
    others = sum(s.summary[n]['cpu_share'] for n in s.tasks
                 if n != task and n in s.summary and task_cluster(s, n, clusters(s)) == mine)
    return min(s.umax, len(mine[1]) * s.umax - others)


# ---------------------------------------------------------------- tables

def fmt(v, nd=2):
    return '-' if v is None or (isinstance(v, float) and math.isnan(v)) else f'{v:.{nd}f}'


def summary_table(runs, order):
    """One row per set and kernel: misses, responses, energy, frequencies."""
    out = ['| set | U demand | kernel | jobs | missed | jobs hit by a jump > slack '
           '| largest jump ms | p95 R/D | max R/D | E (mJ) '
           '| E / E_opt | E_opt (mJ) at OPP | mean big MHz | mean LITTLE MHz |',
           '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for name in order:
        for label, (sets, _, _) in runs.items():
            s = sets.get(name)
            if not s:
                out.append(f'| {name} | | {label} | missing | | | | | | | | | | |')
                continue
            jobs, missed, ratios = set_totals(s)
            largest, hit = jumps(s)
            e_total, e_opt, opp, mhz = 0.0, 0.0, [], {}
            for c in clusters(s):
                e, res = cluster_energy(s, c)
                e_total += e or 0
                mhz[c[0]] = sum(f * r for f, r in res.items()) / 1000 if res else None
                o = optimum(s, c) if is_periodic_set(s) else None
                if o is None:
                    e_opt = None
                elif e_opt is not None:
                    e_opt += o[1]
                    if o[0]:
                        opp.append(f'{c[0]} {o[0] // 1000}')
            ratio = e_total / e_opt if e_opt else None
            opt = f'{e_opt:.1f} ({", ".join(opp)} MHz)' if e_opt is not None else 'n/a'
            out.append(f'| {name} | {demand_util(s):.2f} | {label} | {jobs:.0f} | {missed:.0f} '
                       f'| {hit} | {largest * 1e3:.0f} | {fmt(pct(ratios, 95))} '
                       f'| {fmt(ratios[-1] if ratios else None)} '
                       f'| {e_total:.1f} | {fmt(ratio)} | {opt} | {fmt(mhz.get("big"), 0)} '
                       f'| {fmt(mhz.get("LITTLE"), 0)} |')
    return out


def task_table(s):
    out = ['| task | CPUs | reservation | work/runtime | flags | setattr | jobs | missed '
           '| p50 ms | p95 ms | p99 ms | max ms | CPU share | work share | reserved | demand '
           '| energy mJ |',
           '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|']
    for n, t in s.tasks.items():
        v = s.summary.get(n, {})
        flags = ','.join(x for b, x in ((0x02, 'RECLAIM'), (0x80, 'DEMOTION'))
                         if t['flags'] & b) or '-'
        work = f'{t["work_lo"]:g}' if t['work_lo'] == t['work_hi'] \
            else f'{t["work_lo"]:g}-{t["work_hi"]:g}'
        cells = [fmt(v.get(k), nd) for k, nd in (('jobs', 0), ('missed', 0), ('p50_ms', 1),
                 ('p95_ms', 1), ('p99_ms', 1), ('max_ms', 1), ('cpu_share', 3),
                 ('work_share', 3), ('reserved', 3), ('demand', 3), ('energy_mj', 1))]
        if t['setattr'] != 'ok':
            cells = ['-'] * len(cells)
        out.append(f'| {n} | {t["in"]} | {t["runtime"] * 1e3:g}/{t["period"] * 1e3:g} ms '
                   f'| {work} | {flags} | {t["setattr"]} | ' + ' | '.join(cells) + ' |')
    return out


def residency_table(s):
    out = []
    for c in clusters(s):
        e, res = cluster_energy(s, c)
        if not res:
            continue
        states = ', '.join(f'{f // 1000} MHz {r:.0%}' for f, r in sorted(res.items()) if r)
        out.append(f'- {c[0]} (CPUs {c[1][0]}-{c[1][-1]}): {states}; energy {e:.1f} mJ')
    return out


def mixed_rows(runs):
    """Reclaiming and demoted tasks of the mixed set, per kernel."""
    out = ['| kernel | task | flags | setattr | CPU share | GRUB bound (CPU time) '
           '| work share | reserved |', '|---|---|---|---|---|---|---|---|']
    for label, (sets, _, _) in runs.items():
        s = sets.get('mixed')
        if not s:
            continue
        for n, t in s.tasks.items():
            if t['work_hi'] <= 1:
                continue
            v = s.summary.get(n, {})
            ok = t['setattr'] == 'ok'
            bound = fmt(grub_bound(s, n), 3) if t['flags'] & 0x02 and ok else '-'
            flags = 'RECLAIM' if t['flags'] & 0x02 else 'DEMOTION' if t['flags'] & 0x80 else '-'
            cpu = fmt(v.get('cpu_share'), 3) if ok else '-'
            work = fmt(v.get('work_share'), 3) if ok else '-'
            out.append(f'| {label} | {n} | {flags} | {t["setattr"]} | {cpu} | {bound} '
                       f'| {work} | {t["runtime"] / t["period"]:.3f} |')
    return out


def rt_tests_rows(runs):
    """cyclicdeadline: per thread cycles, avg and max latency; deadline_test:
    per thread missed deadlines and periods."""
    cyc = ['| kernel | cyclicdeadline thread | interval us | cycles | min us | avg us | max us |',
           '|---|---|---|---|---|---|---|']
    dt = ['| kernel | deadline_test thread | deadline us | runtime us | periods | missed deadlines '
          '| missed periods |', '|---|---|---|---|---|---|---|']
    for label, (_, rt, _) in runs.items():
        for line in rt:
            m = re.match(r'cyclicdeadline T:\s*(\d+)\s*\(\s*\d+\)\s*I:(\d+)\s*C:\s*(\d+)\s*'
                         r'Min:\s*(\d+)\s*Act:\s*\d+\s*Avg:\s*(\d+)\s*Max:\s*(\d+)', line)
            if m:
                cyc.append(f'| {label} | {m.group(1)} | {m.group(2)} | {m.group(3)} '
                           f'| {m.group(4)} | {m.group(5)} | {m.group(6)} |')
        block = {}
        for line in rt:
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
                dt.append(f'| {label} | {block["thread"]} | {block.get("deadline", "?")} '
                          f'| {block.get("runtime", "?")} | {block["periods"]} '
                          f'| {block.get("missed_dl", "?")} | {block.get("missed_p", "?")} |')
                block = {}
    return cyc, dt


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


def plot_shares(runs, name, path):
    fig, axes = plt.subplots(len(runs), 1, figsize=(10, 3.2 * len(runs)), sharex=True,
                             squeeze=False)
    for ax, (label, (sets, _, _)) in zip(axes[:, 0], runs.items()):
        s = sets.get(name)
        if not s:
            continue
        # windows of the longest period: every task has a job in each
        step = max(t['period'] for t in s.tasks.values())
        for n in s.tasks:
            if s.tasks[n]['setattr'] != 'ok':
                continue
            t, v = shares_over_time(s, n, step)
            line, = ax.step(t, v, where='post', label=n, lw=1)
            ax.axhline(s.tasks[n]['runtime'] / s.tasks[n]['period'], color=line.get_color(),
                       ls=':', lw=0.8)
        ax.set_title(f'{name} on {label}: work share per {step * 1000:g} ms '
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
    for ax, (label, (sets, _, _)) in zip(axes[:, 0], runs.items()):
        s = sets.get(name)
        if not s or not s.freq:
            continue
        for cname, cpus in clusters(s):
            ax.step([t for t, _ in s.freq], [k[cpus[0]] / 1000 for _, k in s.freq],
                    where='post', label=f'{cname} (CPUs {cpus[0]}-{cpus[-1]})')
        ax.set_title(f'{name} on {label}: frequency per cluster (sampled every 20 ms)')
        ax.set_ylabel('MHz')
        ax.legend(fontsize=8)
    axes[-1, 0].set_xlabel('time (s, virtual)')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_energy(runs, order, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    styles = {'fixed': '-', 'variable': '--'}
    for kind, ls in styles.items():
        names = [n for n in order if n.startswith(kind + '-')]
        opt = {}
        for label, (sets, _, _) in runs.items():
            pts = []
            for n in names:
                s = sets.get(n)
                if not s:
                    continue
                pts.append((demand_util(s), sum(cluster_energy(s, c)[0] or 0
                                                for c in clusters(s))))
                o = [optimum(s, c) for c in clusters(s)]
                if all(x is not None for x in o):
                    opt[n] = (demand_util(s), sum(x[1] for x in o))
            if pts:
                ax.plot(*zip(*sorted(pts)), ls=ls, marker='o', label=f'{label}, {kind}')
        if opt:
            ax.plot(*zip(*sorted(opt.values())), ls=ls, marker='x', color='k',
                    label=f'optimum, {kind}')
    ax.set_xlabel('total demanded utilisation (mean work / period, of 3 big-CPU capacities)')
    ax.set_ylabel('energy over the run (mJ, Energy Model)')
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
        for label, (sets, _, _) in runs.items():
            s = sets.get(name)
            if not s:
                continue
            r = set_totals(s)[2]
            if r:
                ax.step(r, [(i + 1) / len(r) for i in range(len(r))], where='post', label=label)
        ax.axvline(1.0, color='grey', ls=':', lw=0.8)
        ax.set_title(name, fontsize=9)
        ax.set_xlabel('response time / deadline')
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
  does. A job's work is a fraction of its runtime in these units, which is
  also the scale the kernel charges runtime with. "work share" is units per
  second received in the release window, "CPU share" CPU time per second,
  "demand" mean work / period, "reserved" runtime / period.
- R/D: response time (finish - release) / relative deadline; a miss is a job
  finishing after its absolute deadline or not finishing before the run
  stops (one deadline after the last release). The summary counts the
  periodic tasks only (work <= runtime); "U demand" is their mean work /
  period over the platform's capacity (3 big CPUs: 2 x 1024 + 2 x 512).
- Jumps: with several busy vCPUs the emulation lets a vCPU stand still
  for tens of ms while its task's CPU clock runs on (README, virtual time);
  the kernel charges that step to the reservation at once. A job "hit by a
  jump > slack" had one step that charged more than its runtime - work:
  it overruns, the CBS postpones the task by a period or more, and the
  misses that follow (often several jobs of the task, until its backlog is
  gone) are not the scheduler's doing. The steps come from the emulation
  (it runs one vCPU at a time); a kernel that held a CPU in interrupts or
  without preemption for that long would show the same, so a difference in
  jumps between the kernels is a finding to look into, not a verdict. Each
  set runs once per kernel: compare misses only where neither was hit.
- E: per cluster, sum over its OPPs of P(OPP) x time_in_state(OPP) x the
  mean number of busy CPUs of the cluster (/proc/stat over the run), with P
  the Energy Model's power of one CPU (debugfs energy_model, uW, from
  P = C V^2 f of the devicetree); summed over the clusters. It assumes the
  busy fraction does not depend on the OPP. The per-task "energy mJ" is the
  workload's own CPU time x P(OPP at that moment), counted by dl_workload.
- E_opt: per cluster the lowest constant OPP f at which global EDF on its m
  CPUs meets every deadline by the Goossens-Funk-Baruah test with the
  emulated utilisations u_i(f) = w_i / (P_i s(f)), s(f) = f/f_max x
  capacity/1024, w_i the largest work of a job: u_max <= 1 and
  sum u_i <= m - (m - 1) u_max. Its energy is P(f) x sum_i (mean work_i /
  P_i) / s(f) x run length (busy time at f, no idle cost, no overhead).
  Sets with jobs larger than their reservation (mixed) have none.
- GRUB bound of a reclaiming task (CPU-time share): min(Umax, m Umax - the
  CPU-time shares of the other deadline tasks of its root domain), Umax =
  sched_rt_runtime_us / sched_rt_period_us: the CPU time the others leave,
  up to Umax of one CPU. It is a ceiling, not GRUB's rule: GRUB hands over
  only inactive bandwidth, and a periodic task that ends its job with
  sched_yield() stays active (throttled, not asleep) until its next period,
  so its unused runtime is not reclaimable.
"""


def main(args):
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = args[0]
    runs = collections.OrderedDict()
    for a in args[1:]:
        label, _, path = a.partition('=')
        runs[label] = parse_log(path)
    order = []
    for sets, _, _ in runs.values():
        for n in sets:
            if n not in order:
                order.append(n)
    print('## Deadline workloads (arm64 big.LITTLE guest, bench/dl_workload.c)\n')
    print(RULES)
    print('### Summary\n')
    print('\n'.join(summary_table(runs, order)))
    print()
    for label, (_, _, clean) in runs.items():
        state = {True: 'clean', False: 'NOT clean', None: 'not checked (the run did not end)'}
        print(f'- {label}: kernel log {state[clean]}')
    print('\n### Reclaiming and demotion (set "mixed")\n')
    print('\n'.join(mixed_rows(runs)))
    print('\n### Per set and kernel\n')
    for name in order:
        for label, (sets, _, _) in runs.items():
            s = sets.get(name)
            if not s:
                continue
            print(f'#### {name} on {label} ({s.duration:g} s)\n')
            print('\n'.join(task_table(s)))
            print()
            print('\n'.join(residency_table(s)))
            print()
    cyc, dt = rt_tests_rows(runs)
    print('### Cross-check: rt-tests on the same guests\n')
    print('cyclicdeadline -t 4 -i 10000 -s 5000 (latency of each period\'s wake-up, us):\n')
    print('\n'.join(cyc))
    print('\ndeadline_test -t 4 -i 10000 -s 5000 -p 50 (its own busy loops, per thread;'
          ' it calibrates its loops and widens a thread\'s deadline after a job that'
          ' overran, so the two kernels\' threads need not have the same parameters):\n')
    print('\n'.join(dt))
    print()
    print('\n'.join(make_plots(outdir, runs, order)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
