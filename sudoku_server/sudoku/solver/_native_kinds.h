/* The constraint kinds of the general engine (eg) of the native solver core.
 *
 * _native.c includes this file through _native_general.h, after the eg
 * helpers (SG, eg_single, eg_remove) and before eg_propagate, which calls
 * ev_propagate once the units find nothing more. The kinds are those of
 * sudoku_server/sudoku/constraints.py; prepare() takes each as plain arrays
 * (solver/__init__.py builds them from the kinds, never from a rule):
 *
 *   all-different  beyond the units: pairs of cells that differ, joined to
 *                  the peer lists by geo_build, so the peer eliminations of
 *                  eg_propagate see them; nothing here.
 *   relation       pairs of cells (a, b) with a table: the digits b may hold
 *                  when a holds d, and (computed here) the converse. Each
 *                  round brings every pair to arc consistency (a digit of a
 *                  stays only if some candidate of b allows it, and the
 *                  other way round) from a queue of the cells changed since
 *                  their pairs last pruned (ev_relations; after a branch,
 *                  the cells its assign changed). A pair whose cells are
 *                  also peers uses its table without the equal digits.
 *   sum            cells, weights and a total, with or without distinct
 *                  digits. A distinct sum of weights 1 (up to 16x16 and
 *                  COMBO_CAP sets) lists its digit sets once: a set stays
 *                  possible while it holds every placed digit, every digit
 *                  it adds has a free cell that may take it, and every free
 *                  cell may take one of them; the free cells keep the
 *                  digits of the possible sets, a digit in all of them
 *                  leaves the rest of a unit the sum lies in and, with one
 *                  place left in the sum, goes there. Any other sum uses
 *                  bounds: each cell keeps the digits whose weighted value
 *                  the other cells' smallest and largest values can make up
 *                  to the total (for a distinct sum of weights 1, the
 *                  smallest and largest distinct digits left).
 *   candidates     the starting candidates of each cell (rung).
 *
 * And for any of them, per unit and digit with two to four places left
 * (grids of up to 128 cells): a cell that would take the digit from every
 * place, as a peer or through a relation, loses the digits that do so (the
 * pointing of locked candidates through any constraint).
 *
 * Every kind is checked in full once the cells are placed (ev_verify), so
 * the search drivers' answers stay exact (the row-major-first solution,
 * counts).
 */

/* The bits set in w, without a call into libgcc (the extension is built
 * without -mpopcnt, where __builtin_popcountll is a function call). */
static inline int
ev_pop64(uint64_t w)
{
    w = w - ((w >> 1) & 0x5555555555555555ull);
    w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
    w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((w * 0x0101010101010101ull) >> 56);
}

/* Digit sets listed per sum at most (more: bounds only). */
#define COMBO_CAP 4096

/* How a sum is propagated (Geo.sum_combos). */
enum { SUM_BOUNDS = 0, SUM_LISTED = 1, SUM_DISTINCT_BOUNDS = 2 };

/* Is p a peer of c (peer lists ascending)? On the classic 9x9 peers
 * (Geo.peers9), by row, column and box: the search of the peer list was a
 * quarter of a kropki line's prepare (eleventh session). */
