/* Sums whose digits may repeat in the 9x9 engine (e9): arrows (the bulb's
 * digits weighted -1, or -10 and -1 for a pill, the shaft's 1, total 0) and
 * little killer diagonals (weights 1). Included by _native_9x9.h after
 * _native_9x9_pairs.h; e9_propagate_ calls e9_sums once e9's own rules and
 * the pairs find nothing more.
 *
 * A classic 9x9 geometry whose sums all repeat digits (no killer cage: its
 * cells would be peers) and fit the pass below (geo_sums9_fit), with
 * starting candidates and relation pairs but no polar pair, is searched by
 * e9 (Geo.mask9). Each sum is kept to domain consistency, peers within a
 * segment seen, as the general engine keeps it (_native_sum_support.h, whose
 * segments, Geo.sum_seg, are reused: up to 3 consecutive cells of the sum
 * that are peers of each other, whose digits differ): a digit of a cell stays
 * only while some placement of its segment with it, and some totals of the
 * segments before and after, make the sum's total. The totals a run of
 * segments can make are bitsets over the range of the sum (value - least,
 * within 128 bits, one unsigned __int128), forward and backward by shifts.
 * The cells' candidates are read from e9's digit masks (e9_cell_mask), and
 * the digits that go leave them and are marked dirty, so e9's rules run
 * again.
 *
 * Only the sums with a cell changed since x->sbase9 are looked at: the digit
 * masks the last pass started from on this search path (e9_sums_base sets
 * it to a branch's parent, which is propagated: every sum at its fixpoint;
 * x->svalid9 0 looks at every sum). A sum none of whose cells changed since
 * then is still at its fixpoint (the pass on a sum depends on its cells'
 * candidates only). Sound (only digits no solution holds go), so the search
 * drivers' answers stay those of the general engine; on a solved state every
 * sum was looked at with its cells single, so every sum holds.
 */

/* As _native_sum_support.h (included later): a segment starts at this cell. */
#define SEG_START 1

#ifdef __SIZEOF_INT128__
#define E9_SUMS 1
typedef unsigned __int128 u128;
#else
#define E9_SUMS 0
#endif

/* The least weighted value of a cell of weight w: w * 1 or w * 9. */
static inline long
e9_least(long w)
{
    return w > 0 ? w : 9 * w;
}

/* Would every sum of g go to e9 (mask9): not distinct (ex's records), its
 * range within 128 bits, at most 16 cells, and no polar pair (whose probing
 * keeps no sums base)? */
static int
geo_sums9_fit(const Geo *g, const Extra *ex)
{
    const int32_t *r = ex->sums;
    int k;
    if (!E9_SUMS || g->polar != NULL)
        return 0;
    for (k = 0; k < ex->nsums; k++, r += 3 + 2 * r[0]) {
        long span = 0;
        int i;
        if (r[2] || r[0] > 16 || r[0] < 1)
            return 0;
        for (i = 0; i < r[0]; i++) {
            long w = r[3 + r[0] + i];
            if (w == 0 || w > 100 || w < -100)
                return 0;
            span += 8 * (w > 0 ? w : -w);
        }
        if (span >= 128)
            return 0;
    }
    return 1;
}

/* Geo.sum9 (per sum its cells per band) and Geo.sums9_cells for a mask9
 * geometry with sums: 1, or 0 when out of memory. */
static int
geo_sums9(Geo *g)
{
    int k;
    g->sum9 = PyMem_RawCalloc(3 * (size_t)g->nsums, sizeof(uint32_t));
    if (g->sum9 == NULL)
        return 0;
    for (k = 0; k < g->nsums; k++) {
        uint32_t a;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++) {
            int c = g->sum_cells[a];
            g->sum9[3 * k + c / 27] |= 1u << (c % 27);
            g->sums9_cells[c / 27] |= 1u << (c % 27);
        }
    }
    return 1;
}

#if E9_SUMS
static inline uint32_t e9_cell_mask(const S9 *s, int c);

/* The values w * d - least over the digits d of m, as bits. */
static inline u128
e9_vals(uint32_t m, long w)
{
    u128 v = 0;
    if (w == 1)
        return m;
    for (; m; m &= m - 1)
        v |= (u128)1 << (w * (CTZ(m) + 1) - e9_least(w));
    return v;
}

/* The digits d of m whose value w * d - least is in bits. */
static inline uint32_t
e9_digits_of(u128 bits, uint32_t m, long w)
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
 * they make; else the digits of each placement whose total is in ok join
 * keep. The last cell's values are taken as one set, shifted. */
static u128
e9_seg(const uint32_t *m, const int32_t *w, int len, u128 ok, uint32_t *keep)
{
    u128 t = 0;
    long w0 = w[0], w1 = len > 1 ? w[1] : 0;
    uint32_t a, b;
    if (len == 1) {
        u128 v = e9_vals(m[0], w0);
        if (keep != NULL)
            keep[0] |= e9_digits_of(ok & v, m[0], w0);
        return v;
    }
    for (a = m[0]; a; a &= a - 1) {
        uint32_t ba = a & (~a + 1);
        long va = w0 * (CTZ(a) + 1) - e9_least(w0);
        if (len == 2) {
            u128 v = e9_vals(m[1] & ~ba, w1) << va;
            if (keep == NULL) {
                t |= v;
            } else if (v & ok) {
                keep[0] |= ba;
                keep[1] |= e9_digits_of((v & ok) >> va, m[1] & ~ba, w1);
            }
            continue;
        }
        for (b = m[1] & ~ba; b; b &= b - 1) {
            uint32_t bb = b & (~b + 1), last = m[2] & ~ba & ~bb;
            long vb = va + w1 * (CTZ(b) + 1) - e9_least(w1);
            u128 v = e9_vals(last, w[2]) << vb;
            if (keep == NULL) {
                t |= v;
            } else if (v & ok) {
                keep[0] |= ba;
                keep[1] |= bb;
                keep[2] |= e9_digits_of((v & ok) >> vb, last, w[2]);
            }
        }
    }
    return t;
}

