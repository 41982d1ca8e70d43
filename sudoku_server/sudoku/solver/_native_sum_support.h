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
 * returns at once. */

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

/* Sum k (SUM_BOUNDS) to domain consistency, peers aside. 0 on a contradiction. */
static int
ev_sum_support(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    const int32_t *w = g->sum_weight + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), i, nw;
    long total = g->sum_total[k], span = 0, n = g->n, base[SUM_SUPPORT_CELLS + 1];
    SumBits fwd[SUM_SUPPORT_CELLS + 1], bwd[SUM_SUPPORT_CELLS + 1];

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
    nw = (int)(span / 64) + 1;
    memset(fwd, 0, sizeof(SumBits) * (size_t)(size + 1));
    memset(bwd, 0, sizeof(SumBits) * (size_t)(size + 1));
    fwd[0].w[0] = 1;
    for (i = 0; i < size; i++) {
        uint32_t m = s->c[cells[i]];
        long least = base[i + 1] - base[i];
        for (; m; m &= m - 1)
            sb_or_shifted(&fwd[i + 1], &fwd[i], (long)w[i] * (CTZ(m) + 1) - least, nw);
    }
    bwd[size].w[(total - base[size]) / 64] = 1ull << ((total - base[size]) % 64);
    for (i = size - 1; i >= 0; i--) {
        uint32_t m = s->c[cells[i]];
        long least = base[i + 1] - base[i];
        for (; m; m &= m - 1)
            sb_or_shifted(&bwd[i], &bwd[i + 1], -((long)w[i] * (CTZ(m) + 1) - least), nw);
    }
    for (i = 0; i < size; i++) {
        uint32_t m = s->c[cells[i]], drop = 0, r;
        long least = base[i + 1] - base[i];
        for (r = m; r; r &= r - 1)
            if (!sb_meets_shifted(&fwd[i], (long)w[i] * (CTZ(r) + 1) - least, &bwd[i + 1], nw))
                drop |= r & (~r + 1);
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
