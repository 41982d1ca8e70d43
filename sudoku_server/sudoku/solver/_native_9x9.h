/* The 9x9 engine of the native solver core (e9; _native.c's header comment
 * has the design of both engines): the classic geometry only, digit masks
 * per band, the minirow rules and the configuration branches, and its search
 * drivers (_native_search.h included with e9's names). A separate file only
 * for its size: _native.c includes it once, after the per-call context
 * (Ctx, tick) and the Branch type it uses, and before run9, which calls it.
 */

#define BAND 0x7FFFFFFu
static uint8_t ROWSEG[512];    /* 9 cells of a row -> 3 bits: its box segments with a candidate */
static uint16_t PERM[512];     /* 3x3 matrix -> the entries on some permutation (0: none) */
static uint8_t PERMS[512];     /* 3x3 matrix -> how many permutations it holds */
static uint16_t PERMBITS[6];   /* the six permutations as 3x3 matrices */
static uint32_t SEGCELLS[512]; /* 9 row-box segments of a band -> their 27 cells */
static uint32_t ROWSGL[512];   /* 9 cells of a row -> the row if it holds one bit, else 0 */
static uint32_t PEERS9[27];    /* cell of a band -> its peers in that band */

typedef struct {
    uint32_t F[27]; /* F[3 * d + b]: cells of band b where digit d + 1 is possible */
    uint32_t U[3];  /* cells of band b not yet placed */
    /* M[d]: digit d + 1's segment matrices as of the end of the last
     * propagation (then exact): lanes 0..2 band b's (bit 3 * row + box),
     * lanes 3..5 stack k's (bit 3 * band + column); lanes 6 and 7 always
     * 0x1FF, so that the eight lanes go through the same rules */
    uint16_t M[9][8];
} S9;

/* Frames per search stack: a path places at most 81 digits and fixes at
 * most 54 band or stack configurations or, with relation pairs (no
 * configurations then), splits at most 40 polar parts by side
 * (_native_9x9_pairs.h), plus the root and a spare. */
#define E9_FRAMES (81 + 81 + 2)
/* The search branches first on a digit's configurations in a band or stack
 * when it has at most this many left (else on a cell). Measured (issue 18,
 * benchmarks/bench_tdoku.py): with the minirow rules, 2 and 6 search about
 * the same number of nodes; 6 is as fast, and never falls back to the
 * cell branches. */
#ifndef E9_CONFIG_MAX
#define E9_CONFIG_MAX 6
#endif
/* The minirow rules (e9_triads) run from the first search node on, not at
 * the root: most easy puzzles are solved by the cheaper rules alone there,
 * and for them the rules cost about 5% (kaggle) while saving no node. */
/* With relation pairs, a propagation starts with their arc consistency
 * (e9_pairs: the cells a branch changed) before the per-digit rules, so
 * that the digits it removes join the first round of those rules instead
 * of starting a second: the same fixpoint in fewer rounds (the 500 stored
 * palindrome puzzles about 5% faster, thermo and whispers 1-3%; 0 to
 * compare). */
#ifndef E9_TWINS
#define E9_TWINS 1
#endif
#ifndef E9_PAIRS_FIRST
#define E9_PAIRS_FIRST 1
#endif
#ifndef E9_TRIADS_FROM_NODE
#define E9_TRIADS_FROM_NODE 1
#endif

typedef struct {
    uint32_t below[27], above[27], eq[27]; /* cells whose digit in the bound is >, <, == d + 1 */
} B9;

static void
e9_tables(void)
{
    int m, i, p;
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (m = 0; m < 512; m++) {
        uint32_t a = 0, cells = 0;
        POP9[m] = (uint8_t)popcount32((uint32_t)m);
        SPREAD9[m] = 0;
        for (i = 0; i < 9; i++)
            SPREAD9[m] |= (uint64_t)((m >> i) & 1) << (4 * i);
        ROWSEG[m] = (uint8_t)(((m & 7) ? 1 : 0) | ((m & 070) ? 2 : 0) | ((m & 0700) ? 4 : 0));
        for (p = 0; p < 6; p++) {
            uint32_t bits = (1u << perms[p][0]) | (1u << (3 + perms[p][1])) | (1u << (6 + perms[p][2]));
            PERMBITS[p] = (uint16_t)bits;
            if (((uint32_t)m & bits) == bits) {
                a |= bits;
                PERMS[m]++;
            }
        }
        PERM[m] = (uint16_t)a;
        for (i = 0; i < 9; i++)
            if (m >> i & 1)
                cells |= 7u << (9 * (i / 3) + 3 * (i % 3));
        SEGCELLS[m] = cells;
        ROWSGL[m] = (m && !(m & (m - 1))) ? (uint32_t)m : 0;
    }
    for (i = 0; i < 27; i++) {
        int r = i / 9, c = i % 9, j;
        uint32_t peers = 0;
        for (j = 0; j < 27; j++)
            if (j != i && (j / 9 == r || (j % 9) / 3 == c / 3))
                peers |= 1u << j;
        PEERS9[i] = peers;
    }
}