static int
geo_is_peer(const Geo *g, int c, int p)
{
    uint32_t lo, hi;
    if (g->peers9)
        return c != p && (c / 9 == p / 9 || c % 9 == p % 9 || (c / 27 == p / 27 && c % 9 / 3 == p % 9 / 3));
    lo = g->peer_start[c];
    hi = g->peer_start[c + 1];
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (g->peer[mid] == p)
            return 1;
        if (g->peer[mid] < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The relation tables and pairs of g from ex. 0 when out of memory. */
#include "_native_pairs.h"

static int
geo_relations(Geo *g, const Extra *ex)
{
    int n = g->n, ncells = g->ncells, t, d, e, i;
    size_t width = 2 * (size_t)n;
    if (ex->npairs <= 0)
        return 1;
    g->npairs = ex->npairs;
    g->ntables = ex->ntables;
    /* table t at t * width; its copy without equal digits at (ntables + t) * width */
    g->tab = PyMem_RawCalloc(2 * (size_t)ex->ntables * width + 1, sizeof(uint32_t));
    g->pair_a = PyMem_RawCalloc((size_t)ex->npairs, sizeof(uint16_t));
    g->pair_b = PyMem_RawCalloc((size_t)ex->npairs, sizeof(uint16_t));
    g->pair_tab = PyMem_RawCalloc((size_t)ex->npairs, sizeof(uint32_t));
    g->adj_start = PyMem_RawCalloc((size_t)ncells + 1, sizeof(uint32_t));
    g->adj = PyMem_RawCalloc(2 * (size_t)ex->npairs, sizeof(uint32_t));
    if (g->tab == NULL || g->pair_a == NULL || g->pair_b == NULL || g->pair_tab == NULL || g->adj_start == NULL ||
        g->adj == NULL)
        return 0;
    for (t = 0; t < ex->ntables; t++) {
        uint32_t *plain = g->tab + (size_t)t * width, *unequal = g->tab + (size_t)(ex->ntables + t) * width;
        for (d = 0; d < n; d++) {
            plain[d] = ex->tables[t * n + d] & g->full;
            for (e = 0; e < n; e++)
                if (plain[d] >> e & 1)
                    plain[n + e] |= 1u << d;
        }
        for (d = 0; d < n; d++) {
            unequal[d] = plain[d] & ~(1u << d);
            unequal[n + d] = plain[n + d] & ~(1u << d);
        }
    }
    for (i = 0; i < ex->npairs; i++) {
        int a = ex->pairs[2 * i], b = ex->pairs[2 * i + 1];
        g->pair_a[i] = (uint16_t)a;
        g->pair_b[i] = (uint16_t)b;
        t = ex->pair_table[i] + (geo_is_peer(g, a, b) ? ex->ntables : 0);
        g->pair_tab[i] = (uint32_t)((size_t)t * width);
        g->adj_start[a + 1]++;
        g->adj_start[b + 1]++;
    }
    for (i = 0; i < ncells; i++)
        g->adj_start[i + 1] += g->adj_start[i];
    {
        uint32_t at[MAXCELLS + 1];
        memcpy(at, g->adj_start, sizeof(uint32_t) * (size_t)(ncells + 1));
        for (i = 0; i < ex->npairs; i++) {
            g->adj[at[g->pair_a[i]]++] = (uint32_t)(2 * i);
            g->adj[at[g->pair_b[i]]++] = (uint32_t)(2 * i + 1);
        }
    }
    return geo_polar(g, ex) && geo_pair_keep(g) && geo_runs(g, ex);
}

/* The sums of g from ex (records checked by read_kinds). 0 when out of memory. */
static int
geo_sums(Geo *g, const Extra *ex)
{
    int n = g->n, k, at, i, cells_total = 0;
    const int32_t *r;
    uint32_t ncombo = 0;
    if (ex->nsums <= 0)
        return 1;
    for (k = 0, r = ex->sums; k < ex->nsums; k++, r += 3 + 2 * r[0])
        cells_total += r[0];
    g->nsums = ex->nsums;
    g->sum_start = PyMem_RawCalloc((size_t)ex->nsums + 1, sizeof(uint32_t));
    g->sum_cells = PyMem_RawCalloc((size_t)cells_total + 1, sizeof(uint16_t));
    g->sum_weight = PyMem_RawCalloc((size_t)cells_total + 1, sizeof(int32_t));
    g->sum_total = PyMem_RawCalloc((size_t)ex->nsums + 1, sizeof(int32_t));
    g->sum_combos = PyMem_RawCalloc((size_t)ex->nsums + 1, 1);
    g->combo_start = PyMem_RawCalloc((size_t)ex->nsums + 1, sizeof(uint32_t));
    g->cu_sum_start = PyMem_RawCalloc((size_t)ex->nsums + 1, sizeof(uint32_t));
    g->cu_sum = PyMem_RawCalloc((size_t)ex->nsums * (size_t)g->nunits + 1, sizeof(uint16_t));
    if (g->sum_start == NULL || g->sum_cells == NULL || g->sum_weight == NULL || g->sum_total == NULL ||
        g->sum_combos == NULL || g->combo_start == NULL || g->cu_sum_start == NULL || g->cu_sum == NULL)
        return 0;
    for (k = 0, at = 0, r = ex->sums; k < ex->nsums; k++, r += 3 + 2 * r[0]) {
        int count = r[0], unit_weights = 1;
        g->sum_start[k] = (uint32_t)at;
        g->sum_total[k] = r[1];
        for (i = 0; i < count; i++) {
            g->sum_cells[at + i] = (uint16_t)r[3 + i];
            g->sum_weight[at + i] = r[3 + count + i];
            unit_weights &= r[3 + count + i] == 1;
        }
        at += count;
        g->sum_combos[k] = r[2] && unit_weights ? (n <= 16 ? SUM_LISTED : SUM_DISTINCT_BOUNDS) : SUM_BOUNDS;
    }
    g->sum_start[ex->nsums] = (uint32_t)at;
    /* the units each listed sum lies in */
    for (k = 0, at = 0; k < g->nsums; k++) {
        int u, size = (int)(g->sum_start[k + 1] - g->sum_start[k]);
        g->cu_sum_start[k] = (uint32_t)at;
        if (g->sum_combos[k] != SUM_LISTED)
            continue;
        /* the units of its first cell (ascending) that hold every other */
        for (i = (int)g->cu_start[g->sum_cells[g->sum_start[k]]]; i < (int)g->cu_start[g->sum_cells[g->sum_start[k]] + 1];
             i++) {
            int j, inside = 1;
            u = g->cu[i];
            for (j = 1; j < size && inside; j++) {
                int c = g->sum_cells[g->sum_start[k] + j];
                uint32_t a;
                inside = 0;
                for (a = g->cu_start[c]; a < g->cu_start[c + 1]; a++)
                    inside |= g->cu[a] == u;
            }
            if (inside)
                g->cu_sum[at++] = (uint16_t)u;
        }
    }
    g->cu_sum_start[g->nsums] = (uint32_t)at;
    /* the digit sets of the listed sums: two passes (count, then fill) */
    {
        uint32_t set, top = n <= 16 ? 1u << n : 0;
        int pass;
        for (pass = 0; pass < 2; pass++) {
            ncombo = 0;
            for (k = 0; k < g->nsums; k++) {
                int size = (int)(g->sum_start[k + 1] - g->sum_start[k]);
                uint32_t count = 0;
                g->combo_start[k] = ncombo;
                if (g->sum_combos[k] != SUM_LISTED)
                    continue;
                /* the sets of size bits in ascending order (Gosper's next
                 * larger number with as many bits) */
                for (set = size <= n ? (1u << size) - 1 : top; set < top;) {
                    int sum = 0;
                    uint32_t b, this_set = set;
                    if (set) {
                        uint32_t low = set & (~set + 1), ripple = set + low;
                        set = ripple | (((set ^ ripple) >> 2) / low);
                    } else {
                        set = top; /* the empty set is the only one of size 0 */
                    }
                    for (b = this_set; b; b &= b - 1)
                        sum += CTZ(b) + 1;
                    if (sum != g->sum_total[k])
                        continue;
                    if (count++ >= COMBO_CAP)
                        break;
                    if (pass)
                        g->combo[ncombo] = this_set;
                    ncombo++;
                }
                if (count > COMBO_CAP) {
                    ncombo = g->combo_start[k];
                    g->sum_combos[k] = SUM_DISTINCT_BOUNDS;
                }
            }
            g->combo_start[g->nsums] = ncombo;
            if (!pass) {
                g->combo = PyMem_RawCalloc((size_t)ncombo + 1, sizeof(uint32_t));
                if (g->combo == NULL)
                    return 0;
            }
        }
    }
    return 1;
}

/* The index of the highest set bit of m (m != 0); the between kind's header uses it too. */
static inline int
ev_top(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(m);
#else
    int d = 0;
    while (m >>= 1)
        d++;
    return d;
#endif
}

/* The between kind (sandwich lines): geo_between, ev_betweens, ev_between_verify. */
#include "_native_between.h"


/* Without relation pairs, ev_units removes a digit from a cell c outside a
 * unit u that is a peer of each of its places in u (2 to 4 of them). When
 * the cells of u that c sees lie in one unit v with c (rows, columns and
 * boxes: always), the places lie in u and v, and eg_locked removes the
 * digit from c too: ev_units adds nothing to the fixpoint of eg_fix, and
 * is skipped. 1 when that holds for every unit and cell (pbits, ubits). */
static int
geo_units_plain(const Geo *g)
{
    int u, c;
    for (u = 0; u < g->nunits; u++)
        for (c = 0; c < g->ncells; c++) {
            uint64_t s0 = g->pbits[2 * c] & g->ubits[2 * u], s1 = g->pbits[2 * c + 1] & g->ubits[2 * u + 1];
            uint32_t j;
            int inside = 0;
            if ((g->ubits[2 * u + (c >> 6)] >> (c & 63) & 1) || ev_pop64(s0) + ev_pop64(s1) < 2)
                continue;
            for (j = g->cu_start[c]; j < g->cu_start[c + 1] && !inside; j++) {
                int v = g->cu[j];
                inside = !(s0 & ~g->ubits[2 * v]) && !(s1 & ~g->ubits[2 * v + 1]);
            }
            if (!inside)
                return 0;
        }
    return 1;
}

static int geo_sum_segments(Geo *g); /* _native_sum_support.h */

/* Build the constraint tables of g from ex. 0 when out of memory. */
static int
geo_constraints(Geo *g, const Extra *ex)
{
    int ncells = g->ncells, k, c;
    g->constrained = ex->ndiffer > 0 || ex->npairs > 0 || ex->nsums > 0 || ex->cand != NULL || ex->nbetween > 0;
    if (!g->constrained)
        return 1;
    if (!geo_relations(g, ex) || !geo_sums(g, ex) || !geo_sum_segments(g) || !geo_between(g, ex))
        return 0;
    /* the 9x9 engine takes the classic units with starting candidates,
     * relation pairs, renban's runs (e9_runs, _native_9x9_runs.h) and sums
     * that repeat digits (_native_9x9_sums.h) */
    g->mask9 = ex->ndiffer == 0 && (ex->nsums == 0 || geo_sums9_fit(g, ex)) && ex->nbetween == 0 && ncells == 81;
    for (c = 0; g->mask9 && c < ncells; c++)
        if (g->adj_start != NULL && g->adj_start[c] != g->adj_start[c + 1])
            g->pairs9_cells[c / 27] |= 1u << (c % 27);
    g->mask9 = g->mask9 && geo_is_classic9(g);
    if (g->mask9 && g->npairs && !geo_sup9(g))
        return 0;
    if (g->mask9 && g->nsums && !geo_sums9(g))
        return 0;
    if (ex->cand != NULL) {
        g->cand = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)ncells);
        if (g->cand == NULL)
            return 0;
        for (c = 0; c < ncells; c++)
            g->cand[c] = ex->cand[c] & g->full;
    }
    g->weight = PyMem_RawCalloc((size_t)ncells + 1, sizeof(uint16_t));
    if (g->weight == NULL)
        return 0;
    for (k = 0; k < g->npairs; k++) {
        g->weight[g->pair_a[k]]++;
        g->weight[g->pair_b[k]]++;
    }
    for (k = 0; k < g->nsums; k++) {
        uint32_t a;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++)
            g->weight[g->sum_cells[a]] += 2;
    }
    for (k = 0; k < g->nbetween; k++) {
        uint32_t a;
        for (a = g->bw_start[k]; a < g->bw_start[k + 1]; a++)
            g->weight[g->bw_cells[a]] += BETWEEN_WEIGHT;
    }
    for (c = 0; c < ncells; c++)
        g->weighted |= g->weight[c] > 0;
    if (ncells <= 128 && !g->mask9) { /* the general engine's (ev_units) */
        int u, i;
        g->pbits = PyMem_RawCalloc(2 * (size_t)ncells, sizeof(uint64_t));
        g->ubits = PyMem_RawCalloc(2 * (size_t)g->nunits, sizeof(uint64_t));
        if (g->pbits == NULL || g->ubits == NULL)
            return 0;
        for (u = 0; u < g->nunits; u++)
            for (i = 0; i < g->n; i++) {
                int cell = g->unit[u * g->n + i];
                g->ubits[2 * u + (cell >> 6)] |= 1ull << (cell & 63);
            }
        for (c = 0; c < ncells; c++) {
            uint32_t j;
            for (j = g->peer_start[c]; j < g->peer_start[c + 1]; j++)
                g->pbits[2 * c + (g->peer[j] >> 6)] |= 1ull << (g->peer[j] & 63);
        }
        g->units_plain = g->npairs == 0 && geo_units_plain(g);
        if (g->npairs > 0) {
            g->rbits = PyMem_RawCalloc(2 * (size_t)ncells, sizeof(uint64_t));
            if (g->rbits == NULL)
                return 0;
            for (c = 0; c < ncells; c++)
                g->rbits[2 * c + (c >> 6)] |= 1ull << (c & 63);
            for (k = 0; k < g->npairs; k++) {
                int a = g->pair_a[k], b = g->pair_b[k];
                g->rbits[2 * a + (b >> 6)] |= 1ull << (b & 63);
                g->rbits[2 * b + (a >> 6)] |= 1ull << (a & 63);
            }
        }
    }
    return 1;
}

