/* The technique engine's native searches (9x9 grids, any units): Nishio and dynamic forcing chains
 * (Dyn), the implication-graph searches of chains and static forcing chains (Links, links_of), and
 * ALS wings (als_wing), naked and hidden subsets (subset), basic fish (fish). Each
 * mirrors a Python function that stays the oracle (dynamic.py, chains.py,
 * graph.py, forcing.py, als.py, subsets.py, fish.py); tests/test_engine_native.py holds them equal step for step.
 *
 * One compilation unit in four files: this one (the helpers, Dyn and the module), _engine_links.h
 * (Links and links_of), _engine_sets.h (als_wing, subset, fish) and _engine_walks.h (loop_walks, the
 * unique loops' walks; strong_links, chains of strong links on one digit), because the searches share the
 * candidate and node bitset helpers and the two object types (a board's closures, a board's
 * implication tables).
 *
 * Dynamic forcing chains (the rest of this comment):
 * The same search as sudoku_server/sudoku/techniques/dynamic.py (the Python oracle, held equal step
 * for step by tests/test_engine_native.py): an assumption is followed on a working copy of the
 * candidates that loses every candidate turned off, in the same order (all pending "on" nodes
 * before the next "off" node), with the same parents, so the ancestor counts (SE's complexity of a
 * branch) and the first contradiction are the ones the Python closure gives.
 *
 * Candidate id k = 0-based digit * 81 + cell; node id = k for "on", 729 + k for "off".
 * The ancestors of every node are kept as a bitset over the 1,458 nodes (its parents all exist
 * when it is made, so one OR per parent), and counted when the closure ends.
 *
 * One Dyn object per board state: Dyn(cand, unit_masks, cell_units) where cand is 81 digit masks,
 * unit_masks the units as cell bitboards (Python ints), cell_units per cell the unit ids holding it
 * in Sudoku Explainer's order. Closures (assumption true or false) are cached in the object.
 *
 * Methods:
 *   nishio_digit(d) -> (nodes, cell, typ) | None: the best Nishio contradiction on 0-based digit d.
 *   scan_cell(c) -> None | (nodes, sortkey, group, phase, kind, where, aux, target, on, ties): the best
 *     dynamic conclusion offered while scanning cell c, as find_dynamic_forcing_chains offers them;
 *     kind 0 absurd, 1 double, 2 cell, 3 unit (aux: the unit's 0-based digit); ties: every target of that group and phase with the
 *     same node count (Python resolves them in its set order).
 *   order(k, on, which) -> list: the ids made on (which=1) or off (which=0) by the closure of
 *     (k, on), in the order the Python closure inserts them.
 *
 * Everything runs with the GIL held; no state is process-global: a Dyn object keeps its closures'
 * scratch (Scratch) and a call's other buffers are its own.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NCELL 81
#define NDIG 9
#define NK 729
#define NNODE 1458
#define KW 12  /* words of a candidate-id bitset */
#define AW 23  /* words of a node bitset */
#define MAXU 64
#define MAXCU 16

__extension__ typedef unsigned __int128 u128;

typedef struct {
    uint64_t on[KW], off[KW];
    int absurd;       /* 0 none; else the counts below are set */
    int a_cnt, b_cnt; /* ancestors of (kk, on) and (kk, off) of the contradiction */
    int non, noff;
    uint16_t *on_order, *off_order;
    uint16_t *anc; /* NNODE counts, 0 = not made */
} Clo;

/* The scratch state of one closure: the ancestors of every node made, the
 * pending nodes and the orders they were made in. One per Dyn object (each
 * search builds its own Dyn for its board), allocated with it: no state is
 * shared between objects or calls. */
typedef struct {
    uint64_t ancbits[NNODE][AW];
    uint16_t pend_on[NK], pend_off[NK];
    uint16_t ord_on[NK + 1], ord_off[NK + 1];
} Scratch;

typedef struct {
    PyObject_HEAD
    Scratch *scratch; /* the closures' working state (per object) */
    uint16_t cand[NCELL];
    u128 pos[NDIG];
    int nunits;
    u128 umask[MAXU];
    uint8_t ncu[NCELL];
    uint8_t cu[NCELL][MAXCU];
    Clo *cache[2][NK];
} DynObject;


