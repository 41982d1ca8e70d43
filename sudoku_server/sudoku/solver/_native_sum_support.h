/* Domain-consistent support of a sum whose digits may repeat (little killer
 * diagonals, arrows): included by _native_kinds.h, after ev_sum_bounds.
 *
 * ev_sum_bounds keeps each cell's digits within the bounds the others' least
 * and greatest values leave; a digit inside those bounds may still have no
 * placement (a diagonal of three cells summing to 4 holds no 2 beside two
 * cells of {1,3}). ev_sum_support keeps a digit d of cell i only when the
 * cells before i can make some partial sum s and the cells after it the rest,
 * total - s - w_i * d, each cell any digit of its candidates times its weight
 * (peers not consulted: a relaxation, so nothing in a solution goes). The
 * totals a run of cells can make are bitsets over the sums' range, built
 * forward and backward by shifts: O(cells x digits x words) a call; it takes
 * the bounds' place (it keeps no digit they would remove). A sum whose range
 * needs more than SUM_SUPPORT_BITS bits (a pill of three cells) or has more
 * than SUM_SUPPORT_CELLS cells keeps its bounds only (ev_sum_bounds).
 *
 * The pass depends on the sum's candidates alone and leaves a fixpoint (each
 * digit kept has a placement whose other digits are kept too), so the
 * candidates it left are remembered per sum (Ctx.sum_cache, for the first
 * SUM_CACHE sums), and a later call on the same candidates, in any node,
 * returns at once.
 *
 * The cells are cut into segments of peers once per geometry
 * (geo_sum_segments). A segment of weights 1 walks the tuples of its first
 * cells only, the last cell's digits taken as one shifted mask
 * (seg_unit_placements), and a sum of such segments within 128 bits (every
 * little killer diagonal on 9x9) carries its totals on one __int128. */

#define SUM_SUPPORT_WORDS 8
#define SUM_SUPPORT_BITS (64 * SUM_SUPPORT_WORDS)
#define SUM_SUPPORT_CELLS SUM_CACHE_CELLS

typedef struct {
    uint64_t w[SUM_SUPPORT_WORDS];
} SumBits;

/* out |= in shifted by k bits (k > 0: up, k < 0: down), over nw words. */
static inline void
sb_or_shifted(SumBits *out, const SumBits *in, long k, int nw)
{
    int i;
    if (k >= 0) {
        int q = (int)(k / 64), r = (int)(k % 64);
        for (i = nw - 1; i >= q; i--) {
            uint64_t v = in->w[i - q] << r;
            if (r && i - q - 1 >= 0)
                v |= in->w[i - q - 1] >> (64 - r);
            out->w[i] |= v;
        }
    } else {
        int q = (int)(-k / 64), r = (int)(-k % 64);
        for (i = 0; i + q < nw; i++) {
            uint64_t v = in->w[i + q] >> r;
            if (r && i + q + 1 < nw)
                v |= in->w[i + q + 1] << (64 - r);
            out->w[i] |= v;
        }
    }
}

/* Does a shifted by k bits meet b? */
static inline int
sb_meets_shifted(const SumBits *a, long k, const SumBits *b, int nw)
{
    SumBits t;
    int i;
    memset(&t, 0, sizeof t);
    sb_or_shifted(&t, a, k, nw);
    for (i = 0; i < nw; i++)
        if (t.w[i] & b->w[i])
            return 1;
    return 0;
}

/* Up to SEG_MAX consecutive cells of a sum that are peers of each other
 * make a segment: its placements are tuples of distinct digits. */
#define SEG_MAX 3
/* Geo.sum_seg, per cell of a sum: a segment starts here; and it is of
 * weights 1 with its totals within a word (seg_unit_placements). */
#define SEG_START 1
#define SEG_UNIT 2

/* Cut g's sums into segments (Geo.sum_seg), once per geometry. 0 when out
 * of memory. */
