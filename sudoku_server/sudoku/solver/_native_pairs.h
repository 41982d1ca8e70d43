/* Reasoning on relation pairs beyond each pair's arc consistency, for the
 * general engine: included by _native_kinds.h (after geo_is_peer and
 * ev_pop64; eg_remove and eg_single come from _native_general.h).
 *
 *   geo_polar      pairs whose table joins only low digits to high ones
 *                  (Geo.polar: probed and split by side in _native_general.h)
 *   geo_pair_keep  a cell's two partners that are peers must differ: at
 *                  prepare on the tables (Geo.pair_keep), and the pairs of
 *                  pairs kept for ev_twins (Geo.twin)
 *   geo_runs       cliques of k cells with the table "differ by 1 to k - 1"
 *                  (Geo.run_*), kept by ev_runs as runs of consecutive digits
 */

/* Geo.polar: the cells of pairs whose table is polar: every allowed pair
 * joins a digit below the middle of 1..n to one above it (the middle digit
 * of an odd n allowed with none). Such a pair's cells take opposite halves. */
static int
geo_polar(Geo *g, const Extra *ex)
{
    int n = g->n, t, d, i, any = 0;
    size_t width = 2 * (size_t)n;
    uint32_t low = (1u << (n / 2)) - 1u, high = g->full & ~((1u << ((n + 1) / 2)) - 1u);
    uint8_t *polar_table = PyMem_RawCalloc((size_t)ex->ntables + 1, 1);
    if (polar_table == NULL)
        return 0;
    for (t = 0; t < ex->ntables; t++) {
        const uint32_t *plain = g->tab + (size_t)t * width;
        int ok = 1, some = 0;
        for (d = 0; d < n && ok; d++) {
            uint32_t side = (1u << d) & low ? high : (1u << d) & high ? low : 0;
            ok = !(plain[d] & ~side) && !(plain[n + d] & ~side);
            some |= plain[d] != 0;
        }
        polar_table[t] = (uint8_t)(ok && some);
        any |= ok && some;
    }
    if (any) {
        g->polar = PyMem_RawCalloc((size_t)g->ncells, 1);
        if (g->polar == NULL) {
            PyMem_RawFree(polar_table);
            return 0;
        }
        for (i = 0; i < ex->npairs; i++)
            if (polar_table[ex->pair_table[i]])
                g->polar[ex->pairs[2 * i]] = g->polar[ex->pairs[2 * i + 1]] = 1;
    }
    PyMem_RawFree(polar_table);
    return 1;
}

/* Geo.pair_keep: a cell with relation pairs to two cells that are peers
 * of each other cannot hold a digit for which the two pairs leave fewer than
 * two partner digits in all (the two partners must differ): a cell between
 * two white kropki dots into one unit holds neither 1 nor n; a German
 * whispers cell whose two line neighbours share a box holds neither 4 nor 6.
 * One pass over the cells' pairs of pairs, the twins listed as they come
 * (a second pass lists them when more than TWINS_LOCAL). */
#define TWINS_LOCAL 512

