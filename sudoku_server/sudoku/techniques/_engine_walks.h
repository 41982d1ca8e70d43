/* The technique engine's walks: the unique loops' walks on classic 9x9 grids (loop_walks) and chains
 * of strong links on one digit on 9x9 grids with any units (strong_units, strong_links). Part of the
 * _engine extension: _engine.c includes this file once, after _engine_sets.h; each search mirrors
 * its Python oracle (unique_loops.py, links.py), and tests/unit/test_engine_walks.py holds them equal.
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
    if (read_cands(cand, cd) < 0) return NULL;
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

/* ---- Chains of strong links on one digit (links.py's _strong_links, _oriented_links and
 * _strong_links_of_digit with no name filter), on any 9x9 units. ---- */

#define SL_MAXU 64   /* units */
#define SL_MAXSEG 9  /* segments of a line (its boxes) or of a box (its rows, its columns) */
#define SL_MAXO 256  /* oriented links: both ways of each link */
#define SL_W 4       /* words of an oriented-link bitset */
#define SL_STACK 2048

typedef struct {
    int nunits;
    u128 umask[SL_MAXU];
    int kind[SL_MAXU]; /* board.BOX 0, ROW 1, COLUMN 2, OTHER 3 */
    int na[SL_MAXU], nb[SL_MAXU];
    u128 sa[SL_MAXU][SL_MAXSEG]; /* a line's box segments; a box's row segments */
    u128 sb[SL_MAXU][SL_MAXSEG]; /* a box's column segments */
    u128 peer[NCELL];
    u128 all;
} SLUnits;

#define SL_CAPSULE "sudoku_server.sudoku.techniques._engine.SLUnits"

static void sl_units_free(PyObject *cap) { PyMem_Free(PyCapsule_GetPointer(cap, SL_CAPSULE)); }

static int sl_masks(PyObject *seq, u128 *out, int max, int *n) {
    PyObject *f = PySequence_Fast(seq, "masks");
    if (!f) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(f);
    if (len > max) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "too many masks");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (to_u128(PySequence_Fast_GET_ITEM(f, i), &out[i]) < 0) {
            Py_DECREF(f);
            return -1;
        }
    }
    *n = (int)len;
    Py_DECREF(f);
    return 0;
}

/* strong_units(units, peers) -> capsule: the tables strong_links reads, made once per board geometry.
 * units: per unit id (kind, mask, segs_a, segs_b): a line's box segments as segs_a, a box's row and
 * column segments as segs_a and segs_b (Tables.line_segments, box_rows_segs, box_cols_segs, in
 * order); peers: 81 peer bitboards. */
static PyObject *strong_units(PyObject *mod, PyObject *args) {
    PyObject *units, *peers;
    (void)mod;
    if (!PyArg_ParseTuple(args, "OO", &units, &peers)) return NULL;
    SLUnits *t = PyMem_Calloc(1, sizeof(SLUnits));
    if (!t) return PyErr_NoMemory();
    PyObject *uf = PySequence_Fast(units, "units");
    if (!uf) goto fail;
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(uf);
    if (nu > SL_MAXU) {
        Py_DECREF(uf);
        PyErr_SetString(PyExc_ValueError, "too many units");
        goto fail;
    }
    t->nunits = (int)nu;
    for (Py_ssize_t u = 0; u < nu; u++) {
        PyObject *kind, *mask, *sa, *sb;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(uf, u), "OOOO", &kind, &mask, &sa, &sb) ||
            to_u128(mask, &t->umask[u]) < 0 || sl_masks(sa, t->sa[u], SL_MAXSEG, &t->na[u]) < 0 ||
            sl_masks(sb, t->sb[u], SL_MAXSEG, &t->nb[u]) < 0) {
            Py_DECREF(uf);
            goto fail;
        }
        t->kind[u] = (int)PyLong_AsLong(kind);
        t->all |= t->umask[u];
    }
    Py_DECREF(uf);
    int np;
    if (sl_masks(peers, t->peer, NCELL, &np) < 0) goto fail;
    if (np != NCELL) {
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        goto fail;
    }
    if (PyErr_Occurred()) goto fail;
    PyObject *cap = PyCapsule_New(t, SL_CAPSULE, sl_units_free);
    if (!cap) goto fail;
    return cap;
fail:
    PyMem_Free(t);
    return NULL;
}

/* a cell bitboard as a Python int */
static PyObject *u128_to_py(u128 v) {
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    if (!hi) return NULL;
    PyObject *sh = PyLong_FromLong(64);
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *up = sh ? PyNumber_Lshift(hi, sh) : NULL;
    PyObject *r = up && lo ? PyNumber_Or(up, lo) : NULL;
    Py_DECREF(hi);
    Py_XDECREF(sh);
    Py_XDECREF(lo);
    Py_XDECREF(up);
    return r;
}

typedef struct {
    int id, u, grouped;
    u128 a, b;
} SLOriented;

typedef struct {
    int chain[4];
    int len;
    u128 used;
    uint64_t next[SL_W];
} SLEntry;

