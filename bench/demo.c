// SPDX-License-Identifier: GPL-2.0
/*
 * The demo scenario, run inside the big.LITTLE guest by `make demo`.
 *
 * A few SCHED_DEADLINE tasks on the big CPUs (0-1, the root domain) and on the
 * LITTLE ones (2-3, a cgroup v2 cpuset partition with its own root domain):
 * periodic tasks that do a fixed amount of work per job, and greedy tasks that
 * always want the CPU, one of them with SCHED_FLAG_RECLAIM, and on the LITTLE
 * CPUs the same reservation with and without SCHED_FLAG_DL_DEMOTION. For each
 * task the
 * table gives its reservation, the CPU share it received, and the deadlines it
 * missed. The guest runs with -icount, so the shares are in virtual time and
 * repeat from run to run.
 *
 * A job's work is CPU time at full speed: QEMU does not slow a vCPU down on a
 * LITTLE core, only the scheduler's accounting sees its capacity (runtime is
 * charged at capacity/1024 of the wall-clock rate).
 *
 * The emulation time-slices the vCPUs on one host thread: while one vCPU runs,
 * the others stand still, yet the task on each of them is "running" and its
 * CPU clock advances. The column "jump" is the largest step of a task's CPU
 * clock between two consecutive reads: with several busy vCPUs it reaches
 * about 10 ms, so every periodic job here has more slack (reservation minus
 * job) than that. Real hardware shows steps of microseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sched_attr.h"

#define MS		1000000ULL
#define DURATION	(3000 * MS)

struct task {
	const char *name;
	int little;		/* 1: in the LITTLE partition */
	uint64_t runtime, period, flags;
	uint64_t job;		/* CPU time per job; 0: greedy, always running */
};

static const struct task tasks[] = {
	{ "big-periodic-A",    0, 20 * MS, 100 * MS, 0,            5 * MS },
	{ "big-periodic-B",    0, 40 * MS, 100 * MS, 0,           25 * MS },
	{ "big-greedy",        0, 20 * MS, 100 * MS, 0,            0 },
	{ "big-reclaiming",    0, 10 * MS, 100 * MS, FLAG_RECLAIM, 0 },
	{ "LITTLE-periodic-C", 1, 20 * MS, 100 * MS, 0,           15 * MS },
	{ "LITTLE-greedy",     1, 10 * MS, 100 * MS, 0,            0 },
	{ "LITTLE-demoting",   1, 10 * MS, 100 * MS, FLAG_DEMOTION, 0 },
};
#define NTASKS (sizeof(tasks) / sizeof(tasks[0]))

struct result {
	int err;
	int cpu;
	uint64_t cpu_ns, wall_ns, jobs, missed;
	uint64_t max_jump;	/* largest step of the task's CPU clock */
};

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ULL, .tv_nsec = t % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * From @start for @duration: jobs of @job CPU time every @period, each due
 * by its next release, or greedy (@job 0).
 */
static void run_jobs(uint64_t job, uint64_t period, uint64_t start, uint64_t duration,
		     struct result *r)
{
	uint64_t cpu0, release;

