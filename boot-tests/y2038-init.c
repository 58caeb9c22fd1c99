// SPDX-License-Identifier: GPL-2.0-only
/*
 * /init of the boot-test initramfs: checks timekeeping across the 32-bit
 * time_t limit (2038-01-19 03:14:07 UTC), runs the kernel's own timer
 * selftests from /selftests, loads the converted legacy modules from
 * /legacy (each checks itself across the limit and prints its own TAP
 * lines), prints KTAP, one verdict line, and powers off.
 *
 * Static, no libc beyond what glibc links statically.  On 32-bit ARM it is
 * built with -D_TIME_BITS=64 so time_t is 64 bits wide.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/rtc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define Y2038_LIMIT 2147483647LL	/* 2038-01-19 03:14:07 UTC */
#define SELFTEST_DIR "/selftests"
#define SELFTEST_TIMEOUT_S 120
#define LEGACY_DIR "/legacy"
#define LEGACY_START (Y2038_LIMIT - 3)	/* each module's self-check sees the limit go by */
#define LEGACY_TSTAMP_DEVICE "/dev/legacy_tstamp"
#define LEGACY_SENSOR_DEVICE "/dev/legacy_sensor"

/*
 * legacy_sensor's ioctl answer, as user space of the old ABI declares it:
 * a struct timeval of the kernel's long, then a count.
 */
struct legacy_sensor_ioc {
	long tv_sec;
	long tv_usec;
	uint32_t count;
};
#define LEGACY_SENSOR_GET _IOR('y', 1, struct legacy_sensor_ioc)

static int test_number;
static int failures;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d %s", ok ? "" : "not ", ++test_number, name);
	if (fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
}

