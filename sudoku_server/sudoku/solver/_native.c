/* sudoku_server.sudoku.solver._native: the native solver core.
 *
 * The same contract as the pure-Python core (sudoku_server/sudoku/solver/_python.py;
 * the dispatcher and its documentation are in solver/__init__.py): the
 * row-major-first solution, some solution, or the number of solutions up to
 * a limit, for any geometry of up to 25 digits per unit given as a LIST OF
 * UNITS (sudoku_server/sudoku/geometry.py). Plain values in, codes out:
 *
 *   prepare(size, units, classic9[, constraints]) -> geometry   once per
 *       geometry: the units as a flat array of 16-bit cells, and a variant's
 *       constraints as flat arrays (differ pairs, nonconsecutive pairs,
 *       cell -> cage and cage totals, candidate masks); peers, each cell's
 *       units and the intersections of units are computed here and kept in
 *       a capsule.
 *   solve(cells, geometry[, check]) -> tuple of ints, or NONE / INVALID
 *   solve_any(...), count_solutions(cells, geometry, limit[, check]),
 *   verify(puzzle, solution, geometry) -> bool
 *
 * The Python side words the errors and builds the Grid; nothing here calls
 * into Python except check(). Input is checked again here and no length or
 * value is trusted. Written for this project.
 *
 * One file (with its three headers) because CPython builds one extension from
 * it and its parts share the per-call context (the lock, check(), the
 * clock) and the Branch type; the 9x9 engine is in _native_9x9.h, the
 * search drivers, written once for both engines, in _native_search.h, and
 * the variant constraints of the general engine in _native_variants.h.
 *
 * Two engines share one search driver (_native_search.h, included once per
 * engine):
 *
 *   e9  (_native_9x9.h) the classic 9x9 only (chosen by prepare's classic9, for the key
 *       ("classic", 3, 3), after checking the units are the classic ones).
 *       Digit-major bitboards: for each digit and band (three rows)
 *       a 27-bit mask of the cells where the digit is still possible. Within
 *       a band a digit takes one cell in each row and one in each box, so
 *       its three rows and three boxes form a permutation: a 512-entry table
 *       maps the nine row-box segments still open to those that lie on some
 *       permutation (this one lookup is hidden singles in rows and boxes,
 *       pointing and claiming, and more). The same table is applied to the
 *       bands and columns of each stack. Naked singles come from counting
 *       candidates per cell across the nine digit masks. In the search, the
 *       three digits of each minirow and minicolumn (tdoku's "triads"):
 *       exactly three possible puts them there, three forced leave no room
 *       for others (e9_triads, on the digits' segment matrices, which each
 *       state keeps). Branches: a digit with the fewest permutations left
 *       in the band or stack with the fewest (the "configurations" tdoku
 *       branches on); else a two-candidate cell with the most open peers;
 *       else a digit with two places in a row or column.
 *   eg  every geometry, from its units only. Cell-major: a 32-bit candidate
 *       mask per cell; naked singles through the peer lists, hidden singles
 *       per unit, locked candidates for every pair of units sharing two
 *       cells or more (a digit confined to the intersection in one unit
 *       leaves the rest of the other: pointing and claiming in classic
 *       grids, and right for any unit set), and from 16x16 up all-different
 *       to arc consistency on every unit (a perfect matching of cells to
 *       digits, pruned by strongly connected components, after Regin, "A
 *       filtering algorithm for constraints of difference in CSPs", AAAI
 *       1994). Branches: a two-candidate cell with the most open cells in
 *       its units, else the fewest alternatives over cells and digits of
 *       units (the minimum-column rule of exact cover, Knuth's "Dancing
 *       Links"). Variant constraints (a geometry with any: never e9) are
 *       propagated by _native_variants.h once the units find nothing more.
 *
 * The row-major-first solution: the two interleaved searches of the Python
 * core (a branch and bound, and a row-major search under its bound). Some
 * solution (solve_any) on 16x16 and 25x25: a search restarted after a
 * growing number of nodes (Luby, Sinclair and Zuckerman's sequence) with
 * random tie-breaking, which cuts the heavy tail of these searches.
 *
 * The interpreter lock is released while the search runs (after
 * gil_hold_ns, 0 by default). check(), when given, is called with the lock
 * held once SEARCH_CHECK_NS of search have passed since the previous call
 * ended; the clock is read every 16 nodes on 9x9, every node and propagation
 * round on larger grids. Whatever check() raises ends the search and
 * propagates; check() may block for as long as it likes.
 *
 * Every buffer is of fixed size and belongs to one call (several threads
 * may search at once; the tables built at import and the prepared
 * geometries are read-only, and a geometry lives as long as its capsule): the 9x9
 * search stacks live on the C stack (about 92 KiB in all), the general
 * engine's are allocated once per call (ncells + 2 frames per stack, about
 * 1.6 MiB each for 25x25).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define MAXN 25
#define MAXCELLS (MAXN * MAXN)

/* Nodes of the constraint-led search per node of the row-major search while
 * at most one solution is known (_python.py, _TURNS). */
#ifndef SEARCH_TURNS
#define SEARCH_TURNS 8
#endif

/* solve_any on 16x16 and 25x25: nodes of the first run, times Luby's
 * sequence for the following ones (a 25x25 node takes tens of
 * microseconds). */
#define RESTART_NODES 100
/* Restarts of solve_any before the last run, which has no budget (so that
 * "none" is a proof); restarts cut the heavy tail of this search: measured
 * on 25x25 grids with 40% of a solution kept, from > 10 s to < 0.1 s. */
#define ANY_RESTART_RUNS 1000000L

/* Grids with at least this many digits per unit apply all-different to arc
 * consistency (eg_alldiff) once the cheaper rules find nothing more:
 * measured, it makes a 16x16 or 25x25 search 1.5x-10x faster in spite of
 * its cost per node (about 3x). */
#ifndef ALLDIFF_FROM
#define ALLDIFF_FROM 16
#endif

/* Longest search between two check() calls, in nanoseconds: 0.5 ms, half
 * the contract's millisecond, so that the clock granularity below and a
 * slow node still fit. */
#define SEARCH_CHECK_NS 500000LL

