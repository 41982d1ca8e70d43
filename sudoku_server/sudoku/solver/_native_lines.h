/* solve_lines of the native solver core: plain one-line 9x9 puzzles, text
 * to text, on the 9x9 engine (e9), the lock released once per batch.
 * _native.c includes this file once, after run9.
 */

/* ------------------------------------------------------------------ */
/* solve_lines: one-line 9x9 puzzles, text to text                      */

/* A line solve_lines takes: 81 cells and its terminator. */
#define LINE_CELLS 81
#define PLAIN_LINE_MAX (LINE_CELLS + 2)

/* The cell value of a character of a plain line: 1..9 for a digit, 0 for
 * an empty mark ('0', '.', '_'), -1 for anything else. Mirrors text/reader.py
 * (_PLAIN_LINE, _PLAIN_VALUES). */
static int8_t LINE_VALUE[256];

static void
line_tables(void)
{
    int c;
    for (c = 0; c < 256; c++)
        LINE_VALUE[c] = -1;
    for (c = '1'; c <= '9'; c++)
        LINE_VALUE[c] = (int8_t)(c - '0');
    LINE_VALUE['0'] = LINE_VALUE['.'] = LINE_VALUE['_'] = 0;
}

/* The length of the line's terminator when text (len bytes) is a plain
 * line solve_lines takes (81 cells, then "\n", "\r\n" or "\r"), else 0. */
static int
line_ending(const char *text, Py_ssize_t len)
{
    if (len == LINE_CELLS + 1 && (text[LINE_CELLS] == '\n' || text[LINE_CELLS] == '\r'))
        return 1;
    if (len == LINE_CELLS + 2 && text[LINE_CELLS] == '\r' && text[LINE_CELLS + 1] == '\n')
        return 2;
    return 0;
}

/* The independent check of a 9x9 solution (py_verify's rule, on the
 * classic units): every row, column and box holds 1..9 and every given is
 * kept. */
static int
verify9(const int *cells, const int *digits)
{
    uint32_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    int i;
    for (i = 0; i < 81; i++) {
        int d = digits[i], r = i / 9, c = i % 9;
        if (d < 1 || d > 9 || (cells[i] && cells[i] != d))
            return 0;
        rows[r] |= 1u << d;
        cols[c] |= 1u << d;
        boxes[r / 3 * 3 + c / 3] |= 1u << d;
    }
    for (i = 0; i < 9; i++)
        if (rows[i] != 0x3FE || cols[i] != 0x3FE || boxes[i] != 0x3FE)
            return 0;
    return 1;
}

/* solve_lines(lines, geometry, out[, check]) -> None
 *
 * The classic 9x9 geometry only. For each line of lines (bytes), appends to
 * out its answer (bytes) or None ("not mine": the caller answers that line
 * through the Python text layer). A line is taken when it is a plain
 * one-line puzzle exactly as text/reader.py reads one without its general
 * machinery: 81 characters of 1-9 and the empty marks 0 . _, then its
 * terminator ("\n", "\r\n" or "\r"); it is answered when it has a
 * solution, with what Puzzle.render gives a plain line: the row-major-first
 * solution's 81 digits and the line's own terminator. Every other line is
 * not taken, nor one whose givens share a unit or that has no solution (the
 * Python core words those errors). Every answer passes verify9.
 *
 * The lock is released once for the batch and taken back to call check()
 * (as solve: once 0.5 ms of one puzzle's search have passed since the
 * puzzle began or check() last returned) and at the end. When check()
 * raises, out holds the answers of the lines before the one it was raised
 * in, and the exception propagates. */