static int64_t ns_of(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return -1;
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The kernel's clock_gettime, bypassing the vDSO: struct __kernel_timespec. */
static int64_t syscall_seconds(clockid_t clock)
{
	struct { int64_t sec; int64_t nsec; } kts;
#ifdef SYS_clock_gettime64
	long nr = SYS_clock_gettime64;
#else
	long nr = SYS_clock_gettime;
#endif
	if (syscall(nr, clock, &kts))
		return -1;
	return kts.sec;
}

/* Waits, at most 3 s, until time() reads past the limit; 0 if it never does. */
static int wait_for_coarse_past_limit(void)
{
	const struct timespec step = { .tv_nsec = 100000000 };

	for (int i = 0; i < 30 && time(NULL) <= Y2038_LIMIT; i++)
		nanosleep(&step, NULL);
	return time(NULL) > Y2038_LIMIT;
}

static void check_monotonic_clocks(void)
{
	static const struct { clockid_t id; const char *name; } clocks[] = {
		{ CLOCK_MONOTONIC, "monotonic" }, { CLOCK_MONOTONIC_RAW, "monotonic_raw" },
		{ CLOCK_MONOTONIC_COARSE, "monotonic_coarse" }, { CLOCK_BOOTTIME, "boottime" },
	};
	char bad[128] = "";

	for (size_t c = 0; c < sizeof(clocks) / sizeof(clocks[0]); c++) {
		int64_t prev = ns_of(clocks[c].id), now;

		for (int i = 0; i < 20000; i++, prev = now) {
			now = ns_of(clocks[c].id);
			if (now < prev || now < 0) {
				snprintf(bad, sizeof(bad), "%s went from %lld to %lld", clocks[c].name,
					 (long long)prev, (long long)now);
				break;
			}
		}
	}
	result(!bad[0], "clocks_monotonic", bad[0] ? "%s" : NULL, bad);
}

/*
 * QEMU's -rtc base= was passed on as y2038_rtc_base=<seconds>.  The clock
 * read it at boot and has run since: the system time less the time since
 * boot is the base, give or take QEMU's start (a guest on a loaded host may
 * take minutes to get here, so the time since boot is taken off).
 */
static void check_rtc_at_boot(void)
{
	const char *base = getenv("y2038_rtc_base");
	time_t now = time(NULL);
	long long since_boot = ns_of(CLOCK_BOOTTIME) / 1000000000LL;

	if (!base) {
		printf("ok %d rtc_at_boot # SKIP no y2038_rtc_base= on the command line\n", ++test_number);
		return;
	}
	long long want = atoll(base), read_at_boot = (long long)now - since_boot;
	result(read_at_boot >= want - 1 && read_at_boot < want + 120, "rtc_at_boot",
	       "system time %lld, %lld s since boot, RTC base %lld", (long long)now, since_boot, want);
}

static void check_crossing(void)
{
	struct timespec set = { .tv_sec = Y2038_LIMIT - 10 }, now, deadline;
	int64_t mono_before, boot_before, mono_after, boot_after;
	struct itimerspec its = { 0 };
	uint64_t expirations;
	struct tm tm;
	int fd;

	mono_before = ns_of(CLOCK_MONOTONIC);
	boot_before = ns_of(CLOCK_BOOTTIME);
	int set_ok = clock_settime(CLOCK_REALTIME, &set) == 0;

	result(set_ok, "settime_before_2038", set_ok ? NULL : "errno %d", errno);
	mono_after = ns_of(CLOCK_MONOTONIC);
	boot_after = ns_of(CLOCK_BOOTTIME);
	result(mono_after - mono_before < 1000000000LL && boot_after - boot_before < 1000000000LL,
	       "monotonic_unaffected_by_settime", "monotonic moved %lld ns",
	       (long long)(mono_after - mono_before));

	/* sleep to an absolute time just past the limit */
	deadline.tv_sec = Y2038_LIMIT + 1;
	deadline.tv_nsec = 0;
	int err = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &deadline, NULL);
	clock_gettime(CLOCK_REALTIME, &now);
	result(!err && now.tv_sec >= Y2038_LIMIT + 1 && now.tv_sec <= Y2038_LIMIT + 2,
	       "clock_nanosleep_abstime_past_2038", "err %d, woke at %lld", err, (long long)now.tv_sec);

	/* clock_gettime(), not time(): the coarse clock behind time() may lag a tick */
	result(now.tv_sec > Y2038_LIMIT && sizeof(time_t) == 8, "time_t_past_int32_max",
	       "tv_sec %lld, sizeof(time_t) %zu", (long long)now.tv_sec, sizeof(time_t));

	time_t t = now.tv_sec;
	gmtime_r(&t, &tm);
	result(tm.tm_year == 138 && tm.tm_mon == 0 && tm.tm_mday == 19 && tm.tm_hour == 3 && tm.tm_min == 14,
	       "gmtime_2038_01_19", "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
	       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);

	/* an absolute timerfd that expires after the limit */
	fd = timerfd_create(CLOCK_REALTIME, 0);
	its.it_value.tv_sec = time(NULL) + 2;
	int armed = fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) == 0;
	int fired = armed && read(fd, &expirations, sizeof(expirations)) == sizeof(expirations);
	clock_gettime(CLOCK_REALTIME, &now);
	result(fired && now.tv_sec >= its.it_value.tv_sec && now.tv_sec <= its.it_value.tv_sec + 1,
	       "timerfd_abstime_past_2038", "armed %d fired %d at %lld for %lld", armed, fired,
	       (long long)now.tv_sec, (long long)its.it_value.tv_sec);
	if (fd >= 0)
		close(fd);

	/*
	 * Only once the coarse clock (the timekeeper's xtime_sec, behind time())
	 * is past the limit: before its next update the syscall's seconds are
	 * xtime_sec plus the nanoseconds since, and a truncated xtime_sec would
	 * still read right.
	 */
	int coarse_past = wait_for_coarse_past_limit();
	int64_t via_syscall = syscall_seconds(CLOCK_REALTIME);
	result(coarse_past && via_syscall > Y2038_LIMIT && llabs(via_syscall - (int64_t)time(NULL)) <= 1,
	       "syscall_and_vdso_agree", "syscall %lld, vDSO %lld", (long long)via_syscall,
	       (long long)time(NULL));

	clock_gettime(CLOCK_REALTIME, &now);
	int64_t mono_span = ns_of(CLOCK_MONOTONIC) - mono_after;
	int64_t real_span = ((int64_t)now.tv_sec - set.tv_sec) * 1000000000LL + now.tv_nsec;
	result(llabs(mono_span - real_span) < 500000000LL, "realtime_follows_monotonic",
	       "monotonic %lld ns, realtime %lld ns", (long long)mono_span, (long long)real_span);
}

