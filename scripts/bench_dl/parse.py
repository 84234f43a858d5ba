"""Reading the guest logs of bench/dl_workload.c and rt-tests: one Run per boot,
its task sets (Set) with their tasks, jobs, frequencies and Energy Model.
"""
import collections


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
