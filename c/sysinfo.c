/* sysinfo.c — reads the machine: CPU model, kernel, CPUs online and allowed. */
#include "sysinfo.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static void cpu_model_read(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0) {
			char *colon = strchr(line, ':');
			if (colon) {
				colon++;
				while (*colon == ' ' || *colon == '\t')
					colon++;
				colon[strcspn(colon, "\n")] = '\0';
				snprintf(buf, len, "%s", colon);
			}
			break;
		}
	}
	fclose(f);
}

int machine_read(struct machine *m)
{
	struct utsname u;
	cpu_set_t set;

	memset(m, 0, sizeof(*m));
	cpu_model_read(m->cpu_model, sizeof(m->cpu_model));
	if (uname(&u) == 0) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
	}
	m->online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && m->allowed_cpus < (int)(sizeof(m->allowed) / sizeof(m->allowed[0])); c++)
		if (CPU_ISSET(c, &set))
			m->allowed[m->allowed_cpus++] = c;
	return 0;
}

int machine_cpu_allowed(const struct machine *m, int cpu)
{
	for (int i = 0; i < m->allowed_cpus; i++)
		if (m->allowed[i] == cpu)
			return 1;
	return 0;
}

pid_t thread_id(void)
{
	return (pid_t)syscall(SYS_gettid);
}

int current_cpu(void)
{
	return sched_getcpu();
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}
