// SPDX-License-Identifier: GPL-2.0
/*
 * dl_workload: periodic SCHED_DEADLINE task sets, for `make bench`.
 *
 * usage: dl_workload SETFILE      ("-" reads the set from standard input)
 *
 * The set is plain text, one directive per line, '#' starts a comment:
 *
 *   name NAME                  the set's name, echoed in the output
 *   duration MS                jobs are released during MS ms (default 4000)
 *   sample MS                  frequency sampling period (default 10)
 *   seed N                     seed of the variable execution times (default 1)
 *   partition NAME CPUS        a cgroup v2 cpuset partition of CPUS (e.g.
 *                              "partition little 2-3"): its own root domain,
 *                              so deadline tasks may be kept on those CPUs
 *   task NAME KEY=VALUE...     a periodic task, keys:
 *       runtime=MS deadline=MS period=MS   the reservation (deadline
 *                              defaults to period; decimals allowed)
 *       work=F or work=A-B     work per job as a fraction of the runtime:
 *                              fixed F, or uniform in [A, B] per job;
 *                              above 1 the job overruns its reservation
 *       flags=reclaim,demotion SCHED_FLAG_RECLAIM (0x02),
 *                              SCHED_FLAG_DL_DEMOTION (0x80, this series),
 *                              or a number (flags=0x82)
 *       in=NAME                run in that partition; in=root (the
 *                              default): the root cpuset, i.e. the CPUs
 *                              no partition took
 *       affinity=CPUS          sched_setaffinity() after sched_setattr():
 *                              admission control refuses a mask narrower
 *                              than the root domain (the error is reported)
 *       offset=MS              first release MS after the common start
 *
 * Each task is a process of one thread: it joins its partition, becomes a
 * SCHED_DEADLINE task (sched_setattr), and from a common start releases a
 * job every period. A job spins until its work is done; a job that ends
 * before the next release calls sched_yield(), which gives back the rest of
 * the runtime until the next period (the usual end of a periodic job); a
 * late job is followed at once by the next one.
 *
 * Work model. QEMU does not slow a vCPU down at a lower operating point or
 * on a LITTLE CPU; only the scheduler's accounting sees it. So work is
 * counted in "work units": one unit is one ns of CPU time on a CPU of
 * capacity 1024 at its highest frequency, and a job credits
 *
 *	units = CPU time * cur_freq / max_freq * capacity / 1024
 *
 * every CHUNK_NS of CPU time, with cur_freq from cpufreq's scaling_cur_freq,
 * max_freq from cpuinfo_max_freq and the capacity from cpu_capacity of the
 * CPU it runs on (the mean of the values at the chunk's start and end).
 * This is the scale the kernel charges a reservation's runtime with, so a
 * job of W units uses W of runtime at any frequency and "work" is a
 * fraction of the runtime. Energy: each chunk also adds its CPU time x the
 * Energy Model's power at that frequency (debugfs energy_model, in the
 * EM's unit: uW).
 *
 * Output, one record a line, all starting with "wl " (times in us from the
 * start, virtual time under QEMU -icount):
 *
 *   wl set NAME duration_ms=... seed=... sample_ms=...
 *   wl cpu N capacity=C max_khz=F            (max_khz=0: no cpufreq)
 *   wl em CPU khz=F power_uw=P               (the CPU's Energy Model,
 *                                             ascending frequency)
 *   wl umax runtime_us=R period_us=P         (sched_rt_*: the GRUB limit)
 *   wl fair_server CPU runtime_ns= period_ns= (debugfs sched/fair_server;
 *                                             absent: no such file)
 *   wl dlbw CPU total_bw=B                   (the CPU's root domain's
 *           dl_bw->total_bw from debugfs sched/debug at the common start,
 *           the tasks admitted: units of 2^-20 CPU; -1: not readable)
 *   wl task NAME runtime_us= deadline_us= period_us= work=A-B flags= in=
 *           setattr=ok|ERRNO affinity=ok|ERRNO|- ran_flags=
 *           (ran_flags: the flags it runs with; without demotion when the
 *           kernel refused SCHED_FLAG_DL_DEMOTION with EINVAL, so that a
 *           kernel without it still runs the same reservation, plain)
 *   wl job NAME J release start finish deadline cpu_us units_us cpu energy_uj
 *           work_us max_step_us
 *           (finish -1: the job did not end before the run stopped; work:
 *           the units asked; max_step: the largest step of the task's CPU
 *           clock in the job, the emulation's "jump" when it let the vCPU
 *           stand still: the kernel charges it to the reservation at once)
 *   wl freq T khz(cpu0) khz(cpu1) ...
 *   wl tis POLICYCPUS KHZ TICKS              (time_in_state over the run,
 *                                             10 ms ticks)
 *   wl busy CPU BUSY TOTAL                   (/proc/stat over the run, ticks)
 *   wl summary NAME jobs= missed= unfinished= cpu_share= work_share=
 *           energy_mj=
 *   wl end NAME
 *
 * Response time = finish - release; a job misses if it finishes after its
 * absolute deadline (release + deadline) or not at all. Shares are over the
 * release window [start, start + duration]: CPU time (or work units) the
 * task received in it / its length, a job running at the window's end
 * counted up to there (to the chunk); "reserved" is runtime/period and
 * "demand" the mean work per job / period. energy_mj is the task's energy
 * in the same window (per job: energy_uj, the whole job).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sched_attr.h"

#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL
#define CHUNK_NS	(100 * 1000ULL)	/* CPU time between two work credits */
#define MAX_TASKS	32
#define MAX_PARTS	4
#define MAX_CPUS	16
#define MAX_OPPS	16
#define MAX_SAMPLES	100000
#define CGROOT		"/sys/fs/cgroup"