#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctz(x)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
static int CTZ(uint32_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

static uint8_t POP9[512];    /* popcount of 9 bits */
static uint64_t SPREAD9[512]; /* 9 bits -> one 4-bit lane each */

static int
popcount32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

/* ------------------------------------------------------------------ */
/* Geometry: cells plus a list of units (prepared once per geometry by   */
/* prepare(), read-only afterwards, freed with its capsule)             */

/* Units of one geometry at most (classic grids have 3n: 75 for 25x25;
 * variants add a few: diagonals, windows, regions). */
#define MAXUNITS 256

typedef struct {
    int n, ncells, nunits;
    int classic9; /* the classic 9x9 rows, columns and boxes: the e9 engine */
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
    /* Variant constraints (_native_variants.h; none for a geometry of units
     * only). Extra "differ" pairs (anti-knight, anti-king, the cells of a
     * cage) are in the peer lists above. */
    int constrained;       /* any of the below */
    int nnc;               /* nonconsecutive pairs */
    uint16_t *nc_pair;     /* 2 * nnc cells */
    int ncages;
    uint32_t *cage_start;  /* ncages + 1 into cage_cells */
    uint16_t *cage_cells;  /* each cage's cells, ascending */
    int *cage_total;       /* ncages */
    uint8_t *cage_combos;  /* ncages: 1 when its digit sets are listed, 0: bounds only */
    uint32_t *combo_start; /* ncages + 1 into combo */
    uint32_t *combo;       /* each cage's sets of distinct digits of its size and sum */
    int16_t *cage_of;      /* ncells: a cell's cage or -1 */
    uint32_t *cu_cage_start; /* ncages + 1 into cu_cage */
    uint16_t *cu_cage;     /* the units each cage lies in */
    uint32_t *cand;        /* ncells initial candidates (pencilmarks), or NULL */
    /* Grids of up to 128 cells with constraints: per cell, 2 words of cell
     * bits: its peers (pbits), and itself with its nonconsecutive
     * neighbours (nbits, NULL without that rule). */
    uint64_t *pbits, *nbits;
} Geo;

/* The variant constraints prepare() reads (arrays checked by the caller). */
typedef struct {
    const uint16_t *differ; /* 2 * ndiffer cells: pairs that must differ */
    int ndiffer;
    const uint16_t *nc; /* 2 * nnc cells: pairs that are not consecutive */
    int nnc;
    const int16_t *cage_of; /* ncells: a cell's cage, -1 none; NULL: no cages */
    const uint16_t *totals; /* ncages */
    int ncages;
    const uint32_t *cand; /* ncells candidate masks, or NULL */
} Extra;

static void
geo_free(Geo *g)
{
    if (g == NULL)
        return;
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
    PyMem_RawFree(g->nc_pair);
    PyMem_RawFree(g->cage_start);
    PyMem_RawFree(g->cage_cells);
    PyMem_RawFree(g->cage_total);
    PyMem_RawFree(g->cage_combos);
    PyMem_RawFree(g->combo_start);
    PyMem_RawFree(g->combo);
    PyMem_RawFree(g->cand);
    PyMem_RawFree(g->cage_of);
    PyMem_RawFree(g->cu_cage_start);
    PyMem_RawFree(g->cu_cage);
    PyMem_RawFree(g->pbits);
    PyMem_RawFree(g->nbits);
    PyMem_RawFree(g);
}

/* Is the unit list exactly classic(3, 3)'s: rows, columns, boxes, in order? */
static int
geo_is_classic9(const Geo *g)
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
    if (ex != NULL && ex->ndiffer > 0) {
        GEO_ALLOC(xadj, ncells * ncells);
        for (i = 0; i < ex->ndiffer; i++) {
            xadj[ex->differ[2 * i] * ncells + ex->differ[2 * i + 1]] = 1;
            xadj[ex->differ[2 * i + 1] * ncells + ex->differ[2 * i]] = 1;
        }
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
    total = 0;
    for (c = 0; c < ncells; c++) {
        int p;
        for (p = 0; p < ncells; p++) {
            if (p == c)
                continue;
            if (xadj != NULL && xadj[c * ncells + p]) {
                total++;
                continue;
            }
            for (j = (int)g->cu_start[c]; j < (int)g->cu_start[c + 1]; j++)
                if (member[g->cu[j] * ncells + p]) {
                    total++;
                    break;
                }
        }
    }
    GEO_ALLOC(g->peer, total);
    for (c = 0, k = 0; c < ncells; c++) {
        int p;
        g->peer_start[c] = (uint32_t)k;
        for (p = 0; p < ncells; p++) {
            if (p == c)
                continue;
            if (xadj != NULL && xadj[c * ncells + p]) {
                g->peer[k++] = (uint16_t)p;
                continue;
            }
            for (j = (int)g->cu_start[c]; j < (int)g->cu_start[c + 1]; j++)
                if (member[g->cu[j] * ncells + p]) {
                    g->peer[k++] = (uint16_t)p;
                    break;
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
    if (ex != NULL && !geo_constraints(g, ex))
        goto nomem;
    g->classic9 = !g->constrained && geo_is_classic9(g);
    return g;
nomem:
    PyMem_RawFree(member);
    PyMem_RawFree(xadj);
    geo_free(g);
    return (Geo *)PyErr_NoMemory();
}

/* ------------------------------------------------------------------ */
/* Per-call context: the stop hook, the lock, scratch for the engines    */

typedef struct {
    PyObject *check;       /* NULL: no hook */
    PyThreadState *tstate; /* saved while the interpreter lock is released (else NULL) */
    int failed;            /* check() raised: its exception is set, the lock held */
    int released_once;     /* the lock was released after gil_hold_ns */
    int batch;             /* solve_lines: run9 leaves the lock released at its end */
    int64_t start_ns;      /* when the search began */
    int64_t last_ns;       /* when the previous check() returned (or the search began) */
    unsigned ticks, every; /* read the clock every `every` ticks */
    long nodes;
    long budget;     /* nodes left in this restart (solve_any on large grids); <0: none */
    uint64_t rng;    /* xorshift state for tie-breaking; 0: first of equals */
    const Geo *geo;
    /* engine scratch, used between an assign and its propagate */
    uint32_t dirty; /* e9: digits whose masks changed */
    int qn;         /* eg: queued singles */
    uint16_t queue[MAXCELLS + 1];
} Ctx;

static int64_t
mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* How long a search runs before it releases the interpreter lock, in
 * nanoseconds (set_gil_hold(); 0: at once, the default). Keeping it for a
 * short solve saves handing the lock to another thread and taking it back
 * (a thread wake-up: tens of microseconds on a loaded machine, more than an
 * easy 9x9 solve), but keeps other threads waiting meanwhile; measured with
 * two threads on top1465 and forum hardest 1106, 0 did best. */
static int64_t gil_hold_ns = 0;

static void
gil_release(Ctx *x)
{
    if (x->tstate == NULL && !x->failed)
        x->tstate = PyEval_SaveThread();
}

static void
gil_acquire(Ctx *x)
{
    if (x->tstate != NULL) {
        PyEval_RestoreThread(x->tstate);
        x->tstate = NULL;
    }
}

/* Call check() with the interpreter lock held; -1 (exception set, lock
 * held) when it raised. */
static int
call_check(Ctx *x)
{
    PyObject *r;
    int released = x->tstate != NULL;
    gil_acquire(x);
    r = PyObject_CallNoArgs(x->check);
    if (r == NULL) {
        x->failed = 1;
        return -1;
    }
    Py_DECREF(r);
    if (released)
        gil_release(x);
    x->last_ns = mono_ns();
    return 0;
}

/* A unit of search work: every few, look at the clock; past the hold time,
 * release the lock; past the check interval, call check(). 0 to go on, -1
 * when check() raised. */
static inline int
tick(Ctx *x)
{
    int64_t now;
    if (++x->ticks < x->every)
        return 0;
    x->ticks = 0;
    if (x->check == NULL && x->released_once)
        return 0;
    now = mono_ns();
    if (x->tstate == NULL && !x->released_once && now - x->start_ns >= gil_hold_ns) {
        gil_release(x);
        x->released_once = 1;
    }
    if (x->check == NULL || now - x->last_ns < SEARCH_CHECK_NS)
        return 0;
    return call_check(x);
}

/* Outcome of one step of a search (_native_search.h). */
enum { STEP_NODE = 0, STEP_SOLVED = 1, STEP_EMPTY = 2, STEP_ERROR = -1 };

static inline uint32_t
next_random(Ctx *x)
{
    uint64_t v = x->rng;
    v ^= v << 13;
    v ^= v >> 7;
    v ^= v << 17;
    x->rng = v;
    return (uint32_t)(v >> 32);
}

/* Among equals seen so far (ties of them, this one included), take this one? */
static inline int
take_tie(Ctx *x, int ties)
{
    return x->rng != 0 && next_random(x) % (uint32_t)ties == 0;
}

/* A search branch: mutually exclusive alternatives, each placing one digit. */
typedef struct {
    uint8_t count, next;
    uint8_t kind, where; /* BRANCH_*; e9 configurations: the band or stack */
    uint16_t cell[MAXN]; /* BRANCH_CELLS: the cell; e9 configurations: the segments kept */
    uint8_t digit[MAXN];
} Branch;

enum { BRANCH_CELLS = 0, BRANCH_BAND = 1, BRANCH_STACK = 2 };

/* ================================================================== */
/* e9: the 9x9 engine (_native_9x9.h)                                   */

#include "_native_9x9.h"

/* ================================================================== */
/* eg: the general engine (every size up to 25x25)                      */

typedef struct {
    uint32_t c[MAXCELLS];
} SG;

typedef struct {
    uint8_t best[MAXCELLS];
} BG;

static inline int
eg_single(uint32_t m)
{
    return !(m & (m - 1));
}

static int eg_assign(Ctx *x, SG *s, int cell, int digit);

static int
eg_apply(Ctx *x, SG *s, const Branch *br, int k)
{
    return eg_assign(x, s, br->cell[k], br->digit[k]);
}

static int
eg_assign(Ctx *x, SG *s, int cell, int digit)
{
    uint32_t bit = 1u << (digit - 1);
    if (!(s->c[cell] & bit))
        return 0;
    s->c[cell] = bit;
    x->queue[x->qn++] = (uint16_t)cell;
    return 1;
}

/* Remove the mask m from cell p; 0 when p is left empty. */
static inline int
eg_remove(Ctx *x, SG *s, int p, uint32_t m, int *found)
{
    uint32_t v = s->c[p];
    if (v & m) {
        v &= ~m;
        if (!v)
            return 0;
        s->c[p] = v;
        if (eg_single(v))
            x->queue[x->qn++] = (uint16_t)p;
        *found = 1;
    }
    return 1;
}

/* The variant constraints (nonconsecutive pairs, killer cages, pencilmarks). */
#include "_native_variants.h"

/* Intersections whose digits eg_locked computes once per call (each is in
 * two families); more than this (no classic grid has 256) are computed per
 * family. */
#define LOCKED_SHARED 512

/* Locked candidates, for every pair of units sharing two cells or more (in
 * classic grids: pointing and claiming): a digit whose places in one unit
 * all lie in the intersection leaves the rest of the other unit. Per family
 * (a unit's pairwise disjoint intersections, Geo): the digits found in one
 * intersection only and not in the rest of the unit. 0 on a contradiction;
 * *found when a candidate went. */
static int
eg_locked(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    int f, k, shared = g->ninter <= LOCKED_SHARED;
    uint32_t seg[LOCKED_SHARED]; /* each intersection's digits, when they fit */
    if (shared)
        for (k = 0; k < g->ninter; k++) {
            uint32_t v = 0, b;
            for (b = g->inter_start[k]; b < g->inter_start[k + 1]; b++)
                v |= s->c[g->inter_cells[b]];
            seg[k] = v;
        }
    for (f = 0; f < g->nfam; f++) {
        uint32_t once = 0, twice = 0, rest = 0, only, m[MAXN], a, b;
        k = 0;
        for (a = g->rest_start[f]; a < g->rest_start[f + 1]; a++)
            rest |= s->c[g->rest[a]];
        for (a = g->fam_start[f]; a < g->fam_start[f + 1]; a++, k++) {
            uint32_t inter = g->fam_side[a] / 2, v = 0;
            if (shared)
                v = seg[inter];
            else
                for (b = g->inter_start[inter]; b < g->inter_start[inter + 1]; b++)
                    v |= s->c[g->inter_cells[b]];
            m[k] = v;
            twice |= once & v;
            once |= v;
        }
        only = once & ~twice & ~rest;
        if (!only)
            continue;
        for (a = g->fam_start[f], k = 0; a < g->fam_start[f + 1]; a++, k++) {
            uint32_t r = m[k] & only, other = g->fam_side[a] ^ 1;
            if (!r)
                continue;
            for (b = g->out_start[other]; b < g->out_start[other + 1]; b++)
                if (!eg_remove(x, s, g->out[b], r, found))
                    return 0;
        }
    }
    return 1;
}

/* Augment the matching of a unit's cells to digits from cell i (Kuhn's
 * augmenting paths, with the digits seen on this path in *seen). */
static int
eg_augment(const uint32_t *m, int i, uint32_t *seen, int8_t *cell_of, int8_t *digit_of)
{
    uint32_t free = m[i] & ~*seen;
    while (free) {
        int d = CTZ(free);
        free &= free - 1;
        *seen |= 1u << d;
        if (cell_of[d] < 0 || eg_augment(m, cell_of[d], seen, cell_of, digit_of)) {
            cell_of[d] = (int8_t)i;
            digit_of[i] = (int8_t)d;
            return 1;
        }
    }
    return 0;
}

/* All-different on every unit, to arc consistency (Regin's filtering):
 * a unit's cells need distinct digits, so there must be a perfect matching
 * of its cells to its digits (none: some k cells have fewer than k digits
 * between them, a contradiction), and a digit stays at a cell only if some
 * perfect matching uses it: if it is the cell's matched digit, or if the
 * cell and the digit's matched cell lie on one alternating cycle, i.e. in
 * one strongly connected component of the graph "cell i -> the cell matched
 * to a digit i could take instead". This covers naked and hidden subsets of
 * every size. 0 on a contradiction; *found when a candidate went. */
static int
eg_alldiff(Ctx *x, SG *s, int *found, uint32_t *seen_sig)
{
    const Geo *g = x->geo;
    int n = g->n, u, i;
    for (u = 0; u < g->nunits; u++) {
        uint32_t m[MAXN], reach[MAXN], taken = 0, sig = 0x9E3779B9u;
        int8_t cell_of[MAXN], digit_of[MAXN];
        uint16_t at[MAXN]; /* the unit's open cells */
        int open = 0, single = 0;
        const uint16_t *cells = g->unit + u * n;
        for (i = 0; i < n; i++) {
            uint32_t v = s->c[cells[i]];
            sig = (sig ^ v) * 0x01000193u;
            if (!eg_single(v)) {
                at[open] = cells[i];
                m[open++] = v;
            }
        }
        /* nothing changed in this unit since it was last filtered */
        if (open < 2 || seen_sig[u] == (sig | 1))
            continue;
        memset(cell_of, -1, sizeof cell_of);
        for (i = 0; i < open; i++) {
            uint32_t free = m[i] & ~taken; /* greedy start */
            digit_of[i] = -1;
            if (free) {
                int d = CTZ(free);
                taken |= 1u << d;
                cell_of[d] = (int8_t)i;
                digit_of[i] = (int8_t)d;
            }
        }
        for (i = 0; i < open; i++) {
            uint32_t seen = 0;
            if (digit_of[i] < 0 && !eg_augment(m, i, &seen, cell_of, digit_of))
                return 0;
        }
        /* the graph on open cells: i -> the cell matched to a digit i could
         * take instead; its strongly connected components, each as the
         * forward and backward reach of a pivot (bit sets, a few steps) */
        {
            uint32_t fwd[MAXN], bwd[MAXN], left = (open == 32) ? ~0u : ((1u << open) - 1);
            memset(bwd, 0, sizeof(uint32_t) * (size_t)open);
            for (i = 0; i < open; i++) {
                uint32_t other = m[i] & ~(1u << digit_of[i]), r = 0;
                while (other) {
                    int j = cell_of[CTZ(other)];
                    r |= 1u << j;
                    bwd[j] |= 1u << i;
                    other &= other - 1;
                }
                fwd[i] = r;
            }
            while (left) {
                int p = CTZ(left);
                uint32_t f = 1u << p, b = f, nf = f, nb = b, comp, keep = 0, c;
                while (nf) {
                    uint32_t step = 0, t = nf;
                    while (t) {
                        step |= fwd[CTZ(t)];
                        t &= t - 1;
                    }
                    nf = step & left & ~f;
                    f |= nf;
                }
                while (nb) {
                    uint32_t step = 0, t = nb;
                    while (t) {
                        step |= bwd[CTZ(t)];
                        t &= t - 1;
                    }
                    nb = step & left & ~b;
                    b |= nb;
                }
                comp = f & b;
                left &= ~comp;
                for (c = comp; c; c &= c - 1)
                    keep |= 1u << digit_of[CTZ(c)];
                for (c = comp; c; c &= c - 1)
                    reach[CTZ(c)] = keep; /* the digits i may keep */
            }
        }
        for (i = 0; i < open; i++) {
            uint32_t keep = reach[i], v;
            v = m[i] & keep;
            if (v != m[i]) {
                s->c[at[i]] = v;
                if (eg_single(v)) {
                    x->queue[x->qn++] = at[i];
                    single = 1;
                }
                *found = 1;
                sig = 0; /* changed: filter again next time */
            }
        }
        seen_sig[u] = sig | 1;
        /* a new single's digit is still among its peers' candidates: the
         * other units' matchings would not be perfect until it is removed */
        if (single)
            return 1;
    }
    return 1;
}

static int
eg_propagate(Ctx *x, SG *s)
{
    const Geo *g = x->geo;
    int n = g->n, nunits = g->nunits, u, i;
    uint32_t full = g->full, seen_sig[MAXUNITS];
    memset(seen_sig, 0, sizeof(uint32_t) * (size_t)nunits);
    for (;;) {
        int found = 0;
        while (x->qn) {
            int cell = x->queue[--x->qn];
            uint32_t v = s->c[cell];
            const uint16_t *p = g->peer + g->peer_start[cell];
            int npeers = (int)(g->peer_start[cell + 1] - g->peer_start[cell]);
            for (i = 0; i < npeers; i++) {
                uint32_t m = s->c[p[i]];
                if (m & v) {
                    m ^= v;
                    if (!m) {
                        x->qn = 0;
                        return 0;
                    }
                    s->c[p[i]] = m;
                    if (eg_single(m))
                        x->queue[x->qn++] = p[i];
                }
            }
        }
        if (n >= 16 && tick(x) < 0)
            return -1;
        /* hidden singles; a digit with no place in a unit is a contradiction */
        for (u = 0; u < nunits; u++) {
            const uint16_t *cells = g->unit + u * n;
            uint32_t once = 0, twice = 0, only;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]];
                twice |= once & m;
                once |= m;
            }
            if (once != full)
                goto fail;
            only = once & ~twice;
            if (!only)
                continue;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]], h = m & only;
                if (h && h != m) {
                    if (!eg_single(h))
                        goto fail;
                    s->c[cells[i]] = h;
                    x->queue[x->qn++] = cells[i];
                    found = 1;
                }
            }
        }
        if (found)
            continue;
        if (g->constrained && !ev_propagate(x, s, &found))
            goto fail;
        if (found)
            continue;
        if (!eg_locked(x, s, &found))
            goto fail;
        if (!found && n >= ALLDIFF_FROM && !eg_alldiff(x, s, &found, seen_sig))
            goto fail;
        if (!found)
            return 1;
    }