/* The digits a relation's table allows on one end when the other end has
 * candidates m: the union of the table's masks over m (side: the table's
 * first n masks from a to b, or its converse from b to a). */
static inline uint32_t
ev_support(const uint32_t *side, uint32_t m)
{
    uint32_t v = 0;
    for (; m; m &= m - 1)
        v |= side[CTZ(m)];
    return v;
}

/* What the kinds' propagators saw last within one eg_propagate call: the
 * candidates of every cell when its relation pairs last pruned their other
 * ends (rel), and when ev_units last started (units); each valid once
 * filled. */
typedef struct {
    uint32_t rel[MAXCELLS];
    uint32_t units[MAXCELLS];
    uint32_t between[2 * MAXCELLS]; /* per cell of each between line (ev_betweens) */
    int rel_valid, units_valid, between_valid;
} EvSeen;

/* Every relation pair to arc consistency, driven by a queue of cells: a
 * cell whose candidates changed since its pairs last pruned their other
 * ends (seen: its candidates then) prunes them again, and a cell pruned so
 * goes on the queue. Only the pairs of changed cells are visited; *valid
 * (0 at the start of a propagation) asks for every cell once. On return
 * every pair is arc consistent. 0 on a contradiction. */
static int
ev_relations(Ctx *x, SG *s, int *found, uint32_t *seen, int *valid)
{
    const Geo *g = x->geo;
    int n = g->n, ncells = g->ncells, head = 0, tail = 0, c;
    /* a ring of cells, each in it once at most (queued): one slot more
     * than cells, so that a full ring (every cell of a 25x25 grid) is not
     * taken for an empty one: head == tail means empty (break-session
     * finding: an empty 25x25 nonconsecutive grid filled the ring of
     * MAXCELLS, and the loop ran forever past its end) */
    uint16_t work[MAXCELLS + 1];
    uint8_t queued[MAXCELLS];
    memset(queued, 0, (size_t)ncells);
    for (c = 0; c < ncells; c++)
        if (g->adj_start[c] != g->adj_start[c + 1] && (!*valid || s->c[c] != seen[c])) {
            work[tail++] = (uint16_t)c;
            queued[c] = 1;
        }
    *valid = 1;
    while (head != tail) {
        uint32_t j, mc;
        c = work[head];
        head = head == MAXCELLS ? 0 : head + 1;
        queued[c] = 0;
        mc = seen[c] = s->c[c];
        for (j = g->adj_start[c]; j < g->adj_start[c + 1]; j++) {
            uint32_t end = g->adj[j], k = end >> 1, keep, mo;
            const uint32_t *t = g->tab + g->pair_tab[k];
            int o;
            if (end & 1) { /* c is b: a keeps what some digit of b allows */
                o = g->pair_a[k];
                keep = ev_support(t + n, mc);
            } else {
                o = g->pair_b[k];
                keep = ev_support(t, mc);
            }
            mo = s->c[o];
            if (mo & ~keep) {
                if (!eg_remove(x, s, o, mo & ~keep, found))
                    return 0;
                if (!queued[o]) {
                    queued[o] = 1;
                    work[tail] = (uint16_t)o;
                    tail = tail == MAXCELLS ? 0 : tail + 1;
                }
            }
        }
    }
    return 1;
}

