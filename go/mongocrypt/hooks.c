#include "binding.h"
#include "_cgo_export.h"

/* One context value per access mode, never written after start-up. */
static const int cgocost_access_modes[3] = { 0, 1, 2 };

bool cgocost_set_go_crypto_hooks(mongocrypt_t *crypt, int access)
{
	if (access < 0 || access > 2)
		return false;
	return mongocrypt_setopt_crypto_hooks(crypt,
		cgocostAes256CbcEncrypt,
		cgocostAes256CbcDecrypt,
		cgocostRandom,
		cgocostHmacSha512,
		cgocostHmacSha256,
		cgocostSha256,
		(void *)&cgocost_access_modes[access]);
}