static void check_rtc_device(void)
{
	/* 2040-02-29 12:00:00: past 2038, and a leap day */
	struct rtc_time set = { .tm_year = 140, .tm_mon = 1, .tm_mday = 29, .tm_hour = 12 };
	struct rtc_time got = { 0 };
	int fd = open("/dev/rtc0", O_RDWR);

	if (fd < 0) {
		result(0, "rtc_post_2038_roundtrip", "open /dev/rtc0: errno %d", errno);
		return;
	}
	int ok = ioctl(fd, RTC_SET_TIME, &set) == 0 && ioctl(fd, RTC_RD_TIME, &got) == 0;
	result(ok && got.tm_year == 140 && got.tm_mon == 1 && got.tm_mday == 29 && got.tm_hour == 12 &&
	       got.tm_min == 0 && got.tm_sec <= 2, "rtc_post_2038_roundtrip",
	       "read back %04d-%02d-%02d %02d:%02d:%02d (errno %d)", got.tm_year + 1900, got.tm_mon + 1,
	       got.tm_mday, got.tm_hour, got.tm_min, got.tm_sec, ok ? 0 : errno);
	close(fd);
}

/*
 * Run one kselftest binary.  Its own KTAP output is passed on as "# "
 * diagnostic lines, so that only this program's results are top-level.
 */