/* The sum of the k smallest (largest: high) digits of mask m; -1 when m
 * has fewer than k. */
static int
ev_extreme_sum(uint32_t m, int k, int high)
{
    int sum = 0;
    while (k-- > 0) {
        int d;
        if (!m)
            return -1;
        d = high ? ev_top(m) : CTZ(m);
        sum += d + 1;
        m &= ~(1u << d);
    }
    return sum;
}

/* A sum by bounds: each cell keeps the digits d whose weighted value
 * w * d the other cells' smallest and largest values can make up to the
 * total. 0 on a contradiction. */
static int
ev_sum_bounds(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    const int32_t *w = g->sum_weight + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]), i, changed = 1;
    long total = g->sum_total[k];
    while (changed) {
        long lo[MAXCELLS], hi[MAXCELLS], sl = 0, sh = 0;
        changed = 0;
        for (i = 0; i < size; i++) {
            uint32_t m = s->c[cells[i]];
            long a = (long)w[i] * (CTZ(m) + 1), b = (long)w[i] * (ev_top(m) + 1);
            lo[i] = a < b ? a : b;
            hi[i] = a < b ? b : a;
            sl += lo[i];
            sh += hi[i];
        }
        if (sl > total || sh < total)
            return 0;
        for (i = 0; i < size; i++) {
            long from = total - (sh - hi[i]), to = total - (sl - lo[i]);
            uint32_t m = s->c[cells[i]], drop = 0, r;
            if (from <= lo[i] && hi[i] <= to)
                continue;
            for (r = m; r; r &= r - 1) {
                long v = (long)w[i] * (CTZ(r) + 1);
                if (v < from || v > to)
                    drop |= r & (~r + 1);
            }
            if (drop) {
                if (!eg_remove(x, s, cells[i], drop, found))
                    return 0;
                changed = 1;
            }
        }
    }
    return 1;
}