static int
geo_pair_keep(Geo *g)
{
    int n = g->n, c, d, any = 0, pass;
    uint32_t i, j, local[3 * TWINS_LOCAL];
    uint32_t *keep = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)g->ncells);
    /* per two sides of tables (side k: the n masks at g->tab + k * n; a
     * geometry has a few): the digits they leave one partner at most
     * (bits 0..n-1), whether some digit has 3 or fewer (bit 30), and
     * whether this is known (bit 31) */
    uint32_t memo[16][16];
    if (keep == NULL)
        return 0;
    memset(memo, 0, sizeof memo);
    /* pass 0 counts the twins (listing the first TWINS_LOCAL), pass 1 lists them */
    for (pass = 0; pass < 2; pass++) {
        uint32_t *list = pass ? g->twin : local;
        g->ntwins = 0;
        for (c = 0; c < g->ncells; c++) {
            keep[c] = g->full;
            for (i = g->adj_start[c]; i < g->adj_start[c + 1]; i++)
                for (j = i + 1; j < g->adj_start[c + 1]; j++) {
                    uint32_t ei = g->adj[i], ej = g->adj[j];
                    int p = (ei & 1) ? g->pair_a[ei >> 1] : g->pair_b[ei >> 1];
                    int q = (ej & 1) ? g->pair_a[ej >> 1] : g->pair_b[ej >> 1];
                    /* the partner digits of d: row d of the table when c is a, row n + d when c is b */
                    const uint32_t *ti = g->tab + g->pair_tab[ei >> 1] + ((ei & 1) ? n : 0);
                    const uint32_t *tj = g->tab + g->pair_tab[ej >> 1] + ((ej & 1) ? n : 0);
                    int tight = 0;
                    uint32_t drop = 0;
                    if (p == q || !geo_is_peer(g, p, q))
                        continue;
                    /* the sides' numbers: a division by a constant on 9x9 (a division by n was a
                     * tenth of a kropki line's prepare) */
                    size_t ki = n == 9 ? (size_t)(ti - g->tab) / 9 : (size_t)(ti - g->tab) / (size_t)n;
                    size_t kj = n == 9 ? (size_t)(tj - g->tab) / 9 : (size_t)(tj - g->tab) / (size_t)n;
                    if (ki < 16 && kj < 16 && (memo[ki][kj] >> 31)) {
                        drop = memo[ki][kj] & g->full;
                        tight = (int)(memo[ki][kj] >> 30 & 1);
                    } else {
                        for (d = 0; d < n; d++) {
                            uint32_t both = ti[d] | tj[d];
                            if (!(both & (both - 1)))
                                drop |= 1u << d;
                            tight |= ev_pop64(both) <= 3;
                        }
                        if (ki < 16 && kj < 16)
                            memo[ki][kj] = 1u << 31 | (uint32_t)tight << 30 | drop;
                    }
                    if (keep[c] & drop) {
                        keep[c] &= ~drop;
                        any = 1;
                    }
                    /* the search checks the pairs that give some digit at
                     * most 3 partners (dots, whispers), not the wide
                     * negative constraints, whose check never removes */
                    if (!tight)
                        continue;
                    if (pass == 1 || g->ntwins < TWINS_LOCAL) {
                        list[3 * g->ntwins] = (uint32_t)c;
                        list[3 * g->ntwins + 1] = i;
                        list[3 * g->ntwins + 2] = j;
                    }
                    g->ntwins++;
                }
        }
        if (pass == 1 || g->ntwins == 0)
            break;
        g->twin = PyMem_RawMalloc(sizeof(uint32_t) * 3 * (size_t)g->ntwins);
        if (g->twin == NULL) {
            PyMem_RawFree(keep);
            return 0;
        }
        if (g->ntwins <= TWINS_LOCAL) {
            memcpy(g->twin, local, sizeof(uint32_t) * 3 * (size_t)g->ntwins);
            break;
        }
    }
    if (any)
        g->pair_keep = keep;
    else
        PyMem_RawFree(keep);
    return 1;
}

/* Geo.run_*: a clique of k cells (k <= RUN_MAX) whose every pair has one
 * table, "the digits differ, by at most k - 1", holds k distinct digits
 * within k - 1 of each other: a run of k consecutive digits (a renban
 * line). The pairs' arc consistency sees one pair at a time; ev_runs sees
 * the run (and e9_runs on the 9x9 engine). RUN_MAX: _native_geometry.h. */

/* The least k (3..RUN_MAX) whose "differ by 1 to k - 1" a table (n masks,
 * bits of 1..n) is, else 0. From k >= n on, every such table is "differ"
 * (geo_run_fits). */
static int
geo_run_table(const uint32_t *table, int n)
{
    int k, d, e;
    uint32_t full = (1u << n) - 1u;
    for (k = 3; k <= RUN_MAX; k++) {
        for (d = 0; d < n; d++) {
            uint32_t want = 0;
            for (e = d - k + 1; e <= d + k - 1; e++)
                if (e >= 0 && e < n && e != d)
                    want |= 1u << e;
            if ((table[d] & full) != want)
                break;
        }
        if (d == n)
            return k;
    }
    return 0;
}

/* Is a table of least run size least (geo_run_table) the table of a run of k? */
static inline int
geo_run_fits(int least, int k, int n)
{
    return least == k || (least > 0 && least >= n && k >= least);
}

/* One pass over the cells, each table's run size found once (tables
 * beyond 256: looked at per candidate run); the runs kept in local arrays
 * (a cell is in one run at most), then copied. */