/* links.common_peers: the cells that see every cell of g (not in it) */
static inline u128 sl_seen(const SLUnits *t, u128 g) {
    u128 m = t->all, r = g;
    while (r) {
        int c = ctz128(r);
        r &= r - 1;
        m &= t->peer[c];
    }
    return m & ~g;
}

static inline int sl_any(const uint64_t *a) {
    for (int w = 0; w < SL_W; w++)
        if (a[w]) return 1;
    return 0;
}

/* links._links_se in tenths */
static int sl_se10(int k, const int *kinds, int grouped) {
    int base = k == 2 ? 40 : k == 3 ? 54 : 58;
    if (grouped) return base + 3;
    int has_box = 0, lines = 0;
    for (int i = 0; i < k; i++) {
        if (kinds[i] == 0)
            has_box = 1;
        else
            lines |= 1 << kinds[i];
    }
    int nl = __builtin_popcount(lines);
    if (!has_box && nl == 1) return base;
    if (has_box && nl == 2) return base + 2;
    return base + 1;
}

/* strong_links(units, p, k) -> None | False | (se_tenths, victims, ((id, unit, a, b, grouped), ...)):
 * the best chain of k (2-4) strong links on the digit whose cells are p, as
 * links._strong_links_of_digit finds it with no name (the first of lowest (rating, -victims) in its
 * order); False when the digit has more oriented links than this search holds (use Python). */
