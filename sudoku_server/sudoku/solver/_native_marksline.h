/* The marks line's reader of the native solver core (issue 29): a line
 * "SOLVE <81 givens> <word>=r1c1-r1c2-r1c3 <word>=r5c5-r5c6-r6c7 ..." read,
 * prepared, searched and checked in one call, text to text.
 * _native.c includes this file once, after run9, rung and read_kinds.
 *
 * No rule is named here. The caller (text/marksline.py) gives, once, the
 * words it takes as a reader (marks_reader): per word its place among the
 * rules (the order their constraints are compiled in), the SHAPE of its
 * marks and its tables. Marks are ";"-separated. The shapes of lines of
 * cells named r1c1 (any case) joined by "-", each line at least 2 distinct
 * cells, each touching the next (side by side or corner to corner), their
 * relation tables by the line's cell count:
 *   MR_STEPS  each step of each line (a, b), the line's table;
 *   MR_ENDS   the cells at the same distance from the two ends (first and
 *             last, second and last but one, ...), the line's table;
 *   MR_PAIRS  every two cells of a line of at most 9, in order, the table
 *             of its cell count;
 *   MR_BULB   a bulb of ":k" cells (1 to 4, 1 without ":k", fewer than
 *             the line's) touching each other, then a line that starts
 *             beside the bulb: one sum, total 0, not distinct, the line's
 *             cells weigh 1, the bulb's -10^(k-1) ... -1.
 * and of cells with a ":" part (mr_dots, mr_masks):
 *   MR_DOTS   "r1c1-r1c2:<tail>", two orthogonal neighbours in lower case
 *             and a tail of the word's (its case), a relation pair under
 *             the tail's table; or a word without cells (any case): once
 *             one is named, every two neighbours no dot joins are a pair
 *             under the table of the words' flags;
 *   MR_DIAG   "r1c6-r2c5-r3c4:15": cells one diagonal step apart in one
 *             direction, from an edge of the grid to an edge (one cell: a
 *             corner), then ":" and a sum of 1 or 2 digits (no leading 0)
 *             between the cell count and 9 times it: one sum, not
 *             distinct, every cell weighing 1;
 *   MR_MASKS  "r1c1-r2c2:<tail>" (any case), each cell once, keeping to
 *             the tail's digits (the starting candidates; one such word).
 * These are the arrays the rules' own fast readings append to a
 * NativeParts (sudoku/rules/_native_marks.py), in the same order, tables
 * numbered in the order they first appear, equal tables sharing a number:
 * tests/unit/test_marks_fast_path.py holds the two equal on every stored
 * puzzle and on mistyped lines. Anything else (another verb, option or
 * word, a ":" part, a name that is no cell, a rule named twice, too many
 * marks for the fixed buffers) is not taken: the caller reads the line in
 * Python, which words every error.
 */

/* ------------------------------------------------------------------ */
/* The reader: words, shapes and tables                                  */

enum { MR_STEPS = 1, MR_ENDS = 2, MR_PAIRS = 3, MR_BULB = 4, MR_DOTS = 5, MR_MASKS = 6, MR_DIAG = 7 };

#define MR_WORDS 32    /* words a reader takes */
#define MR_WORD_MAX 24 /* longest word */
#define MR_FIELDS 16   /* word=marks fields of a line */
#define MR_PAIRS_MAX 2048
#define MR_SUMS_MAX 4096
#define MR_TABLES_MAX 255 /* a table's number fits a byte (NativeParts.arrays) */
#define MR_BULB_MAX 4
#define MR_TAILS 4     /* ":" parts of a word's dots or cells */
#define MR_TAIL_MAX 8

typedef struct {
    char text[MR_WORD_MAX];
    int len;
    uint32_t value[9]; /* a tail's table (MR_DOTS) or mask ([0], MR_MASKS); a word's flags ([0]) */
} MrTail;

typedef struct {
    char word[MR_WORD_MAX];
    int len, order, shape, ntails, nwords;
    uint32_t table[9][9]; /* [k - 1]: the table of a line of k cells, 9 masks */
    MrTail tail[MR_TAILS];  /* MR_DOTS, MR_MASKS: the ":" parts (exact case for dots, lower case for cells) */
    MrTail words[MR_TAILS]; /* MR_DOTS: the marks without cells (in lower case) and their flags */
    uint32_t negative[4][9]; /* MR_DOTS: the free pairs' table by the words' flags (1..3) */
} MrWord;

