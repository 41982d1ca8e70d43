/* The true candidates in one search (candidates()), and engine(): included by _native.c
 * after the engines and the helpers of the Python functions it uses
 * (as_geo, read_cells, run9, rung). The search is ENG(union) of
 * _native_search.h: a depth-first search over every solution that drops a
 * node once each of its candidates lies in a solution found already, so on
 * a puzzle with one solution it costs about what counting to two costs,
 * where asking the solver once per candidate cost one proof per candidate
 * (sudoku/candidates.py). */

/* candidates(cells, geometry, check=None) -> tuple | int: per cell the
 * digits some solution holds (a mask, bit d-1 for digit d), from one search
 * that drops every node whose candidates all lie in solutions already found
 * (the node can add nothing); NONE or INVALID as solve(). */
static PyObject *
py_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *check = Py_None, *out;
    const Geo *g;
    uint32_t seen[MAXCELLS];
    int digits[MAXCELLS], in[MAXCELLS], i, n;
    long r;
    Ctx ctx, *x = &ctx;
    (void)self;
    if (nargs < 2 || nargs > 3) {
        PyErr_Format(PyExc_TypeError, "candidates takes 2 or 3 arguments (%zd given)", nargs);
        return NULL;
    }
    g = as_geo(args[1]);
    if (g == NULL)
        return NULL;
    if (nargs > 2)
        check = args[2];
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    n = g->n;
    if (read_cells(args[0], n, in) < 0)
        return NULL;
    memset(x, 0, offsetof(Ctx, queue));
    memset(seen, 0, sizeof(uint32_t) * (size_t)g->ncells);
    x->seen = seen;
    x->check = check == Py_None ? NULL : check;
    x->geo = g;
    x->every = n == 9 ? 16 : n >= 16 ? 1 : 64;
    Py_INCREF(check);
    r = g->classic9  ? run9(x, in, NULL, MODE_UNION, 0, digits)
        : g->mask9 ? run9(x, in, g->cand, MODE_UNION, 0, digits)
                   : rung(x, in, MODE_UNION, 0, digits);
    Py_DECREF(check);
    last_nodes = x->nodes;
    if (r == -2)
        return NULL;
    if (r != 1)
        return PyLong_FromLong(r);
    out = PyTuple_New(g->ncells);
    if (out == NULL)
        return NULL;
    for (i = 0; i < g->ncells; i++) {
        PyObject *v = PyLong_FromUnsignedLong(seen[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}


/* engine(geometry) -> str: which engine searches a prepared geometry, "e9"
 * (the classic 9x9 engine: classic9, or mask9 for starting candidates and
 * relation pairs) or "eg" (the general one). For tests and benchmarks. */
static PyObject *
py_engine(PyObject *self, PyObject *arg)
{
    const Geo *g = as_geo(arg);
    (void)self;
    if (g == NULL)
        return NULL;
    return PyUnicode_FromString(g->classic9 || g->mask9 ? "e9" : "eg");
}
