/* The "between" constraint kind of the general engine (eg) of the native
 * solver core: along a line of distinct digits (cells that are peers of
 * each other), the digits strictly between the cell holding LOW and the
 * cell holding HIGH add up to TOTAL; the line holds LOW and HIGH once each
 * (sudoku_server/sudoku/constraints.py, Between).
 *
 * _native_kinds.h includes this file before geo_constraints, which calls
 * geo_between; ev_propagate calls ev_betweens, ev_verify ev_between_verify.
 * prepare() takes the kind as 32-bit records: count k, low, high, total, k
 * cells (solver/__init__.py builds them from the kind, never from a rule).
 *
 * Propagation, per line: every placement of LOW at a cell p and HIGH at a
 * cell q (p != q) that their candidates allow. The k cells strictly between
 * them take a set of k of the other digits summing to TOTAL: up to 16
 * digits the sets are listed per k at prepare (subsets of the other digits,
 * by popcount), and a set stays while every cell between may take one of
 * its digits, every cell outside one of the digits left out and, on a line
 * of n cells, every digit of the set has a cell between and every digit left
 * out a cell outside; above 16 digits, bounds (the smallest and largest
 * digits of the cells between). Each cell keeps the digits some surviving
 * placement and set give it. A line whose cells are as they were when it
 * last started (EvSeen.between) is skipped: that run removed nothing.
 */

/* What a line's cell adds to its branching weight (Geo.weight; a relation
 * pair adds 1 per end, a sum 2 per cell). */
#ifndef BETWEEN_WEIGHT
#define BETWEEN_WEIGHT 4
#endif

/* Digits above which a line's sets are not listed (bounds only). */
#define BETWEEN_LISTED_MAX 16

/* The lines of g from ex (records checked by read_kinds), with their
 * listed digit sets. 0 when out of memory. */
static int
geo_between(Geo *g, const Extra *ex)
{
    int n = g->n, k, i, at, cells_total = 0;
    const int32_t *r;
    if (ex->nbetween <= 0)
        return 1;
    for (k = 0, r = ex->between; k < ex->nbetween; k++, r += 4 + r[0])
        cells_total += r[0];
    g->nbetween = ex->nbetween;
    g->bw_start = PyMem_RawCalloc((size_t)ex->nbetween + 1, sizeof(uint32_t));
    g->bw_cells = PyMem_RawCalloc((size_t)cells_total + 1, sizeof(uint16_t));
    g->bw_low = PyMem_RawCalloc((size_t)ex->nbetween, sizeof(uint32_t));
    g->bw_high = PyMem_RawCalloc((size_t)ex->nbetween, sizeof(uint32_t));
    g->bw_total = PyMem_RawCalloc((size_t)ex->nbetween, sizeof(int32_t));
    g->bw_set_start = PyMem_RawCalloc((size_t)ex->nbetween * (MAXN + 1) + 1, sizeof(uint32_t));
    if (g->bw_start == NULL || g->bw_cells == NULL || g->bw_low == NULL || g->bw_high == NULL ||
        g->bw_total == NULL || g->bw_set_start == NULL)
        return 0;
    for (k = 0, at = 0, r = ex->between; k < ex->nbetween; k++, r += 4 + r[0]) {
        g->bw_start[k] = (uint32_t)at;
        g->bw_low[k] = 1u << (r[1] - 1);
        g->bw_high[k] = 1u << (r[2] - 1);
        g->bw_total[k] = r[3];
        for (i = 0; i < r[0]; i++)
            g->bw_cells[at + i] = (uint16_t)r[4 + i];
        at += r[0];
    }
    g->bw_start[ex->nbetween] = (uint32_t)at;
    if (n > BETWEEN_LISTED_MAX)
        return 1;
    /* the listed sets: two passes (count, then fill), per line and per
     * popcount (set_start[line * (MAXN + 1) + size], ascending sizes); the
     * subsets of the other digits by submask enumeration, sum first */
    {
        uint32_t nsets = 0;
        int pass, size;
        for (pass = 0; pass < 2; pass++) {
            nsets = 0;
            for (k = 0; k < g->nbetween; k++) {
                uint32_t mid = g->full & ~(g->bw_low[k] | g->bw_high[k]), sub;
                uint32_t count_of[MAXN + 1];
                int count = (int)(g->bw_start[k + 1] - g->bw_start[k]);
                memset(count_of, 0, sizeof count_of);
                /* per popcount, how many sets sum to the total (pass 0), then fill in place */
                for (sub = mid;; sub = (sub - 1) & mid) {
                    uint32_t b;
                    int sum = 0, bits = 0;
                    for (b = sub; b; b &= b - 1, bits++)
                        sum += CTZ(b) + 1;
                    if (sum == g->bw_total[k] && bits <= count - 2) {
                        if (pass)
                            g->bw_sets[g->bw_set_start[k * (MAXN + 1) + bits] + count_of[bits]] = sub;
                        count_of[bits]++;
                    }
                    if (!sub)
                        break;
                }
                if (!pass) {
                    for (size = 0; size <= MAXN; size++) {
                        g->bw_set_start[k * (MAXN + 1) + size] = nsets;
                        nsets += size < MAXN ? count_of[size] : 0;
                    }
                }
            }
            if (!pass) {
                g->bw_set_start[g->nbetween * (MAXN + 1)] = nsets;
                g->bw_sets = PyMem_RawCalloc((size_t)nsets + 1, sizeof(uint32_t));
                if (g->bw_sets == NULL)
                    return 0;
            }
        }
    }
    return 1;
}

