// SPDX-License-Identifier: GPL-2.0-only
/// Multiply in 64 bits a count of seconds, milliseconds or microseconds that
/// becomes a 64-bit nanosecond value.
///
/// NSEC_PER_SEC, NSEC_PER_MSEC and NSEC_PER_USEC are long constants, and
/// long is 32 bits wide on 32-bit machines: there x * NSEC_PER_SEC with x
/// an int, a u32 or an unsigned long is computed in 32 bits before it is
/// stored in a u64, an s64 or a ktime_t.  An unsigned product is kept
/// modulo 2^32 ns (4.29 s); a signed one overflows past 2^31 - 1 ns
/// (2.147 s) and turns negative.  Casting x to s64 (u64 for an unsigned
/// long x, as the product is on 64-bit machines) multiplies in 64 bits on
/// every architecture; on 64-bit machines the width, the signedness and the
/// value of the product do not change.
//
// Confidence: Moderate
// Copyright: (C) 2026 The y2038 toolkit authors.
// Comments: A product changes only where it is a 64-bit nanosecond value
//  (stored in, added to or compared with a u64, s64 or ktime_t, or given
//  to ns_to_ktime(), ktime_add_ns(), hrtimer_start() and the like) and x
//  can reach the wrap: a constant (a literal or a macro of the file) whose
//  product passes it (python checks the value), a module parameter, or a
//  value parsed from user input (kstrto*(), sscanf(), copy_from_user()) in
//  the same function, unless a comparison, min() or clamp() bounds it (in
//  the function; a module parameter anywhere in the file) below the wrap,
//  or by a value the rule cannot read; or seconds read from a clock's
//  register (readl()).  Any other x (a field, a parameter, a table value)
//  is reported only: whether it can reach the wrap needs a human.
//  kernel/smp.c is excluded: its product (the csd_lock_timeout module
//  parameter) is in CSD_LOCK_WAIT_DEBUG code, which depends on 64BIT.
// Scope: all
// Exclude: tools/ samples/ usr/ scripts/ kernel/smp.c
// Introduced: 2.6.16 ktime_t, 2.6.16 NSEC_PER_SEC
// Removed: -
// Machines: 32-bit
// Sites: independent
// Subject: multiply nanosecond products in 64 bits
// Types: included-headers
// Options: --include-headers --include-headers-for-types --max-width 100
// Keywords: y2038, NSEC_PER_SEC, NSEC_PER_MSEC, NSEC_PER_USEC, 32-bit, overflow
// Prefilter-regex: NSEC_PER_(?:SEC|MSEC|USEC)\s*\*|\*\s*NSEC_PER_(?:SEC|MSEC|USEC)\b

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

NSEC_PER = {"NSEC_PER_SEC": 10 ** 9, "NSEC_PER_MSEC": 10 ** 6, "NSEC_PER_USEC": 10 ** 3}
# a signed 32-bit long holds at most 2^31 - 1, an unsigned one 2^32 - 1
SIGNED_LIMIT = 2 ** 31
UNSIGNED_LIMIT = 2 ** 32
LITERAL = re.compile(r"\(*\s*(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)\s*\)*")
# per file: module parameters, names read from user input per function,
# the upper bounds each name is compared with or clamped to (per function,
# and per file under None), the values of the file's literal macros
parameters, inputs, unsigned_at = set(), set(), set()
bounds, macros = {}, {}


def squeeze(text):
    return re.sub(r"\s+", "", text)


def constant_wraps(text, unit):
    """A literal whose product with unit does not fit the 32-bit long (or
    unsigned long, with a U suffix) it is computed in."""
    m = LITERAL.fullmatch(text.strip())
    if not m or "ll" in m.group(2).lower():
        return False
    limit = UNSIGNED_LIMIT if "u" in m.group(2).lower() else SIGNED_LIMIT
    return int(m.group(1), 0) * NSEC_PER[unit] >= limit


def add_bound(where, x, bound):
    for scope in (where.current_element, None):
        bounds.setdefault((where.file, scope, squeeze(x)), []).append(squeeze(bound))


def value(file, text):
    """A bound's value: a literal, or a macro of the file defined as one."""
    text = macros.get((file, text), text)
    m = LITERAL.fullmatch(text)
    return int(m.group(1), 0) if m else None


def largest(file, scope, name, depth=2):
    """The value name cannot pass: its smallest upper bound, one of which
    may be another name with bounds (psi's threshold <= window <= 10 s);
    None where it has no bound, -1 where a bound is not known."""
    found = bounds.get((file, scope, name))
    if not found:
        return None
    values = []
    for bound in found:
        v = value(file, bound)
        if v is None and depth:
            v = largest(file, scope, bound, depth - 1)
        values.append(-1 if v is None else v)
    return min(values)