struct task {
	char name[32];
	uint64_t runtime, deadline, period, offset;	/* ns */
	double work_lo, work_hi;	/* per job, fraction of the runtime */
	uint64_t flags;
	int part;			/* partition index, -1: root cpuset */
	char affinity[64];		/* "" : none asked */
};

struct partition {
	char name[32];
	char cpus[64];
};

struct taskset {
	char name[64];
	uint64_t duration, sample;	/* ns */
	unsigned long seed;
	struct task t[MAX_TASKS];
	int ntasks;
	struct partition p[MAX_PARTS];
	int nparts;
};

/* What one job did; times in ns from the common start. */
struct job {
	int64_t release, start, finish, deadline;	/* finish -1: unfinished */
	uint64_t cpu_ns;
	uint64_t max_step;		/* largest step of the CPU clock, ns */
	double work, units, energy;	/* asked, done (work units); uW x ns */
	int cpu;
};

/* What a task reports back to the parent (shared memory). */
struct outcome {
	int setattr_err, affinity_err;	/* 0 or errno; affinity -1: not asked */
	uint64_t ran_flags;		/* the sched_attr flags it runs with */
	uint64_t njobs;
	uint64_t cpu_in_window;		/* CPU time in [start, end] */
	double units_in_window, energy_in_window;	/* units; uW x ns */
	struct job *jobs;
};

/* The machine, as the kernel describes it. */
struct platform {
	int ncpus;
	unsigned int capacity[MAX_CPUS];
	unsigned int max_khz[MAX_CPUS];		/* 0: no cpufreq */
	int cur_fd[MAX_CPUS];			/* scaling_cur_freq, -1: none */
	int nopps[MAX_CPUS];			/* Energy Model of the CPU */
	unsigned int em_khz[MAX_CPUS][MAX_OPPS];
	unsigned long em_uw[MAX_CPUS][MAX_OPPS];
};

