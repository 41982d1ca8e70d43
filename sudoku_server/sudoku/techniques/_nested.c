/* The rules inside Sudoku Explainer's nested forcing chains, in C.
 *
 * sudoku_server.sudoku.techniques._nested: what a dynamic chain of
 * techniques/nested.py runs on its working grid at each standstill
 * (nested_rules.rules), the same computations as the Python of
 * nested_rules.py, which stays the oracle (tests/test_nested_native.py holds
 * them equal hit for hit): the level-1 rules, level 2's forcing chains
 * through the strong links the chain made, and level 3's static cell and
 * unit forcing chains, some 120,000 breadth-first searches per level-3
 * search, each ~60 us in Python and a few microseconds here.
 *
 * Candidate id = 0-based digit * N + cell; a node = id * 2 + is_on, so the
 * nodes' natural order is Python's sorted order of (id, is_on) tuples.
 * Cell masks: bit d for 0-based digit d; cand is the working grid, src_cand
 * the grid the outer chain started from.
 *
 *   geometry(n, N, units, cell_units, peers, se_order, inter, rows, columns) -> bytes
 *       the geometry flattened once (int32 words) for the others.
 *   rules1(geo, cand, src_cand) -> [(removed, needs, None)]
 *       the hits of the first of pointing/claiming, hidden pair, naked pair, X-Wing.
 *   chains(geo, cand, src_cand) -> [(id, is_on, size, removed, need, 0, 0)]
 *       nested_chains' conclusions, in node order.
 *   multiple(geo, cand, src_cand) -> [(id, is_on, size, removed, need, kind, where)]
 *       nested_multiple's conclusions, in node order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IDS 8192 /* n * N: nodes fit an int16 parent index (+1) */
#define MAX_DIGITS 32

/* The flattened geometry: header words then the tables. */
typedef struct {
    int n, N, U, CU, P, NI;
    const int32_t *units;      /* U * n cells */
    const int32_t *ncu;        /* N: units per cell */
    const int32_t *cell_units; /* N * CU, in se_order */
    const int32_t *npeer;      /* N */
    const int32_t *peers;      /* N * P, ascending */
    const int32_t *se_order;   /* U */
    const int32_t *inter;      /* NI * 2: (box, line) of every box-line intersection, boxes in order */
    const int32_t *rows;       /* n unit ids */
    const int32_t *columns;    /* n unit ids */
} Geo;

static int geo_view(const char *buf, Py_ssize_t len, Geo *g) {
    const int32_t *w = (const int32_t *)buf;
    if (len < 6 * 4) return -1;
    g->n = w[0];
    g->N = w[1];
    g->U = w[2];
    g->CU = w[3];
    g->P = w[4];
    g->NI = w[5];
    Py_ssize_t need = 6 + 2 * (Py_ssize_t)g->NI + 2 * (Py_ssize_t)g->n + (Py_ssize_t)g->U * g->n + g->N + (Py_ssize_t)g->N * g->CU + g->N +
                      (Py_ssize_t)g->N * g->P + g->U;
    if (len != need * 4) return -1;
    const int32_t *p = w + 6;
    g->units = p;
    p += g->U * g->n;
    g->ncu = p;
    p += g->N;
    g->cell_units = p;
    p += g->N * g->CU;
    g->npeer = p;
    p += g->N;
    g->peers = p;
    p += g->N * g->P;
    g->se_order = p;
    p += g->U;
    g->inter = p;
    p += 2 * g->NI;
    g->rows = p;
    g->columns = p + g->n;
    return 0;
}

static int int_list(PyObject *seq, const char *what, int32_t *out, Py_ssize_t count, Py_ssize_t stride) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > stride || (count >= 0 && len != count)) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: wrong length", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int32_t)v;
    }
    Py_DECREF(fast);
    return (int)len;
}

static Py_ssize_t max_len(PyObject *seqs) {
    Py_ssize_t m = 0, k = PySequence_Size(seqs);
    if (k < 0) return -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *s = PySequence_GetItem(seqs, i);
        if (!s) return -1;
        Py_ssize_t l = PySequence_Size(s);
        Py_DECREF(s);
        if (l < 0) return -1;
        if (l > m) m = l;
    }
    return m;
}

