#!/usr/bin/env python3
"""The deadline-workload part of `make bench`: read the guest logs of
bench/dl_workload.c and rt-tests (guest/bench.sh, wbbench=dl) for each kernel,
write a Markdown report on stdout and PNG plots into OUTDIR.

usage: bench_dl_report.py OUTDIR LABEL=LOG [LABEL=LOG...]
       (the first label is the base, the last the series; a label given
       more than once is a repeat: its runs are summarised with their
       spread)

Every figure is derived from the logs; the rules used are stated in RULES,
printed in the report next to the tables. The work is done by the package
bench_dl/: parse (the logs), models (machine, energy, GRUB rules), tables,
plots.
"""
import collections
import sys

from bench_dl.parse import parse_log
from bench_dl.models import capacity
from bench_dl.tables import mixed_rows, residency_table, rt_tests_rows, summary_table, task_table
from bench_dl.plots import first_runs, make_plots


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