static struct platform plat;

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / NSEC_PER_SEC, .tv_nsec = t % NSEC_PER_SEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ret = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* The first number in @path, or @fallback. */
static unsigned long read_ulong(const char *path, unsigned long fallback)
{
	FILE *f = fopen(path, "r");
	unsigned long v;

	if (!f)
		return fallback;
	if (fscanf(f, "%lu", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

/* Set bit N of @mask for every CPU in a list such as "0-1,3". */
static unsigned long parse_cpulist(const char *s)
{
	unsigned long mask = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < MAX_CPUS; a++)
			mask |= 1UL << a;
		s = *end == ',' ? end + 1 : end;
	}
	return mask;
}

/* ---- the machine ---- */

/*
 * Sort @cpu's OPPs by frequency: glob() lists the EM's "ps:FREQ" directories
 * in text order (ps:1200000 before ps:400000), power_uw() needs them
 * ascending.
 */
static void sort_opps(int cpu)
{
	int i, k;

	for (i = 1; i < plat.nopps[cpu]; i++) {
		unsigned int khz = plat.em_khz[cpu][i];
		unsigned long uw = plat.em_uw[cpu][i];

		for (k = i; k > 0 && plat.em_khz[cpu][k - 1] > khz; k--) {
			plat.em_khz[cpu][k] = plat.em_khz[cpu][k - 1];
			plat.em_uw[cpu][k] = plat.em_uw[cpu][k - 1];
		}
		plat.em_khz[cpu][k] = khz;
		plat.em_uw[cpu][k] = uw;
	}
}

/* The Energy Model of each performance domain, from debugfs. */
static void read_energy_model(void)
{
	glob_t g;
	size_t i;

	if (glob("/sys/kernel/debug/energy_model/*/cpus", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		char dir[256], pat[300], buf[64];
		unsigned long mask;
		glob_t ps;
		size_t k;
		FILE *f;
		int cpu;

		snprintf(dir, sizeof(dir), "%.*s", (int)(strlen(g.gl_pathv[i]) - 5), g.gl_pathv[i]);
		f = fopen(g.gl_pathv[i], "r");
		if (!f)
			continue;
		mask = fgets(buf, sizeof(buf), f) ? parse_cpulist(buf) : 0;
		fclose(f);
		snprintf(pat, sizeof(pat), "%s/ps:*", dir);
		if (glob(pat, 0, NULL, &ps))
			continue;
		for (cpu = 0; cpu < MAX_CPUS; cpu++) {
			if (!(mask & (1UL << cpu)))
				continue;
			for (k = 0; k < ps.gl_pathc && k < MAX_OPPS; k++) {
				char p[320];

				snprintf(p, sizeof(p), "%s/frequency", ps.gl_pathv[k]);
				plat.em_khz[cpu][k] = read_ulong(p, 0);
				snprintf(p, sizeof(p), "%s/power", ps.gl_pathv[k]);
				plat.em_uw[cpu][k] = read_ulong(p, 0);
			}
			plat.nopps[cpu] = k;
			sort_opps(cpu);
		}
		globfree(&ps);
	}
	globfree(&g);
}

static void read_platform(void)
{
	int cpu;

	plat.ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (plat.ncpus > MAX_CPUS)
		plat.ncpus = MAX_CPUS;
	for (cpu = 0; cpu < plat.ncpus; cpu++) {
		char p[128];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		plat.capacity[cpu] = read_ulong(p, 1024);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		plat.max_khz[cpu] = read_ulong(p, 0);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		plat.cur_fd[cpu] = open(p, O_RDONLY);
	}
	read_energy_model();
}

/* The frequency @cpu runs at now, in kHz (0: no cpufreq). */
static unsigned int cur_khz(int cpu)
{
	char buf[32];
	ssize_t n;

	if (cpu < 0 || cpu >= plat.ncpus || plat.cur_fd[cpu] < 0)
		return 0;
	n = pread(plat.cur_fd[cpu], buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strtoul(buf, NULL, 10);
}

/* Work units per ns of CPU time on @cpu at @khz: f/f_max * capacity/1024. */
static double speed(int cpu, unsigned int khz)
{
	double s;

	if (cpu < 0 || cpu >= plat.ncpus)
		return 1.0;
	s = plat.capacity[cpu] / 1024.0;
	if (plat.max_khz[cpu] && khz)
		s *= (double)khz / plat.max_khz[cpu];
	return s;
}

/* The Energy Model's power (uW) of @cpu at the lowest OPP >= @khz. */
static double power_uw(int cpu, unsigned int khz)
{
	int k;

	if (cpu < 0 || cpu >= plat.ncpus || !plat.nopps[cpu])
		return 0;
	for (k = 0; k < plat.nopps[cpu]; k++)
		if (plat.em_khz[cpu][k] >= khz)
			return plat.em_uw[cpu][k];
	return plat.em_uw[cpu][plat.nopps[cpu] - 1];
}

/* ---- the task set ---- */

static int parse_ms(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		return -1;
	*ns = (uint64_t)(v * NSEC_PER_MSEC + 0.5);
	return 0;
}

static int find_partition(const struct taskset *ts, const char *name)
{
	int i;

	for (i = 0; i < ts->nparts; i++)
		if (!strcmp(ts->p[i].name, name))
			return i;
	return -1;
}

static int parse_flags(const char *s, uint64_t *flags)
{
	char buf[64], *tok, *save;

	*flags = 0;
	if (isdigit((unsigned char)*s)) {
		*flags = strtoull(s, NULL, 0);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "reclaim"))
			*flags |= FLAG_RECLAIM;
		else if (!strcmp(tok, "demotion"))
			*flags |= FLAG_DEMOTION;
		else if (strcmp(tok, "none"))
			return -1;
	}
	return 0;
}

/* One KEY=VALUE of a task line. */
static int parse_task_key(struct taskset *ts, struct task *t, char *kv)
{
	char *v = strchr(kv, '=');

	if (!v)
		return -1;
	*v++ = 0;
	if (!strcmp(kv, "runtime"))
		return parse_ms(v, &t->runtime);
	if (!strcmp(kv, "deadline"))
		return parse_ms(v, &t->deadline);
	if (!strcmp(kv, "period"))
		return parse_ms(v, &t->period);
	if (!strcmp(kv, "offset"))
		return parse_ms(v, &t->offset);
	if (!strcmp(kv, "flags"))
		return parse_flags(v, &t->flags);
	if (!strcmp(kv, "affinity")) {
		snprintf(t->affinity, sizeof(t->affinity), "%s", v);
		return 0;
	}
	if (!strcmp(kv, "in")) {
		if (!strcmp(v, "root"))
			return 0;
		t->part = find_partition(ts, v);
		return t->part < 0 ? -1 : 0;
	}
	if (!strcmp(kv, "work")) {
		char *dash = strchr(v + 1, '-');	/* v + 1: not a sign */

		t->work_lo = strtod(v, NULL);
		t->work_hi = dash ? strtod(dash + 1, NULL) : t->work_lo;
		return t->work_lo > 0 && t->work_hi >= t->work_lo ? 0 : -1;
	}
	return -1;
}

static int parse_task(struct taskset *ts, char *rest)
{
	struct task *t;
	char *tok, *save;

	if (ts->ntasks == MAX_TASKS)
		return -1;
	t = &ts->t[ts->ntasks];
	memset(t, 0, sizeof(*t));
	t->part = -1;
	t->work_lo = t->work_hi = 0.5;
	tok = strtok_r(rest, " \t", &save);
	if (!tok)
		return -1;
	snprintf(t->name, sizeof(t->name), "%s", tok);
	while ((tok = strtok_r(NULL, " \t", &save)))
		if (parse_task_key(ts, t, tok)) {
			fprintf(stderr, "dl_workload: task %s: bad %s\n", t->name, tok);
			return -1;
		}
	if (!t->deadline)
		t->deadline = t->period;
	if (!t->runtime || !t->period || t->runtime > t->deadline || t->deadline > t->period) {
		fprintf(stderr, "dl_workload: task %s: need runtime <= deadline <= period\n", t->name);
		return -1;
	}
	ts->ntasks++;
	return 0;
}

static int parse_line(struct taskset *ts, char *line)
{
	char *key, *rest, *save;

	line[strcspn(line, "#\n")] = 0;
	key = strtok_r(line, " \t", &save);
	if (!key)
		return 0;
	rest = save ? save + strspn(save, " \t") : "";
	if (!strcmp(key, "task"))
		return parse_task(ts, rest);
	if (!strcmp(key, "name")) {
		key = strtok_r(rest, " \t", &save);
		if (!key)
			return -1;
		snprintf(ts->name, sizeof(ts->name), "%s", key);
		return 0;
	}
	if (!strcmp(key, "duration"))
		return parse_ms(rest, &ts->duration);
	if (!strcmp(key, "sample"))
		return parse_ms(rest, &ts->sample);
	if (!strcmp(key, "seed")) {
		ts->seed = strtoul(rest, NULL, 0);
		return 0;
	}
	if (!strcmp(key, "partition") && ts->nparts < MAX_PARTS) {
		struct partition *p = &ts->p[ts->nparts++];

		return sscanf(rest, "%31s %63s", p->name, p->cpus) == 2 ? 0 : -1;
	}
	return -1;
}

static int read_taskset(const char *path, struct taskset *ts)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	memset(ts, 0, sizeof(*ts));
	snprintf(ts->name, sizeof(ts->name), "unnamed");
	ts->duration = 4000 * NSEC_PER_MSEC;
	ts->sample = 10 * NSEC_PER_MSEC;
	ts->seed = 1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (parse_line(ts, line)) {
			fprintf(stderr, "dl_workload: %s:%d: cannot parse\n", path, n);
			return -1;
		}
	}
	if (f != stdin)
		fclose(f);
	return ts->ntasks ? 0 : -1;
}

