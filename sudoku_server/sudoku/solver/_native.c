/* sudoku_server.sudoku.solver._native: the native solver core.
 *
 * The same contract as the pure-Python core (sudoku_server/sudoku/solver/_python.py;
 * the dispatcher and its documentation are in solver/__init__.py): the
 * row-major-first solution, some solution, or the number of solutions up to
 * a limit, for any geometry of up to 25 digits per unit given as a LIST OF
 * UNITS (sudoku_server/sudoku/geometry.py). Plain values in, codes out:
 *
 *   prepare(size, units, classic9[, constraints]) -> geometry   once per
 *       geometry: the units as a flat array of 16-bit cells, and the
 *       geometry's constraints as plain arrays per KIND (the vocabulary of
 *       sudoku_server/sudoku/constraints.py: differ pairs for all-different
 *       beyond the units, relation pairs with their tables, sums as
 *       records, candidate masks; no rule is named here); peers, each
 *       cell's units and the intersections of units are computed here and
 *       kept in a capsule.
 *   solve(cells, geometry[, check]) -> tuple of ints, or NONE / INVALID
 *   solve_any(...), count_solutions(cells, geometry, limit[, check]),
 *   verify(puzzle, solution, geometry) -> bool
 *
 * The Python side words the errors and builds the Grid; nothing here calls
 * into Python except check(). Input is checked again here and no length or
 * value is trusted. Written for this project.
 *
 * Over 800 lines because it holds the module's whole Python surface
 * (prepare, solve, count, verify, and their argument checks) beside the
 * per-call context; the engines live in the headers below.
 *
 * One compilation unit (this file and its headers) because CPython builds
 * one extension from it and its parts share the per-call context (the
 * lock, check(), the clock) and the Branch type: the prepared geometry in
 * _native_geometry.h, the 9x9 engine in _native_9x9.h, the general engine
 * in _native_general.h with its constraint kinds in _native_kinds.h, the
 * search drivers, written once for both engines, in _native_search.h, and
 * the text-to-text path of one-line puzzles in _native_lines.h, of marks
 * lines in _native_marksline.h.
 *
 * Two engines share one search driver (_native_search.h, included once per
 * engine):
 *
 *   e9  (_native_9x9.h) the classic 9x9 only (chosen by prepare's classic9, for the key
 *       ("classic", 3, 3), after checking the units are the classic ones;
 *       with starting candidates, relation pairs and sums that repeat digits only: Geo.mask9).
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
 *       Links"); with constraint kinds, the open cells count each cell's
 *       relation pairs, sums and contradictions met (dom/wdeg) too, the
 *       two-candidate rule takes cells of a pair or sum only (when some
 *       cell has one), the fewest candidates per weight replace the
 *       unit-digit rule, and all-different goes to arc consistency at
 *       every size (ALLDIFF_FROM). Constraint
 *       kinds (beyond e9's candidates and pairs) are propagated by
 *       _native_kinds.h once the units find nothing more.
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
 * search stacks live on the C stack (about 110 KiB in all), the general
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
/* Sums whose support pass is remembered, and their cells at most (Ctx.sum_cache). */
#define SUM_CACHE 64
#define SUM_CACHE_CELLS 32

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
 * its cost per node (about 3x). Smaller grids apply it with constraint
 * kinds. Applying it below 16x16 only with polar pairs (whispers) saved
 * little killer's solve median 2.3 -> 1.7 ms of CPU, but the true
 * candidates of an empty 9x9 grid with one renban line then ran for
 * minutes (0.12 s with it): kept for every geometry with kinds. */
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


#include "_native_geometry.h"

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
    int base_valid; /* eg with kinds: base holds the state an assign started from */
    /* MODE_UNION (candidates()): per cell the digits some solution found holds,
     * and e9's copy of them as its digit-and-band masks; NULL otherwise */
    uint32_t *seen;
    uint32_t seen9[27];
    /* e9 with relation pairs: the digit masks of the last state on this path
     * whose pairs were arc consistent, when valid9 (_native_9x9_pairs.h) */
    uint32_t base9[27];
    int valid9;
    uint16_t run9[RUN9_CACHE][RUN_MAX]; /* e9_runs: each run's masks where it last left nothing to remove */
    uint32_t sbase9[27]; /* e9 with sums: the masks the last sums pass started from (_native_9x9_sums.h) */
    int svalid9;
    /* eg with sums that repeat digits: sum k's candidates after its last
     * support pass are in sum_cache[k] when sum_cached[k] (_native_sum_support.h) */
    uint8_t sum_cached[SUM_CACHE];
    uint16_t queue[MAXCELLS + 1];
    /* eg with constraint kinds: contradictions met after branching on each
     * cell (ek_choose; zeroed by rung only) */
    uint16_t fails[MAXCELLS];
    /* eg with kinds: the candidates of the propagated state a branch's
     * assign started from (eg_apply), read by the next eg_propagate */
    uint32_t base[MAXCELLS];
    uint32_t sum_cache[SUM_CACHE][SUM_CACHE_CELLS];
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

