/* The variant constraints of the general engine (eg) of the native solver core.
 *
 * _native.c includes this file once, after the eg helpers (SG, eg_single,
 * eg_remove) and before eg_propagate, which calls ev_propagate once the
 * units find nothing more. A geometry's constraints come from prepare()
 * (sudoku_server/sudoku/variants.py describes the rules):
 *
 *   differ pairs   anti-knight, anti-king, the cells of a killer cage: they
 *                  are joined to the peer lists by geo_build, so the peer
 *                  eliminations of eg_propagate see them; nothing here.
 *   nonconsecutive orthogonal neighbours never hold consecutive digits.
 *                  Per pair, each cell loses the digits next to EVERY
 *                  candidate of the other (a placed d removes d-1 and d+1;
 *                  the candidates {d-1, d+1} remove d).
 *   killer cages   distinct digits (differ pairs) summing to the total.
 *                  Per cage, the sets of its size's distinct digits with
 *                  its sum are listed once (geo_constraints; up to 16x16
 *                  and COMBO_CAP sets). A set stays possible while it holds
 *                  every placed digit, every digit it adds has a free cell
 *                  that may take it, and every free cell may take one of
 *                  them. The free cells keep the digits of the possible
 *                  sets; a digit in all of them with one place goes there
 *                  (a hidden single of the cage); no set left is a
 *                  contradiction. Cages without a list (larger grids) use
 *                  bounds: a free digit d stays while the other free cells
 *                  can still make the rest of the sum from the digits left.
 *   candidates     the starting candidates of a pencilmark puzzle (rung).
 *
 * Every rule is checked in full once the cells are placed, so the search
 * drivers' answers stay exact (the row-major-first solution, counts).
 */

/* Digit sets listed per cage at most (more: bounds only). */
#define COMBO_CAP 4096