typedef struct {
    int count;
    MrWord w[MR_WORDS];
} MarksReader;

static const char MR_CAPSULE[] = "sudoku_server.sudoku.solver._native.marks_reader";

static void
mr_capsule_free(PyObject *capsule)
{
    PyMem_RawFree(PyCapsule_GetPointer(capsule, MR_CAPSULE));
}

/* Fill tails from a sequence of (text: bytes, value: bytes of 1..9 32-bit
 * numbers); 0 with an exception. */
static int
mr_tails(PyObject *items, MrTail *tails, int *count)
{
    PyObject *seq = PySequence_Fast(items, "tails are a sequence of (text, value)");
    Py_ssize_t k, n;
    if (seq == NULL)
        return 0;
    n = PySequence_Fast_GET_SIZE(seq);
    for (k = 0; k < n; k++) {
        const char *text, *value;
        Py_ssize_t len, vlen;
        if (k >= MR_TAILS ||
            !PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "y#y#", &text, &len, &value, &vlen) || len < 1 ||
            len > MR_WORD_MAX || vlen < 4 || vlen > 36 || vlen % 4) {
            Py_DECREF(seq);
            return 0;
        }
        memcpy(tails[k].text, text, (size_t)len);
        tails[k].len = (int)len;
        memcpy(tails[k].value, value, (size_t)vlen);
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 1;
}

/* marks_reader(words) -> reader; words: a sequence of (word: bytes in
 * lower case, order: int, shape: int, tables: bytes, tails, words,
 * negative: bytes), tables 9 tables of 9 32-bit masks in native byte order
 * (the table of a line of k cells at k - 1; empty for MR_BULB, MR_DOTS and
 * MR_MASKS); tails and words sequences of (text, value) (mr_tails); negative
 * 4 tables (by flags; empty but for MR_DOTS). */
