/*
 * loadgen: a load generator for sudoku-server that takes almost no CPU.
 *
 * One thread, epoll over N TCP connections to HOST:PORT. Puzzles are read
 * from a file, one per line (blank lines and lines starting with '#' are
 * skipped); connection i starts at puzzle i * (puzzles / N) and walks the
 * list round-robin. The reply to a one-line puzzle is one line (the answer,
 * or "ERROR <code> <detail>", docs/PROTOCOL.md), so answers are counted by
 * reading reply lines; each reply is matched, in order, with the puzzle it
 * answers.
 *
 *   --mode rr    each connection sends one puzzle and waits for its answer
 *                before it sends the next (request-response);
 *   --mode pipe  each connection keeps --window puzzles in flight.
 *
 * The run lasts --warmup seconds (not counted) then --seconds measured
 * seconds; --count N ends it sooner, once N answers were counted in the
 * measured window. Printed at the end (or as one JSON object with --json):
 * answers in the window, answers/s, latency p50/p99 in milliseconds (from a
 * puzzle's send to its whole answer line; in pipe mode it includes the wait
 * behind the window), errors (ERROR lines, by kind: wrong answers, closed
 * connections), and this process's own CPU time over the window (user +
 * system, seconds and cores). window_start/window_end are CLOCK_MONOTONIC
 * seconds (Python's time.monotonic() on Linux), so that a caller can line
 * them up with its own samples of the server's CPU.
 *
 * A 9x9 answer (81 characters) is checked: every given kept, every row,
 * column and box holds 1-9 once. Other sizes are checked for their givens.
 * Exit status: 0, or 1 when any error, wrong answer or closed connection was
 * seen or no answer was counted, 2 on bad usage or a failed connect.
 *
 * Build: cc -O2 -Wall -Wextra -o loadgen benchmarks/loadgen.c
 * (benchmarks/bench_workers.py builds it in a temporary folder).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define READ_CHUNK 65536

typedef struct {
    int fd;
    size_t next;          /* index of the next puzzle to send */
    size_t *ring;         /* puzzles in flight, in send order */
    double *sent_at;      /* their send times, seconds */
    int head, count;      /* ring start and length (capacity: window) */
    char *out;            /* bytes not yet written */
    size_t out_len, out_cap;
    char *in;             /* bytes of a reply line not yet complete */
    size_t in_len, in_cap;
    int want_out;         /* EPOLLOUT registered */
    int open;
} conn_t;

static char **puzzles;
static size_t *puzzle_len;
static size_t n_puzzles;

static double *latencies;
static size_t n_lat, cap_lat;

static long answers_all, measured, errors, wrong, closed_conns;
static char first_problem[256];

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec / 1e6;
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        perror("realloc");
        exit(2);
    }
    return q;
}

static void problem(const char *kind, const char *line, size_t len) {
    if (!first_problem[0])
        snprintf(first_problem, sizeof first_problem, "%s: %.*s", kind, (int)(len > 160 ? 160 : len), line);
}

static void load_puzzles(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (len == 0 || line[0] == '#')
            continue;
        if (n_puzzles == alloc) {
            alloc = alloc ? alloc * 2 : 1024;
            puzzles = xrealloc(puzzles, alloc * sizeof *puzzles);
            puzzle_len = xrealloc(puzzle_len, alloc * sizeof *puzzle_len);
        }
        puzzles[n_puzzles] = strndup(line, (size_t)len);
        puzzle_len[n_puzzles++] = (size_t)len;
    }
    free(line);
    fclose(f);
    if (!n_puzzles) {
        fprintf(stderr, "%s: no puzzles\n", path);
        exit(2);
    }
}

/* 0 when ANSWER solves PUZZLE (see the top of the file), else 1. */
static int wrong_answer(const char *puzzle, size_t plen, const char *answer, size_t alen) {
    if (alen != plen)
        return 1;
    for (size_t i = 0; i < plen; i++)
        if (puzzle[i] >= '1' && puzzle[i] <= '9' && puzzle[i] != answer[i])
            return 1;
    if (plen != 81)
        return 0;
    for (int unit = 0; unit < 27; unit++) {
        unsigned seen = 0;
        for (int k = 0; k < 9; k++) {
            int r, c;
            if (unit < 9)
                r = unit, c = k;
            else if (unit < 18)
                r = k, c = unit - 9;
            else
                r = (unit - 18) / 3 * 3 + k / 3, c = (unit - 18) % 3 * 3 + k % 3;
            char ch = answer[r * 9 + c];
            if (ch < '1' || ch > '9')
                return 1;
            seen |= 1u << (ch - '1');
        }
        if (seen != 0x1ff)
            return 1;
    }
    return 0;
}

static void flush_out(conn_t *c, int ep) {
    size_t done = 0;
    while (done < c->out_len) {
        ssize_t n = send(c->fd, c->out + done, c->out_len - done, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (errno == EINTR)
                continue;
            c->out_len = 0;
            return; /* the read side sees the close */
        }
        done += (size_t)n;
    }
    memmove(c->out, c->out + done, c->out_len - done);
    c->out_len -= done;
    int want = c->out_len > 0;
    if (want != c->want_out) {
        struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
        c->want_out = want;
    }
}

