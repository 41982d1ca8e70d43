/* The technique engine's native searches (9x9 grids, any units): Nishio and dynamic forcing chains
 * (Dyn), the implication-graph searches of chains and static forcing chains (Links, links_of), and
 * ALS wings (als_wing), naked and hidden subsets (subset), basic fish (fish). Each
 * mirrors a Python function that stays the oracle (dynamic.py, chains.py,
 * graph.py, forcing.py, als.py, subsets.py, fish.py); tests/test_engine_native.py holds them equal step for step.
 *
 * One file over 1,000 lines because it is one extension module: its searches share the candidate
 * and node bitset helpers, the static scratch buffers and the two object types (a board's closures,
 * a board's implication tables); splitting it would need a private header and a second module.
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

/* ---------------------------------------------------------------------------------------------
 * Links: one implication table pair of graph.py (onoff, offon: per candidate id, the ids it turns
 * off when on / on when off), for the breadth-first searches of chains.py. Built from the tables as
 * bytes (each id's set as 96 little-endian bytes, 729 ids).
 */

/* a static forcing closure: graph.bfs_layers(k, True, onoff, offon, stop_absurd=True) */
typedef struct {
    uint64_t von[KW], voff[KW];
    uint16_t depth_on[NK], depth_off[NK]; /* layer index + 1 of each node, 0 = not reached */
} SClo;

typedef struct {
    PyObject_HEAD
    uint64_t onoff[NK][KW];
    uint64_t offon[NK][KW];
    SClo *sclo[NK];
    int has_board;
    uint16_t cand[NCELL];
    u128 peer[NCELL];
} LinksObject;

static void Links_dealloc(LinksObject *self) {
    for (int k = 0; k < NK; k++) PyMem_Free(self->sclo[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static SClo *static_closure(LinksObject *self, int src) {
    SClo *c = self->sclo[src];
    if (c) return c;
    c = PyMem_Malloc(sizeof(SClo));
    if (!c) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(c, 0, sizeof(SClo));
    uint64_t front[KW], nxt[KW];
    memset(front, 0, sizeof(front));
    BIT_SET(front, src);
    BIT_SET(c->von, src);
    c->depth_on[src] = 1;
    int on = 1, layer = 1;
    for (;;) {
        uint64_t any = 0;
        for (int w = 0; w < KW; w++) any |= front[w];
        if (!any) break;
        memset(nxt, 0, sizeof(nxt));
        uint64_t(*table)[KW] = on ? self->onoff : self->offon;
        for (int w = 0; w < KW; w++) {
            uint64_t m = front[w];
            while (m) {
                int k = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                const uint64_t *t = table[k];
                for (int j = 0; j < KW; j++) nxt[j] |= t[j];
            }
        }
        uint64_t *vis = on ? c->voff : c->von, *other = on ? c->von : c->voff;
        uint16_t *depth = on ? c->depth_off : c->depth_on;
        int absurd = 0;
        any = 0;
        for (int w = 0; w < KW; w++) {
            nxt[w] &= ~vis[w];
            if (nxt[w] & other[w]) absurd = 1;
            any |= nxt[w];
        }
        if (!any) break;
        layer++;
        for (int w = 0; w < KW; w++) {
            vis[w] |= nxt[w];
            uint64_t m = nxt[w];
            while (m) {
                int k = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                depth[k] = (uint16_t)layer;
            }
        }
        if (absurd) break;
        memcpy(front, nxt, sizeof(nxt));
        on = !on;
    }
    self->sclo[src] = c;
    return c;
}

typedef struct {
    int nodes, sortkey, what, where, target, on, nb;
    int branches[NCELL];
} SBest;

static int consider(LinksObject *self, SBest *b, const uint16_t *cand, const int *br, int nb, int sortkey, int what,
                    int where) {
    SClo *runs[NCELL];
    uint64_t ons[KW], offs[KW];
    for (int i = 0; i < nb; i++) {
        runs[i] = static_closure(self, br[i]);
        if (!runs[i]) return -1;
    }
    memcpy(ons, runs[0]->von, sizeof(ons));
    memcpy(offs, runs[0]->voff, sizeof(offs));
    for (int i = 1; i < nb; i++)
        for (int w = 0; w < KW; w++) {
            ons[w] &= runs[i]->von[w];
            offs[w] &= runs[i]->voff[w];
        }
    for (int phase = 0; phase < 2; phase++) {
        uint64_t *s = phase == 0 ? ons : offs;
        for (int w = 0; w < KW; w++) {
            uint64_t m = s[w];
            while (m) {
                int tk = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                if (phase == 0 && __builtin_popcount(cand[tk % NCELL]) < 2) continue;
                int nodes = 0;
                for (int i = 0; i < nb; i++) nodes += phase == 0 ? runs[i]->depth_on[tk] : runs[i]->depth_off[tk];
                if (b->nodes < 0 || nodes < b->nodes || (nodes == b->nodes && sortkey < b->sortkey)) {
                    b->nodes = nodes;
                    b->sortkey = sortkey;
                    b->what = what;
                    b->where = where;
                    b->target = tk;
                    b->on = phase == 0;
                    b->nb = nb;
                    memcpy(b->branches, br, sizeof(int) * (size_t)nb);
                }
            }
        }
    }
    return 0;
}

/* forcing.find_forcing_chains at one cell: (nodes, sortkey, what, where, target, on, branches) or None.
 * args: cell, the 81 candidate masks as bytes (2 bytes little-endian each), the unit masks of the
 * cell's units as (unit id, low 64 bits, high bits) ... given as a tuple of (u, cells tuple). */
static PyObject *Links_forcing_cell(LinksObject *self, PyObject *args) {
    int c;
    Py_buffer cb;
    PyObject *units;
    if (!PyArg_ParseTuple(args, "iy*O", &c, &cb, &units)) return NULL;
    if (cb.len != 2 * NCELL || c < 0 || c >= NCELL) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_ValueError, "bad cell or candidates");
        return NULL;
    }
    uint16_t cand[NCELL];
    const unsigned char *p = cb.buf;
    for (int i = 0; i < NCELL; i++) cand[i] = (uint16_t)(p[2 * i] | (p[2 * i + 1] << 8));
    PyBuffer_Release(&cb);
    unsigned m = cand[c];
    if (!m || __builtin_popcount(m) < 3) Py_RETURN_NONE;
    SBest b;
    b.nodes = -1;
    int br[NCELL], nb = 0;
    for (int d = 0; d < NDIG; d++)
        if (m >> d & 1) br[nb++] = d * NCELL + c;
    if (consider(self, &b, cand, br, nb, 5, 0, c) < 0) return NULL;
    PyObject *uf = PySequence_Fast(units, "units");
    if (!uf) return NULL;
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(uf);
    for (int d = 0; d < NDIG; d++) {
        if (!(m >> d & 1)) continue;
        for (Py_ssize_t i = 0; i < nu; i++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(uf, i);
            int u;
            PyObject *cells;
            if (!PyArg_ParseTuple(pair, "iO", &u, &cells)) {
                Py_DECREF(uf);
                return NULL;
            }
            PyObject *cf = PySequence_Fast(cells, "cells");
            if (!cf) {
                Py_DECREF(uf);
                return NULL;
            }
            nb = 0;
            int first = -1;
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(cf); j++) {
                long cc = PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, j));
                if (cc < 0 || cc >= NCELL) continue;
                if (cand[cc] >> d & 1) {
                    if (first < 0 || cc < first) first = (int)cc;
                    br[nb++] = d * NCELL + (int)cc;
                }
            }
            Py_DECREF(cf);
            if (nb < 2 || first != c) continue;
            /* the branches in ascending cell order, as cells_of gives them */
            for (int a = 1; a < nb; a++)
                for (int z = a; z > 0 && br[z - 1] > br[z]; z--) {
                    int tmp = br[z];
                    br[z] = br[z - 1];
                    br[z - 1] = tmp;
                }
            if (consider(self, &b, cand, br, nb, 6, 1, u) < 0) {
                Py_DECREF(uf);
                return NULL;
            }
        }
    }
    Py_DECREF(uf);
    if (b.nodes < 0) Py_RETURN_NONE;
    PyObject *bl = PyList_New(b.nb);
    if (!bl) return NULL;
    for (int i = 0; i < b.nb; i++) PyList_SET_ITEM(bl, i, PyLong_FromLong(b.branches[i]));
    return Py_BuildValue("(iiiiiiN)", b.nodes, b.sortkey, b.what, b.where, b.target, b.on, bl);
}