/* Place digit index d (0..8) at bit `bit` of band b: the cell's other digits
 * go, and d leaves the cell's peers. */
static inline void
e9_place(Ctx *x, S9 *s, int d, int b, int bit)
{
    uint32_t m = 1u << bit, col = 0x40201u << (bit % 9), dirty = 0, *f;
    uint32_t peer0 = b == 0 ? PEERS9[bit] : col, peer1 = b == 1 ? PEERS9[bit] : col,
             peer2 = b == 2 ? PEERS9[bit] : col;
    int e;
    s->U[b] &= ~m;
    for (e = 0; e < 9; e++) {
        uint32_t v = s->F[3 * e + b];
        dirty |= (uint32_t)((v & m) != 0) << e;
        s->F[3 * e + b] = v & ~m;
    }
    f = &s->F[3 * d];
    f[b] |= m;
    dirty &= ~(1u << d);
    if ((f[0] & peer0) | (f[1] & peer1) | (f[2] & peer2)) {
        f[0] &= ~peer0;
        f[1] &= ~peer1;
        f[2] &= ~peer2;
        dirty |= 1u << d;
    }
    x->dirty |= dirty;
}

/* Digit index d was just placed in a cell whose partner t must equal it
 * (Geo.twin9; t < 0: none): t takes it too while open and able to (else
 * the pairs' pass finds the contradiction). */
static inline void
e9_place_twin(Ctx *x, S9 *s, int d, int t)
{
    if (t >= 0 && (s->U[t / 27] & s->F[3 * d + t / 27]) >> (t % 27) & 1)
        e9_place(x, s, d, t / 27, t % 27);
}

static int e9_assign(Ctx *x, S9 *s, int cell, int digit);
static void e9_pairs_base(Ctx *x, const S9 *s);
static inline void e9_sums_base(Ctx *x, const S9 *s);
static int e9_pairs_split(Ctx *x, S9 *s, const Branch *br, int k);
static int e9_sums_of(Ctx *x, S9 *s, int cell);

/* Take alternative k of a branch. */
static int
e9_apply(Ctx *x, S9 *s, const Branch *br, int k)
{
    int d, b;
    uint32_t p, *F;
    if (x->geo->npairs) /* s is the parent, its pairs arc consistent (_native_9x9_pairs.h) */
        e9_pairs_base(x, s);
    if (x->geo->nsums) /* and its sums at their fixpoint (_native_9x9_sums.h) */
        e9_sums_base(x, s);
    if (br->kind == BRANCH_CELLS) {
        if (!e9_assign(x, s, br->cell[k], br->digit[k]))
            return 0;
        /* with sums, the cell's own first (_native_9x9_sums.h) */
        return !x->geo->nsums || e9_sums_of(x, s, br->cell[k]);
    }
    if (br->kind == BRANCH_SPLIT)
        return e9_pairs_split(x, s, br, k);
    d = br->digit[k] - 1;
    p = br->cell[k];
    F = &s->F[3 * d];
    x->dirty = 1u << d;
    if (br->kind == BRANCH_BAND) {
        F[br->where] &= SEGCELLS[p];
    } else {
        int sh = 3 * br->where;
        for (b = 0; b < 3; b++)
            F[b] &= ((((p >> (3 * b)) & 7) << sh) | (0x1FFu & ~(7u << sh))) * 0x40201u;
    }
    return 1;
}

