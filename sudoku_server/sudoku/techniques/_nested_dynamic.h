/* Level 4 of Sudoku Explainer's nested forcing chains: the rule a level-4 chain runs at a standstill.
 *
 * Included by _nested.c (it uses its Geo, int_list, popc, high_bit, id_list and bits_list). SE's
 * Chaining(multiple, dynamic, level 4) lets, at each standstill of its chain, the level-1 rules
 * (_nested.c's rules1) then a whole dynamic forcing-chain search (SE's Chaining(true, true, false, 0),
 * nestingLimit 0) act on the chain's working grid, and takes every hint of that search that needs a
 * candidate the chain removed (Sukaku Explainer, github.com/SudokuMonster/SukakuExplainer,
 * diuf/sudoku/solver/rules/chaining/Chaining.java: getAdvancedPotentials, getMultipleChainsHintListForCell,
 * doBinaryChaining, doRegionChainings, doChaining; ChainingHint.java: collectRuleParents, getAncestorCount;
 * read, not copied).
 *
 *   dynamic(geo, cand, src_cand) -> [(id, is_on, size, removed, need, kind, where)]
 *
 * cand: the working grid (cell masks) the search runs on, as techniques/dynamic.py's dynamic forcing
 * chains do on a board (contradictions, double forcing, cell and unit forcing, followed dynamically,
 * hidden parents counted against cand); src_cand: the grid the outer chain started from. One entry per
 * conclusion node (id = 0-based digit * N + cell, is_on), the best hint that reaches it and needs something:
 * size = its complexity (SE's getAncestorCount over its branches), removed = the candidate ids it removes,
 * need = SE's rule parents (the candidates of the cell of each naked single of its branches, of the unit of
 * each hidden single, and of the assumption's cell or unit for a cell or unit forcing chain, that src_cand
 * has and cand lacks); kind 0 contradiction (where = the assumed id), 1 double (the id assumed both ways),
 * 2 cell (the cell), 3 unit (the unit); in SE's order of hints: size, then kind (double 1, cell 5, unit 6,
 * contradiction 7), then the order found. A hint that needs nothing is left out (SE: the rule applies
 * without the chain). No Python twin: its steps are checked against the solution like every step.
 */

typedef struct {
    int rec0, nrec;   /* the closure's records in the arena */
    int map;          /* node -> record (relative), int16 per node, -1 none: offset in dmap */
    int absurd_a, absurd_b; /* the contradiction's records (relative), -1 none */
    int bits;         /* offset in dbits: on ids (W words) then off ids (W words) */
} DClo;

typedef struct {
    const Geo *g;
    int n, N, ids, NN, W;
    uint32_t *base, *src, *wc;
    uint32_t *cellneed; /* per cell: src & ~base */
    uint8_t *unitneed;  /* per unit * n + digit: some place src has and base lacks */
    uint8_t *st;        /* per id: 1 on, 2 off (the closure being built) */
    int32_t *pend;      /* 2 * ids: on queue then off queue */
    int32_t *cseen, cgen, *outs; /* turned_off's cells seen (per cell), its candidates (n + N) */
    /* records, for every closure (grown) */
    int32_t *rnode, *pstart;
    int16_t *pcnt, *cause; /* cause: -2 none (an assumption, an off node), -1 naked single, else the unit */
    uint8_t *hasneed;
    int nrec, caprec;
    int32_t *pool;
    int npool, cappool;
    int16_t *dmap;
    uint64_t *dbits;
    DClo *clo; /* per id: on closure at 2 * id + 1, off at 2 * id */
    int32_t *stamp, gen;
    int32_t *stack;
    /* best hint per node */
    int32_t *bsize, *bsort, *border, *bkind, *bwhere;
    uint64_t *bneed, *need;
    int order;
} Dyn4;