/* ---- partitions ---- */

static void partition_path(char *buf, size_t len, const struct partition *p, const char *file)
{
	snprintf(buf, len, CGROOT "/wl-%s%s%s", p->name, file ? "/" : "", file ? file : "");
}

static int make_partitions(const struct taskset *ts)
{
	char path[160];
	int i, err;

	if (ts->nparts)
		write_str(CGROOT "/cgroup.subtree_control", "+cpuset");
	for (i = 0; i < ts->nparts; i++) {
		partition_path(path, sizeof(path), &ts->p[i], NULL);
		mkdir(path, 0755);
		partition_path(path, sizeof(path), &ts->p[i], "cpuset.cpus");
		err = write_str(path, ts->p[i].cpus);
		partition_path(path, sizeof(path), &ts->p[i], "cpuset.cpus.partition");
		err = err ?: write_str(path, "root");
		if (err) {
			fprintf(stderr, "dl_workload: partition %s (%s): %s\n",
				ts->p[i].name, ts->p[i].cpus, strerror(err));
			return -1;
		}
	}
	return 0;
}

static void remove_partitions(const struct taskset *ts)
{
	char path[160];
	int i;

	for (i = 0; i < ts->nparts; i++) {
		partition_path(path, sizeof(path), &ts->p[i], NULL);
		rmdir(path);
	}
}

