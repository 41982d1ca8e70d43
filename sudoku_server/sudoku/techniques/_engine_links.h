/* The technique engine's implication-graph searches (a board's Links: static forcing chains, the
 * meeting of two closures, cycles, chain passes; links_of builds one). Part of the _engine
 * extension: _engine.c includes this file once, after the candidate and node bitset helpers and
 * the Dyn type; its design is in _engine.c's header comment.
 */

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

