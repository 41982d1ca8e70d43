/* The search drivers of the native solver core, written once for every engine.
 *
 * _native.c includes this file once per engine, after defining:
 *
 *   ENG(name)     the engine's prefix for a name (e9_name, eg_name)
 *   STATE         the engine's search-node type (plain data, copied by value)
 *   BOUND         the engine's form of the best solution found so far
 *
 * and these engine functions (x is the per-call Ctx, see _native.c):
 *
 *   int  ENG(apply)(Ctx *x, STATE *s, const Branch *br, int k)
 *          take alternative k of br (place a digit, or fix a configuration);
 *          0 when it is no longer possible.
 *          Leaves work for the next propagate.
 *   int  ENG(propagate)(Ctx *x, STATE *s)
 *          1 done, 0 contradiction, -1 check() raised.
 *   int  ENG(choose)(Ctx *x, const STATE *s, Branch *br)
 *          the branch of the constraint-led search; 0 when s is solved.
 *   int  ENG(first_open)(Ctx *x, const STATE *s, Branch *br)
 *          the first open cell in row-major order, digits ascending; 0 when solved.
 *   void ENG(set_bound)(Ctx *x, BOUND *b, const STATE *s)      s is solved
 *   int  ENG(cut)(Ctx *x, const BOUND *b, STATE *s)
 *          keep only solutions smaller than the bound (lexicographically,
 *          row-major): 1 something may remain, 0 nothing, -1 check() raised.
 *   void ENG(extract)(Ctx *x, const STATE *s, int *digits)
 *   void ENG(failed)(Ctx *x, const Branch *br, int k)
 *          alternative k of br led to a contradiction (branching weights).
 *   int  ENG(fresh)(Ctx *x, const STATE *s)
 *          MODE_UNION: s has a candidate no solution found so far holds.
 *   void ENG(saw)(Ctx *x, const int *digits)
 *          MODE_UNION: a solution found joins x->seen.
 *
 * The search itself is described in _python.py's module docstring (the two
 * interleaved searches of the first solution); this is the same design with
 * explicit stacks: a frame holds a node's state and the alternatives of its
 * branch not yet tried, taken in order (digits ascending for a cell branch).
 * The depth of a stack is bounded: every alternative places a digit or
 * fixes one of the finitely many configurations (see E9_FRAMES).
 */

typedef struct {
    STATE s;
    Branch br;
} ENG(Frame);

typedef struct {
    ENG(Frame) *frames;
    int depth;
} ENG(Stack);

/* One node: take the next alternative of the top frame and propagate it.
 * With a bound, the node is cut to solutions below it. STEP_SOLVED leaves
 * the solution in *out. */
static int
ENG(step)(Ctx *x, ENG(Stack) *st, const BOUND *bound, int row_major, STATE *out)
{
    ENG(Frame) *f;
    STATE *s;
    int r, k;

    while (st->depth > 0 && st->frames[st->depth - 1].br.next >= st->frames[st->depth - 1].br.count)
        st->depth--;
    if (st->depth == 0)
        return STEP_EMPTY;
    if (tick(x) < 0)
        return STEP_ERROR;
    f = &st->frames[st->depth - 1];
    k = f->br.next++;
    if (f->br.next >= f->br.count) {
        /* the last alternative: work on the frame's own state */
        st->depth--;
        s = &f->s;
    } else {
        s = &st->frames[st->depth].s;
        *s = f->s;
    }
    x->nodes++;
    if (!ENG(apply)(x, s, &f->br, k))
        return STEP_NODE;
    r = ENG(propagate)(x, s);
    if (r <= 0) {
        if (r == 0)
            ENG(failed)(x, &f->br, k);
        return r < 0 ? STEP_ERROR : STEP_NODE;
    }
    if (bound != NULL) {
        r = ENG(cut)(x, bound, s);
        if (r <= 0)
            return r < 0 ? STEP_ERROR : STEP_NODE;
    }
    if (x->seen != NULL && !ENG(fresh)(x, s))
        return STEP_NODE; /* MODE_UNION: nothing below it is new */
    {
        /* s may be the frame just popped: build the branch aside */
        Branch br;
        r = row_major ? ENG(first_open)(x, s, &br) : ENG(choose)(x, s, &br);
        if (!r) {
            *out = *s;
            return STEP_SOLVED;
        }
        /* s is frames[depth].s: a fresh copy, or the frame just popped */
        st->frames[st->depth].br = br;
        st->depth++;
    }
    return STEP_NODE;
}

/* Push the root (already propagated, not solved) with its branch. */
static void
ENG(push_root)(Ctx *x, ENG(Stack) *st, const STATE *root, int row_major)
{
    st->depth = 0;
    st->frames[0].s = *root;
    if (row_major)
        ENG(first_open)(x, root, &st->frames[0].br);
    else
        ENG(choose)(x, root, &st->frames[0].br);
    st->depth = 1;
}

/* Count solutions below root up to limit; the first one found goes to *first.
 * Returns the count, -1 when check() raised, or -3 when `budget` nodes
 * (budget >= 0) were used up first. */