static int read_table(PyObject *b, uint64_t (*out)[KW]) {
    Py_buffer view;
    if (PyObject_GetBuffer(b, &view, PyBUF_SIMPLE) < 0) return -1;
    if (view.len != (Py_ssize_t)(NK * KW * 8)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a table is 729 sets of 96 bytes");
        return -1;
    }
    const unsigned char *p = view.buf;
    for (int k = 0; k < NK; k++)
        for (int w = 0; w < KW; w++) {
            uint64_t v = 0;
            for (int i = 7; i >= 0; i--) v = (v << 8) | p[(k * KW + w) * 8 + i];
            out[k][w] = v;
        }
    PyBuffer_Release(&view);
    return 0;
}

static int Links_init(LinksObject *self, PyObject *args, PyObject *kw) {
    PyObject *a, *b;
    (void)kw;
    if (!PyArg_ParseTuple(args, "OO", &a, &b)) return -1;
    if (read_table(a, self->onoff) < 0 || read_table(b, self->offon) < 0) return -1;
    return 0;
}

#define MAXL 80

/* graph.layers_from then graph.meet: (links, a, b, v) or None */
static int meet_core(LinksObject *self, int src, int start_on, int depth, int out[4]) {
    uint64_t layers[MAXL][KW];
    uint64_t vis_on[KW], vis_off[KW], front[KW], nxt[KW];
    memset(layers[0], 0, sizeof(layers[0]));
    memset(vis_on, 0, sizeof(vis_on));
    memset(vis_off, 0, sizeof(vis_off));
    BIT_SET(layers[0], src);
    if (start_on)
        BIT_SET(vis_on, src);
    else
        BIT_SET(vis_off, src);
    memcpy(front, layers[0], sizeof(front));
    int nl = 1, on = start_on;
    for (int step = 0; step < depth; step++) {
        memset(nxt, 0, sizeof(nxt));
        uint64_t(*table)[KW] = on ? self->onoff : self->offon;
        for (int w = 0; w < KW; w++) {
            uint64_t m = front[w];
            while (m) {
                int k = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                const uint64_t *t = table[k];
                for (int j = 0; j < KW; j++) nxt[j] |= t[j];
            }
        }
        uint64_t any = 0;
        uint64_t *vis = on ? vis_off : vis_on;
        for (int w = 0; w < KW; w++) {
            nxt[w] &= ~vis[w];
            vis[w] |= nxt[w];
            any |= nxt[w];
        }
        if (!any) break;
        memcpy(layers[nl++], nxt, sizeof(nxt));
        memcpy(front, nxt, sizeof(nxt));
        on = !on;
    }
    int best = -1, ba = 0, bb_ = 0, bv = 0;
    for (int bb = 1; bb < nl; bb++) {
        for (int aa = 1 - bb % 2; aa < bb; aa += 2) {
            int hit = -1;
            for (int w = 0; w < KW; w++) {
                uint64_t m = layers[aa][w] & layers[bb][w];
                if (m) {
                    hit = w * 64 + __builtin_ctzll(m);
                    break;
                }
            }
            if (hit >= 0) {
                if (best < 0 || aa + bb < best) {
                    best = aa + bb;
                    ba = aa;
                    bb_ = bb;
                    bv = hit;
                }
                break;
            }
        }
    }
    if (best < 0) return 0;
    out[0] = best;
    out[1] = ba;
    out[2] = bb_;
    out[3] = bv;
    return 1;
}