static PyObject *
py_solve_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *lines, *out, *check = Py_None, *seq;
    const Geo *g;
    Py_ssize_t n, k, done;
    char *text;
    int *taken;
    Ctx ctx, *x = &ctx;
    PyThreadState *tstate;
    PyObject *et = NULL, *ev = NULL, *tb = NULL;
    (void)self;

    if (nargs < 3 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "solve_lines(lines, geometry, out, check=None)");
        return NULL;
    }
    g = as_geo(args[1]);
    if (g == NULL)
        return NULL;
    if (!g->classic9) {
        PyErr_SetString(PyExc_ValueError, "solve_lines takes the classic 9x9 geometry only");
        return NULL;
    }
    out = args[2];
    if (!PyList_Check(out)) {
        PyErr_SetString(PyExc_TypeError, "out must be a list");
        return NULL;
    }
    if (nargs > 3)
        check = args[3];
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    lines = args[0];
    seq = PySequence_Fast(lines, "lines must be a sequence of bytes");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    text = PyMem_RawMalloc((size_t)(n ? n : 1) * PLAIN_LINE_MAX);
    taken = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int));
    if (text == NULL || taken == NULL) {
        PyMem_RawFree(text);
        PyMem_RawFree(taken);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    /* with the lock: copy the lines (the list may change once it is released) */
    for (k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        taken[k] = 0;
        if (PyBytes_CheckExact(item)) {
            Py_ssize_t len = PyBytes_GET_SIZE(item);
            int end = line_ending(PyBytes_AS_STRING(item), len);
            if (end) {
                memcpy(text + k * PLAIN_LINE_MAX, PyBytes_AS_STRING(item), (size_t)len);
                taken[k] = LINE_CELLS + end;
            }
        }
    }
    Py_DECREF(seq);
    Py_INCREF(check); /* kept alive while the lock is released */
    tstate = PyEval_SaveThread();
    done = n;
    for (k = 0; k < n; k++) {
        char *line = text + k * PLAIN_LINE_MAX;
        int cells[LINE_CELLS], digits[MAXCELLS], i;
        long r;
        if (!taken[k])
            continue;
        for (i = 0; i < LINE_CELLS; i++) {
            int v = LINE_VALUE[(unsigned char)line[i]];
            if (v < 0)
                break;
            cells[i] = v;
        }
        if (i < LINE_CELLS) {
            taken[k] = 0;
            continue;
        }
        memset(x, 0, offsetof(Ctx, queue));
        x->check = check == Py_None ? NULL : check;
        x->geo = g;
        x->every = 16;
        x->tstate = tstate;
        x->released_once = 1;
        x->batch = 1;
        r = run9(x, cells, NULL, MODE_FIRST, 1, digits);
        tstate = x->tstate; /* NULL: check() raised, the lock is held */
        last_nodes = x->nodes;
        if (r == -2) {
            done = k;
            break;
        }
        if (r != 1 || !verify9(cells, digits)) {
            taken[k] = 0;
            continue;
        }
        for (i = 0; i < LINE_CELLS; i++)
            line[i] = (char)('0' + digits[i]);
    }
    if (tstate != NULL)
        PyEval_RestoreThread(tstate);
    Py_DECREF(check);
    if (done < n)
        PyErr_Fetch(&et, &ev, &tb);
    for (k = 0; k < done; k++) {
        PyObject *answer;
        int rc;
        if (taken[k]) {
            answer = PyBytes_FromStringAndSize(text + k * PLAIN_LINE_MAX, taken[k]);
            if (answer == NULL)
                break;
        } else {
            answer = Py_NewRef(Py_None);
        }
        rc = PyList_Append(out, answer);
        Py_DECREF(answer);
        if (rc < 0)
            break;
    }
    PyMem_RawFree(text);
    PyMem_RawFree(taken);
    if (k < done) { /* no memory for an answer: that error wins */
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(tb);
        return NULL;
    }
    if (done < n) {
        PyErr_Restore(et, ev, tb);
        if (et == NULL)
            PyErr_SetString(PyExc_RuntimeError, "native solver: search stopped without an exception");
        return NULL;
    }
    Py_RETURN_NONE;
}

