/* The prepared geometry (Geo) of the native solver core: the units, each
 * cell's units and peers, the intersections of units (locked candidates)
 * and the constraint kinds' tables (built by _native_kinds.h's
 * geo_constraints). Built once per geometry by prepare() (_native.c),
 * read-only afterwards, freed with its capsule. A geometry prepared like
 * another (prepare's like=, and a marks line's, built per call on the
 * classic one's units: _native_marksline.h) shares that one's unit arrays
 * (geo_build_like's share, Geo.shared): its capsule keeps the other's alive
 * (the capsule's context), the marks line's is freed within the call.
 */

/* ------------------------------------------------------------------ */
/* Geometry: cells plus a list of units (prepared once per geometry by   */
/* prepare(), read-only afterwards, freed with its capsule)             */

/* Units of one geometry at most (classic grids have 3n: 75 for 25x25;
 * variants add a few: diagonals, windows, regions). */
#define MAXUNITS 256

/* The most cells of a renban run (Geo.run_*: geo_runs, ev_runs, e9_runs). */
#define RUN_MAX 7
/* The runs whose last consistent masks e9_runs keeps (Ctx.run9). */
#define RUN9_CACHE 32

typedef struct {
    int n, ncells, nunits;
    int classic9; /* the classic 9x9 rows, columns and boxes: the e9 engine */
    int units9;   /* the units are classic(3, 3)'s, in order (geo_units9; classic9 without constraints) */
    int peers9;   /* and the peer lists are theirs (no differ pair, no distinct sum): geo_is_peer by
                   * row, column and box */
    int shared;   /* the unit-derived arrays (unit .. rest) are another Geo's (geo_build_like's
                   * share): geo_free leaves them */
    int mask9;    /* those units with starting candidates (cand) and relation pairs only: the
                   * e9 engine from masks and pairs (_native_9x9_pairs.h) */
    uint32_t pairs9_cells[3]; /* mask9: per band, the cells with relation pairs */
    uint32_t *adj9;           /* mask9: per entry of adj, the other cell << 16 | its side's index in SUP9 */
    uint8_t thr9[81];         /* mask9: a cell with more candidates than this removes none through its pairs */
    uint32_t *sum9;           /* mask9 with sums: 3 per sum, its cells per band (_native_9x9_sums.h) */
    uint32_t sums9_cells[3];  /* mask9: per band, the cells of sums */
    int8_t *twin9; /* mask9: per cell a cell it must equal (a palindrome's step), or -1; NULL when none */
    int npolar9;              /* mask9 with polar pairs: their connected parts (_native_9x9_pairs.h) */
    uint32_t *polar9;         /* 6 per part: per band its cells of one side of the middle, then the other's */
    uint32_t *polar9_units;   /* npolar9 + 1 starts into the rest, then per part the units it meets:
                               * unit | (its cells of side 0) << 8 | (of side 1) << 16 */
    uint32_t full;
    uint16_t *unit;      /* nunits * n: the cells of each unit */
    uint32_t *cu_start;  /* ncells + 1: cell c's units are cu[cu_start[c] .. cu_start[c + 1]) */
    uint16_t *cu;        /* ascending unit indices */
    uint32_t *peer_start; /* ncells + 1, as cu_start */
    uint16_t *peer;      /* each cell's peers, ascending */
    /* Locked candidates. An intersection is two units sharing 2+ cells;
     * side 2k + s of intersection k is its unit inter_unit[2k + s] and the
     * cells of that unit outside the intersection (out[out_start[2k + s] ..]).
     * A family is a unit's intersections that are pairwise disjoint, with
     * the rest of the unit (rest[rest_start[f] ..]); fam_side[..] lists the
     * side of the unit in each of its intersections. */
    int ninter, nfam;
    uint32_t *inter_start; /* ninter + 1 into inter_cells */
    uint16_t *inter_cells;
    uint16_t *inter_unit;  /* 2 * ninter */
    uint32_t *out_start;   /* 2 * ninter + 1 into out */
    uint16_t *out;
    uint32_t *fam_start;   /* nfam + 1 into fam_side */
    uint32_t *fam_side;
    uint32_t *rest_start;  /* nfam + 1 into rest */
    uint16_t *rest;
    /* Constraint kinds (_native_kinds.h; none for a geometry of units
     * only). All-different beyond the units (the "differ" pairs) is in the
     * peer lists above. */
    int constrained;       /* any of the below */
    int npairs;            /* relation pairs */
    int ntables;           /* relation tables (tab holds 4 * ntables sides of n masks) */
    uint16_t *pair_a, *pair_b; /* npairs: the two cells of each */
    uint32_t *pair_tab;    /* npairs: offset of its table in tab */
    uint32_t *tab;         /* per table 2 * n masks: [d] the digits b may hold
                            * when a holds d + 1, [n + d] those a may hold when
                            * b holds d + 1 */
    uint32_t *adj_start;   /* ncells + 1 into adj: each cell's relation pairs */
    uint32_t *adj;         /* pair index * 2 + (0: the cell is a, 1: it is b) */
    uint32_t *pair_keep;   /* ncells: the digits a cell can hold given its
                            * relation pairs to two peers of each other
                            * (geo_pair_keep); NULL when it removes none */
    int nruns;             /* cliques of pairs whose table is "differ by 1 to k - 1" (k cells, k <= RUN_MAX) */
    uint32_t *run_start;   /* nruns + 1 into run_cells */
    uint16_t *run_cells;
    int ntwins;            /* a cell's two relation pairs to two peers of each other */
    uint32_t *twin;        /* 3 * ntwins: the cell, then its two entries of adj */
    uint8_t *polar;        /* ncells: 1 on a pair whose table only joins a low
                            * digit (below the middle) to a high one (above it),
                            * e.g. German whispers on 9x9; NULL when none */
    int nsums;
    uint32_t *sum_start;   /* nsums + 1 into sum_cells and sum_weight */
    uint16_t *sum_cells;
    int32_t *sum_weight;
    int32_t *sum_total;    /* nsums */
    uint8_t *sum_combos;   /* nsums: 1 when its digit sets are listed (distinct, weights 1) */
    uint8_t *sum_seg;      /* per entry of sum_cells: its segment (geo_sum_segments) */
    uint32_t *combo_start; /* nsums + 1 into combo */
    uint32_t *combo;       /* each listed sum's sets of distinct digits of its size and total */
    uint32_t *cu_sum_start; /* nsums + 1 into cu_sum */
    uint16_t *cu_sum;      /* the units each listed sum lies in */
    uint32_t *cand;        /* ncells initial candidates, or NULL */
    uint16_t *weight;      /* ncells: relation pairs and sums of each cell (branching) */
    int weighted;          /* some cell's weight is above 0 */
    /* Between lines (_native_between.h): cells of each line in order, its
     * low and high digit (bits), total, and the listed sets of the digits
     * between (per line and count; NULL above 16 digits: bounds). */
    int nbetween;
    uint32_t *bw_start;     /* nbetween + 1 into bw_cells */
    uint16_t *bw_cells;
    uint32_t *bw_low, *bw_high; /* nbetween: the digits' bits */
    int32_t *bw_total;      /* nbetween */
    uint32_t *bw_set_start; /* nbetween * (MAXN + 1) + 1 into bw_sets: line k, count c at k * (MAXN + 1) + c */
    uint32_t *bw_sets;
    /* Grids of up to 128 cells with constraints: per cell, 2 words of cell
     * bits: its peers (pbits), and itself with the cells it shares a
     * relation pair with (rbits, NULL without relations); per unit, 2 words:
     * its cells (ubits). */
    uint64_t *pbits, *rbits, *ubits;
    int units_plain; /* 1: ev_units finds nothing eg_locked misses (geo_units_plain) */
} Geo;

