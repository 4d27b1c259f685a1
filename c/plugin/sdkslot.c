/* plugin/sdkslot.c — see sdkslot.h. */
#include "plugin/sdkslot.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_object_in_image(const unsigned char *img, size_t size, const char *name, uint64_t *value, uint64_t *bytes,
			int *is_dyn, char *why, size_t whylen)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, st;

	/* every header is copied out: a file's offsets need not be aligned */
	if (size < sizeof(eh))
		return snprintf(why, whylen, "not an ELF64 file"), -1;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return snprintf(why, whylen, "not an ELF64 file"), -1;
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
	    (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)
		return snprintf(why, whylen, "its section headers lie outside the file"), -1;
	*is_dyn = eh.e_type == ET_DYN;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		const char *str;

		memcpy(&sh, img + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_link >= eh.e_shnum || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
			return snprintf(why, whylen, "its symbol table lies outside the file"), -1;
		memcpy(&st, img + eh.e_shoff + (size_t)sh.sh_link * sizeof(st), sizeof(st));
		if (st.sh_offset > size || st.sh_size > size - st.sh_offset || st.sh_size == 0)
			return snprintf(why, whylen, "its string table lies outside the file"), -1;
		str = (const char *)(img + st.sh_offset);
		for (size_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
			Elf64_Sym sym;
			size_t left;

			memcpy(&sym, img + sh.sh_offset + k * sizeof(sym), sizeof(sym));
			if (sym.st_name >= st.sh_size || ELF64_ST_TYPE(sym.st_info) != STT_OBJECT)
				continue;
			left = st.sh_size - sym.st_name;
			if (strnlen(str + sym.st_name, left) < left && strcmp(str + sym.st_name, name) == 0) {
				*value = sym.st_value;
				*bytes = sym.st_size;
				return 0;
			}
		}
		return snprintf(why, whylen, "no object %s in its symbol table", name), -1;
	}
	return snprintf(why, whylen, "no symbol table (stripped)"), -1;
}

int elf_local_object(const char *file, uintptr_t base, const char *name, uintptr_t *addr, char *why, size_t whylen)
{
	struct stat st;
	void *img;
	uint64_t value = 0, bytes = 0;
	int fd = open(file, O_RDONLY | O_CLOEXEC), rc, is_dyn = 0;

	if (fd < 0)
		return snprintf(why, whylen, "cannot open %s: %s", file, strerror(errno)), -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return snprintf(why, whylen, "%s is not a regular file", file), -1;
	}
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return snprintf(why, whylen, "cannot map %s: %s", file, strerror(errno)), -1;
	rc = elf_object_in_image(img, (size_t)st.st_size, name, &value, &bytes, &is_dyn, why, whylen);
	munmap(img, (size_t)st.st_size);
	if (rc != 0)
		return -1;
	if (bytes != sizeof(void *))
		return snprintf(why, whylen, "%s is %llu bytes, not a pointer", name, (unsigned long long)bytes), -1;
	*addr = (is_dyn ? base : 0) + (uintptr_t)value;
	return 0;
}

int sdk_slot_offset_asked(void)
{
	const char *e = getenv(SDK_SLOT_OFFSET_ENV);
	return e && *e >= '0' && *e <= '9' ? atoi(e) : -1;
}

int sdk_slot_misplaced(const struct sdk_slot *s, int found, const char *why, char *msg, size_t msglen)
{
	int asked = sdk_slot_offset_asked();

	if (asked < 0 || (found && s->array_offset == (unsigned)asked))
		return 0;
	if (!found)
		snprintf(msg, msglen, "--slot-offset %d cannot be checked: the SDK's slot not found: %s", asked, why);
	else
		snprintf(msg, msglen,
			 "--slot-offset %d asked, but the SDK's slots start %u bytes past a line: the placer placed "
			 "another allocation",
			 asked, s->array_offset);
	return 1;
}