static int
e9_assign(Ctx *x, S9 *s, int cell, int digit)
{
    int b = cell / 27, bit = cell % 27, d = digit - 1;
    x->dirty = 0;
    if (!(s->F[3 * d + b] >> bit & 1))
        return 0;
    e9_place(x, s, d, b, bit);
    if (x->geo->twin9 != NULL)
        e9_place_twin(x, s, d, x->geo->twin9[cell]);
    return 1;
}

static void
e9_init(S9 *s)
{
    int i;
    for (i = 0; i < 27; i++)
        s->F[i] = BAND;
    s->U[0] = s->U[1] = s->U[2] = BAND;
    /* s->M: set by e9_matrices when a search follows the root's propagation */
}

/* The three digits of a minirow (three cells of a row in one box) and of a
 * minicolumn, on the segment matrices s->M (exact at a fixpoint of the
 * per-digit rules). Every minirow holds exactly three digits, so: fewer than
 * three digits possible in a segment is a contradiction; exactly three
 * possible puts each of them there (it leaves the other segments of that
 * row and box of its matrix); three digits forced into a segment (alone in
 * their matrix row: on every permutation left) leave no room there for any
 * other digit. Written as loops over the eight lanes, which compilers
 * vectorise (SSE2 on x86-64). Digits whose masks shrink go to x->dirty.
 * 1, or 0 on a contradiction. */
static int
e9_triads(Ctx *x, S9 *s)
{
    uint16_t one[8] = {0}, two[8] = {0}, three[8] = {0}, four[8] = {0};
    uint16_t fone[8] = {0}, ftwo[8] = {0}, fthree[8] = {0}, ffour[8] = {0}, forced[9][8];
    uint16_t exact[8], bad = 0, any = 0;
    uint32_t dirty = 0;
    int d, l;
    for (d = 0; d < 9; d++) {
        for (l = 0; l < 8; l++) {
            uint16_t m = s->M[d][l], alone;
            four[l] |= three[l] & m;
            three[l] |= two[l] & m;
            two[l] |= one[l] & m;
            one[l] |= m;
            alone = m & (uint16_t) ~(((m >> 1) & 0333) | ((m >> 2) & 0111) | ((m << 1) & 0666) | ((m << 2) & 0444));
            forced[d][l] = alone;
            ffour[l] |= fthree[l] & alone;
            fthree[l] |= ftwo[l] & alone;
            ftwo[l] |= fone[l] & alone;
            fone[l] |= alone;
        }
    }
    for (l = 0; l < 8; l++) {
        bad |= (uint16_t)((three[l] ^ 0x1FF) | ffour[l]);
        exact[l] = three[l] & (uint16_t)~four[l];
        any |= (uint16_t)(exact[l] | fthree[l]);
    }
    if (UNLIKELY(bad))
        return 0;
    if (!any)
        return 1;
    for (d = 0; d < 9; d++) {
        uint16_t rm[8], hit = 0;
        for (l = 0; l < 8; l++) {
            uint16_t m = s->M[d][l], e = m & exact[l];
            uint16_t rows = (uint16_t)(((e | e >> 1 | e >> 2) & 0111) * 7);
            uint16_t cols = (uint16_t)(((e | e >> 3 | e >> 6) & 7) * 0111);
            rm[l] = (uint16_t)((((rows | cols) & ~e) | (fthree[l] & ~forced[d][l])) & m);
            hit |= rm[l];
        }
        if (!hit)
            continue;
        for (l = 0; l < 6; l++) {
            int b;
            if (!rm[l])
                continue;
            for (b = 0; b < 3; b++) {
                uint32_t cut = l < 3 ? (b == l ? SEGCELLS[rm[l]] : 0)
                                     : ((((uint32_t)rm[l] >> (3 * b)) & 7) << (3 * (l - 3))) * 0x40201u;
                uint32_t f = s->F[3 * d + b];
                if (f & cut) {
                    if (UNLIKELY(f & cut & ~s->U[b]))
                        return 0;
                    s->F[3 * d + b] = f & ~cut;
                    dirty |= 1u << d;
                }
            }
        }
    }
    x->dirty |= dirty;
    return 1;
}

/* s->M from the masks (exact at a fixpoint of the per-digit rules, where
 * every segment left lies on a permutation): after the root's propagation,
 * which does not keep them. */