static PyObject *
py_marks_reader(PyObject *self, PyObject *words)
{
    MarksReader *r;
    PyObject *seq, *capsule;
    Py_ssize_t k, n;
    (void)self;
    seq = PySequence_Fast(words, "marks_reader takes a sequence of (word, order, shape, tables)");
    if (seq == NULL)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    r = PyMem_RawCalloc(1, sizeof *r);
    if (r == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (k = 0; k < n; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        const char *word, *tables, *negative;
        Py_ssize_t len, tlen, nlen;
        PyObject *tails, *words;
        MrWord *w = &r->w[k];
        if (k >= MR_WORDS || !PyArg_ParseTuple(item, "y#iiy#OOy#", &word, &len, &w->order, &w->shape, &tables, &tlen,
                                               &tails, &words, &negative, &nlen))
            goto bad;
        if (len < 1 || len > MR_WORD_MAX || w->shape < MR_STEPS || w->shape > MR_DIAG ||
            (tlen != (w->shape <= MR_PAIRS ? (Py_ssize_t)sizeof w->table : 0)) ||
            (nlen != (w->shape == MR_DOTS ? (Py_ssize_t)sizeof w->negative : 0)) ||
            !mr_tails(tails, w->tail, &w->ntails) || !mr_tails(words, w->words, &w->nwords))
            goto bad;
        memcpy(w->word, word, (size_t)len);
        w->len = (int)len;
        memcpy(w->table, tables, (size_t)tlen);
        memcpy(w->negative, negative, (size_t)nlen);
        r->count++;
    }
    Py_DECREF(seq);
    capsule = PyCapsule_New(r, MR_CAPSULE, mr_capsule_free);
    if (capsule == NULL)
        PyMem_RawFree(r);
    return capsule;
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "marks_reader: at most 32 words of 1..24 bytes, shapes 1..7, tables of "
                                          "9 x 9 32-bit masks, at most 4 tails and words");
    Py_DECREF(seq);
    PyMem_RawFree(r);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Reading a line                                                       */

/* What a line reads to: the givens and prepare()'s arrays. */
typedef struct {
    int cells[81];
    int ending; /* the terminator's length: 1 (LF) or 2 (CRLF) */
    int npairs, ntables, nsums, masked;
    uint32_t cand[81]; /* when masked */
    uint16_t pairs[2 * MR_PAIRS_MAX], pair_table[MR_PAIRS_MAX];
    uint32_t tables[MR_TABLES_MAX][9];
    int32_t sums[MR_SUMS_MAX];
} MrRead;

/* The number of table t in m, a new one numbered next; -1 when full. */
static int
mr_number(MrRead *m, const uint32_t *t)
{
    int k;
    for (k = 0; k < m->ntables; k++)
        if (memcmp(m->tables[k], t, sizeof m->tables[k]) == 0)
            return k;
    if (m->ntables == MR_TABLES_MAX)
        return -1;
    memcpy(m->tables[m->ntables], t, sizeof m->tables[0]);
    return m->ntables++;
}

static int
mr_relate(MrRead *m, int a, int b, int number)
{
    if (m->npairs == MR_PAIRS_MAX)
        return 0;
    m->pairs[2 * m->npairs] = (uint16_t)a;
    m->pairs[2 * m->npairs + 1] = (uint16_t)b;
    m->pair_table[m->npairs++] = (uint16_t)number;
    return 1;
}

static int
mr_touch(int a, int b)
{
    int dr = a / 9 - b / 9, dc = a % 9 - b % 9;
    return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1;
}

/* One mark of s (up to end, no ';'): its cells (distinct, at least 2) into
 * cells, its ":" part's digit into *value (0: none). The count, or 0 for a
 * mark in another form. */
static int
mr_cells(const char *s, const char *end, int *cells, int *value)
{
    int n = 0, k;
    *value = 0;
    for (;;) {
        int c;
        if (end - s < 4 || (s[0] | 0x20) != 'r' || s[1] < '1' || s[1] > '9' || (s[2] | 0x20) != 'c' || s[3] < '1' ||
            s[3] > '9' || n == 81)
            return 0;
        c = (s[1] - '1') * 9 + (s[3] - '1');
        for (k = 0; k < n; k++)
            if (cells[k] == c)
                return 0;
        cells[n++] = c;
        s += 4;
        if (s == end)
            break;
        if (*s == ':') {
            if (end - s != 2 || s[1] < '1' || s[1] > '9')
                return 0;
            *value = s[1] - '0';
            break;
        }
        if (*s++ != '-')
            return 0;
    }
    return n >= 2 ? n : 0;
}

/* A mark of a bulb and its line (cells, count n, bulb of value cells): its sum appended. */
static int
mr_bulb(MrRead *m, const int *cells, int n, int bulb)
{
    int joined[MR_BULB_MAX], nj = 1, grown = 1, i, j;
    int32_t weight = 1;
    if (bulb < 1 || bulb > MR_BULB_MAX || bulb >= n || m->nsums + 3 + 2 * n > MR_SUMS_MAX)
        return 0;
    joined[0] = cells[0]; /* the pill's cells reached from its first through touching ones */
    while (grown) {
        grown = 0;
        for (i = 1; i < bulb; i++) {
            int in = 0, near = 0;
            for (j = 0; j < nj; j++) {
                in |= joined[j] == cells[i];
                near |= mr_touch(cells[i], joined[j]);
            }
            if (!in && near) {
                joined[nj++] = cells[i];
                grown = 1;
            }
        }
    }
    if (nj < bulb)
        return 0;
    for (i = 0, j = 0; i < bulb; i++)
        j |= mr_touch(cells[bulb], cells[i]);
    if (!j)
        return 0;
    for (i = bulb; i + 1 < n; i++)
        if (!mr_touch(cells[i], cells[i + 1]))
            return 0;
    m->sums[m->nsums++] = n;
    m->sums[m->nsums++] = 0;
    m->sums[m->nsums++] = 0;
    for (i = 0; i < n; i++)
        m->sums[m->nsums++] = cells[i];
    for (i = 1; i < bulb; i++)
        weight *= 10;
    for (i = 0; i < n; i++) {
        m->sums[m->nsums++] = i < bulb ? -weight : 1;
        if (i < bulb)
            weight /= 10;
    }
    return 1;
}

/* The index of s (len bytes) among tails (lower: compared in lower case), or -1. */
static int
mr_tail(const MrTail *tails, int count, const char *s, Py_ssize_t len, int lower)
{
    int k, i;
    for (k = 0; k < count; k++) {
        if (tails[k].len != len)
            continue;
        for (i = 0; i < len && (lower ? (s[i] >= 'A' && s[i] <= 'Z' ? s[i] | 0x20 : s[i]) : s[i]) == tails[k].text[i]; i++)
            ;
        if (i == len)
            return k;
    }
    return -1;
}

/* A cell's name at s (r1c1 in lower case; any case when any): the cell, or -1. */
static int
mr_cell(const char *s, int any)
{
    if ((any ? s[0] | 0x20 : s[0]) != 'r' || s[1] < '1' || s[1] > '9' || (any ? s[2] | 0x20 : s[2]) != 'c' ||
        s[3] < '1' || s[3] > '9')
        return -1;
    return (s[1] - '1') * 9 + (s[3] - '1');
}

/* Dots (MR_DOTS): "r1c1-r1c2:<tail>" (lower case, orthogonal neighbours,
 * the tail in the word's case) or a word of the rule's (any case); each
 * dot's pair in order under its tail's table (numbered as the tails first
 * appear), then, when a word was named, every two orthogonal neighbours no
 * dot joins (a < b, ascending) under the words' table. */
static int
mr_dots(MrRead *m, const MrWord *w, const char *s, const char *end)
{
    uint8_t joined[81][2]; /* [a][0]: a and a + 1 have a dot; [a][1]: a and a + 9 */
    int number[MR_TAILS], k, a, flags = 0;
    memset(joined, 0, sizeof joined);
    for (k = 0; k < MR_TAILS; k++)
        number[k] = -1;
    for (;;) {
        const char *stop = memchr(s, ';', (size_t)(end - s));
        Py_ssize_t len;
        int x, y, t = -1;
        if (stop == NULL)
            stop = end;
        len = stop - s;
        if (len > 10 && s[4] == '-' && s[9] == ':' && (x = mr_cell(s, 0)) >= 0 && (y = mr_cell(s + 5, 0)) >= 0 &&
            ((x / 9 == y / 9 && (x - y == 1 || y - x == 1)) || x - y == 9 || y - x == 9))
            t = mr_tail(w->tail, w->ntails, s + 10, len - 10, 0);
        if (t >= 0) {
            int lo = x < y ? x : y;
            if (number[t] < 0 && (number[t] = mr_number(m, w->tail[t].value)) < 0)
                return 0;
            if (!mr_relate(m, x, y, number[t]))
                return 0;
            joined[lo][x - y == 1 || y - x == 1 ? 0 : 1] = 1;
        } else {
            k = mr_tail(w->words, w->nwords, s, len, 1);
            if (k < 0)
                return 0;
            flags |= (int)w->words[k].value[0];
        }
        if (stop == end)
            break;
        s = stop + 1;
    }
    if (flags < 1 || flags > 3)
        return flags == 0;
    if ((k = mr_number(m, w->negative[flags])) < 0)
        return 0;
    for (a = 0; a < 81; a++) {
        if (a % 9 < 8 && !joined[a][0] && !mr_relate(m, a, a + 1, k))
            return 0;
        if (a / 9 < 8 && !joined[a][1] && !mr_relate(m, a, a + 9, k))
            return 0;
    }
    return 1;
}

/* Cells (MR_MASKS): "r1c1-r2c2:<tail>" (names in any case, the tail in
 * any case), each cell marked once, to its tail's mask; one such rule a
 * line. */
static int
mr_masks(MrRead *m, const MrWord *w, const char *s, const char *end)
{
    int c, t;
    if (m->masked)
        return 0;
    for (c = 0; c < 81; c++)
        m->cand[c] = 0x1FF;
    for (;;) {
        const char *stop = memchr(s, ';', (size_t)(end - s)), *colon;
        if (stop == NULL)
            stop = end;
        colon = memchr(s, ':', (size_t)(stop - s));
        if (colon == NULL || (t = mr_tail(w->tail, w->ntails, colon + 1, stop - colon - 1, 1)) < 0 ||
            w->tail[t].value[0] == 0 || w->tail[t].value[0] == 0x1FF)
            return 0;
        for (;;) {
            if (colon - s < 4 || (c = mr_cell(s, 1)) < 0 || m->cand[c] != 0x1FF)
                return 0;
            m->cand[c] = w->tail[t].value[0];
            s += 4;
            if (s == colon)
                break;
            if (*s++ != '-')
                return 0;
        }
        if (stop == end)
            break;
        s = stop + 1;
    }
    m->masked = 1;
    return 1;
}

/* MR_DIAG's marks (s up to end): each diagonal's sum appended to m. 0: in
 * another form (the rule's own reading takes it, or words its error). */
static int
mr_diag(MrRead *m, const char *s, const char *end)
{
    for (;;) {
        const char *stop = memchr(s, ';', (size_t)(end - s));
        int cells[9], n = 0, value, dr, dc, r, c, i;
        if (stop == NULL)
            stop = end;
        for (;;) {
            if (stop - s < 4 || (s[0] | 0x20) != 'r' || s[1] < '1' || s[1] > '9' || (s[2] | 0x20) != 'c' ||
                s[3] < '1' || s[3] > '9' || n == 9)
                return 0;
            cells[n++] = (s[1] - '1') * 9 + (s[3] - '1');
            s += 4;
            if (s < stop && *s == ':')
                break;
            if (s == stop || *s++ != '-')
                return 0;
        }
        s++; /* the sum: 1 or 2 digits, no leading 0 */
        if (stop - s < 1 || stop - s > 2 || *s < '1' || *s > '9' || (stop - s == 2 && (s[1] < '0' || s[1] > '9')))
            return 0;
        value = stop - s == 1 ? s[0] - '0' : (s[0] - '0') * 10 + (s[1] - '0');
        if (value < n || value > 9 * n || m->nsums + 3 + 2 * n > MR_SUMS_MAX)
            return 0;
        r = cells[0] / 9;
        c = cells[0] % 9;
        if (n == 1) {
            if ((r != 0 && r != 8) || (c != 0 && c != 8))
                return 0; /* one cell: a corner's */
        } else {
            dr = cells[1] / 9 - r;
            dc = cells[1] % 9 - c;
            if ((dr != 1 && dr != -1) || (dc != 1 && dc != -1))
                return 0;
            for (i = 1; i < n; i++)
                if (cells[i] / 9 - cells[i - 1] / 9 != dr || cells[i] % 9 - cells[i - 1] % 9 != dc)
                    return 0;
            if ((r - dr >= 0 && r - dr < 9 && c - dc >= 0 && c - dc < 9) ||
                (cells[n - 1] / 9 + dr >= 0 && cells[n - 1] / 9 + dr < 9 && cells[n - 1] % 9 + dc >= 0 &&
                 cells[n - 1] % 9 + dc < 9))
                return 0; /* not from an edge to an edge */
        }
        m->sums[m->nsums++] = n;
        m->sums[m->nsums++] = value;
        m->sums[m->nsums++] = 0;
        for (i = 0; i < n; i++)
            m->sums[m->nsums++] = cells[i];
        for (i = 0; i < n; i++)
            m->sums[m->nsums++] = 1;
        if (stop == end)
            return 1;
        s = stop + 1;
        if (s == end)
            return 0; /* a last mark that is empty */
    }
}

/* One word's marks (s up to end) appended to m. 0: in another form. */
static int
mr_marks(MrRead *m, const MrWord *w, const char *s, const char *end)
{
    int cells[81], n, value, i, number = -1;
    if (w->shape == MR_DOTS)
        return mr_dots(m, w, s, end);
    if (w->shape == MR_MASKS)
        return mr_masks(m, w, s, end);
    if (w->shape == MR_DIAG)
        return mr_diag(m, s, end);
    while (s < end) {
        const char *stop = memchr(s, ';', (size_t)(end - s));
        if (stop == NULL)
            stop = end;
        n = mr_cells(s, stop, cells, &value);
        if (n == 0 || (value && w->shape != MR_BULB))
            return 0;
        s = stop + 1;
        if (stop == end - 1)
            return 0; /* a last mark that is empty */
        if (w->shape == MR_BULB) {
            if (!mr_bulb(m, cells, n, value ? value : 1))
                return 0;
            continue;
        }
        for (i = 0; i + 1 < n; i++)
            if (!mr_touch(cells[i], cells[i + 1]))
                return 0;
        if (w->shape == MR_PAIRS) {
            int j;
            if (n > 9 || (number = mr_number(m, w->table[n - 1])) < 0)
                return 0;
            for (i = 0; i < n; i++)
                for (j = i + 1; j < n; j++)
                    if (!mr_relate(m, cells[i], cells[j], number))
                        return 0;
            continue;
        }
        if (number < 0 && (number = mr_number(m, w->table[0])) < 0)
            return 0; /* one table for all the lines, numbered at the first */
        for (i = 0; w->shape == MR_STEPS && i + 1 < n; i++)
            if (!mr_relate(m, cells[i], cells[i + 1], number))
                return 0;
        for (i = 0; w->shape == MR_ENDS && i < n / 2; i++)
            if (!mr_relate(m, cells[i], cells[n - 1 - i], number))
                return 0;
    }
    return 1;
}

static int
mr_alpha(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* The marks line text (len bytes, its terminator included) read by r into
 * m; 0: not taken. */
static int
mr_read(const MarksReader *r, const char *text, Py_ssize_t len, MrRead *m)
{
    const char *s = text, *end;
    const MrWord *chosen[MR_FIELDS];
    const char *from[MR_FIELDS], *to[MR_FIELDS];
    int nf = 0, i, j;
    if (len < 2 || text[len - 1] != '\n')
        return 0;
    m->ending = text[len - 2] == '\r' ? 2 : 1;
    end = text + len - m->ending;
    if (end - s >= 6 && memcmp(s, "SOLVE ", 6) == 0)
        s += 6;
    if (end - s < 81)
        return 0;
    for (i = 0; i < 81; i++) {
        int v = LINE_VALUE[(unsigned char)s[i]];
        if (v < 0)
            return 0;
        m->cells[i] = v;
    }
    s += 81;
    if (s == end)
        return 0; /* no marks: a plain line */
    while (s < end) {
        char word[MR_WORD_MAX];
        int wl = 0;
        const MrWord *w = NULL;
        const char *f;
        if (*s++ != ' ' || nf == MR_FIELDS)
            return 0;
        while (s < end && mr_alpha(*s) && wl < MR_WORD_MAX)
            word[wl++] = (char)(*s++ | 0x20);
        if (wl == 0 || s == end || *s++ != '=')
            return 0;
        for (i = 0; i < r->count && w == NULL; i++)
            if (r->w[i].len == wl && memcmp(r->w[i].word, word, (size_t)wl) == 0)
                w = &r->w[i];
        if (w == NULL)
            return 0;
        f = s;
        while (s < end && *s != ' ')
            s++;
        if (s == f)
            return 0;
        /* in the rules' order (as the geometry compiles them), each once */
        for (i = nf; i > 0 && chosen[i - 1]->order > w->order; i--) {
            chosen[i] = chosen[i - 1];
            from[i] = from[i - 1];
            to[i] = to[i - 1];
        }
        if (i > 0 && chosen[i - 1]->order == w->order)
            return 0;
        chosen[i] = w;
        from[i] = f;
        to[i] = s;
        nf++;
    }
    m->npairs = m->ntables = m->nsums = m->masked = 0;
    for (j = 0; j < nf; j++)
        if (!mr_marks(m, chosen[j], from[j], to[j]))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Prepared, searched, checked                                          */

/* verify's rule on plain ints (py_verify and solve_marks): the solution
 * (g->ncells digits) holds 1..n in every cell, keeps every given, holds
 * every digit once in each unit and keeps the constraints (ev_verify).
 * like_units: g's peers are its units' (prepare's like=: no differ pair, no
 * distinct sum), which the units' check has covered: the constraint kinds
 * are checked without them. */
static int
verify_cells(const Geo *g, const int *given, const int *sol, int like_units)
{
    int u, i, k;
    for (i = 0; i < g->ncells; i++)
        if (sol[i] < 1 || sol[i] > g->n || (given[i] && given[i] != sol[i]))
            return 0;
    for (u = 0; u < g->nunits; u++) {
        uint32_t seen = 0;
        for (i = 0; i < g->n; i++)
            seen |= 1u << (sol[g->unit[u * g->n + i]] - 1);
        if (seen != g->full)
            return 0;
    }
    if (!g->constrained)
        return 1;
    if (!like_units)
        return ev_verify(g, sol);
    for (i = 0; g->cand != NULL && i < g->ncells; i++)
        if (!(g->cand[i] >> (sol[i] - 1) & 1))
            return 0;
    for (i = 0; i < g->npairs; i++)
        if (!(g->tab[g->pair_tab[i] + (uint32_t)(sol[g->pair_a[i]] - 1)] >> (sol[g->pair_b[i]] - 1) & 1))
            return 0;
    for (k = 0; k < g->nsums; k++) {
        long sum = 0;
        uint32_t a;
        for (a = g->sum_start[k]; a < g->sum_start[k + 1]; a++)
            sum += (long)g->sum_weight[a] * sol[g->sum_cells[a]];
        if (sum != g->sum_total[k])
            return 0;
    }
    return ev_between_verify(g, sol);
}

/* prepare()'s buffers over m's arrays, in the order read_kinds takes them. */
static void
mr_buffers(const MrRead *m, Py_buffer *xb)
{
    memset(xb, 0, 7 * sizeof *xb);
    xb[1].buf = (void *)m->pairs;
    xb[1].len = 4 * m->npairs;
    xb[2].buf = (void *)m->pair_table;
    xb[2].len = 2 * m->npairs;
    xb[3].buf = (void *)m->tables;
    xb[3].len = 36 * m->ntables;
    xb[4].buf = (void *)m->sums;
    xb[4].len = 4 * m->nsums;
    if (m->masked) {
        xb[5].buf = (void *)m->cand;
        xb[5].len = sizeof m->cand;
    }
}

/* The line read and prepared like the classic geometry like (prepare's
 * like=): the geometry, its givens in cells and terminator's length in
 * *ending; NULL with *taken 0 for a line not taken, NULL with an exception
 * set on an error. Its own frame: the reading's buffers are gone before
 * the search's start. The geometry shares like's unit-derived arrays
 * (geo_build_like's share): the caller frees it before it lets go of like. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static Geo *
mr_prepare(const MarksReader *r, const char *text, Py_ssize_t len, const Geo *like, int *cells, int *ending, int *taken)
{
    MrRead m;
    Py_buffer xb[7];
    Extra ex;
    *taken = 0;
    if (!mr_read(r, text, len, &m))
        return NULL;
    mr_buffers(&m, xb);
    if (!read_kinds(9, xb, &ex)) { /* never with the arrays read: not taken all the same */
        PyErr_Clear();
        return NULL;
    }
    *taken = 1;
    memcpy(cells, m.cells, sizeof m.cells);
    *ending = m.ending;
    return geo_build_like(like, &ex, 1);
}

static int
mr_args(PyObject *const *args, const MarksReader **r, const char **text, Py_ssize_t *len)
{
    if (!PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "a marks line is bytes");
        return 0;
    }
    *r = PyCapsule_GetPointer(args[1], MR_CAPSULE);
    *text = PyBytes_AS_STRING(args[0]);
    *len = PyBytes_GET_SIZE(args[0]);
    return *r != NULL;
}

