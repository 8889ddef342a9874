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

/* The power group's facts for output: strings NULL where absent, the tolerance's kind
 * (0: no such file, < 0: there but no value, with the errno). */
struct power_facts {
	const char *runtime_status, *control, *wakeup;
	int lt;
	int32_t lt_us;
	const char *lt_text;
	int rl; /* pm_qos_resume_latency_us: 0 a value, -ERANGE "n/a", else absent */
	int64_t rl_us;
};

static void power_facts(struct sysdev_power *p, struct power_facts *f)
{
	f->runtime_status = f->control = f->wakeup = f->lt_text = NULL;
	sysdev_power_get_runtime_status(p, &f->runtime_status);
	sysdev_power_get_control(p, &f->control);
	sysdev_power_get_wakeup(p, &f->wakeup);
	f->lt = sysdev_power_get_latency_tolerance(p, &f->lt_us);
	if (f->lt == -ENOENT)
		f->lt = 0;
	sysdev_power_get_latency_tolerance_text(p, &f->lt_text);
	f->rl = sysdev_power_get_resume_latency_us(p, &f->rl_us);
}

/* Why a present latency-tolerance file gives no value, in words. */
static void lt_reason(const struct power_facts *p, char *buf, size_t size)
{
	if (p->lt == -EBADMSG)
		snprintf(buf, size, "neither auto, any nor a number");
	else if (p->lt == -EBADFD)
		snprintf(buf, size, "not a regular file");
	else
		snprintf(buf, size, "%s", error_words(p->lt));
}

void power_text(FILE *f, struct sysdev_power *power)
{
	struct power_facts pf, *p = &pf;
	char why[128];

	power_facts(power, p);
	if (p->runtime_status) {
		fputs("  power:", f);
		fput_text(f, p->runtime_status);
	}
	if (p->control) {
		fputs(" control:", f);
		fput_text(f, p->control);
	}
	if (p->wakeup) {
		fputs(" wakeup:", f);
		fput_text(f, p->wakeup);
	}
	if (p->lt < 0) {
		lt_reason(p, why, sizeof(why));
		fputs(" latency-tolerance:invalid(", f);
		if (p->lt == -EBADMSG) {
			fputc('\'', f);
			fput_text(f, p->lt_text);
			fputs("': ", f);
		}
		fprintf(f, "%s)", why);
	}
	switch (p->lt) {
	case SYSDEV_LT_AUTO:
		fputs(" latency-tolerance:auto", f);
		break;
	case SYSDEV_LT_ANY:
		fputs(" latency-tolerance:any", f);
		break;
	case SYSDEV_LT_VALUE:
		fprintf(f, " latency-tolerance:%dus", p->lt_us);
		break;
	default:
		break;
	}
	/* beside it, the other PM QoS request a user makes (n/a: no constraint) */
	if (p->rl == 0)
		fprintf(f, " resume-latency:%lldus", (long long)p->rl_us);
	else if (p->rl == -ERANGE)
		fputs(" resume-latency:n/a", f);
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

void device_attribute_text(FILE *f, struct sysdev_device *dev, const char *name)
{
	char buf[ATTR_PAGE + 1];

	fputc('@', f);
	fput_text(f, name);
	attr_value_text(f, buf, sysdev_device_read_attribute(dev, name, buf, sizeof(buf)));
}

/* The member "power", through the JSON writer; null without @power. */
void power_jw(struct jw *w, struct sysdev_power *power)
{
	struct power_facts pf, *p = &pf;
	char why[128];

	jw_key(w, "power");
	if (!power) {
		jw_null(w);
		return;
	}
	power_facts(power, p);
	jw_begin_object(w);
	jw_member_string(w, "runtime_status", p->runtime_status);
	jw_member_string(w, "control", p->control);
	jw_member_string(w, "wakeup", p->wakeup);
	jw_key(w, "pm_qos_latency_tolerance_us");
	if (p->lt < 0) {
		lt_reason(p, why, sizeof(why));
		jw_string(w, "invalid");
		jw_member_string(w, "pm_qos_latency_tolerance_error", why);
		if (p->lt == -EBADMSG)
			jw_member_string(w, "pm_qos_latency_tolerance_text", p->lt_text);
	}
	switch (p->lt) {
	case SYSDEV_LT_AUTO:
		jw_string(w, "auto");
		break;
	case SYSDEV_LT_ANY:
		jw_string(w, "any");
		break;
	case SYSDEV_LT_VALUE:
		jw_int(w, p->lt_us);
		break;
	default:
		if (p->lt == 0)
			jw_null(w);
	}
	jw_key(w, "pm_qos_resume_latency_us");
	if (p->rl == 0)
		jw_int(w, p->rl_us);
	else if (p->rl == -ERANGE)
		jw_string(w, "n/a");
	else
		jw_null(w);
	jw_end_object(w);
}