static int
geo_sum_segments(Geo *g)
{
    int k, i, j, e;
    if (g->nsums <= 0)
        return 1;
    g->sum_seg = PyMem_RawCalloc((size_t)g->sum_start[g->nsums] + 1, 1);
    if (g->sum_seg == NULL)
        return 0;
    for (k = 0; k < g->nsums; k++) {
        const uint16_t *cells = g->sum_cells + g->sum_start[k];
        const int32_t *w = g->sum_weight + g->sum_start[k];
        uint8_t *seg = g->sum_seg + g->sum_start[k];
        int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), unit;
        for (i = 0; i < size; i = j) {
            j = i + 1;
            while (j < size && j - i < SEG_MAX) {
                int ok = 1;
                for (e = i; e < j && ok; e++)
                    ok = geo_is_peer(g, cells[e], cells[j]);
                if (!ok)
                    break;
                j++;
            }
            unit = (j - i) * (g->n - 1) < 64;
            for (e = i; e < j; e++)
                unit &= w[e] == 1;
            seg[i] = (uint8_t)(SEG_START | (unit ? SEG_UNIT : 0));
        }
    }
    return 1;
}

/* The placements of a segment (cells, weights, len; least: its least
 * total): with ok NULL, each placement's total above least joins *tset;
 * else the digits of each placement whose total is in *ok join keep. */
static void
seg_placements(const SG *s, const uint16_t *cells, const int32_t *w, int len, long least, SumBits *tset,
               const SumBits *ok, uint32_t *keep)
{
    int depth = 0, dig[SEG_MAX], e;
    uint32_t left[SEG_MAX];
    left[0] = s->c[cells[0]];
    while (depth >= 0) {
        if (!left[depth]) {
            depth--;
            continue;
        }
        dig[depth] = CTZ(left[depth]) + 1;
        left[depth] &= left[depth] - 1;
        if (depth + 1 < len) {
            uint32_t used = 0;
            for (e = 0; e <= depth; e++)
                used |= 1u << (dig[e] - 1);
            depth++;
            left[depth] = s->c[cells[depth]] & ~used;
            continue;
        }
        {
            long t = -least;
            for (e = 0; e < len; e++)
                t += (long)w[e] * dig[e];
            if (ok == NULL) {
                tset->w[t / 64] |= 1ull << (t % 64);
            } else if (ok->w[t / 64] >> (t % 64) & 1) {
                for (e = 0; e < len; e++)
                    keep[e] |= 1u << (dig[e] - 1);
            }
        }
    }
}

/* seg_placements for a segment of weights 1 whose totals fit a word
 * (len * (n - 1) < 64): the last cell's digits as one mask, shifted by the
 * others' total (bit t: the digits' sum - len), so only the first cells'
 * tuples are walked. With ok 0, returns the totals; else the digits of the
 * placements whose total is in ok join keep (and it returns 0). */
static uint64_t
seg_unit_placements(const SG *s, const uint16_t *cells, int len, uint64_t ok, uint32_t *keep)
{
    uint32_t m0 = s->c[cells[0]], m1, m2, a, b;
    uint64_t t = 0, hit;
    if (len == 1) {
        if (ok)
            keep[0] |= m0 & (uint32_t)ok;
        return m0;
    }
    m1 = s->c[cells[1]];
    m2 = len == 3 ? s->c[cells[2]] : 0;
    for (a = m0; a; a &= a - 1) {
        int da = CTZ(a);
        uint32_t ba = a & (~a + 1);
        if (len == 2) {
            if (!ok) {
                t |= (uint64_t)(m1 & ~ba) << da;
            } else if ((hit = (ok >> da) & (m1 & ~ba)) != 0) {
                keep[0] |= ba;
                keep[1] |= (uint32_t)hit;
            }
            continue;
        }
        for (b = m1 & ~ba; b; b &= b - 1) {
            int db = CTZ(b);
            uint32_t bb = b & (~b + 1), last = m2 & ~ba & ~bb;
            if (!ok) {
                t |= (uint64_t)last << (da + db);
            } else if ((hit = (ok >> (da + db)) & last) != 0) {
                keep[0] |= ba;
                keep[1] |= bb;
                keep[2] |= (uint32_t)hit;
            }
        }
    }
    return t;
}