/* solve_marks(line, reader, like, check=None) -> bytes | None | False */
static PyObject *
py_solve_marks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const MarksReader *r;
    const char *text;
    const Geo *like, *g;
    Py_ssize_t len;
    PyObject *check = nargs > 3 ? args[3] : Py_None, *out;
    int cells[81], digits[MAXCELLS], ending = 1, taken, i;
    long found;
    Ctx ctx, *x = &ctx;
    (void)self;
    if (nargs < 3 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "solve_marks(line, reader, like, check=None)");
        return NULL;
    }
    if (!mr_args(args, &r, &text, &len) || (like = as_geo(args[2])) == NULL)
        return NULL;
    if (!like->classic9) { /* prepare's classic9: the classic units, no constraint */
        PyErr_SetString(PyExc_ValueError, "solve_marks: like is the classic 9x9 geometry");
        return NULL;
    }
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return NULL;
    }
    g = mr_prepare(r, text, len, like, cells, &ending, &taken);
    if (g == NULL)
        return PyErr_Occurred() ? NULL : taken ? Py_NewRef(Py_None) : Py_NewRef(Py_False);
    memset(x, 0, offsetof(Ctx, queue));
    x->check = check == Py_None ? NULL : check;
    x->geo = g;
    x->every = 16;
    Py_INCREF(check); /* kept alive while the lock is released */
    found = g->classic9 ? run9(x, cells, NULL, MODE_FIRST, 1, digits)
            : g->mask9  ? run9(x, cells, g->cand, MODE_FIRST, 1, digits)
                        : rung(x, cells, MODE_FIRST, 1, digits);
    Py_DECREF(check);
    last_nodes = x->nodes;
    if (found == -2) {
        geo_free((Geo *)g);
        return NULL;
    }
    if (found != 1 || !verify_cells(g, cells, digits, 1)) {
        geo_free((Geo *)g);
        Py_RETURN_NONE; /* the Python path words it */
    }
    geo_free((Geo *)g);
    out = PyBytes_FromStringAndSize(NULL, 81 + ending);
    if (out == NULL)
        return NULL;
    for (i = 0; i < 81; i++)
        PyBytes_AS_STRING(out)[i] = (char)('0' + digits[i]);
    memcpy(PyBytes_AS_STRING(out) + 81, ending == 2 ? "\r\n" : "\n", (size_t)ending);
    return out;
}

