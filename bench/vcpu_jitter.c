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
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static uint64_t now(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000ULL+t.tv_nsec;}
struct r { int cpu; uint64_t maxc, maxm, n, big; };
static void *spin(void *a){ struct r *r=a; cpu_set_t s; CPU_ZERO(&s); CPU_SET(r->cpu,&s); sched_setaffinity(0,sizeof(s),&s);
 uint64_t end=now(CLOCK_MONOTONIC)+1000000000ULL, pc=now(CLOCK_THREAD_CPUTIME_ID), pm=now(CLOCK_MONOTONIC), c, m;
 while((m=now(CLOCK_MONOTONIC))<end){ c=now(CLOCK_THREAD_CPUTIME_ID); if(c-pc>r->maxc)r->maxc=c-pc; if(m-pm>r->maxm)r->maxm=m-pm; if (c-pc>1000000) r->big++; r->n++; pc=c; pm=m;} return 0;}
int main(int argc,char**argv){ for(int n=1;n<=4;n++){ pthread_t t[4]; struct r r[4]={0}; for(int i=0;i<n;i++){r[i].cpu=i;pthread_create(&t[i],0,spin,&r[i]);} for(int i=0;i<n;i++)pthread_join(t[i],0);
 printf("%d busy:",n); for(int i=0;i<n;i++) printf(" cpu%d maxstep %.2fms (mono %.2f) >1ms:%llu reads:%llu |",i,r[i].maxc/1e6,r[i].maxm/1e6,(unsigned long long)r[i].big,(unsigned long long)r[i].n); printf("\n");} return 0;}
