// SPDX-License-Identifier: GPL-2.0-only
/// Pass whole seconds to ktime_set() as seconds: ktime_set(0, seconds *
/// NSEC_PER_SEC) is wrong on 32-bit machines from 5 seconds on.
///
/// ktime_set(const s64 secs, const unsigned long nsecs) takes the
/// nanoseconds as unsigned long, which is 32 bits wide on 32-bit machines:
/// the product of the seconds and NSEC_PER_SEC is computed in 32 bits there
/// and kept modulo 2^32 ns (4.29 s), so a timeout of 5 s becomes 0.705 s and
/// one of 60 s becomes 4.17 s.  ktime_set(seconds, 0) multiplies in 64 bits
/// and gives the whole product on every architecture.  On 64-bit machines, where
/// unsigned long has 64 bits, the value does not change.
//
// Confidence: High
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: N is left alone where it is a constant of at most 4: 4 s is
//  4000000000 ns, below 2^32 ns, and the kernel builds with
//  -fno-strict-overflow, so the 32-bit product wrapped back to the right
//  unsigned long.  Any other N (a variable, a macro whose value spatch
//  cannot see such as lpfc's LPFC_SEC_MIN of 60UL) changes; the new form
//  also differs where N is negative (the old one wrapped on 32-bit
//  machines) and from N = KTIME_SEC_MAX on, where ktime_set() saturates
//  at KTIME_MAX instead of overflowing.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/
// Introduced: 2.6.16 ktime_set
// Removed: -
// Machines: 32-bit
// Sites: independent
// Subject: pass whole seconds to ktime_set() as seconds
// Options: --no-includes --include-headers --max-width 100
// Keywords: y2038, ktime_set, NSEC_PER_SEC, 32-bit, overflow
// Prefilter-regex: ktime_set\s*\(\s*0\s*,[^;]*NSEC_PER_SEC

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# the largest N whose N * NSEC_PER_SEC ns stays below 2^32 ns
LARGEST_EXACT = 4


def small(text):
    m = re.fullmatch(r"\s*\(*\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\)*\s*", text)
    return bool(m) and int(m.group(1), 0 if m.group(1)[:2].lower() == "0x" else 10) <= LARGEST_EXACT

// Rewrite: ktime_set(0, N * NSEC_PER_SEC) -> ktime_set(N, 0)
//  On 32-bit machines ktime_set() took the product of the seconds and
//  NSEC_PER_SEC as a 32-bit unsigned long, modulo 2^32 ns (4.29 s): from
//  5 seconds on the interval was too short.  ktime_set(seconds, 0)
//  multiplies in 64 bits; on 64-bit machines the value is unchanged.
@seconds depends on patch@
expression N : script:python() { not small(N) };
@@
(
- ktime_set(0, (N) * NSEC_PER_SEC)
+ ktime_set(N, 0)
|
- ktime_set(0, N * NSEC_PER_SEC)
+ ktime_set(N, 0)
|
- ktime_set(0, NSEC_PER_SEC * N)
+ ktime_set(N, 0)
)

@found depends on context || report || org@
expression N : script:python() { not small(N) };
position p;
@@
(
* ktime_set@p(0, N * NSEC_PER_SEC)
|
* ktime_set@p(0, NSEC_PER_SEC * N)
)

@script:python depends on report@
p << found.p;
N << found.N;
@@
coccilib.report.print_report(p[0], "y2038: ktime_set(0, %s * NSEC_PER_SEC) wraps modulo 2^32 ns on 32-bit machines: use ktime_set(%s, 0)" % (N, N))

@script:python depends on org@
p << found.p;
N << found.N;
@@
coccilib.org.print_todo(p[0], "ktime_set(0, N * NSEC_PER_SEC) wraps on 32-bit machines")