static void run_selftest(const char *name)
{
	char path[PATH_MAX], buf[512], *argv[4] = { NULL };
	time_t deadline = time(NULL) + SELFTEST_TIMEOUT_S;
	int status = 0, pipefd[2], at_line_start = 1;
	pid_t pid;

	snprintf(path, sizeof(path), SELFTEST_DIR "/%.*s", NAME_MAX, name);
	argv[0] = path;
	if (!strcmp(name, "inconsistency-check")) {
		argv[1] = "-t";
		argv[2] = "2";	/* seconds per clock: the default 10 s is too long under TCG */
	}
	if (pipe(pipefd)) {
		result(0, name, "pipe: errno %d", errno);
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		if (chdir(SELFTEST_DIR) == 0)
			execv(path, argv);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		int timeout_ms = (int)(deadline - time(NULL)) * 1000;
		ssize_t n;

		if (timeout_ms <= 0 || poll(&pfd, 1, timeout_ms) <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(pipefd[0]);
			result(0, name, "timed out after %d s", SELFTEST_TIMEOUT_S);
			return;
		}
		n = read(pipefd[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (at_line_start)
				fputs("# ", stdout);
			putchar(buf[i]);
			at_line_start = buf[i] == '\n';
		}
	}
	close(pipefd[0]);
	if (!at_line_start)
		putchar('\n');
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)	/* KSFT_SKIP */
		printf("ok %d %s # SKIP\n", ++test_number, name);
	else
		result(WIFEXITED(status) && WEXITSTATUS(status) == 0, name, "exit %d signal %d",
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int file_names(const char *dir_path, char names[][NAME_MAX + 1], int max)
{
	struct dirent *entry;
	DIR *dir = opendir(dir_path);
	int n = 0;

	while (dir && (entry = readdir(dir)) && n < max)
		if (entry->d_name[0] != '.')
			snprintf(names[n++], NAME_MAX + 1, "%s", entry->d_name);
	if (dir)
		closedir(dir);
	qsort(names, n, NAME_MAX + 1, (int (*)(const void *, const void *))strcmp);
	return n;
}

/*
 * y2038_selftests=<name,name,...> (or "none") on the kernel command line,
 * passed on in the environment: run only those.  The boot stage leaves out
 * the selftests of code the series does not touch (boot_suites.py).
 */
static int wanted_selftests(char names[][NAME_MAX + 1], int n)
{
	const char *want = getenv("y2038_selftests");
	int kept = 0;

	if (!want)
		return n;
	for (int i = 0; i < n; i++) {
		char list[256];
		int found = 0;

		snprintf(list, sizeof(list), "%s", want);
		for (char *name = strtok(list, ","); name; name = strtok(NULL, ","))
			found |= !strcmp(name, names[i]);
		if (found)
			memmove(names[kept++], names[i], NAME_MAX + 1);
	}
	printf("y2038-init: selftests %s: %d of %d\n", want, kept, n);
	return kept;
}

/*
 * Load /legacy/legacy_<name>.ko with the wall clock 3 s before the limit;
 * its init runs the module's self-check, which waits for the crossing.
 */
static void load_legacy_module(const char *file)
{
	struct timespec start = { .tv_sec = LEGACY_START };
	char path[PATH_MAX], test[NAME_MAX + 32];
	const char *name = strncmp(file, "legacy_", 7) ? file : file + 7;
	int fd, ok;

	snprintf(path, sizeof(path), LEGACY_DIR "/%.*s", NAME_MAX, file);
	snprintf(test, sizeof(test), "legacy/%.*s/loaded", (int)strcspn(name, "."), name);
	if (clock_settime(CLOCK_REALTIME, &start)) {
		result(0, test, "clock_settime: errno %d", errno);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ok = fd >= 0 && syscall(SYS_finit_module, fd, "", 0) == 0;
	result(ok, test, ok ? NULL : "finit_module: errno %d", errno);
	if (fd >= 0)
		close(fd);
}

/* devtmpfs adds a module's device node asynchronously: wait for it (5 s at most). */
static int open_legacy_device(const char *path, int flags)
{
	int fd = -1;

	for (int i = 0; i < 50 && fd < 0; i++) {
		fd = open(path, flags);
		if (fd < 0)
			usleep(100000);
	}
	return fd;
}

/* The converted timestamping device, used the way user space would. */
static void check_legacy_tstamp_device(void)
{
	char buf[96] = "";
	unsigned long long us = 0;
	long long coarse = 0;
	unsigned int writes = 0;
	ssize_t n = 0;
	int fd = open_legacy_device(LEGACY_TSTAMP_DEVICE, O_RDWR), wrote, fields = 0;

	wrote = fd >= 0 && write(fd, "x", 1) == 1;
	if (wrote)
		n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0)
		fields = sscanf(buf, "%llu %u %lld", &us, &writes, &coarse);
	result(fields == 3 && writes == 1 && us / 1000000 > Y2038_LIMIT, "legacy/tstamp/device_read_past_2038",
	       "read \"%.*s\" (errno %d)", (int)strcspn(buf, "\n"), buf, wrote ? 0 : errno);
	result(fields == 3 && coarse > Y2038_LIMIT, "legacy/tstamp/device_coarse_past_2038", "coarse %lld", coarse);
	if (fd >= 0)
		close(fd);
}

/*
 * The converted sensor's ioctl: its timeval keeps the old layout, so its
 * seconds are a long: past the limit on x86_64, wrapped on 32-bit ARM
 * exactly as the old do_gettimeofday() answer was (the ABI's own limit).
 */
static void check_legacy_sensor_device(void)
{
	struct legacy_sensor_ioc ioc = { 0 };
	struct timespec now = { 0 };
	int fd = open_legacy_device(LEGACY_SENSOR_DEVICE, O_RDONLY);
	int ok = fd >= 0 && ioctl(fd, LEGACY_SENSOR_GET, &ioc) == 0;
	int err = ok ? 0 : errno;
	long clock_as_abi;
	long long past_limit = (long long)ioc.tv_sec - Y2038_LIMIT;

	clock_gettime(CLOCK_REALTIME, &now);
	clock_as_abi = (long)now.tv_sec;
	result(ok && ioc.count == 2 && ioc.tv_usec >= 0 && ioc.tv_usec < 1000000, "legacy/sensor/ioctl_answers",
	       "errno %d, count %u, tv_usec %ld", err, ioc.count, ioc.tv_usec);
	result(ok && labs(clock_as_abi - ioc.tv_sec) <= 2 && (sizeof(long) == 4 || past_limit > 0),
	       "legacy/sensor/ioctl_time_past_2038", "tv_sec %ld, clock %lld", ioc.tv_sec, (long long)now.tv_sec);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char names[32][NAME_MAX + 1], legacy[8][NAME_MAX + 1];
	int nselftests, nlegacy, has_tstamp = 0, has_sensor = 0;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	nselftests = wanted_selftests(names, file_names(SELFTEST_DIR, names, 32));
	nlegacy = file_names(LEGACY_DIR, legacy, 8);
	for (int i = 0; i < nlegacy; i++) {
		has_tstamp |= !strcmp(legacy[i], "legacy_tstamp.ko");
		has_sensor |= !strcmp(legacy[i], "legacy_sensor.ko");
	}
	printf("y2038-init: start\nKTAP version 1\n1..%d\n",
	       11 + nselftests + nlegacy + 2 * has_tstamp + 2 * has_sensor);
	check_rtc_at_boot();
	check_monotonic_clocks();
	check_crossing();
	check_rtc_device();
	for (int i = 0; i < nselftests; i++)
		run_selftest(names[i]);
	for (int i = 0; i < nlegacy; i++)
		load_legacy_module(legacy[i]);
	if (has_tstamp)
		check_legacy_tstamp_device();
	if (has_sensor)
		check_legacy_sensor_device();
	printf("y2038-init: verdict %s (%d of %d failed)\n", failures ? "FAIL" : "PASS", failures,
	       test_number);
	fflush(stdout);
	sync();
	/* QEMU runs with -no-reboot: a reset ends it, with or without ACPI */
	reboot(RB_AUTOBOOT);
	return 0;
}