fail:
    x->qn = 0;
    return 0;
}

static int
eg_cell_branch(const Geo *g, const SG *s, int cell, Branch *br)
{
    uint32_t m = s->c[cell];
    int k = 0;
    (void)g;
    while (m) {
        br->cell[k] = (uint16_t)cell;
        br->digit[k] = (uint8_t)(CTZ(m) + 1);
        m &= m - 1;
        k++;
    }
    br->count = (uint8_t)k;
    br->next = 0;
    br->kind = BRANCH_CELLS;
    return 1;
}

/* As e9_choose: a two-candidate cell with the most open peers (approximated
 * by the open cells of its units); else the fewest alternatives over
 * cells and digits of units, ties to cells. 0 when solved. */
static int
eg_choose(Ctx *x, const SG *s, Branch *br)
{
    const Geo *g = x->geo;
    int n = g->n, ncells = g->ncells, nunits = g->nunits, c, u, i;
    int open[MAXUNITS];
    uint32_t j;
    int best = -1, at = -1, fewest = MAXN + 1, ties = 0;
    memset(open, 0, sizeof(int) * (size_t)nunits);
    for (c = 0; c < ncells; c++)
        if (!eg_single(s->c[c]))
            for (j = g->cu_start[c]; j < g->cu_start[c + 1]; j++)
                open[g->cu[j]]++;
    for (c = 0; c < ncells; c++) {
        uint32_t m = s->c[c];
        if (eg_single(m))
            continue;
        if (!((m & (m - 1)) & ((m & (m - 1)) - 1))) {
            int deg = 0;
            for (j = g->cu_start[c]; j < g->cu_start[c + 1]; j++)
                deg += open[g->cu[j]];
            if (deg > best) {
                best = deg;
                at = c;
                ties = 1;
            } else if (deg == best && take_tie(x, ++ties)) {
                at = c;
            }
        } else if (best < 0) {
            int k = popcount32(m);
            if (k < fewest) {
                fewest = k;
                at = c;
                ties = 1;
            } else if (k == fewest && take_tie(x, ++ties)) {
                at = c;
            }
        }
    }
    if (at < 0)
        return 0;
    if (best >= 0)
        return eg_cell_branch(g, s, at, br);
    /* no pair: a digit of a unit with fewer places than the fewest
     * candidates of a cell (the minimum-column choice of exact cover) */
    {
        int bu = -1, bd = -1, places = fewest, pairs = 0;
        for (u = 0; u < nunits && (places > 2 || x->rng); u++) {
            const uint16_t *cells = g->unit + u * n;
            uint32_t o1 = 0, o2 = 0, o3 = 0, o4 = 0, two, three;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]];
                o4 |= o3 & m;
                o3 |= o2 & m;
                o2 |= o1 & m;
                o1 |= m;
            }
            two = o2 & ~o3;
            three = o3 & ~o4;
            if (two) {
                /* the first pair, or (tie-breaking) any of them */
                if (places > 2 || take_tie(x, ++pairs)) {
                    bu = u;
                    bd = CTZ(two);
                }
                if (places > 2)
                    pairs = 1;
                places = 2;
            } else if (three && places > 3) {
                bu = u;
                bd = CTZ(three);
                places = 3;
            }
        }
        if (bu >= 0) {
            int k = 0;
            for (i = 0; i < n; i++) {
                int cell = g->unit[bu * n + i];
                if (s->c[cell] >> bd & 1) {
                    br->cell[k] = (uint16_t)cell;
                    br->digit[k] = (uint8_t)(bd + 1);
                    k++;
                }
            }
            br->count = (uint8_t)k;
            br->next = 0;
            br->kind = BRANCH_CELLS;
            return 1;
        }
    }
    return eg_cell_branch(g, s, at, br);
}

