/* The general engine (eg) of the native solver core: every geometry of up
 * to 25x25 from its units, and the constraint kinds (_native_kinds.h).
 *
 * _native.c includes this file once, after the per-call context (Ctx,
 * tick) and the Branch type; its design is in _native.c's header comment.
 * It ends with rung, one search of this engine from the givens.
 */

/* ================================================================== */
/* eg: the general engine (every size up to 25x25)                      */

typedef struct {
    uint32_t c[MAXCELLS];
} SG;

typedef struct {
    uint8_t best[MAXCELLS];
} BG;

static inline int
eg_single(uint32_t m)
{
    return !(m & (m - 1));
}

static int eg_assign(Ctx *x, SG *s, int cell, int digit);
static int eg_propagate(Ctx *x, SG *s);

static int
eg_apply(Ctx *x, SG *s, const Branch *br, int k)
{
    /* s is a propagated state (a fixpoint of every propagator): with kinds,
     * keep it, so that the next eg_propagate starts from what changed */
    if (x->geo->constrained)
        memcpy(x->base, s->c, sizeof(uint32_t) * (size_t)x->geo->ncells);
    if (br->kind == BRANCH_SPLIT) {
        int cell = br->cell[0];
        uint32_t low = (1u << br->where) - 1u;
        uint32_t m = s->c[cell] & (k == 0 ? low : ~low);
        if (!m)
            return 0;
        s->c[cell] = m;
        if (eg_single(m))
            x->queue[x->qn++] = (uint16_t)cell;
    } else if (!eg_assign(x, s, br->cell[k], br->digit[k])) {
        return 0;
    }
    x->base_valid = x->geo->constrained;
    return 1;
}

static int
eg_assign(Ctx *x, SG *s, int cell, int digit)
{
    uint32_t bit = 1u << (digit - 1);
    if (!(s->c[cell] & bit))
        return 0;
    s->c[cell] = bit;
    x->queue[x->qn++] = (uint16_t)cell;
    return 1;
}

/* Remove the mask m from cell p; 0 when p is left empty. */
static inline int
eg_remove(Ctx *x, SG *s, int p, uint32_t m, int *found)
{
    uint32_t v = s->c[p];
    if (v & m) {
        v &= ~m;
        if (!v)
            return 0;
        s->c[p] = v;
        if (eg_single(v))
            x->queue[x->qn++] = (uint16_t)p;
        *found = 1;
    }
    return 1;
}

/* The constraint kinds (relations, sums, candidates). */
#include "_native_kinds.h"

/* Intersections whose digits eg_locked computes once per call (each is in
 * two families); more than this (no classic grid has 256) are computed per
 * family. */
#define LOCKED_SHARED 512

/* Locked candidates, for every pair of units sharing two cells or more (in
 * classic grids: pointing and claiming): a digit whose places in one unit
 * all lie in the intersection leaves the rest of the other unit. Per family
 * (a unit's pairwise disjoint intersections, Geo): the digits found in one
 * intersection only and not in the rest of the unit. 0 on a contradiction;
 * *found when a candidate went. */
static int
eg_locked(Ctx *x, SG *s, int *found)
{
    const Geo *g = x->geo;
    int f, k, shared = g->ninter <= LOCKED_SHARED;
    uint32_t seg[LOCKED_SHARED]; /* each intersection's digits, when they fit */
    if (shared)
        for (k = 0; k < g->ninter; k++) {
            uint32_t v = 0, b;
            for (b = g->inter_start[k]; b < g->inter_start[k + 1]; b++)
                v |= s->c[g->inter_cells[b]];
            seg[k] = v;
        }
    for (f = 0; f < g->nfam; f++) {
        uint32_t once = 0, twice = 0, rest = 0, only, m[MAXN], a, b;
        k = 0;
        for (a = g->rest_start[f]; a < g->rest_start[f + 1]; a++)
            rest |= s->c[g->rest[a]];
        for (a = g->fam_start[f]; a < g->fam_start[f + 1]; a++, k++) {
            uint32_t inter = g->fam_side[a] / 2, v = 0;
            if (shared)
                v = seg[inter];
            else
                for (b = g->inter_start[inter]; b < g->inter_start[inter + 1]; b++)
                    v |= s->c[g->inter_cells[b]];
            m[k] = v;
            twice |= once & v;
            once |= v;
        }
        only = once & ~twice & ~rest;
        if (!only)
            continue;
        for (a = g->fam_start[f], k = 0; a < g->fam_start[f + 1]; a++, k++) {
            uint32_t r = m[k] & only, other = g->fam_side[a] ^ 1;
            if (!r)
                continue;
            for (b = g->out_start[other]; b < g->out_start[other + 1]; b++)
                if (!eg_remove(x, s, g->out[b], r, found))
                    return 0;
        }
    }
    return 1;
}

