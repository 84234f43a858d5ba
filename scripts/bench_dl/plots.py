"""The PNG plots of the report (matplotlib, when Debian's python3-matplotlib
is there; the tables come out without it).
"""
import math
import os

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:         # the tables still come out
    plt = None

from .models import (bw, capacity, clusters, demand_util, set_optimum, set_totals,
                     workload_energy)
from .tables import runs_of


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