static void
e9_matrices(S9 *s)
{
    int d;
    for (d = 0; d < 9; d++) {
        const uint32_t *F = &s->F[3 * d];
        uint16_t *M = s->M[d];
        uint32_t t = ((F[0] | F[0] >> 9 | F[0] >> 18) & 511) | ((F[1] | F[1] >> 9 | F[1] >> 18) & 511) << 9 |
                     ((F[2] | F[2] >> 9 | F[2] >> 18) & 511) << 18;
        int b;
        for (b = 0; b < 3; b++)
            M[b] = (uint16_t)(ROWSEG[F[b] & 511] | ROWSEG[(F[b] >> 9) & 511] << 3 | ROWSEG[F[b] >> 18] << 6);
        for (b = 0; b < 3; b++) {
            uint32_t u = t >> (3 * b);
            M[3 + b] = (uint16_t)((u & 7) | ((u >> 6) & 070) | ((u >> 12) & 0700));
        }
        M[6] = M[7] = 0x1FF;
    }
}

/* Relation pairs (a geometry's mask9): e9_pairs, e9_pairs_root. */
/* Open cells per row, column and box of s (the units the branch counts). */
static inline void
e9_open_counts(const S9 *s, int *rowc, int *colc, int *boxc)
{
    uint64_t lanes = 0; /* open cells per column: the nine rows added in 4-bit lanes */
    int b, r, c;
    for (b = 0; b < 3; b++) {
        uint32_t u = s->U[b];
        for (r = 0; r < 3; r++)
            rowc[3 * b + r] = POP9[(u >> (9 * r)) & 511];
        for (c = 0; c < 3; c++)
            boxc[3 * b + c] = POP9[((u >> (3 * c)) & 7) | ((u >> (9 + 3 * c)) & 7) << 3 |
                                   ((u >> (18 + 3 * c)) & 7) << 6];
        lanes += SPREAD9[u & 511] + SPREAD9[(u >> 9) & 511] + SPREAD9[u >> 18];
    }
    for (c = 0; c < 9; c++)
        colc[c] = (int)((lanes >> (4 * c)) & 15);
}

#include "_native_9x9_pairs.h"
#include "_native_9x9_runs.h"
#include "_native_9x9_sums.h"

/* Propagate to a fixpoint: 1, or 0 on a contradiction. With `keep`, the
 * segment matrices s->M are kept up to date and the minirow rules run
 * (from E9_TRIADS_FROM_NODE on); the root's propagation goes without
 * (e9_matrices then), which saves easy puzzles the stores. */