/* Sums that repeat digits to domain consistency (ev_sum_support). */
#include "_native_sum_support.h"

/* A distinct sum of weights 1 without listed sets: a free digit d stays
 * while the other free cells can still make the rest of the total from the
 * digits left. 0 on a contradiction. */
static int
ev_sum_distinct_bounds(Ctx *x, SG *s, int k, uint32_t placed, uint32_t avail, int nfree, int rest,
                       const uint16_t *at, uint32_t *fm, int *found)
{
    uint32_t allowed = 0, m;
    int i;
    (void)k;
    for (m = avail; m; m &= m - 1) {
        int d = CTZ(m) + 1, lo, hi;
        uint32_t others = avail & ~(1u << (d - 1));
        lo = ev_extreme_sum(others, nfree - 1, 0);
        hi = ev_extreme_sum(others, nfree - 1, 1);
        if (lo >= 0 && lo <= rest - d && rest - d <= hi)
            allowed |= 1u << (d - 1);
    }
    (void)placed;
    if (!allowed)
        return 0;
    for (i = 0; i < nfree; i++) {
        uint32_t v = fm[i] & allowed;
        if (v != fm[i]) {
            if (!v)
                return 0;
            s->c[at[i]] = fm[i] = v;
            if (eg_single(v))
                x->queue[x->qn++] = at[i];
            *found = 1;
        }
    }
    return 1;
}