static PyObject *geometry(PyObject *self, PyObject *args) {
    (void)self;
    int n, N;
    PyObject *units, *cell_units, *peers, *se_order, *inter, *rows, *columns;
    if (!PyArg_ParseTuple(args, "iiOOOOOOO", &n, &N, &units, &cell_units, &peers, &se_order, &inter, &rows, &columns))
        return NULL;
    Py_ssize_t U = PySequence_Size(units), NI2 = PySequence_Size(inter);
    Py_ssize_t CU = max_len(cell_units), P = max_len(peers);
    if (U < 0 || CU < 0 || P < 0 || NI2 < 0) return NULL;
    if (n < 1 || n > MAX_DIGITS || N < 1 || (long)n * N > MAX_IDS || PySequence_Size(cell_units) != N ||
        PySequence_Size(peers) != N || PySequence_Size(se_order) != U || NI2 % 2 || PySequence_Size(rows) != n ||
        PySequence_Size(columns) != n) {
        PyErr_SetString(PyExc_ValueError, "geometry: unsupported size or inconsistent tables");
        return NULL;
    }
    Py_ssize_t words = 6 + U * n + N + N * CU + N + N * P + U + NI2 + 2 * n;
    PyObject *out = PyBytes_FromStringAndSize(NULL, words * 4);
    if (!out) return NULL;
    int32_t *w = (int32_t *)PyBytes_AS_STRING(out);
    memset(w, 0, (size_t)words * 4);
    w[0] = n;
    w[1] = N;
    w[2] = (int32_t)U;
    w[3] = (int32_t)CU;
    w[4] = (int32_t)P;
    w[5] = (int32_t)(NI2 / 2);
    int32_t *p = w + 6;
    for (Py_ssize_t u = 0; u < U; u++) {
        PyObject *s = PySequence_GetItem(units, u);
        int r = s ? int_list(s, "units", p + u * n, n, n) : -1;
        Py_XDECREF(s);
        if (r < 0) goto fail;
    }
    p += U * n;
    int32_t *ncu = p, *cu = p + N;
    for (int c = 0; c < N; c++) {
        PyObject *s = PySequence_GetItem(cell_units, c);
        int r = s ? int_list(s, "cell_units", cu + (Py_ssize_t)c * CU, -1, CU) : -1;
        Py_XDECREF(s);
        if (r < 0) goto fail;
        ncu[c] = r;
    }
    p += N + N * CU;
    int32_t *np = p, *pe = p + N;
    for (int c = 0; c < N; c++) {
        PyObject *s = PySequence_GetItem(peers, c);
        int r = s ? int_list(s, "peers", pe + (Py_ssize_t)c * P, -1, P) : -1;
        Py_XDECREF(s);
        if (r < 0) goto fail;
        np[c] = r;
    }
    p += N + N * P;
    if (int_list(se_order, "se_order", p, U, U) < 0 || int_list(inter, "inter", p + U, NI2, NI2) < 0 ||
        int_list(rows, "rows", p + U + NI2, n, n) < 0 || int_list(columns, "columns", p + U + NI2 + n, n, n) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < U * n; i++)
        if (w[6 + i] < 0 || w[6 + i] >= N) goto bad;
    for (int c = 0; c < N; c++) {
        for (int i = 0; i < ncu[c]; i++)
            if (cu[c * CU + i] < 0 || cu[c * CU + i] >= U) goto bad;
        for (int i = 0; i < np[c]; i++)
            if (pe[c * P + i] < 0 || pe[c * P + i] >= N) goto bad;
    }
    for (Py_ssize_t i = 0; i < U + NI2 + 2 * n; i++)
        if (p[i] < 0 || p[i] >= U) goto bad;
    return out;
bad:
    PyErr_SetString(PyExc_ValueError, "geometry: an index out of range");
fail:
    Py_DECREF(out);
    return NULL;
}

/* One call's state. */
typedef struct {
    const Geo *g;
    int n, N, ids, W;
    uint32_t *cand, *src;
    int16_t **par;     /* per source id: parent node + 1 per node (0: not reached, -1: the source) */
    uint64_t **vis;    /* per source id: the nodes reached (NW words) */
    uint64_t *common;  /* NW words */
    int NW;
    int S;             /* adjacency stride */
    int16_t *adj;      /* per node: the nodes it implies, in nested_rules._static_reach's order */
    int16_t *nadj;     /* per node: how many */
    int16_t *queue;    /* 2 * ids */
    uint64_t *need;    /* W words */
    int32_t *bsize;    /* per node: best size, -1 none */
    uint64_t *bneed;   /* per node: W words */
    int32_t *bkind, *bwhere;
    uint64_t *own;     /* W words */
} Ctx;

static int popc(uint32_t m) { return __builtin_popcount(m); }

static int high_bit(uint32_t m) { return 31 - __builtin_clz(m); }

/* Every node's static implications on the working grid, in _static_reach's order. */
static void build_adj(Ctx *x) {
    const Geo *g = x->g;
    int N = x->N;
    for (int node = 0; node < 2 * x->ids; node++) {
        int k = node >> 1, on = node & 1;
        int d = k / N, c = k % N;
        uint32_t m = x->cand[c];
        int16_t *o = x->adj + (Py_ssize_t)node * x->S;
        int cnt = 0;
        if (!(m >> d & 1)) { /* never reached: only present candidates are */
            x->nadj[node] = 0;
            continue;
        }
        if (on) {
            for (uint32_t r = m & ~(1u << d); r; r &= r - 1) o[cnt++] = (int16_t)((__builtin_ctz(r) * N + c) * 2);
            const int32_t *pe = g->peers + (Py_ssize_t)c * g->P;
            for (int i = 0; i < g->npeer[c]; i++)
                if (x->cand[pe[i]] >> d & 1) o[cnt++] = (int16_t)((d * N + pe[i]) * 2);
        } else {
            if (popc(m) == 2) o[cnt++] = (int16_t)((high_bit(m & ~(1u << d)) * N + c) * 2 + 1);
            const int32_t *cu = g->cell_units + (Py_ssize_t)c * g->CU;
            for (int i = 0; i < g->ncu[c]; i++) {
                const int32_t *cells = g->units + (Py_ssize_t)cu[i] * g->n;
                int n2 = 0, other = -1;
                for (int j = 0; j < g->n; j++)
                    if (x->cand[cells[j]] >> d & 1) {
                        n2++;
                        if (cells[j] != c && cells[j] > other) other = cells[j];
                    }
                if (n2 == 2 && other >= 0) o[cnt++] = (int16_t)((d * N + other) * 2 + 1);
            }
        }
        x->nadj[node] = (int16_t)cnt;
    }
}