/* The constraint kinds prepare() reads (arrays checked by read_kinds). */
typedef struct {
    const uint16_t *differ; /* 2 * ndiffer cells: pairs that must differ */
    int ndiffer;
    const uint16_t *pairs; /* 2 * npairs cells: relation pairs */
    const uint16_t *pair_table; /* npairs: each pair's table */
    int npairs;
    const uint32_t *tables; /* ntables * n masks: [t * n + d] the digits b may hold when a holds d + 1 */
    int ntables;
    const int32_t *sums; /* per sum: count, total, distinct, count cells, count weights */
    int nsums, sums_len;
    const uint32_t *cand; /* ncells candidate masks, or NULL */
    const int32_t *between; /* per line: count, low, high, total, count cells */
    int nbetween, between_len;
} Extra;

static void
geo_free(Geo *g)
{
    if (g == NULL)
        return;
    if (!g->shared) {
        PyMem_RawFree(g->unit);
        PyMem_RawFree(g->cu_start);
        PyMem_RawFree(g->cu);
        PyMem_RawFree(g->peer_start);
        PyMem_RawFree(g->peer);
        PyMem_RawFree(g->inter_start);
        PyMem_RawFree(g->inter_cells);
        PyMem_RawFree(g->inter_unit);
        PyMem_RawFree(g->out_start);
        PyMem_RawFree(g->out);
        PyMem_RawFree(g->fam_start);
        PyMem_RawFree(g->fam_side);
        PyMem_RawFree(g->rest_start);
        PyMem_RawFree(g->rest);
    }
    PyMem_RawFree(g->pair_a);
    PyMem_RawFree(g->pair_b);
    PyMem_RawFree(g->pair_tab);
    PyMem_RawFree(g->tab);
    PyMem_RawFree(g->adj_start);
    PyMem_RawFree(g->adj);
    PyMem_RawFree(g->polar);
    PyMem_RawFree(g->pair_keep);
    PyMem_RawFree(g->adj9);
    PyMem_RawFree(g->polar9);
    PyMem_RawFree(g->twin9);
    PyMem_RawFree(g->polar9_units);
    PyMem_RawFree(g->twin);
    PyMem_RawFree(g->run_start);
    PyMem_RawFree(g->run_cells);
    PyMem_RawFree(g->sum_start);
    PyMem_RawFree(g->sum_cells);
    PyMem_RawFree(g->sum_weight);
    PyMem_RawFree(g->sum_total);
    PyMem_RawFree(g->sum_combos);
    PyMem_RawFree(g->sum_seg);
    PyMem_RawFree(g->sum9);
    PyMem_RawFree(g->combo_start);
    PyMem_RawFree(g->combo);
    PyMem_RawFree(g->cu_sum_start);
    PyMem_RawFree(g->cu_sum);
    PyMem_RawFree(g->cand);
    PyMem_RawFree(g->weight);
    PyMem_RawFree(g->bw_start);
    PyMem_RawFree(g->bw_cells);
    PyMem_RawFree(g->bw_low);
    PyMem_RawFree(g->bw_high);
    PyMem_RawFree(g->bw_total);
    PyMem_RawFree(g->bw_set_start);
    PyMem_RawFree(g->bw_sets);
    PyMem_RawFree(g->pbits);
    PyMem_RawFree(g->rbits);
    PyMem_RawFree(g->ubits);
    PyMem_RawFree(g);
}

