/* The technique engine's walks on classic 9x9 grids (boxes, rows, columns): the unique loops' walks
 * (loop_walks). Part of the _engine extension: _engine.c includes this file once, after
 * _engine_sets.h; each search mirrors its Python oracle (unique_loops.py), and
 * tests/unit/test_engine_walks.py holds them equal.
 */

/* A classic 9x9 cell's units: kind 0 box, 1 row, 2 column (unique_loops.py's ``unit_of`` order). */
static inline int walk_unit(int kind, int c) {
    int r = c / 9, col = c % 9;
    if (kind == 0) return (r / 3) * 3 + col / 3;
    if (kind == 1) return 9 + r;
    return 18 + col;
}

typedef struct {
    u128 umask[27];       /* ids as walk_unit: boxes 0-8, rows 9-17, columns 18-26 */
    uint8_t unit[3][NCELL]; /* per kind, the cell's unit id */
    uint32_t units_of[NCELL]; /* the cell's three units as bits of those ids */
} WalkTables;

static WalkTables walk_tables;
static int walk_tables_ready = 0;

static void walk_tables_init(void) {
    if (walk_tables_ready) return;
    memset(&walk_tables, 0, sizeof(walk_tables));
    for (int c = 0; c < NCELL; c++) {
        for (int kind = 0; kind < 3; kind++) {
            int u = walk_unit(kind, c);
            walk_tables.unit[kind][c] = (uint8_t)u;
            walk_tables.umask[u] |= (u128)1 << c;
            walk_tables.units_of[c] |= (uint32_t)1 << u;
        }
    }
    walk_tables_ready = 1;
}

/* unique_loops._core: drop, again and again, the cells with another cell of the set in fewer than two
 * of their three units. */
static u128 loops_core(u128 cells) {
    for (;;) {
        u128 drop = 0, m = cells;
        while (m) {
            int c = ctz128(m);
            u128 low = (u128)1 << c;
            m ^= low;
            int kinds = 0;
            for (int kind = 0; kind < 3; kind++)
                if (walk_tables.umask[walk_tables.unit[kind][c]] & cells & ~low) kinds++;
            if (kinds < 2) drop |= low;
        }
        if (!drop) return cells;
        cells &= ~drop;
    }
}

typedef struct {
    const uint16_t *cand;
    int start;
    uint16_t pair;
    u128 free;
    uint32_t sides[2];
    int path[NCELL + 1];
    int len;
    PyObject *out; /* the closed walks, tuples of cells */
} LoopWalk;

/* unique_loops._loops's ``walk``: the same order (kinds box, row, column; a unit's cells lowest first) */
static int loop_walk(LoopWalk *w, int cell, int allowed, uint16_t extra, int last_kind) {
    for (int kind = 0; kind < 3; kind++) {
        if (kind == last_kind) continue;
        u128 m = walk_tables.umask[walk_tables.unit[kind][cell]] & (w->free | ((u128)1 << w->start));
        while (m) {
            int nxt = ctz128(m);
            u128 low = (u128)1 << nxt;
            m ^= low;
            if (nxt == w->start) {
                if (w->len >= 4) {
                    PyObject *t = PyTuple_New(w->len);
                    if (!t) return -1;
                    for (int i = 0; i < w->len; i++) {
                        PyObject *v = PyLong_FromLong(w->path[i]);
                        if (!v) {
                            Py_DECREF(t);
                            return -1;
                        }
                        PyTuple_SET_ITEM(t, i, v);
                    }
                    int rc = PyList_Append(w->out, t);
                    Py_DECREF(t);
                    if (rc < 0) return -1;
                }
                continue;
            }
            int side = w->len & 1;
            uint32_t uo = walk_tables.units_of[nxt];
            if (w->sides[side] & uo) continue;
            uint16_t mm = w->cand[nxt];
            uint16_t ex = (uint16_t)((extra | mm) & ~w->pair);
            int k = __builtin_popcount(mm);
            if (k == 2 || __builtin_popcount(ex) == 1 || allowed > 0) {
                w->path[w->len++] = nxt;
                w->sides[side] |= uo;
                w->free &= ~low;
                if (loop_walk(w, nxt, allowed - (k > 2), ex, kind) < 0) return -1;
                w->free |= low;
                w->sides[side] &= ~uo;
                w->len--;
            }
        }
    }
    return 0;
}

/* loop_walks(cand, pos) -> [(start, [walk, ...]), ...]: the starts of unique_loops.find_unique_loop
 * (the bivalue cells in order, each pair's earlier starts left out, then the core of the cells holding
 * both digits), with the closed walks unique_loops._loops gives from each, for the starts that have
 * some. cand: 81 digit masks; pos: 9 cell bitboards (Python ints), per 0-based digit. */
static PyObject *loop_walks(PyObject *mod, PyObject *args) {
    PyObject *cand, *pos;
    (void)mod;
    if (!PyArg_ParseTuple(args, "OO", &cand, &pos)) return NULL;
    walk_tables_init();
    uint16_t cd[NCELL];
    u128 ps[NDIG];
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return NULL;
    if (PySequence_Fast_GET_SIZE(cf) != NCELL) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return NULL;
    }
    for (int c = 0; c < NCELL; c++) cd[c] = (uint16_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c));
    Py_DECREF(cf);
    if (PyErr_Occurred()) return NULL;
    PyObject *pf = PySequence_Fast(pos, "pos");
    if (!pf) return NULL;
    if (PySequence_Fast_GET_SIZE(pf) != NDIG) {
        Py_DECREF(pf);
        PyErr_SetString(PyExc_ValueError, "9 digits expected");
        return NULL;
    }
    for (int d = 0; d < NDIG; d++) {
        if (to_u128(PySequence_Fast_GET_ITEM(pf, d), &ps[d]) < 0) {
            Py_DECREF(pf);
            return NULL;
        }
    }
    Py_DECREF(pf);
    PyObject *result = PyList_New(0);
    if (!result) return NULL;
    u128 done[512];
    memset(done, 0, sizeof(done));
    LoopWalk w;
    w.cand = cd;
    for (int start = 0; start < NCELL; start++) {
        uint16_t pair = cd[start];
        if (__builtin_popcount(pair) != 2) continue;
        int a = __builtin_ctz(pair), b = 31 - __builtin_clz(pair);
        u128 cells = loops_core(ps[a] & ps[b] & ~done[pair]);
        done[pair] |= (u128)1 << start;
        if (!((cells >> start) & 1) || pop128(cells) < 6) continue;
        w.start = start;
        w.pair = pair;
        w.free = cells & ~((u128)1 << start);
        w.sides[0] = walk_tables.units_of[start];
        w.sides[1] = 0;
        w.path[0] = start;
        w.len = 1;
        w.out = PyList_New(0);
        if (!w.out || loop_walk(&w, start, 2, 0, -1) < 0) {
            Py_XDECREF(w.out);
            Py_DECREF(result);
            return NULL;
        }
        if (PyList_GET_SIZE(w.out)) {
            PyObject *item = Py_BuildValue("(iN)", start, w.out);
            if (!item || PyList_Append(result, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(result);
                return NULL;
            }
            Py_DECREF(item);
        } else {
            Py_DECREF(w.out);
        }
    }
    return result;
}