/* Breadth first from (src, on) on the fixed grid, as nested_rules._static_reach. */
static int16_t *reach(Ctx *x, int src) {
    if (x->par[src]) return x->par[src];
    int16_t *par = calloc((size_t)x->ids * 2, sizeof(int16_t));
    uint64_t *vis = calloc((size_t)x->NW, 8);
    if (!par || !vis) {
        free(par);
        free(vis);
        return NULL;
    }
    x->par[src] = par;
    x->vis[src] = vis;
    int16_t *q = x->queue;
    int head = 0, tail = 0;
    int s = src * 2 + 1;
    par[s] = -1;
    vis[s >> 6] |= 1ull << (s & 63);
    q[tail++] = (int16_t)s;
    while (head < tail) {
        int node = q[head++];
        const int16_t *o = x->adj + (Py_ssize_t)node * x->S;
        for (int i = 0; i < x->nadj[node]; i++) {
            int nn = o[i];
            if (!par[nn]) {
                par[nn] = (int16_t)(node + 1);
                vis[nn >> 6] |= 1ull << (nn & 63);
                q[tail++] = (int16_t)nn;
            }
        }
    }
    return par;
}

static void set_bit(uint64_t *b, int i) { b[i >> 6] |= 1ull << (i & 63); }

/* The removed ids behind the strong link off(p) -> on(q), as nested_rules._why, or'ed into x->need. */
static void why(Ctx *x, int p, int q) {
    const Geo *g = x->g;
    int N = x->N, n = g->n;
    int cp = p % N, dq = q / N, cq = q % N;
    if (cp == cq) {
        uint32_t e = x->src[cq] & ~x->cand[cq];
        while (e) {
            set_bit(x->need, __builtin_ctz(e) * N + cq);
            e &= e - 1;
        }
        return;
    }
    const int32_t *cu = g->cell_units + (Py_ssize_t)cq * g->CU;
    for (int i = 0; i < g->ncu[cq]; i++) {
        const int32_t *cells = g->units + (Py_ssize_t)cu[i] * n;
        int has = 0, cnt = 0;
        for (int j = 0; j < n; j++) {
            if (cells[j] == cp) has = 1;
            if (x->cand[cells[j]] >> dq & 1) cnt++;
        }
        if (has && cnt == 2) {
            for (int j = 0; j < n; j++)
                if ((x->src[cells[j]] >> dq & 1) && !(x->cand[cells[j]] >> dq & 1)) set_bit(x->need, dq * N + cells[j]);
            return;
        }
    }
}

/* nested_multiple's conclude(kind, where, srcs, own): own is already in x->need's template. */
static int conclude(Ctx *x, int kind, int where, const int *srcs, int ns, const uint64_t *own) {
    int W = x->W, N = x->N, NW = x->NW;
    int16_t *pars[MAX_DIGITS];
    for (int i = 0; i < ns; i++) {
        pars[i] = reach(x, srcs[i]);
        if (!pars[i]) return -1;
    }
    uint64_t any_common = 0;
    for (int w = 0; w < NW; w++) {
        uint64_t m = x->vis[srcs[0]][w];
        for (int i = 1; i < ns && m; i++) m &= x->vis[srcs[i]][w];
        x->common[w] = m;
        any_common |= m;
    }
    if (!any_common) return 0;
    for (int w = 0; w < NW; w++)
        for (uint64_t m = x->common[w]; m; m &= m - 1) {
        int node = w * 64 + __builtin_ctzll(m);
        int i;
        int kk = node >> 1, on = node & 1;
        for (i = 0; i < ns; i++)
            if (srcs[i] == kk) break;
        if (i < ns) continue;
        int d = kk / N, c = kk % N;
        uint32_t removed = on ? (x->cand[c] & ~(1u << d)) : (x->cand[c] & (1u << d));
        if (!removed) continue;
        int size = 0;
        for (i = 0; i < ns; i++)
            for (int cur = node; cur >= 0; cur = pars[i][cur] - 1) size++;
        if (x->bsize[node] >= 0 && x->bsize[node] <= size) continue;
        memcpy(x->need, own, (size_t)W * 8);
        for (i = 0; i < ns; i++)
            for (int cur = node; pars[i][cur] > 0; cur = pars[i][cur] - 1) {
                int pnode = pars[i][cur] - 1;
                if ((cur & 1) && !(pnode & 1)) why(x, pnode >> 1, cur >> 1);
            }
        int any = 0;
        for (i = 0; i < W; i++) any |= x->need[i] != 0;
        if (any) {
            x->bsize[node] = size;
            memcpy(x->bneed + (Py_ssize_t)node * W, x->need, (size_t)W * 8);
            x->bkind[node] = kind;
            x->bwhere[node] = where;
        }
        }
    return 0;
}

