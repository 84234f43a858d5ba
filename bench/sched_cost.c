// SPDX-License-Identifier: GPL-2.0
/*
 * sched_cost: what the scheduler's hot paths cost, for `make bench`.
 *
 * Each case runs on CPU 1 alone (a cpuset partition of that one CPU, so
 * that deadline tasks may run there and nothing else does) and prints one
 * line "bench CASE VALUE UNIT": the median of REPEATS runs, in ns of
 * CLOCK_MONOTONIC. Under QEMU -icount that is virtual time, which follows the
 * number of guest instructions executed: the same binary on two kernels
 * then compares the instructions their scheduler paths take.
 *
 *   pipe_cfs	a pipe ping-pong between two SCHED_OTHER tasks: one round
 *		trip is two wakeups, two context switches (enqueue, dequeue,
 *		pick, update_curr of the fair class)
 *   pipe_dl	the same between two SCHED_DEADLINE tasks (400/1000 ms each:
 *		never throttled in a run, which takes well under 400 ms of
 *		CPU), the deadline class's paths and their bandwidth updates
 *   pipe_dl_reclaim	the same with SCHED_FLAG_RECLAIM (GRUB accounting)
 *   pipe_cfs_beside_dl	pipe_cfs while a deadline task (200 us every 1 ms)
 *		wakes up every millisecond on the same CPU, runs 50 us and
 *		sleeps: the fair class's paths with the deadline class and
 *		the fair server in the picture; the deadline task's own CPU
 *		time (about 5%) is in the figure on both kernels
 *   setattr_dl	one sched_setattr() changing a deadline task's runtime
 *		(admission control and the bandwidth update)
 *   pipe_fifo	the ping-pong between two SCHED_FIFO tasks (priority 10) on
 *		the CPU's own RT queue: the RT class's paths
 *   pipe_fifo_group	the same with the partition's cgroup given a
 *		FIFO/RR reservation of 800/1000 ms (cpu.rt.max): the tasks
 *		run in the group's deadline server, which pick and charge go
 *		through. A kernel without cpu.rt.max runs the plain FIFO
 *		ping-pong here, so that the ratio of this line is the cost of
 *		a reserved group against plain FIFO on the base.
 *
 * pipe_dl_reclaim is not only a cost: how fast a reclaiming task's runtime
 * goes decides when a wakeup gets a new deadline, so which task preempts
 * which can differ between kernels.
 *
 * usage: sched_cost [ROUNDS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
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

#define NSEC_PER_SEC	1000000000ULL
#define MSEC		1000000ULL
#define REPEATS		5
#define CPU		"1"
#define PART		"/sys/fs/cgroup/sched_cost"

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static int set_dl(uint64_t runtime, uint64_t flags)
{
	return set_deadline(runtime, 1000 * MSEC, 1000 * MSEC, flags);
}

/* A partition of CPU 1 that this process (and its children) run in. */
static int enter_partition(void)
{
	char pid[16];

	mkdir(PART, 0755);
	if (write_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpuset") ||
	    write_str(PART "/cpuset.cpus", CPU) ||
	    write_str(PART "/cpuset.cpus.partition", "root"))
		return -1;
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_str(PART "/cgroup.procs", pid);
}

static void leave_partition(void)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_str("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(PART);
}

/* One side of the ping-pong: read a byte, write it back, @rounds times. */
static void echo(int in, int out, long rounds)
{
	char c;

	while (rounds--)
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			_exit(1);
	_exit(0);
}

/*
 * A deadline task of 200 us every 1 ms that wakes up at every millisecond
 * (absolute, so that it does not drift), spins 50 us and sleeps again.
 */
static pid_t start_periodic_dl(void)
{
	pid_t pid = fork();
	struct timespec ts;
	uint64_t next;

	if (pid)
		return pid;
	if (set_deadline(200000, MSEC, MSEC, 0))
		_exit(2);
	for (next = now() + MSEC;; next += MSEC) {
		ts.tv_sec = next / NSEC_PER_SEC;
		ts.tv_nsec = next % NSEC_PER_SEC;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		while (now() < next + 50000)
			;
	}
}

#define PIPE_FIFO	(-2)