/* Build the constraint tables of g from ex. 0 when out of memory. */
static int
geo_constraints(Geo *g, const Extra *ex)
{
    int n = g->n, ncells = g->ncells, k, c, at;
    g->constrained = ex->ndiffer > 0 || ex->nnc > 0 || ex->cage_of != NULL || ex->cand != NULL;
    if (ex->nnc > 0) {
        g->nc_pair = PyMem_RawMalloc(sizeof(uint16_t) * 2 * (size_t)ex->nnc);
        if (g->nc_pair == NULL)
            return 0;
        memcpy(g->nc_pair, ex->nc, sizeof(uint16_t) * 2 * (size_t)ex->nnc);
        g->nnc = ex->nnc;
    }
    if (ex->cand != NULL) {
        g->cand = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)ncells);
        if (g->cand == NULL)
            return 0;
        for (c = 0; c < ncells; c++)
            g->cand[c] = ex->cand[c] & g->full;
    }
    if (g->constrained && ncells <= 128) {
        g->pbits = PyMem_RawCalloc(2 * (size_t)ncells, sizeof(uint64_t));
        if (g->pbits == NULL)
            return 0;
        for (c = 0; c < ncells; c++) {
            uint32_t j;
            for (j = g->peer_start[c]; j < g->peer_start[c + 1]; j++)
                g->pbits[2 * c + (g->peer[j] >> 6)] |= 1ull << (g->peer[j] & 63);
        }
        if (ex->nnc > 0) {
            g->nbits = PyMem_RawCalloc(2 * (size_t)ncells, sizeof(uint64_t));
            if (g->nbits == NULL)
                return 0;
            for (c = 0; c < ncells; c++)
                g->nbits[2 * c + (c >> 6)] |= 1ull << (c & 63);
            for (k = 0; k < ex->nnc; k++) {
                int a = ex->nc[2 * k], b = ex->nc[2 * k + 1];
                g->nbits[2 * a + (b >> 6)] |= 1ull << (b & 63);
                g->nbits[2 * b + (a >> 6)] |= 1ull << (a & 63);
            }
        }
    }
    if (ex->cage_of != NULL && ex->ncages > 0) {
        int ncages = ex->ncages;
        uint32_t ncombo = 0;
        g->ncages = ncages;
        g->cage_start = PyMem_RawCalloc((size_t)ncages + 1, sizeof(uint32_t));
        g->cage_cells = PyMem_RawCalloc((size_t)ncells + 1, sizeof(uint16_t));
        g->cage_total = PyMem_RawCalloc((size_t)ncages + 1, sizeof(int));
        g->cage_combos = PyMem_RawCalloc((size_t)ncages + 1, 1);
        g->combo_start = PyMem_RawCalloc((size_t)ncages + 1, sizeof(uint32_t));
        if (g->cage_start == NULL || g->cage_cells == NULL || g->cage_total == NULL || g->cage_combos == NULL ||
            g->combo_start == NULL)
            return 0;
        for (k = 0, at = 0; k < ncages; k++) {
            g->cage_start[k] = (uint32_t)at;
            for (c = 0; c < ncells; c++)
                if (ex->cage_of[c] == k)
                    g->cage_cells[at++] = (uint16_t)c;
            g->cage_total[k] = ex->totals[k];
        }
        g->cage_start[ncages] = (uint32_t)at;
        /* each cell's cage, and the units each cage lies in */
        g->cage_of = PyMem_RawMalloc(sizeof(int16_t) * (size_t)ncells);
        g->cu_cage_start = PyMem_RawCalloc((size_t)ncages + 1, sizeof(uint32_t));
        g->cu_cage = PyMem_RawCalloc((size_t)ncages * (size_t)g->nunits + 1, sizeof(uint16_t));
        if (g->cage_of == NULL || g->cu_cage_start == NULL || g->cu_cage == NULL)
            return 0;
        memcpy(g->cage_of, ex->cage_of, sizeof(int16_t) * (size_t)ncells);
        for (k = 0, at = 0; k < ncages; k++) {
            int u, size = (int)(g->cage_start[k + 1] - g->cage_start[k]);
            g->cu_cage_start[k] = (uint32_t)at;
            for (u = 0; u < g->nunits; u++) {
                int i, inside = 0;
                for (i = 0; i < n; i++)
                    inside += g->cage_of[g->unit[u * n + i]] == k;
                if (inside == size)
                    g->cu_cage[at++] = (uint16_t)u;
            }
        }
        g->cu_cage_start[ncages] = (uint32_t)at;
        /* the digit sets: two passes (count, then fill) over the subsets */
        if (n <= 16) {
            uint32_t set, top = 1u << n;
            int pass;
            for (pass = 0; pass < 2; pass++) {
                ncombo = 0;
                for (k = 0; k < ncages; k++) {
                    int size = (int)(g->cage_start[k + 1] - g->cage_start[k]);
                    uint32_t count = 0;
                    g->combo_start[k] = ncombo;
                    for (set = 0; set < top; set++) {
                        int sum = 0;
                        uint32_t b;
                        if (popcount32(set) != size)
                            continue;
                        for (b = set; b; b &= b - 1)
                            sum += CTZ(b) + 1;
                        if (sum != g->cage_total[k])
                            continue;
                        if (count++ >= COMBO_CAP)
                            break;
                        if (pass)
                            g->combo[ncombo] = set;
                        ncombo++;
                    }
                    if (count > COMBO_CAP) {
                        ncombo = g->combo_start[k];
                        g->cage_combos[k] = 0;
                    } else {
                        g->cage_combos[k] = 1;
                    }
                }
                g->combo_start[ncages] = ncombo;
                if (!pass) {
                    g->combo = PyMem_RawCalloc((size_t)ncombo + 1, sizeof(uint32_t));
                    if (g->combo == NULL)
                        return 0;
                }
            }
        } else {
            for (k = 0; k <= ncages; k++)
                g->combo_start[k] = 0;
        }
    }
    return 1;
}

/* The index of the highest set bit of m (m != 0). */
static inline int
ev_top(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(m);
#else
    int d = 0;
    while (m >>= 1)
        d++;
    return d;
#endif
}

/* The digits a neighbour of a cell with candidates m may not hold under
 * nonconsecutive (the two also differ: they share a row or a column):
 * those e with m inside {e-1, e, e+1}, i.e. from the highest candidate
 * less one to the lowest plus one (arc consistency on the pair). */
static inline uint32_t
ev_nc_forbid(uint32_t m, uint32_t full)
{
    int lo = CTZ(m), hi = ev_top(m), from, to;
    if (hi - lo > 2)
        return 0;
    from = hi - 1 < 0 ? 0 : hi - 1;
    to = lo + 1;
    return ((2u << to) - (1u << from)) & full;
}

/* The sum of the k smallest (largest: high) digits of mask m; -1 when m
 * has fewer than k. */
