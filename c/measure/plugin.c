/* measure/plugin.c — reads what the linked plugin library is, never assuming it. */
#include "measure/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plugin_info_read(struct plugin_info *info)
{
	Dl_info dl;
	char exe[PATH_MAX];
	char *lib;

	memset(info, 0, sizeof(*info));
	if (dladdr((void *)(uintptr_t)plugin_init, &dl) == 0 || dl.dli_fname == NULL)
		return -1;
	lib = realpath(dl.dli_fname, NULL);
	if (lib == NULL) {
		/* the main program can appear under its argv[0]: resolve the exe */
		lib = realpath("/proc/self/exe", NULL);
		if (lib == NULL)
			return -1;
	}
	snprintf(info->lib_path, sizeof(info->lib_path), "%s", lib);
	free(lib);
	if (realpath("/proc/self/exe", exe) == NULL)
		return -1;
	info->lib_kind = strcmp(exe, info->lib_path) == 0 ? "archive" : "shared";
	info->go_version = cgocost_go_version();
	info->sdk_version = cgocost_sdk_version();
	info->max_handle = cgocost_max_handle();
	return 0;
}