static int
eg_first_open(Ctx *x, const SG *s, Branch *br)
{
    int c, ncells = x->geo->ncells;
    for (c = 0; c < ncells; c++)
        if (!eg_single(s->c[c]))
            return eg_cell_branch(x->geo, s, c, br);
    return 0;
}

static void
eg_extract(Ctx *x, const SG *s, int *digits)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        digits[c] = CTZ(s->c[c]) + 1;
}

static void
eg_set_bound(Ctx *x, BG *bd, const SG *s)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        bd->best[c] = (uint8_t)(CTZ(s->c[c]) + 1);
}

static int
eg_cut(Ctx *x, const BG *bd, SG *s)
{
    int ncells = x->geo->ncells;
    for (;;) {
        int p, c, changed = 0, r;
        uint32_t keep;
        for (p = 0; p < ncells; p++)
            if (s->c[p] & ((1u << (bd->best[p] - 1)) - 1))
                break;
        if (p == ncells)
            return 0;
        for (c = 0; c < p; c++) {
            uint32_t eq = 1u << (bd->best[c] - 1);
            if (!(s->c[c] & eq)) {
                x->qn = 0;
                return 0;
            }
            if (s->c[c] != eq) {
                s->c[c] = eq;
                x->queue[x->qn++] = (uint16_t)c;
                changed = 1;
            }
        }
        keep = (2u << (bd->best[p] - 1)) - 1;
        if (s->c[p] & ~keep) {
            s->c[p] &= keep;
            if (eg_single(s->c[p]))
                x->queue[x->qn++] = (uint16_t)p;
            changed = 1;
        }
        if (!changed)
            return 1;
        r = eg_propagate(x, s);
        if (r <= 0)
            return r;
    }
}

#define ENG(name) eg_##name
#define STATE SG
#define BOUND BG
#include "_native_search.h"
#undef ENG
#undef STATE
#undef BOUND