static PyObject *Links_meet_from(LinksObject *self, PyObject *args) {
    int src, start_on, depth, out[4];
    if (!PyArg_ParseTuple(args, "ipi", &src, &start_on, &depth)) return NULL;
    if (src < 0 || src >= NK || depth < 0 || depth >= MAXL) {
        PyErr_SetString(PyExc_ValueError, "bad source or depth");
        return NULL;
    }
    if (!meet_core(self, src, start_on, depth, out)) Py_RETURN_NONE;
    return Py_BuildValue("(iiii)", out[0], out[1], out[2], out[3]);
}

/* set_board(cand, peer_masks): the candidates (81 masks) and peer masks the cycle search needs */
static PyObject *Links_set_board(LinksObject *self, PyObject *args) {
    PyObject *cand, *peers;
    if (!PyArg_ParseTuple(args, "OO", &cand, &peers)) return NULL;
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return NULL;
    PyObject *pf = PySequence_Fast(peers, "peers");
    if (!pf) {
        Py_DECREF(cf);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(cf) != NCELL || PySequence_Fast_GET_SIZE(pf) != NCELL) {
        Py_DECREF(cf);
        Py_DECREF(pf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return NULL;
    }
    for (int c = 0; c < NCELL; c++) {
        self->cand[c] = (uint16_t)(PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c)) & 0x1FF);
        if (to_u128(PySequence_Fast_GET_ITEM(pf, c), &self->peer[c]) < 0) {
            Py_DECREF(cf);
            Py_DECREF(pf);
            return NULL;
        }
    }
    Py_DECREF(cf);
    Py_DECREF(pf);
    if (PyErr_Occurred()) return NULL;
    self->has_board = 1;
    Py_RETURN_NONE;
}

/* chains._find_cycle: (nodes, loop [(id, on)], removed [(cell, digit0)]) or None; layers is the
 * call's own buffer of NNODE + 2 layers (Links_cycle). */
static PyObject *cycle_in(LinksObject *self, PyObject *args, uint64_t (*layers)[KW]) {
    int src, limit;
    if (!PyArg_ParseTuple(args, "ii", &src, &limit)) return NULL;
    if (!self->has_board || src < 0 || src >= NK) {
        PyErr_SetString(PyExc_ValueError, "no board, or a bad source");
        return NULL;
    }
    const uint64_t *closers = self->offon[src];
    uint64_t anyc = 0;
    for (int w = 0; w < KW; w++) anyc |= closers[w];
    uint64_t vis_on[KW], vis_off[KW], front[KW];
    memset(vis_on, 0, sizeof(vis_on));
    memset(vis_off, 0, sizeof(vis_off));
    memset(layers[0], 0, sizeof(layers[0]));
    BIT_SET(layers[0], src);
    BIT_SET(vis_on, src);
    memcpy(front, layers[0], sizeof(front));
    int nl = 1, on = 1, nodes = 1;
    for (;;) {
        uint64_t any = 0;
        for (int w = 0; w < KW; w++) any |= front[w];
        if (!any || nodes >= limit || nl >= NNODE) break;
        uint64_t *nxt = layers[nl];
        memset(nxt, 0, sizeof(layers[0]));
        uint64_t(*table)[KW] = on ? self->onoff : self->offon;
        for (int w = 0; w < KW; w++) {
            uint64_t m = front[w];
            while (m) {
                int k = w * 64 + __builtin_ctzll(m);
                m &= m - 1;
                const uint64_t *t = table[k];
                for (int j = 0; j < KW; j++) nxt[j] |= t[j];
            }
        }
        uint64_t *vis = on ? vis_off : vis_on;
        any = 0;
        for (int w = 0; w < KW; w++) {
            nxt[w] &= ~vis[w];
            vis[w] |= nxt[w];
            any |= nxt[w];
        }
        nodes++;
        if (!any) break;
        memcpy(front, nxt, sizeof(front));
        nl++;
        on = !on;
    }
    if (!anyc) Py_RETURN_NONE;
    int path_k[NNODE + 2], path_on[NNODE + 2];
    for (int i = 2; i < nl; i += 2) {
        int cnodes = i + 2;
        if (cnodes > limit) break;
        for (int w = 0; w < KW; w++) {
            uint64_t tm = closers[w];
            while (tm) {
                int tt = w * 64 + __builtin_ctzll(tm);
                tm &= tm - 1;
                for (int w2 = 0; w2 < KW; w2++) {
                    uint64_t qs = self->onoff[tt][w2] & layers[i][w2];
                    while (qs) {
                        int q = w2 * 64 + __builtin_ctzll(qs);
                        qs &= qs - 1;
                        /* graph.path_to(layers[:i + 1], True, q): q's first on layer, then back */
                        int idx = -1;
                        for (int j = 0; j <= i; j += 2)
                            if (BIT_GET(layers[j], q)) {
                                idx = j;
                                break;
                            }
                        if (idx < 0) continue;
                        int np = 0;
                        path_k[np] = q;
                        path_on[np++] = 1;
                        int cur = q;
                        for (int j = idx - 1; j >= 0; j--) {
                            int is_on = (j % 2) == 0;
                            uint64_t(*tb)[KW] = is_on ? self->onoff : self->offon;
                            int found = -1;
                            for (int w3 = 0; w3 < KW && found < 0; w3++) {
                                uint64_t m = layers[j][w3];
                                while (m) {
                                    int k = w3 * 64 + __builtin_ctzll(m);
                                    m &= m - 1;
                                    if (BIT_GET(tb[k], cur)) {
                                        found = k;
                                        break;
                                    }
                                }
                            }
                            if (found < 0) continue; /* path_to skips a layer with no parent */
                            path_k[np] = found;
                            path_on[np++] = is_on;
                            cur = found;
                        }
                        int bad = 0;
                        for (int j = 0; j < np; j++)
                            if (path_k[j] == tt && !path_on[j]) bad = 1;
                        if (bad) continue;
                        /* the loop: path (source first) then off(tt); SE's cycle eliminations */
                        u128 cells = 0, fwd[NDIG], back[NDIG];
                        int has_fwd[NDIG];
                        memset(fwd, 0, sizeof(fwd));
                        memset(back, 0, sizeof(back));
                        memset(has_fwd, 0, sizeof(has_fwd));
                        int order[NDIG], nord = 0;
                        for (int j = np - 1; j >= 0; j--) {
                            int k = path_k[j], kon = path_on[j];
                            int d = k / NCELL, c = k % NCELL;
                            cells |= (u128)1 << c;
                            if (kon) {
                                if (!has_fwd[d]) {
                                    has_fwd[d] = 1;
                                    order[nord++] = d;
                                }
                                fwd[d] |= self->peer[c];
                            } else
                                back[d] |= self->peer[c];
                        }
                        {
                            int d = tt / NCELL, c = tt % NCELL;
                            cells |= (u128)1 << c;
                            back[d] |= self->peer[c];
                        }
                        PyObject *removed = PyList_New(0);
                        if (!removed) return NULL;
                        for (int oi = 0; oi < nord; oi++) {
                            int d = order[oi];
                            u128 pd = 0;
                            for (int c = 0; c < NCELL; c++)
                                if (self->cand[c] >> d & 1) pd |= (u128)1 << c;
                            u128 v = fwd[d] & back[d] & pd & ~cells;
                            while (v) {
                                int c = ctz128(v);
                                v &= v - 1;
                                PyObject *pr = Py_BuildValue("(ii)", c, d);
                                if (!pr || PyList_Append(removed, pr) < 0) {
                                    Py_XDECREF(pr);
                                    Py_DECREF(removed);
                                    return NULL;
                                }
                                Py_DECREF(pr);
                            }
                        }
                        if (PyList_GET_SIZE(removed) == 0) {
                            Py_DECREF(removed);
                            continue;
                        }
                        PyObject *loop = PyList_New(np + 1);
                        if (!loop) {
                            Py_DECREF(removed);
                            return NULL;
                        }
                        for (int j = 0; j < np; j++)
                            PyList_SET_ITEM(loop, j,
                                            Py_BuildValue("(iO)", path_k[np - 1 - j],
                                                          path_on[np - 1 - j] ? Py_True : Py_False));
                        PyList_SET_ITEM(loop, np, Py_BuildValue("(iO)", tt, Py_False));
                        return Py_BuildValue("(iNN)", cnodes, loop, removed);
                    }
                }
            }
        }
    }
    Py_RETURN_NONE;
}

