/* fuzz_elf.c — libFuzzer target for the ELF symbol-table reader that finds
 * the Go SDK's async slots (plugin/sdkslot.c's elf_object_in_image, which
 * reads a plugin library's file: anything a user passes to --plugin): the
 * input is the image. It is found or refused with a reason, never read
 * past; a symbol found lies inside the image's own tables. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/sdkslot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes: ASan sees any read past the end */
	unsigned char *img = malloc(size ? size : 1);
	uint64_t value = 0, bytes = 0;
	char why[256] = "";
	int is_dyn = -1, rc;

	if (img == NULL)
		return 0;
	memcpy(img, data, size);
	rc = elf_object_in_image(img, size, SDK_SLOTS_SYMBOL, &value, &bytes, &is_dyn, why, sizeof(why));
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && why[0] == '\0')
		abort(); /* a refusal says why */
	if (rc == 0 && is_dyn != 0 && is_dyn != 1)
		abort();
	free(img);
	return 0;
}