/* ---- one task ---- */

static uint64_t next_random(uint64_t *state)
{
	/* xorshift64: the same job sizes on every kernel, for a given seed */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* The work of the next job, in units (ns of full-speed CPU time). */
static double job_work(const struct task *t, uint64_t *rng)
{
	double u = (next_random(rng) >> 11) * (1.0 / 9007199254740992.0);

	return t->runtime * (t->work_lo + (t->work_hi - t->work_lo) * u);
}

static int become_deadline_task(const struct task *t, struct outcome *o)
{
	uint64_t flags = t->flags;
	long ret;

	o->affinity_err = -1;
	ret = set_deadline(t->runtime, t->deadline, t->period, flags);
	if (ret && errno == EINVAL && (flags & FLAG_DEMOTION)) {
		/* a kernel without demotion: the same reservation, plain */
		flags &= ~FLAG_DEMOTION;
		ret = set_deadline(t->runtime, t->deadline, t->period, flags);
	}
	if (ret) {
		o->setattr_err = errno;
		return -1;
	}
	o->ran_flags = flags;
	if (t->affinity[0]) {
		unsigned long mask = parse_cpulist(t->affinity);
		cpu_set_t set;
		int cpu;

		CPU_ZERO(&set);
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			if (mask & (1UL << cpu))
				CPU_SET(cpu, &set);
		o->affinity_err = sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
	}
	return 0;
}

/*
 * Counts what the task received, credited chunk by chunk (a job still
 * running at the window's end counts with the work it did up to there).
 */
struct meter {
	uint64_t cpu;		/* thread CPU time at the last credit */
	double units, energy;	/* since the start */
	uint64_t cpu0;		/* thread CPU time at the start */
	uint64_t end;		/* end of the window (CLOCK_MONOTONIC) */
	int window_closed;
};

/* At the first look past the window's end, freeze what the task received. */
static void close_window(struct meter *m, struct outcome *o, uint64_t now)
{
	if (m->window_closed || now < m->end)
		return;
	m->window_closed = 1;
	o->cpu_in_window = m->cpu - m->cpu0;
	o->units_in_window = m->units;
	o->energy_in_window = m->energy;
}

/*
 * Spin until @work units are done, crediting every CHUNK_NS of CPU time at
 * the speed of the CPU the chunk ended on. Gives up at @stop (ns,
 * CLOCK_MONOTONIC); returns 0 when the work is done.
 */
static int do_work(struct meter *m, struct outcome *o, struct job *j, double work,
		   uint64_t stop)
{
	int cpu = sched_getcpu();
	unsigned int khz = cur_khz(cpu);

	m->cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (j->units < work) {
		int cpu0 = cpu;
		unsigned int khz0 = khz;
		uint64_t c, now;
		double units, energy;

		do
			c = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		while (c - m->cpu < CHUNK_NS);
		cpu = sched_getcpu();
		khz = cur_khz(cpu);
		/*
		 * The chunk ran at the frequency of its start or of its end: a
		 * chunk may hold a jump of the vCPU's clock (tens of ms when
		 * the emulation runs the other vCPUs), during which the
		 * frequency may change. The mean of both credits it
		 * without leaning to either.
		 */
		units = (c - m->cpu) * (speed(cpu0, khz0) + speed(cpu, khz)) / 2;
		energy = (c - m->cpu) * (power_uw(cpu0, khz0) + power_uw(cpu, khz)) / 2;
		j->units += units;
		j->energy += energy;
		m->units += units;
		m->energy += energy;
		j->cpu_ns += c - m->cpu;
		if (c - m->cpu > j->max_step)
			j->max_step = c - m->cpu;
		j->cpu = cpu;
		m->cpu = c;
		now = clock_ns(CLOCK_MONOTONIC);
		close_window(m, o, now);
		if (now >= stop)
			break;
	}
	return j->units < work ? -1 : 0;
}

/*
 * The task's life: release a job every period from @start + offset while
 * the window lasts; a job still running one deadline after the window is
 * cut (unfinished, so missed: its deadline has passed).
 */
static void run_task(const struct task *t, const struct taskset *ts, int index,
		     uint64_t start, struct outcome *o)
{
	uint64_t end = start + ts->duration, stop = end + t->deadline;
	uint64_t rng = ts->seed * 0x9e3779b97f4a7c15ULL + index + 1;
	uint64_t release = start + t->offset;
	struct meter m = { .end = end };
	char pid[16];

	if (t->part >= 0) {
		char path[160];

		snprintf(pid, sizeof(pid), "%d", getpid());
		partition_path(path, sizeof(path), &ts->p[t->part], "cgroup.procs");
		o->setattr_err = write_str(path, pid);
		if (o->setattr_err)
			return;
	}
	if (become_deadline_task(t, o))
		return;
	sleep_until(release);
	m.cpu0 = m.cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (release < end) {
		struct job *j = &o->jobs[o->njobs++];
		double work = job_work(t, &rng);
		uint64_t next = release + t->period;

		j->release = release - start;
		j->deadline = release + t->deadline - start;
		j->start = clock_ns(CLOCK_MONOTONIC) - start;
		j->work = work;
		if (do_work(&m, o, j, work, stop)) {
			j->finish = -1;
			break;
		}
		j->finish = clock_ns(CLOCK_MONOTONIC) - start;
		if (j->finish + start < next) {
			/* on time: give the rest of this period's runtime back */
			sched_yield();
			sleep_until(next);
		}
		release = next;
		close_window(&m, o, clock_ns(CLOCK_MONOTONIC));
	}
	/* stopped before the window's end (cut job): it ends here */
	m.cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	m.end = 0;
	close_window(&m, o, 0);
}

/* ---- what the parent watches ---- */

struct sample {
	uint64_t t;
	unsigned int khz[MAX_CPUS];
};

#define MAX_STATES 64
struct counters {
	int nstates;
	char policy[MAX_STATES][16];	/* the policy's CPUs, e.g. "0-1" */
	unsigned long khz[MAX_STATES], ticks[MAX_STATES];
	unsigned long long busy[MAX_CPUS], total[MAX_CPUS];
};

/* cpufreq's time_in_state of every policy, and /proc/stat per CPU. */
static void read_counters(struct counters *c)
{
	glob_t g;
	size_t i;
	FILE *f;
	char line[256];

	memset(c, 0, sizeof(*c));
	if (!glob("/sys/devices/system/cpu/cpufreq/policy*", 0, NULL, &g)) {
		for (i = 0; i < g.gl_pathc; i++) {
			char p[300], cpus[16] = "?";
			FILE *r;

			snprintf(p, sizeof(p), "%s/related_cpus", g.gl_pathv[i]);
			r = fopen(p, "r");
			if (r) {
				unsigned long mask = fgets(line, sizeof(line), r) ? parse_cpulist(line) : 0;
				int lo = __builtin_ctzl(mask | 1UL << (MAX_CPUS - 1));
				int hi = mask ? 63 - __builtin_clzl(mask) : lo;

				snprintf(cpus, sizeof(cpus), "%d-%d", lo, hi);
				fclose(r);
			}
			snprintf(p, sizeof(p), "%s/stats/time_in_state", g.gl_pathv[i]);
			f = fopen(p, "r");
			if (!f)
				continue;
			while (c->nstates < MAX_STATES &&
			       fscanf(f, "%lu %lu", &c->khz[c->nstates], &c->ticks[c->nstates]) == 2) {
				snprintf(c->policy[c->nstates], sizeof(c->policy[0]), "%s", cpus);
				c->nstates++;
			}
			fclose(f);
		}
		globfree(&g);
	}
	f = fopen("/proc/stat", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 ||
		    cpu < 0 || cpu >= MAX_CPUS)
			continue;
		/* user nice system idle iowait irq softirq steal */
		c->busy[cpu] = v[0] + v[1] + v[2] + v[5] + v[6];
		c->total[cpu] = c->busy[cpu] + v[3] + v[4] + v[7];
	}
	fclose(f);
}

