"""What the logs are measured against: the machine (clusters, capacity, speed,
power), the energy of a run and its offline optimum, per-task responses and
misses, and each kernel's GRUB rule as a domain-wide model.
"""
import math


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
