/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fixture archive codec (man/sysdev-archive.5), for sysdev-fixture, the
 * archive roots of both programs and the fuzzers; not part of the library's API. */
#ifndef SYSDEV_TOOLS_ARCHIVE_H
#define SYSDEV_TOOLS_ARCHIVE_H

#include <stddef.h>

/* What a capture or an archive pack copied and what it left out. */
struct tree_counts {
	unsigned long files;	  /* regular files written */
	unsigned long dirs;	  /* directories created */
	unsigned long links;	  /* symbolic links created (their text as it is) */
	unsigned long skipped;	  /* source trouble: unreadable, vanished, FIFO/socket/device
				     node (not written), too deep */
	unsigned long truncated;  /* files cut at their bound */
	unsigned long write_only; /* files without any read bit: written empty, never opened */
	unsigned long emptied;	  /* contents left out on purpose (capture's SLIM, PUBLIC) */
	unsigned long unreadable; /* capture: files with read bits that could not be read */
	/* pack: directories whose entries lie deeper than 4096 levels, or paths
	 * longer than 65536 bytes, the archive's limits (also counted in skipped) */
	unsigned long too_deep;
	/* pack: links left out because a reader refuses their target (absolute, or
	 * climbing above the top); not counted in skipped */
	unsigned long unsafe_links;
	unsigned long long bytes; /* bytes of file contents written */
};

/*
 * The fixture archive: a line-oriented text form of a directory tree that
 * survives git exactly (empty directories, relative symlinks, modes, binary
 * contents, names with any bytes).  Line 1 is "sysdev-archive 1"; then one
 * entry per line, parents before children:
 *
 *     d MODE "PATH"
 *     f MODE "PATH" "CONTENT"
 *     l 0777 "PATH" "TARGET"
 *
 * MODE is four octal digits (at most 07777; links always 0777).  PATH is
 * relative to the tree's top, components separated by '/', never empty,
 * ".", ".." or absolute.  Strings are in double quotes with C escapes:
 * \\ \" \n \t \r and \xHH (exactly two hex digits); any other byte
 * below 0x20 or above 0x7e is written \xHH.  Empty lines and lines starting
 * with '#' are ignored.  The packer writes entries depth first, bytewise
 * sorted, so that packing the same tree twice gives the same bytes.
 */

/*
 * Write the tree below the directory @src_dirfd (not itself) to @out_fd.
 * Files are read as tree_capture() reads them (never a FIFO, at most
 * TREE_CAPTURE_BIN_MAX * 16 bytes; a file without any read bit and of size
 * 0 is not opened); what is not packed is counted in @stats->skipped.
 * Only what a reader takes is written: a link whose target is absolute or
 * climbs above the top is left out (@stats->unsafe_links), and so are the
 * entries deeper than 4096 levels or with paths over 65536 bytes
 * (@stats->too_deep, in skipped too).  @flags: 0.  Returns 0 or a negative errno (-EFBIG: a file
 * too large).
 */
int archive_pack(int src_dirfd, int out_fd, unsigned flags, struct tree_counts *stats);

/*
 * Unpack the archive in @buf (@len bytes, no NUL needed) into the EMPTY
 * directory @dest_dirfd; with @dest_dirfd < 0, only check it (no file
 * system access at all: a pure function of the buffer).  Paths that are
 * absolute, hold "." or ".." or empty components, and link targets that are
 * absolute or climb above the top, are refused; every component is opened
 * with O_NOFOLLOW, so nothing is written outside the destination.  Modes of
 * directories are applied last; set-user-ID, set-group-ID, sticky and
 * others' write bits are dropped.  The work is linear in @len: the open
 * parent directories are kept, and the path index is hashed under a
 * random key.  Returns 0; -EBADMSG (malformed line),
 * -EINVAL (unsafe path or target), -EEXIST (an entry twice), -ENOENT (its
 * parent directory not created before it), -ENOTEMPTY, or the errno of a
 * write; then *@bad_line (may be NULL) is the 1-based line, 0 when no line
 * is to blame.
 */
int archive_unpack_buffer(const char *buf, size_t len, int dest_dirfd, size_t *bad_line);

/* The same, reading the archive from @in_fd (at most 1 GiB). */
int archive_unpack(int in_fd, int dest_dirfd, size_t *bad_line);

#endif