static int sample_frequencies(struct sample *s, int max, uint64_t start, uint64_t until,
			      uint64_t period)
{
	uint64_t t = start;
	int n = 0, cpu;

	while (t < until && n < max) {
		sleep_until(t);
		s[n].t = clock_ns(CLOCK_MONOTONIC) - start;
		for (cpu = 0; cpu < plat.ncpus; cpu++)
			s[n].khz[cpu] = cur_khz(cpu);
		n++;
		t += period;
	}
	return n;
}

/* ---- the report ---- */

/*
 * The total_bw of each CPU's root domain (dl_bw->total_bw of its dl_rq in
 * debugfs sched/debug, units of 2^-20 CPU); -1 where not found.
 */
static void read_dl_bw(long long *total_bw)
{
	FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
	char line[256];
	int cpu = -1, i;

	for (i = 0; i < MAX_CPUS; i++)
		total_bw[i] = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long long v;

		if (sscanf(line, "dl_rq[%d]:", &i) == 1)
			cpu = i;
		else if (cpu >= 0 && cpu < MAX_CPUS &&
			 sscanf(line, " .dl_bw->total_bw : %lld", &v) == 1)
			total_bw[cpu] = v;
	}
	fclose(f);
}

static void print_fair_servers(void)
{
	int cpu;

	for (cpu = 0; cpu < plat.ncpus; cpu++) {
		char p[96];
		unsigned long runtime, period;

		snprintf(p, sizeof(p), "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu);
		runtime = read_ulong(p, ~0UL);
		snprintf(p, sizeof(p), "/sys/kernel/debug/sched/fair_server/cpu%d/period", cpu);
		period = read_ulong(p, ~0UL);
		if (runtime != ~0UL && period != ~0UL)
			printf("wl fair_server %d runtime_ns=%lu period_ns=%lu\n", cpu, runtime, period);
	}
}

static void print_header(const struct taskset *ts, const long long *total_bw)
{
	int cpu, k;
	unsigned long rt_runtime = read_ulong("/proc/sys/kernel/sched_rt_runtime_us", 0);
	unsigned long rt_period = read_ulong("/proc/sys/kernel/sched_rt_period_us", 0);

	printf("wl set %s duration_ms=%llu seed=%lu sample_ms=%g\n", ts->name,
	       (unsigned long long)(ts->duration / NSEC_PER_MSEC), ts->seed,
	       (double)ts->sample / NSEC_PER_MSEC);
	printf("# work units = CPU time x cur_freq/max_freq x capacity/1024 (scaling_cur_freq,"
	       " cpuinfo_max_freq, cpu_capacity): QEMU does not slow a vCPU down, the work"
	       " model does; times are the guest's (virtual under -icount)\n");
	for (cpu = 0; cpu < plat.ncpus; cpu++) {
		printf("wl cpu %d capacity=%u max_khz=%u\n", cpu, plat.capacity[cpu], plat.max_khz[cpu]);
		for (k = 0; k < plat.nopps[cpu]; k++)
			printf("wl em %d khz=%u power_uw=%lu\n", cpu, plat.em_khz[cpu][k], plat.em_uw[cpu][k]);
	}
	printf("wl umax runtime_us=%lu period_us=%lu\n", rt_runtime, rt_period);
	print_fair_servers();
	for (cpu = 0; cpu < plat.ncpus; cpu++)
		printf("wl dlbw %d total_bw=%lld\n", cpu, total_bw[cpu]);
}

static const char *err_name(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "ok";
	case -1: return "-";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	}
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

static void print_task(const struct taskset *ts, const struct task *t, const struct outcome *o)
{
	uint64_t i, missed = 0, unfinished = 0;
	double dur = ts->duration;

	printf("wl task %s runtime_us=%llu deadline_us=%llu period_us=%llu work=%g-%g flags=0x%llx"
	       " in=%s setattr=%s affinity=%s ran_flags=0x%llx\n", t->name,
	       (unsigned long long)(t->runtime / 1000), (unsigned long long)(t->deadline / 1000),
	       (unsigned long long)(t->period / 1000), t->work_lo, t->work_hi,
	       (unsigned long long)t->flags, t->part >= 0 ? ts->p[t->part].name : "root",
	       err_name(o->setattr_err), err_name(o->affinity_err),
	       (unsigned long long)o->ran_flags);
	for (i = 0; i < o->njobs; i++) {
		const struct job *j = &o->jobs[i];

		printf("wl job %s %llu %lld %lld %lld %lld %llu %.0f %d %.3f %.0f %llu\n", t->name,
		       (unsigned long long)i, (long long)j->release / 1000, (long long)j->start / 1000,
		       j->finish < 0 ? -1LL : (long long)j->finish / 1000, (long long)j->deadline / 1000,
		       (unsigned long long)j->cpu_ns / 1000, j->units / 1000, j->cpu, j->energy / 1e9,
		       j->work / 1000, (unsigned long long)j->max_step / 1000);
		if (j->finish < 0)
			unfinished++;
		if (j->finish < 0 || j->finish > j->deadline)
			missed++;
	}
	/* response-time percentiles: the report computes them from the jobs */
	printf("wl summary %s jobs=%llu missed=%llu unfinished=%llu cpu_share=%.4f"
	       " work_share=%.4f energy_mj=%.3f\n", t->name,
	       (unsigned long long)o->njobs, (unsigned long long)missed,
	       (unsigned long long)unfinished, o->cpu_in_window / dur,
	       o->units_in_window / dur, o->energy_in_window / 1e12);
}

static void print_counters(const struct counters *a, const struct counters *b)
{
	int i;

	for (i = 0; i < a->nstates && i < b->nstates; i++)
		printf("wl tis %s %lu %lu\n", a->policy[i], a->khz[i], b->ticks[i] - a->ticks[i]);
	for (i = 0; i < plat.ncpus; i++)
		printf("wl busy %d %llu %llu\n", i, b->busy[i] - a->busy[i], b->total[i] - a->total[i]);
}

static void print_samples(const struct sample *s, int n)
{
	int i, cpu;

	for (i = 0; i < n; i++) {
		printf("wl freq %llu", (unsigned long long)s[i].t / 1000);
		for (cpu = 0; cpu < plat.ncpus; cpu++)
			printf(" %u", s[i].khz[cpu]);
		printf("\n");
	}
}

/* ---- main ---- */

/* Shared memory for the tasks' outcomes and their jobs. */
static struct outcome *share_outcomes(const struct taskset *ts)
{
	size_t size = sizeof(struct outcome) * ts->ntasks;
	struct outcome *o;
	char *p;
	int i;

	for (i = 0; i < ts->ntasks; i++)
		size += sizeof(struct job) * (ts->duration / ts->t[i].period + 2);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, size);
	o = (struct outcome *)p;
	p += sizeof(struct outcome) * ts->ntasks;
	for (i = 0; i < ts->ntasks; i++) {
		o[i].jobs = (struct job *)p;
		p += sizeof(struct job) * (ts->duration / ts->t[i].period + 2);
	}
	return o;
}