static int
geo_runs(Geo *g, const Extra *ex)
{
    int n = g->n, ncells = g->ncells, i, c, total = 0, nruns = 0, t;
    int16_t comp[MAXCELLS];
    uint16_t cells[MAXCELLS];
    uint32_t starts[MAXCELLS + 1];
    uint8_t runk[256];
    /* no table of a run: none (most geometries; the pass over the cells saved) */
    for (t = 0, i = 0; t < ex->ntables; t++) {
        int k = geo_run_table(ex->tables + (size_t)t * n, n);
        if (t < 256)
            runk[t] = (uint8_t)k;
        i |= k;
    }
    if (!i)
        return 1;
    for (c = 0; c < ncells; c++)
        comp[c] = -1;
    /* each pair's table; a cell with pairs of one table only starts a candidate run */
    for (c = 0; c < ncells; c++) {
        int k = 0, ok = 1, members[RUN_MAX + 1];
        uint32_t j;
        t = -1;
        if (comp[c] >= 0 || g->adj_start[c] == g->adj_start[c + 1])
            continue;
        /* the cell and its partners through its first table */
        members[k++] = c;
        for (j = g->adj_start[c]; j < g->adj_start[c + 1] && ok; j++) {
            uint32_t end = g->adj[j], p = end >> 1;
            int o = (end & 1) ? g->pair_a[p] : g->pair_b[p];
            if (t < 0)
                t = ex->pair_table[p];
            ok = ex->pair_table[p] == t && k < RUN_MAX; /* a run has RUN_MAX cells at most */
            if (ok)
                members[k++] = o;
        }
        /* the table: d and e allowed exactly when 0 < |d - e| <= k - 1 */
        if (!ok || k < 3 || !geo_run_fits(t < 256 ? runk[t] : geo_run_table(ex->tables + (size_t)t * n, n), k, n))
            continue;
        /* every member's pairs are exactly the other members, through t */
        for (i = 0; i < k && ok; i++) {
            int m = members[i], seen = 0;
            ok = (int)(g->adj_start[m + 1] - g->adj_start[m]) == k - 1 && comp[m] < 0;
            for (j = g->adj_start[m]; j < g->adj_start[m + 1] && ok; j++) {
                uint32_t end = g->adj[j], p = end >> 1;
                int o = (end & 1) ? g->pair_a[p] : g->pair_b[p], q;
                ok = ex->pair_table[p] == t;
                for (q = 0; q < k && ok; q++)
                    if (members[q] == o)
                        seen++;
            }
            ok = ok && seen == k - 1;
        }
        if (!ok)
            continue;
        starts[nruns] = (uint32_t)total;
        for (i = 0; i < k; i++) {
            comp[members[i]] = (int16_t)nruns;
            cells[total + i] = (uint16_t)members[i];
        }
        total += k;
        nruns++;
    }
    if (nruns == 0)
        return 1;
    starts[nruns] = (uint32_t)total;
    g->nruns = nruns;
    g->run_start = PyMem_RawMalloc(sizeof(uint32_t) * ((size_t)nruns + 1));
    g->run_cells = PyMem_RawMalloc(sizeof(uint16_t) * (size_t)total);
    if (g->run_start == NULL || g->run_cells == NULL)
        return 0;
    memcpy(g->run_start, starts, sizeof(uint32_t) * ((size_t)nruns + 1));
    memcpy(g->run_cells, cells, sizeof(uint16_t) * (size_t)total);
    return 1;
}

/* A run (Geo.run_*): each cell keeps the digits of the one-to-one
 * placements of some window of k consecutive digits (a depth-first walk
 * over the cells, distinct digits within the window). 0 on a contradiction. */
static int
ev_runs(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    int r, n = g->n;
    for (r = 0; r < g->nruns; r++) {
        const uint16_t *cells = g->run_cells + g->run_start[r];
        int k = (int)(g->run_start[r + 1] - g->run_start[r]), w, i;
        uint32_t keep[RUN_MAX], all = 0;
        memset(keep, 0, sizeof keep);
        for (i = 0; i < k; i++)
            all |= s->c[cells[i]];
        for (w = 0; w + k <= n; w++) {
            uint32_t window = ((1u << k) - 1u) << w, left[RUN_MAX], used = 0;
            int depth = 0, dig[RUN_MAX];
            if ((all & window) != window)
                continue; /* a digit of the window has no cell */
            for (i = 0; i < k && (s->c[cells[i]] & window); i++)
                ;
            if (i < k)
                continue;
            left[0] = s->c[cells[0]] & window;
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
                    left[depth] = s->c[cells[depth]] & window & ~used;
                    continue;
                }
                for (i = 0; i < k; i++)
                    keep[i] |= 1u << dig[i];
            }
        }
        for (i = 0; i < k; i++) {
            uint32_t drop = s->c[cells[i]] & ~keep[i];
            if (drop && !eg_remove(x, s, cells[i], drop, found))
                return 0;
        }
    }
    return 1;
}

/* A cell's two pairs to two peers of each other (Geo.twin): a digit stays
 * only while the two partners can still take two different digits it allows
 * (the candidates now, geo_pair_keep's test on the tables at prepare). */
static int
ev_twins(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    int n = g->n, t;
    for (t = 0; t < g->ntwins; t++) {
        int c = (int)g->twin[3 * t];
        uint32_t ei = g->adj[g->twin[3 * t + 1]], ej = g->adj[g->twin[3 * t + 2]];
        int p = (ei & 1) ? g->pair_a[ei >> 1] : g->pair_b[ei >> 1];
        int q = (ej & 1) ? g->pair_a[ej >> 1] : g->pair_b[ej >> 1];
        const uint32_t *ti = g->tab + g->pair_tab[ei >> 1] + ((ei & 1) ? n : 0);
        const uint32_t *tj = g->tab + g->pair_tab[ej >> 1] + ((ej & 1) ? n : 0);
        uint32_t m = s->c[c], mp = s->c[p], mq = s->c[q], gone = 0;
        if (eg_single(m))
            continue;
        while (m) {
            int d = CTZ(m);
            uint32_t a = ti[d] & mp, b = tj[d] & mq, both = a | b;
            m &= m - 1;
            if (!a || !b || !(both & (both - 1)))
                gone |= 1u << d;
        }
        if (gone && !eg_remove(x, s, c, gone, found))
            return 0;
    }
    return 1;
}