/* BRANCH_SPLIT (the general engine, cells with constraint kinds): two
 * alternatives on cell[0], its candidates up to digit `where`, then the rest. */
enum { BRANCH_CELLS = 0, BRANCH_BAND = 1, BRANCH_STACK = 2, BRANCH_SPLIT = 3 };

/* ================================================================== */
/* e9: the 9x9 engine (_native_9x9.h)                                   */

#include "_native_9x9.h"


enum { MODE_FIRST = 0, MODE_ANY = 1, MODE_COUNT = 2, MODE_UNION = 3 };

/* Result codes below a solution. */
#define RESULT_NONE 0     /* no solution */
#define RESULT_INVALID -1 /* two givens share a unit */

#include "_native_general.h"

/* ================================================================== */
/* The Python functions                                                 */

/* Search nodes of the last call in any thread (for benchmarks only). */
static long last_nodes;


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
run9(Ctx *x, const int *cells, const uint32_t *cand, int mode, long limit, int *digits)
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
        if (x->geo->npairs && ev_givens_break(x->geo, cells))
            return RESULT_INVALID; /* as rung */
        if (x->geo->npairs)
            e9_pairs_root(x, x->geo, &root);
        /* cand (a geometry's mask9): each cell keeps to its starting
         * candidates; a given outside them leaves no solution, as in rung */
        for (i = 0; cand != NULL && i < 81; i++) {
            uint32_t keep = cand[i] & 0x1FFu, bit = 1u << (i % 27);
            if (keep == 0x1FFu)
                continue;
            if (cells[i]) {
                if (!(keep >> (cells[i] - 1) & 1))
                    return 0;
                continue;
            }
            for (d = 0; d < 9; d++)
                if (!(keep >> d & 1))
                    root.F[3 * d + i / 27] &= ~bit;
        }
    }
    x->dirty = 0x1FF;
    x->start_ns = x->last_ns = mono_ns();
    if (gil_hold_ns <= 0) {
        gil_release(x);
        x->released_once = 1;
    }
    if (!e9_propagate_(x, &root, 0, 0)) {
        r = 0;
    } else {
        if (root.U[0] | root.U[1] | root.U[2])
            e9_matrices(&root); /* a search follows: it reads them */
        if (mode == MODE_FIRST)
            r = e9_first(x, &root, fa, fb, &sol);
        else if (mode == MODE_UNION)
            r = e9_union(x, &root, fa, digits);
        else
            r = mode == MODE_ANY ? e9_any(x, &root, fa, &sol, 0, 0) : e9_count(x, &root, fa, limit, &sol, -1);
    }
    if (!x->batch)
        gil_acquire(x);
    if (x->failed || r < 0)
        return -2; /* check() raised */
    if (r > 0 && mode != MODE_COUNT && mode != MODE_UNION)
        e9_extract(x, &sol, digits);
    return r;
}

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
    r = g->classic9  ? run9(x, in, NULL, mode, limit, digits)
        : g->mask9 ? run9(x, in, g->cand, mode, limit, digits)
                   : rung(x, in, mode, limit, digits);
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
    PyObject *like = PyCapsule_GetContext(capsule); /* the geometry whose arrays it shares (like=), or NULL */
    geo_free(PyCapsule_GetPointer(capsule, GEO_CAPSULE));
    Py_XDECREF(like);
}

/* Check the constraint buffers of prepare() against n and fill ex (the
 * buffers in the order of KIND_KEYWORDS); 0 with ValueError. */
