/* aslimit.c — an address-space limit (ulimit -v) too small for the Go
 * runtime, said in one line before the runtime starts. The runtime reserves
 * about 0.8 GiB of address space as it starts (measured on amd64 with Go
 * 1.19, 1.26 and 1.27: a limit of 812 MiB or less fails); under a smaller
 * limit it ends the process with a 17-line fatal error ("failed to reserve
 * page summary memory") or an abort. A constructor with a priority runs
 * before the runtime's own initializer, in the c-archive linked into bench
 * and in the c-shared library alike. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#define GO_RUNTIME_ADDRESS_SPACE (1ull << 30) /* what to allow: 1 GiB */

__attribute__((constructor(101))) static void cgocost_address_space_check(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= GO_RUNTIME_ADDRESS_SPACE)
		return;
	fprintf(stderr,
		"%s: ulimit -v allows %llu MiB of address space; the Go runtime of the mock plugin reserves about "
		"0.8 GiB as it starts: allow 1 GiB (ulimit -v 1048576) or more\n",
		program_invocation_short_name, (unsigned long long)(r.rlim_cur >> 20));
	_exit(2);
}