/* Queue the next puzzle on C (no write yet). */
static void queue_next(conn_t *c, int window, double t) {
    size_t p = c->next++ % n_puzzles;
    size_t need = c->out_len + puzzle_len[p] + 1;
    if (need > c->out_cap) {
        c->out_cap = need * 2;
        c->out = xrealloc(c->out, c->out_cap);
    }
    memcpy(c->out + c->out_len, puzzles[p], puzzle_len[p]);
    c->out[c->out_len + puzzle_len[p]] = '\n';
    c->out_len = need;
    int slot = (c->head + c->count) % window;
    c->ring[slot] = p;
    c->sent_at[slot] = t;
    c->count++;
}

static void on_line(conn_t *c, const char *line, size_t len, int window, double t, double start, double end) {
    if (len && line[len - 1] == '\r')
        len--;
    if (c->count == 0) {
        errors++;
        problem("unexpected line", line, len);
        return;
    }
    size_t p = c->ring[c->head];
    double sent = c->sent_at[c->head];
    c->head = (c->head + 1) % window;
    c->count--;
    answers_all++;
    if (len >= 6 && memcmp(line, "ERROR ", 6) == 0) {
        errors++;
        problem("error", line, len);
    } else if (wrong_answer(puzzles[p], puzzle_len[p], line, len)) {
        wrong++;
        problem("wrong", line, len);
    }
    if (t >= start && t < end) {
        measured++;
        if (n_lat == cap_lat) {
            cap_lat = cap_lat ? cap_lat * 2 : 65536;
            latencies = xrealloc(latencies, cap_lat * sizeof *latencies);
        }
        latencies[n_lat++] = t - sent;
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double q) {
    if (!n_lat)
        return 0;
    size_t i = (size_t)(q / 100.0 * (double)(n_lat - 1) + 0.5);
    return latencies[i];
}

static void usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s --port P --file PUZZLES [--host 127.0.0.1] [--connections 16] [--mode rr|pipe]\n"
            "          [--window 8] [--seconds 5] [--warmup 1] [--count N] [--json]\n",
            argv0);
    exit(2);
}