def unbounded(file, scope, name, unit):
    """No bound, or every bound lets the product pass 2^32 ns."""
    limit = largest(file, scope, name)
    return limit is None or limit * NSEC_PER[unit] >= UNSIGNED_LIMIT


def user_value(name, where):
    """name, or the struct whose field it is, was filled from user input in
    the function, and can reach the wrap there."""
    base = re.split(r"\.|->", name)[0]
    return (where.file, where.current_element, base) in inputs


def constant(file, x):
    """x as a literal: itself, or the value of a macro of the file."""
    x = squeeze(x)
    x = macros.get((file, x), x)
    return x if LITERAL.fullmatch(x) else None


def reachable(x, unit, where):
    """x can reach the value whose product with unit wraps."""
    if constant(where.file, x) is not None:
        return constant_wraps(constant(where.file, x), unit)
    x = squeeze(x)
    if (where.file, x) in parameters:
        return unbounded(where.file, None, x, unit)
    return user_value(x, where) and unbounded(where.file, where.current_element, x, unit)


@macro@
identifier M;
constant V;
position p;
@@
#define M@p V

@script:python@
M << macro.M;
V << macro.V;
p << macro.p;
@@
macros[(p[0].file, M)] = squeeze(V)

@modparam@
declarer name module_param, module_param_named;
identifier x, name;
position p;
@@
(
 module_param@p(x, ...);
|
 module_param_named@p(name, x, ...);
)

@script:python@
x << modparam.x;
p << modparam.p;
@@
parameters.add((p[0].file, x))

// A name compared with an upper bound, or clamped: the bound is recorded.
@upper@
expression x, B, L;
position p;
@@
(
 x@p > B
|
 x@p >= B
|
 B < x@p
|
 B <= x@p
|
 \(clamp\|clamp_val\)(x@p, L, B)
|
 clamp_t(L, x@p, ..., B)
)

@script:python@
x << upper.x;
B << upper.B;
p << upper.p;
@@
add_bound(p[0], x, B)

// min(a, b) bounds each by the other; a disjunction would bind only the first.
@clamped@
expression a, b, T;
position p;
@@
(
 min@p(a, b)
|
 min_t@p(T, a, b)
)

@script:python@
a << clamped.a;
b << clamped.b;
p << clamped.p;
@@
add_bound(p[0], a, b)
add_bound(p[0], b, a)

@user_input@
identifier kstrto = {kstrtoint, kstrtouint, kstrtol, kstrtoul, kstrtou32, kstrtos32,
                     kstrtou16, kstrtou8, kstrtoint_from_user, kstrtouint_from_user,
                     kstrtoul_from_user};
expression x, A, B, C;
position p;
@@
(
 kstrto@p(..., &x)
|
 sscanf@p(A, B, ..., &x, ...)
|
 copy_from_user@p(&x, A, C)
)

@script:python@
x << user_input.x;
p << user_input.p;
@@
inputs.add((p[0].file, p[0].current_element, squeeze(x)))

// A product of a value at most 32 bits wide on 32-bit machines and a
// nanoseconds-per-unit constant, where the result is a 64-bit nanosecond value.
@wide@
typedef u8, s8, u16, s16, u32, s32, __u32, __s32, u64, s64, __u64, __s64, ktime_t;
{int, unsigned int, long, unsigned long, u8, s8, u16, s16, u32, s32, __u32, __s32,
 size_t, ssize_t, short, unsigned short, char, unsigned char} x;
{u64, s64, __u64, __s64, ktime_t, unsigned long long, long long} w;
identifier U = {NSEC_PER_SEC, NSEC_PER_MSEC, NSEC_PER_USEC};
identifier one = {ns_to_ktime, ns_to_timespec64};
identifier two = {ktime_add_ns, ktime_sub_ns, hrtimer_forward_now, hrtimer_start};
binary operator cmp = {<, <=, >, >=};
expression E, M;
position p;
@@
(
 w = \(x@p * U\|U * x@p\)
|
 w = E + \(x@p * U\|U * x@p\)
|
 w = \(x@p * U\|U * x@p\) + E
|
 w = E - \(x@p * U\|U * x@p\)
|
 w += \(x@p * U\|U * x@p\)
|
 w -= \(x@p * U\|U * x@p\)
|
 one(\(x@p * U\|U * x@p\))
|
 two(E, \(x@p * U\|U * x@p\), ...)
|
 hrtimer_forward(E, M, \(x@p * U\|U * x@p\))
|
 w + \(x@p * U\|U * x@p\)
|
 \(x@p * U\|U * x@p\) + w
|
 w - \(x@p * U\|U * x@p\)
|
 w cmp \(x@p * U\|U * x@p\)
|
 \(x@p * U\|U * x@p\) cmp w
)