/* Is the unit list exactly classic(3, 3)'s (Geo.units9, set once by
 * geo_build and copied by geo_build_like)? */
static inline int
geo_is_classic9(const Geo *g)
{
    return g->units9;
}

/* Is the unit list exactly classic(3, 3)'s: rows, columns, boxes, in order? */
static int
geo_units9(const Geo *g)
{
    int u, i;
    if (g->n != 9 || g->nunits != 27)
        return 0;
    for (u = 0; u < 9; u++)
        for (i = 0; i < 9; i++)
            if (g->unit[u * 9 + i] != u * 9 + i || g->unit[(9 + u) * 9 + i] != i * 9 + u ||
                g->unit[(18 + u) * 9 + i] != ((u / 3) * 3 + i / 3) * 9 + (u % 3) * 3 + i % 3)
                return 0;
    return 1;
}

#define GEO_ALLOC(ptr, count)                                                    \
    do {                                                                         \
        (ptr) = PyMem_RawCalloc((size_t)(count) + 1, sizeof(*(ptr)));            \
        if ((ptr) == NULL)                                                       \
            goto nomem;                                                          \
    } while (0)

/* Build a Geo from n and the units (nunits * n cells, each checked by the
 * caller to lie in 0..n*n-1 and to be distinct within its unit). NULL with
 * MemoryError set. */
static int geo_constraints(Geo *g, const Extra *ex);