	/* all tasks start together, on a period boundary */
	sleep_until(start);
	cpu0 = now(CLOCK_THREAD_CPUTIME_ID);
	release = start;
	while (release < start + duration) {
		if (!job) {
			uint64_t x, prev = now(CLOCK_THREAD_CPUTIME_ID);

			while (now(CLOCK_MONOTONIC) < start + duration) {
				x = now(CLOCK_THREAD_CPUTIME_ID);
				if (x - prev > r->max_jump)
					r->max_jump = x - prev;
				prev = x;
			}
			break;
		}
		/* one job: job of CPU time, due by release + period */
		uint64_t c = now(CLOCK_THREAD_CPUTIME_ID);

		uint64_t x, prev = c;

		while ((x = now(CLOCK_THREAD_CPUTIME_ID)) - c < job) {
			if (x - prev > r->max_jump)
				r->max_jump = x - prev;
			prev = x;
		}
		r->jobs++;
		if (now(CLOCK_MONOTONIC) > release + period)
			r->missed++;
		/*
		 * Sleep to the next release: waking there, the task finds its
		 * deadline passed and CBS gives it a fresh runtime and deadline,
		 * so the reservation's periods follow the job releases.
		 */
		release += period;
		sleep_until(release);
	}
	r->cpu_ns = now(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	r->wall_ns = now(CLOCK_MONOTONIC) - start;
	r->cpu = sched_getcpu();
}

static void run_task(const struct task *t, uint64_t start, struct result *r)
{
	char pid[16];

	memset(r, 0, sizeof(*r));
	if (t->little) {
		snprintf(pid, sizeof(pid), "%d", getpid());
		r->err = write_file("/sys/fs/cgroup/little/cgroup.procs", pid);
		if (r->err)
			return;
	}
	if (set_deadline(t->runtime, t->period, t->period, t->flags)) {
		r->err = -errno;
		return;
	}
	run_jobs(t->job, t->period, start, DURATION, r);
}

/*
 * Part 2: a pipeline of SCHED_FIFO threads in a cgroup with a FIFO/RR
 * reservation (cpu.rt.max, CONFIG_RT_GROUP_SERVER), on big CPU 1 beside an
 * unreserved SCHED_FIFO hog of higher priority. The group's deadline server
 * runs before any unreserved RT task (EDF, then the RT class): the stages get
 * their 30 ms every 100 ms and need 20 (two jobs of 5 ms every 50 ms), so
 * they meet their deadlines; without the reservation the hog starves them.
 */
struct rt_task {
	const char *name;
	const char *group;	/* NULL: the root cgroup */
	int prio;
	uint64_t job, period;	/* job 0: greedy */
};

static const struct rt_task rt_tasks[] = {
	{ "pipeline-stage1", "pipeline", 20, 5 * MS, 50 * MS },
	{ "pipeline-stage2", "pipeline", 10, 5 * MS, 50 * MS },
	{ "fifo-hog",        NULL,       90, 0,      100 * MS },
};
#define NRT (sizeof(rt_tasks) / sizeof(rt_tasks[0]))
#define RT_DURATION	(2000 * MS)

static void run_rt_task(const struct rt_task *t, uint64_t start, struct result *r)
{
	struct sched_param sp = { .sched_priority = t->prio };
	char path[96], pid[16];
	cpu_set_t set;

	memset(r, 0, sizeof(*r));
	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cgroup.procs", t->group ?: ".");
	r->err = write_file(path, pid);
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (!r->err && (sched_setaffinity(0, sizeof(set), &set) ||
			sched_setscheduler(0, SCHED_FIFO, &sp)))
		r->err = -errno;
	if (!r->err)
		run_jobs(t->job, t->period, start, RT_DURATION, r);
}

static void group_demo(const char *reservation)
{
	struct result res[NRT];
	int fds[NRT][2];
	uint64_t start;
	unsigned int i;
	int err = write_file("/sys/fs/cgroup/pipeline/cpu.rt.max", reservation);

	if (err) {
		printf("  (cpu.rt.max \"%s\" refused: %s)\n", reservation, strerror(-err));
		return;
	}
	start = (now(CLOCK_MONOTONIC) / (100 * MS) + 2) * (100 * MS);
	for (i = 0; i < NRT; i++) {
		if (pipe(fds[i]))
			return;
		if (!fork()) {
			struct result r;

			run_rt_task(&rt_tasks[i], start, &r);
			if (write(fds[i][1], &r, sizeof(r)) != sizeof(r))
				_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < NRT; i++) {
		if (read(fds[i][0], &res[i], sizeof(res[i])) != sizeof(res[i]))
			res[i].err = -EIO;
		wait(NULL);
	}
	printf("  pipeline cpu.rt.max = %s\n", reservation);
	for (i = 0; i < NRT; i++) {
		const struct rt_task *t = &rt_tasks[i];
		char job[48], missed[48];

		if (res[i].err) {
			printf("  %-16s error: %s\n", t->name, strerror(-res[i].err));
			continue;
		}
		if (t->job) {
			snprintf(job, sizeof(job), "%llu/%llu ms",
				 (unsigned long long)(t->job / MS),
				 (unsigned long long)(t->period / MS));
			snprintf(missed, sizeof(missed), "%llu/%llu",
				 (unsigned long long)res[i].missed,
				 (unsigned long long)res[i].jobs);
		} else {
			snprintf(job, sizeof(job), "greedy");
			snprintf(missed, sizeof(missed), "-");
		}
		printf("  %-16s %-9s FIFO %-3d %-9s %6.1f%%  %s\n", t->name,
		       t->group ?: "(root)", t->prio, job,
		       100.0 * res[i].cpu_ns / res[i].wall_ns, missed);
	}
}

/* Time in each frequency of a policy, from cpufreq statistics (10 ms units). */
#define MAX_OPPS 16
struct residency {
	int n;
	unsigned long long khz[MAX_OPPS], t[MAX_OPPS];
};

static void read_residency(int cpu, struct residency *r)
{
	char path[96];
	FILE *f;

	r->n = 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/stats/time_in_state", cpu);
	f = fopen(path, "r");
	if (!f)
		return;
	while (r->n < MAX_OPPS && fscanf(f, "%llu %llu", &r->khz[r->n], &r->t[r->n]) == 2)
		r->n++;
	fclose(f);
}

/* What schedutil chose for @cpu's cluster between @a and @b. */
static void print_residency(const char *name, const struct residency *a,
			    const struct residency *b)
{
	unsigned long long total = 0, mean = 0;
	int i;

	if (!a->n || a->n != b->n) {
		printf("%s: no cpufreq\n", name);
		return;
	}
	for (i = 0; i < a->n; i++)
		total += b->t[i] - a->t[i];
	if (!total)
		return;
	printf("%s:", name);
	for (i = 0; i < a->n; i++) {
		unsigned long long d = b->t[i] - a->t[i];

		mean += a->khz[i] * d;
		if (d)
			printf(" %llu MHz %llu%%", a->khz[i] / 1000, 100 * d / total);
	}
	printf("  (mean %llu MHz)\n", mean / total / 1000);
}

static int make_little_partition(void)
{
	int ret;

	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+cpuset");
	mkdir("/sys/fs/cgroup/little", 0755);
	ret = write_file("/sys/fs/cgroup/little/cpuset.cpus", "2-3");
	return ret ?: write_file("/sys/fs/cgroup/little/cpuset.cpus.partition", "root");
}

int main(void)
{
	struct result res[NTASKS];
	struct residency big0, big1, little0, little1;
	int fds[NTASKS][2];
	uint64_t start;
	unsigned int i;
	char cap[4][16];

	for (i = 0; i < 4; i++) {
		char path[96];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpu_capacity", i);
		f = fopen(path, "r");
		if (!f || !fgets(cap[i], sizeof(cap[i]), f))
			strcpy(cap[i], "1024\n");
		if (f)
			fclose(f);
		cap[i][strcspn(cap[i], "\n")] = 0;
	}
	if (make_little_partition()) {
		fprintf(stderr, "demo: cannot make the cpuset partition of CPUs 2-3\n");
		return 1;
	}
	/* start on a whole 100 ms, 200 ms from now */
	start = (now(CLOCK_MONOTONIC) / (100 * MS) + 2) * (100 * MS);
	for (i = 0; i < NTASKS; i++) {
		if (pipe(fds[i]))
			return 1;
		if (!fork()) {
			struct result r;

			run_task(&tasks[i], start, &r);
			if (write(fds[i][1], &r, sizeof(r)) != sizeof(r))
				_exit(1);
			_exit(0);
		}
	}
	read_residency(0, &big0);
	read_residency(2, &little0);
	for (i = 0; i < NTASKS; i++) {
		if (read(fds[i][0], &res[i], sizeof(res[i])) != sizeof(res[i]))
			res[i].err = -EIO;
		wait(NULL);
	}
	read_residency(0, &big1);
	read_residency(2, &little1);

	printf("\nSCHED_DEADLINE demo: %u tasks, %llu s, big CPUs 0-1 (capacity %s, %s),"
	       " LITTLE CPUs 2-3 (capacity %s, %s)\n",
	       (unsigned int)NTASKS, (unsigned long long)(DURATION / 1000000000ULL), cap[0], cap[1], cap[2], cap[3]);
	printf("shares are CPU time / wall time, in the guest's virtual time (-icount)\n\n");
	printf("%-18s %-5s %-12s %-8s %-7s %-7s %-7s %-8s\n",
	       "task", "CPUs", "reservation", "flags", "job", "share", "missed", "jump");
	printf("%-18s %-5s %-12s %-8s %-7s %-7s %-7s %-8s\n",
	       "----", "----", "-----------", "-----", "---", "-----", "------", "----");
	for (i = 0; i < NTASKS; i++) {
		const struct task *t = &tasks[i];
		char resv[48], job[32], missed[48], share[16];

		snprintf(resv, sizeof(resv), "%llu/%llu ms",
			 (unsigned long long)(t->runtime / MS),
			 (unsigned long long)(t->period / MS));
		if (t->job)
			snprintf(job, sizeof(job), "%llu ms", (unsigned long long)(t->job / MS));
		else
			snprintf(job, sizeof(job), "greedy");
		if (res[i].err) {
			printf("%-18s error: %s\n", t->name, strerror(-res[i].err));
			continue;
		}
		snprintf(share, sizeof(share), "%.1f%%", 100.0 * res[i].cpu_ns / res[i].wall_ns);
		if (t->job)
			snprintf(missed, sizeof(missed), "%llu/%llu",
				 (unsigned long long)res[i].missed, (unsigned long long)res[i].jobs);
		else
			snprintf(missed, sizeof(missed), "-");
		printf("%-18s %-5s %-12s %-8s %-7s %-7s %-7s %.1f ms\n", t->name,
		       t->little ? "2-3" : "0-1", resv,
		       t->flags & FLAG_RECLAIM ? "RECLAIM" :
		       t->flags & FLAG_DEMOTION ? "DEMOTE" : "-", job, share, missed,
		       res[i].max_jump / 1e6);
	}
	printf("\nFrequencies schedutil chose during the run (time in each, cpufreq stats):\n");
	print_residency("  big CPUs 0-1   ", &big0, &big1);
	print_residency("  LITTLE CPUs 2-3", &little0, &little1);
	printf("\nReading the table. The reservation is work at full speed on a big CPU: a greedy\n"
	       "task without RECLAIM gets runtime/period stretched by 1024/capacity on a LITTLE\n"
	       "CPU and by f_max/f at the lower frequencies schedutil chose, so more than\n"
	       "runtime/period of wall-clock time. Global EDF with admission control bounds\n"
	       "the tardiness of admitted jobs; it does not promise zero misses on 2 CPUs.\n"
	       "big-reclaiming may take, by GRUB, the bandwidth the big CPUs leave unused,\n"
	       "up to 95%% of a CPU; 6.12 gives it far less. LITTLE-demoting has the\n"
	       "reservation of LITTLE-greedy and SCHED_FLAG_DL_DEMOTION: out of runtime it\n"
	       "runs on as a normal task, taking the time the deadline tasks leave, where\n"
	       "LITTLE-greedy waits for its next period. \"jump\" is the largest step of\n"
	       "the task's CPU clock: the emulation runs one vCPU at a time.\n\n");

	printf("FIFO/RR groups served by deadline servers, big CPU 1, %llu s each:\n",
	       (unsigned long long)(RT_DURATION / 1000000000ULL));
	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+cpu");
	mkdir("/sys/fs/cgroup/pipeline", 0755);
	if (access("/sys/fs/cgroup/pipeline/cpu.rt.max", F_OK)) {
		printf("  (no cpu.rt.max: a kernel without CONFIG_RT_GROUP_SERVER)\n\n");
		return 0;
	}
	printf("  %-16s %-9s %-8s %-9s %7s  %s\n", "thread", "cgroup", "policy", "job",
	       "share", "missed");
	group_demo("30000 100000");
	group_demo("max");
	rmdir("/sys/fs/cgroup/pipeline");
	printf("\nWith the reservation the stages' deadline server runs before the unreserved\n"
	       "hog (EDF first, then the RT class) and gives them 30 ms every 100 ms for the\n"
	       "20 they need; within the group FIFO order holds. Without it the hog, of\n"
	       "higher priority, takes the whole CPU (the fair server keeps time only for\n"
	       "fair tasks): the stages run their jobs, all late, once the hog has ended.\n"
	       "A share is CPU time over the thread's own lifetime.\n\n");
	return 0;
}
