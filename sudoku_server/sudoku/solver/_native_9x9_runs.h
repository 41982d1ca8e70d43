/* Renban runs in the 9x9 engine (e9): included by _native_9x9.h after its
 * relation pairs (_native_9x9_pairs.h); e9_propagate_ calls e9_runs once
 * the pairs find nothing more.
 *
 * A run (Geo.run_*, found by geo_runs in _native_pairs.h: a clique of k
 * cells, k <= RUN_MAX, every pair of which has the table "the digits differ,
 * by at most k - 1") holds k distinct consecutive digits: a renban line.
 * Its pairs alone (arc consistency, one pair at a time) let through digits
 * no run holds (on 1 2 3 . with k = 4, 6 is within 3 of each digit but 5
 * is then missing), and a renban set searched far more without the run
 * (worst 3 -> 419 ms, seventh session). Here each run is kept as the
 * general engine keeps it (ev_runs): a cell keeps the digits of the
 * one-to-one placements of some window of k consecutive digits. The
 * windows are bounded first in bitmasks: a window every cell has a
 * candidate in, whose digits each have a cell, and whose placements a
 * depth-first walk over the cells finds. Sound (only digits no solution
 * holds go), so the answers stay those of the general engine: the
 * row-major-first solution, counts and true candidates.
 */

/* The runs of x->geo on s (the cells' candidates read from e9's digit
 * masks): the digits no placement of a window holds leave the cells, and go
 * to x->dirty. 1, or 0 on a contradiction (a run with no placement). */
static int
e9_runs(Ctx *x, S9 *s)
{
    const Geo *g = x->geo;
    int r;
    for (r = 0; r < g->nruns; r++) {
        const uint16_t *cells = g->run_cells + g->run_start[r];
        int k = (int)(g->run_start[r + 1] - g->run_start[r]), w, i;
        uint32_t m[RUN_MAX], keep[RUN_MAX], all = 0, fixed = 0, open = 0;
        for (i = 0; i < k; i++) {
            m[i] = e9_cell_mask(s, cells[i]);
            all |= m[i];
            if (POP9[m[i]] == 1)
                fixed |= m[i];
            else
                open |= 1u << i;
        }
        if (!open)
            continue; /* every cell single: e9_pairs held its pairs, so the run holds */
        if (r < RUN9_CACHE) {
            for (i = 0; i < k && x->run9[r][i] == m[i]; i++)
                ;
            if (i == k)
                continue; /* as the run was where it last left every digit */
        }
        memset(keep, 0, sizeof keep);
        for (w = 0; w + k <= 9; w++) {
            uint32_t window = ((1u << k) - 1u) << w, left[RUN_MAX], used = 0;
            int depth = 0, dig[RUN_MAX];
            if ((all & window) != window || (fixed & ~window))
                continue; /* a digit of the window has no cell, or a single lies outside it */
            for (i = 0; i < k && (m[i] & window); i++)
                ;
            if (i < k)
                continue;
            left[0] = m[0] & window;
            while (depth >= 0) {
                if (!left[depth]) {
                    depth--;
                    if (depth >= 0)
                        used &= ~(1u << dig[depth]);
                    continue;
                }
                dig[depth] = CTZ(left[depth]);
                left[depth] &= left[depth] - 1;
                if (depth + 1 < k) {
                    used |= 1u << dig[depth];
                    depth++;
                    left[depth] = m[depth] & window & ~used;
                    continue;
                }
                for (i = 0; i < k; i++)
                    keep[i] |= 1u << dig[i];
            }
        }
        if (UNLIKELY(!keep[0]))
            return 0;
        for (i = 0; r < RUN9_CACHE && i < k; i++)
            x->run9[r][i] = (uint16_t)keep[i]; /* the kept digits hold the same placements */
        for (i = 0; i < k; i++) {
            uint32_t gone = m[i] & ~keep[i], bit = 1u << (cells[i] % 27);
            int b = cells[i] / 27;
            x->dirty |= gone;
            for (; gone; gone &= gone - 1)
                s->F[3 * CTZ(gone) + b] &= ~bit;
        }
    }
    return 1;
}

/* A contradiction after branching on cell c (e9_failed, with relation
 * pairs): its weight in e9_pairs_choose grows, as the general engine's
 * (eg_failed: dom/wdeg, after Boussemart, Hemery, Lecoutre and Sais,
 * "Boosting systematic search by weighting constraints", ECAI 2004). Run
 * by the renban set: 32,808 nodes over the 500 stored puzzles without it
 * (worst 1,454), the general engine's 15,533 (worst 276). */
static inline void
e9_pairs_failed(Ctx *x, int c)
{
    if (x->fails[c] < 60000)
        x->fails[c]++;
}