static inline int
e9_propagate_(Ctx *x, S9 *s, const int keep, const int twins)
{
    uint32_t dirty = x->dirty, placed[3] = {s->U[0], s->U[1], s->U[2]};
    x->dirty = 0;
#if E9_PAIRS_FIRST
    if (x->geo->npairs && x->valid9) {
        if (!e9_pairs(x, s))
            return 0;
        dirty |= x->dirty;
        x->dirty = 0;
    }
#endif
    for (;;) {
        while (dirty) {
            int d = CTZ(dirty), b;
            uint32_t *F = &s->F[3 * d];
            uint32_t f0 = F[0], f1 = F[1], f2 = F[2], a0, a1, a2, k0 = 0, k1 = 0, k2 = 0;
            dirty &= dirty - 1;
            /* bands and stacks in turn until neither changes anything; each
             * step is idempotent, so a step that changes nothing ends it
             * (and then a0..a2, k0..k2 are the matrices of f0..f2) */
            for (int first = 1;; first = 0) {
                uint32_t g0, g1, g2, t, h0, h1, h2;
                /* bands: rows x boxes */
                a0 = PERM[ROWSEG[f0 & 511] | ROWSEG[(f0 >> 9) & 511] << 3 | ROWSEG[f0 >> 18] << 6];
                a1 = PERM[ROWSEG[f1 & 511] | ROWSEG[(f1 >> 9) & 511] << 3 | ROWSEG[f1 >> 18] << 6];
                a2 = PERM[ROWSEG[f2 & 511] | ROWSEG[(f2 >> 9) & 511] << 3 | ROWSEG[f2 >> 18] << 6];
                if (UNLIKELY(!a0 || !a1 || !a2))
                    return 0;
                g0 = f0 & SEGCELLS[a0];
                g1 = f1 & SEGCELLS[a1];
                g2 = f2 & SEGCELLS[a2];
                if (!first && g0 == f0 && g1 == f1 && g2 == f2)
                    break;
                /* stacks: bands x columns */
                t = ((g0 | g0 >> 9 | g0 >> 18) & 511) | ((g1 | g1 >> 9 | g1 >> 18) & 511) << 9 |
                    ((g2 | g2 >> 9 | g2 >> 18) & 511) << 18;
                k0 = PERM[(t & 7) | ((t >> 6) & 070) | ((t >> 12) & 0700)];
                k1 = PERM[((t >> 3) & 7) | ((t >> 9) & 070) | ((t >> 15) & 0700)];
                k2 = PERM[((t >> 6) & 7) | ((t >> 12) & 070) | ((t >> 18) & 0700)];
                if (UNLIKELY(!k0 || !k1 || !k2))
                    return 0;
                h0 = g0 & ((k0 & 7) | (k1 & 7) << 3 | (k2 & 7) << 6) * 0x40201u;
                h1 = g1 & (((k0 >> 3) & 7) | ((k1 >> 3) & 7) << 3 | ((k2 >> 3) & 7) << 6) * 0x40201u;
                h2 = g2 & ((k0 >> 6) | (k1 >> 6) << 3 | (k2 >> 6) << 6) * 0x40201u;
                f0 = h0;
                f1 = h1;
                f2 = h2;
                if (h0 == g0 && h1 == g1 && h2 == g2)
                    break;
            }
            F[0] = f0;
            F[1] = f1;
            F[2] = f2;
            if (keep) {
                uint16_t *M = s->M[d];
                M[0] = (uint16_t)a0;
                M[1] = (uint16_t)a1;
                M[2] = (uint16_t)a2;
                M[3] = (uint16_t)k0;
                M[4] = (uint16_t)k1;
                M[5] = (uint16_t)k2;
            }
            /* hidden singles: a row with one place left for d */
            for (b = 0; b < 3; b++) {
                uint32_t f = F[b];
                uint32_t rs = (ROWSGL[f & 511] | ROWSGL[(f >> 9) & 511] << 9 | ROWSGL[f >> 18] << 18) & s->U[b];
                while (rs) {
                    int bit = CTZ(rs);
                    rs &= rs - 1;
                    e9_place(x, s, d, b, bit);
                    if (twins)
                        e9_place_twin(x, s, d, x->geo->twin9[27 * b + bit]);
                }
            }
            dirty |= x->dirty;
            x->dirty = 0;
        }
        /* with sums, those of the cells the rules just placed first */
        if (x->geo->nsums && !e9_sums_placed(x, s, placed))
            return 0;
        dirty = x->dirty;
        x->dirty = 0;
        if (dirty)
            continue;
        /* naked singles: an open cell with one digit left; none left: contradiction */
        {
            int b;
            for (b = 0; b < 3; b++) {
                uint32_t ones = 0, twos = 0, naked;
                int d;
                for (d = 0; d < 9; d++) {
                    uint32_t f = s->F[3 * d + b];
                    twos |= ones & f;
                    ones |= f;
                }
                if (UNLIKELY(s->U[b] & ~ones))
                    return 0;
                naked = s->U[b] & ~twos;
                if (!naked)
                    continue;
                /* a naked single placed may empty another one (two in a
                 * unit with one digit): that cell stays open and empty, and
                 * the next round fails on it */
                for (d = 0; d < 9; d++) {
                    uint32_t m;
                    while ((m = s->F[3 * d + b] & naked & s->U[b]) != 0) {
                        e9_place(x, s, d, b, CTZ(m));
                        if (twins)
                            e9_place_twin(x, s, d, x->geo->twin9[27 * b + CTZ(m)]);
                    }
                }
            }
        }
        dirty = x->dirty;
        x->dirty = 0;
        if (dirty)
            continue;
        if (x->geo->npairs) {
            if (!e9_pairs(x, s))
                return 0;
            dirty = x->dirty;
            x->dirty = 0;
            if (dirty)
                continue;
        }
        if (x->geo->polar != NULL) { /* German whispers (_native_9x9_pairs.h) */
            if (!e9_halves(x, s))
                return 0;
            dirty = x->dirty;
            x->dirty = 0;
            if (dirty)
                continue;
        }
        if (x->geo->nruns) { /* renban (_native_9x9_runs.h) */
            if (!e9_runs(x, s))
                return 0;
            dirty = x->dirty;
            x->dirty = 0;
            if (dirty)
                continue;
        }
        if (x->geo->nsums) { /* arrows, pills, little killer (_native_9x9_sums.h) */
            if (!e9_sums(x, s))
                return 0;
            dirty = x->dirty;
            x->dirty = 0;
            if (dirty)
                continue;
        }
        if (keep && x->nodes >= E9_TRIADS_FROM_NODE && !e9_triads(x, s))
            return 0;
        dirty = x->dirty;
        x->dirty = 0;
        if (!dirty)
            return 1;
    }
}