/* The end of ev_sum_support: each cell of sum k keeps its digits in keep,
 * and the candidates left are remembered (Ctx.sum_cache). 0 on a
 * contradiction. */
static int
ev_sum_keep(Ctx *x, SG *s, int k, const uint16_t *cells, int size, const uint32_t *keep, int *found)
{
    int i;
    for (i = 0; i < size; i++) {
        uint32_t drop = s->c[cells[i]] & ~keep[i];
        if (drop && !eg_remove(x, s, cells[i], drop, found))
            return 0;
    }
    if (k < SUM_CACHE) {
        for (i = 0; i < size; i++)
            x->sum_cache[k][i] = s->c[cells[i]];
        x->sum_cached[k] = 1;
    }
    return 1;
}

/* Sum k (SUM_BOUNDS) to domain consistency, peers within a segment seen:
 * the sum's cells in order, cut into segments of up to SEG_MAX consecutive
 * cells that are peers of each other (a diagonal's cells inside one box,
 * an arrow's shaft along a row), whose digits differ; other peers are not
 * consulted. The totals are propagated per distinct total of a segment's
 * placements, not per placement. 0 on a contradiction. */
static int
ev_sum_support(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    const int32_t *w = g->sum_weight + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), i, nw, nseg = 0, sg;
    const uint8_t *seg = g->sum_seg + g->sum_start[k];
    int seg_at[SUM_SUPPORT_CELLS + 1];
    uint8_t seg_unit[SUM_SUPPORT_CELLS]; /* a segment of weights 1 (seg_unit_placements) */
    long total = g->sum_total[k], span = 0, n = g->n, base[SUM_SUPPORT_CELLS + 1], t;
    SumBits fwd[SUM_SUPPORT_CELLS + 1], bwd[SUM_SUPPORT_CELLS + 1], tset[SUM_SUPPORT_CELLS];
    uint32_t keep[SUM_SUPPORT_CELLS];
    uint64_t bits;
    int wi, units;

    if (size > SUM_SUPPORT_CELLS)
        return ev_sum_bounds(x, s, k, found);
    if (k < SUM_CACHE && x->sum_cached[k]) {
        /* the candidates its last pass left (a fixpoint of the pass): nothing to do */
        for (i = 0; i < size && s->c[cells[i]] == x->sum_cache[k][i]; i++)
            ;
        if (i == size)
            return 1;
    }
    /* base[i]: the least sum cells 0..i-1 can make; a prefix sum p is bit p - base[i] */
    base[0] = 0;
    for (i = 0; i < size; i++) {
        long a = (long)w[i], b = (long)w[i] * n;
        base[i + 1] = base[i] + (a < b ? a : b);
        span += a < b ? b - a : a - b;
    }
    if (span + 1 > SUM_SUPPORT_BITS)
        return ev_sum_bounds(x, s, k, found);
    if (total < base[size] || total > base[size] + span)
        return 0;
    for (i = 0; i < size; i++)
        if (seg[i] & SEG_START) {
            seg_unit[nseg] = (seg[i] & SEG_UNIT) != 0;
            seg_at[nseg++] = i;
        }
    seg_at[nseg] = size;
    nw = (int)(span / 64) + 1;
    memset(tset, 0, sizeof(SumBits) * (size_t)nseg);
    memset(keep, 0, sizeof(uint32_t) * (size_t)size);
    /* the totals each segment's placements make, above its least */
    for (sg = 0, units = 1; sg < nseg; sg++) {
        int a = seg_at[sg], len = seg_at[sg + 1] - a;
        if (seg_unit[sg])
            tset[sg].w[0] = seg_unit_placements(s, cells + a, len, 0, NULL);
        else
            seg_placements(s, cells + a, w + a, len, base[seg_at[sg + 1]] - base[a], &tset[sg], NULL, NULL);
        units &= seg_unit[sg];
    }