/* Augment the matching of a unit's cells to digits from cell i (Kuhn's
 * augmenting paths, with the digits seen on this path in *seen). */
static int
eg_augment(const uint32_t *m, int i, uint32_t *seen, int8_t *cell_of, int8_t *digit_of)
{
    uint32_t free = m[i] & ~*seen;
    while (free) {
        int d = CTZ(free);
        free &= free - 1;
        *seen |= 1u << d;
        if (cell_of[d] < 0 || eg_augment(m, cell_of[d], seen, cell_of, digit_of)) {
            cell_of[d] = (int8_t)i;
            digit_of[i] = (int8_t)d;
            return 1;
        }
    }
    return 0;
}

/* All-different on every unit, to arc consistency (Regin's filtering):
 * a unit's cells need distinct digits, so there must be a perfect matching
 * of its cells to its digits (none: some k cells have fewer than k digits
 * between them, a contradiction), and a digit stays at a cell only if some
 * perfect matching uses it: if it is the cell's matched digit, or if the
 * cell and the digit's matched cell lie on one alternating cycle, i.e. in
 * one strongly connected component of the graph "cell i -> the cell matched
 * to a digit i could take instead". This covers naked and hidden subsets of
 * every size. 0 on a contradiction; *found when a candidate went. */
static int
eg_alldiff(Ctx *x, SG *s, int *found, uint32_t *seen_sig)
{
    const Geo *g = x->geo;
    int n = g->n, u, i;
    for (u = 0; u < g->nunits; u++) {
        uint32_t m[MAXN], reach[MAXN], taken = 0, sig = 0x9E3779B9u;
        int8_t cell_of[MAXN], digit_of[MAXN];
        uint16_t at[MAXN]; /* the unit's open cells */
        int open = 0, single = 0;
        const uint16_t *cells = g->unit + u * n;
        for (i = 0; i < n; i++) {
            uint32_t v = s->c[cells[i]];
            sig = (sig ^ v) * 0x01000193u;
            if (!eg_single(v)) {
                at[open] = cells[i];
                m[open++] = v;
            }
        }
        /* nothing changed in this unit since it was last filtered */
        if (open < 2 || seen_sig[u] == (sig | 1))
            continue;
        memset(cell_of, -1, sizeof cell_of);
        for (i = 0; i < open; i++) {
            uint32_t free = m[i] & ~taken; /* greedy start */
            digit_of[i] = -1;
            if (free) {
                int d = CTZ(free);
                taken |= 1u << d;
                cell_of[d] = (int8_t)i;
                digit_of[i] = (int8_t)d;
            }
        }
        for (i = 0; i < open; i++) {
            uint32_t seen = 0;
            if (digit_of[i] < 0 && !eg_augment(m, i, &seen, cell_of, digit_of))
                return 0;
        }
        /* the graph on open cells: i -> the cell matched to a digit i could
         * take instead; its strongly connected components, each as the
         * forward and backward reach of a pivot (bit sets, a few steps) */
        {
            uint32_t fwd[MAXN], bwd[MAXN], left = (open == 32) ? ~0u : ((1u << open) - 1);
            memset(bwd, 0, sizeof(uint32_t) * (size_t)open);
            for (i = 0; i < open; i++) {
                uint32_t other = m[i] & ~(1u << digit_of[i]), r = 0;
                while (other) {
                    int j = cell_of[CTZ(other)];
                    r |= 1u << j;
                    bwd[j] |= 1u << i;
                    other &= other - 1;
                }
                fwd[i] = r;
            }
            while (left) {
                int p = CTZ(left);
                uint32_t f = 1u << p, b = f, nf = f, nb = b, comp, keep = 0, c;
                while (nf) {
                    uint32_t step = 0, t = nf;
                    while (t) {
                        step |= fwd[CTZ(t)];
                        t &= t - 1;
                    }
                    nf = step & left & ~f;
                    f |= nf;
                }
                while (nb) {
                    uint32_t step = 0, t = nb;
                    while (t) {
                        step |= bwd[CTZ(t)];
                        t &= t - 1;
                    }
                    nb = step & left & ~b;
                    b |= nb;
                }
                comp = f & b;
                left &= ~comp;
                for (c = comp; c; c &= c - 1)
                    keep |= 1u << digit_of[CTZ(c)];
                for (c = comp; c; c &= c - 1)
                    reach[CTZ(c)] = keep; /* the digits i may keep */
            }
        }
        for (i = 0; i < open; i++) {
            uint32_t keep = reach[i], v;
            v = m[i] & keep;
            if (v != m[i]) {
                s->c[at[i]] = v;
                if (eg_single(v)) {
                    x->queue[x->qn++] = at[i];
                    single = 1;
                }
                *found = 1;
                sig = 0; /* changed: filter again next time */
            }
        }
        seen_sig[u] = sig | 1;
        /* a new single's digit is still among its peers' candidates: the
         * other units' matchings would not be perfect until it is removed */
        if (single)
            return 1;
    }
    return 1;
}