static Geo *
geo_build(int n, int nunits, const uint16_t *units, const Extra *ex)
{
    Geo *g = PyMem_RawCalloc(1, sizeof(Geo));
    int ncells = n * n, c, u, v, i, j, k, total;
    uint8_t *member = NULL; /* member[u * ncells + c]: cell c is in unit u */
    uint8_t *xadj = NULL;   /* xadj[c * ncells + p]: an extra differ pair */
    if (g == NULL)
        return (Geo *)PyErr_NoMemory();
    g->n = n;
    g->ncells = ncells;
    g->nunits = nunits;
    g->full = (1u << n) - 1;
    GEO_ALLOC(g->unit, nunits * n);
    memcpy(g->unit, units, sizeof(uint16_t) * (size_t)(nunits * n));
    GEO_ALLOC(member, nunits * ncells);
    for (u = 0; u < nunits; u++)
        for (i = 0; i < n; i++)
            member[u * ncells + units[u * n + i]] = 1;
    if (ex != NULL && (ex->ndiffer > 0 || ex->nsums > 0)) {
        const int32_t *r = ex->sums;
        GEO_ALLOC(xadj, ncells * ncells);
        for (i = 0; i < ex->ndiffer; i++) {
            xadj[ex->differ[2 * i] * ncells + ex->differ[2 * i + 1]] = 1;
            xadj[ex->differ[2 * i + 1] * ncells + ex->differ[2 * i]] = 1;
        }
        /* the cells of a distinct sum differ too */
        for (k = 0; k < ex->nsums; k++, r += 3 + 2 * r[0])
            if (r[2])
                for (i = 0; i < r[0]; i++)
                    for (j = 0; j < r[0]; j++)
                        if (i != j)
                            xadj[r[3 + i] * ncells + r[3 + j]] = 1;
    }
    /* each cell's units, then its peers (the other cells of its units, and
     * its extra differ pairs) */
    GEO_ALLOC(g->cu_start, ncells + 1);
    GEO_ALLOC(g->cu, nunits * n);
    for (c = 0, k = 0; c < ncells; c++) {
        g->cu_start[c] = (uint32_t)k;
        for (u = 0; u < nunits; u++)
            if (member[u * ncells + c])
                g->cu[k++] = (uint16_t)u;
    }
    g->cu_start[ncells] = (uint32_t)k;
    GEO_ALLOC(g->peer_start, ncells + 1);
    /* two passes (count, then fill), each marking a cell's peers in a row
     * of flags and reading them in ascending order */
    total = 0;
    for (k = 0, i = 0; i < 2; i++) {
        uint8_t row[MAXCELLS];
        if (i == 1)
            GEO_ALLOC(g->peer, total);
        for (c = 0; c < ncells; c++) {
            int p;
            if (xadj != NULL)
                memcpy(row, xadj + (size_t)c * ncells, (size_t)ncells);
            else
                memset(row, 0, (size_t)ncells);
            for (j = (int)g->cu_start[c]; j < (int)g->cu_start[c + 1]; j++)
                for (v = 0; v < n; v++)
                    row[units[g->cu[j] * n + v]] = 1;
            row[c] = 0;
            if (i == 1)
                g->peer_start[c] = (uint32_t)k;
            for (p = 0; p < ncells; p++)
                if (row[p]) {
                    if (i == 1)
                        g->peer[k++] = (uint16_t)p;
                    else
                        total++;
                }
        }
    }
    g->peer_start[ncells] = (uint32_t)k;
    /* intersections: pairs of units sharing two cells or more */
    {
        int ninter = 0, ncells_in = 0;
        for (u = 0; u < nunits; u++)
            for (v = u + 1; v < nunits; v++) {
                int common = 0;
                for (i = 0; i < n; i++)
                    common += member[v * ncells + units[u * n + i]];
                if (common >= 2) {
                    ninter++;
                    ncells_in += common;
                }
            }
        g->ninter = ninter;
        GEO_ALLOC(g->inter_start, ninter + 1);
        GEO_ALLOC(g->inter_cells, ncells_in);
        GEO_ALLOC(g->inter_unit, 2 * ninter);
        GEO_ALLOC(g->out_start, 2 * ninter + 1);
        GEO_ALLOC(g->out, 2 * ninter * n);
        k = 0;
        {
            int ic = 0, oc = 0;
            for (u = 0; u < nunits; u++)
                for (v = u + 1; v < nunits; v++) {
                    int common = 0, s;
                    for (i = 0; i < n; i++)
                        common += member[v * ncells + units[u * n + i]];
                    if (common < 2)
                        continue;
                    g->inter_start[k] = (uint32_t)ic;
                    for (i = 0; i < n; i++)
                        if (member[v * ncells + units[u * n + i]])
                            g->inter_cells[ic++] = units[u * n + i];
                    g->inter_unit[2 * k] = (uint16_t)u;
                    g->inter_unit[2 * k + 1] = (uint16_t)v;
                    for (s = 0; s < 2; s++) {
                        int a = s ? v : u, b = s ? u : v;
                        g->out_start[2 * k + s] = (uint32_t)oc;
                        for (i = 0; i < n; i++)
                            if (!member[b * ncells + units[a * n + i]])
                                g->out[oc++] = units[a * n + i];
                    }
                    k++;
                }
            g->inter_start[ninter] = (uint32_t)ic;
            g->out_start[2 * ninter] = (uint32_t)oc;
        }
    }
    /* families: each unit's intersections, greedily split into sets of
     * pairwise disjoint ones (classic: a box's row segments, then its
     * column segments) */
    {
        int ninter = g->ninter, nfam = 0, nside = 0, nrest = 0, f;
        int *fam_of = NULL; /* per side: its family, -1 before */
        uint8_t *used = NULL;
        fam_of = PyMem_RawMalloc(sizeof(int) * (size_t)(2 * ninter + 1));
        used = PyMem_RawCalloc((size_t)ncells + 1, 1);
        if (fam_of == NULL || used == NULL) {
            PyMem_RawFree(fam_of);
            PyMem_RawFree(used);
            goto nomem;
        }
        for (i = 0; i < 2 * ninter; i++)
            fam_of[i] = -1;
        /* pass 1: assign sides to families, unit by unit */
        for (u = 0; u < nunits; u++) {
            for (;;) {
                int any = 0;
                memset(used, 0, (size_t)ncells);
                for (i = 0; i < 2 * ninter; i++) {
                    int ok = 1;
                    uint32_t a;
                    if (fam_of[i] >= 0 || g->inter_unit[i] != u)
                        continue;
                    for (a = g->inter_start[i / 2]; a < g->inter_start[i / 2 + 1]; a++)
                        if (used[g->inter_cells[a]])
                            ok = 0;
                    if (!ok)
                        continue;
                    for (a = g->inter_start[i / 2]; a < g->inter_start[i / 2 + 1]; a++)
                        used[g->inter_cells[a]] = 1;
                    fam_of[i] = nfam;
                    any = 1;
                    nside++;
                }
                if (!any)
                    break;
                for (i = 0; i < n; i++)
                    nrest += !used[units[u * n + i]];
                nfam++;
            }
        }
        g->nfam = nfam;
        g->fam_start = PyMem_RawCalloc((size_t)nfam + 2, sizeof(uint32_t));
        g->fam_side = PyMem_RawCalloc((size_t)nside + 1, sizeof(uint32_t));
        g->rest_start = PyMem_RawCalloc((size_t)nfam + 2, sizeof(uint32_t));
        g->rest = PyMem_RawCalloc((size_t)nrest + 1, sizeof(uint16_t));
        if (g->fam_start == NULL || g->fam_side == NULL || g->rest_start == NULL || g->rest == NULL) {
            PyMem_RawFree(fam_of);
            PyMem_RawFree(used);
            goto nomem;
        }
        /* pass 2: lay the families out in order */
        for (f = 0, k = 0, j = 0; f < nfam; f++) {
            int unit = -1;
            g->fam_start[f] = (uint32_t)k;
            g->rest_start[f] = (uint32_t)j;
            memset(used, 0, (size_t)ncells);
            for (i = 0; i < 2 * ninter; i++)
                if (fam_of[i] == f) {
                    uint32_t a;
                    g->fam_side[k++] = (uint32_t)i;
                    unit = g->inter_unit[i];
                    for (a = g->inter_start[i / 2]; a < g->inter_start[i / 2 + 1]; a++)
                        used[g->inter_cells[a]] = 1;
                }
            for (i = 0; i < n; i++)
                if (!used[units[unit * n + i]])
                    g->rest[j++] = units[unit * n + i];
        }
        g->fam_start[nfam] = (uint32_t)k;
        g->rest_start[nfam] = (uint32_t)j;
        PyMem_RawFree(fam_of);
        PyMem_RawFree(used);
    }
    PyMem_RawFree(member);
    PyMem_RawFree(xadj);
    member = xadj = NULL;
    g->units9 = geo_units9(g);
    g->peers9 = g->units9 && g->peer_start[ncells] == 81 * 20; /* no peer beyond the units' */
    if (ex != NULL && !geo_constraints(g, ex))
        goto nomem;
    g->classic9 = !g->constrained && geo_is_classic9(g);
    g->mask9 = g->mask9 && geo_is_classic9(g);
    return g;
nomem:
    PyMem_RawFree(member);
    PyMem_RawFree(xadj);
    geo_free(g);
    return (Geo *)PyErr_NoMemory();
}