/* read_marks(line, reader) -> (givens, arrays) | False: the givens (81
 * bytes, 0 for an empty cell) and prepare()'s keyword arguments as
 * NativeParts.arrays() makes them (for the tests). */
static PyObject *
py_read_marks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const MarksReader *r;
    const char *text;
    Py_ssize_t len;
    MrRead *m;
    PyObject *arrays = NULL, *givens = NULL, *out = NULL;
    int i, ok = 1;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "read_marks(line, reader)");
        return NULL;
    }
    if (!mr_args(args, &r, &text, &len))
        return NULL;
    m = PyMem_RawMalloc(sizeof *m);
    if (m == NULL)
        return PyErr_NoMemory();
    if (!mr_read(r, text, len, m)) {
        PyMem_RawFree(m);
        Py_RETURN_FALSE;
    }
    arrays = PyDict_New();
    givens = PyBytes_FromStringAndSize(NULL, 81);
    if (arrays != NULL && givens != NULL) {
        for (i = 0; i < 81; i++)
            PyBytes_AS_STRING(givens)[i] = (char)m->cells[i];
#define MR_ITEM(key, buf, size)                                                                                        \
    do {                                                                                                               \
        PyObject *v_ = PyBytes_FromStringAndSize((const char *)(buf), (Py_ssize_t)(size));                             \
        ok = ok && v_ != NULL && PyDict_SetItemString(arrays, key, v_) == 0;                                           \
        Py_XDECREF(v_);                                                                                                \
    } while (0)
        if (m->npairs) {
            MR_ITEM("pairs", m->pairs, 4 * m->npairs);
            MR_ITEM("pair_table", m->pair_table, 2 * m->npairs);
            MR_ITEM("tables", m->tables, 36 * m->ntables);
        }
        if (m->nsums)
            MR_ITEM("sums", m->sums, 4 * m->nsums);
        if (m->masked)
            MR_ITEM("candidates", m->cand, sizeof m->cand);
#undef MR_ITEM
        if (ok)
            out = PyTuple_Pack(2, givens, arrays);
    }
    Py_XDECREF(arrays);
    Py_XDECREF(givens);
    PyMem_RawFree(m);
    return out;
}

#define MARKSLINE_METHODS                                                                                              \
    {"marks_reader", py_marks_reader, METH_O,                                                                          \
     "marks_reader(words) -> reader\n\nThe words solve_marks takes (_native_marksline.h): each (word, order,\n"       \
     "shape, tables)."},                                                                                               \
        {"solve_marks", (PyCFunction)(void (*)(void))py_solve_marks, METH_FASTCALL,                                    \
         "solve_marks(line, reader, like, check=None) -> bytes | None | False\n\nA marks line, text to text: the\n"     \
         "row-major-first solution's 81 digits and the line's terminator; None when taken but not answered\n"          \
         "(givens that break a rule, no solution); False when not taken (_native_marksline.h)."},                      \
        {"read_marks", (PyCFunction)(void (*)(void))py_read_marks, METH_FASTCALL,                                      \
         "read_marks(line, reader) -> (givens, arrays) | False\n\nWhat solve_marks reads a line to (tests)."},
