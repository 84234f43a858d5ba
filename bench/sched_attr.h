/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_setattr(2) for the workbench tools in the guest: glibc has neither a
 * wrapper nor struct sched_attr. The first version of the structure
 * (SCHED_ATTR_SIZE_VER0, 48 bytes) is all a deadline reservation needs.
 */
#ifndef WB_SCHED_ATTR_H
#define WB_SCHED_ATTR_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SCHED_DEADLINE_POLICY	6
#define FLAG_RECLAIM		0x02ULL	/* SCHED_FLAG_RECLAIM */
#define FLAG_DEMOTION		0x80ULL	/* SCHED_FLAG_DL_DEMOTION (this series) */

struct dl_attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
};

/* Make the calling thread a deadline task: 0, or -1 with errno set. */
static inline int set_deadline(uint64_t runtime, uint64_t deadline, uint64_t period,
			       uint64_t flags)
{
	struct dl_attr a = {
		.size = sizeof(a), .policy = SCHED_DEADLINE_POLICY, .flags = flags,
		.runtime = runtime, .deadline = deadline, .period = period,
	};

	return syscall(SYS_sched_setattr, 0, &a, 0);
}

#endif