static int
eg_fix(Ctx *x, SG *s)
{
    const Geo *g = x->geo;
    int n = g->n, nunits = g->nunits, u, i;
    uint32_t full = g->full, seen_sig[MAXUNITS];
    EvSeen ev_seen; /* the kinds' propagators: what they saw last */
    ev_seen.rel_valid = ev_seen.units_valid = ev_seen.between_valid = 0;
    if (x->base_valid) {
        /* after a branch's assign (eg_apply): the relation pairs and
         * ev_units found nothing in the propagated state it started from */
        memcpy(ev_seen.rel, x->base, sizeof(uint32_t) * (size_t)g->ncells);
        memcpy(ev_seen.units, x->base, sizeof(uint32_t) * (size_t)g->ncells);
        ev_seen.rel_valid = ev_seen.units_valid = 1;
        ev_between_seen_base(g, x->base, ev_seen.between, &ev_seen.between_valid);
        x->base_valid = 0;
    }
    memset(seen_sig, 0, sizeof(uint32_t) * (size_t)nunits);
    for (;;) {
        int found = 0;
        /* a round can cost milliseconds on 25x25 with relations (an empty
         * nonconsecutive grid took minutes at the root): the deadline is
         * looked at every round, not only between search nodes */
        if (tick(x) < 0)
            return -1;
        while (x->qn) {
            int cell = x->queue[--x->qn];
            uint32_t v = s->c[cell];
            const uint16_t *p = g->peer + g->peer_start[cell];
            int npeers = (int)(g->peer_start[cell + 1] - g->peer_start[cell]);
            for (i = 0; i < npeers; i++) {
                uint32_t m = s->c[p[i]];
                if (m & v) {
                    m ^= v;
                    if (!m) {
                        x->qn = 0;
                        return 0;
                    }
                    s->c[p[i]] = m;
                    if (eg_single(m))
                        x->queue[x->qn++] = p[i];
                }
            }
        }
        if (n >= 16 && tick(x) < 0)
            return -1;
        /* hidden singles; a digit with no place in a unit is a contradiction */
        for (u = 0; u < nunits; u++) {
            const uint16_t *cells = g->unit + u * n;
            uint32_t once = 0, twice = 0, placed = 0, only;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]];
                twice |= once & m;
                once |= m;
                placed |= eg_single(m) ? m : 0;
            }
            if (once != full)
                goto fail;
            only = once & ~twice & ~placed; /* a placed digit's one place is its cell */
            if (!only)
                continue;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]], h = m & only;
                if (h && h != m) {
                    if (!eg_single(h))
                        goto fail;
                    s->c[cells[i]] = h;
                    x->queue[x->qn++] = cells[i];
                    found = 1;
                }
            }
        }
        if (found)
            continue;
        if (g->constrained && !ev_propagate(x, s, &found, &ev_seen))
            goto fail;
        if (found)
            continue;
        if (!eg_locked(x, s, &found))
            goto fail;
        if (!found && (n >= ALLDIFF_FROM || g->constrained) && !eg_alldiff(x, s, &found, seen_sig))
            goto fail;
        if (!found)
            return 1;
    }
