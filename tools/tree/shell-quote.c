/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --properties --export: KEY='VALUE' as `udevadm info -x` writes it.  udevadm
 * puts the value between single quotes as it is; so do we, except where
 * that would break the line or the quoting: a single quote is written '\''
 * (the shell then reads the value back exactly), and the bytes text output
 * escapes everywhere (control bytes, invalid UTF-8) are written \xHH, so one
 * property stays one line.
 *
 * Keys are the device's, and a uevent file can hold any bytes: a key is
 * written only when the shell reads KEY='VALUE' as one plain assignment that
 * changes nothing but that variable (export_key_ok()).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void fput_export_value(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putc('\'', f);
	while (*s) {
		const unsigned char *run = s;

		/* printable ASCII, backslash included: single quotes keep it as it is */
		while (*s >= 0x20 && *s < 0x7f && *s != '\'')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (!*s)
			break;
		if (*s == '\'') {
			fputs("'\\''", f);
			s++;
			continue;
		}
		/* controls and bytes >= 0x80: a run of them, escaped as text output does
		 * (the byte after the run is never a UTF-8 continuation byte) */
		run = s;
		while (*s && (*s < 0x20 || *s >= 0x7f))
			s++;
		fput_text_len(f, (const char *)run, (size_t)(s - run));
	}
	putc('\'', f);
}

/* A name the shell can assign: [A-Za-z_][A-Za-z0-9_]*. */
static bool is_shell_name(const char *key)
{
	if (!((*key >= 'A' && *key <= 'Z') || (*key >= 'a' && *key <= 'z') || *key == '_'))
		return false;
	for (const char *k = key + 1; *k; k++)
		if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
		      (*k >= '0' && *k <= '9') || *k == '_'))
			return false;
	return true;
}

/*
 * Variables the shell, the dynamic loader or bash act on when they are set:
 * a device's property under such a name would take over the caller of
 * `eval "$(sysdev-tree --properties DEV --export)"` (its PATH, what it
 * preloads, how it splits words), and some are read-only in bash.  The
 * kernel's keys never take these names.
 */
static bool is_shell_special(const char *key)
{
	/* each name between blanks */
	static const char names[] = " PATH IFS ENV CDPATH HOME SHELL PS1 PS2 PS3 PS4 "
				    "PROMPT_COMMAND SHELLOPTS GLOBIGNORE OPTIND OPTARG UID EUID "
				    "PPID PWD OLDPWD TMPDIR HISTFILE MAIL MAILPATH FPATH NLSPATH "
				    "LANG LANGUAGE POSIXLY_CORRECT _ ";
	size_t len = strlen(key);

	if (strncmp(key, "LD_", 3) == 0 || strncmp(key, "BASH", 4) == 0 ||
	    strncmp(key, "LC_", 3) == 0)
		return true;
	for (const char *p = strstr(names, key); p; p = strstr(p + 1, key))
		if (p[-1] == ' ' && p[len] == ' ')
			return true;
	return false;
}

bool export_key_ok(const char *key)
{
	return is_shell_name(key) && !is_shell_special(key);
}
