/* The support of one sum over its cells' candidates, written once per width
 * of its totals' bitsets: _native_9x9_sums.h includes this file twice,
 * with SUMT uint64_t and SB(name) e9_name64 (a range within 64 bits: most
 * little killer diagonals and arrows), then with SUMT unsigned __int128 and
 * SB(name) e9_name128 (within 128 bits) where the compiler has it. Bit t of
 * a set: the value least + t, where least is the smallest value the cells
 * can make; every shift stays below the width, since the sum's range does.
 */

/* The values w * d - least over the digits d of m, as bits. */
static inline SUMT
SB(vals)(uint32_t m, long w)
{
    SUMT v = 0;
    if (w == 1)
        return m;
    for (; m; m &= m - 1)
        v |= (SUMT)1 << (w * (CTZ(m) + 1) - e9_least(w));
    return v;
}

/* The digits d of m whose value w * d - least is in bits. */
static inline uint32_t
SB(digits_of)(SUMT bits, uint32_t m, long w)
{
    uint32_t keep = 0;
    if (w == 1)
        return m & (uint32_t)bits;
    for (; m; m &= m - 1)
        if (bits >> (w * (CTZ(m) + 1) - e9_least(w)) & 1)
            keep |= m & (~m + 1);
    return keep;
}

/* The placements of a segment (len 1..3 cells of masks m and weights w,
 * digits distinct): with keep NULL, the totals (above the segment's least)
 * they make, and the digits of each cell in some placement join any; else
 * the digits of each placement whose total is in ok join keep. The last
 * cell's values are taken as one set, shifted. */
static SUMT
SB(seg)(const uint32_t *m, const int32_t *w, int len, SUMT ok, uint32_t *keep, uint32_t *any)
{
    SUMT t = 0;
    long w0 = w[0], w1 = len > 1 ? w[1] : 0;
    uint32_t a, b;
    if (len == 1) {
        SUMT v = SB(vals)(m[0], w0);
        if (keep != NULL)
            keep[0] |= SB(digits_of)(ok & v, m[0], w0);
        else
            any[0] = m[0];
        return v;
    }
    for (a = m[0]; a; a &= a - 1) {
        uint32_t ba = a & (~a + 1);
        long va = w0 * (CTZ(a) + 1) - e9_least(w0);
        if (len == 2) {
            uint32_t other = m[1] & ~ba;
            SUMT v;
            if (!other)
                continue;
            v = SB(vals)(other, w1) << va;
            if (keep == NULL) {
                t |= v;
                any[0] |= ba;
                any[1] |= other;
            } else if (v & ok) {
                keep[0] |= ba;
                keep[1] |= SB(digits_of)((v & ok) >> va, other, w1);
            }
            continue;
        }
        for (b = m[1] & ~ba; b; b &= b - 1) {
            uint32_t bb = b & (~b + 1), last = m[2] & ~ba & ~bb;
            long vb = va + w1 * (CTZ(b) + 1) - e9_least(w1);
            SUMT v;
            if (!last)
                continue;
            v = SB(vals)(last, w[2]) << vb;
            if (keep == NULL) {
                t |= v;
                any[0] |= ba;
                any[1] |= bb;
                any[2] |= last;
            } else if (v & ok) {
                keep[0] |= ba;
                keep[1] |= bb;
                keep[2] |= SB(digits_of)((v & ok) >> vb, last, w[2]);
            }
        }
    }
    return t;
}

/* The bits set in t, each as an index, in ascending order, into at;
 * their number. */
static inline int
SB(bits)(SUMT t, uint8_t *at)
{
    int n = 0;
    uint64_t lo = (uint64_t)t;
    for (; lo; lo &= lo - 1)
        at[n++] = (uint8_t)__builtin_ctzll(lo);
    if (sizeof(SUMT) > 8) {
        uint64_t hi = (uint64_t)(t >> 32 >> 32);
        for (; hi; hi &= hi - 1)
            at[n++] = (uint8_t)(64 + __builtin_ctzll(hi));
    }
    return n;
}

/* The digits of sum k's cells (masks m, weights w, segments at[0..nseg])
 * that some placement making the total (above the cells' least) holds, into
 * keep. 0 when there is none. */
static int
SB(support)(const uint32_t *m, const int32_t *w, const int *at, int nseg, long total, uint32_t *keep)
{
    SUMT tset[16], f[17], b[17];
    uint32_t any[16] = {0};
    uint8_t idx[16][128];
    int nidx[16], sg, j;
    f[0] = 1;
    for (sg = 0; sg < nseg; sg++) {
        SUMT acc = 0;
        tset[sg] = SB(seg)(m + at[sg], w + at[sg], at[sg + 1] - at[sg], 0, NULL, any + at[sg]);
        nidx[sg] = SB(bits)(tset[sg], idx[sg]);
        for (j = 0; j < nidx[sg]; j++)
            acc |= f[sg] << idx[sg][j];
        f[sg + 1] = acc;
    }
    if (!(f[nseg] >> total & 1))
        return 0;
    b[nseg] = (SUMT)1 << total;
    for (sg = nseg - 1; sg > 0; sg--) {
        SUMT acc = 0;
        for (j = 0; j < nidx[sg]; j++)
            acc |= b[sg + 1] >> idx[sg][j];
        b[sg] = acc;
    }
    for (sg = 0; sg < nseg; sg++) {
        SUMT ok = 0;
        int i;
        if (sg == 0) /* f[0] is 1: the totals the later segments finish */
            ok = tset[0] & b[1];
        else
            for (j = 0; j < nidx[sg]; j++)
                ok |= (SUMT)(((f[sg] << idx[sg][j]) & b[sg + 1]) != 0) << idx[sg][j];
        if (ok == tset[sg]) /* every placement makes the total with some others */
            for (i = at[sg]; i < at[sg + 1]; i++)
                keep[i] = any[i];
        else
            (void)SB(seg)(m + at[sg], w + at[sg], at[sg + 1] - at[sg], ok, keep + at[sg], NULL);
    }
    return 1;
}
