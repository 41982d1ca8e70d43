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
 * segments can make are bitsets over the range of the sum (value - least),
 * forward and backward by shifts, on one 64-bit word when the range fits
 * (_native_9x9_sum_bits.h, e9_support64) or, weights 1, when the total is
 * less than 64 above the open cells' least, else on an unsigned __int128.
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
 * sum was looked at with its cells single (or skipped as a pass that held
 * it left them: e9_sum), so every sum holds. A placed cell (e9's s->U) is
 * its digit and its digit has left its peers, so leaving it out of a pass
 * changes nothing the pass keeps; an open cell may have one candidate left
 * (the passes of e9_sums_of and e9_sums_placed run before e9's naked
 * singles are placed), and the pass takes it as any open cell.
 *
 * A little killer diagonal (weights 1) with three or more open cells has
 * a support of its own (_native_9x9_sum_unit.h, e9_support_unit): the same
 * digits kept, with sumsets unrolled over their positions instead of loops
 * over set bits, and the last segment's sets by bit reversal (eleventh
 * session: 0.84x little killer CPU with the cheaper read in e9_sum).
 *
 * Order (tenth session, same fixpoint, same nodes, fewer rounds): a
 * branch's cell's own sums run right after the placement (e9_sums_of),
 * those of the cells e9's rules place before the naked singles
 * (e9_sums_placed), the rest once e9's rules find nothing more (e9_sums).
 * Measured on the 500 stored little killer puzzles: 3.24M passes became
 * 2.79M; tried and dropped: every changed sum right after the placement
 * (15% more CPU), or after each digit e9's rules look at (8% more), or
 * after the naked singles (2% more), the sums with few open cells first in
 * e9_sums (no change).
 */

/* As _native_sum_support.h (included later): a segment starts at this cell. */
#define SEG_START 1

/* Totals within 128 bits where the compiler has 128-bit integers, else 64. */
#ifdef __SIZEOF_INT128__
#define E9_SUM_BITS 128
#else
#define E9_SUM_BITS 64
#endif

/* The least weighted value of a cell of weight w: w * 1 or w * 9. */
static inline long
e9_least(long w)
{
    return w > 0 ? w : 9 * w;
}

/* Would every sum of g go to e9 (mask9): not distinct (ex's records), its
 * range within E9_SUM_BITS bits, at most 16 cells, and no polar pair (whose
 * probing keeps no sums base)? */
static int
geo_sums9_fit(const Geo *g, const Extra *ex)
{
    const int32_t *r = ex->sums;
    int k;
    if (g->polar != NULL)
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
        if (span >= E9_SUM_BITS)
            return 0;
    }
    return 1;
}

/* Geo.sum9 (per sum its cells per band, then its range's width: 64 or 128)
 * and Geo.sums9_cells for a mask9 geometry with sums: 1, or 0 when out of
 * memory. */
static int
geo_sums9(Geo *g)
{
    int k;
    g->sum9 = PyMem_RawCalloc(4 * (size_t)g->nsums, sizeof(uint32_t));
    if (g->sum9 == NULL)
        return 0;
    for (k = 0; k < g->nsums; k++) {
        uint32_t a;
        long span = 0;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++) {
            int c = g->sum_cells[a];
            long w = g->sum_weight[a];
            g->sum9[4 * k + c / 27] |= 1u << (c % 27);
            g->sums9_cells[c / 27] |= 1u << (c % 27);
            span += 8 * (w > 0 ? w : -w);
        }
        g->sum9[4 * k + 3] = span < 64 ? 64 : 128;
    }
    return 1;
}

#define SUMT uint64_t
#define SB(name) e9_##name##64
#include "_native_9x9_sum_bits.h"
#undef SUMT
#undef SB
#if E9_SUM_BITS > 64
#define SUMT unsigned __int128
#define SB(name) e9_##name##128
#include "_native_9x9_sum_bits.h"
#undef SUMT
#undef SB
#endif

#include "_native_9x9_sum_unit.h"

static inline uint32_t e9_cell_mask(const S9 *s, int c);