static int
e9_propagate(Ctx *x, S9 *s)
{
    /* two copies: the classic grid's without the palindromes' twins */
    return x->geo->twin9 != NULL ? e9_propagate_(x, s, 1, 1) : e9_propagate_(x, s, 1, 0);
}

static void
e9_counts(const S9 *s, uint32_t *twos_out, uint32_t *threes_out)
{
    int b, d;
    for (b = 0; b < 3; b++) {
        uint32_t ones = 0, twos = 0, threes = 0;
        for (d = 0; d < 9; d++) {
            uint32_t f = s->F[3 * d + b];
            threes |= twos & f;
            twos |= ones & f;
            ones |= f;
        }
        twos_out[b] = twos;
        threes_out[b] = threes;
    }
}

static int
e9_cell_branch(const S9 *s, int cell, Branch *br)
{
    int b = cell / 27, bit = cell % 27, d, k = 0;
    for (d = 0; d < 9; d++)
        if (s->F[3 * d + b] >> bit & 1) {
            br->cell[k] = (uint16_t)cell;
            br->digit[k] = (uint8_t)(d + 1);
            k++;
        }
    br->count = (uint8_t)k;
    br->next = 0;
    br->kind = BRANCH_CELLS;
    return 1;
}

/* A configuration branch (after tdoku's): in the band or stack with the
 * fewest permutations left over its nine digits, a digit with the fewest
 * (two or more); one alternative per permutation. 0 when every band and
 * stack is fixed, or that digit has more than E9_CONFIG_MAX. Reads the
 * segment matrices the last propagation left in s->M. */
static int
e9_config_branch(const S9 *s, Branch *br)
{
    int best = 1000, bu = -1, u, d;
    uint8_t counts[6][9];
    for (u = 0; u < 6; u++) {
        int total = 0;
        for (d = 0; d < 9; d++) {
            int c = PERMS[s->M[d][u]];
            counts[u][d] = (uint8_t)c;
            total += c;
        }
        if (total > 9 && total < best) {
            best = total;
            bu = u;
        }
    }
    if (bu < 0)
        return 0;
    {
        int bd = -1, fewest = 7, k = 0, p;
        uint32_t m;
        for (d = 0; d < 9; d++)
            if (counts[bu][d] >= 2 && counts[bu][d] < fewest) {
                fewest = counts[bu][d];
                bd = d;
            }
        /* with the minirow rules (e9_triads) a configuration of three or
         * more ways is a good guess too; without them it was a weak one
         * (the empty grid searched for ever) */
        if (fewest > E9_CONFIG_MAX)
            return 0;

        m = s->M[bd][bu];
        for (p = 0; p < 6; p++)
            if ((m & PERMBITS[p]) == PERMBITS[p]) {
                br->cell[k] = PERMBITS[p];
                br->digit[k] = (uint8_t)(bd + 1);
                k++;
            }
        br->count = (uint8_t)k;
        br->next = 0;
        br->kind = bu < 3 ? BRANCH_BAND : BRANCH_STACK;
        br->where = (uint8_t)(bu < 3 ? bu : bu - 3);
    }
    return 1;
}

/* The branch of the constraint-led search: a configuration (above); else
 * (every band and stack fixed, which propagation all but always finishes)
 * the two-candidate cell with the most open peers; else a digit with two
 * places in a row or column; else the first cell with the fewest
 * candidates. 0 when solved. */
