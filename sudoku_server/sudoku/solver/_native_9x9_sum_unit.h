/* The support of a sum of weights 1 (a little killer diagonal) with three
 * or more open cells, as e9_support64 finds it (the same digits kept, the
 * same contradictions), without a loop whose length depends on the data
 * but the one over a three-cell segment's last cell. Included by
 * _native_9x9_sums.h; e9_sum calls it for every such pass (eleventh
 * session; arrows, whose bulbs weigh -1 or -10, keep e9_support64).
 *
 * Values are digit indexes (digit - 1), so a segment's totals and the
 * totals of a run of segments are bitsets from 0 (all ones), as in
 * e9_support64 with weights 1; the total is below 64 (e9_sum). A sumset
 * a + {t in m} is the OR of a shifted by every position of m, each masked
 * by m's bit there (E9_U9: 9 positions for a cell's digits, E9_U17 for the
 * totals of a segment of two, E9_U25 of three), so that no branch follows
 * the data: e9_support64 walks the set bits of each set (an exit
 * mispredicted per loop, about 10 loops a pass). A segment of two takes
 * its totals and its kept digits the same way over the first cell's nine
 * digits (e9_unit_pair, e9_unit_keep2), and a segment of three is a
 * segment of two per digit of its last cell.
 *
 * Fewer sets than e9_support64: the backward set of the last segment is
 * total - its totals, and its ok totals are total - the forward set before
 * it, each one bit reversal (e9_reverse64, shifted); the forward set of
 * all the segments is not made, since segment 0's totals meet the backward
 * set after it exactly when some placement makes the total. A pass of
 * three segments makes three sets where it made six.
 *
 * Measured on the 1.37M passes of weights 1 that the 500 stored little
 * killer puzzles make (recorded from one solve each and replayed in a
 * test program, the same kept digits and contradictions for every one):
 * 123 ns a pass with e9_support64 (and e9_support_small for one or two open
 * cells) -> 86 ns unrolled -> 75 ns with the reversals. Tried there and
 * dropped: an interval's sumset by doubling shifts (the forward sets are
 * intervals 41% of the time, the backward ones 65%: no faster than the
 * unrolled positions); a loop over the set bits for segments of three
 * (the same).
 */

#define E9_U9(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8)
#define E9_U17(X) E9_U9(X) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)
#define E9_U25(X) E9_U17(X) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)
/* One position d of a sumset (a + m), a difference set (a - m, values
 * >= 0) and the totals t of m whose a << t meets b. */
#define E9_SUM_AT(d) acc |= (a << d) & (0 - ((m >> d) & 1));
#define E9_DIFF_AT(d) acc |= (a >> d) & (0 - ((m >> d) & 1));
#define E9_MEET_AT(d) acc |= (uint64_t)(((a << d) & b) != 0) << d;

/* {u + v : u in a, v in m}, m within 9, 17 or 25 bits (len 1, 2, 3). */
static inline uint64_t
e9_unit_sum(uint64_t a, uint64_t m, int len)
{
    uint64_t acc = 0;
    if (len == 1) {
        E9_U9(E9_SUM_AT)
    } else if (len == 2) {
        E9_U17(E9_SUM_AT)
    } else {
        E9_U25(E9_SUM_AT)
    }
    return acc;
}

/* {u - v >= 0 : u in a, v in m}, m as in e9_unit_sum. */
static inline uint64_t
e9_unit_diff(uint64_t a, uint64_t m, int len)
{
    uint64_t acc = 0;
    if (len == 1) {
        E9_U9(E9_DIFF_AT)
    } else if (len == 2) {
        E9_U17(E9_DIFF_AT)
    } else {
        E9_U25(E9_DIFF_AT)
    }
    return acc;
}

/* The totals t (within 9, 17 or 25 bits) with some u in a, u + t in b. */
static inline uint64_t
e9_unit_meet(uint64_t a, uint64_t b, int len)
{
    uint64_t acc = 0;
    if (len == 1) {
        E9_U9(E9_MEET_AT)
    } else if (len == 2) {
        E9_U17(E9_MEET_AT)
    } else {
        E9_U25(E9_MEET_AT)
    }
    return acc;
}

/* x's 64 bits in reverse order. */
static inline uint64_t
e9_reverse64(uint64_t x)
{
    x = __builtin_bswap64(x);
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0FULL) | (x & 0x0F0F0F0F0F0F0F0FULL) << 4;
    x = (x >> 2 & 0x3333333333333333ULL) | (x & 0x3333333333333333ULL) << 2;
    return (x >> 1 & 0x5555555555555555ULL) | (x & 0x5555555555555555ULL) << 1;
}

/* The totals of two peers of masks m0, m1 (their digits differ). */
static inline uint64_t
e9_unit_pair(uint32_t m0, uint32_t m1)
{
    uint64_t t = 0;
#define E9_PAIR_AT(d) t |= ((uint64_t)(m1 & ~(1u << d)) << d) & (0 - (uint64_t)((m0 >> d) & 1));
    E9_U9(E9_PAIR_AT)
#undef E9_PAIR_AT
    return t;
}