/* The candidates of cell c as e9_cell_mask, for the sums: with SSE2 (every
 * x86-64) the band's masks of digits 1-4 and of 5-8 go in four 32-bit lanes
 * each, one shift puts the cell's bit at each lane's top and one movemask
 * reads the four. A pass reads every cell of its sum: about 3% less CPU on
 * little killer than e9_cell_mask's nine shifts (tenth session); put in
 * e9_cell_mask itself, which the pairs read a cell at a time, it measured
 * whispers and renban about 15% slower (one A/B run), so it stays here. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline uint32_t
e9_sum_mask(const S9 *s, int c)
{
    const uint32_t *F = s->F + (unsigned)c / 27;
    int bit = (int)((unsigned)c % 27);
    __m128i sh = _mm_cvtsi32_si128(31 - bit);
    __m128i lo = _mm_setr_epi32((int)F[0], (int)F[3], (int)F[6], (int)F[9]);
    __m128i hi = _mm_setr_epi32((int)F[12], (int)F[15], (int)F[18], (int)F[21]);
    uint32_t a = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(lo, sh)));
    uint32_t b = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(hi, sh)));
    return a | b << 4 | (F[24] >> bit & 1) << 8;
}
#else
#define e9_sum_mask e9_cell_mask
#endif

/* The digits d of m (bit d - 1) whose partner total + 2 - d (total above
 * the two cells' least, 2) is in p: m & the reverse of p (e9_reverse64,
 * _native_9x9_sum_unit.h), shifted. */
static inline uint32_t
e9_partners(uint32_t m, uint32_t p, long total)
{
    uint64_t rev = e9_reverse64(p) >> 55; /* bit j of p at 8 - j */
    return m & (uint32_t)(total >= 8 ? rev << (total - 8) : rev >> (8 - total));
}

/* The support of a sum of weights 1 with one or two open cells (masks m,
 * nseg 1: the two are peers, their digits differ), as e9_support64 finds
 * it without its bitsets: one cell keeps the digit of the total; two keep
 * the digits whose partner the other has. 0 when nothing is left. */
static inline int
e9_support_small(const uint32_t *m, int n, int nseg, long total, uint32_t *keep)
{
    if (n == 1) {
        keep[0] = total < 9 ? m[0] & 1u << total : 0;
        return keep[0] != 0;
    }
    if (total > 16)
        return 0;
    keep[0] = e9_partners(m[0], m[1], total);
    keep[1] = e9_partners(m[1], m[0], total);
    if (nseg == 1 && !(total & 1)) { /* d + d: not for two peers */
        keep[0] &= ~(1u << (total / 2));
        keep[1] &= ~(1u << (total / 2));
    }
    return keep[0] != 0;
}

/* Sum k to domain consistency on s (segments seen). Digits removed go to
 * x->dirty. 1, or 0 on a contradiction.
 *
 * Cheaper forms of the same pass: a sum whose cells' candidates are those
 * its last pass left (x->sum_cache[k], a fixpoint: the pass is idempotent)
 * is skipped; placed cells (e9's s->U) leave the pass, their values taken
 * off the total (a segment keeps its open cells, still peers); and a sum of
 * weights 1 whose total is less than 64 above its open cells' least (every
 * little killer diagonal that some digits make) goes on one 64-bit word
 * whatever its range: its totals need only reach the total, and the bits
 * shifted out are above it; with three or more open cells it goes to
 * e9_support_unit (_native_9x9_sum_unit.h: no loop over set bits).
 *
 * The cells' candidates are read and compared with the cache in a loop of
 * their own, before the open cells and segments are gathered (eleventh
 * session): 26% of the calls on little killer end there, as their last
 * pass left them, and no longer pay for the gathering; the cache is
 * written once, after the pass (0.97x little killer CPU). The read loop
 * also notes the open cells (e9's s->U) and the segments' first cells as
 * bits, and the gathering walks the placed cells' bits, then the open
 * cells' (a segment starts at an open cell when a first cell lies since
 * the last open one), with no branch per cell on placed or open: 0.976x
 * little killer, arrow 0.965-1.00x. Tried and dropped: one loop over every
 * cell without branches (the open cell's slot written always, counted by
 * its U bit): 1.02x. */
