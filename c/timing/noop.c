/* noop.c — a C function that does nothing, defined apart from its caller so
 * that the compiler cannot inline it: the floor of any call. */
#include "timing/floors.h"

void cgocost_c_noop(void)
{
	__asm__ volatile("" ::: "memory");
}