/* A distinct sum (its cells are peers of each other); 0 on a contradiction. */
static int
ev_sum_distinct(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->sum_cells + g->sum_start[k];
    int size = (int)(g->sum_start[k + 1] - g->sum_start[k]);
    uint32_t placed = 0, avail = 0, fm[MAXN], allowed = 0, required = g->full, a;
    uint16_t at[MAXN];
    int nfree = 0, nplaced = 0, rest = g->sum_total[k], i;
    for (i = 0; i < size; i++) {
        uint32_t m = s->c[cells[i]];
        if (eg_single(m)) {
            placed |= m;
            nplaced++;
            rest -= CTZ(m) + 1;
        } else {
            at[nfree] = cells[i];
            fm[nfree++] = m;
            avail |= m;
        }
    }
    if (ev_pop64(placed) != nplaced)
        return 0;
    if (nfree == 0)
        return rest == 0;
    if (rest <= 0)
        return 0;
    avail &= ~placed;
    if (g->sum_combos[k] != SUM_LISTED)
        return ev_sum_distinct_bounds(x, s, k, placed, avail, nfree, rest, at, fm, found);
    for (a = g->combo_start[k]; a < g->combo_start[k + 1]; a++) {
        uint32_t set = g->combo[a], add;
        if ((set & placed) != placed)
            continue;
        add = set & ~placed;
        if ((add & avail) != add)
            continue;
        for (i = 0; i < nfree; i++)
            if (!(fm[i] & add))
                break;
        if (i < nfree)
            continue;
        allowed |= add;
        required &= add;
    }
    if (!allowed)
        return 0;
    for (i = 0; i < nfree; i++) {
        uint32_t v = fm[i] & allowed;
        if (v != fm[i]) {
            if (!v)
                return 0;
            s->c[at[i]] = fm[i] = v;
            if (eg_single(v))
                x->queue[x->qn++] = at[i];
            *found = 1;
        }
    }
    /* a digit every possible set needs: not elsewhere in a unit the sum
     * lies in */
    if (required & ~placed) {
        uint32_t need = required & ~placed;
        for (a = g->cu_sum_start[k]; a < g->cu_sum_start[k + 1]; a++) {
            const uint16_t *unit = g->unit + g->cu_sum[a] * g->n;
            for (i = 0; i < g->n; i++) {
                int j, inside = 0;
                for (j = 0; j < size; j++)
                    inside |= cells[j] == unit[i];
                if (!inside && !eg_remove(x, s, unit[i], need, found))
                    return 0;
            }
        }
    }
    /* a digit every possible set needs, with one place left */
    for (required &= ~placed; required; required &= required - 1) {
        uint32_t bit = required & (~required + 1);
        int place = -1;
        for (i = 0; i < nfree; i++)
            if (fm[i] & bit) {
                if (place >= 0)
                    break;
                place = i;
            }
        if (place < 0)
            return 0;
        if (i == nfree && fm[place] != bit) {
            s->c[at[place]] = fm[place] = bit;
            x->queue[x->qn++] = at[place];
            *found = 1;
        }
    }
    return 1;
}