static int
e9_choose(Ctx *x, const S9 *s, Branch *br)
{
    uint32_t twos[3], threes[3], pairs[3];
    int b, d, best = -1, at = -1;
    (void)x;
    if (!(s->U[0] | s->U[1] | s->U[2]))
        return 0;
    /* with pairs, configurations first (as for classic puzzles) searched
     * 1.4x the nodes on non-consecutive, 5x on kropki */
    if (x->geo->nsums) /* _native_9x9_sums.h */
        return e9_sums_choose(x, s, br);
    if (x->geo->npairs)
        return e9_pairs_choose(x, s, br);
    if (e9_config_branch(s, br))
        return 1;
    e9_counts(s, twos, threes);
    for (b = 0; b < 3; b++)
        pairs[b] = s->U[b] & twos[b] & ~threes[b];
    if (pairs[0] | pairs[1] | pairs[2]) {
        int rowc[9], colc[9], boxc[9];
        e9_open_counts(s, rowc, colc, boxc);
        for (b = 0; b < 3; b++) {
            uint32_t p = pairs[b];
            while (p) {
                int bit = CTZ(p), deg;
                p &= p - 1;
                deg = rowc[3 * b + bit / 9] + colc[bit % 9] + boxc[3 * b + (bit % 9) / 3];
                if (deg > best) {
                    best = deg;
                    at = 27 * b + bit;
                }
            }
        }
        return e9_cell_branch(s, at, br);
    }
    /* a digit with two places in a row */
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t f = s->F[3 * d + b];
            int r;
            for (r = 0; r < 3; r++) {
                uint32_t row = (f >> (9 * r)) & 511;
                if (POP9[row] == 2) {
                    int k = 0;
                    while (row) {
                        int c = CTZ(row);
                        row &= row - 1;
                        br->cell[k] = (uint16_t)(27 * b + 9 * r + c);
                        br->digit[k] = (uint8_t)(d + 1);
                        k++;
                    }
                    br->count = 2;
                    br->next = 0;
                    br->kind = BRANCH_CELLS;
                    return 1;
                }
            }
        }
    /* in a column */
    for (d = 0; d < 9; d++) {
        const uint32_t *F = &s->F[3 * d];
        int c;
        for (c = 0; c < 9; c++) {
            uint32_t col = 0x40201u << c;
            int k = popcount32(F[0] & col) + popcount32(F[1] & col) + popcount32(F[2] & col);
            if (k == 2) {
                int bb, n = 0;
                for (bb = 0; bb < 3; bb++) {
                    uint32_t m = F[bb] & col;
                    while (m) {
                        int bit = CTZ(m);
                        m &= m - 1;
                        br->cell[n] = (uint16_t)(27 * bb + bit);
                        br->digit[n] = (uint8_t)(d + 1);
                        n++;
                    }
                }
                br->count = 2;
                br->next = 0;
                br->kind = BRANCH_CELLS;
                return 1;
            }
        }
    }
    /* the first cell with the fewest candidates (no pairs: three or more) */
    {
        int fewest = 10;
        for (b = 0; b < 3 && fewest > 3; b++) {
            uint32_t u = s->U[b];
            while (u) {
                int bit = CTZ(u), k = 0;
                u &= u - 1;
                for (d = 0; d < 9; d++)
                    k += (int)(s->F[3 * d + b] >> bit & 1);
                if (k < fewest) {
                    fewest = k;
                    at = 27 * b + bit;
                    if (k == 3)
                        break;
                }
            }
        }
    }
    return e9_cell_branch(s, at, br);
}

static int
e9_first_open(Ctx *x, const S9 *s, Branch *br)
{
    int b;
    (void)x;
    for (b = 0; b < 3; b++)
        if (s->U[b])
            return e9_cell_branch(s, 27 * b + CTZ(s->U[b]), br);
    return 0;
}

/* A contradiction after branching on a cell: with relation pairs its
 * weight grows (e9_pairs_choose, as eg_failed); classic grids keep no
 * weights (the search driver's hook). */
static inline void
e9_failed(Ctx *x, const Branch *br, int k)
{
    if (x->geo->npairs && br->kind != BRANCH_BAND && br->kind != BRANCH_STACK)
        e9_pairs_failed(x, br->cell[k]);
}

/* MODE_UNION: a candidate of s that no solution found so far holds? */
static inline int
e9_fresh(Ctx *x, const S9 *s)
{
    int i;
    for (i = 0; i < 27; i++)
        if (s->F[i] & ~x->seen9[i])
            return 1;
    return 0;
}