static inline int ctz128(u128 x) {
    uint64_t lo = (uint64_t)x;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static inline int pop128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

#define BIT_SET(a, i) ((a)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))
#define BIT_GET(a, i) (((a)[(i) >> 6] >> ((i) & 63)) & 1)

/* make a node: its ancestors are itself and every parent's */
static void make_node(Scratch *sc, int node, const int *par, int npar) {
    uint64_t *a = sc->ancbits[node];
    memset(a, 0, sizeof(sc->ancbits[0]));
    for (int i = 0; i < npar; i++) {
        const uint64_t *p = sc->ancbits[par[i]];
        for (int w = 0; w < AW; w++) a[w] |= p[w];
    }
    BIT_SET(a, node);
}

static int count_node(const Scratch *sc, int node) {
    int s = 0;
    for (int w = 0; w < AW; w++) s += __builtin_popcountll(sc->ancbits[node][w]);
    return s;
}

/* The closure of (src, src_on) into out; with keep, the orders and ancestor counts of a closure that
 * is not a contradiction too. Returns 0, or -1 on memory error. */
static int closure(DynObject *self, int src, int src_on, int nishio, int keep, Clo *out) {
    Scratch *w = self->scratch;
    uint16_t *pend_on = w->pend_on, *pend_off = w->pend_off, *ord_on = w->ord_on, *ord_off = w->ord_off;
    uint16_t cand[NCELL];
    u128 pos[NDIG];
    memcpy(cand, self->cand, sizeof(cand));
    memcpy(pos, self->pos, sizeof(pos));
    uint64_t on[KW], off[KW];
    memset(on, 0, sizeof(on));
    memset(off, 0, sizeof(off));
    int non = 0, noff = 0, no = 0, nf = 0, io = 0, jo = 0;
    int par[NDIG + 2] = {0};
    if (src_on) {
        BIT_SET(on, src);
        pend_on[non++] = (uint16_t)src;
        ord_on[no++] = (uint16_t)src;
        make_node(w, src, par, 0);
    } else {
        BIT_SET(off, src);
        pend_off[noff++] = (uint16_t)src;
        ord_off[nf++] = (uint16_t)src;
        make_node(w, NK + src, par, 0);
    }
    out->absurd = 0;
    for (;;) {
        if (io < non) {
            int k = pend_on[io++];
            int d = k / NCELL, c = k % NCELL;
            int tlist[NCELL + NDIG];
            int nt = 0;
            if (!nishio) {
                unsigned m = cand[c] & ~(1u << d);
                while (m) {
                    int dd = __builtin_ctz(m);
                    m &= m - 1;
                    tlist[nt++] = dd * NCELL + c;
                }
            }
            u128 seen = (u128)1 << c;
            for (int i = 0; i < self->ncu[c]; i++) {
                u128 pm = pos[d] & self->umask[self->cu[c][i]] & ~seen;
                seen |= pm;
                while (pm) {
                    int cc = ctz128(pm);
                    pm &= pm - 1;
                    tlist[nt++] = d * NCELL + cc;
                }
            }
            for (int i = 0; i < nt; i++) {
                int kk = tlist[i];
                if (BIT_GET(on, kk)) {
                    out->absurd = 1;
                    out->a_cnt = count_node(w, kk);
                    out->b_cnt = 1; /* (kk, off) is not made: itself only */
                    goto done;
                }
                if (!BIT_GET(off, kk)) {
                    BIT_SET(off, kk);
                    par[0] = k;
                    make_node(w, NK + kk, par, 1);
                    pend_off[noff++] = (uint16_t)kk;
                    ord_off[nf++] = (uint16_t)kk;
                }
            }
            continue;
        }
        if (jo < noff) {
            int k = pend_off[jo++];
            int d = k / NCELL, c = k % NCELL;
            int on_ids[MAXCU + 1];
            int on_par[MAXCU + 1][NCELL + 2];
            int on_np[MAXCU + 1];
            int nto = 0;
            unsigned m = cand[c];
            if (!nishio && __builtin_popcount(m) == 2 && (m >> d & 1)) {
                int od = __builtin_ctz(m & ~(1u << d));
                int np = 0;
                on_par[nto][np++] = NK + k;
                unsigned h = self->cand[c] & ~m;
                while (h) {
                    int dd = __builtin_ctz(h);
                    h &= h - 1;
                    on_par[nto][np++] = NK + dd * NCELL + c;
                }
                on_np[nto] = np;
                on_ids[nto++] = od * NCELL + c;
            }
            u128 cbit = (u128)1 << c;
            if (pos[d] & cbit) {
                for (int i = 0; i < self->ncu[c]; i++) {
                    int u = self->cu[c][i];
                    u128 pm = pos[d] & self->umask[u] & ~cbit;
                    if (pm && !(pm & (pm - 1))) {
                        int cc = ctz128(pm);
                        u128 gone = self->pos[d] & self->umask[u] & ~pos[d];
                        int np = 0;
                        on_par[nto][np++] = NK + k;
                        while (gone) {
                            int g2 = ctz128(gone);
                            gone &= gone - 1;
                            on_par[nto][np++] = NK + d * NCELL + g2;
                        }
                        on_np[nto] = np;
                        on_ids[nto++] = d * NCELL + cc;
                    }
                }
            }
            if (cand[c] >> d & 1) {
                cand[c] &= (uint16_t) ~(1u << d);
                pos[d] &= ~cbit;
            }
            for (int i = 0; i < nto; i++) {
                int kk = on_ids[i];
                if (BIT_GET(off, kk)) {
                    make_node(w, kk, on_par[i], on_np[i]);
                    out->absurd = 1;
                    out->a_cnt = count_node(w, kk);
                    out->b_cnt = count_node(w, NK + kk);
                    goto done;
                }
                if (!BIT_GET(on, kk)) {
                    BIT_SET(on, kk);
                    make_node(w, kk, on_par[i], on_np[i]);
                    pend_on[non++] = (uint16_t)kk;
                    ord_on[no++] = (uint16_t)kk;
                }
            }
            continue;
        }
        break;
    }
done:
    memcpy(out->on, on, sizeof(on));
    memcpy(out->off, off, sizeof(off));
    out->non = no;
    out->noff = nf;
    out->on_order = out->off_order = NULL;
    out->anc = NULL;
    if (out->absurd || !keep) return 0; /* an absurd closure's nodes are never used */
    out->on_order = PyMem_Malloc(sizeof(uint16_t) * (size_t)(no + nf) + sizeof(uint16_t) * NNODE);
    if (!out->on_order) return -1;
    out->off_order = out->on_order + no;
    out->anc = out->off_order + nf;
    memcpy(out->on_order, ord_on, sizeof(uint16_t) * (size_t)no);
    memcpy(out->off_order, ord_off, sizeof(uint16_t) * (size_t)nf);
    memset(out->anc, 0, sizeof(uint16_t) * NNODE);
    for (int i = 0; i < no; i++) out->anc[ord_on[i]] = (uint16_t)count_node(w, ord_on[i]);
    for (int i = 0; i < nf; i++) out->anc[NK + ord_off[i]] = (uint16_t)count_node(w, NK + ord_off[i]);
    return 0;
}

static Clo *get_clo(DynObject *self, int k, int on) {
    Clo *c = self->cache[on][k];
    if (c) return c;
    c = PyMem_Malloc(sizeof(Clo));
    if (!c) {
        PyErr_NoMemory();
        return NULL;
    }
    if (closure(self, k, on, 0, 1, c) < 0) {
        PyMem_Free(c);
        PyErr_NoMemory();
        return NULL;
    }
    self->cache[on][k] = c;
    return c;
}

static void Dyn_dealloc(DynObject *self) {
    for (int o = 0; o < 2; o++)
        for (int k = 0; k < NK; k++)
            if (self->cache[o][k]) {
                PyMem_Free(self->cache[o][k]->on_order);
                PyMem_Free(self->cache[o][k]);
            }
    PyMem_Free(self->scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int to_u128(PyObject *v, u128 *out) {
    PyObject *sh = PyLong_FromLong(64);
    if (!sh) return -1;
    PyObject *hi = PyNumber_Rshift(v, sh);
    Py_DECREF(sh);
    if (!hi) return -1;
    unsigned long long h = PyLong_AsUnsignedLongLongMask(hi);
    Py_DECREF(hi);
    unsigned long long l = PyLong_AsUnsignedLongLongMask(v);
    if (PyErr_Occurred()) return -1;
    *out = ((u128)h << 64) | l;
    return 0;
}

static int Dyn_init(DynObject *self, PyObject *args, PyObject *kw) {
    PyObject *cand, *masks, *cunits;
    (void)kw;
    if (!PyArg_ParseTuple(args, "OOO", &cand, &masks, &cunits)) return -1;
    if (self->scratch == NULL) {
        self->scratch = PyMem_Malloc(sizeof(Scratch));
        if (self->scratch == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    PyObject *cf = PySequence_Fast(cand, "cand must be a sequence");
    if (!cf) return -1;
    if (PySequence_Fast_GET_SIZE(cf) != NCELL) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return -1;
    }
    memset(self->pos, 0, sizeof(self->pos));
    for (int c = 0; c < NCELL; c++) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c));
        if (m == -1 && PyErr_Occurred()) {
            Py_DECREF(cf);
            return -1;
        }
        self->cand[c] = (uint16_t)(m & 0x1FF);
        for (int d = 0; d < NDIG; d++)
            if (m >> d & 1) self->pos[d] |= (u128)1 << c;
    }
    Py_DECREF(cf);
    PyObject *mf = PySequence_Fast(masks, "unit masks must be a sequence");
    if (!mf) return -1;
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(mf);
    if (nu > MAXU) {
        Py_DECREF(mf);
        PyErr_SetString(PyExc_ValueError, "too many units");
        return -1;
    }
    self->nunits = (int)nu;
    for (Py_ssize_t u = 0; u < nu; u++)
        if (to_u128(PySequence_Fast_GET_ITEM(mf, u), &self->umask[u]) < 0) {
            Py_DECREF(mf);
            return -1;
        }
    Py_DECREF(mf);
    PyObject *uf = PySequence_Fast(cunits, "cell units must be a sequence");
    if (!uf) return -1;
    if (PySequence_Fast_GET_SIZE(uf) != NCELL) {
        Py_DECREF(uf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return -1;
    }
    for (int c = 0; c < NCELL; c++) {
        PyObject *t = PySequence_Fast(PySequence_Fast_GET_ITEM(uf, c), "units of a cell");
        if (!t) {
            Py_DECREF(uf);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(t);
        if (n > MAXCU) {
            Py_DECREF(t);
            Py_DECREF(uf);
            PyErr_SetString(PyExc_ValueError, "too many units for a cell");
            return -1;
        }
        self->ncu[c] = (uint8_t)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            long u = PyLong_AsLong(PySequence_Fast_GET_ITEM(t, i));
            if (u < 0 || u >= nu) {
                Py_DECREF(t);
                Py_DECREF(uf);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad unit id");
                return -1;
            }
            self->cu[c][i] = (uint8_t)u;
        }
        Py_DECREF(t);
    }
    Py_DECREF(uf);
    return 0;
}

static PyObject *Dyn_nishio_digit(DynObject *self, PyObject *arg) {
    long d = PyLong_AsLong(arg);
    if (d < 0 || d >= NDIG) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad digit");
        return NULL;
    }
    int best_nodes = -1, best_c = 0, best_t = 0;
    u128 p = self->pos[d];
    Clo clo;
    while (p) {
        int c = ctz128(p);
        p &= p - 1;
        if (__builtin_popcount(self->cand[c]) < 2) continue;
        for (int typ = 0; typ < 2; typ++) {
            if (closure(self, (int)d * NCELL + c, typ == 0, 1, 0, &clo) < 0) return PyErr_NoMemory();
            if (!clo.absurd) continue;
            int nodes = clo.a_cnt + clo.b_cnt;
            /* key (se, nodes, (c, d, typ)): se grows with nodes; c then typ ascend here */
            if (best_nodes < 0 || nodes < best_nodes) {
                best_nodes = nodes;
                best_c = c;
                best_t = typ;
            }
        }
    }
    if (best_nodes < 0) Py_RETURN_NONE;
    return Py_BuildValue("(iii)", best_nodes, best_c, best_t);
}

typedef struct {
    int nodes, sortkey, group, phase, kind, where, aux, target, on;
    int nties;
    int ties[NK];
} Best;

static inline int better(const Best *b, int nodes, int sortkey, int group, int phase) {
    if (b->nodes < 0) return 1;
    if (nodes != b->nodes) return nodes < b->nodes;
    if (sortkey != b->sortkey) return sortkey < b->sortkey;
    if (group != b->group) return group < b->group;
    return phase < b->phase;
}

static void offer(Best *b, int nodes, int sortkey, int group, int phase, int kind, int where, int aux, int target,
                  int on) {
    if (better(b, nodes, sortkey, group, phase)) {
        b->aux = aux;
        b->nodes = nodes;
        b->sortkey = sortkey;
        b->group = group;
        b->phase = phase;
        b->kind = kind;
        b->where = where;
        b->target = target;
        b->on = on;
        b->nties = 0;
        b->ties[b->nties++] = target;
    } else if (nodes == b->nodes && sortkey == b->sortkey && group == b->group && phase == b->phase) {
        b->ties[b->nties++] = target;
    }
}

/* offer the common conclusions of several closures (kind 1, 2 or 3) */
static void offer_common(DynObject *self, Best *b, Clo **runs, int nr, int sortkey, int group, int kind, int where,
                         int aux, int skip) {
    uint64_t ons[KW], offs[KW];
    memcpy(ons, runs[0]->on, sizeof(ons));
    memcpy(offs, runs[0]->off, sizeof(offs));
    for (int r = 1; r < nr; r++)
        for (int w = 0; w < KW; w++) {
            ons[w] &= runs[r]->on[w];
            offs[w] &= runs[r]->off[w];
        }
    for (int phase = 0; phase < 2; phase++) {
        uint64_t *s = phase == 0 ? ons : offs;
        for (int w = 0; w < KW; w++) {
            uint64_t m = s[w];
            while (m) {
                int kk = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                if (kk == skip) continue;
                if (phase == 0 && __builtin_popcount(self->cand[kk % NCELL]) < 2) continue;
                int node = phase == 0 ? kk : NK + kk;
                int nodes = 0;
                for (int r = 0; r < nr; r++) nodes += runs[r]->anc[node];
                offer(b, nodes, sortkey, group, phase, kind, where, aux, kk, phase == 0);
            }
        }
    }
}

static PyObject *Dyn_scan_cell(DynObject *self, PyObject *arg) {
    long c = PyLong_AsLong(arg);
    if (c < 0 || c >= NCELL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad cell");
        return NULL;
    }
    unsigned m = self->cand[c];
    if (!m || __builtin_popcount(m) < 2) Py_RETURN_NONE;
    static Best b;
    b.nodes = -1;
    b.nties = 0;
    int digs[NDIG], nd = 0;
    for (int d = 0; d < NDIG; d++)
        if (m >> d & 1) digs[nd++] = d;
    int g = 0;
    Clo *runs[NCELL];
    for (int i = 0; i < nd; i++) {
        int k = digs[i] * NCELL + (int)c;
        Clo *A = get_clo(self, k, 1);
        if (!A) return NULL;
        if (A->absurd) offer(&b, A->a_cnt + A->b_cnt, 7, g, 0, 0, k, 0, k, 1);
        g++;
        Clo *B = get_clo(self, k, 0);
        if (!B) return NULL;
        if (B->absurd) offer(&b, B->a_cnt + B->b_cnt, 7, g, 0, 0, k, 0, k, 0);
        g++;
        if (!A->absurd && !B->absurd && nd >= 3) {
            runs[0] = A;
            runs[1] = B;
            offer_common(self, &b, runs, 2, 1, g, 1, k, 0, k);
        }
        g++;
    }
    int all_ok = 1;
    for (int i = 0; i < nd; i++) {
        runs[i] = get_clo(self, digs[i] * NCELL + (int)c, 1);
        if (!runs[i]) return NULL;
        if (runs[i]->absurd) all_ok = 0;
    }
    if (all_ok) offer_common(self, &b, runs, nd, 5, g, 2, (int)c, 0, -1);
    g++;
    for (int i = 0; i < nd; i++) {
        int d = digs[i];
        for (int j = 0; j < self->ncu[c]; j++) {
            int u = self->cu[c][j];
            u128 pm = self->pos[d] & self->umask[u];
            if (pop128(pm) < 2 || ctz128(pm) != c) continue;
            int nr = 0, ok = 1;
            while (pm) {
                int cc = ctz128(pm);
                pm &= pm - 1;
                Clo *r = get_clo(self, d * NCELL + cc, 1);
                if (!r) return NULL;
                if (r->absurd) ok = 0;
                runs[nr++] = r;
            }
            if (ok) offer_common(self, &b, runs, nr, 6, g, 3, u, d, -1);
            g++;
        }
    }
    if (b.nodes < 0) Py_RETURN_NONE;
    PyObject *ties = PyTuple_New(b.nties);
    if (!ties) return NULL;
    for (int i = 0; i < b.nties; i++) PyTuple_SET_ITEM(ties, i, PyLong_FromLong(b.ties[i]));
    return Py_BuildValue("(iiiiiiiiiN)", b.nodes, b.sortkey, b.group, b.phase, b.kind, b.where, b.aux, b.target, b.on,
                         ties);
}

static PyObject *Dyn_order(DynObject *self, PyObject *args) {
    int k, on, which;
    if (!PyArg_ParseTuple(args, "iii", &k, &on, &which)) return NULL;
    if (k < 0 || k >= NK) {
        PyErr_SetString(PyExc_ValueError, "bad candidate id");
        return NULL;
    }
    Clo *c = get_clo(self, k, on ? 1 : 0);
    if (!c) return NULL;
    if (c->absurd) {
        PyErr_SetString(PyExc_ValueError, "the closure is a contradiction");
        return NULL;
    }
    int n = which ? c->non : c->noff;
    const uint16_t *src = which ? c->on_order : c->off_order;
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(src[i]));
    return out;
}