static int
ev_extreme_sum(uint32_t m, int k, int high)
{
    int sum = 0;
    while (k-- > 0) {
        int d;
        if (!m)
            return -1;
        d = high ? ev_top(m) : CTZ(m);
        sum += d + 1;
        m &= ~(1u << d);
    }
    return sum;
}

/* One cage: prune its free cells; 0 on a contradiction. */
static int
ev_cage(Ctx *x, SG *s, int k, int *found)
{
    const Geo *g = x->geo;
    const uint16_t *cells = g->cage_cells + g->cage_start[k];
    int size = (int)(g->cage_start[k + 1] - g->cage_start[k]);
    uint32_t placed = 0, avail = 0, fm[MAXN], allowed = 0, required = 0;
    uint16_t at[MAXN];
    int nfree = 0, nplaced = 0, rest = g->cage_total[k], i;
    for (i = 0; i < size; i++) {
        uint32_t m = s->c[cells[i]];
        if (eg_single(m)) {
            placed |= m;
            nplaced++;
            rest -= CTZ(m) + 1;
        } else {
            at[nfree] = cells[i];
            fm[nfree++] = m;
            avail |= m;
        }
    }
    if (popcount32(placed) != nplaced)
        return 0;
    if (nfree == 0)
        return rest == 0;
    if (rest <= 0)
        return 0;
    avail &= ~placed;
    if (g->cage_combos[k]) {
        uint32_t a;
        required = g->full;
        for (a = g->combo_start[k]; a < g->combo_start[k + 1]; a++) {
            uint32_t set = g->combo[a], add;
            if ((set & placed) != placed)
                continue;
            add = set & ~placed;
            if ((add & avail) != add)
                continue;
            for (i = 0; i < nfree; i++)
                if (!(fm[i] & add))
                    break;
            if (i < nfree)
                continue;
            allowed |= add;
            required &= add;
        }
        if (!allowed)
            return 0;
    } else {
        uint32_t m;
        for (m = avail; m; m &= m - 1) {
            int d = CTZ(m) + 1, lo, hi;
            uint32_t others = avail & ~(1u << (d - 1));
            lo = ev_extreme_sum(others, nfree - 1, 0);
            hi = ev_extreme_sum(others, nfree - 1, 1);
            if (lo >= 0 && lo <= rest - d && rest - d <= hi)
                allowed |= 1u << (d - 1);
        }
        if (!allowed)
            return 0;
    }
    for (i = 0; i < nfree; i++) {
        uint32_t v = fm[i] & allowed;
        if (v != fm[i]) {
            if (!v)
                return 0;
            s->c[at[i]] = fm[i] = v;
            if (eg_single(v))
                x->queue[x->qn++] = at[i];
            *found = 1;
        }
    }
    /* a digit every possible set needs: not elsewhere in a unit the cage
     * lies in (a cage inside a row, column or box) */
    if (required & ~placed) {
        uint32_t a, need = required & ~placed;
        for (a = g->cu_cage_start[k]; a < g->cu_cage_start[k + 1]; a++) {
            const uint16_t *unit = g->unit + g->cu_cage[a] * g->n;
            for (i = 0; i < g->n; i++)
                if (g->cage_of[unit[i]] != k && !eg_remove(x, s, unit[i], need, found))
                    return 0;
        }
    }
    /* a digit every possible set needs, with one place left */
    for (; required; required &= required - 1) {
        uint32_t bit = required & (~required + 1);
        int place = -1;
        for (i = 0; i < nfree; i++)
            if (fm[i] & bit) {
                if (place >= 0)
                    break;
                place = i;
            }
        if (place < 0)
            return 0;
        if (i == nfree && fm[place] != bit) {
            s->c[at[place]] = fm[place] = bit;
            x->queue[x->qn++] = at[place];
            *found = 1;
        }
    }
    return 1;
}

/* For each unit and digit, its places P in the unit (grids of up to 128
 * cells): a cell that is a peer of every place cannot hold the digit (the
 * pointing and claiming of locked candidates, for any peers: knight's
 * moves, diagonal neighbours, cages); under nonconsecutive, a cell that is
 * a place or a neighbour of every place cannot hold the digits next to it
 * (they would leave the unit without a place). 0 on a contradiction. */