/* The digits cell c may not hold when cell p (c != p) holds d + 1: d if
 * they are peers, and what their relation pairs forbid. */
static uint32_t
ev_takes(const Geo *g, int c, int p, int d)
{
    uint32_t v = 0, j;
    int n = g->n;
    if (g->pbits[2 * c + (p >> 6)] >> (p & 63) & 1)
        v = 1u << d;
    for (j = g->adj_start[c]; j < g->adj_start[c + 1]; j++) {
        uint32_t end = g->adj[j], k = end >> 1;
        const uint32_t *t = g->tab + g->pair_tab[k];
        if (end & 1) { /* c is b, p would be a */
            if (g->pair_a[k] == p)
                v |= g->full & ~t[d];
        } else if (g->pair_b[k] == p) {
            v |= g->full & ~t[n + d];
        }
    }
    return v;
}

/* For each unit and digit, its places P in the unit (grids of up to 128
 * cells): a cell that is a peer of every place cannot hold the digit (the
 * pointing and claiming of locked candidates, for any peers); a cell that
 * is a place or related to every place loses the digits that would take
 * the digit from all of them (they would leave the unit without a place).
 * A unit whose cells are unchanged since the last call (seen) is skipped.
 * The places come from the digits' cells at the start of the call: cells
 * only lose digits, so they are a superset of the places later in the
 * call, and a deduction from a superset still holds.
 * 0 on a contradiction. */
static int
ev_units(Ctx *x, SG *s, int *found, EvSeen *seen)
{
    const Geo *g = x->geo;
    int n = g->n, u, i, d, ncells = g->ncells;
    uint8_t dirty[MAXUNITS];
    uint64_t has[MAXN][2], one[MAXN][2];
    /* a unit whose cells hold what they held when it was last looked at
     * here gives nothing new (its removals are made): skip it */
    for (u = 0; u < g->nunits; u++) {
        const uint16_t *cells = g->unit + u * n;
        dirty[u] = !seen->units_valid;
        for (i = 0; i < n && !dirty[u]; i++)
            dirty[u] = s->c[cells[i]] != seen->units[cells[i]];
    }
    memcpy(seen->units, s->c, sizeof(uint32_t) * (size_t)ncells);
    seen->units_valid = 1;
    /* the open cells that hold each digit now (they only lose digits
     * below), and the placed cells of each digit */
    memset(has, 0, sizeof(has[0]) * (size_t)n);
    memset(one, 0, sizeof(one[0]) * (size_t)n);
    for (i = 0; i < ncells; i++) {
        uint32_t m = s->c[i];
        uint64_t bit = 1ull << (i & 63);
        if (eg_single(m)) {
            one[CTZ(m)][i >> 6] |= bit;
            continue;
        }
        for (; m; m &= m - 1)
            has[CTZ(m)][i >> 6] |= bit;
    }
    for (u = 0; u < g->nunits; u++) {
        uint64_t place[MAXN][2], ub0 = g->ubits[2 * u], ub1 = g->ubits[2 * u + 1];
        uint32_t placed = 0; /* digits already placed in the unit (their peers may not know yet) */
        if (!dirty[u])
            continue;
        for (d = 0; d < n; d++) {
            place[d][0] = has[d][0] & ub0;
            place[d][1] = has[d][1] & ub1;
            if ((one[d][0] & ub0) | (one[d][1] & ub1))
                placed |= 1u << d;
        }
        for (d = 0; d < n; d++) {
            uint64_t w0 = place[d][0], w1 = place[d][1], p0 = ~0ull, p1 = ~0ull, q0 = ~0ull, q1 = ~0ull;
            int count = ev_pop64(w0) + ev_pop64(w1), at[4], np = 0;
            if (count < 2 || count > 4 || (placed >> d & 1))
                continue;
            for (i = 0; i < 2; i++) {
                uint64_t w = i ? w1 : w0;
                for (; w; w &= w - 1) {
                    int c = (i << 6) + __builtin_ctzll(w);
                    at[np++] = c;
                    p0 &= g->pbits[2 * c];
                    p1 &= g->pbits[2 * c + 1];
                    if (g->rbits != NULL) {
                        q0 &= g->rbits[2 * c];
                        q1 &= g->rbits[2 * c + 1];
                    }
                }
            }
            if (g->rbits == NULL)
                q0 = q1 = 0;
            p0 &= has[d][0]; /* only the peers that hold the digit */
            p1 &= has[d][1];
            for (i = 0; i < 2; i++) {
                uint64_t w = i ? p1 : p0;
                for (; w; w &= w - 1)
                    if (!eg_remove(x, s, (i << 6) + __builtin_ctzll(w), 1u << d, found))
                        return 0;
                w = i ? q1 : q0;
                for (; w; w &= w - 1) {
                    int c = (i << 6) + __builtin_ctzll(w), j;
                    uint32_t take = g->full;
                    for (j = 0; j < np && take; j++)
                        take &= at[j] == c ? g->full & ~(1u << d) : ev_takes(g, c, at[j], d);
                    if (take && !eg_remove(x, s, c, take, found))
                        return 0;
                }
            }
        }
    }
    return 1;
}