static PyMethodDef Dyn_methods[] = {
    {"nishio_digit", (PyCFunction)Dyn_nishio_digit, METH_O, "The best Nishio contradiction on a digit."},
    {"scan_cell", (PyCFunction)Dyn_scan_cell, METH_O, "The best dynamic conclusion offered at a cell."},
    {"order", (PyCFunction)Dyn_order, METH_VARARGS, "The ids a closure made on or off, in order."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DynType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudoku_server.sudoku.techniques._engine.Dyn",
    .tp_basicsize = sizeof(DynObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Dynamic closures of one 9x9 board state.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Dyn_init,
    .tp_dealloc = (destructor)Dyn_dealloc,
    .tp_methods = Dyn_methods,
};


#include "_engine_links.h"
#include "_engine_sets.h"
#include "_engine_walks.h"

static PyMethodDef engine_functions[] = {
    {"fish", fish, METH_VARARGS, "The search of fish.find_fish on 9x9."},
    {"subset", subset, METH_VARARGS, "The search of subsets.find_naked_subset / find_hidden_subset."},
    {"als_wing", als_wing, METH_VARARGS, "The search of als.find_als_wing."},
    {"links_of", links_of, METH_VARARGS, "The Links of one mode of a board's implication graph."},
    {"loop_walks", loop_walks, METH_VARARGS, "The walks of unique_loops.find_unique_loop on classic 9x9."},
    {"strong_units", strong_units, METH_VARARGS, "The unit tables strong_links reads (a capsule)."},
    {"strong_links", strong_links, METH_VARARGS, "The search of links._strong_links_of_digit on 9x9."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT, "_engine", "Native dynamic forcing chains (see dynamic.py).", -1, engine_functions, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&DynType) < 0 || PyType_Ready(&LinksType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (!m) return NULL;
    Py_INCREF(&DynType);
    if (PyModule_AddObject(m, "Dyn", (PyObject *)&DynType) < 0) {
        Py_DECREF(&DynType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&LinksType);
    if (PyModule_AddObject(m, "Links", (PyObject *)&LinksType) < 0) {
        Py_DECREF(&LinksType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