static int
ev_units(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    int n = g->n, u, i, d;
    for (u = 0; u < g->nunits; u++) {
        const uint16_t *cells = g->unit + u * n;
        uint64_t place[MAXN][2];
        uint32_t placed = 0; /* digits already placed in the unit (their peers may not know yet) */
        memset(place, 0, sizeof(place[0]) * (size_t)n);
        for (i = 0; i < n; i++) {
            int c = cells[i];
            uint32_t m = s->c[c];
            if (eg_single(m)) {
                placed |= m;
                continue;
            }
            for (; m; m &= m - 1) {
                d = CTZ(m);
                place[d][c >> 6] |= 1ull << (c & 63);
            }
        }
        for (d = 0; d < n; d++) {
            uint64_t w0 = place[d][0], w1 = place[d][1], p0 = ~0ull, p1 = ~0ull, q0 = ~0ull, q1 = ~0ull;
            int count = __builtin_popcountll(w0) + __builtin_popcountll(w1);
            if (count < 2 || count > 4 || (placed >> d & 1))
                continue;
            for (i = 0; i < 2; i++) {
                uint64_t w = i ? w1 : w0;
                for (; w; w &= w - 1) {
                    int c = (i << 6) + __builtin_ctzll(w);
                    p0 &= g->pbits[2 * c];
                    p1 &= g->pbits[2 * c + 1];
                    if (g->nbits != NULL) {
                        q0 &= g->nbits[2 * c];
                        q1 &= g->nbits[2 * c + 1];
                    }
                }
            }
            if (g->nbits == NULL)
                q0 = q1 = 0;
            for (i = 0; i < 2; i++) {
                uint64_t w = i ? p1 : p0;
                for (; w; w &= w - 1)
                    if (!eg_remove(x, s, (i << 6) + __builtin_ctzll(w), 1u << d, found))
                        return 0;
                w = i ? q1 : q0;
                for (; w; w &= w - 1) {
                    uint32_t next = ((2u << d) | (1u << d >> 1)) & g->full & ~(1u << d);
                    if (!eg_remove(x, s, (i << 6) + __builtin_ctzll(w), next, found))
                        return 0;
                }
            }
        }
    }
    return 1;
}

/* The constraints beyond units and peers, one round; 0 on a contradiction,
 * *found when a candidate went. */
static int
ev_propagate(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    uint32_t full = g->full;
    int i;
    for (i = 0; i < g->nnc; i++) {
        int a = g->nc_pair[2 * i], b = g->nc_pair[2 * i + 1];
        uint32_t f = ev_nc_forbid(s->c[a], full);
        if (f && !eg_remove(x, s, b, f, found))
            return 0;
        f = ev_nc_forbid(s->c[b], full);
        if (f && !eg_remove(x, s, a, f, found))
            return 0;
    }
    for (i = 0; i < g->ncages; i++)
        if (!ev_cage(x, s, i, found))
            return 0;
    if (!*found && g->pbits != NULL)
        return ev_units(x, s, found);
    return 1;
}

/* Do the givens (cells, 0 = empty) break a nonconsecutive pair? (Givens
 * that share a unit or a differ pair are found by rung's peer pass.) */
static int
ev_givens_break(const Geo *g, const int *cells)
{
    int i;
    for (i = 0; i < g->nnc; i++) {
        int a = cells[g->nc_pair[2 * i]], b = cells[g->nc_pair[2 * i + 1]];
        if (a && b && (a - b == 1 || b - a == 1))
            return 1;
    }
    return 0;
}

/* Does a full grid of digits (1..n each) keep every constraint: the differ
 * pairs (peer lists), nonconsecutive pairs, cage sums and candidates? */
static int
ev_verify(const Geo *g, const int *digits)
{
    int c, i, k;
    for (c = 0; c < g->ncells; c++) {
        uint32_t j;
        if (g->cand != NULL && !(g->cand[c] >> (digits[c] - 1) & 1))
            return 0;
        for (j = g->peer_start[c]; j < g->peer_start[c + 1]; j++)
            if (digits[g->peer[j]] == digits[c])
                return 0;
    }
    for (i = 0; i < g->nnc; i++) {
        int a = digits[g->nc_pair[2 * i]], b = digits[g->nc_pair[2 * i + 1]];
        if (a - b == 1 || b - a == 1)
            return 0;
    }
    for (k = 0; k < g->ncages; k++) {
        int sum = 0;
        uint32_t a;
        for (a = g->cage_start[k]; a < g->cage_start[k + 1]; a++)
            sum += digits[g->cage_cells[a]];
        if (sum != g->cage_total[k])
            return 0;
    }
    return 1;
}