/* ================================================================== */
/* The Python functions                                                 */

/* Search nodes of the last call in any thread (for benchmarks only). */
static long last_nodes;

enum { MODE_FIRST = 0, MODE_ANY = 1, MODE_COUNT = 2 };

/* Result codes below a solution. */
#define RESULT_NONE 0     /* no solution */
#define RESULT_INVALID -1 /* two givens share a unit */

/* The capsule name of a prepared geometry (prepare()). */
static const char GEO_CAPSULE[] = "sudoku_server.sudoku.solver._native.geometry";

/* The Geo of a capsule from prepare(); NULL with TypeError. */
static const Geo *
as_geo(PyObject *obj)
{
    if (!PyCapsule_CheckExact(obj)) {
        PyErr_SetString(PyExc_TypeError, "geometry must come from prepare()");
        return NULL;
    }
    return PyCapsule_GetPointer(obj, GEO_CAPSULE);
}

/* One cell value, 0..n; -1 with an exception. */
static inline long
cell_value(PyObject *v, int n)
{
    long d;
#if PY_VERSION_HEX < 0x030C0000
    /* an exact int of one digit (3.11 layout): the common case, inline */
    if (PyLong_CheckExact(v) && (Py_SIZE(v) == 0 || Py_SIZE(v) == 1)) {
        d = Py_SIZE(v) ? (long)((PyLongObject *)v)->ob_digit[0] : 0;
        if (d <= n)
            return d;
    }
#endif
    d = PyLong_AsLong(v);
    if (d == -1 && PyErr_Occurred())
        return -1;
    if (d < 0 || d > n) {
        PyErr_Format(PyExc_ValueError, "cell value %ld outside 0..%d", d, n);
        return -1;
    }
    return d;
}