static long
ENG(count)(Ctx *x, const STATE *root, ENG(Frame) *frames, long limit, STATE *first, long budget)
{
    ENG(Stack) st = {frames, 0};
    STATE sol;
    long total = 0;
    Branch br;

    if (!ENG(choose)(x, root, &br)) {
        if (first)
            *first = *root;
        return 1;
    }
    ENG(push_root)(x, &st, root, 0);
    for (;;) {
        int r;
        if (budget >= 0 && budget-- == 0)
            return -3;
        r = ENG(step)(x, &st, NULL, 0, &sol);
        if (r == STEP_EMPTY)
            return total;
        if (r == STEP_ERROR)
            return -1;
        if (r == STEP_SOLVED) {
            if (total == 0 && first)
                *first = sol;
            if (++total >= limit)
                return total;
        }
    }
}

/* The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ... */
static long
ENG(luby)(long i)
{
    long k = 1;
    while ((1L << k) - 1 < i)
        k++;
    while (i != (1L << k) - 1) {
        i -= (1L << (k - 1)) - 1;
        k = 1;
        while ((1L << k) - 1 < i)
            k++;
    }
    return 1L << (k - 1);
}

/* Some solution below root into *first: 1, 0 when none, -1 on error.
 * With restart_nodes > 0 the search restarts after restart_nodes times
 * Luby's sequence nodes, breaking ties between equal branch choices at
 * random (a fixed seed per restart, so answers repeat); after `runs`
 * restarts the last run has no budget, so "none" is a proof. */
static long
ENG(any)(Ctx *x, const STATE *root, ENG(Frame) *frames, STATE *first, long restart_nodes, long runs)
{
    long run, r;
    if (restart_nodes <= 0)
        return ENG(count)(x, root, frames, 1, first, -1);
    for (run = 1;; run++) {
        long budget = run > runs ? -1 : ENG(luby)(run) * restart_nodes;
        x->rng = run == 1 ? 0 : 0x9E3779B97F4A7C15ull * (uint64_t)run;
        r = ENG(count)(x, root, frames, 1, first, budget);
        if (r != -3) {
            x->rng = 0;
            return r;
        }
    }
}

/* The row-major-first solution below root into *out: 1, 0 when none, -1 on
 * error. frames_a and frames_b each hold ncells + 1 frames. The row-major
 * search takes a node per SEARCH_TURNS_QUIET of the constraint-led one for
 * the first SEARCH_QUIET after the first solution, then per SEARCH_TURNS,
 * and per 1 once a second solution is found (_native.c). */
static int
ENG(first)(Ctx *x, const STATE *root, ENG(Frame) *frames_a, ENG(Frame) *frames_b, STATE *out)
{
    ENG(Stack) a = {frames_a, 0}, b = {frames_b, 0};
    BOUND bound;
    STATE sol;
    int have = 0, improved = 0, turn = 0, started = 0;
    long proving = 0;
    Branch br;

    if (!ENG(choose)(x, root, &br)) {
        *out = *root;
        return 1;
    }
    ENG(push_root)(x, &a, root, 0);
    for (;;) {
        int r = ENG(step)(x, &a, have ? &bound : NULL, 0, &sol);
        if (r == STEP_ERROR)
            return -1;
        if (r == STEP_SOLVED) {
            ENG(set_bound)(x, &bound, &sol);
            *out = sol;
            have = 1;
            improved++;
        } else if (r == STEP_EMPTY) {
            return have;
        }
        if (!have)
            continue;
        if (!started) {
            ENG(push_root)(x, &b, root, 1);
            started = 1;
        }
        if (++turn < (improved >= 2 ? 1 : proving++ < SEARCH_QUIET ? SEARCH_TURNS_QUIET : SEARCH_TURNS))
            continue;
        turn = 0;
        r = ENG(step)(x, &b, &bound, 1, &sol);
        if (r == STEP_ERROR)
            return -1;
        if (r == STEP_SOLVED) {
            /* the row-major search's first solution is the answer */
            *out = sol;
            return 1;
        }
        if (r == STEP_EMPTY)
            return 1; /* nothing below the bound: the bound is the answer */
    }
}

/* MODE_UNION: every solution below root that holds a candidate no solution
 * found before it holds, each joining x->seen (ENG(step) drops the nodes
 * that can add nothing). 1 when there is a solution, 0 when none, -1 on
 * error; digits is scratch for the solutions. */
static long
ENG(union)(Ctx *x, const STATE *root, ENG(Frame) *frames, int *digits)
{
    ENG(Stack) st = {frames, 0};
    STATE sol;
    long found = 0;
    Branch br;

    if (!ENG(choose)(x, root, &br)) {
        ENG(extract)(x, root, digits);
        ENG(saw)(x, digits);
        return 1;
    }
    ENG(push_root)(x, &st, root, 0);
    for (;;) {
        int r = ENG(step)(x, &st, NULL, 0, &sol);
        if (r == STEP_EMPTY)
            return found;
        if (r == STEP_ERROR)
            return -1;
        if (r == STEP_SOLVED) {
            ENG(extract)(x, &sol, digits);
            ENG(saw)(x, digits);
            found = 1;
        }
    }
}
