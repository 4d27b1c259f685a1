/* orchestrate/childcpu.h — the CPU time a child's process group has used,
 * read from /proc: what tells a child that is slow (a loaded machine: it
 * uses CPU, however little its work moves) from one that is stopped or
 * blocked (it uses none). */
#ifndef CGOCOST_ORCHESTRATE_CHILDCPU_H
#define CGOCOST_ORCHESTRATE_CHILDCPU_H

#include <stdint.h>
#include <sys/types.h>

/* Reads one /proc/PID/stat line: its process group in *pgrp and its user
 * plus system time, with that of the children it waited for, in clock
 * ticks in *ticks. 0, or -1 if the line is not
 * one (the command name may hold spaces and parentheses: the fields are
 * counted from its last ')'). */
int proc_stat_parse(const char *line, long *pgrp, uint64_t *ticks);

/* The CPU time, in ns, used so far by the live processes of process group
 * pgid and the children they waited for (a child's group: the child, and
 * what a wrapper started beside it); -1 when no process of the group could
 * be read. */
int64_t child_group_cpu_ns(pid_t pgid);

/* Whether group pgid used at least share of a CPU over the interval_ms
 * since *cpu_ns (an earlier child_group_cpu_ns of it): 1 or 0, 0 too when
 * either reading failed. *cpu_ns becomes the new reading, the start of the
 * next interval. What extends a bound a child outlived while it works
 * (a loaded machine) and not while it is stopped or blocked. */
int child_group_busy(pid_t pgid, int64_t *cpu_ns, int interval_ms, double share);

/* The time, in ns, that the live threads of group pgid have spent waiting
 * for a CPU while runnable (/proc/PID/task/TID/schedstat, its second
 * field; a thread that ended takes its wait with it); -1 when no process
 * of the group could be read. What a starved child has instead of CPU
 * time: on a machine whose CPUs are all taken (a CPU others pin their
 * work to, say), a child that works waits for its turn, and one stopped
 * or asleep does not. */
int64_t child_group_wait_ns(pid_t pgid);

/* child_group_busy with the wait for a CPU counted as work: whether group
 * pgid used, or waited for, at least share of a CPU over the interval_ms
 * since *ns (an earlier child_group_cpu_ns + child_group_wait_ns of it,
 * or -1); *ns becomes the new sum. A thread whose wait ended with it makes
 * the sum drop: judged on what is left. */
int child_group_working(pid_t pgid, int64_t *ns, int interval_ms, double share);

#endif
