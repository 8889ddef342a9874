/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The power annotation, one set of facts for every output: runtime status,
 * control, wakeup and the latency tolerance, including a tolerance file that
 * is there but holds no value (shown as invalid, with why).
 */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "json-writer.h"

/* Why a present latency-tolerance file gives no value, in words. */
static void lt_reason(const struct sysdev_power *p, char *buf, size_t size)
{
	if (p->lt_error == -EBADMSG)
		snprintf(buf, size, "neither auto, any nor a number");
	else if (p->lt_error == -EBADFD)
		snprintf(buf, size, "not a regular file");
	else
		snprintf(buf, size, "%s", error_words(p->lt_error));
}

void power_text(FILE *f, const struct sysdev_power *p)
{
	char why[128];

	if (p->runtime_status[0]) {
		fputs("  power:", f);
		fput_text(f, p->runtime_status);
	}
	if (p->control[0]) {
		fputs(" control:", f);
		fput_text(f, p->control);
	}
	if (p->wakeup[0]) {
		fputs(" wakeup:", f);
		fput_text(f, p->wakeup);
	}
	switch (p->lt_kind) {
	case SYSDEV_LT_AUTO:
		fputs(" latency-tolerance:auto", f);
		break;
	case SYSDEV_LT_ANY:
		fputs(" latency-tolerance:any", f);
		break;
	case SYSDEV_LT_VALUE:
		fprintf(f, " latency-tolerance:%dus", p->lt_us);
		break;
	case SYSDEV_LT_INVALID:
		lt_reason(p, why, sizeof(why));
		fputs(" latency-tolerance:invalid(", f);
		if (p->lt_error == -EBADMSG) {
			fputc('\'', f);
			fput_text(f, p->lt_text);
			fputs("': ", f);
		}
		fprintf(f, "%s)", why);
		break;
	default:
		break;
	}
}

void attr_value_text(FILE *f, const char *buf, ssize_t len)
{
	if (len >= 0) {
		fputs(" = ", f);
		fput_text_len(f, buf, (size_t)len);
	} else if (len == -EFBIG) {
		fputs(" = ", f);
		fput_text_len(f, buf, ATTR_PAGE);
		fputs("  [truncated: larger than a page]", f);
	} else {
		fprintf(f, " (%s)", error_words((int)len));
	}
}

void attr_value_jw(struct jw *w, const char *buf, ssize_t len)
{
	if (len >= 0) {
		jw_string_len(w, buf, (size_t)len);
		return;
	}
	jw_begin_object(w);
	if (len == -EFBIG) {
		jw_key(w, "value");
		jw_string_len(w, buf, ATTR_PAGE);
		jw_key(w, "truncated");
		jw_bool(w, true);
	} else {
		jw_member_string(w, "error", error_words((int)len));
	}
	jw_end_object(w);
}

void node_attribute_text(FILE *f, const struct sysdev_node *node, const char *name)
{
	char buf[ATTR_PAGE + 1];

	fputc('@', f);
	fput_text(f, name);
	attr_value_text(f, buf, sysdev_node_read_attribute(node, name, buf, sizeof(buf)));
}

/* The member "power", through the JSON writer. */
void power_jw(struct jw *w, const struct sysdev_power *p)
{
	char why[128];

	jw_key(w, "power");
	if (!p) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	jw_member_string(w, "runtime_status", p->runtime_status[0] ? p->runtime_status : NULL);
	jw_member_string(w, "control", p->control[0] ? p->control : NULL);
	jw_member_string(w, "wakeup", p->wakeup[0] ? p->wakeup : NULL);
	jw_key(w, "pm_qos_latency_tolerance_us");
	switch (p->lt_kind) {
	case SYSDEV_LT_AUTO:
		jw_string(w, "auto");
		break;
	case SYSDEV_LT_ANY:
		jw_string(w, "any");
		break;
	case SYSDEV_LT_VALUE:
		jw_int(w, p->lt_us);
		break;
	case SYSDEV_LT_INVALID:
		lt_reason(p, why, sizeof(why));
		jw_string(w, "invalid");
		jw_member_string(w, "pm_qos_latency_tolerance_error", why);
		if (p->lt_error == -EBADMSG)
			jw_member_string(w, "pm_qos_latency_tolerance_text", p->lt_text);
		break;
	default:
		jw_null(w);
	}
	jw_end_object(w);
}