fail:
    x->qn = 0;
    return 0;
}

static int
eg_cell_branch(const Geo *g, const SG *s, int cell, Branch *br)
{
    uint32_t m = s->c[cell];
    int k = 0;
    (void)g;
    while (m) {
        br->cell[k] = (uint16_t)cell;
        br->digit[k] = (uint8_t)(CTZ(m) + 1);
        m &= m - 1;
        k++;
    }
    br->count = (uint8_t)k;
    br->next = 0;
    br->kind = BRANCH_CELLS;
    return 1;
}

/* As e9_choose: a two-candidate cell with the most open peers (approximated
 * by the open cells of its units); else the fewest alternatives over
 * cells and digits of units, ties to cells. 0 when solved. */
/* The branch of a geometry with constraint kinds: a two-candidate cell as
 * above (one in a relation pair or sum, when some cell is: Geo.weighted),
 * else the open cell with the fewest candidates per weight, the
 * weight being 1 + its relation pairs and sums + the contradictions met
 * after branching on it (dom/wdeg, after Boussemart, Hemery, Lecoutre and
 * Sais, "Boosting systematic search by weighting constraints", ECAI 2004).
 * (The unit-digit branch of classic grids in its place searched more: on
 * 500 puzzles, little killer 437,822 nodes against 345,555, whispers' worst
 * 5,177 against 149; nonconsecutive 577,820 against 394,501 on 300. Two-
 * candidate cells outside every pair and sum left to dom/wdeg: little
 * killer 345,555 -> 265,947, renban's worst 1,085 -> 276; on antiknight,
 * where no cell has a weight, that rule would search more: 33,204 -> 45,467.) */
/* Weight of a cell's relation pairs, sums and contradictions met, against
 * the open cells of its units, when eg_choose picks a two-candidate cell. */
#ifndef EK_W
#define EK_W 4
#endif

/* No two-candidate cell: a polar cell (Geo.polar) still open on both
 * sides is split in two, its digits below the middle, then the rest (the
 * domain splitting of CP solvers): a side reaches the whole line through
 * the pairs' arc consistency before any digit is tried. Halves of the
 * digits of other cells were tried too: renban and sandwich searched more. */
static int
eg_split(const Geo *g, const SG *s, int at, int fewest, Branch *br)
{
    uint32_t m = s->c[at], low = (1u << (g->n / 2)) - 1u;
    if (fewest < 4 || g->polar == NULL || !g->polar[at] || !(m & low) || !(m & ~low))
        return 0;
    br->cell[0] = br->cell[1] = (uint16_t)at;
    br->where = (uint8_t)(g->n / 2); /* the digits below the middle, then the rest */
    br->count = 2;
    br->next = 0;
    br->kind = BRANCH_SPLIT;
    return 1;
}

