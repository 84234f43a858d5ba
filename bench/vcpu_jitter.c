// SPDX-License-Identifier: GPL-2.0
/*
 * vcpu_jitter: how far a task's clock can jump while its vCPU stands still.
 *
 * QEMU's TCG runs the vCPUs of an -icount guest one at a time on one host
 * thread. A task that is "running" on a vCPU that QEMU is not executing sees
 * its CPU clock and CLOCK_MONOTONIC advance without executing anything. This
 * tool spins 1, 2, 3 and 4 threads, each pinned to its own CPU, for a second
 * and prints, per thread, the largest step between two consecutive reads of
 * its CPU clock. Timing tests that run several busy CPUs at once must allow
 * for that step. Run it in the guest: /wb/vcpu_jitter.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define NSEC_PER_SEC	1000000000ULL
#define MAX_THREADS	4

struct spinner {
	int cpu;
	uint64_t max_step;	/* largest step of the thread's CPU clock, ns */
	uint64_t steps_over_1ms;
	uint64_t reads;
};

static uint64_t now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void *spin(void *arg)
{
	struct spinner *s = arg;
	uint64_t end, prev, cur;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	end = now(CLOCK_MONOTONIC) + NSEC_PER_SEC;
	prev = now(CLOCK_THREAD_CPUTIME_ID);
	while (now(CLOCK_MONOTONIC) < end) {
		cur = now(CLOCK_THREAD_CPUTIME_ID);
		if (cur - prev > s->max_step)
			s->max_step = cur - prev;
		if (cur - prev > 1000000)
			s->steps_over_1ms++;
		s->reads++;
		prev = cur;
	}
	return NULL;
}

int main(void)
{
	int n, i;

	for (n = 1; n <= MAX_THREADS; n++) {
		struct spinner s[MAX_THREADS] = { 0 };
		pthread_t t[MAX_THREADS];

		for (i = 0; i < n; i++) {
			s[i].cpu = i;
			pthread_create(&t[i], NULL, spin, &s[i]);
		}
		for (i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		printf("%d busy CPUs:", n);
		for (i = 0; i < n; i++)
			printf("  cpu%d max step %.2f ms (%llu steps > 1 ms)", i,
			       s[i].max_step / 1e6, (unsigned long long)s[i].steps_over_1ms);
		printf("\n");
	}
	return 0;
}