#ifdef __SIZEOF_INT128__
    if (units && span < 128) {
        /* every segment of weights 1 and the range within 128 bits (a little
         * killer diagonal on 9x9): the same passes on one word pair */
        unsigned __int128 f[SUM_SUPPORT_CELLS + 1], b[SUM_SUPPORT_CELLS + 1];
        f[0] = 1;
        b[nseg] = (unsigned __int128)1 << (total - base[size]);
        for (sg = 0; sg < nseg; sg++)
            for (f[sg + 1] = 0, bits = tset[sg].w[0]; bits; bits &= bits - 1)
                f[sg + 1] |= f[sg] << __builtin_ctzll(bits);
        for (sg = nseg - 1; sg >= 0; sg--)
            for (b[sg] = 0, bits = tset[sg].w[0]; bits; bits &= bits - 1)
                b[sg] |= b[sg + 1] >> __builtin_ctzll(bits);
        for (sg = 0; sg < nseg; sg++) {
            uint64_t ok = 0;
            for (bits = tset[sg].w[0]; bits; bits &= bits - 1)
                if ((f[sg] << __builtin_ctzll(bits)) & b[sg + 1])
                    ok |= bits & (~bits + 1);
            (void)seg_unit_placements(s, cells + seg_at[sg], seg_at[sg + 1] - seg_at[sg], ok, keep + seg_at[sg]);
        }
        return ev_sum_keep(x, s, k, cells, size, keep, found);
    }
#endif
    /* forward, then backward: the totals the segments before (after) each make */
    memset(fwd, 0, sizeof(SumBits) * (size_t)(nseg + 1));
    memset(bwd, 0, sizeof(SumBits) * (size_t)(nseg + 1));
    fwd[0].w[0] = 1;
    bwd[nseg].w[(total - base[size]) / 64] = 1ull << ((total - base[size]) % 64);
    for (sg = 0; sg < nseg; sg++) {
        for (wi = 0; wi < nw; wi++)
            for (bits = tset[sg].w[wi]; bits; bits &= bits - 1)
                sb_or_shifted(&fwd[sg + 1], &fwd[sg], 64L * wi + __builtin_ctzll(bits), nw);
    }
    for (sg = nseg - 1; sg >= 0; sg--)
        for (wi = 0; wi < nw; wi++)
            for (bits = tset[sg].w[wi]; bits; bits &= bits - 1)
                sb_or_shifted(&bwd[sg], &bwd[sg + 1], -(64L * wi + __builtin_ctzll(bits)), nw);
    /* a segment's totals that the others complete, then the digits of its placements that make them */
    for (sg = 0; sg < nseg; sg++) {
        int a = seg_at[sg], len = seg_at[sg + 1] - a;
        SumBits ok;
        memset(&ok, 0, sizeof ok);
        for (wi = 0; wi < nw; wi++)
            for (bits = tset[sg].w[wi]; bits; bits &= bits - 1) {
                t = 64L * wi + __builtin_ctzll(bits);
                if (sb_meets_shifted(&fwd[sg], t, &bwd[sg + 1], nw))
                    ok.w[wi] |= bits & (~bits + 1);
            }
        if (seg_unit[sg])
            (void)seg_unit_placements(s, cells + a, len, ok.w[0], keep + a);
        else
            seg_placements(s, cells + a, w + a, len, base[seg_at[sg + 1]] - base[a], NULL, &ok, keep + a);
    }
    return ev_sum_keep(x, s, k, cells, size, keep, found);
}