/* One line, one round: each cell keeps the digits some placement of low
 * and high and some set between give it (header). The cells between a and
 * b (a < b) are the same whichever end holds low, so each pair of ends is
 * looked at once for both orders. 0 on a contradiction. */
static int
ev_between(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->bw_cells + g->bw_start[k];
    int count = (int)(g->bw_start[k + 1] - g->bw_start[k]), a, b, i, whole = count == g->n;
    uint32_t lo = g->bw_low[k], hi = g->bw_high[k], mid = g->full & ~(lo | hi);
    uint32_t m[MAXN], allowed[MAXN], pre[MAXN + 1], suf[MAXN + 1], lo_at = 0, hi_at = 0;
    const uint32_t *starts = g->bw_set_start + k * (MAXN + 1);
    int32_t total = g->bw_total[k];
    int listed = g->bw_sets != NULL;
    pre[0] = suf[count] = 0;
    for (i = 0; i < count; i++) {
        m[i] = s->c[cells[i]];
        allowed[i] = 0;
        pre[i + 1] = pre[i] | m[i];
        lo_at |= (uint32_t)((m[i] & lo) != 0) << i;
        hi_at |= (uint32_t)((m[i] & hi) != 0) << i;
    }
    for (i = count - 1; i >= 0; i--)
        suf[i] = suf[i + 1] | m[i];
    if (!lo_at || !hi_at)
        return 0;
    for (a = 0; a < count - 1; a++) {
        uint32_t in_union = 0;
        if (!((lo_at | hi_at) >> a & 1))
            continue;
        for (b = a + 1; b < count; in_union |= m[b], b++) {
            int low_first = (lo_at >> a & 1) && (hi_at >> b & 1), high_first = (hi_at >> a & 1) && (lo_at >> b & 1);
            int size = b - a - 1, fit = 0;
            uint32_t out_union, acc_in = 0, acc_out = 0;
            if (!low_first && !high_first)
                continue;
            out_union = pre[a] | suf[b + 1];
            if (listed) {
                const uint32_t *set = g->bw_sets + starts[size], *end = g->bw_sets + starts[size + 1];
                for (; set < end; set++) {
                    uint32_t ins = *set, outs = mid & ~ins;
                    if (whole && ((ins & ~in_union) || (outs & ~out_union)))
                        continue;
                    for (i = a + 1; i < b && (m[i] & ins); i++)
                        ;
                    if (i < b)
                        continue;
                    for (i = 0; i < a && (m[i] & outs); i++)
                        ;
                    if (i < a)
                        continue;
                    for (i = b + 1; i < count && (m[i] & outs); i++)
                        ;
                    if (i < count)
                        continue;
                    acc_in |= ins;
                    acc_out |= outs;
                    fit = 1;
                }
            } else {
                long low_sum = 0, high_sum = 0;
                for (i = a + 1; i < b; i++) {
                    uint32_t v = m[i] & mid;
                    if (!v)
                        break;
                    low_sum += CTZ(v) + 1;
                    high_sum += ev_top(v) + 1;
                }
                if (i < b || low_sum > total || high_sum < total)
                    continue;
                for (i = 0; i < count; i++)
                    if ((i < a || i > b) && !(m[i] & mid))
                        break;
                if (i < count)
                    continue;
                acc_in = acc_out = mid;
                fit = 1;
            }
            if (!fit)
                continue;
            for (i = 0; i < a; i++)
                allowed[i] |= acc_out;
            for (i = a + 1; i < b; i++)
                allowed[i] |= acc_in;
            for (i = b + 1; i < count; i++)
                allowed[i] |= acc_out;
            allowed[a] |= (low_first ? lo : 0) | (high_first ? hi : 0);
            allowed[b] |= (low_first ? hi : 0) | (high_first ? lo : 0);
        }
    }
    for (i = 0; i < count; i++) {
        uint32_t drop = m[i] & ~allowed[i];
        if (drop && !eg_remove(x, s, cells[i], drop, found))
            return 0;
    }
    return 1;
}