static int d4_grow(Dyn4 *x, int recs, int pars) {
    if (x->nrec + recs > x->caprec) {
        int cap = (x->nrec + recs) * 2;
        int32_t *a = realloc(x->rnode, (size_t)cap * 4), *b = a ? realloc(x->pstart, (size_t)cap * 4) : NULL;
        if (a) x->rnode = a;
        if (b) x->pstart = b;
        int16_t *c = b ? realloc(x->pcnt, (size_t)cap * 2) : NULL;
        if (c) x->pcnt = c;
        int16_t *d = c ? realloc(x->cause, (size_t)cap * 2) : NULL;
        if (d) x->cause = d;
        uint8_t *e = d ? realloc(x->hasneed, (size_t)cap) : NULL;
        if (e) x->hasneed = e;
        int32_t *f = e ? realloc(x->stamp, (size_t)cap * 4) : NULL;
        if (f) {
            x->stamp = f;
            memset(f + x->caprec, 0, (size_t)(cap - x->caprec) * 4);
        }
        int32_t *h = f ? realloc(x->stack, (size_t)cap * 4) : NULL;
        if (!h) return -1;
        x->stack = h;
        x->caprec = cap;
    }
    if (x->npool + pars > x->cappool) {
        int cap = (x->npool + pars) * 2;
        int32_t *a = realloc(x->pool, (size_t)cap * 4);
        if (!a) return -1;
        x->pool = a;
        x->cappool = cap;
    }
    return 0;
}

/* A new record of the closure whose records start at rec0 (its map at map): node, parents (global records). */
static int d4_record(Dyn4 *x, int rec0, int16_t *map, int node, const int32_t *par, int np, int cause) {
    if (d4_grow(x, 1, np) < 0) return -1;
    int r = x->nrec++;
    x->rnode[r] = node;
    x->pstart[r] = x->npool;
    x->pcnt[r] = (int16_t)np;
    x->cause[r] = (int16_t)cause;
    uint8_t need = 0;
    for (int i = 0; i < np; i++) {
        x->pool[x->npool++] = par[i];
        need |= x->hasneed[par[i]];
    }
    if (cause == -1)
        need |= x->cellneed[(node >> 1) % x->N] != 0;
    else if (cause >= 0)
        need |= x->unitneed[cause * x->n + (node >> 1) / x->N];
    x->hasneed[r] = need;
    map[node] = (int16_t)(r - rec0);
    return r;
}

/* One assumption followed dynamically on a copy of base, in techniques/dynamic.py's order (nested._closure's
 * parents at a contradiction). Returns 0, -1 on no memory. */