/* A Geo with the units of base (a prepared geometry: its units, peers,
 * intersections and families copied, not derived again) and the constraint
 * kinds ex, which must add no peer (no differ pairs, no distinct sum): what
 * geo_build makes of base's units and ex, at a fraction of its cost (a
 * puzzle with marks is a geometry of its own on the classic units). With
 * share, those arrays are base's own, not copied (Geo.shared): the new Geo
 * must not outlive base (the marks line's is freed within the call that
 * holds base; prepare(like=)'s capsule holds a reference to base's as its
 * context; eleventh session: 14 allocations and 8 KB copied less a request).
 * NULL with MemoryError set. */
static Geo *
geo_build_like(const Geo *b, const Extra *ex, int share)
{
    Geo *g = PyMem_RawCalloc(1, sizeof(Geo));
    int n = b->n, ncells = b->ncells;
    if (g == NULL)
        return (Geo *)PyErr_NoMemory();
    g->n = n;
    g->ncells = ncells;
    g->nunits = b->nunits;
    g->full = b->full;
    g->ninter = b->ninter;
    g->nfam = b->nfam;
    g->units9 = b->units9;
    g->peers9 = b->peers9;
    if (share) {
        g->shared = 1;
        g->unit = b->unit;
        g->cu_start = b->cu_start;
        g->cu = b->cu;
        g->peer_start = b->peer_start;
        g->peer = b->peer;
        g->inter_start = b->inter_start;
        g->inter_cells = b->inter_cells;
        g->inter_unit = b->inter_unit;
        g->out_start = b->out_start;
        g->out = b->out;
        g->fam_start = b->fam_start;
        g->fam_side = b->fam_side;
        g->rest_start = b->rest_start;
        g->rest = b->rest;
    } else {
#define GEO_COPY(field, count)                                                   \
    do {                                                                         \
        GEO_ALLOC(g->field, count);                                              \
        memcpy(g->field, b->field, sizeof(*g->field) * (size_t)(count));         \
    } while (0)
        GEO_COPY(unit, b->nunits * n);
        GEO_COPY(cu_start, ncells + 1);
        GEO_COPY(cu, b->nunits * n);
        GEO_COPY(peer_start, ncells + 1);
        GEO_COPY(peer, b->peer_start[ncells]);
        GEO_COPY(inter_start, b->ninter + 1);
        GEO_COPY(inter_cells, b->inter_start[b->ninter]);
        GEO_COPY(inter_unit, 2 * b->ninter);
        GEO_COPY(out_start, 2 * b->ninter + 1);
        GEO_COPY(out, 2 * b->ninter * n);
        GEO_COPY(fam_start, b->nfam + 1);
        GEO_COPY(fam_side, b->fam_start[b->nfam]);
        GEO_COPY(rest_start, b->nfam + 1);
        GEO_COPY(rest, b->rest_start[b->nfam]);
#undef GEO_COPY
    }
    if (geo_constraints(g, ex)) {
        g->classic9 = !g->constrained && g->units9;
        g->mask9 = g->mask9 && g->units9;
        return g;
    }
nomem:
    geo_free(g);
    return (Geo *)PyErr_NoMemory();
}
