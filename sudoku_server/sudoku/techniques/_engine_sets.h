/* The technique engine's set searches: ALS wings (als_wing), naked and hidden subsets (subset),
 * basic fish (fish). Part of the _engine extension: _engine.c includes this file once, after
 * _engine_links.h; each search mirrors its Python oracle (als.py, subsets.py, fish.py).
 */

/* cd[c] = the 9-bit candidate mask of cell c, read from cand (81 ints). 0, or -1 with an exception set
 * (not a sequence, not 81 items, not ints). Shared by the finders of this file and _engine_walks.h. */
static int read_cands(PyObject *cand, uint16_t cd[NCELL]) {
    PyObject *cf = PySequence_Fast(cand, "cand");
    if (!cf) return -1;
    if (PySequence_Fast_GET_SIZE(cf) != NCELL) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "81 cells expected");
        return -1;
    }
    for (int c = 0; c < NCELL; c++) cd[c] = (uint16_t)(PyLong_AsLong(PySequence_Fast_GET_ITEM(cf, c)) & 0x1FF);
    Py_DECREF(cf);
    return PyErr_Occurred() ? -1 : 0;
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
    if (read_cands(cand, cd) < 0) return NULL;
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
    if (read_cands(cand, cd) < 0) return NULL;
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