static int d4_closure(Dyn4 *x, int k0, int on0) {
    const Geo *g = x->g;
    int N = x->N, n = x->n, ids = x->ids;
    DClo *cl = &x->clo[2 * k0 + on0];
    int rec0 = x->nrec;
    cl->rec0 = rec0;
    cl->absurd_a = cl->absurd_b = -1;
    int16_t *map = x->dmap + (Py_ssize_t)cl->map;
    memset(map, 0xff, (size_t)x->NN * 2);
    memcpy(x->wc, x->base, (size_t)N * 4);
    memset(x->st, 0, (size_t)ids);
    int32_t *pon = x->pend, *poff = x->pend + ids;
    int non = 0, noff = 0, io = 0, jo = 0;
    int32_t par[MAX_DIGITS + 2];
    if (d4_record(x, rec0, map, k0 * 2 + on0, par, 0, -2) < 0) return -1;
    if (on0) {
        x->st[k0] = 1;
        pon[non++] = k0;
    } else {
        x->st[k0] = 2;
        poff[noff++] = k0;
    }
    for (;;) {
        if (io < non) {
            int k = pon[io++], d = k / N, c = k % N;
            int rk = rec0 + map[k * 2 + 1];
            /* turned_off: the cell's other candidates, then the digit in each unit of the cell */
            int32_t *outs = x->outs;
            int no = 0, gen = ++x->cgen;
            for (uint32_t m = x->wc[c] & ~(1u << d); m; m &= m - 1) outs[no++] = __builtin_ctz(m) * N + c;
            x->cseen[c] = gen;
            const int32_t *cu = g->cell_units + (Py_ssize_t)c * g->CU;
            for (int i = 0; i < g->ncu[c]; i++) {
                const int32_t *cells = g->units + (Py_ssize_t)cu[i] * n;
                /* ascending cells, as cells_of(pos[d] & unit_mask[u]) */
                int sorted[MAX_DIGITS], nsr = 0;
                for (int j = 0; j < n; j++) {
                    int cc = cells[j];
                    if (!(x->wc[cc] >> d & 1)) continue;
                    int at = nsr++;
                    while (at > 0 && sorted[at - 1] > cc) {
                        sorted[at] = sorted[at - 1];
                        at--;
                    }
                    sorted[at] = cc;
                }
                for (int j = 0; j < nsr; j++) {
                    int cc = sorted[j];
                    if (x->cseen[cc] == gen) continue;
                    x->cseen[cc] = gen;
                    outs[no++] = d * N + cc;
                }
            }
            for (int i = 0; i < no; i++) {
                int kk = outs[i];
                if (x->st[kk] & 1) {
                    int rb = d4_record(x, rec0, map, kk * 2, &rk, 1, -2);
                    if (rb < 0) return -1;
                    cl->absurd_a = map[kk * 2 + 1];
                    cl->absurd_b = rb - rec0;
                    goto end;
                }
                if (!(x->st[kk] & 2)) {
                    x->st[kk] |= 2;
                    if (d4_record(x, rec0, map, kk * 2, &rk, 1, -2) < 0) return -1;
                    poff[noff++] = kk;
                }
            }
            continue;
        }
        if (jo < noff) {
            int k = poff[jo++], d = k / N, c = k % N;
            int rk = rec0 + map[k * 2];
            /* turned_on, before k leaves the working grid: (id, cause, parents) */
            int made[MAX_DIGITS], mcause[MAX_DIGITS], nm = 0;
            int32_t mpar[MAX_DIGITS][MAX_DIGITS + 2];
            int mnp[MAX_DIGITS];
            uint32_t m = x->wc[c];
            if (popc(m) == 2 && (m >> d & 1)) {
                int od = high_bit(m & ~(1u << d)), np = 0;
                mpar[nm][np++] = rk;
                for (uint32_t h = x->base[c] & ~m; h; h &= h - 1) mpar[nm][np++] = rec0 + map[(__builtin_ctz(h) * N + c) * 2];
                made[nm] = od * N + c;
                mcause[nm] = -1;
                mnp[nm++] = np;
            }
            const int32_t *cu = g->cell_units + (Py_ssize_t)c * g->CU;
            for (int i = 0; i < g->ncu[c] && (m >> d & 1); i++) {
                const int32_t *cells = g->units + (Py_ssize_t)cu[i] * n;
                int cnt = 0, other = -1;
                for (int j = 0; j < n; j++)
                    if (cells[j] != c && (x->wc[cells[j]] >> d & 1)) {
                        cnt++;
                        other = cells[j];
                    }
                if (cnt != 1) continue;
                /* hidden parents: the digit's places of the unit removed, ascending */
                int gone[MAX_DIGITS], ng = 0, np = 0;
                for (int j = 0; j < n; j++) {
                    int cc = cells[j];
                    if ((x->base[cc] >> d & 1) && !(x->wc[cc] >> d & 1)) {
                        int at = ng++;
                        while (at > 0 && gone[at - 1] > cc) {
                            gone[at] = gone[at - 1];
                            at--;
                        }
                        gone[at] = cc;
                    }
                }
                mpar[nm][np++] = rk;
                for (int j = 0; j < ng && np < MAX_DIGITS + 2; j++) mpar[nm][np++] = rec0 + map[(d * N + gone[j]) * 2];
                made[nm] = d * N + other;
                mcause[nm] = cu[i];
                mnp[nm++] = np;
            }
            x->wc[c] &= ~(1u << d);
            for (int i = 0; i < nm; i++) {
                int kk = made[i];
                if (x->st[kk] & 2) {
                    int ra = map[kk * 2 + 1] >= 0 ? rec0 + map[kk * 2 + 1]
                                                  : d4_record(x, rec0, map, kk * 2 + 1, mpar[i], mnp[i], mcause[i]);
                    if (ra < 0) return -1;
                    cl->absurd_a = ra - rec0;
                    cl->absurd_b = map[kk * 2];
                    goto end;
                }
                if (!(x->st[kk] & 1)) {
                    x->st[kk] |= 1;
                    if (d4_record(x, rec0, map, kk * 2 + 1, mpar[i], mnp[i], mcause[i]) < 0) return -1;
                    pon[non++] = kk;
                }
            }
            continue;
        }
        break;
    }
end:
    cl->nrec = x->nrec - rec0;
    uint64_t *on = x->dbits + cl->bits, *off = on + x->W;
    memset(on, 0, (size_t)x->W * 16);
    for (int r = rec0; r < x->nrec; r++) {
        int node = x->rnode[r];
        uint64_t *b = (node & 1) ? on : off;
        b[(node >> 1) >> 6] |= 1ull << ((node >> 1) & 63);
    }
    return 0;
}

/* The nodes behind record r (global), counted once; the rule parents of its naked and hidden singles or'ed
 * into x->need (SE's collectRuleParents). */