static int
e9_sum(Ctx *x, S9 *s, int k)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    const int32_t *w = g->sum_weight + g->sum_start[k];
    const uint8_t *seg = g->sum_seg + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), i, n = 0, nseg = 0, at[17], ok, unit = 1;
    int32_t ow[16];
    uint32_t m[16], om[16], keep[16];
    uint8_t oi[16];
    long least = 0, total = g->sum_total[k], wide = (long)g->sum9[4 * k + 3];
    int cache = k < SUM_CACHE, prev = -1;
    uint32_t diff = !cache || !x->sum_cached[k], open = 0, starts = 0, b;
    for (i = 0; i < size; i++) { /* the candidates first: a sum as its last pass left it stops here */
        unsigned c = cells[i];
        m[i] = e9_sum_mask(s, (int)c);
        if (UNLIKELY(!m[i]))
            return 0;
        if (cache)
            diff |= m[i] ^ x->sum_cache[k][i];
        open |= (s->U[c / 27] >> (c % 27) & 1) << i;
        starts |= (uint32_t)(seg[i] & SEG_START) << i;
    }
    if (!diff)
        return 1; /* as its last pass left it */
    for (b = ~open & ((2u << (size - 1)) - 1); b; b &= b - 1) { /* placed: their values leave the total */
        i = CTZ(b);
        total -= (long)w[i] * (CTZ(m[i]) + 1);
    }
    for (b = open; b; b &= b - 1) {
        i = CTZ(b);
        /* the first open cell of its segment: a segment starts after the last open cell */
        at[nseg] = n;
        nseg += (starts & ((2u << i) - (1u << (prev + 1)))) != 0;
        prev = i;
        oi[n] = (uint8_t)i;
        om[n] = m[i];
        ow[n] = w[i];
        unit &= w[i] == 1;
        least += e9_least(w[i]);
        keep[n] = 0;
        n++;
    }
    if (n == 0)
        return total == 0;
    at[nseg] = n;
    total -= least;
    if (total < 0)
        return 0;
    if (unit && total < 64)
        wide = 64;
    if (total >= wide)
        return 0;
    if (unit && n <= 2)
        ok = e9_support_small(om, n, nseg, total, keep);
    else if (unit && wide == 64) /* total < 64: else the 128-bit words below */
        ok = e9_support_unit(om, at, nseg, total, keep);
    else
#if E9_SUM_BITS > 64
    if (wide > 64)
        ok = e9_support128(om, ow, at, nseg, total, keep);
    else
#endif
        ok = e9_support64(om, ow, at, nseg, total, keep);
    if (!ok)
        return 0;
    for (i = 0; i < n; i++) {
        unsigned c = cells[oi[i]];
        uint32_t kept = keep[i], gone = m[oi[i]] & ~kept, bit = 1u << (c % 27);
        unsigned band = c / 27;
        if (!gone)
            continue;
        m[oi[i]] = kept;
        x->dirty |= gone;
        for (; gone; gone &= gone - 1)
            s->F[3 * CTZ(gone) + band] &= ~bit;
    }
    if (cache) /* placed cells keep theirs */
        memcpy(x->sum_cache[k], m, (size_t)size * sizeof m[0]);
    if (cache)
        x->sum_cached[k] = 1;
    return 1;
}

/* Every sum with a cell changed since x->sbase9 (all when !x->svalid9) to
 * domain consistency; s becomes the base. 1, or 0 on a contradiction. */
static int
e9_sums(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    uint32_t ch[3], start[27];
    int i, k;
    memcpy(start, s->F, sizeof start);
    if (x->svalid9) {
        const uint32_t *B = x->sbase9;
        ch[0] = ch[1] = ch[2] = 0;
        for (i = 0; i < 27; i += 3) {
            ch[0] |= start[i] ^ B[i];
            ch[1] |= start[i + 1] ^ B[i + 1];
            ch[2] |= start[i + 2] ^ B[i + 2];
        }
        ch[0] &= g->sums9_cells[0];
        ch[1] &= g->sums9_cells[1];
        ch[2] &= g->sums9_cells[2];
        if (!(ch[0] | ch[1] | ch[2]))
            return 1;
    } else {
        ch[0] = ch[1] = ch[2] = BAND;
    }
    for (k = 0; k < g->nsums; k++) {
        const uint32_t *c = g->sum9 + 4 * k;
        if (((c[0] & ch[0]) | (c[1] & ch[1]) | (c[2] & ch[2])) && !e9_sum(x, s, k))
            return 0;
    }
    memcpy(x->sbase9, start, sizeof start);
    x->svalid9 = 1;
    return 1;
}

/* The sums of a cell a branch just placed, each to domain consistency
 * before e9's rules run (e9_apply). On a little killer diagonal it never
 * fails there (the parent's pass kept the digit with some placement of the
 * other cells, and the digit leaves only the cell's peers, which on a
 * diagonal are its segment's cells: that placement already differs there;
 * an arrow that bends back to a peer may fail), but it narrows the other
 * cells (in 63% of the branches on the stored little killer puzzles), so
 * e9's rules start from that and the propagation needs fewer rounds of
 * rules and sums. The fixpoint is the same, so the nodes are (563.5 on
 * average either way, about 7% less CPU); the next e9_sums looks at these
 * sums again only if e9's rules change their cells (else they are as their
 * pass left them: skipped). 1, or 0 on a contradiction. */
