/* report/text_perevent.c — --per-event K: what one event of K fields cost
 * the host, as it asked for them (--host-calls), in the mode in effect. */
#include <math.h>
#include <string.h>

#include "report/text.h"

void report_per_event_text(FILE *out, const struct cell_rec *c, const struct launch_rec *l)
{
	const struct per_event_rec *p = &l->per_event;
	int batched = strcmp(p->host_calls, "batched") == 0;

	if (!l->has_per_event)
		return;
	if (batched)
		fprintf(out, "# per event: %u fields in one call of %u (batched)", p->fields, p->fields);
	else
		fprintf(out,
			"# per event: %u fields as %u calls of one field (per-field, as libsinsp's filter check asks)",
			p->fields, p->fields);
	if (isnan(p->calls_per_event))
		fprintf(out, "; calls not counted by the plugin\n");
	else
		fprintf(out, "; %.2f plugin_extract_fields calls per event, counted by the plugin\n",
			p->calls_per_event);
	fprintf(out, "# per event: %s, %.2f ns per event, %.2f ns per field\n", c->in_effect, p->ns_per_event,
		p->ns_per_field);
}