static int d4_walk(Dyn4 *x, int r) {
    int N = x->N, n = x->n, cnt = 0, top = 0;
    int gen = ++x->gen;
    x->stack[top++] = r;
    x->stamp[r] = gen;
    while (top) {
        int p = x->stack[--top];
        cnt++;
        int node = x->rnode[p], cause = x->cause[p];
        if ((node & 1) && cause != -2 && x->hasneed[p]) {
            int k = node >> 1, d = k / N, c = k % N;
            if (cause == -1) {
                for (uint32_t e = x->cellneed[c]; e; e &= e - 1) set_bit(x->need, __builtin_ctz(e) * N + c);
            } else if (x->unitneed[cause * n + d]) {
                const int32_t *cells = x->g->units + (Py_ssize_t)cause * n;
                for (int j = 0; j < n; j++)
                    if ((x->src[cells[j]] >> d & 1) && !(x->base[cells[j]] >> d & 1)) set_bit(x->need, d * N + cells[j]);
            }
        }
        for (int i = 0; i < x->pcnt[p]; i++) {
            int q = x->pool[x->pstart[p] + i];
            if (x->stamp[q] != gen) {
                x->stamp[q] = gen;
                x->stack[top++] = q;
            }
        }
    }
    return cnt;
}

/* Offer the conclusion node of the branches (global records rs, ns of them), own rule parents in own. */
static void d4_offer(Dyn4 *x, int node, const int *rs, int ns, int sortkey, int kind, int where, const uint64_t *own) {
    int order = x->order++, W = x->W;
    int any = own != NULL;
    for (int i = 0; i < ns && !any; i++) any = x->hasneed[rs[i]];
    if (!any) return;
    memset(x->need, 0, (size_t)W * 8);
    if (own)
        for (int w = 0; w < W; w++) x->need[w] = own[w];
    int size = 0;
    for (int i = 0; i < ns; i++) size += d4_walk(x, rs[i]);
    int has = 0;
    for (int w = 0; w < W; w++) has |= x->need[w] != 0;
    if (!has) return;
    if (x->bsize[node] >= 0 &&
        (x->bsize[node] < size || (x->bsize[node] == size && x->bsort[node] <= sortkey)))
        return;
    x->bsize[node] = size;
    x->bsort[node] = sortkey;
    x->border[node] = order;
    x->bkind[node] = kind;
    x->bwhere[node] = where;
    memcpy(x->bneed + (Py_ssize_t)node * W, x->need, (size_t)W * 8);
}

static int d4_rec_of(Dyn4 *x, int id, int on, int node) {
    const DClo *cl = &x->clo[2 * id + on];
    int r = x->dmap[cl->map + node];
    return r < 0 ? -1 : cl->rec0 + r;
}

static const Dyn4 *d4_sort_ctx;

static int d4_cmp(const void *a, const void *b) {
    const Dyn4 *x = d4_sort_ctx;
    int p = *(const int *)a, q = *(const int *)b;
    if (x->bsize[p] != x->bsize[q]) return x->bsize[p] - x->bsize[q];
    if (x->bsort[p] != x->bsort[q]) return x->bsort[p] - x->bsort[q];
    return x->border[p] - x->border[q];
}

/* The conclusions common to branches (on closures of ids ks): their on and off nodes, offered. */
static void d4_common(Dyn4 *x, const int *ks, int nk, int sortkey, int kind, int where, const uint64_t *own) {
    int W = x->W, N = x->N;
    int rs[MAX_DIGITS];
    for (int half = 0; half < 2; half++) { /* ons, then offs */
        for (int w = 0; w < W; w++) {
            uint64_t m = ~0ull;
            for (int i = 0; i < nk; i++) m &= x->dbits[x->clo[2 * ks[i] + 1].bits + half * W + w];
            for (; m; m &= m - 1) {
                int kk = w * 64 + __builtin_ctzll(m);
                if (!half && popc(x->base[kk % N]) < 2) continue;
                int node = kk * 2 + !half;
                for (int i = 0; i < nk; i++) rs[i] = d4_rec_of(x, ks[i], 1, node);
                d4_offer(x, node, rs, nk, sortkey, kind, where, own);
            }
        }
    }
}