static int
read_kinds(int n, const Py_buffer *xb, Extra *ex)
{
    const Py_buffer *differ = &xb[0], *pairs = &xb[1], *pair_table = &xb[2], *tables = &xb[3], *sums = &xb[4],
                    *cand = &xb[5], *between = &xb[6];
    int ncells = n * n, i;
    memset(ex, 0, sizeof *ex);
    if (differ->len % 4 || pairs->len % 4 || pair_table->len % 2 || tables->len % (4 * n) || sums->len % 4 ||
        cand->len % 4 || pairs->len / 4 != pair_table->len / 2 || differ->len / 4 > INT_MAX / 4 ||
        pairs->len / 4 > INT_MAX / 4 || tables->len / (4 * n) > 65535 || sums->len / 4 > INT_MAX / 4)
        goto bad;
    ex->differ = differ->buf;
    ex->ndiffer = (int)(differ->len / 4);
    for (i = 0; i < 2 * ex->ndiffer; i += 2)
        if (ex->differ[i] >= ncells || ex->differ[i + 1] >= ncells || ex->differ[i] == ex->differ[i + 1])
            goto bad;
    ex->pairs = pairs->buf;
    ex->pair_table = pair_table->buf;
    ex->npairs = (int)(pairs->len / 4);
    ex->tables = tables->buf;
    ex->ntables = (int)(tables->len / (4 * n));
    for (i = 0; i < ex->npairs; i++)
        if (ex->pairs[2 * i] >= ncells || ex->pairs[2 * i + 1] >= ncells || ex->pairs[2 * i] == ex->pairs[2 * i + 1] ||
            ex->pair_table[i] >= ex->ntables)
            goto bad;
    /* sums: records of count, total, distinct, count cells, count weights */
    ex->sums = sums->buf;
    ex->sums_len = (int)(sums->len / 4);
    for (i = 0; i < ex->sums_len;) {
        const int32_t *r = ex->sums + i;
        int count, j, k;
        if (ex->sums_len - i < 3)
            goto bad;
        count = r[0];
        if (count < 1 || count > ncells || (r[2] != 0 && r[2] != 1) || (r[2] && count > n) ||
            ex->sums_len - i - 3 < 2 * count || r[1] < -(1 << 24) || r[1] > (1 << 24))
            goto bad;
        for (j = 0; j < count; j++) {
            if (r[3 + j] < 0 || r[3 + j] >= ncells || r[3 + count + j] < -(1 << 16) || r[3 + count + j] > (1 << 16))
                goto bad;
            for (k = 0; k < j; k++)
                if (r[3 + k] == r[3 + j])
                    goto bad;
        }
        i += 3 + 2 * count;
        ex->nsums++;
    }
    if (cand->len) {
        if (cand->len != 4 * ncells)
            goto bad;
        ex->cand = cand->buf;
    }
    /* between lines: records of count, low, high, total, count distinct cells */
    if (between->len % 4 || between->len / 4 > INT_MAX / 4)
        goto bad;
    ex->between = between->buf;
    ex->between_len = (int)(between->len / 4);
    for (i = 0; i < ex->between_len;) {
        const int32_t *r = ex->between + i;
        int count, j, k;
        if (ex->between_len - i < 4)
            goto bad;
        count = r[0];
        if (count < 2 || count > n || ex->between_len - i - 4 < count || r[1] < 1 || r[1] > n || r[2] < 1 ||
            r[2] > n || r[1] == r[2] || r[3] < 0 || r[3] > n * n)
            goto bad;
        for (j = 0; j < count; j++) {
            if (r[4 + j] < 0 || r[4 + j] >= ncells)
                goto bad;
            for (k = 0; k < j; k++)
                if (r[4 + k] == r[4 + j])
                    goto bad;
        }
        i += 4 + count;
        ex->nbetween++;
    }
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "prepare: constraint arrays that do not fit the grid (see its docstring)");
    return 0;
}

/* prepare(size, units, classic9, differ=b"", pairs=b"", pair_table=b"",
 * tables=b"", sums=b"", candidates=b"", between=b"") -> geometry */
static PyObject *
py_prepare(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"size", "units", "classic9", "differ", "pairs", "pair_table", "tables", "sums",
                               "candidates", "between", "like", NULL};
    int n, classic9, nunits, u, i, ok;
    Py_buffer buf, xb[7];
    uint16_t *units;
    uint8_t seen[MAXCELLS];
    Geo *g;
    const Geo *like = NULL;
    Extra ex;
    PyObject *capsule, *like_obj = Py_None;
    (void)self;
    memset(xb, 0, sizeof xb);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*p|y*y*y*y*y*y*y*O:prepare", keywords, &n, &buf, &classic9,
                                     &xb[0], &xb[1], &xb[2], &xb[3], &xb[4], &xb[5], &xb[6], &like_obj))
        return NULL;
#define RELEASE_ALL()                                                                                                  \
    do {                                                                                                               \
        int b_;                                                                                                        \
        PyBuffer_Release(&buf);                                                                                        \
        for (b_ = 0; b_ < 7; b_++)                                                                                     \
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
    ok = read_kinds(n, xb, &ex);
    if (ok && like_obj != Py_None) {
        /* like: a prepared geometry whose units these are; its unit-derived parts are shared when the
         * constraints add no peer (no differ pairs, no distinct sum), else like is not needed */
        int32_t k, at, distinct = 0;
        like = as_geo(like_obj);
        ok = like != NULL;
        for (k = 0, at = 0; ok && k < ex.nsums; k++, at += 3 + 2 * ex.sums[at])
            distinct |= ex.sums[at + 2];
        if (ok && (like->n != n || like->nunits != nunits || ex.ndiffer > 0 || distinct ||
                   memcmp(like->unit, units, sizeof(uint16_t) * (size_t)(nunits * n)) != 0))
            like = NULL;
    }
    g = !ok ? NULL : like != NULL ? geo_build_like(like, &ex, 1) : geo_build(n, nunits, units, &ex);
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
    else if (g->shared && PyCapsule_SetContext(capsule, Py_NewRef(like_obj)) != 0)
        Py_CLEAR(capsule); /* not reached: the capsule is valid */
    return capsule;
}