/* MODE_UNION: the solution in digits joins the seen candidates (both forms). */
static inline void
e9_saw(Ctx *x, const int *digits)
{
    int c;
    for (c = 0; c < 81; c++) {
        x->seen[c] |= 1u << (digits[c] - 1);
        x->seen9[3 * (digits[c] - 1) + c / 27] |= 1u << (c % 27);
    }
}

static void
e9_extract(Ctx *x, const S9 *s, int *digits)
{
    /* solved: each cell is in the mask of its digit only */
    int b, d;
    (void)x;
    for (d = 0; d < 9; d++)
        for (b = 0; b < 3; b++) {
            uint32_t f = s->F[3 * d + b];
            while (f) {
                digits[27 * b + CTZ(f)] = d + 1;
                f &= f - 1;
            }
        }
}

static void
e9_set_bound(Ctx *x, B9 *bd, const S9 *s)
{
    /* solved: each cell is in the mask of its digit only */
    int d, b;
    (void)x;
    for (b = 0; b < 3; b++) {
        uint32_t lower = 0, all = BAND;
        for (d = 0; d < 9; d++) {
            uint32_t f = s->F[3 * d + b];
            bd->above[3 * d + b] = lower;
            bd->eq[3 * d + b] = f;
            lower |= f;
            bd->below[3 * d + b] = all & ~lower;
        }
    }
}

/* In e9_cut, cell `at` of band pb is the first that can go below the
 * bound (low: per band the cells that can, eqc: those that can equal it):
 * can nothing after it go below the bound while the cells between equal
 * theirs? The first cell after `at` that can go below or cannot equal the
 * bound's digit decides: none, or one that cannot go below (all its digits
 * above), and `at` equal to the bound's digit leaves no smaller solution. */
static inline int
e9_cut_equal(const uint32_t *low, const uint32_t *eqc, int pb, uint32_t at)
{
    int b;
    for (b = pb; b < 3; b++) {
        uint32_t after = b == pb ? BAND & ~(at | (at - 1)) : BAND;
        uint32_t stop = (low[b] | (BAND & ~eqc[b])) & after;
        if (stop)
            return !(low[b] & stop & -stop);
    }
    return 1;
}

/* Solutions below the bound only: the cells before the first cell that can
 * still go below it must equal it, and that cell must not exceed it. */
static int
e9_cut(Ctx *x, const B9 *bd, S9 *s)
{
    for (;;) {
        uint32_t low[3] = {0, 0, 0}, eqc[3] = {0, 0, 0}, before[3], at[3], changed = 0;
        int d, b, pb;
        for (d = 0; d < 9; d++)
            for (b = 0; b < 3; b++) {
                low[b] |= s->F[3 * d + b] & bd->below[3 * d + b];
                eqc[b] |= s->F[3 * d + b] & bd->eq[3 * d + b];
            }
        for (pb = 0; pb < 3 && !low[pb]; pb++)
            ;
        if (pb == 3)
            return 0; /* every cell is at least the bound's digit */
        for (b = 0; b < 3; b++) {
            before[b] = b < pb ? BAND : 0;
            at[b] = 0;
        }
        before[pb] = (low[pb] & -low[pb]) - 1;
        at[pb] = low[pb] & -low[pb];
        for (b = 0; b < 3; b++)
            if (before[b] & ~eqc[b])
                return 0; /* an earlier cell already exceeds the bound */
        if (e9_cut_equal(low, eqc, pb, at[pb])) {
            /* that cell equal to the bound's leaves the rest no smaller */
            for (d = 0; d < 9; d++)
                if (s->F[3 * d + pb] & bd->eq[3 * d + pb] & at[pb]) {
                    s->F[3 * d + pb] &= ~at[pb];
                    changed |= 1u << d;
                }
        }
        for (d = 0; d < 9; d++)
            for (b = 0; b < 3; b++) {
                uint32_t f = s->F[3 * d + b], g = f & ~(bd->above[3 * d + b] & (before[b] | at[b]));
                if (g != f) {
                    s->F[3 * d + b] = g;
                    changed |= 1u << d;
                }
            }
        if (!changed)
            return 1;
        x->dirty |= changed;
        if (!e9_propagate(x, s))
            return 0;
    }
}

#define ENG(name) e9_##name
#define STATE S9
#define BOUND B9
#include "_native_search.h"
#undef ENG
#undef STATE
#undef BOUND