static int
eg_choose(Ctx *x, const SG *s, Branch *br)
{
    const Geo *g = x->geo;
    int n = g->n, ncells = g->ncells, nunits = g->nunits, c, u, i;
    int open[MAXUNITS];
    uint32_t j;
    int best = -1, at = -1, fewest = MAXN + 1, ties = 0;
    memset(open, 0, sizeof(int) * (size_t)nunits);
    for (c = 0; c < ncells; c++)
        if (!eg_single(s->c[c]))
            for (j = g->cu_start[c]; j < g->cu_start[c + 1]; j++)
                open[g->cu[j]]++;
    for (c = 0; c < ncells; c++) {
        uint32_t m = s->c[c];
        if (eg_single(m))
            continue;
        if (!((m & (m - 1)) & ((m & (m - 1)) - 1)) && (!g->weighted || g->weight[c] > 0)) {
            int deg = 0;
            for (j = g->cu_start[c]; j < g->cu_start[c + 1]; j++)
                deg += open[g->cu[j]];
            if (g->weight != NULL)
                deg += EK_W * ((int)g->weight[c] + (int)x->fails[c]);
            if (deg > best) {
                best = deg;
                at = c;
                ties = 1;
            } else if (deg == best && take_tie(x, ++ties)) {
                at = c;
            }
        } else if (best < 0) {
            int k = ev_pop64(m);
            if (k < fewest) {
                fewest = k;
                at = c;
                ties = 1;
            } else if (k == fewest && take_tie(x, ++ties)) {
                at = c;
            }
        }
    }
    if (at < 0)
        return 0;
    if (best >= 0)
        return eg_cell_branch(g, s, at, br);
    if (eg_split(g, s, at, fewest, br))
        return 1;
    if (g->weight != NULL) {
        /* with kinds, no two-candidate cell: the fewest candidates per
         * weight (dom/wdeg proper; the weight as above, plus one) */
        long bn = 0, bd = 1;
        at = -1;
        ties = 0;
        for (c = 0; c < ncells; c++) {
            uint32_t m = s->c[c];
            long cn, cd;
            if (eg_single(m))
                continue;
            cn = ev_pop64(m);
            cd = 1L + (long)g->weight[c] + (long)x->fails[c];
            if (at < 0 || cn * bd < bn * cd) {
                at = c;
                bn = cn;
                bd = cd;
                ties = 1;
            } else if (cn * bd == bn * cd && take_tie(x, ++ties)) {
                at = c;
            }
        }
        return eg_cell_branch(g, s, at, br);
    }
    /* no pair: a digit of a unit with fewer places than the fewest
     * candidates of a cell (the minimum-column choice of exact cover) */
    {
        int bu = -1, bd = -1, places = fewest, pairs = 0;
        for (u = 0; u < nunits && (places > 2 || x->rng); u++) {
            const uint16_t *cells = g->unit + u * n;
            uint32_t o1 = 0, o2 = 0, o3 = 0, o4 = 0, two, three;
            for (i = 0; i < n; i++) {
                uint32_t m = s->c[cells[i]];
                o4 |= o3 & m;
                o3 |= o2 & m;
                o2 |= o1 & m;
                o1 |= m;
            }
            two = o2 & ~o3;
            three = o3 & ~o4;
            if (two) {
                /* the first pair, or (tie-breaking) any of them */
                if (places > 2 || take_tie(x, ++pairs)) {
                    bu = u;
                    bd = CTZ(two);
                }
                if (places > 2)
                    pairs = 1;
                places = 2;
            } else if (three && places > 3) {
                bu = u;
                bd = CTZ(three);
                places = 3;
            }
        }
        if (bu >= 0) {
            int k = 0;
            for (i = 0; i < n; i++) {
                int cell = g->unit[bu * n + i];
                if (s->c[cell] >> bd & 1) {
                    br->cell[k] = (uint16_t)cell;
                    br->digit[k] = (uint8_t)(bd + 1);
                    k++;
                }
            }
            br->count = (uint8_t)k;
            br->next = 0;
            br->kind = BRANCH_CELLS;
            return 1;
        }
    }
    return eg_cell_branch(g, s, at, br);
}

static int
eg_first_open(Ctx *x, const SG *s, Branch *br)
{
    int c, ncells = x->geo->ncells;
    for (c = 0; c < ncells; c++)
        if (!eg_single(s->c[c]))
            return eg_cell_branch(x->geo, s, c, br);
    return 0;
}

/* A contradiction after branching on a cell: its weight grows (eg_choose). */
static inline void
eg_failed(Ctx *x, const Branch *br, int k)
{
    uint16_t *f = &x->fails[br->cell[k]];
    if (*f < 60000)
        (*f)++;
}