int main(int argc, char **argv)
{
	static struct taskset ts;
	static struct sample samples[MAX_SAMPLES];
	struct counters before, after;
	long long total_bw[MAX_CPUS];
	struct outcome *out;
	uint64_t start;
	int i, nsamples;

	if (argc != 2 || read_taskset(argv[1], &ts)) {
		fprintf(stderr, "usage: dl_workload SETFILE (format: see the source's header)\n");
		return 2;
	}
	read_platform();
	out = share_outcomes(&ts);
	if (!out || make_partitions(&ts)) {
		remove_partitions(&ts);
		return 1;
	}
	/* a common start on a whole 100 ms, 300 ms from now: time to set up */
	start = (clock_ns(CLOCK_MONOTONIC) / (100 * NSEC_PER_MSEC) + 3) * (100 * NSEC_PER_MSEC);
	fflush(stdout);
	for (i = 0; i < ts.ntasks; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			run_task(&ts.t[i], &ts, i, start, &out[i]);
			_exit(0);
		}
	}
	sleep_until(start);
	read_dl_bw(total_bw);
	read_counters(&before);
	nsamples = sample_frequencies(samples, MAX_SAMPLES, start, start + ts.duration, ts.sample);
	read_counters(&after);
	while (wait(NULL) > 0)
		;
	remove_partitions(&ts);

	print_header(&ts, total_bw);
	for (i = 0; i < ts.ntasks; i++)
		print_task(&ts, &ts.t[i], &out[i]);
	print_samples(samples, nsamples);
	print_counters(&before, &after);
	printf("wl end %s\n", ts.name);
	return 0;
}