static int set_class(long long dl_flags)
{
	if (dl_flags == PIPE_FIFO)
		return sched_setscheduler(0, SCHED_FIFO,
					  &(struct sched_param){ .sched_priority = 10 });
	return dl_flags >= 0 ? set_dl(400 * MSEC, dl_flags) : 0;
}

/*
 * ns per round trip between two tasks of the class @dl_flags says (-1: CFS,
 * PIPE_FIFO: SCHED_FIFO), with a periodic deadline task beside them if
 * @beside.
 */
static double pipe_round_trip(long rounds, long long dl_flags, int beside)
{
	pid_t dl = 0;

	int ab[2], ba[2], status;
	uint64_t t0, t1;
	pid_t child;
	long i;
	char c = 'x';

	if (pipe(ab) || pipe(ba))
		return -1;
	if (beside) {
		dl = start_periodic_dl();
		if (dl < 0)
			return -1;
	}
	child = fork();
	if (!child) {
		if (set_class(dl_flags))
			_exit(2);
		echo(ab[0], ba[1], rounds);
	}
	if (set_class(dl_flags)) {
		kill(child, SIGKILL);
		return -1;
	}
	t0 = now();
	for (i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	t1 = now();
	if (dl_flags >= 0 || dl_flags == PIPE_FIFO)
		sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	waitpid(child, &status, 0);
	if (dl > 0) {
		int dl_status;

		kill(dl, SIGKILL);
		waitpid(dl, &dl_status, 0);
		/* it was killed, not refused its reservation (exit 2) */
		if (!WIFSIGNALED(dl_status))
			status = 1 << 8;
	}
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	/*
	 * The child's bandwidth and the parent's come back at their 0-lag
	 * times, within the 1 s period: wait for them, or the next run's
	 * admission fails.
	 */
	if (dl_flags >= 0)
		usleep(1100000);
	else if (dl > 0)
		/*
		 * The deadline task's comes back at its 0-lag time: its
		 * deadline (1 ms away at most) plus P/Q = 5 times any overrun
		 * (a tick at most, 1 ms at HZ=1000): 6 ms; the next case
		 * needs it for its own admission.
		 */
		usleep(100000);
	if (i < rounds || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return (double)(t1 - t0) / rounds;
}

/*
 * ns per sched_setattr() that changes a deadline task's runtime, between
 * 400 and 450 ms a second: new parameters apply from the next period, so
 * the task runs on its first 400 ms, far more than the calls take.
 */
static double setattr_cost(long calls)
{
	uint64_t t0, t1;
	long i;

	if (set_dl(400 * MSEC, 0))
		return -1;
	t0 = now();
	for (i = 0; i < calls; i++)
		if (set_dl(i & 1 ? 400 * MSEC : 450 * MSEC, 0))
			break;
	t1 = now();
	sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	usleep(1100000);	/* its bandwidth comes back at its 0-lag time */
	return i < calls ? -1 : (double)(t1 - t0) / calls;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, double v[REPEATS])
{
	int i;

	for (i = 0; i < REPEATS; i++)
		if (v[i] < 0) {
			printf("bench %s failed\n", name);
			return;
		}
	qsort(v, REPEATS, sizeof(*v), cmp);
	printf("bench %s %.1f ns (min %.1f max %.1f)\n", name, v[REPEATS / 2], v[0],
	       v[REPEATS - 1]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	double v[REPEATS];
	int i;

	if (enter_partition()) {
		printf("bench failed: no cpuset partition of CPU " CPU ": %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, -1, 0);
	report("pipe_cfs", v);
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, 0, 0);
	report("pipe_dl", v);
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, FLAG_RECLAIM, 0);
	report("pipe_dl_reclaim", v);
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, -1, 1);
	report("pipe_cfs_beside_dl", v);
	for (i = 0; i < REPEATS; i++)
		v[i] = setattr_cost(rounds / 4);
	report("setattr_dl", v);
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, PIPE_FIFO, 0);
	report("pipe_fifo", v);
	/* the partition's cgroup reserved, if the kernel has cpu.rt.max */
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+cpu");
	write_str(PART "/cpu.rt.max", "800000 1000000");
	for (i = 0; i < REPEATS; i++)
		v[i] = pipe_round_trip(rounds, PIPE_FIFO, 0);
	report("pipe_fifo_group", v);
	write_str(PART "/cpu.rt.max", "max");
	leave_partition();
	return 0;
}
