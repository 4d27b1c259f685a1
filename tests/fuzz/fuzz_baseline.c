/* fuzz_baseline.c — libFuzzer target for the baseline loader
 * (store/baseline.c through model/codec.c): the input is the file. A document
 * the loader accepts must write back to text that reads back to the same
 * text, and must be judged against itself without a fault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/verdict.h"
#include "model/codec.h"
#include "store/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doc d, again;
	char err[1024], *text, *text2;
	size_t samples = 0;

	if (baseline_parse("fuzz.json", (const char *)data, size, &d, err, sizeof(err)) != 0)
		return 0;
	text = doc_dumps(&d, 0);
	if (text == NULL)
		abort();
	if (baseline_parse("again.json", text, strlen(text), &again, err, sizeof(err)) != 0)
		abort();
	text2 = doc_dumps(&again, 0);
	if (text2 == NULL || strcmp(text, text2) != 0)
		abort();
	for (size_t i = 0; i < d.ncells; i++)
		samples += d.cells[i].st.nsamples;
	for (size_t i = 0; i < d.nratios; i++)
		samples += d.ratios[i].nsamples;
	if (samples <= 64 && compare_documents(&d, &again, "fuzz.json", 0, 0.05, 1) != 0)
		abort();
	free(text);
	free(text2);
	doc_free(&d);
	doc_free(&again);
	return 0;
}