int sdk_slot_of(uintptr_t slots, const void *handle, struct sdk_slot *out, char *why, size_t whylen)
{
	uintptr_t h = (uintptr_t)handle, at;
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	const void *instance;
	int lock;

	if (slots == 0)
		return snprintf(why, whylen, "the SDK has no async slots (async never started)"), -1;
	if (h == 0 || h > 65536)
		return snprintf(why, whylen, "instance %#lx is no SDK handle", (unsigned long)h), -1;
	at = slots + (h - 1) * SDK_SLOT_BYTES;
	memcpy(&instance, (const void *)(at + SDK_SLOT_INSTANCE_AT), sizeof(instance));
	lock = atomic_load((const _Atomic int *)(at + SDK_SLOT_LOCK_AT));
	if (instance != handle || lock != SDK_SLOT_LOCK_WAIT)
		return snprintf(why, whylen,
				"slot %lu does not hold instance %lu waiting (instance %#lx, lock %d): not the "
				"layout of plugin-sdk-go v0.8.3",
				(unsigned long)(h - 1), (unsigned long)h, (unsigned long)(uintptr_t)instance, lock),
		       -1;
	out->addr = at;
	out->line_bytes = line > 0 ? (unsigned)line : 64u;
	out->line_offset = (unsigned)(at % out->line_bytes);
	out->lines = (out->line_offset + SDK_SLOT_BYTES + out->line_bytes - 1) / out->line_bytes;
	out->array_offset = (unsigned)(slots % out->line_bytes);
	return 0;
}

/* The SDK's slot array pointer of the object that holds init, read now:
 * 0 with *slots (NULL: no array), or -1 with why. */
static int slots_of(const void *init, uintptr_t *slots, char *why, size_t whylen)
{
	Dl_info dl, self;
	uintptr_t var;
	const char *file;

	if (init == NULL || dladdr(init, &dl) == 0 || dl.dli_fname == NULL || dl.dli_fbase == NULL ||
	    dladdr((const void *)slots_of, &self) == 0)
		return snprintf(why, whylen, "cannot tell which object holds plugin_init"), -1;
	/* the main program (this code is linked into it) goes by argv[0]'s
	 * name; its file is /proc/self/exe */
	file = dl.dli_fbase == self.dli_fbase ? "/proc/self/exe" : dl.dli_fname;
	if (elf_local_object(file, (uintptr_t)dl.dli_fbase, SDK_SLOTS_SYMBOL, &var, why, whylen) != 0)
		return -1;
	memcpy(slots, (const void *)var, sizeof(*slots));
	return 0;
}

int sdk_slot_locate(const void *init, const void *handle, struct sdk_slot *out, char *why, size_t whylen)
{
	uintptr_t slots;

	if (slots_of(init, &slots, why, whylen) != 0)
		return -1;
	return sdk_slot_of(slots, handle, out, why, whylen);
}

int sdk_async_of(uintptr_t slots, const void *handle, char *why, size_t whylen)
{
	uintptr_t h = (uintptr_t)handle, at;
	const void *instance;
	int lock;

	if (slots == 0) /* the SDK allocates them when the first instance starts async */
		return 0;
	if (h == 0 || h > SDK_SLOTS)
		return snprintf(why, whylen, "instance %#lx is no SDK handle", (unsigned long)h), -1;
	at = slots + (h - 1) * SDK_SLOT_BYTES;
	lock = atomic_load((const _Atomic int *)(at + SDK_SLOT_LOCK_AT));
	if (lock == SDK_SLOT_LOCK_UNUSED)
		return 0;
	memcpy(&instance, (const void *)(at + SDK_SLOT_INSTANCE_AT), sizeof(instance));
	if (lock == SDK_SLOT_LOCK_WAIT && instance == handle)
		return 1;
	return snprintf(
		       why, whylen,
		       "slot %lu neither unused nor waiting with its instance (instance %#lx, lock %d): not the layout "
		       "of plugin-sdk-go v0.8.3",
		       (unsigned long)(h - 1), (unsigned long)(uintptr_t)instance, lock),
	       -1;
}

int sdk_async_in_effect(const void *init, const void *handle, char *why, size_t whylen)
{
	uintptr_t slots;
	char how[200];

	if (slots_of(init, &slots, how, sizeof(how)) == 0)
		return sdk_async_of(slots, handle, why, whylen);
	if (strstr(how, "stripped") != NULL)
		snprintf(why, whylen, "stripped: no symbol table");
	else if (strstr(how, "no object") != NULL)
		snprintf(why, whylen, "not built with the plugin SDK for Go: no %s in its symbol table",
			 SDK_SLOTS_SYMBOL);
	else
		snprintf(why, whylen, "%s", how);
	return -1;
}

uint32_t sdk_async_workers(int gomaxprocs, uint32_t callers)
{
	uint32_t w = 0;

	/* the least w with 2^w >= GOMAXPROCS: ceil(log2), in integers */
	while (gomaxprocs > 1 && w < 31 && (1L << w) < gomaxprocs)
		w++;
	return w > callers ? callers : w;
}
