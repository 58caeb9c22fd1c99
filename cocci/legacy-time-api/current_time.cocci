// SPDX-License-Identifier: GPL-2.0-only
/// Use current_time(inode) instead of CURRENT_TIME, CURRENT_TIME_SEC,
/// current_fs_time(sb) and timespec_trunc(current_kernel_time(), gran)
/// for inode timestamps.
///
/// CURRENT_TIME and CURRENT_TIME_SEC gave a struct timespec and ignored the
/// file system's timestamp granularity and range; they were removed in
/// Linux 4.12, with current_fs_time(sb), which truncated
/// current_kernel_time() to sb->s_time_gran (also spelled out by hand
/// with timespec_trunc(), removed in 4.19).  current_time(inode) returns the inode's timestamp type,
/// truncated to what the file system stores.  Assignments to an inode's
/// i_atime, i_mtime and i_ctime change, chained ones included, and to the
/// ia_atime, ia_mtime and ia_ctime of a struct iattr in a function that
/// has the inode at hand (a parameter or a local struct inode *inode).
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: Other uses of CURRENT_TIME have no inode to ask and are
//  reported; see also timespec_locals.cocci.  Linux 6.6 and later want
//  inode_set_ctime_current() for i_ctime: this rule targets 4.12 to 6.5.
// Scope: fs/ drivers/ arch/ ipc/ kernel/ mm/ net/ security/
// Exclude: tools/ samples/ usr/ scripts/ arch/um/os-Linux/
// Introduced: 4.9 current_time
// Removed: 4.12 CURRENT_TIME, 4.12 CURRENT_TIME_SEC, 4.12 current_fs_time, 4.19 timespec_trunc
// Sites: independent
// Subject: use current_time() for inode timestamps
// Options: --no-includes --include-headers --max-width 100
// Keywords: CURRENT_TIME, current_fs_time, timespec_trunc, current_time, inode
// Prefilter: CURRENT_TIME CURRENT_TIME_SEC current_fs_time timespec_trunc

virtual patch
virtual context
virtual org
virtual report

@inode_times depends on patch@
expression inode, sb, gran;
identifier stamp = {i_atime, i_mtime, i_ctime};
@@
 inode->stamp =
(
- CURRENT_TIME
+ current_time(inode)
|
- CURRENT_TIME_SEC
+ current_time(inode)
|
- current_fs_time(sb)
+ current_time(inode)
|
- timespec_trunc(current_kernel_time(), gran)
+ current_time(inode)
|
- timespec_trunc(CURRENT_TIME, gran)
+ current_time(inode)
)

// A struct iattr for notify_change()/setattr: the inode at hand, a
// parameter or a local of the function, gives the granularity.  (The
// metavariable is not called "inode": in "struct inode" it would match
// any structure name.)
@iattr_param depends on patch@
identifier fn, ino;
expression attr, sb, gran;
identifier stamp = {ia_atime, ia_mtime, ia_ctime};
@@
fn(..., struct inode *ino, ...) {
<...
\(attr.stamp\|attr->stamp\) =
(
- CURRENT_TIME
+ current_time(ino)
|
- CURRENT_TIME_SEC
+ current_time(ino)
|
- current_fs_time(sb)
+ current_time(ino)
|
- timespec_trunc(current_kernel_time(), gran)
+ current_time(ino)
)
...>
}

@iattr_local depends on patch@
identifier fn, ino;
expression attr, sb, gran, init;
identifier stamp = {ia_atime, ia_mtime, ia_ctime};
@@
fn(...) {
... when any
struct inode *ino = init;
<...
\(attr.stamp\|attr->stamp\) =
(
- CURRENT_TIME
+ current_time(ino)
|
- CURRENT_TIME_SEC
+ current_time(ino)
|
- current_fs_time(sb)
+ current_time(ino)
|
- timespec_trunc(current_kernel_time(), gran)
+ current_time(ino)
)
...>
}

@found depends on context || report || org@
identifier now = {CURRENT_TIME, CURRENT_TIME_SEC, current_fs_time, timespec_trunc};
position p;
@@
* now@p

@script:python depends on report@
p << found.p;
now << found.now;
@@
coccilib.report.print_report(p[0], "WARNING: %s was removed in Linux 4.12 (timespec_trunc in 4.19): use current_time(inode) or ktime_get_coarse_real_ts64()" % now)

@script:python depends on org@
p << found.p;
now << found.now;
@@
coccilib.org.print_todo(p[0], "%s was removed in Linux 4.12 (timespec_trunc in 4.19)" % now)