int main(int argc, char **argv) {
    const char *host = "127.0.0.1", *port = NULL, *file = NULL;
    int connections = 16, window = 8, pipe_mode = 0, json = 0;
    double seconds = 5, warmup = 1;
    long count = 0;
    static const struct option options[] = {
        {"host", required_argument, 0, 'h'},    {"port", required_argument, 0, 'p'},
        {"file", required_argument, 0, 'f'},    {"connections", required_argument, 0, 'c'},
        {"mode", required_argument, 0, 'm'},    {"window", required_argument, 0, 'w'},
        {"seconds", required_argument, 0, 's'}, {"warmup", required_argument, 0, 'u'},
        {"count", required_argument, 0, 'n'},   {"json", no_argument, 0, 'j'},
        {0, 0, 0, 0},
    };
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'h': host = optarg; break;
        case 'p': port = optarg; break;
        case 'f': file = optarg; break;
        case 'c': connections = atoi(optarg); break;
        case 'm':
            if (strcmp(optarg, "pipe") == 0)
                pipe_mode = 1;
            else if (strcmp(optarg, "rr") != 0)
                usage(argv[0]);
            break;
        case 'w': window = atoi(optarg); break;
        case 's': seconds = atof(optarg); break;
        case 'u': warmup = atof(optarg); break;
        case 'n': count = atol(optarg); break;
        case 'j': json = 1; break;
        default: usage(argv[0]);
        }
    }
    if (!port || !file || connections < 1 || window < 1 || seconds <= 0 || warmup < 0)
        usage(argv[0]);
    if (!pipe_mode)
        window = 1;
    load_puzzles(file);

    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)connections + 64) {
        rl.rlim_cur = (rlim_t)connections + 64 < rl.rlim_max ? (rlim_t)connections + 64 : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *addr;
    int rc = getaddrinfo(host, port, &hints, &addr);
    if (rc) {
        fprintf(stderr, "%s:%s: %s\n", host, port, gai_strerror(rc));
        return 2;
    }
    int ep = epoll_create1(0);
    conn_t *conns = calloc((size_t)connections, sizeof *conns);
    size_t stride = n_puzzles / (size_t)connections ? n_puzzles / (size_t)connections : 1;
    for (int i = 0; i < connections; i++) {
        conn_t *c = &conns[i];
        /* Blocking connects (loopback: immediate), then non-blocking I/O. */
        c->fd = socket(addr->ai_family, SOCK_STREAM, 0);
        if (c->fd < 0 || connect(c->fd, addr->ai_addr, addr->ai_addrlen) < 0) {
            fprintf(stderr, "connect %s:%s: %s\n", host, port, strerror(errno));
            freeaddrinfo(addr);
            free(conns);
            return 2;
        }
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
        c->next = (size_t)i * stride;
        c->ring = calloc((size_t)window, sizeof *c->ring);
        c->sent_at = calloc((size_t)window, sizeof *c->sent_at);
        c->in = xrealloc(NULL, c->in_cap = READ_CHUNK);
        c->open = 1;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
    }
    freeaddrinfo(addr);

    double t0 = now_s(), start = t0 + warmup, end = start + seconds;
    double cpu_start = warmup > 0 ? -1 : cpu_s(), cpu_end = -1, stop = end;
    for (int i = 0; i < connections; i++) {
        for (int k = 0; k < window; k++)
            queue_next(&conns[i], window, t0);
        flush_out(&conns[i], ep);
    }
    struct epoll_event events[256];
    char buf[READ_CHUNK];
    int open_conns = connections;
    for (;;) {
        double t = now_s();
        if (cpu_start < 0 && t >= start)
            cpu_start = cpu_s();
        if (t >= end || (count && measured >= count)) {
            stop = t < end ? t : end;
            break;
        }
        if (!open_conns)
            break;
        double until = (cpu_start < 0 ? start : end) - t;
        int n = epoll_wait(ep, events, 256, (int)(until * 1000) + 1);
        if (n < 0 && errno != EINTR) {
            perror("epoll_wait");
            return 2;
        }
        for (int e = 0; e < n; e++) {
            conn_t *c = events[e].data.ptr;
            if (events[e].events & EPOLLOUT)
                flush_out(c, ep);
            if (!(events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                continue;
            ssize_t got = recv(c->fd, buf, sizeof buf, 0);
            if (got < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (got <= 0) {
                closed_conns++;
                problem("closed", "", 0);
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                close(c->fd);
                c->open = 0;
                open_conns--;
                continue;
            }
            t = now_s();
            int replied = 0;
            char *p = buf, *stop_at = buf + got;
            while (p < stop_at) {
                char *nl = memchr(p, '\n', (size_t)(stop_at - p));
                size_t piece = (size_t)((nl ? nl : stop_at) - p);
                if (c->in_len + piece > c->in_cap) {
                    c->in_cap = (c->in_len + piece) * 2;
                    c->in = xrealloc(c->in, c->in_cap);
                }
                memcpy(c->in + c->in_len, p, piece);
                c->in_len += piece;
                if (!nl)
                    break;
                on_line(c, c->in, c->in_len, window, t, start, end);
                c->in_len = 0;
                replied++;
                p = nl + 1;
            }
            for (int k = 0; k < replied && t < end; k++)
                queue_next(c, window, t);
            if (replied)
                flush_out(c, ep);
        }
    }
    cpu_end = cpu_s();
    if (cpu_start < 0)
        cpu_start = cpu_end;
    double span = stop - start > 0 ? stop - start : 1e-9;
    qsort(latencies, n_lat, sizeof *latencies, cmp_double);
    double p50 = percentile(50) * 1000, p99 = percentile(99) * 1000, cpu = cpu_end - cpu_start;
    const char *mode = pipe_mode ? "pipe" : "rr";
    if (json) {
        printf("{\"mode\": \"%s\", \"connections\": %d, \"window\": %d, \"seconds\": %.6f, \"answers\": %ld,"
               " \"per_s\": %.3f, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"errors\": %ld, \"wrong\": %ld,"
               " \"closed\": %ld, \"answers_all\": %ld, \"cpu_s\": %.4f, \"cpu_cores\": %.4f,"
               " \"window_start\": %.6f, \"window_end\": %.6f, \"first_problem\": \"",
               mode, connections, window, span, measured, (double)measured / span, p50, p99, errors, wrong,
               closed_conns, answers_all, cpu, cpu / span, start, stop);
        for (const char *q = first_problem; *q; q++) {
            if (*q == '"' || *q == '\\')
                putchar('\\');
            putchar((unsigned char)*q < 32 ? '?' : *q);
        }
        printf("\"}\n");
    } else {
        printf("mode %s, %d connections, window %d, %.2f s measured (after %.2f s warm-up)\n", mode, connections,
               window, span, warmup);
        printf("answers %ld, %.1f answers/s\n", measured, (double)measured / span);
        printf("latency p50 %.3f ms, p99 %.3f ms (send to whole answer line)\n", p50, p99);
        printf("errors %ld, wrong %ld, closed %ld%s%s\n", errors, wrong, closed_conns, first_problem[0] ? "; first: " : "",
               first_problem);
        printf("loadgen CPU %.3f s (%.3f cores)\n", cpu, cpu / span);
    }
    for (int i = 0; i < connections; i++) {
        if (conns[i].open)
            close(conns[i].fd);
        free(conns[i].ring);
        free(conns[i].sent_at);
        free(conns[i].out);
        free(conns[i].in);
    }
    free(conns);
    return errors || wrong || closed_conns || !measured ? 1 : 0;
}