static PyObject *Links_cycle(LinksObject *self, PyObject *args) {
    uint64_t (*layers)[KW] = PyMem_Malloc(sizeof(*layers) * (NNODE + 2));
    if (!layers) return PyErr_NoMemory();
    PyObject *r = cycle_in(self, args, layers);
    PyMem_Free(layers);
    return r;
}

/* One pass of chains.find_chain over its sources for one mode (the loop body there, natively):
 * chain_pass(sources, cap, sortkey, se_cycle, se_chain, cycles, forcing, best) where se_cycle and
 * se_chain give the rating in tenths per node count (0..64), best is None or (se10, nodes, sortkey,
 * cell, digit, typ). Returns None when nothing beats best, else (se10, nodes, cell, digit, typ, info):
 * info (loop, removed) for a cycle (typ 0), (links, a, b, v) for a forcing chain (typ 1: from on,
 * 2: from off). With refresh (chains._x_chains_of_digit), the chain limit is taken again after the
 * cycle search, from the best found so far. */
static int key_less(const int *a, const int *b) {
    for (int i = 0; i < 6; i++)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

static int max_nodes(const int *se, int sortkey, int has_best, const int *best) {
    if (!has_best) return 64;
    int limit = 0;
    for (int nodes = 4; nodes < 65; nodes++) {
        int key[3] = {se[nodes], nodes, sortkey};
        int less = 0, decided = 0;
        for (int i = 0; i < 3 && !decided; i++)
            if (key[i] != best[i]) {
                less = key[i] < best[i];
                decided = 1;
            }
        if (decided && less)
            limit = nodes;
        else
            break;
    }
    return limit;
}

static PyObject *Links_chain_pass(LinksObject *self, PyObject *args) {
    PyObject *sources, *sec, *sef, *bestobj;
    int cap, sortkey, cycles, forcing;
    int refresh = 0;
    if (!PyArg_ParseTuple(args, "OiiOOppO|p", &sources, &cap, &sortkey, &sec, &sef, &cycles, &forcing, &bestobj,
                          &refresh))
        return NULL;
    int se_c[65], se_f[65];
    PyObject *a = PySequence_Fast(sec, "se_cycle"), *b = PySequence_Fast(sef, "se_chain");
    if (!a || !b || PySequence_Fast_GET_SIZE(a) != 65 || PySequence_Fast_GET_SIZE(b) != 65) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "65 ratings expected");
        return NULL;
    }
    for (int i = 0; i < 65; i++) {
        se_c[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(a, i));
        se_f[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(b, i));
    }
    Py_DECREF(a);
    Py_DECREF(b);
    int best[6], has_best = 0;
    if (bestobj != Py_None) {
        if (!PyArg_ParseTuple(bestobj, "iiiiii", &best[0], &best[1], &best[2], &best[3], &best[4], &best[5]))
            return NULL;
        has_best = 1;
    }
    PyObject *sf = PySequence_Fast(sources, "sources");
    if (!sf) return NULL;
    PyObject *found = NULL; /* the info of the best found in this pass */
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(sf);
    for (Py_ssize_t si = 0; si < ns; si++) {
        int k = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(sf, si));
        if (k < 0 || k >= NK) continue;
        uint64_t anyc = 0;
        for (int w = 0; w < KW; w++) anyc |= self->offon[k][w];
        int lim_c = 0, lim_f = 0;
        if (cycles && anyc) {
            lim_c = max_nodes(se_c, sortkey, has_best, best);
            if (lim_c > cap) lim_c = cap;
        }
        if (forcing) {
            lim_f = max_nodes(se_f, sortkey, has_best, best);
            if (lim_f > cap) lim_f = cap;
        }
        if (lim_c < 4 && lim_f < 4) continue;
        int cell = k % NCELL, digit = k / NCELL;
        if (lim_c >= 4) {
            PyObject *cargs = Py_BuildValue("(ii)", k, lim_c);
            PyObject *cyc = cargs ? Links_cycle(self, cargs) : NULL;
            Py_XDECREF(cargs);
            if (!cyc) {
                Py_XDECREF(found);
                Py_DECREF(sf);
                return NULL;
            }
            if (cyc != Py_None) {
                int nodes = (int)PyLong_AsLong(PyTuple_GET_ITEM(cyc, 0));
                int key[6] = {se_c[nodes], nodes, sortkey, cell, digit, 0};
                if (!has_best || key_less(key, best)) {
                    memcpy(best, key, sizeof(key));
                    has_best = 1;
                    Py_XDECREF(found);
                    found = Py_BuildValue("(OO)", PyTuple_GET_ITEM(cyc, 1), PyTuple_GET_ITEM(cyc, 2));
                }
            }
            Py_DECREF(cyc);
        }
        if (refresh && forcing) { /* the single-digit loop takes the chain limit after the cycle */
            lim_f = max_nodes(se_f, sortkey, has_best, best);
            if (lim_f > cap) lim_f = cap;
        }
        if (lim_f >= 4) {
            int depth = (lim_f + 1) / 2;
            for (int so = 1; so >= 0; so--) {
                int met[4];
                if (!meet_core(self, k, so, depth, met)) continue;
                if (met[0] + 1 > lim_f) continue;
                int nodes = met[0] + 1;
                int key[6] = {se_f[nodes], nodes, sortkey, cell, digit, so ? 1 : 2};
                if (!has_best || key_less(key, best)) {
                    memcpy(best, key, sizeof(key));
                    has_best = 1;
                    Py_XDECREF(found);
                    found = Py_BuildValue("(iiii)", met[0], met[1], met[2], met[3]);
                }
            }
        }
    }
    Py_DECREF(sf);
    if (!found) Py_RETURN_NONE;
    return Py_BuildValue("(iiiiiN)", best[0], best[1], best[3], best[4], best[5], found);
}