/* The digits of m0 in some pair of two peers: all when m1 has two. */
static inline uint32_t
e9_unit_any2(uint32_t m0, uint32_t m1)
{
    return m0 & ((m1 & (m1 - 1)) ? ~0u : ~m1);
}

/* The digits of two peers (m0, m1) in a pair whose total is in ok. */
static inline void
e9_unit_keep2(uint32_t m0, uint32_t m1, uint64_t ok, uint32_t *k0out, uint32_t *k1out)
{
    uint32_t k0 = 0, k1 = 0;
#define E9_KEEP_AT(d)                                                                                        \
    {                                                                                                        \
        uint64_t v = ((uint64_t)(m1 & ~(1u << d)) << d) & ok & (0 - (uint64_t)((m0 >> d) & 1));            \
        k0 |= (uint32_t)(v != 0) << d;                                                                       \
        k1 |= (uint32_t)(v >> d);                                                                            \
    }
    E9_U9(E9_KEEP_AT)
#undef E9_KEEP_AT
    *k0out = k0;
    *k1out = k1 & m1;
}

/* A segment's totals (len 1..3 peers, masks m); the digits of each cell in
 * some placement join any. */
static inline uint64_t
e9_unit_totals(const uint32_t *m, int len, uint32_t *any)
{
    uint64_t t = 0;
    uint32_t c;
    if (len == 1) {
        any[0] = m[0];
        return m[0];
    }
    if (len == 2) {
        any[0] = e9_unit_any2(m[0], m[1]);
        any[1] = e9_unit_any2(m[1], m[0]);
        return e9_unit_pair(m[0], m[1]);
    }
    for (c = m[2]; c; c &= c - 1) { /* the last cell's digit, then a pair */
        uint32_t bc = c & (~c + 1), m0 = m[0] & ~bc, m1 = m[1] & ~bc;
        uint64_t p = e9_unit_pair(m0, m1);
        if (!p)
            continue;
        t |= p << CTZ(c);
        any[0] |= e9_unit_any2(m0, m1);
        any[1] |= e9_unit_any2(m1, m0);
        any[2] |= bc;
    }
    return t;
}

/* The digits of a segment's placements whose total is in ok, into keep. */
static inline void
e9_unit_keep(const uint32_t *m, int len, uint64_t ok, uint32_t *keep)
{
    uint32_t c;
    if (len == 1) {
        keep[0] = m[0] & (uint32_t)ok;
        return;
    }
    if (len == 2) {
        e9_unit_keep2(m[0], m[1], ok, keep, keep + 1);
        return;
    }
    for (c = m[2]; c; c &= c - 1) {
        uint32_t bc = c & (~c + 1), k0, k1;
        e9_unit_keep2(m[0] & ~bc, m[1] & ~bc, ok >> CTZ(c), &k0, &k1);
        if (!k0)
            continue;
        keep[0] |= k0;
        keep[1] |= k1;
        keep[2] |= bc;
    }
}

/* The digits of a sum of weights 1 (masks m of its open cells, segments
 * at[0..nseg], total above the open cells' least, < 64) that some placement
 * making the total holds, into keep (zeroed by the caller). 0 when none. */
static int
e9_support_unit(const uint32_t *m, const int *at, int nseg, long total, uint32_t *keep)
{
    uint64_t tset[16], f[17], b[17];
    uint32_t any[16] = {0};
    int sg, i;
    f[0] = 1;
    for (sg = 0; sg < nseg; sg++) {
        int len = at[sg + 1] - at[sg];
        tset[sg] = e9_unit_totals(m + at[sg], len, any + at[sg]);
        if (!tset[sg])
            return 0;
        if (sg + 1 < nseg) /* f[nseg] is not needed: b[1] meets segment 0 or not */
            f[sg + 1] = sg ? e9_unit_sum(f[sg], tset[sg], len) : tset[0];
    }
    /* b[sg]: total - the totals the segments from sg on can make; the last
     * segment's by one reversal (total - t for t in its totals), and its
     * ok totals so too (total - u for u in f[nseg - 1]) */
    b[nseg] = (uint64_t)1 << total;
    if (nseg > 1)
        b[nseg - 1] = e9_reverse64(tset[nseg - 1]) >> (63 - total);
    for (sg = nseg - 2; sg > 0; sg--)
        b[sg] = e9_unit_diff(b[sg + 1], tset[sg], at[sg + 1] - at[sg]);
    if (!(tset[0] & b[1])) /* no placement makes the total */
        return 0;
    for (sg = 0; sg < nseg; sg++) {
        int len = at[sg + 1] - at[sg];
        uint64_t ok = tset[sg] & (sg == nseg - 1 ? e9_reverse64(f[sg]) >> (63 - total)
                                  : sg        ? e9_unit_meet(f[sg], b[sg + 1], len)
                                              : b[1]);
        if (ok == tset[sg]) /* every placement makes the total with some others */
            for (i = at[sg]; i < at[sg + 1]; i++)
                keep[i] = any[i];
        else
            e9_unit_keep(m + at[sg], len, ok, keep + at[sg]);
    }
    return 1;
}