/* MODE_UNION: a candidate of s that no solution found so far holds? */
static inline int
eg_fresh(Ctx *x, const SG *s)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        if (s->c[c] & ~x->seen[c])
            return 1;
    return 0;
}

/* MODE_UNION: the solution in digits joins the seen candidates. */
static inline void
eg_saw(Ctx *x, const int *digits)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        x->seen[c] |= 1u << (digits[c] - 1);
}

static void
eg_extract(Ctx *x, const SG *s, int *digits)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        digits[c] = CTZ(s->c[c]) + 1;
}

static void
eg_set_bound(Ctx *x, BG *bd, const SG *s)
{
    int c;
    for (c = 0; c < x->geo->ncells; c++)
        bd->best[c] = (uint8_t)(CTZ(s->c[c]) + 1);
}

static int
eg_cut(Ctx *x, const BG *bd, SG *s)
{
    int ncells = x->geo->ncells;
    for (;;) {
        int p, c, changed = 0, r;
        uint32_t keep;
        for (p = 0; p < ncells; p++)
            if (s->c[p] & ((1u << (bd->best[p] - 1)) - 1))
                break;
        if (p == ncells)
            return 0;
        for (c = 0; c < p; c++) {
            uint32_t eq = 1u << (bd->best[c] - 1);
            if (!(s->c[c] & eq)) {
                x->qn = 0;
                return 0;
            }
            if (s->c[c] != eq) {
                s->c[c] = eq;
                x->queue[x->qn++] = (uint16_t)c;
                changed = 1;
            }
        }
        keep = (2u << (bd->best[p] - 1)) - 1;
        if (s->c[p] & ~keep) {
            s->c[p] &= keep;
            if (eg_single(s->c[p]))
                x->queue[x->qn++] = (uint16_t)p;
            changed = 1;
        }
        if (!changed)
            return 1;
        r = eg_propagate(x, s);
        if (r <= 0)
            return r;
    }
}

/* Polar cells (Geo.polar: German whispers on 9x9) are probed at every
 * node: each one still open on both sides tries each side and propagates;
 * a side that fails leaves the other (failed-literal probing on the
 * sides, a restricted singleton arc consistency). The search thereby
 * sees at once that a side of a whole line breaks a unit's count of low
 * or high digits, where the pairs' arc consistency sees it only after
 * a digit is placed. */
static int
eg_probe(Ctx *x, SG *s)
{
    const Geo *g = x->geo;
    int c, d, k, r, changed = 1;
    uint32_t low = (1u << (g->n / 2)) - 1u, high = g->full & ~((1u << ((g->n + 1) / 2)) - 1u);
    uint8_t covered[MAXCELLS];
    while (changed) {
        changed = 0;
        memset(covered, 0, (size_t)g->ncells);
        for (c = 0; c < g->ncells; c++) {
            uint32_t m = s->c[c];
            Branch br;
            if (!g->polar[c] || covered[c] || !(m & low) || !(m & high))
                continue;
            br.cell[0] = br.cell[1] = (uint16_t)c;
            br.where = (uint8_t)(g->n / 2);
            br.count = 2;
            br.next = 0;
            br.kind = BRANCH_SPLIT;
            for (k = 0; k < 2; k++) {
                SG t = *s;
                if (!eg_apply(x, &t, &br, k))
                    continue;
                r = eg_fix(x, &t);
                if (r < 0)
                    return -1;
                if (r == 0) {
                    x->qn = 0;
                    if (!eg_apply(x, s, &br, 1 - k))
                        return 0;
                    r = eg_fix(x, s);
                    if (r <= 0)
                        return r;
                    changed = 1;
                    break;
                }
                /* a polar cell this half confined to one side is as good
                 * as probed: its own probe follows the same implications */
                for (d = c + 1; d < g->ncells; d++)
                    if (g->polar[d] && t.c[d] != s->c[d] && (!(t.c[d] & low) || !(t.c[d] & high)))
                        covered[d] = 1;
            }
        }
    }
    return 1;
}