static PyObject *id_list(uint32_t digits, int N, int c) {
    PyObject *out = PyList_New(0);
    while (out && digits) {
        PyObject *v = PyLong_FromLong((long)__builtin_ctz(digits) * N + c);
        digits &= digits - 1;
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(v);
    }
    return out;
}

static PyObject *bits_list(const uint64_t *b, int W) {
    PyObject *out = PyList_New(0);
    for (int w = 0; out && w < W; w++) {
        uint64_t m = b[w];
        while (m) {
            PyObject *v = PyLong_FromLong((long)w * 64 + __builtin_ctzll(m));
            m &= m - 1;
            if (!v || PyList_Append(out, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(v);
        }
    }
    return out;
}

static void ctx_close(Ctx *x) {
    if (x->par)
        for (int i = 0; i < x->ids; i++) free(x->par[i]);
    if (x->vis)
        for (int i = 0; i < x->ids; i++) free(x->vis[i]);
    free(x->vis);
    free(x->common);
    free(x->adj);
    free(x->nadj);
    free(x->par);
    free(x->cand);
    free(x->src);
    free(x->queue);
    free(x->need);
    free(x->bsize);
    free(x->bneed);
    free(x->bkind);
    free(x->bwhere);
    free(x->own);
}

/* Parse (geo, cand, src_cand) into x (its tables built); -1 with an exception set. */
static int ctx_open(Ctx *x, Geo *g, const Py_buffer *gb, PyObject *cand_o, PyObject *src_o) {
    memset(x, 0, sizeof *x);
    if (geo_view(gb->buf, gb->len, g) < 0) {
        PyErr_SetString(PyExc_ValueError, "not a geometry from geometry()");
        return -1;
    }
    x->g = g;
    x->n = g->n;
    x->N = g->N;
    x->ids = g->n * g->N;
    x->W = (x->ids + 63) / 64;
    x->NW = (2 * x->ids + 63) / 64;
    x->S = g->n + g->P + g->CU + 1;
    x->adj = malloc((size_t)x->ids * 2 * x->S * sizeof(int16_t));
    x->nadj = calloc((size_t)x->ids * 2, sizeof(int16_t));
    x->vis = calloc((size_t)x->ids, sizeof(uint64_t *));
    x->common = calloc((size_t)x->NW, 8);
    x->cand = calloc((size_t)g->N, 4);
    x->src = calloc((size_t)g->N, 4);
    x->par = calloc((size_t)x->ids, sizeof(int16_t *));
    x->queue = calloc((size_t)x->ids * 2, sizeof(int16_t));
    x->need = calloc((size_t)x->W, 8);
    x->bsize = malloc((size_t)x->ids * 2 * 4);
    x->bneed = calloc((size_t)x->ids * 2 * x->W, 8);
    x->bkind = calloc((size_t)x->ids * 2, 4);
    x->bwhere = calloc((size_t)x->ids * 2, 4);
    x->own = calloc((size_t)x->W, 8);
    if (!x->adj || !x->nadj || !x->vis || !x->common || !x->cand || !x->src || !x->par || !x->queue || !x->need ||
        !x->bsize || !x->bneed || !x->bkind || !x->bwhere || !x->own) {
        PyErr_NoMemory();
        return -1;
    }
    if (int_list(cand_o, "cand", (int32_t *)x->cand, g->N, g->N) < 0 ||
        int_list(src_o, "src_cand", (int32_t *)x->src, g->N, g->N) < 0)
        return -1;
    uint32_t full = g->n == 32 ? 0xFFFFFFFFu : ((1u << g->n) - 1);
    for (int c = 0; c < g->N; c++)
        if ((x->cand[c] & ~full) || (x->src[c] & ~full)) {
            PyErr_SetString(PyExc_ValueError, "a cell mask past the digits");
            return -1;
        }
    for (int i = 0; i < x->ids * 2; i++) x->bsize[i] = -1;
    build_adj(x);
    return 0;
}

/* The best conclusion per node as a list of (id, is_on, size, removed, need, kind, where), in node order. */
/* Append node's result (kk, on, size, removed ids, needed bits, kind, where) to result; rem: the
 * candidates it removes (cell c's others when on, else its digit). 0, or -1 with an exception set.
 * Shared by results() and level 4's dynamic() (_nested_dynamic.h). */
static int append_result(PyObject *result, int N, int node, uint32_t rem, const int32_t *bsize,
                         const uint64_t *bneed, int W, const int32_t *bkind, const int32_t *bwhere) {
    int kk = node >> 1, on = node & 1;
    PyObject *removed = id_list(rem, N, kk % N);
    PyObject *need = removed ? bits_list(bneed + (Py_ssize_t)node * W, W) : NULL;
    PyObject *item = need ? Py_BuildValue("(iiiNNii)", kk, on, (int)bsize[node], removed, need, (int)bkind[node],
                                          (int)bwhere[node])
                          : NULL;
    if (!item) {
        Py_XDECREF(removed);
        Py_XDECREF(need);
        return -1;
    }
    int failed = PyList_Append(result, item);
    Py_DECREF(item);
    return failed;
}

static PyObject *results(Ctx *x) {
    int N = x->N;
    PyObject *result = PyList_New(0);
    for (int node = 0; result && node < x->ids * 2; node++) {
        if (x->bsize[node] < 0) continue;
        int kk = node >> 1, on = node & 1, d = kk / N, c = kk % N;
        uint32_t rem = on ? (x->cand[c] & ~(1u << d)) : (1u << d);
        if (append_result(result, N, node, rem, x->bsize, x->bneed, x->W, x->bkind, x->bwhere) < 0) Py_CLEAR(result);
    }
    return result;
}

static PyObject *multiple(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer gb;
    PyObject *cand_o, *src_o, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*OO", &gb, &cand_o, &src_o)) return NULL;
    Geo geo;
    Ctx x;
    const Geo *gp = &geo;
    if (ctx_open(&x, &geo, &gb, cand_o, src_o) < 0) goto done;
    uint64_t *own = x.own;
    int srcs[MAX_DIGITS];
    for (int c = 0; c < gp->N; c++) {
        uint32_t m = x.cand[c];
        if (popc(m) <= 2) continue;
        memset(own, 0, (size_t)x.W * 8);
        uint32_t e = x.src[c] & ~m;
        while (e) {
            set_bit(own, __builtin_ctz(e) * gp->N + c);
            e &= e - 1;
        }
        int ns = 0;
        for (uint32_t o = m; o; o &= o - 1) srcs[ns++] = __builtin_ctz(o) * gp->N + c;
        if (conclude(&x, 0, c, srcs, ns, own) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (int d = 0; d < gp->n; d++)
        for (int i = 0; i < gp->U; i++) {
            int u = gp->se_order[i];
            const int32_t *cells = gp->units + (Py_ssize_t)u * gp->n;
            /* the unit's cells ascending, as cells_of(pos[d] & unit_mask[u]) */
            int sorted[MAX_DIGITS], ns = 0;
            memset(own, 0, (size_t)x.W * 8);
            for (int j = 0; j < gp->n; j++) {
                int cc = cells[j];
                if (x.cand[cc] >> d & 1) {
                    int at = ns++;
                    while (at > 0 && sorted[at - 1] > cc) {
                        sorted[at] = sorted[at - 1];
                        at--;
                    }
                    sorted[at] = cc;
                } else if (x.src[cc] >> d & 1) {
                    set_bit(own, d * gp->N + cc);
                }
            }
            if (ns < 2) continue;
            for (int j = 0; j < ns; j++) srcs[j] = d * gp->N + sorted[j];
            if (conclude(&x, 1, u, srcs, ns, own) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
    result = results(&x);
done:
    ctx_close(&x);
    PyBuffer_Release(&gb);
    return result;
}

static int path_len(const int16_t *par, int node) {
    int size = 0;
    for (int cur = node; cur >= 0; cur = par[cur] - 1) size++;
    return size;
}

static void path_why(Ctx *x, const int16_t *par, int node) {
    for (int cur = node; par[cur] > 0; cur = par[cur] - 1) {
        int pnode = par[cur] - 1;
        if ((cur & 1) && !(pnode & 1)) why(x, pnode >> 1, cur >> 1);
    }
}

/* nested_rules.nested_chains: forcing chains from a candidate to its negation through a strong link the chain made. */
static PyObject *chains(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer gb;
    PyObject *cand_o, *src_o, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*OO", &gb, &cand_o, &src_o)) return NULL;
    Geo geo;
    Ctx x;
    int *la = NULL, *lb = NULL;
    uint64_t *made = NULL;
    if (ctx_open(&x, &geo, &gb, cand_o, src_o) < 0) goto done;
    int N = geo.N, n = geo.n, W = x.W, maxl = geo.N + geo.n * geo.U, nl = 0;
    la = malloc((size_t)maxl * sizeof(int));
    lb = malloc((size_t)maxl * sizeof(int));
    made = calloc((size_t)maxl * W, 8);
    if (!la || !lb || !made) {
        PyErr_NoMemory();
        goto done;
    }
    /* _new_links */
    for (int c = 0; c < N; c++) {
        uint32_t m = x.cand[c];
        if (popc(m) == 2 && x.src[c] != m) {
            la[nl] = __builtin_ctz(m) * N + c;
            lb[nl] = high_bit(m) * N + c;
            for (uint32_t e = x.src[c] & ~m; e; e &= e - 1) set_bit(made + (Py_ssize_t)nl * W, __builtin_ctz(e) * N + c);
            nl++;
        }
    }
    for (int d = 0; d < n; d++) {
        int same = 1;
        for (int c = 0; c < N && same; c++) same = ((x.cand[c] ^ x.src[c]) >> d & 1) == 0;
        if (same) continue;
        for (int i = 0; i < geo.U; i++) {
            const int32_t *cells = geo.units + (Py_ssize_t)geo.se_order[i] * n;
            int cnt = 0, differs = 0, lo = -1, hi = -1;
            for (int j = 0; j < n; j++) {
                int cc = cells[j];
                int has = x.cand[cc] >> d & 1, had = x.src[cc] >> d & 1;
                if (has != had) differs = 1;
                if (has) {
                    cnt++;
                    if (lo < 0 || cc < lo) lo = cc;
                    if (cc > hi) hi = cc;
                }
            }
            if (cnt != 2 || !differs) continue;
            la[nl] = d * N + lo;
            lb[nl] = d * N + hi;
            for (int j = 0; j < n; j++) {
                int cc = cells[j];
                if ((x.src[cc] >> d & 1) && !(x.cand[cc] >> d & 1)) set_bit(made + (Py_ssize_t)nl * W, d * N + cc);
            }
            nl++;
        }
    }
    for (int l = 0; l < nl; l++) {
        int a = la[l], b = lb[l];
        const int16_t *pa = reach(&x, a), *pb = reach(&x, b);
        if (!pa || !pb) {
            PyErr_NoMemory();
            goto done;
        }
        const uint64_t *va = x.vis[a], *vb = x.vis[b];
        for (int w = 0; w < x.NW; w++)
            for (uint64_t m = va[w] & vb[w]; m; m &= m - 1) {
                int node = w * 64 + __builtin_ctzll(m);
                int k = node >> 1, on = node & 1;
                if ((k == a || k == b) && !on) continue;
                if (on && popc(x.cand[k % N]) < 2) continue;
                int size = path_len(pa, node) + path_len(pb, node);
                if (x.bsize[node] >= 0 && x.bsize[node] <= size) continue;
                memcpy(x.need, made + (Py_ssize_t)l * W, (size_t)W * 8);
                path_why(&x, pa, node);
                path_why(&x, pb, node);
                int any = 0;
                for (int i = 0; i < W; i++) any |= x.need[i] != 0;
                if (any) {
                    x.bsize[node] = size;
                    memcpy(x.bneed + (Py_ssize_t)node * W, x.need, (size_t)W * 8);
                }
            }
    }
    result = results(&x);
done:
    free(la);
    free(lb);
    free(made);
    ctx_close(&x);
    PyBuffer_Release(&gb);
    return result;
}

/* ---- the level-1 rules on the working grid (nested_rules._locking, _hidden_pair, _naked_pair, _x_wing) ---- */

#define MAXCW 16 /* cells up to 1,024 */

typedef struct {
    uint64_t w[MAXCW];
} Cells;

typedef struct {
    const Geo *g;
    int N, n, CW;
    const uint32_t *cand, *src;
    Cells *um, *pos, *spos;
    PyObject *hits;
    int *ra, *rb; /* id buffers: removed, needed */
} Rules;

static int cs_empty(const Cells *a, int CW) {
    for (int i = 0; i < CW; i++)
        if (a->w[i]) return 0;
    return 1;
}

static int cs_count(const Cells *a, int CW) {
    int k = 0;
    for (int i = 0; i < CW; i++) k += __builtin_popcountll(a->w[i]);
    return k;
}

/* out = a & b & ~c (c may be NULL) */
static void cs_and(Cells *out, const Cells *a, const Cells *b, const Cells *c, int CW) {
    for (int i = 0; i < CW; i++) out->w[i] = a->w[i] & b->w[i] & (c ? ~c->w[i] : ~0ull);
}

static int cs_eq(const Cells *a, const Cells *b, int CW) {
    for (int i = 0; i < CW; i++)
        if (a->w[i] != b->w[i]) return 0;
    return 1;
}

/* the cells of a, ascending, as ids shift + cell, appended at buf[k...]; returns the new k */
static int cs_ids(const Cells *a, int CW, int shift, int *buf, int k) {
    for (int i = 0; i < CW; i++)
        for (uint64_t m = a->w[i]; m; m &= m - 1) buf[k++] = shift + i * 64 + __builtin_ctzll(m);
    return k;
}

static PyObject *ints(const int *v, int k) {
    PyObject *out = PyList_New(k);
    for (int i = 0; out && i < k; i++) {
        PyObject *o = PyLong_FromLong(v[i]);
        if (!o) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, o);
    }
    return out;
}

static int emit(Rules *r, int nrem, int nneed) {
    PyObject *a = ints(r->ra, nrem), *b = a ? ints(r->rb, nneed) : NULL;
    PyObject *hit = b ? PyTuple_Pack(3, a, b, Py_None) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    if (!hit) return -1;
    int rc = PyList_Append(r->hits, hit);
    Py_DECREF(hit);
    return rc;
}

static int rule_locking(Rules *r) {
    const Geo *g = r->g;
    int CW = r->CW;
    for (int d = 0; d < r->n; d++) {
        const Cells *p = &r->pos[d];
        if (cs_empty(p, CW)) continue;
        Cells gone;
        cs_and(&gone, &r->spos[d], &r->spos[d], p, CW);
        if (cs_empty(&gone, CW)) continue;
        int sh = d * r->N;
        for (int i = 0; i < g->NI; i++) {
            const Cells *bm = &r->um[g->inter[2 * i]], *lm = &r->um[g->inter[2 * i + 1]];
            Cells im, part, rem, need;
            cs_and(&im, bm, lm, NULL, CW);
            for (int side = 0; side < 2; side++) {
                const Cells *here = side ? lm : bm, *there = side ? bm : lm;
                cs_and(&part, p, here, &im, CW);
                Cells any;
                cs_and(&any, p, here, NULL, CW);
                if (cs_empty(&any, CW) || !cs_empty(&part, CW)) continue;
                cs_and(&rem, p, there, &im, CW);
                if (cs_empty(&rem, CW)) continue;
                cs_and(&need, &gone, here, there, CW);
                if (cs_empty(&need, CW)) continue;
                if (emit(r, cs_ids(&rem, CW, sh, r->ra, 0), cs_ids(&need, CW, sh, r->rb, 0)) < 0) return -1;
            }
        }
    }
    return 0;
}

static int rule_hidden_pair(Rules *r) {
    const Geo *g = r->g;
    int CW = r->CW, N = r->N;
    Cells m[MAX_DIGITS];
    int dg[MAX_DIGITS];
    for (int i = 0; i < g->U; i++) {
        const Cells *um = &r->um[g->se_order[i]];
        int k = 0;
        for (int d = 0; d < r->n; d++) {
            cs_and(&m[k], &r->pos[d], um, NULL, CW);
            if (cs_count(&m[k], CW) == 2) dg[k++] = d;
        }
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++) {
                if (!cs_eq(&m[a], &m[b], CW)) continue;
                uint32_t keep = (1u << dg[a]) | (1u << dg[b]);
                int nr = 0;
                for (int w = 0; w < CW; w++)
                    for (uint64_t x = m[a].w[w]; x; x &= x - 1) {
                        int c = w * 64 + __builtin_ctzll(x);
                        for (uint32_t o = r->cand[c] & ~keep; o; o &= o - 1) r->ra[nr++] = __builtin_ctz(o) * N + c;
                    }
                if (!nr) continue;
                int nn = 0;
                Cells rest;
                for (int t = 0; t < 2; t++) {
                    int dd = t ? dg[b] : dg[a];
                    cs_and(&rest, &r->spos[dd], um, &m[a], CW);
                    nn = cs_ids(&rest, CW, dd * N, r->rb, nn);
                }
                if (nn && emit(r, nr, nn) < 0) return -1;
            }
    }
    return 0;
}

static int rule_naked_pair(Rules *r) {
    const Geo *g = r->g;
    int CW = r->CW, N = r->N;
    int cells[MAX_DIGITS];
    for (int i = 0; i < g->U; i++) {
        int u = g->se_order[i];
        const Cells *um = &r->um[u];
        int k = cs_ids(um, CW, 0, cells, 0), two[MAX_DIGITS], nt = 0;
        for (int j = 0; j < k; j++)
            if (popc(r->cand[cells[j]]) == 2) two[nt++] = cells[j];
        for (int a = 0; a < nt; a++)
            for (int b = a + 1; b < nt; b++) {
                uint32_t mm = r->cand[two[a]];
                if (r->cand[two[b]] != mm) continue;
                Cells ab;
                memset(&ab, 0, sizeof ab);
                ab.w[two[a] >> 6] |= 1ull << (two[a] & 63);
                ab.w[two[b] >> 6] |= 1ull << (two[b] & 63);
                int nr = 0;
                Cells rest;
                for (uint32_t o = mm; o; o &= o - 1) {
                    int dd = __builtin_ctz(o);
                    cs_and(&rest, &r->pos[dd], um, &ab, CW);
                    nr = cs_ids(&rest, CW, dd * N, r->ra, nr);
                }
                if (!nr) continue;
                int nn = 0;
                for (int t = 0; t < 2; t++) {
                    int c = t ? two[b] : two[a];
                    for (uint32_t o = r->src[c] & ~mm; o; o &= o - 1) r->rb[nn++] = __builtin_ctz(o) * N + c;
                }
                if (nn && emit(r, nr, nn) < 0) return -1;
            }
    }
    return 0;
}

static int rule_x_wing(Rules *r) {
    const Geo *g = r->g;
    int CW = r->CW, n = r->n;
    for (int orient = 0; orient < 2; orient++) {
        const int32_t *bases = orient ? g->columns : g->rows, *covers = orient ? g->rows : g->columns;
        for (int d = 0; d < n; d++) {
            const Cells *p = &r->pos[d];
            Cells gone, t;
            cs_and(&gone, &r->spos[d], &r->spos[d], p, CW);
            if (cs_empty(&gone, CW)) continue;
            int pu[MAX_DIGITS], np = 0;
            uint32_t pc[MAX_DIGITS];
            for (int i = 0; i < n; i++) {
                uint32_t cover = 0;
                Cells line;
                cs_and(&line, p, &r->um[bases[i]], NULL, CW);
                for (int j = 0; j < n; j++) {
                    cs_and(&t, &line, &r->um[covers[j]], NULL, CW);
                    if (!cs_empty(&t, CW)) cover |= 1u << j;
                }
                if (cover && popc(cover) <= 2) {
                    pu[np] = bases[i];
                    pc[np++] = cover;
                }
            }
            for (int a = 0; a < np; a++)
                for (int b = a + 1; b < np; b++) {
                    uint32_t cv = pc[a] | pc[b];
                    if (popc(cv) != 2) continue;
                    Cells cover_mask, base_mask, rem, need;
                    memset(&cover_mask, 0, sizeof cover_mask);
                    for (uint32_t o = cv; o; o &= o - 1)
                        for (int w = 0; w < CW; w++) cover_mask.w[w] |= r->um[covers[__builtin_ctz(o)]].w[w];
                    for (int w = 0; w < CW; w++) base_mask.w[w] = r->um[pu[a]].w[w] | r->um[pu[b]].w[w];
                    cs_and(&rem, p, &cover_mask, &base_mask, CW);
                    if (cs_empty(&rem, CW)) continue;
                    cs_and(&need, &gone, &base_mask, &cover_mask, CW);
                    if (cs_empty(&need, CW)) continue;
                    if (emit(r, cs_ids(&rem, CW, d * r->N, r->ra, 0), cs_ids(&need, CW, d * r->N, r->rb, 0)) < 0)
                        return -1;
                }
        }
    }
    return 0;
}

/* nested_rules.rules' first four rules: the hits of the first that has any, as [(removed, needs, None)]. */
static PyObject *rules1(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer gb;
    PyObject *cand_o, *src_o, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*OO", &gb, &cand_o, &src_o)) return NULL;
    Geo geo;
    Rules r;
    memset(&r, 0, sizeof r);
    uint32_t *cand = NULL, *src = NULL;
    if (geo_view(gb.buf, gb.len, &geo) < 0) {
        PyErr_SetString(PyExc_ValueError, "not a geometry from geometry()");
        goto done;
    }
    r.g = &geo;
    r.N = geo.N;
    r.n = geo.n;
    r.CW = (geo.N + 63) / 64;
    if (r.CW > MAXCW) {
        PyErr_SetString(PyExc_ValueError, "rules1: too many cells");
        goto done;
    }
    cand = calloc((size_t)geo.N, 4);
    src = calloc((size_t)geo.N, 4);
    r.um = calloc((size_t)geo.U, sizeof(Cells));
    r.pos = calloc((size_t)geo.n, sizeof(Cells));
    r.spos = calloc((size_t)geo.n, sizeof(Cells));
    r.ra = malloc((size_t)geo.n * geo.N * sizeof(int));
    r.rb = malloc((size_t)geo.n * geo.N * sizeof(int));
    if (!cand || !src || !r.um || !r.pos || !r.spos || !r.ra || !r.rb) {
        PyErr_NoMemory();
        goto done;
    }
    if (int_list(cand_o, "cand", (int32_t *)cand, geo.N, geo.N) < 0 ||
        int_list(src_o, "src_cand", (int32_t *)src, geo.N, geo.N) < 0)
        goto done;
    r.cand = cand;
    r.src = src;
    uint32_t full = geo.n == 32 ? 0xFFFFFFFFu : ((1u << geo.n) - 1);
    for (int c = 0; c < geo.N; c++) {
        if ((cand[c] & ~full) || (src[c] & ~full)) {
            PyErr_SetString(PyExc_ValueError, "a cell mask past the digits");
            goto done;
        }
        for (uint32_t o = cand[c]; o; o &= o - 1) r.pos[__builtin_ctz(o)].w[c >> 6] |= 1ull << (c & 63);
        for (uint32_t o = src[c]; o; o &= o - 1) r.spos[__builtin_ctz(o)].w[c >> 6] |= 1ull << (c & 63);
    }
    for (int u = 0; u < geo.U; u++)
        for (int j = 0; j < geo.n; j++) {
            int c = geo.units[(Py_ssize_t)u * geo.n + j];
            r.um[u].w[c >> 6] |= 1ull << (c & 63);
        }
    int (*const rules[4])(Rules *) = {rule_locking, rule_hidden_pair, rule_naked_pair, rule_x_wing};
    for (int i = 0; i < 4; i++) {
        r.hits = PyList_New(0);
        if (!r.hits || rules[i](&r) < 0) goto done;
        if (PyList_GET_SIZE(r.hits)) break;
        Py_CLEAR(r.hits);
    }
    result = r.hits ? r.hits : PyList_New(0);
    r.hits = NULL;
done:
    Py_XDECREF(r.hits);
    free(cand);
    free(src);
    free(r.um);
    free(r.pos);
    free(r.spos);
    free(r.ra);
    free(r.rb);
    PyBuffer_Release(&gb);
    return result;
}

#include "_nested_dynamic.h" /* level 4: dynamic(geo, cand, src_cand) */

static PyMethodDef methods[] = {
    {"geometry", geometry, METH_VARARGS,
     "geometry(n, N, units, cell_units, peers, se_order) -> bytes: the flattened geometry for multiple()."},
    {"multiple", multiple, METH_VARARGS,
     "multiple(geo, cand, src_cand) -> [(id, is_on, size, removed, need, kind, where)]: the static cell and unit "
     "forcing chains of the working grid (nested_rules.nested_multiple), in node order."},
    {"chains", chains, METH_VARARGS,
     "chains(geo, cand, src_cand) -> [(id, is_on, size, removed, need, 0, 0)]: the forcing chains from a candidate "
     "to its negation through a strong link the chain made (nested_rules.nested_chains), in node order."},
    {"rules1", rules1, METH_VARARGS,
     "rules1(geo, cand, src_cand) -> [(removed, needs, None)]: the hits of the first of pointing/claiming, hidden "
     "pair, naked pair, X-Wing that has any on the working grid (nested_rules.rules' level-1 part)."},
    {"dynamic", dynamic, METH_VARARGS,
     "dynamic(geo, cand, src_cand) -> [(id, is_on, size, removed, need, kind, where)]: level 4's rule, dynamic "
     "forcing chains on the working grid (_nested_dynamic.h), in SE's order of hints."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_nested",
    "The static forcing searches of nested forcing chains in C (nested_rules.nested_multiple is the oracle).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__nested(void) { return PyModule_Create(&module); }