/* Read cells (a sequence of n*n ints 0..n) into out. -1 with an exception. */
static int
read_cells(PyObject *cells, int n, int *out)
{
    PyObject *seq = PySequence_Fast(cells, "cells must be a sequence of ints");
    PyObject **items;
    Py_ssize_t len, i;
    if (seq == NULL)
        return -1;
    len = PySequence_Fast_GET_SIZE(seq);
    if (len != (Py_ssize_t)n * n) {
        PyErr_Format(PyExc_ValueError, "a %dx%d grid has %d cells, got %zd", n, n, n * n, len);
        Py_DECREF(seq);
        return -1;
    }
    items = PySequence_Fast_ITEMS(seq);
    for (i = 0; i < len; i++) {
        long v = cell_value(items[i], n);
        if (v < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* The ints 0..MAXN, made once at import (held for the life of the process):
 * a solution's tuple takes new references to them, without a call per cell. */
static PyObject *SMALL_INTS[MAXN + 1];

static PyObject *
digits_tuple(const int *digits, int ncells)
{
    PyObject *t = PyTuple_New(ncells);
    int i;
    if (t == NULL)
        return NULL;
    for (i = 0; i < ncells; i++) {
        PyObject *v;
        if (UNLIKELY((unsigned)digits[i] > MAXN)) {
            Py_DECREF(t);
            PyErr_SetString(PyExc_RuntimeError, "native solver: a cell outside 0..25 in a solution");
            return NULL;
        }
        v = SMALL_INTS[digits[i]];
        Py_INCREF(v);
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* Run one search with the interpreter lock released. Returns the count
 * (MODE_COUNT), or 1 / 0 (a solution in digits, or none), RESULT_INVALID,
 * or -2 when check() raised (exception set). */
static long
run9(Ctx *x, const int *cells, int mode, long limit, int *digits)
{
    S9 root, sol;
    e9_Frame fa[E9_FRAMES], fb[E9_FRAMES];
    long r;
    int i;

    {
        /* the givens: each removes its digit from its peers (a given whose
         * digit is already gone shares a unit with an earlier one), then
         * every other digit from the given cells */
        uint32_t given[27], all[3] = {0, 0, 0};
        int d, b;
        e9_init(&root);
        memset(given, 0, sizeof given);
        for (i = 0; i < 81; i++) {
            int bit = i % 27;
            uint32_t col = 0x40201u << (bit % 9), *F;
            if (!cells[i])
                continue;
            b = i / 27;
            d = cells[i] - 1;
            F = &root.F[3 * d];
            if (!(F[b] >> bit & 1))
                return RESULT_INVALID;
            F[0] &= b == 0 ? ~PEERS9[bit] : ~col;
            F[1] &= b == 1 ? ~PEERS9[bit] : ~col;
            F[2] &= b == 2 ? ~PEERS9[bit] : ~col;
            given[3 * d + b] |= 1u << bit;
            all[b] |= 1u << bit;
        }
        for (d = 0; d < 9; d++)
            for (b = 0; b < 3; b++)
                root.F[3 * d + b] &= ~(all[b] & ~given[3 * d + b]);
        for (b = 0; b < 3; b++)
            root.U[b] &= ~all[b];
    }
    x->dirty = 0x1FF;
    x->start_ns = x->last_ns = mono_ns();
    if (gil_hold_ns <= 0) {
        gil_release(x);
        x->released_once = 1;
    }
    if (!e9_propagate_(x, &root, 0)) {
        r = 0;
    } else {
        if (root.U[0] | root.U[1] | root.U[2])
            e9_matrices(&root); /* a search follows: it reads them */
        if (mode == MODE_FIRST)
            r = e9_first(x, &root, fa, fb, &sol);
        else
            r = mode == MODE_ANY ? e9_any(x, &root, fa, &sol, 0, 0) : e9_count(x, &root, fa, limit, &sol, -1);
    }
    if (!x->batch)
        gil_acquire(x);
    if (x->failed || r < 0)
        return -2; /* check() raised */
    if (r > 0 && mode != MODE_COUNT)
        e9_extract(x, &sol, digits);
    return r;
}

static long
rung(Ctx *x, const int *cells, int mode, long limit, int *digits)
{
    const Geo *g = x->geo;
    SG *root, *sol;
    eg_Frame *fa, *fb;
    long r;
    int i, nframes = g->ncells + 2;

    root = PyMem_RawMalloc(sizeof(SG) * 2);
    fa = PyMem_RawMalloc(sizeof(eg_Frame) * (size_t)nframes * (mode == MODE_FIRST ? 2 : 1));
    if (root == NULL || fa == NULL) {
        PyMem_RawFree(root);
        PyMem_RawFree(fa);
        PyErr_NoMemory();
        return -2;
    }
    fb = fa + nframes;
    sol = root + 1;
    for (i = 0; i < g->ncells; i++)
        root->c[i] = g->full;
    x->qn = 0;
    for (i = 0; i < g->ncells; i++) {
        if (!cells[i])
            continue;
        /* a given removed by an earlier one: two share a unit */
        if (!eg_assign(x, root, i, cells[i])) {
            PyMem_RawFree(root);
            PyMem_RawFree(fa);
            return RESULT_INVALID;
        }
        /* remove it from its peers now, so that a later duplicate is seen */
        {
            const uint16_t *p = g->peer + g->peer_start[i];
            int j, npeers = (int)(g->peer_start[i + 1] - g->peer_start[i]);
            uint32_t bit = 1u << (cells[i] - 1);
            x->qn--;
            for (j = 0; j < npeers; j++)
                root->c[p[j]] &= ~bit;
        }
    }
    if (g->constrained && ev_givens_break(g, cells)) {
        PyMem_RawFree(root);
        PyMem_RawFree(fa);
        return RESULT_INVALID;
    }
    if (g->cand != NULL) /* pencilmarks: every cell keeps to its candidates (a given too) */
        for (i = 0; i < g->ncells; i++)
            root->c[i] &= g->cand[i];
    x->qn = 0;
    for (i = 0; i < g->ncells; i++)
        if (eg_single(root->c[i]))
            x->queue[x->qn++] = (uint16_t)i;
    x->start_ns = x->last_ns = mono_ns();
    if (gil_hold_ns <= 0) {
        gil_release(x);
        x->released_once = 1;
    }
    r = 1;
    for (i = 0; i < g->ncells; i++)
        if (!root->c[i])
            r = 0;
    if (r)
        r = eg_propagate(x, root);
    if (r > 0) {
        if (mode == MODE_FIRST)
            r = eg_first(x, root, fa, fb, sol);
        else
            r = mode == MODE_ANY ? eg_any(x, root, fa, sol, g->n >= 16 ? RESTART_NODES : 0, ANY_RESTART_RUNS)
                                 : eg_count(x, root, fa, limit, sol, -1);
    }
    gil_acquire(x);
    if (x->failed) {
        r = -2; /* check() raised */
    } else if (r == -4) {
        PyErr_SetString(PyExc_RuntimeError, "native solver: inconsistent search state");
        r = -2;
    }
    if (r < 0)
        r = -2;
    if (r > 0 && mode != MODE_COUNT)
        eg_extract(x, sol, digits);
    PyMem_RawFree(root);
    PyMem_RawFree(fa);
    return r;
}

/* One search on cells (a sequence) of geometry g. Fills *result with
 * run9/rung's code (count, or 1 / 0 / RESULT_INVALID) and digits with the
 * solution. 0, or -1 with an exception set. */
static int
search(PyObject *cells, const Geo *g, int mode, long limit, PyObject *check, int *digits, long *result)
{
    int n = g->n, in[MAXCELLS];
    long r;
    Ctx ctx, *x = &ctx;
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return -1;
    }
    if (read_cells(cells, n, in) < 0)
        return -1;
    if (mode == MODE_COUNT && limit < 1) {
        *result = 0;
        return 0;
    }
    memset(x, 0, offsetof(Ctx, queue));
    x->check = check == Py_None ? NULL : check;
    x->geo = g;
    x->every = n == 9 ? 16 : n >= 16 ? 1 : 64;
    Py_INCREF(check); /* kept alive while the lock is released */
    r = g->classic9 ? run9(x, in, mode, limit, digits) : rung(x, in, mode, limit, digits);
    Py_DECREF(check);
    last_nodes = x->nodes;
    if (r == -2)
        return -1;
    *result = r;
    return 0;
}

/* solve / solve_any (cells, geometry[, check]); count_solutions (cells,
 * geometry, limit[, check]). */
static PyObject *
run(PyObject *const *args, Py_ssize_t nargs, int mode)
{
    PyObject *check = Py_None;
    const Geo *g;
    int digits[MAXCELLS];
    long limit = 1, r;
    Py_ssize_t want = mode == MODE_COUNT ? 3 : 2;

    if (nargs < want || nargs > want + 1) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd or %zd arguments (%zd given)",
                     mode == MODE_COUNT ? "count_solutions" : "solve", want, want + 1, nargs);
        return NULL;
    }
    g = as_geo(args[1]);
    if (g == NULL)
        return NULL;
    if (mode == MODE_COUNT) {
        int overflow = 0;
        limit = PyLong_AsLongAndOverflow(args[2], &overflow);
        if (overflow > 0)
            limit = LONG_MAX;
        else if (overflow < 0)
            limit = 0;
        if (limit == -1 && PyErr_Occurred())
            return NULL;
    }
    if (nargs > want)
        check = args[want];
    if (search(args[0], g, mode, limit, check, digits, &r) < 0)
        return NULL;
    if (mode == MODE_COUNT)
        return PyLong_FromLong(r < 0 ? 0 : r);
    if (r == 1)
        return digits_tuple(digits, g->ncells);
    return PyLong_FromLong(r);
}

static void
geo_capsule_free(PyObject *capsule)
{
    geo_free(PyCapsule_GetPointer(capsule, GEO_CAPSULE));
}

/* Check the constraint buffers of prepare() against n and fill ex; 0 with
 * ValueError. */
static int
read_extra(int n, const Py_buffer *differ, const Py_buffer *nc, const Py_buffer *cage_of, const Py_buffer *totals,
           const Py_buffer *cand, Extra *ex)
{
    int ncells = n * n, i, k;
    memset(ex, 0, sizeof *ex);
    if (differ->len % 4 || nc->len % 4 || cage_of->len % 2 || totals->len % 2 || cand->len % 4)
        goto bad;
    ex->differ = differ->buf;
    ex->ndiffer = (int)(differ->len / 4);
    ex->nc = nc->buf;
    ex->nnc = (int)(nc->len / 4);
    for (i = 0; i < 2 * ex->ndiffer; i += 2)
        if (ex->differ[i] >= ncells || ex->differ[i + 1] >= ncells || ex->differ[i] == ex->differ[i + 1])
            goto bad;
    for (i = 0; i < 2 * ex->nnc; i += 2)
        if (ex->nc[i] >= ncells || ex->nc[i + 1] >= ncells || ex->nc[i] == ex->nc[i + 1])
            goto bad;
    if (cage_of->len) {
        int count[MAXCELLS];
        if (cage_of->len != 2 * ncells || totals->len < 2 || totals->len / 2 > ncells)
            goto bad;
        ex->cage_of = cage_of->buf;
        ex->totals = totals->buf;
        ex->ncages = (int)(totals->len / 2);
        memset(count, 0, sizeof count);
        for (i = 0; i < ncells; i++) {
            if (ex->cage_of[i] < -1 || ex->cage_of[i] >= ex->ncages)
                goto bad;
            if (ex->cage_of[i] >= 0)
                count[ex->cage_of[i]]++;
        }
        for (k = 0; k < ex->ncages; k++)
            if (count[k] < 1 || count[k] > n || ex->totals[k] > n * (n + 1) / 2)
                goto bad;
    } else if (totals->len) {
        goto bad;
    }
    if (cand->len) {
        if (cand->len != 4 * ncells)
            goto bad;
        ex->cand = cand->buf;
    }
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "prepare: constraint arrays that do not fit the grid (see its docstring)");
    return 0;
}

/* prepare(size, units, classic9, differ=b"", nonconsecutive=b"", cage_of=b"",
 * totals=b"", candidates=b"") -> geometry */
static PyObject *
py_prepare(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"size", "units", "classic9", "differ", "nonconsecutive", "cage_of", "totals",
                               "candidates", NULL};
    int n, classic9, nunits, u, i, ok;
    Py_buffer buf, xb[5];
    uint16_t *units;
    uint8_t seen[MAXCELLS];
    Geo *g;
    Extra ex;
    PyObject *capsule;
    (void)self;
    memset(xb, 0, sizeof xb);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*p|y*y*y*y*y*:prepare", keywords, &n, &buf, &classic9, &xb[0],
                                     &xb[1], &xb[2], &xb[3], &xb[4]))
        return NULL;
#define RELEASE_ALL()                                                                                                  \
    do {                                                                                                               \
        int b_;                                                                                                        \
        PyBuffer_Release(&buf);                                                                                        \
        for (b_ = 0; b_ < 5; b_++)                                                                                     \
            if (xb[b_].obj != NULL)                                                                                    \
                PyBuffer_Release(&xb[b_]);                                                                             \
    } while (0)
    if (n < 1 || n > MAXN || buf.len % (2 * n) != 0 || buf.len / (2 * n) < 1 || buf.len / (2 * n) > MAXUNITS) {
        PyErr_Format(PyExc_ValueError, "a geometry has size 1..%d and 1..%d units of size 16-bit cells", MAXN,
                     MAXUNITS);
        RELEASE_ALL();
        return NULL;
    }
    nunits = (int)(buf.len / (2 * n));
    units = PyMem_RawMalloc((size_t)buf.len);
    if (units == NULL) {
        RELEASE_ALL();
        return PyErr_NoMemory();
    }
    memcpy(units, buf.buf, (size_t)buf.len);
    for (u = 0; u < nunits; u++) {
        memset(seen, 0, sizeof seen);
        for (i = 0; i < n; i++) {
            int c = units[u * n + i];
            if (c >= n * n || seen[c]) {
                PyMem_RawFree(units);
                RELEASE_ALL();
                PyErr_Format(PyExc_ValueError, "unit %d: cells must be distinct, in 0..%d", u, n * n - 1);
                return NULL;
            }
            seen[c] = 1;
        }
    }
    ok = read_extra(n, &xb[0], &xb[1], &xb[2], &xb[3], &xb[4], &ex);
    g = ok ? geo_build(n, nunits, units, &ex) : NULL;
    PyMem_RawFree(units);
    RELEASE_ALL();