/* Sum k to domain consistency on s (segments seen). Digits removed go to
 * x->dirty. 1, or 0 on a contradiction. */
static int
e9_sum(Ctx *x, S9 *s, int k)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    const int32_t *w = g->sum_weight + g->sum_start[k];
    const uint8_t *seg = g->sum_seg + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), i, sg, nseg = 0, at[17];
    uint32_t m[16], keep[16];
    u128 tset[16], f[17], b[17];
    long least = 0, total;
    for (i = 0; i < size; i++) {
        m[i] = e9_cell_mask(s, cells[i]);
        if (UNLIKELY(!m[i]))
            return 0;
        keep[i] = 0;
        least += e9_least(w[i]);
        if (seg[i] & SEG_START)
            at[nseg++] = i;
    }
    at[nseg] = size;
    total = g->sum_total[k] - least;
    if (total < 0 || total >= 128)
        return 0;
    f[0] = 1;
    for (sg = 0; sg < nseg; sg++) {
        u128 t = tset[sg] = e9_seg(m + at[sg], w + at[sg], at[sg + 1] - at[sg], 0, NULL), acc = 0;
        uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
        for (; lo; lo &= lo - 1)
            acc |= f[sg] << __builtin_ctzll(lo);
        for (; hi; hi &= hi - 1)
            acc |= f[sg] << (64 + __builtin_ctzll(hi));
        f[sg + 1] = acc;
    }
    if (!(f[nseg] >> total & 1))
        return 0;
    b[nseg] = (u128)1 << total;
    for (sg = nseg - 1; sg > 0; sg--) {
        u128 t = tset[sg], acc = 0;
        uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
        for (; lo; lo &= lo - 1)
            acc |= b[sg + 1] >> __builtin_ctzll(lo);
        for (; hi; hi &= hi - 1)
            acc |= b[sg + 1] >> (64 + __builtin_ctzll(hi));
        b[sg] = acc;
    }
    for (sg = 0; sg < nseg; sg++) {
        u128 t = tset[sg], ok = 0;
        uint64_t lo = (uint64_t)t, hi = (uint64_t)(t >> 64);
        for (; lo; lo &= lo - 1)
            if ((f[sg] << __builtin_ctzll(lo)) & b[sg + 1])
                ok |= (u128)1 << __builtin_ctzll(lo);
        for (; hi; hi &= hi - 1)
            if ((f[sg] << (64 + __builtin_ctzll(hi))) & b[sg + 1])
                ok |= (u128)1 << (64 + __builtin_ctzll(hi));
        (void)e9_seg(m + at[sg], w + at[sg], at[sg + 1] - at[sg], ok, keep + at[sg]);
    }
    for (i = 0; i < size; i++) {
        uint32_t gone = m[i] & ~keep[i], bit = 1u << (cells[i] % 27);
        int band = cells[i] / 27;
        if (!gone)
            continue;
        x->dirty |= gone;
        for (; gone; gone &= gone - 1)
            s->F[3 * CTZ(gone) + band] &= ~bit;
    }
    return 1;
}

/* Every sum with a cell changed since x->sbase9 (all when !x->svalid9) to
 * domain consistency; s becomes the base. 1, or 0 on a contradiction. */
static int
e9_sums(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    uint32_t ch[3] = {0, 0, 0}, start[27];
    int i, k;
    memcpy(start, s->F, sizeof start);
    if (x->svalid9) {
        for (i = 0; i < 27; i++)
            ch[i % 3] |= s->F[i] ^ x->sbase9[i];
        ch[0] &= g->sums9_cells[0];
        ch[1] &= g->sums9_cells[1];
        ch[2] &= g->sums9_cells[2];
        if (!(ch[0] | ch[1] | ch[2]))
            return 1;
    } else {
        ch[0] = ch[1] = ch[2] = BAND;
    }
    for (k = 0; k < g->nsums; k++) {
        const uint32_t *c = g->sum9 + 3 * k;
        if (((c[0] & ch[0]) | (c[1] & ch[1]) | (c[2] & ch[2])) && !e9_sum(x, s, k))
            return 0;
    }
    memcpy(x->sbase9, start, sizeof start);
    x->svalid9 = 1;
    return 1;
}

/* A branch starts from s (its parent, propagated: every sum at its
 * fixpoint): the base of the next e9_sums. */
static inline void
e9_sums_base(Ctx *x, const S9 *s)
{
    memcpy(x->sbase9, s->F, sizeof x->sbase9);
    x->svalid9 = 1;
}
#else
static int
e9_sums(Ctx *x, S9 *s)
{
    (void)x;
    (void)s;
    return 1;
}

static inline void
e9_sums_base(Ctx *x, const S9 *s)
{
    (void)x;
    (void)s;
}
#endif