static PyObject *strong_links(PyObject *mod, PyObject *args) {
    PyObject *cap, *pv;
    int k;
    (void)mod;
    if (!PyArg_ParseTuple(args, "OOi", &cap, &pv, &k)) return NULL;
    const SLUnits *t = PyCapsule_GetPointer(cap, SL_CAPSULE);
    if (!t) return NULL;
    if (k < 2 || k > 4) {
        PyErr_SetString(PyExc_ValueError, "k must be 2, 3 or 4");
        return NULL;
    }
    u128 p;
    if (to_u128(pv, &p) < 0) return NULL;
    /* _strong_links, in unit order */
    SLOriented o[SL_MAXO];
    int m = 0, nl = 0;
#define SL_LINK(U, A, B, G)                                                    \
    do {                                                                       \
        if (m + 2 > SL_MAXO) Py_RETURN_FALSE;                                  \
        o[m].id = nl, o[m].u = (U), o[m].a = (A), o[m].b = (B), o[m].grouped = (G); \
        o[m + 1] = o[m];                                                       \
        o[m + 1].a = (B), o[m + 1].b = (A);                                    \
        m += 2, nl++;                                                          \
    } while (0)
    for (int u = 0; u < t->nunits; u++) {
        u128 mk = p & t->umask[u];
        int cnt = pop128(mk);
        if (cnt < 2) continue;
        if (cnt == 2) {
            u128 low = mk & (~mk + 1);
            SL_LINK(u, low, mk ^ low, 0);
            continue;
        }
        if (cnt > 6 || t->kind[u] == 3) continue;
        if (t->kind[u] != 0) { /* a line: split by boxes */
            u128 g[SL_MAXSEG];
            int ng = 0;
            for (int s = 0; s < t->na[u]; s++)
                if (mk & t->sa[u][s]) g[ng++] = mk & t->sa[u][s];
            if (ng == 2) SL_LINK(u, g[0], g[1], 1);
            continue;
        }
        for (int which = 0; which < 2; which++) { /* a box: two rows, two columns */
            const u128 *segs = which ? t->sb[u] : t->sa[u];
            int ns = which ? t->nb[u] : t->na[u];
            u128 g[SL_MAXSEG];
            int ng = 0;
            for (int s = 0; s < ns; s++)
                if (mk & segs[s]) g[ng++] = mk & segs[s];
            if (ng == 2) SL_LINK(u, g[0], g[1], 1);
        }
        for (int r = 0; r < t->na[u]; r++) { /* or a cross */
            u128 rm = t->sa[u][r];
            if (!(mk & rm)) continue;
            for (int c = 0; c < t->nb[u]; c++) {
                u128 cm = t->sb[u][c];
                if (mk & ~(rm | cm)) continue;
                u128 heart = rm & cm, a = mk & rm & ~heart, bb = mk & cm & ~heart;
                u128 va[2], vb[2];
                int nv;
                if (mk & heart) {
                    va[0] = a | heart, vb[0] = bb, va[1] = a, vb[1] = bb | heart, nv = 2;
                } else {
                    va[0] = a, vb[0] = bb, nv = 1;
                }
                for (int v = 0; v < nv; v++)
                    if (va[v] && vb[v] && (pop128(va[v]) > 1 || pop128(vb[v]) > 1)) SL_LINK(u, va[v], vb[v], 1);
            }
        }
    }
#undef SL_LINK
    if (m < 2 * k) Py_RETURN_NONE;
    /* _oriented_links: what each start and end sees; the links that may follow each one */
    u128 start_sees[SL_MAXO], end_sees[SL_MAXO];
    for (int i = 0; i < m; i++) {
        start_sees[i] = sl_seen(t, o[i].a) & p;
        end_sees[i] = sl_seen(t, o[i].b);
    }
    uint64_t nxt[SL_MAXO][SL_W];
    for (int i = 0; i < m; i++) {
        memset(nxt[i], 0, sizeof(nxt[i]));
        for (int j = 0; j < m; j++)
            if (j != i && !(o[j].a & ~end_sees[i])) nxt[i][j >> 6] |= (uint64_t)1 << (j & 63);
    }
    int have = 0, best_se = 0, best_vn = 0, best_chain[4] = {0, 0, 0, 0};
    u128 best_victims = 0;
    SLEntry *stack = PyMem_Malloc(SL_STACK * sizeof(SLEntry));
    if (!stack) return PyErr_NoMemory();
    for (int i = 0; i < m; i++) {
        u128 si = start_sees[i];
        if (!si) continue;
        uint64_t ends[SL_W] = {0, 0, 0, 0};
        for (int j = 0; j < m; j++)
            if (end_sees[j] & si) ends[j >> 6] |= (uint64_t)1 << (j & 63);
        if (!sl_any(ends)) continue;
        uint64_t reach[SL_W];
        memcpy(reach, nxt[i], sizeof(reach));
        for (int s = 0; s < k - 2; s++) {
            uint64_t r[SL_W] = {0, 0, 0, 0};
            for (int w = 0; w < SL_W; w++)
                for (uint64_t mm = reach[w]; mm; mm &= mm - 1) {
                    int j = w * 64 + __builtin_ctzll(mm);
                    for (int x = 0; x < SL_W; x++) r[x] |= nxt[j][x];
                }
            memcpy(reach, r, sizeof(reach));
        }
        int meets = 0;
        for (int w = 0; w < SL_W; w++) meets |= (reach[w] & ends[w]) != 0;
        if (!meets) continue;
        int sp = 0;
        stack[0].chain[0] = i, stack[0].len = 1, stack[0].used = o[i].a | o[i].b;
        memcpy(stack[0].next, nxt[i], sizeof(stack[0].next));
        sp = 1;
        while (sp) {
            SLEntry e = stack[--sp];
            uint64_t mm[SL_W];
            for (int w = 0; w < SL_W; w++) mm[w] = e.len == k - 1 ? e.next[w] & ends[w] : e.next[w];
            for (int w = 0; w < SL_W; w++) {
                for (uint64_t bits = mm[w]; bits; bits &= bits - 1) {
                    int j = w * 64 + __builtin_ctzll(bits);
                    const SLOriented *oj = &o[j];
                    if ((oj->a & e.used) || (oj->b & e.used)) continue;
                    int dup = 0;
                    for (int q = 0; q < e.len; q++) dup |= o[e.chain[q]].id == oj->id;
                    if (dup) continue;
                    if (e.len + 1 < k) {
                        if (sp >= SL_STACK) {
                            PyMem_Free(stack);
                            PyErr_SetString(PyExc_RuntimeError, "strong_links: stack full");
                            return NULL;
                        }
                        SLEntry *ne = &stack[sp++];
                        memcpy(ne->chain, e.chain, sizeof(e.chain));
                        ne->chain[e.len] = j;
                        ne->len = e.len + 1;
                        ne->used = e.used | oj->a | oj->b;
                        memcpy(ne->next, nxt[j], sizeof(ne->next));
                        continue;
                    }
                    u128 victims = si & end_sees[j] & ~(e.used | oj->a | oj->b);
                    if (!victims) continue;
                    int kinds[4], grouped = 0;
                    for (int q = 0; q < e.len; q++) {
                        kinds[q] = t->kind[o[e.chain[q]].u];
                        grouped |= o[e.chain[q]].grouped;
                    }
                    kinds[e.len] = t->kind[oj->u];
                    grouped |= oj->grouped;
                    int se = sl_se10(k, kinds, grouped), vn = pop128(victims);
                    if (!have || se < best_se || (se == best_se && vn > best_vn)) {
                        have = 1, best_se = se, best_vn = vn, best_victims = victims;
                        memcpy(best_chain, e.chain, sizeof(e.chain));
                        best_chain[e.len] = j;
                    }
                }
            }
        }
    }
    PyMem_Free(stack);
    if (!have) Py_RETURN_NONE;
    PyObject *links = PyTuple_New(k);
    if (!links) return NULL;
    for (int q = 0; q < k; q++) {
        const SLOriented *oq = &o[best_chain[q]];
        PyObject *a = u128_to_py(oq->a), *b = u128_to_py(oq->b);
        PyObject *item = a && b ? Py_BuildValue("(iiNNO)", oq->id, oq->u, a, b, oq->grouped ? Py_True : Py_False) : NULL;
        if (!item) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_DECREF(links);
            return NULL;
        }
        PyTuple_SET_ITEM(links, q, item);
    }
    PyObject *vict = u128_to_py(best_victims);
    if (!vict) {
        Py_DECREF(links);
        return NULL;
    }
    return Py_BuildValue("(iNN)", best_se, vict, links);
}