#undef RELEASE_ALL
    if (g == NULL)
        return NULL;
    /* the 9x9 engine for the classic key only, and only on its units */
    if (classic9 && !g->classic9) {
        geo_free(g);
        PyErr_SetString(PyExc_ValueError,
                        "classic9: the units are not the classic 9x9 rows, columns and boxes, or constraints given");
        return NULL;
    }
    g->classic9 = classic9;
    capsule = PyCapsule_New(g, GEO_CAPSULE, geo_capsule_free);
    if (capsule == NULL)
        geo_free(g);
    return capsule;
}

/* ------------------------------------------------------------------ */
/* solve_lines: one-line 9x9 puzzles, text to text                      */

/* A line solve_lines takes: 81 cells and its terminator. */
#define LINE_CELLS 81
#define PLAIN_LINE_MAX (LINE_CELLS + 2)

/* The cell value of a character of a plain line: 1..9 for a digit, 0 for
 * an empty mark ('0', '.', '_'), -1 for anything else. Mirrors text/reader.py
 * (_PLAIN_LINE, _PLAIN_VALUES). */
static int8_t LINE_VALUE[256];

static void
line_tables(void)
{
    int c;
    for (c = 0; c < 256; c++)
        LINE_VALUE[c] = -1;
    for (c = '1'; c <= '9'; c++)
        LINE_VALUE[c] = (int8_t)(c - '0');
    LINE_VALUE['0'] = LINE_VALUE['.'] = LINE_VALUE['_'] = 0;
}

/* The length of the line's terminator when text (len bytes) is a plain
 * line solve_lines takes (81 cells, then "\n", "\r\n" or "\r"), else 0. */
static int
line_ending(const char *text, Py_ssize_t len)
{
    if (len == LINE_CELLS + 1 && (text[LINE_CELLS] == '\n' || text[LINE_CELLS] == '\r'))
        return 1;
    if (len == LINE_CELLS + 2 && text[LINE_CELLS] == '\r' && text[LINE_CELLS + 1] == '\n')
        return 2;
    return 0;
}

/* The independent check of a 9x9 solution (py_verify's rule, on the
 * classic units): every row, column and box holds 1..9 and every given is
 * kept. */
static int
verify9(const int *cells, const int *digits)
{
    uint32_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    int i;
    for (i = 0; i < 81; i++) {
        int d = digits[i], r = i / 9, c = i % 9;
        if (d < 1 || d > 9 || (cells[i] && cells[i] != d))
            return 0;
        rows[r] |= 1u << d;
        cols[c] |= 1u << d;
        boxes[r / 3 * 3 + c / 3] |= 1u << d;
    }
    for (i = 0; i < 9; i++)
        if (rows[i] != 0x3FE || cols[i] != 0x3FE || boxes[i] != 0x3FE)
            return 0;
    return 1;
}

/* solve_lines(lines, geometry, out[, check]) -> None
 *
 * The classic 9x9 geometry only. For each line of lines (bytes), appends to
 * out its answer (bytes) or None ("not mine": the caller answers that line
 * through the Python text layer). A line is taken when it is a plain
 * one-line puzzle exactly as text/reader.py reads one without its general
 * machinery: 81 characters of 1-9 and the empty marks 0 . _, then its
 * terminator ("\n", "\r\n" or "\r"); it is answered when it has a
 * solution, with what Puzzle.render gives a plain line: the row-major-first
 * solution's 81 digits and the line's own terminator. Every other line is
 * not taken, nor one whose givens share a unit or that has no solution (the
 * Python core words those errors). Every answer passes verify9.
 *
 * The lock is released once for the batch and taken back to call check()
 * (as solve: once 0.5 ms of one puzzle's search have passed since the
 * puzzle began or check() last returned) and at the end. When check()
 * raises, out holds the answers of the lines before the one it was raised
 * in, and the exception propagates. */
static PyObject *
py_solve_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *lines, *out, *check = Py_None, *seq;
    const Geo *g;
    Py_ssize_t n, k, done;
    char *text;
    int *taken;
    Ctx ctx, *x = &ctx;
    PyThreadState *tstate;
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    (void)self;

    if (nargs < 3 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "solve_lines(lines, geometry, out, check=None)");
        return NULL;
    }
    g = as_geo(args[1]);
    if (g == NULL)
        return NULL;
    if (!g->classic9) {
        PyErr_SetString(PyExc_ValueError, "solve_lines takes the classic 9x9 geometry only");
        return NULL;
    }
    out = args[2];
    if (!PyList_Check(out)) {
        PyErr_SetString(PyExc_TypeError, "out must be a list");
        return NULL;
    }
    if (nargs > 3)
        check = args[3];
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    lines = args[0];
    seq = PySequence_Fast(lines, "lines must be a sequence of bytes");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    text = PyMem_RawMalloc((size_t)(n ? n : 1) * PLAIN_LINE_MAX);
    taken = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int));
    if (text == NULL || taken == NULL) {
        PyMem_RawFree(text);
        PyMem_RawFree(taken);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    /* with the lock: copy the lines (the list may change once it is released) */
    for (k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        taken[k] = 0;
        if (PyBytes_CheckExact(item)) {
            Py_ssize_t len = PyBytes_GET_SIZE(item);
            int end = line_ending(PyBytes_AS_STRING(item), len);
            if (end) {
                memcpy(text + k * PLAIN_LINE_MAX, PyBytes_AS_STRING(item), (size_t)len);
                taken[k] = LINE_CELLS + end;
            }
        }
    }
    Py_DECREF(seq);
    Py_INCREF(check); /* kept alive while the lock is released */
    tstate = PyEval_SaveThread();
    done = n;
    for (k = 0; k < n; k++) {
        char *line = text + k * PLAIN_LINE_MAX;
        int cells[LINE_CELLS], digits[MAXCELLS], i;
        long r;
        if (!taken[k])
            continue;
        for (i = 0; i < LINE_CELLS; i++) {
            int v = LINE_VALUE[(unsigned char)line[i]];
            if (v < 0)
                break;
            cells[i] = v;
        }
        if (i < LINE_CELLS) {
            taken[k] = 0;
            continue;
        }
        memset(x, 0, offsetof(Ctx, queue));
        x->check = check == Py_None ? NULL : check;
        x->geo = g;
        x->every = 16;
        x->tstate = tstate;
        x->released_once = 1;
        x->batch = 1;
        r = run9(x, cells, MODE_FIRST, 1, digits);
        tstate = x->tstate; /* NULL: check() raised, the lock is held */
        last_nodes = x->nodes;
        if (r == -2) {
            done = k;
            break;
        }
        if (r != 1 || !verify9(cells, digits)) {
            taken[k] = 0;
            continue;
        }
        for (i = 0; i < LINE_CELLS; i++)
            line[i] = (char)('0' + digits[i]);
    }
    if (tstate != NULL)
        PyEval_RestoreThread(tstate);
    Py_DECREF(check);
    if (done < n)
        PyErr_Fetch(&et, &ev, &tb);
    for (k = 0; k < done; k++) {
        PyObject *answer;
        int rc;
        if (taken[k]) {
            answer = PyBytes_FromStringAndSize(text + k * PLAIN_LINE_MAX, taken[k]);
            if (answer == NULL)
                break;
        } else {
            answer = Py_NewRef(Py_None);
        }
        rc = PyList_Append(out, answer);
        Py_DECREF(answer);
        if (rc < 0)
            break;
    }
    PyMem_RawFree(text);
    PyMem_RawFree(taken);
    if (k < done) { /* no memory for an answer: that error wins */
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
        return NULL;
    }
    if (done < n) {
        PyErr_Restore(et, ev, tb);
        if (et == NULL)
            PyErr_SetString(PyExc_RuntimeError, "native solver: search stopped without an exception");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
py_set_gil_hold(PyObject *self, PyObject *arg)
{
    double seconds = PyFloat_AsDouble(arg);
    int64_t old = gil_hold_ns;
    (void)self;
    if (seconds == -1.0 && PyErr_Occurred())
        return NULL;
    gil_hold_ns = (int64_t)(seconds * 1e9);
    return PyFloat_FromDouble((double)old / 1e9);
}

static PyObject *
py_last_nodes(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyLong_FromLong(last_nodes);
}

static PyObject *
py_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return run(args, nargs, MODE_FIRST);
}

static PyObject *
py_solve_any(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return run(args, nargs, MODE_ANY);
}

static PyObject *
py_count(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return run(args, nargs, MODE_COUNT);
}

/* verify(puzzle_cells, solution_cells, geometry) -> bool
 *
 * The independent check every answer passes before it is sent (the
 * protocol's rule), in C so that it costs the interpreter lock little: the
 * solution holds 1..size in every cell, keeps every given of the puzzle, and
 * every unit of the geometry holds each digit once. Nothing of the search
 * is used: only the two sequences of ints and the units. */
static PyObject *
py_verify(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Geo *g;
    PyObject *puzzle, *solution;
    int sol[MAXCELLS], n, u, i, ok = 1;
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "verify(puzzle_cells, solution_cells, geometry)");
        return NULL;
    }
    g = as_geo(args[2]);
    if (g == NULL)
        return NULL;
    n = g->n;
    puzzle = PySequence_Fast(args[0], "puzzle cells must be a sequence");
    if (puzzle == NULL)
        return NULL;
    solution = PySequence_Fast(args[1], "solution cells must be a sequence");
    if (solution == NULL) {
        Py_DECREF(puzzle);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(puzzle) != g->ncells || PySequence_Fast_GET_SIZE(solution) != g->ncells) {
        Py_DECREF(puzzle);
        Py_DECREF(solution);
        Py_RETURN_FALSE;
    }
    for (i = 0; i < g->ncells && ok; i++) {
        long given = PyLong_AsLong(PySequence_Fast_GET_ITEM(puzzle, i));
        long d = PyLong_AsLong(PySequence_Fast_GET_ITEM(solution, i));
        if (PyErr_Occurred()) {
            Py_DECREF(puzzle);
            Py_DECREF(solution);
            return NULL;
        }
        if (d < 1 || d > n || (given && given != d))
            ok = 0;
        sol[i] = (int)d;
    }
    Py_DECREF(puzzle);
    Py_DECREF(solution);
    for (u = 0; u < g->nunits && ok; u++) {
        uint32_t seen = 0;
        for (i = 0; i < n; i++)
            seen |= 1u << (sol[g->unit[u * n + i]] - 1);
        ok = seen == g->full;
    }
    if (ok && g->constrained)
        ok = ev_verify(g, sol);
    return PyBool_FromLong(ok);
}