static PyMethodDef Links_methods[] = {
    {"meet_from", (PyCFunction)Links_meet_from, METH_VARARGS, "graph.meet(graph.layers_from(...)) natively."},
    {"forcing_cell", (PyCFunction)Links_forcing_cell, METH_VARARGS, "The best static forcing chain at a cell."},
    {"set_board", (PyCFunction)Links_set_board, METH_VARARGS, "The candidates and peers for cycle()."},
    {"cycle", (PyCFunction)Links_cycle, METH_VARARGS, "chains._find_cycle natively."},
    {"chain_pass", (PyCFunction)Links_chain_pass, METH_VARARGS, "One pass of chains.find_chain natively."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LinksType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sudoku_server.sudoku.techniques._engine.Links",
    .tp_basicsize = sizeof(LinksObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One pair of implication tables of a 9x9 board state.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Links_init,
    .tp_dealloc = (destructor)Links_dealloc,
    .tp_methods = Links_methods,
};

/* links_of(mode, cand, unit_masks, peer_masks): the Links of graph.Graph's table pair for a mode
 * ("x": onoff_x, offon_x; "y": onoff_xy, offon_y; "xy": onoff_xy, offon_xy), built from the board
 * (the same rules as graph.Graph), with the board set for cycle(). */
static PyObject *links_of(PyObject *mod, PyObject *args) {
    const char *mode;
    PyObject *cand, *umasks, *peers;
    (void)mod;
    if (!PyArg_ParseTuple(args, "sOOO", &mode, &cand, &umasks, &peers)) return NULL;
    int mx = strcmp(mode, "x") == 0, my = strcmp(mode, "y") == 0, mxy = strcmp(mode, "xy") == 0;
    if (!mx && !my && !mxy) {
        PyErr_SetString(PyExc_ValueError, "mode is x, y or xy");
        return NULL;
    }
    LinksObject *self = (LinksObject *)PyType_GenericNew(&LinksType, NULL, NULL);
    if (!self) return NULL;
    PyObject *pair = PyTuple_Pack(2, cand, peers);
    PyObject *r = pair ? Links_set_board(self, pair) : NULL;
    Py_XDECREF(pair);
    if (!r) {
        Py_DECREF(self);
        return NULL;
    }
    Py_DECREF(r);
    PyObject *uf = PySequence_Fast(umasks, "unit masks");
    if (!uf) {
        Py_DECREF(self);
        return NULL;
    }
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(uf);
    u128 um[MAXU];
    if (nu > MAXU) {
        Py_DECREF(uf);
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "too many units");
        return NULL;
    }
    for (Py_ssize_t u = 0; u < nu; u++)
        if (to_u128(PySequence_Fast_GET_ITEM(uf, u), &um[u]) < 0) {
            Py_DECREF(uf);
            Py_DECREF(self);
            return NULL;
        }
    Py_DECREF(uf);
    u128 pos[NDIG];
    memset(pos, 0, sizeof(pos));
    for (int c = 0; c < NCELL; c++)
        for (int d = 0; d < NDIG; d++)
            if (self->cand[c] >> d & 1) pos[d] |= (u128)1 << c;
    memset(self->onoff, 0, sizeof(self->onoff));
    memset(self->offon, 0, sizeof(self->offon));
    for (int c = 0; c < NCELL; c++) {
        unsigned m = self->cand[c];
        for (int d = 0; d < NDIG; d++) {
            if (!(m >> d & 1)) continue;
            int k = d * NCELL + c;
            u128 sp = self->peer[c] & pos[d];
            while (sp) {
                int cc = ctz128(sp);
                sp &= sp - 1;
                BIT_SET(self->onoff[k], d * NCELL + cc);
            }
            if (!mx) {
                unsigned o = m & ~(1u << d);
                while (o) {
                    int dd = __builtin_ctz(o);
                    o &= o - 1;
                    BIT_SET(self->onoff[k], dd * NCELL + c);
                }
            }
        }
    }
    if (!my)
        for (int d = 0; d < NDIG; d++)
            for (Py_ssize_t u = 0; u < nu; u++) {
                u128 p = pos[d] & um[u];
                if (p && pop128(p) == 2) {
                    int a = ctz128(p);
                    int b = ctz128(p & (p - 1));
                    BIT_SET(self->offon[d * NCELL + a], d * NCELL + b);
                    BIT_SET(self->offon[d * NCELL + b], d * NCELL + a);
                }
            }
    if (!mx)
        for (int c = 0; c < NCELL; c++) {
            unsigned m = self->cand[c];
            if (__builtin_popcount(m) == 2) {
                int a = __builtin_ctz(m), b = __builtin_ctz(m & (m - 1));
                BIT_SET(self->offon[a * NCELL + c], b * NCELL + c);
                BIT_SET(self->offon[b * NCELL + c], a * NCELL + c);
            }
        }
    return (PyObject *)self;
}

/* als.find_als_wing's search: als_wing(k, cand, units, peer_masks) -> None or
 * (se_tenths, victims, combo, y, xd, zd, m, u); units: (unit id, cells ascending) in SE's scan order.
 * The best is the first of lowest (rating, -victims), as the Python loop keeps it. */
static int als_se10(int k, int biggest) {
    int a = biggest > 3 ? biggest - 3 : 3 - biggest;
    if (k == 3) return 55 + ((4 - 3) - a);
    if (k == 4) return 62 + ((5 - 3) - a);
    return 66;
}

#define SEEN_MAX (MAXU * 256) /* ALS cell sets remembered per als_wing call */

/* als_wing's search, with the call's own buffer of SEEN_MAX cell sets (seen). */
static PyObject *als_wing_in(PyObject *mod, PyObject *args, u128 *seen) {
    int k;
    PyObject *cand, *units, *peers;
    (void)mod;
    if (!PyArg_ParseTuple(args, "iOOO", &k, &cand, &units, &peers)) return NULL;
    if (k < 2 || k > 8) {
        PyErr_SetString(PyExc_ValueError, "bad k");
        return NULL;
    }
    uint16_t cd[NCELL];
    u128 peer[NCELL];
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return NULL;
    PyObject *pf = PySequence_Fast(peers, "peers");
    if (!pf) {
        Py_DECREF(cf);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(cf) != NCELL || PySequence_Fast_GET_SIZE(pf) != NCELL) {
        Py_DECREF(cf);
        Py_DECREF(pf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return NULL;
    }
    for (int c = 0; c < NCELL; c++) {
        cd[c] = (uint16_t)(PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c)) & 0x1FF);
        if (to_u128(PySequence_Fast_GET_ITEM(pf, c), &peer[c]) < 0) {
            Py_DECREF(cf);
            Py_DECREF(pf);
            return NULL;
        }
    }
    Py_DECREF(cf);
    Py_DECREF(pf);
    if (PyErr_Occurred()) return NULL;
    u128 pos[NDIG];
    memset(pos, 0, sizeof(pos));
    u128 bival[512];
    memset(bival, 0, sizeof(bival));
    int any_pair = 0;
    for (int c = 0; c < NCELL; c++) {
        for (int d = 0; d < NDIG; d++)
            if (cd[c] >> d & 1) pos[d] |= (u128)1 << c;
        if (__builtin_popcount(cd[c]) == 2) {
            bival[cd[c]] |= (u128)1 << c;
            any_pair = 1;
        }
    }
    if (!any_pair) Py_RETURN_NONE;
    u128 all = ((u128)1 << NCELL) - 1;
    /* seen ALS cell sets */
    int nseen = 0;
    int best = 0, bse = 0, bvic = 0, by = 0, bxd = 0, bzd = 0, bm = 0, bu = 0, bcombo[9], bk = 0;
    u128 bvictims = 0;
    PyObject *uf = PySequence_Fast(units, "units");
    if (!uf) return NULL;
    Py_ssize_t nu = PySequence_Fast_GET_SIZE(uf);
    for (Py_ssize_t ui = 0; ui < nu; ui++) {
        int u;
        PyObject *ucells;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(uf, ui), "iO", &u, &ucells)) {
            Py_DECREF(uf);
            return NULL;
        }
        PyObject *ucf = PySequence_Fast(ucells, "cells");
        if (!ucf) {
            Py_DECREF(uf);
            return NULL;
        }
        int cells[NCELL], nc = 0;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(ucf); j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(ucf, j));
            if (c < 0 || c >= NCELL) continue;
            int pc = __builtin_popcount(cd[c]);
            if (cd[c] && pc >= 2 && pc <= k + 1) cells[nc++] = (int)c;
        }
        Py_DECREF(ucf);
        if (nc < k) continue;
        /* combinations of k indexes, lexicographic (itertools.combinations) */
        int idx[9];
        for (int i = 0; i < k; i++) idx[i] = i;
        for (;;) {
            unsigned m = 0;
            for (int i = 0; i < k; i++) m |= cd[cells[idx[i]]];
            if (__builtin_popcount(m) == k + 1) {
                u128 amask = 0;
                for (int i = 0; i < k; i++) amask |= (u128)1 << cells[idx[i]];
                /* ys: bivalue cells on a pair of the set's digits, outside it, pair by pair */
                int ys[NCELL * 36], ny = 0;
                int ds[NDIG], nd = 0;
                for (int d = 0; d < NDIG; d++)
                    if (m >> d & 1) ds[nd++] = d;
                for (int i1 = 0; i1 < nd; i1++)
                    for (int i2 = i1 + 1; i2 < nd; i2++) {
                        u128 cs = bival[(1u << ds[i1]) | (1u << ds[i2])] & ~amask;
                        while (cs) {
                            ys[ny++] = ctz128(cs);
                            cs &= cs - 1;
                        }
                    }
                int dup = 0;
                if (ny)
                    for (int i = 0; i < nseen; i++)
                        if (seen[i] == amask) {
                            dup = 1;
                            break;
                        }
                if (ny && !dup) {
                    if (nseen < SEEN_MAX) seen[nseen++] = amask;
                    u128 holders[NDIG];
                    int biggest = 0;
                    for (int d = 0; d < NDIG; d++) holders[d] = pos[d] & amask;
                    for (int i = 0; i < k; i++) {
                        int pc = __builtin_popcount(cd[cells[idx[i]]]);
                        if (pc > biggest) biggest = pc;
                    }
                    int se10 = als_se10(k, biggest);
                    for (int yi = 0; yi < ny; yi++) {
                        int y = ys[yi];
                        unsigned ym = cd[y];
                        int lo = __builtin_ctz(ym), hi = 31 - __builtin_clz(ym);
                        for (int o = 0; o < 2; o++) {
                            int xd = o == 0 ? lo : hi, zd = o == 0 ? hi : lo;
                            if (holders[xd] & ~peer[y]) continue;
                            u128 sz = all, hz = holders[zd];
                            while (hz) {
                                int c = ctz128(hz);
                                hz &= hz - 1;
                                sz &= peer[c];
                            }
                            sz &= ~holders[zd];
                            u128 victims = pos[zd] & sz & peer[y] & ~amask;
                            if (!victims) continue;
                            int nv = pop128(victims);
                            if (!best || se10 < bse || (se10 == bse && -nv < -bvic)) {
                                best = 1;
                                bse = se10;
                                bvic = nv;
                                bvictims = victims;
                                by = y;
                                bxd = xd;
                                bzd = zd;
                                bm = (int)m;
                                bu = u;
                                bk = k;
                                for (int i = 0; i < k; i++) bcombo[i] = cells[idx[i]];
                            }
                        }
                    }
                }
            }
            int i = k - 1;
            while (i >= 0 && idx[i] == nc - k + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    Py_DECREF(uf);
    if (!best) Py_RETURN_NONE;
    PyObject *combo = PyTuple_New(bk);
    if (!combo) return NULL;
    for (int i = 0; i < bk; i++) PyTuple_SET_ITEM(combo, i, PyLong_FromLong(bcombo[i]));
    PyObject *vic = PyList_New(0);
    if (!vic) {
        Py_DECREF(combo);
        return NULL;
    }
    while (bvictims) {
        PyObject *v = PyLong_FromLong(ctz128(bvictims));
        bvictims &= bvictims - 1;
        if (!v || PyList_Append(vic, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(vic);
            Py_DECREF(combo);
            return NULL;
        }
        Py_DECREF(v);
    }
    return Py_BuildValue("(iNNiiiii)", bse, vic, combo, by, bxd, bzd, bm, bu);
}

static PyObject *als_wing(PyObject *mod, PyObject *args) {
    u128 *seen = PyMem_Malloc(sizeof(u128) * SEEN_MAX);
    if (!seen) return PyErr_NoMemory();
    PyObject *r = als_wing_in(mod, args, seen);
    PyMem_Free(seen);
    return r;
}

/* subsets.find_naked_subset / find_hidden_subset's search: subset(hidden, k, cand, se_order, units) ->
 * None or (unit id, combo): the first k-subset with something to remove, units in se_order, combinations
 * in itertools order (naked: cells of the unit holding at most k candidates; hidden: digits with at
 * most k places in the unit). */
static PyObject *subset(PyObject *mod, PyObject *args) {
    int hidden, k;
    PyObject *cand, *order, *units;
    (void)mod;
    if (!PyArg_ParseTuple(args, "piOOO", &hidden, &k, &cand, &order, &units)) return NULL;
    if (k < 1 || k > 8) {
        PyErr_SetString(PyExc_ValueError, "bad k");
        return NULL;
    }
    uint16_t cd[NCELL];
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return NULL;
    if (PySequence_Fast_GET_SIZE(cf) != NCELL) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return NULL;
    }
    for (int c = 0; c < NCELL; c++) cd[c] = (uint16_t)(PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c)) & 0x1FF);
    Py_DECREF(cf);
    if (PyErr_Occurred()) return NULL;
    PyObject *of = PySequence_Fast(order, "order");
    if (!of) return NULL;
    PyObject *uf = PySequence_Fast(units, "units");
    if (!uf) {
        Py_DECREF(of);
        return NULL;
    }
    PyObject *result = NULL;
    for (Py_ssize_t oi = 0; oi < PySequence_Fast_GET_SIZE(of) && !result; oi++) {
        long u = PyLong_AsLong(PySequence_Fast_GET_ITEM(of, oi));
        if (u < 0 || u >= PySequence_Fast_GET_SIZE(uf)) continue;
        PyObject *ucf = PySequence_Fast(PySequence_Fast_GET_ITEM(uf, u), "cells");
        if (!ucf) break;
        int cells[NCELL], nc = 0;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(ucf); j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(ucf, j));
            if (c >= 0 && c < NCELL && cd[c]) cells[nc++] = (int)c;
        }
        Py_DECREF(ucf);
        if (nc <= k) continue;
        int items[NCELL], ni = 0;
        unsigned imask[NCELL]; /* naked: the cell's digits; hidden: the digit's places as unit positions */
        if (!hidden) {
            for (int i = 0; i < nc; i++)
                if (__builtin_popcount(cd[cells[i]]) <= k) {
                    imask[ni] = cd[cells[i]];
                    items[ni++] = cells[i];
                }
        } else {
            for (int d = 0; d < NDIG; d++) {
                unsigned pm = 0;
                for (int i = 0; i < nc; i++)
                    if (cd[cells[i]] >> d & 1) pm |= 1u << i;
                if (pm && __builtin_popcount(pm) <= k) {
                    imask[ni] = pm;
                    items[ni++] = d;
                }
            }
        }
        if (ni < k) continue;
        int idx[9];
        for (int i = 0; i < k; i++) idx[i] = i;
        for (;;) {
            unsigned m = 0;
            for (int i = 0; i < k; i++) m |= imask[idx[i]];
            if (__builtin_popcount(m) == (unsigned)k) {
                int found = 0;
                if (!hidden) {
                    for (int i = 0; i < nc && !found; i++) {
                        int in = 0;
                        for (int j = 0; j < k; j++)
                            if (items[idx[j]] == cells[i]) in = 1;
                        if (!in && (cd[cells[i]] & m)) found = 1;
                    }
                } else {
                    unsigned dm = 0;
                    for (int j = 0; j < k; j++) dm |= 1u << items[idx[j]];
                    for (int i = 0; i < nc && !found; i++)
                        if ((m >> i & 1) && (cd[cells[i]] & ~dm)) found = 1;
                }
                if (found) {
                    PyObject *combo = PyTuple_New(k);
                    if (!combo) break;
                    for (int j = 0; j < k; j++) PyTuple_SET_ITEM(combo, j, PyLong_FromLong(items[idx[j]]));
                    result = Py_BuildValue("(lN)", u, combo);
                    break;
                }
            }
            int i = k - 1;
            while (i >= 0 && idx[i] == ni - k + i) i--;
            if (i < 0) break;
            idx[i]++;
            for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    Py_DECREF(of);
    Py_DECREF(uf);
    if (PyErr_Occurred()) {
        Py_XDECREF(result);
        return NULL;
    }
    if (!result) Py_RETURN_NONE;
    return result;
}