static void d4_free(Dyn4 *x) {
    free(x->base);
    free(x->src);
    free(x->wc);
    free(x->cellneed);
    free(x->unitneed);
    free(x->st);
    free(x->pend);
    free(x->cseen);
    free(x->outs);
    free(x->rnode);
    free(x->pstart);
    free(x->pcnt);
    free(x->cause);
    free(x->hasneed);
    free(x->pool);
    free(x->dmap);
    free(x->dbits);
    free(x->clo);
    free(x->stamp);
    free(x->stack);
    free(x->bsize);
    free(x->bsort);
    free(x->border);
    free(x->bkind);
    free(x->bwhere);
    free(x->bneed);
    free(x->need);
}

static PyObject *dynamic(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer gb;
    PyObject *cand_o, *src_o, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*OO", &gb, &cand_o, &src_o)) return NULL;
    Geo geo;
    Dyn4 x;
    memset(&x, 0, sizeof x);
    int *nodes = NULL;
    uint64_t *own = NULL;
    if (geo_view(gb.buf, gb.len, &geo) < 0) {
        PyErr_SetString(PyExc_ValueError, "not a geometry from geometry()");
        goto done;
    }
    x.g = &geo;
    x.n = geo.n;
    x.N = geo.N;
    x.ids = geo.n * geo.N;
    x.NN = 2 * x.ids;
    x.W = (x.ids + 63) / 64;
    int N = x.N, n = x.n, W = x.W;
    x.base = calloc((size_t)N, 4);
    x.src = calloc((size_t)N, 4);
    x.wc = calloc((size_t)N, 4);
    x.cellneed = calloc((size_t)N, 4);
    x.unitneed = calloc((size_t)geo.U * n, 1);
    x.st = calloc((size_t)x.ids, 1);
    x.pend = calloc((size_t)x.ids * 2, 4);
    x.cseen = calloc((size_t)N, 4);
    x.outs = calloc((size_t)(n + N), 4);
    x.dmap = malloc((size_t)x.ids * 2 * x.NN * 2);
    x.dbits = calloc((size_t)x.ids * 2 * W * 2, 8);
    x.clo = calloc((size_t)x.ids * 2, sizeof(DClo));
    x.bsize = malloc((size_t)x.NN * 4);
    x.bsort = calloc((size_t)x.NN, 4);
    x.border = calloc((size_t)x.NN, 4);
    x.bkind = calloc((size_t)x.NN, 4);
    x.bwhere = calloc((size_t)x.NN, 4);
    x.bneed = calloc((size_t)x.NN * W, 8);
    x.need = calloc((size_t)W, 8);
    nodes = malloc((size_t)x.NN * sizeof(int));
    own = calloc((size_t)W, 8);
    if (!x.base || !x.src || !x.wc || !x.cellneed || !x.unitneed || !x.st || !x.pend || !x.cseen || !x.outs || !x.dmap || !x.dbits ||
        !x.clo || !x.bsize || !x.bsort || !x.border || !x.bkind || !x.bwhere || !x.bneed || !x.need || !nodes ||
        !own || d4_grow(&x, 4096, 8192) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (int_list(cand_o, "cand", (int32_t *)x.base, N, N) < 0 || int_list(src_o, "src_cand", (int32_t *)x.src, N, N) < 0)
        goto done;
    uint32_t full = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
    for (int c = 0; c < N; c++) {
        if ((x.base[c] & ~full) || (x.src[c] & ~full)) {
            PyErr_SetString(PyExc_ValueError, "a cell mask past the digits");
            goto done;
        }
        x.cellneed[c] = x.src[c] & ~x.base[c];
    }
    for (int u = 0; u < geo.U; u++)
        for (int j = 0; j < n; j++) {
            int c = geo.units[(Py_ssize_t)u * n + j];
            for (uint32_t e = x.cellneed[c]; e; e &= e - 1) x.unitneed[u * n + __builtin_ctz(e)] = 1;
        }
    for (int i = 0; i < x.NN; i++) x.bsize[i] = -1;
    /* every closure first: on and off of each candidate of a cell with two or more */
    for (int c = 0; c < N; c++) {
        if (popc(x.base[c]) < 2) continue;
        for (uint32_t m = x.base[c]; m; m &= m - 1) {
            int k = __builtin_ctz(m) * N + c;
            for (int on = 0; on < 2; on++) {
                x.clo[2 * k + on].map = (2 * k + on) * x.NN;
                x.clo[2 * k + on].bits = (2 * k + on) * 2 * W;
                if (d4_closure(&x, k, on) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
        }
    }
    /* the conclusions, in techniques/dynamic.py's order of offers */
    for (int c = 0; c < N; c++) {
        uint32_t m = x.base[c];
        int nd = popc(m);
        if (nd < 2) continue;
        int ks[MAX_DIGITS], nk = 0, all_ok = 1;
        for (uint32_t o = m; o; o &= o - 1) {
            int k = __builtin_ctz(o) * N + c;
            ks[nk++] = k;
            const DClo *a = &x.clo[2 * k + 1], *b = &x.clo[2 * k];
            int rs[2];
            if (a->absurd_a >= 0) {
                rs[0] = a->rec0 + a->absurd_a;
                rs[1] = a->rec0 + a->absurd_b;
                d4_offer(&x, k * 2, rs, 2, 7, 0, k, NULL);
                all_ok = 0;
            }
            if (b->absurd_a >= 0) {
                rs[0] = b->rec0 + b->absurd_a;
                rs[1] = b->rec0 + b->absurd_b;
                d4_offer(&x, k * 2 + 1, rs, 2, 7, 0, k, NULL);
            }
            if (a->absurd_a < 0 && b->absurd_a < 0 && nd >= 3) {
                for (int half = 0; half < 2; half++)
                    for (int w = 0; w < W; w++) {
                        uint64_t bb = x.dbits[a->bits + half * W + w] & x.dbits[b->bits + half * W + w];
                        for (; bb; bb &= bb - 1) {
                            int kk = w * 64 + __builtin_ctzll(bb);
                            if (kk == k || (!half && popc(x.base[kk % N]) < 2)) continue;
                            int node = kk * 2 + !half;
                            rs[0] = d4_rec_of(&x, k, 1, node);
                            rs[1] = d4_rec_of(&x, k, 0, node);
                            d4_offer(&x, node, rs, 2, 1, 1, k, NULL);
                        }
                    }
            }
        }
        if (all_ok) {
            memset(own, 0, (size_t)W * 8);
            int has = 0;
            for (uint32_t e = x.cellneed[c]; e; e &= e - 1, has = 1) set_bit(own, __builtin_ctz(e) * N + c);
            d4_common(&x, ks, nk, 5, 2, c, has ? own : NULL);
        }
        for (uint32_t o = m; o; o &= o - 1) {
            int d = __builtin_ctz(o);
            const int32_t *cu = geo.cell_units + (Py_ssize_t)c * geo.CU;
            for (int i = 0; i < geo.ncu[c]; i++) {
                const int32_t *cells = geo.units + (Py_ssize_t)cu[i] * n;
                int us[MAX_DIGITS], nu = 0, low = -1, ok = 1, has = 0;
                memset(own, 0, (size_t)W * 8);
                for (int j = 0; j < n; j++) {
                    int cc = cells[j];
                    if (x.base[cc] >> d & 1) {
                        if (low < 0 || cc < low) low = cc;
                    } else if (x.src[cc] >> d & 1) {
                        set_bit(own, d * N + cc);
                        has = 1;
                    }
                }
                if (low != c) continue;
                for (int j = 0; j < n; j++) /* ascending places */
                    if (x.base[cells[j]] >> d & 1) {
                        int cc = cells[j], at = nu++;
                        while (at > 0 && us[at - 1] > d * N + cc) {
                            us[at] = us[at - 1];
                            at--;
                        }
                        us[at] = d * N + cc;
                    }
                if (nu < 2) continue;
                for (int j = 0; j < nu && ok; j++) ok = x.clo[2 * us[j] + 1].absurd_a < 0;
                if (ok) d4_common(&x, us, nu, 6, 3, cu[i], has ? own : NULL);
            }
        }
    }
    int nn = 0;
    for (int node = 0; node < x.NN; node++)
        if (x.bsize[node] >= 0) nodes[nn++] = node;
    d4_sort_ctx = &x;
    qsort(nodes, (size_t)nn, sizeof(int), d4_cmp);
    result = PyList_New(0);
    for (int i = 0; result && i < nn; i++) {
        int node = nodes[i], kk = node >> 1, on = node & 1, d = kk / N, c = kk % N;
        uint32_t rem = on ? (x.base[c] & ~(1u << d)) : (1u << d);
        if (!rem) continue;
        if (append_result(result, N, node, rem, x.bsize, x.bneed, W, x.bkind, x.bwhere) < 0) Py_CLEAR(result);
    }
done:
    free(nodes);
    free(own);
    d4_free(&x);
    PyBuffer_Release(&gb);
    return result;
}