static int
eg_propagate(Ctx *x, SG *s)
{
    int r = eg_fix(x, s);
    if (r <= 0 || x->geo->polar == NULL)
        return r;
    return eg_probe(x, s);
}

#define ENG(name) eg_##name
#define STATE SG
#define BOUND BG
#include "_native_search.h"
#undef ENG
#undef STATE
#undef BOUND


static long
rung(Ctx *x, const int *cells, int mode, long limit, int *digits)
{
    const Geo *g = x->geo;
    SG *root, *sol;
    eg_Frame *fa, *fb;
    long r;
    int i, nframes = g->ncells + 2;

    root = PyMem_RawMalloc(sizeof(SG) * 2);
    fa = PyMem_RawMalloc(sizeof(eg_Frame) * (size_t)nframes * (mode == MODE_FIRST ? 2 : 1));
    if (root == NULL || fa == NULL) {
        PyMem_RawFree(root);
        PyMem_RawFree(fa);
        PyErr_NoMemory();
        return -2;
    }
    fb = fa + nframes;
    sol = root + 1;
    memset(x->fails, 0, sizeof(uint16_t) * (size_t)g->ncells);
    for (i = 0; i < g->ncells; i++)
        root->c[i] = g->full;
    x->qn = 0;
    for (i = 0; i < g->ncells; i++) {
        if (!cells[i])
            continue;
        /* a given removed by an earlier one: two share a unit */
        if (!eg_assign(x, root, i, cells[i])) {
            PyMem_RawFree(root);
            PyMem_RawFree(fa);
            return RESULT_INVALID;
        }
        /* remove it from its peers now, so that a later duplicate is seen */
        {
            const uint16_t *p = g->peer + g->peer_start[i];
            int j, npeers = (int)(g->peer_start[i + 1] - g->peer_start[i]);
            uint32_t bit = 1u << (cells[i] - 1);
            x->qn--;
            for (j = 0; j < npeers; j++)
                root->c[p[j]] &= ~bit;
        }
    }
    if (g->constrained && ev_givens_break(g, cells)) {
        PyMem_RawFree(root);
        PyMem_RawFree(fa);
        return RESULT_INVALID;
    }
    if (g->cand != NULL) /* pencilmarks: every cell keeps to its candidates (a given too) */
        for (i = 0; i < g->ncells; i++)
            root->c[i] &= g->cand[i];
    if (g->pair_keep != NULL)
        for (i = 0; i < g->ncells; i++)
            root->c[i] &= g->pair_keep[i];
    x->qn = 0;
    for (i = 0; i < g->ncells; i++)
        if (eg_single(root->c[i]))
            x->queue[x->qn++] = (uint16_t)i;
    x->start_ns = x->last_ns = mono_ns();
    if (gil_hold_ns <= 0) {
        gil_release(x);
        x->released_once = 1;
    }
    r = 1;
    for (i = 0; i < g->ncells; i++)
        if (!root->c[i])
            r = 0;
    if (r)
        r = eg_propagate(x, root);
    if (r > 0) {
        if (mode == MODE_FIRST)
            r = eg_first(x, root, fa, fb, sol);
        else if (mode == MODE_UNION)
            r = eg_union(x, root, fa, digits);
        else
            r = mode == MODE_ANY ? eg_any(x, root, fa, sol, g->n >= 16 ? RESTART_NODES : 0, ANY_RESTART_RUNS)
                                 : eg_count(x, root, fa, limit, sol, -1);
    }
    gil_acquire(x);
    if (x->failed) {
        r = -2; /* check() raised */
    } else if (r == -4) {
        PyErr_SetString(PyExc_RuntimeError, "native solver: inconsistent search state");
        r = -2;
    }
    if (r < 0)
        r = -2;
    if (r > 0 && mode != MODE_COUNT && mode != MODE_UNION)
        eg_extract(x, sol, digits);
    PyMem_RawFree(root);
    PyMem_RawFree(fa);
    return r;
}

/* One search on cells (a sequence) of geometry g. Fills *result with
 * run9/rung's code (count, or 1 / 0 / RESULT_INVALID) and digits with the
 * solution. 0, or -1 with an exception set. */