/* Every line whose cells changed since it last started (seen: per line
 * cell, its candidates then; *valid 0 asks for every line). 0 on a
 * contradiction. */
static int
ev_betweens(Ctx *x, SG *s, int *found, uint32_t *seen, int *valid)
{
    const Geo *g = x->geo;
    int k, cache = g->bw_start[g->nbetween] <= 2 * MAXCELLS;
    for (k = 0; k < g->nbetween; k++) {
        uint32_t a, start = g->bw_start[k], stop = g->bw_start[k + 1];
        if (cache && *valid) {
            for (a = start; a < stop && s->c[g->bw_cells[a]] == seen[a]; a++)
                ;
            if (a == stop)
                continue;
        }
        /* the candidates it starts from: a line that prunes runs again */
        if (cache)
            for (a = start; a < stop; a++)
                seen[a] = s->c[g->bw_cells[a]];
        if (!ev_between(x, s, k, found))
            return 0;
    }
    *valid = cache;
    return 1;
}

/* After a branch's assign: the lines were at their fixpoint in base (the
 * propagated state the branch started from), so each starts as seen there
 * (only the lines the assign changes run again). */
static void
ev_between_seen_base(const Geo *g, const uint32_t *base, uint32_t *seen, int *valid)
{
    uint32_t a;
    if (!g->nbetween || g->bw_start[g->nbetween] > 2 * MAXCELLS)
        return;
    for (a = 0; a < g->bw_start[g->nbetween]; a++)
        seen[a] = base[g->bw_cells[a]];
    *valid = 1;
}

/* Does a full grid of digits keep every line (low and high once, the sum
 * between them)? */
static int
ev_between_verify(const Geo *g, const int *digits)
{
    int k;
    for (k = 0; k < g->nbetween; k++) {
        const uint16_t *cells = g->bw_cells + g->bw_start[k];
        int count = (int)(g->bw_start[k + 1] - g->bw_start[k]), i, p = -1, q = -1, a, b;
        long sum = 0;
        for (i = 0; i < count; i++) {
            uint32_t bit = 1u << (digits[cells[i]] - 1);
            if (bit == g->bw_low[k]) {
                if (p >= 0)
                    return 0;
                p = i;
            } else if (bit == g->bw_high[k]) {
                if (q >= 0)
                    return 0;
                q = i;
            }
        }
        if (p < 0 || q < 0)
            return 0;
        a = p < q ? p : q;
        b = p < q ? q : p;
        for (i = a + 1; i < b; i++)
            sum += digits[cells[i]];
        if (sum != g->bw_total[k])
            return 0;
    }
    return 1;
}