static int
e9_sums_of(Ctx *x, S9 *s, int cell)
{
    const Geo *g = x->geo;
    int k;
    for (k = 0; k < g->nsums; k++)
        if ((g->sum9[4 * k + cell / 27] >> (cell % 27) & 1) && !e9_sum(x, s, k))
            return 0;
    return 1;
}

/* The same during a propagation (e9_propagate_): the sums of the cells
 * e9's rules placed since `open` (the open cells per band when it last
 * looked, updated), after the rules' own digits and before the naked
 * singles are looked for. About 2% less CPU on little killer, the same
 * nodes. 1, or 0 on a contradiction. */
static int
e9_sums_placed(Ctx *x, S9 *s, uint32_t *open)
{
    const Geo *g = x->geo;
    uint32_t pl[3];
    int b, k;
    for (b = 0; b < 3; b++) {
        pl[b] = open[b] & ~s->U[b] & g->sums9_cells[b];
        open[b] = s->U[b];
    }
    if (!(pl[0] | pl[1] | pl[2]))
        return 1;
    for (k = 0; k < g->nsums; k++) {
        const uint32_t *c = g->sum9 + 4 * k;
        if (((c[0] & pl[0]) | (c[1] & pl[1]) | (c[2] & pl[2])) && !e9_sum(x, s, k))
            return 0;
    }
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

/* A sum's weight in the branch choice: E9_SUM_W shared among its open cells. */
#ifndef E9_SUM_W
#define E9_SUM_W 256
#endif

static void e9_counts(const S9 *s, uint32_t *twos_out, uint32_t *threes_out);
static int e9_cell_branch(const S9 *s, int cell, Branch *br);

/* The branch with sums (and maybe relation pairs): the two-candidate cell
 * of a sum or pair with the most open cells in its units plus E9_PAIR_W per
 * pair and per half sum (Geo.weight), as e9_pairs_choose; else the open
 * cell with the fewest candidates per weight, the weight 64, plus 32 per
 * pair and per half sum, plus E9_SUM_W / its open cells per sum of the cell
 * (a sum with few open cells left binds them most). Measured on the stored
 * little killer puzzles (200, solve): 586 nodes on average with
 * e9_pairs_choose's weights, 513 with these; e9's configurations first
 * searched 3,206. Tried on all 500 (ninth session) and dropped: the sums'
 * weights in the two-candidate cell's choice too, E9_SUM_W 1024 (563.5 ->
 * 542.8 nodes on average, but the worst puzzle 5,386 -> 6,966 nodes, 17.7
 * -> 21.2 ms: past issue 29's 20 ms); contradiction counts of the failing
 * sum's cells in the weights (dom/wdeg: 537 -> 581 nodes on 300); the last
 * conflicting cell branched on first (563.5 -> 799). 0 when solved. */
static int
e9_sums_choose(Ctx *x, const S9 *s, Branch *br)
{
    const Geo *g = x->geo;
    uint32_t twos[3], threes[3], pairs[3], wt[81];
    uint8_t count[81];
    int b, c, k, at = -1;
    long bn = 0, bd = 1;
    e9_counts(s, twos, threes);
    for (b = 0; b < 3; b++)
        pairs[b] = s->U[b] & twos[b] & ~threes[b] & (g->sums9_cells[b] | g->pairs9_cells[b]);
    if (pairs[0] | pairs[1] | pairs[2])
        return e9_cell_branch(s, e9_best_pair_cell(x, s, pairs, 0), br);
    e9_candidate_counts(s, count);
    for (c = 0; c < 81; c++)
        wt[c] = 64 + 32 * (uint32_t)g->weight[c];
    for (k = 0; k < g->nsums; k++) {
        const uint32_t *cs = g->sum9 + 4 * k;
        int open = popcount32(cs[0] & s->U[0]) + popcount32(cs[1] & s->U[1]) + popcount32(cs[2] & s->U[2]);
        uint32_t a;
        if (!open)
            continue;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++)
            wt[g->sum_cells[a]] += (uint32_t)(E9_SUM_W / open);
    }
    for (c = 0; c < 81; c++) {
        long cn = count[c], cd = wt[c];
        if (!cn)
            continue;
        if (at < 0 || cn * bd < bn * cd) {
            at = c;
            bn = cn;
            bd = cd;
        }
    }
    if (at < 0)
        return 0;
    return e9_cell_branch(s, at, br);
}