/* fish.find_fish's search on 9x9: fish(k, cand) -> None or (digit, by_rows, base lines): the first basic
 * fish with something to remove, digits ascending, rows before columns, combinations in itertools order. */
static PyObject *fish(PyObject *mod, PyObject *args) {
    int k;
    PyObject *cand;
    (void)mod;
    if (!PyArg_ParseTuple(args, "iO", &k, &cand)) return NULL;
    if (k < 1 || k > 8) {
        PyErr_SetString(PyExc_ValueError, "bad k");
        return NULL;
    }
    uint16_t cd[NCELL];
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return NULL;
    if (PySequence_Fast_GET_SIZE(cf) != NCELL) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return NULL;
    }
    for (int c = 0; c < NCELL; c++) cd[c] = (uint16_t)(PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c)) & 0x1FF);
    Py_DECREF(cf);
    if (PyErr_Occurred()) return NULL;
    for (int d = 0; d < NDIG; d++) {
        unsigned rows[NDIG], cols[NDIG];
        int any = 0;
        memset(rows, 0, sizeof(rows));
        memset(cols, 0, sizeof(cols));
        for (int c = 0; c < NCELL; c++)
            if (cd[c] >> d & 1) {
                rows[c / NDIG] |= 1u << (c % NDIG);
                cols[c % NDIG] |= 1u << (c / NDIG);
                any = 1;
            }
        if (!any) continue;
        for (int br = 1; br >= 0; br--) {
            unsigned *lines = br ? rows : cols, *other = br ? cols : rows;
            int items[NDIG], ni = 0;
            for (int i = 0; i < NDIG; i++)
                if (lines[i] && __builtin_popcount(lines[i]) <= k) items[ni++] = i;
            if (ni < k) continue;
            int idx[9];
            for (int i = 0; i < k; i++) idx[i] = i;
            for (;;) {
                unsigned cover = 0, bmask = 0;
                for (int i = 0; i < k; i++) {
                    cover |= lines[items[idx[i]]];
                    bmask |= 1u << items[idx[i]];
                }
                if (__builtin_popcount(cover) == (unsigned)k) {
                    int found = 0;
                    for (int j = 0; j < NDIG && !found; j++)
                        if ((cover >> j & 1) && (other[j] & ~bmask)) found = 1;
                    if (found) {
                        PyObject *base = PyTuple_New(k);
                        if (!base) return NULL;
                        for (int i = 0; i < k; i++) PyTuple_SET_ITEM(base, i, PyLong_FromLong(items[idx[i]]));
                        return Py_BuildValue("(iON)", d, br ? Py_True : Py_False, base);
                    }
                }
                int i = k - 1;
                while (i >= 0 && idx[i] == ni - k + i) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
            }
        }
    }
    Py_RETURN_NONE;
}

static PyMethodDef engine_functions[] = {
    {"fish", fish, METH_VARARGS, "The search of fish.find_fish on 9x9."},
    {"subset", subset, METH_VARARGS, "The search of subsets.find_naked_subset / find_hidden_subset."},
    {"als_wing", als_wing, METH_VARARGS, "The search of als.find_als_wing."},
    {"links_of", links_of, METH_VARARGS, "The Links of one mode of a board's implication graph."},
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