/* The constraints beyond units and peers, one round; 0 on a contradiction,
 * *found when a candidate went. */
static int
ev_propagate(Ctx *x, SG *s, int *found, EvSeen *seen)
{
    const Geo *g = x->geo;
    int k;
    if (g->npairs && !ev_relations(x, s, found, seen->rel, &seen->rel_valid))
        return 0;
    if (g->ntwins && !ev_twins(x, s, found))
        return 0;
    if (g->nruns && !ev_runs(x, s, found))
        return 0;
    for (k = 0; k < g->nsums; k++)
        if (!(g->sum_combos[k] == SUM_BOUNDS ? ev_sum_support(x, s, k, found) : ev_sum_distinct(x, s, k, found)))
            return 0;
    if (g->nbetween && !ev_betweens(x, s, found, seen->between, &seen->between_valid))
        return 0;
    if (!*found && g->pbits != NULL && !g->units_plain)
        return ev_units(x, s, found, seen);
    return 1;
}

/* Do the givens (cells, 0 = empty) break a relation pair? (Givens that
 * share a unit or a differ pair are found by rung's peer pass.) */
static int
ev_givens_break(const Geo *g, const int *cells)
{
    int i;
    for (i = 0; i < g->npairs; i++) {
        int a = cells[g->pair_a[i]], b = cells[g->pair_b[i]];
        if (a && b && !(g->tab[g->pair_tab[i] + (uint32_t)(a - 1)] >> (b - 1) & 1))
            return 1;
    }
    return 0;
}

/* Does a full grid of digits (1..n each) keep every constraint: the differ
 * pairs (peer lists), relation pairs, sums and candidates? */
static int
ev_verify(const Geo *g, const int *digits)
{
    int c, i, k;
    for (c = 0; c < g->ncells; c++) {
        uint32_t j;
        if (g->cand != NULL && !(g->cand[c] >> (digits[c] - 1) & 1))
            return 0;
        for (j = g->peer_start[c]; j < g->peer_start[c + 1]; j++)
            if (digits[g->peer[j]] == digits[c])
                return 0;
    }
    for (i = 0; i < g->npairs; i++) {
        int a = digits[g->pair_a[i]], b = digits[g->pair_b[i]];
        if (!(g->tab[g->pair_tab[i] + (uint32_t)(a - 1)] >> (b - 1) & 1))
            return 0;
    }
    for (k = 0; k < g->nsums; k++) {
        long sum = 0;
        uint32_t a;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++)
            sum += (long)g->sum_weight[a] * digits[g->sum_cells[a]];
        if (sum != g->sum_total[k])
            return 0;
    }
    return ev_between_verify(g, digits);
}