static PyMethodDef methods[] = {
    {"prepare", (PyCFunction)(void (*)(void))py_prepare, METH_VARARGS | METH_KEYWORDS,
     "prepare(size, units, classic9, differ=b'', nonconsecutive=b'', cage_of=b'', totals=b'',\n"
     "        candidates=b'') -> geometry\n\n"
     "The native form of a geometry: size digits per unit (1..25), units its\n"
     "units as 16-bit cell indices in native byte order (size per unit, 1..256\n"
     "units; Geometry.unit_array), classic9 true for the classic 9x9 key (the\n"
     "9x9 engine; ValueError when the units are not the classic ones).\n"
     "Variant constraints, each a buffer in native byte order (ValueError when\n"
     "one does not fit the grid): differ, pairs of cells (16-bit) that must\n"
     "differ beyond the units (anti-knight, anti-king, cage cells);\n"
     "nonconsecutive, pairs of cells (16-bit) whose digits do not differ by one;\n"
     "cage_of, per cell (16-bit signed) its killer cage 0..k-1 or -1, with\n"
     "totals, per cage (16-bit) the sum of its digits (1 to size cells each);\n"
     "candidates, per cell (32-bit) the digits allowed, bit d-1 for digit d.\n"
     "Peers and intersections are computed here, once; keep the result."},
    {"verify", (PyCFunction)(void (*)(void))py_verify, METH_FASTCALL,
     "verify(puzzle_cells, solution_cells, geometry) -> bool\n\n"
     "True when the solution (size*size ints row-major) holds 1..size everywhere,\n"
     "keeps every given of the puzzle (0 = empty), holds every digit once in\n"
     "each unit of the geometry and keeps its constraints (differ pairs,\n"
     "nonconsecutive pairs, cage sums, candidates). Independent of the search."},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL,
     "solve(cells, geometry, check=None) -> tuple | int\n\n"
     "The row-major-first solution of the grid (cells: size*size ints row-major,\n"
     "0 = empty; geometry from prepare()) as a tuple of ints; NONE (0) when there\n"
     "is none, INVALID (-1) when two givens share a unit. What check() raises\n"
     "propagates; check is called with the interpreter lock held once 0.5 ms of\n"
     "search have passed since its last call returned."},
    {"solve_any", (PyCFunction)(void (*)(void))py_solve_any, METH_FASTCALL,
     "solve_any(cells, geometry, check=None) -> tuple | int\n\n"
     "The first solution the search finds; results as solve()."},
    {"count_solutions", (PyCFunction)(void (*)(void))py_count, METH_FASTCALL,
     "count_solutions(cells, geometry, limit, check=None) -> int\n\n"
     "The number of solutions, counting no further than limit (0 for givens\n"
     "that share a unit)."},
    {"solve_lines", (PyCFunction)(void (*)(void))py_solve_lines, METH_FASTCALL,
     "solve_lines(lines, geometry, out, check=None) -> None\n\n"
     "One-line 9x9 puzzles, text to text (the classic geometry only). For each\n"
     "line (bytes: 81 cells of 1-9 and 0 . _, then \\n, \\r\\n or \\r), appends\n"
     "to out the answer a plain line gets from the Python text layer (the\n"
     "row-major-first solution's 81 digits and the line's terminator), or None\n"
     "for a line it does not take (any other form, givens sharing a unit, no\n"
     "solution). check as for solve(), per puzzle; when it raises, out holds\n"
     "the answers before that line and the exception propagates."},
    {"set_gil_hold", py_set_gil_hold, METH_O,
     "set_gil_hold(seconds) -> float\n\n"
     "How long a search keeps the interpreter lock before releasing it (0:\n"
     "release at once, the default); returns the previous value. Process-wide;\n"
     "set it at startup, not while searches run."},
    {"last_nodes", py_last_nodes, METH_NOARGS,
     "last_nodes() -> int\n\nSearch nodes of the last call (any thread; for benchmarks)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The native solver core (see sudoku_server.sudoku.solver for the contract).", -1, methods,
};

PyMODINIT_FUNC
PyInit__native(void)
{
    PyObject *m;
    static int tables;
    if (!tables) {
        int i;
        for (i = 0; i <= MAXN; i++) {
            SMALL_INTS[i] = PyLong_FromLong(i);
            if (SMALL_INTS[i] == NULL)
                return NULL;
        }
        e9_tables();
        line_tables();
        tables = 1;
    }
    m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "INVALID", RESULT_INVALID) < 0 ||
        PyModule_AddIntConstant(m, "NONE", RESULT_NONE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SIZE", MAXN) < 0 || PyModule_AddIntConstant(m, "MAX_UNITS", MAXUNITS) < 0 ||
        PyModule_AddIntConstant(m, "CHECK_INTERVAL_NS", (long)SEARCH_CHECK_NS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