// Reported before the patch mode's choice drops the products that cannot wrap.
@found depends on context@
{int, unsigned int, long, unsigned long, u8, s8, u16, s16, u32, s32, __u32, __s32,
 size_t, ssize_t, short, unsigned short, char, unsigned char} wide.x;
identifier wide.U;
position wide.p;
@@
(
* x@p * U
|
* U * x@p
)

@script:python depends on report@
p << wide.p;
x << wide.x;
U << wide.U;
@@
if constant(p[0].file, x) is None or constant_wraps(constant(p[0].file, x), U):
    why = "wraps on 32-bit machines: multiply in 64 bits" if reachable(x, U, p[0]) else \
          "is computed in 32 bits on 32-bit machines: can %s reach the wrap?" % x
    coccilib.report.print_report(p[0], "y2038: 64-bit nanoseconds %s * %s %s" % (x, U, why))

@script:python depends on org@
p << wide.p;
@@
coccilib.org.print_todo(p[0], "y2038: nanosecond product computed in 32 bits on 32-bit machines")

// The 64-bit type of the product on 64-bit machines: unsigned long times
// long is an unsigned long there, anything narrower times long a long.
@unsigned_operand@
{unsigned long, size_t} x;
position wide.p, q;
@@
 x@p@q

@script:python@
q << unsigned_operand.q;
@@
unsigned_at.add((q[0].file, q[0].line, q[0].column))

@script:python decide@
x << wide.x;
U << wide.U;
p << wide.p;
cast;
@@
if reachable(x, U, p[0]):
    key = (p[0].file, p[0].line, p[0].column)
    coccinelle.cast = cocci.make_type("u64" if key in unsigned_at else "s64")
else:
    cocci.include_match(False)

// Rewrite: count * NSEC_PER_SEC -> (s64)count * NSEC_PER_SEC
//  On 32-bit machines a count of seconds, milliseconds or microseconds
//  times NSEC_PER_SEC, NSEC_PER_MSEC or NSEC_PER_USEC was computed in 32
//  bits: an unsigned count kept the product modulo 2^32 ns (4.29 s), a
//  signed one overflowed past 2^31 - 1 ns (2.147 s) and turned negative.
//  Cast to s64 (u64 for an unsigned long count), the product is computed in
//  64 bits as on 64-bit machines, where it is unchanged.
@widen depends on patch@
{int, unsigned int, long, unsigned long, u8, s8, u16, s16, u32, s32, __u32, __s32,
 size_t, ssize_t, short, unsigned short, char, unsigned char} wide.x;
identifier wide.U;
position wide.p;
type decide.cast;
@@
(
- x@p * U
+ (cast)x * U
|
- U * x@p
+ (cast)x * U
)

// Seconds read from a clock's register: spatch does not know the type of
// readl() (a macro on most architectures), which is u32.
@register_seconds@
{u64, s64, __u64, __s64, ktime_t, unsigned long long, long long} w;
identifier rd = {readl, readl_relaxed, ioread32, __raw_readl};
expression R;
position p;
@@
(
 w = rd(R)@p * NSEC_PER_SEC
|
 w += rd(R)@p * NSEC_PER_SEC
|
 w + rd(R)@p * NSEC_PER_SEC
|
 rd(R)@p * NSEC_PER_SEC + w
)

@script:python depends on report@
p << register_seconds.p;
@@
coccilib.report.print_report(p[0], "y2038: 64-bit nanoseconds of a register's seconds computed in 32 bits on 32-bit machines: multiply in 64 bits")

// Rewrite: readl(reg) * NSEC_PER_SEC -> (s64)readl(reg) * NSEC_PER_SEC
//  The seconds a clock's register holds (a count since an epoch, never
//  bounded) were multiplied in 32 bits on 32-bit machines: the nanoseconds
//  were kept modulo 2^32 ns (4.29 s) from 5 s on.  Cast to s64, as the
//  product is on 64-bit machines, they are computed in 64 bits.
@register_fix depends on patch@
identifier register_seconds.rd;
expression register_seconds.R;
position register_seconds.p;
@@
- rd(R)@p * NSEC_PER_SEC
+ (s64)rd(R) * NSEC_PER_SEC