#include "_native_lines.h"
#include "_native_marksline.h"

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

#include "_native_candidates.h"

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
    int giv[MAXCELLS], sol[MAXCELLS], n, i;
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
    for (i = 0; i < g->ncells; i++) {
        long given = PyLong_AsLong(PySequence_Fast_GET_ITEM(puzzle, i));
        long d = PyLong_AsLong(PySequence_Fast_GET_ITEM(solution, i));
        if (PyErr_Occurred()) {
            Py_DECREF(puzzle);
            Py_DECREF(solution);
            return NULL;
        }
        giv[i] = given < 0 || given > n ? -1 : (int)given; /* out of range: kept by no digit */
        sol[i] = d < 1 || d > n ? 0 : (int)d;
    }
    Py_DECREF(puzzle);
    Py_DECREF(solution);
    return PyBool_FromLong(verify_cells(g, giv, sol, 0));
}

static PyMethodDef methods[] = {
    {"prepare", (PyCFunction)(void (*)(void))py_prepare, METH_VARARGS | METH_KEYWORDS,
     "prepare(size, units, classic9, differ=b'', pairs=b'', pair_table=b'', tables=b'',\n"
     "        sums=b'', candidates=b'', between=b'', like=None) -> geometry\n\n"
     "The native form of a geometry: size digits per unit (1..25), units its\n"
     "units as 16-bit cell indices in native byte order (size per unit, 1..256\n"
     "units; Geometry.unit_array), classic9 true for the classic 9x9 key (the\n"
     "9x9 engine; ValueError when the units are not the classic ones).\n"
     "Constraint kinds (sudoku_server.sudoku.constraints), each a buffer in\n"
     "native byte order (ValueError when one does not fit the grid):\n"
     "differ, pairs of cells (16-bit) that must differ beyond the units;\n"
     "pairs, relation pairs (16-bit cells a, b), with pair_table, per pair\n"
     "(16-bit) the index of its table in tables: per table size masks\n"
     "(32-bit), [d - 1] the digits b may hold when a holds d;\n"
     "sums, 32-bit records: cell count k, total, distinct (0 or 1), k cells,\n"
     "k weights (the weighted digits add up to the total; a distinct sum's\n"
     "cells also differ, at most size of them);\n"
     "candidates, per cell (32-bit) the digits allowed, bit d-1 for digit d;\n"
     "between, 32-bit records: cell count k (2..size), low, high, total, k\n"
     "cells of a line of distinct digits (peers): the digits strictly between\n"
     "the cell holding low and the one holding high sum to total.\n"
     "Peers and intersections are computed here, once; keep the result."},
    {"verify", (PyCFunction)(void (*)(void))py_verify, METH_FASTCALL,
     "verify(puzzle_cells, solution_cells, geometry) -> bool\n\n"
     "True when the solution (size*size ints row-major) holds 1..size everywhere,\n"
     "keeps every given of the puzzle (0 = empty), holds every digit once in\n"
     "each unit of the geometry and keeps its constraints (differ pairs,\n"
     "relation pairs, sums, candidates, between lines). Independent of the search."},
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
    {"candidates", (PyCFunction)(void (*)(void))py_candidates, METH_FASTCALL,
     "candidates(cells, geometry, check=None) -> tuple | int\n\n"
     "The true candidates: per cell (size*size, row-major) a mask of the digits\n"
     "some solution holds there (bit d-1 for digit d), from one search that\n"
     "skips every node whose candidates all lie in solutions found already;\n"
     "NONE (0) when there is no solution, INVALID (-1) as solve()."},
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
    MARKSLINE_METHODS
    {"set_gil_hold", py_set_gil_hold, METH_O,
     "set_gil_hold(seconds) -> float\n\n"
     "How long a search keeps the interpreter lock before releasing it (0:\n"
     "release at once, the default); returns the previous value. Process-wide;\n"
     "set it at startup, not while searches run."},
    {"engine", py_engine, METH_O,
     "engine(geometry) -> str\n\nThe engine that searches a prepared geometry: 'e9' (9x9) or 'eg' (general)."},
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
