/* Hostile input from the socket: a fake server (a child process on a real Unix socket) sends
 * truncated lines, a 10 MB line, invalid UTF-8, invalid JSON, deep nesting, numbers out of
 * range, wrong replies, error codes this library does not know and 20 000 mutated state lines.
 * A line the library cannot read (not JSON, invalid UTF-8, ...) is a protocol violation: it
 * ends the connection with bad_reply at once, as a line over SCROLLD_MAX_LINE does however it
 * arrives; valid JSON that is no readable message (an unknown type, a state without its
 * fields) is skipped. Only valid states are delivered, errors are named, and nothing crashes
 * (ASan/UBSan watch every byte). A daemon that never says welcome is given up on after
 * scrolld_connect_timeout()'s time, one whose queue of connections is full is tried again
 * within it; a phase this version does not know keeps its name. While a request waits, what
 * is kept is bounded in bytes too; one dispatch is bounded however its callbacks make
 * requests. */
#include "harness.h"

#include "json.h"  /* the mutated lines that are not JSON go to the reader directly */

static char server_path[300];
static char *big;  /* 10 MB without a newline */
#define BIG (10u * 1024 * 1024)

#define WELCOME "{\"type\":\"welcome\",\"protocol\":1,\"server\":\"fake 1\",\"containers\":[\"list\"],\"features\":[\"observe\"],\"instance\":\"fake\"}\n"
#define STATE_PHASE(seq, phase) "{\"type\":\"state\",\"container\":\"list\",\"seq\":" #seq ",\"t\":5,\"phase\":\"" phase "\",\"contentOffset\":{\"x\":0,\"y\":" #seq "},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0},\"header\":{\"height\":60,\"progress\":1},\"visibleRows\":{\"first\":null,\"last\":null}}"
#define STATE(seq) STATE_PHASE(seq, "idle")

static void send_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n <= 0) _exit(0);  /* the client went: nothing more to say */
        data += n;
        len -= (size_t)n;
    }
}

static void say(int fd, const char *text) { send_all(fd, text, strlen(text)); }

/* Reads one request line (discarded). */
static void hear(int fd) {
    char c;
    for (;;) {
        ssize_t n = read(fd, &c, 1);
        if (n <= 0) _exit(0);
        if (c == '\n') return;
    }
}

/* A fake scrolld: accepts one client and runs `script` on it. */
static pid_t fake_server(void (*script)(int fd)) {
    unlink(server_path);
    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        int l = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        memcpy(a.sun_path, server_path, strlen(server_path) + 1);
        if (bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 1) != 0) _exit(2);
        if (write(ready[1], "r", 1) != 1) _exit(2);
        int fd = accept(l, NULL, NULL);
        if (fd < 0) _exit(2);
        script(fd);
        /* Waits for the client to close, so nothing it sends meets a closed socket. */
        shutdown(fd, SHUT_WR);
        char sink[4096];
        while (read(fd, sink, sizeof sink) > 0) {}
        _exit(0);
    }
    close(ready[1]);
    char r;
    CHECK(read(ready[0], &r, 1) == 1);
    close(ready[0]);
    return pid;
}

static void reap(pid_t pid) {
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

typedef struct seen {
    bool lenient;  /* mutated lines may make valid states of other values */
    int states, disconnects;
    uint64_t last_seq;
    char phase[32];        /* the last state's phase_name */
    scrolld_error why;     /* the last disconnection's */
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    x->states++;
    x->last_seq = s->seq;
    snprintf(x->phase, sizeof x->phase, "%s", s->phase_name);
    /* what is delivered is whole and valid */
    if (x->lenient) return;
    CHECK_STR(s->container, "list");
    CHECK(s->content_size.height == 4600);
}

static void on_disconnect(scrolld *c, const scrolld_error *why, bool reconnecting, void *data) {
    (void)c, (void)reconnecting;
    ((seen *)data)->disconnects++;
    ((seen *)data)->why = *why;
}

static scrolld *client(seen *x) {
    scrolld_error e;
    scrolld *c = scrolld_connect(server_path, 0, &e);
    if (c == NULL) { fprintf(stderr, "connect: %s: %s\n", e.name, e.message); exit(1); }
    scrolld_on_state(c, on_state, x);
    scrolld_on_disconnect(c, on_disconnect, x);
    return c;
}

/* ---- scripts ---------------------------------------------------------------------------- */

/* Valid JSON that is no message this library reads is skipped; the valid states around it are
 * delivered; the first line that is not JSON ends the connection (bad_reply). */
static void garbage(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    say(fd, "{\"type\":\"state\",\"container\":\"list\",\"seq\":2}\n");                /* a state without its fields */
    say(fd, "{\"type\":\"state\",\"container\":\"list\",\"seq\":3,\"t\":5,\"phase\":\"idle\",\"contentOffset\":{\"x\":0,\"y\":0},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":\"600\"},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0}}\n");  /* a string for a number */
    say(fd, "{}\n{\"type\":7}\n{\"type\":\"wobble\",\"id\":1}\n\r\n\n");                 /* no type, a new type */
    say(fd, "{\"type\":\"removed\"}\n{\"type\":\"observation\",\"id\":-1}\n{\"type\":\"state\",\"id\":99999999999999999999999}\n");
    say(fd, STATE(4) "\n");
    say(fd, STATE(5) "\n");                                                       /* the last valid one */
    say(fd, STATE(6));                                                            /* a valid state... */
    say(fd, "x\n");                                                               /* ...with garbage after it */
    say(fd, STATE(7) "\n");                                                       /* never read */
}

/* Lines this library cannot read: each, sent as the reply to a ping, fails it at once with
 * bad_reply and ends the connection (the reason is named). */
static const char *const unreadable_lines[] = {
    "{\"type\":\"pong\",\"id\":1",                                          /* truncated */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"li\xffst\"}",                      /* invalid UTF-8 */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"\xc0\xaf\"}",                      /* an overlong form */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"idl\xe9\"}",                       /* Latin-1 */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"\xed\xa0\x80\"}",                  /* a surrogate in UTF-8 */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"\\ud800\"}",                       /* a lone surrogate escape */
    "{\"type\":\"pong\",\"id\":1,\"s\":\"\\u0000\"}",                       /* NUL */
    "{\"type\":\"pong\",\"id\":1e999}",                                     /* out of range */
    "{\"type\":\"pong\",\"id\":-}",
    "{\"type\":01}",
    "{\"a\" 1}",
    "[1,]",
    "[1]",                                                                  /* JSON, but no object */
    "\"x\"",
    "{\"type\":\"pong\",\"id\":1}x",                                        /* text after the value */
    NULL,                                                                   /* (100 000 '[') */
};
static const char *unreadable_line;

static void one_unreadable(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* ping */
    if (unreadable_line != NULL) say(fd, unreadable_line);
    else for (int i = 0; i < 100000; i++) say(fd, "[");
    say(fd, "\n");
}

static void truncated_at_end(int fd) {
    say(fd, WELCOME);
    hear(fd);
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n{\"type\":\"state\",\"container\":\"list\",\"seq\":5");
}

static void forbidden(int fd) {
    say(fd, "{\"type\":\"error\",\"code\":\"forbidden\",\"message\":\"uid 1234 may not connect\"}\n");
}

/* The same refusal, unreadable (a stray byte that is not UTF-8): bad_reply, not disconnected. */
static void forbidden_unreadable(int fd) {
    say(fd, "{\"type\":\"error\",\"code\":\"forbidden\",\"message\":\"uid 1234 may not connect \xff\"}\n");
}

static void not_welcome(int fd) {
    say(fd, STATE(1) "\n");
}

static void odd_welcome(int fd) {
    say(fd, "{\"type\":\"welcome\",\"protocol\":\"one\",\"server\":7,\"containers\":[1,null,\"list\",{}],\"features\":\"all\",\"instance\":[]}\n");
    hear(fd);
    say(fd, "{\"type\":\"pong\",\"id\":1}\n");
}

static void wrong_replies(int fd) {
    say(fd, WELCOME);
    hear(fd); say(fd, "{\"type\":\"ok\",\"id\":1}\n");                                   /* ping */
    hear(fd); say(fd, "{\"type\":\"state\",\"id\":2,\"container\":\"list\"}\n");          /* get */
    hear(fd); say(fd, "{\"type\":\"error\",\"id\":3,\"code\":\"overheated\",\"message\":\"too hot\"}\n");
    hear(fd); say(fd, "{\"type\":\"error\",\"id\":4,\"code\":\"unknown_op\",\"message\":\"unknown op\"}\n");
    hear(fd); say(fd, "{\"type\":\"error\",\"id\":5,\"code\":\"forbidden\"}\n");
    hear(fd); say(fd, "{\"type\":\"devices\",\"id\":6,\"devices\":[{\"id\":\"x\",\"caps\":[1,\"wheel\"]},3,{}],\"input\":7}\n");
    hear(fd); say(fd, "{\"type\":\"error\",\"code\":\"too_large\",\"message\":\"line over 64 KiB\"}\n");
    hear(fd);                                                                               /* no reply: timeout */
    hear(fd); say(fd, "{\"type\":\"pong\",\"id\":9}\n{\"type\":\"pong\",\"id\":8}\n");     /* late one first */
}

/* 20 000 state lines, each with a few bytes changed (a fixed seed: the same every run). */
static unsigned long long seed = 0x5eed5eedULL;
static unsigned next_random(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(seed >> 33);
}

/* The mutated lines that are still JSON objects go to the client (which must deliver only
 * valid states); the others to the JSON reader itself, in this process (each would end the
 * connection); a line that is not JSON ends it at last. */
static arena fuzz_arena;
static int fuzz_unreadable;

static void mutated(int fd) {
    say(fd, WELCOME);
    hear(fd);
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    arena_init(&fuzz_arena, 16u << 20);
    static const char line[] = STATE(7);
    char buf[sizeof line + 8];
    for (int i = 0; i < 20000; i++) {
        memcpy(buf, line, sizeof line);
        size_t len = sizeof line - 1;
        int changes = 1 + (int)(next_random() % 4);
        for (int k = 0; k < changes && len > 0; k++) {
            size_t at = next_random() % len;
            switch (next_random() % 4) {
            case 0: buf[at] = (char)(next_random() & 0xFF); break;
            case 1: len = at; break;                                 /* cut */
            case 2: buf[at] = "{}[]\",:\\0e-."[next_random() % 12]; break;
            default: buf[at] = (char)(0x80 | (next_random() & 0x7F)); break;
            }
        }
        for (size_t j = 0; j < len; j++) if (buf[j] == '\n') buf[j] = ' ';
        arena_reset(&fuzz_arena);
        size_t start = 0;
        while (start < len && (buf[start] == ' ' || buf[start] == '\r')) start++;
        jv *v = json_parse(&fuzz_arena, buf, len, NULL);
        if (v == NULL || v->type != J_OBJECT || start == len) {
            fuzz_unreadable++;
            continue;
        }
        send_all(fd, buf, len);
        say(fd, "\n");
    }
    arena_free(&fuzz_arena);
    say(fd, STATE(8) "\n");
    say(fd, "{\"type\":\"state\",\"seq\":-}\n");
    if (fuzz_unreadable < 1000) _exit(3);  /* (the mutations must make many unreadable lines) */
}

/* ---- lines over the limit ---------------------------------------------------------------- */

/* A pong to request `id` padded to `len` bytes before its newline, sent in one write or in
 * 1 KiB pieces with a pause now and then (so the client reads it in many parts). */
static void padded_pong(int fd, int id, size_t len, bool pieces) {
    char head[64];
    int n = snprintf(head, sizeof head, "{\"type\":\"pong\",\"id\":%d,\"pad\":\"", id);
    CHECK(n > 0 && (size_t)n + 3 <= len);
    char *line = malloc(len + 1);
    CHECK(line != NULL);
    memcpy(line, head, (size_t)n);
    memset(line + n, 'x', len - (size_t)n - 2);
    memcpy(line + len - 2, "\"}\n", 3);
    if (!pieces) send_all(fd, line, len + 1);
    else {
        for (size_t at = 0, i = 0; at < len + 1; at += 1024, i++) {
            send_all(fd, line + at, len + 1 - at < 1024 ? len + 1 - at : 1024);
            if (i % 64 == 63) poll(NULL, 0, 1);
        }
    }
    free(line);
}

/* A line of exactly the limit is read, in one write and in pieces; one byte more is not. */
static void at_the_limit(int fd) {
    say(fd, WELCOME);
    hear(fd); padded_pong(fd, 1, SCROLLD_MAX_LINE, false);
    hear(fd); padded_pong(fd, 2, SCROLLD_MAX_LINE, true);
    hear(fd); padded_pong(fd, 3, SCROLLD_MAX_LINE + 1, false);
}

static void over_the_limit_in_pieces(int fd) {
    say(fd, WELCOME);
    hear(fd); padded_pong(fd, 1, SCROLLD_MAX_LINE + 1, true);
}

static void ten_megabytes(int fd) {
    say(fd, WELCOME);
    hear(fd);
    send_all(fd, big, BIG);
    say(fd, "\n");
}

/* A state over the limit while the client only dispatches: sent once the test writes to `go`
 * (after the subscription's first state came), so it arrives during a dispatch. */
static int go[2] = {-1, -1};

static void overlong_state(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    char g;
    if (read(go[0], &g, 1) != 1) _exit(2);
    say(fd, "{\"type\":\"state\",\"container\":\"list\",\"seq\":2,\"pad\":\"");
    send_all(fd, big, 2 * SCROLLD_MAX_LINE);
}

/* ---- what a request keeps, one dispatch -------------------------------------------------- */

#define STATE_FMT "{\"type\":\"state\",\"container\":\"list\",\"seq\":%d,\"t\":5,\"phase\":\"idle\",\"contentOffset\":{\"x\":0,\"y\":%d},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0},\"header\":{\"height\":60,\"progress\":1},\"visibleRows\":{\"first\":null,\"last\":null}%s}\n"

static void silent(int fd);

/* The id of one request line. */
static int hear_id(int fd) {
    char line[4096];
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r <= 0) _exit(0);
        if (c == '\n') break;
        if (n + 1 < sizeof line) line[n++] = c;
    }
    line[n] = '\0';
    const char *id = strstr(line, "\"id\":");
    return id != NULL ? atoi(id + 5) : 0;
}

/* While a ping waits: 40 valid states of almost 1 MiB each (40 MiB), then its reply. */
#define BIG_STATES 40
static void big_states(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    int id = hear_id(fd);
    size_t pad = SCROLLD_MAX_LINE - 1024;
    char *extra = malloc(pad + 16), *line = malloc(pad + 1024);
    if (extra == NULL || line == NULL) _exit(2);
    memcpy(extra, ",\"pad\":\"", 8);
    memset(extra + 8, 'z', pad);
    memcpy(extra + 8 + pad, "\"", 2);
    for (int seq = 2; seq < 2 + BIG_STATES; seq++) {
        int n = snprintf(line, pad + 1024, STATE_FMT, seq, seq, extra);
        send_all(fd, line, (size_t)n);
    }
    free(extra);
    free(line);
    char pong[64];
    snprintf(pong, sizeof pong, "{\"type\":\"pong\",\"id\":%d}\n", id);
    say(fd, pong);
    silent(fd);
}

/* Each request's reply comes after three new states. */
static void states_per_request(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    for (int seq = 2;;) {
        int id = hear_id(fd);
        char line[1024];
        for (int k = 0; k < 3; k++, seq++) {
            int n = snprintf(line, sizeof line, STATE_FMT, seq, seq, "");
            send_all(fd, line, (size_t)n);
        }
        snprintf(line, sizeof line, "{\"type\":\"pong\",\"id\":%d}\n", id);
        say(fd, line);
    }
}

typedef struct storm {
    int states, in_this_call, pings;
} storm;

/* A callback that makes a request for every state (until 100 pings). */
static void ping_on_state(scrolld *c, const scrolld_state *s, void *data) {
    storm *x = data;
    CHECK_EQ_INT(s->seq, x->states + 1);  /* in order, none lost */
    x->states++;
    x->in_this_call++;
    if (x->in_this_call > 1000) { fprintf(stderr, "one dispatch delivered over 1000 states\n"); exit(1); }
    if (x->pings < 100) {
        x->pings++;
        OK(scrolld_ping(c, NULL, ERR));
    }
}

static bool readable(scrolld *c) {
    struct pollfd p = {.fd = scrolld_fd(c), .events = POLLIN};
    return poll(&p, 1, HANG_MS) == 1;  /* (the deadline only catches a descriptor never readable) */
}

static void kept_bytes(void) {
    /* What arrives while a request waits is kept up to 16 MiB (and 4096 messages): of 40
     * states of 1 MiB, the oldest go (the daemon's latest-wins rule), the newest is delivered. */
    seen x = {0};
    pid_t pid = fake_server(big_states);
    scrolld *c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    OK(scrolld_ping(c, NULL, ERR));
    DISPATCH_UNTIL(c, x.last_seq == 1 + BIG_STATES);
    CHECK(x.states >= 1 && x.states <= 16);
    int kept = x.states;
    scrolld_close(c);
    reap(pid);
    printf("ok kept while a request waits: %d of %d states of 1 MiB (16 MiB), the newest last\n", kept, BIG_STATES + 1);
}

static void one_dispatch(void) {
    /* One dispatch delivers what was kept before it (and what it reads itself); what the
     * requests its callbacks make keep is the next one's, and the descriptor says so. */
    storm s = {0};
    pid_t pid = fake_server(states_per_request);
    scrolld_error e;
    scrolld *c = scrolld_connect(server_path, 0, &e);
    CHECK(c != NULL);
    scrolld_on_state(c, ping_on_state, &s);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    int expected = 1;
    for (int call = 1; call <= 4; call++) {
        CHECK(readable(c));
        s.in_this_call = 0;
        CHECK_EQ_INT(scrolld_dispatch(c), 0);
        CHECK_EQ_INT(s.in_this_call, expected);  /* 1, then 3, 9, 27: each state's ping brings three */
        expected *= 3;
    }
    CHECK(readable(c));
    long long end = now_ms_() + HANG_MS;
    while (s.states < 1 + 3 * 100) {
        CHECK(now_ms_() < end);
        CHECK(readable(c));
        s.in_this_call = 0;
        CHECK_EQ_INT(scrolld_dispatch(c), 0);
    }
    CHECK_EQ_INT(s.pings, 100);
    scrolld_close(c);
    reap(pid);
    printf("ok one dispatch is bounded: a callback pinging on every state gets 1, 3, 9, 27 states a call\n");
}

/* ---- connecting, phases ------------------------------------------------------------------ */

/* Accepts, says nothing, and waits for the client to go. */
static void silent(int fd) {
    char sink[256];
    while (read(fd, sink, sizeof sink) > 0) {}
}

/* A welcome, then no reply to the first request. */
static void welcome_then_silent(int fd) {
    say(fd, WELCOME);
    silent(fd);
}

static void phases(int fd) {
    say(fd, WELCOME);
    hear(fd); say(fd, "{\"type\":\"state\",\"id\":1,"); say(fd, STATE_PHASE(1, "wobbling") + 1); say(fd, "\n");
    hear(fd); say(fd, "{\"type\":\"state\",\"id\":2,"); say(fd, STATE_PHASE(2, "idle") + 1); say(fd, "\n");
    hear(fd); say(fd, "{\"type\":\"state\",\"id\":3,"); say(fd, STATE_PHASE(3, "wobbling") + 1); say(fd, "\n");
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":4,"); say(fd, STATE_PHASE(4, "wobbling") + 1); say(fd, "\n");
}

static void drain_until_disconnect(scrolld *c, seen *x) {
    DISPATCH_UNTIL(c, x->disconnects == 1);
    CHECK_EQ_INT(scrolld_dispatch(c), SCROLLD_E_DISCONNECTED);
}

/* Whether the disconnect callback has run; it must have once the connection is gone. */
static bool announced(scrolld *c, seen *x) {
    CHECK(scrolld_connected(c) || x->disconnects == 1);
    return x->disconnects == 1;
}

static void overlong_lines(void) {
    seen x = {0};
    /* A line over the limit ends the connection with bad_reply at once, whether it comes in one
     * write or in many; one of exactly the limit is read both ways. (The timeout only makes a
     * client that ignored the line fail instead of hanging: it would say timeout.) */
    pid_t pid = fake_server(at_the_limit);
    scrolld *c = client(&x);
    scrolld_set_timeout(c, 10000);
    OK(scrolld_ping(c, NULL, ERR));
    OK(scrolld_ping(c, NULL, ERR));
    FAILS(SCROLLD_E_BAD_REPLY, scrolld_ping(c, NULL, ERR));
    CHECK(strstr(last_error.message, "1048576") != NULL);
    scrolld_error whole = last_error;
    CHECK(!scrolld_connected(c));
    FAILS(SCROLLD_E_DISCONNECTED, scrolld_ping(c, NULL, ERR));
    drain_until_disconnect(c, &x);
    CHECK_EQ_INT(x.why.code, SCROLLD_E_BAD_REPLY);
    CHECK_STR(x.why.message, whole.message);
    scrolld_close(c);
    reap(pid);
    /* The same refusal, cut into 1 KiB pieces and ten times over the limit. */
    void (*const others[])(int) = {over_the_limit_in_pieces, ten_megabytes};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        memset(&x, 0, sizeof x);
        pid = fake_server(others[i]);
        c = client(&x);
        scrolld_set_timeout(c, 10000);
        FAILS(SCROLLD_E_BAD_REPLY, scrolld_ping(c, NULL, ERR));
        CHECK_STR(last_error.message, whole.message);
        scrolld_close(c);
        reap(pid);
    }
    memset(&x, 0, sizeof x);
    CHECK(pipe(go) == 0);
    pid = fake_server(overlong_state);
    c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    DISPATCH_UNTIL(c, x.states == 1);
    CHECK(write(go[1], "g", 1) == 1);
    /* the dispatch that meets the line also runs the disconnect callback */
    DISPATCH_UNTIL(c, announced(c, &x));
    CHECK_EQ_INT(scrolld_dispatch(c), SCROLLD_E_DISCONNECTED);
    close(go[0]);
    close(go[1]);
    CHECK_EQ_INT(x.states, 1);
    CHECK_EQ_INT(x.why.code, SCROLLD_E_BAD_REPLY);
    CHECK_STR(x.why.message, whole.message);
    scrolld_close(c);
    reap(pid);
    printf("ok a line over %d bytes: %s (in one write, in 1 KiB pieces, 10 MB, a state while dispatching)\n",
           SCROLLD_MAX_LINE, whole.message);
}

static void connect_timeout(void) {
    scrolld_error e;
    char want[sizeof server_path + 64];
    /* A daemon that accepts and never says welcome: scrolld_connect_timeout gives up after its
     * time, and says which (not the 30 s default). */
    pid_t pid = fake_server(silent);
    memset(&e, 0, sizeof e);
    CHECK(scrolld_connect_timeout(server_path, 0, 200, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_TIMEOUT);
    CHECK_STR(e.name, "timeout");
    snprintf(want, sizeof want, "no welcome from %s within 200 ms", server_path);
    CHECK_STR(e.message, want);
    printf("ok connect with a timeout: %s\n", e.message);
    reap(pid);
    CHECK(scrolld_connect_timeout(server_path, 0, 0, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_INVALID_VALUE);
    CHECK(scrolld_connect_timeout(server_path, 0, -1, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_INVALID_VALUE);
    /* ...and its timeout is the client's, for requests too: the ping's timeout names the
     * connect's 300 ms. A welcome later than that (a fake server not run in time on a busy
     * machine) is not this test's failure: a new server, and the connect again; only a hang
     * fails. */
    scrolld *c = NULL;
    long long end = now_ms_() + HANG_MS;
    for (;;) {
        pid = fake_server(welcome_then_silent);
        memset(&e, 0, sizeof e);
        c = scrolld_connect_timeout(server_path, 0, 300, &e);
        if (c != NULL) break;
        CHECK_STR(e.name, "timeout");
        kill(pid, SIGKILL);
        CHECK(waitpid(pid, NULL, 0) == pid);
        if (now_ms_() > end) { fprintf(stderr, "no welcome within 300 ms for %d s: %s\n", HANG_MS / 1000, e.message); exit(1); }
    }
    CHECK_EQ_INT(e.code, SCROLLD_OK);
    FAILS(SCROLLD_E_TIMEOUT, scrolld_ping(c, NULL, ERR));
    CHECK_STR(last_error.message, "no reply from scrolld within 300 ms");
    scrolld_close(c);
    reap(pid);
    printf("ok connect timeout: 0 and negative refused; the timeout is the requests' too\n");
}

/* A daemon whose queue of connections is full: connect tries again within its timeout (and
 * says timeout, not not_running), and gets in once there is room. */
static void busy_daemon(void) {
    unlink(server_path);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, server_path, strlen(server_path) + 1);
    CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0 && listen(l, 0) == 0);
    int fillers[16], n = 0;
    for (; n < 16; n++) {
        int f = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
        if (connect(f, (struct sockaddr *)&a, sizeof a) != 0) {
            CHECK(errno == EAGAIN);
            close(f);
            break;
        }
        fillers[n] = f;
    }
    CHECK(n < 16);  /* full */
    scrolld_error e;
    CHECK(scrolld_connect_timeout(server_path, 0, 300, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_TIMEOUT);
    CHECK(strstr(e.message, "busy") != NULL);
    printf("ok a full queue of connections: %s\n", e.message);
    /* A client trying while the queue is full (a child), and this daemon accepting everyone. */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        scrolld *c = scrolld_connect_timeout(server_path, 0, HANG_MS, &e);
        if (c == NULL) { fprintf(stderr, "busy: %s: %s\n", e.name, e.message); _exit(1); }
        scrolld_close(c);
        _exit(0);
    }
    int accepted[32], m = 0, status = 0;
    long long end = now_ms_() + HANG_MS;
    for (;;) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        CHECK(now_ms_() < end);
        struct pollfd p = {.fd = l, .events = POLLIN};
        if (poll(&p, 1, 100) == 1 && m < 32) {
            int fd = accept(l, NULL, NULL);
            CHECK(fd >= 0);
            say(fd, WELCOME);
            accepted[m++] = fd;
        }
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (int i = 0; i < n; i++) close(fillers[i]);
    for (int i = 0; i < m; i++) close(accepted[i]);
    close(l);
    printf("ok a full queue of connections: connect gets in once there is room\n");
}

static void unreadable(void) {
    size_t count = sizeof unreadable_lines / sizeof *unreadable_lines;
    for (size_t i = 0; i < count; i++) {
        seen x = {0};
        unreadable_line = unreadable_lines[i];
        pid_t pid = fake_server(one_unreadable);
        scrolld *c = client(&x);
        scrolld_set_timeout(c, 10000);  /* (a client that skipped the line would say timeout) */
        FAILS(SCROLLD_E_BAD_REPLY, scrolld_ping(c, NULL, ERR));
        CHECK(strstr(last_error.message, "cannot read") != NULL);
        if (i == 0 || i + 1 == count) printf("  %s\n", last_error.message);
        CHECK(!scrolld_connected(c));
        drain_until_disconnect(c, &x);
        CHECK_EQ_INT(x.why.code, SCROLLD_E_BAD_REPLY);
        scrolld_close(c);
        reap(pid);
    }
    printf("ok %zu kinds of unreadable line: each fails the waiting request at once with bad_reply\n", count);
}

static void unknown_phase(void) {
    seen x = {0};
    scrolld_state st;
    /* A phase this version does not know: SCROLLD_PHASE_OTHER with the daemon's name, from
     * scrolld_get as from the state callback. */
    pid_t pid = fake_server(phases);
    scrolld *c = client(&x);
    OK(scrolld_get(c, "list", &st, ERR));
    CHECK_EQ_INT(st.phase, SCROLLD_PHASE_OTHER);
    CHECK_STR(st.phase_name, "wobbling");
    CHECK_STR(st.container, "list");
    OK(scrolld_get(c, "list", &st, ERR));
    CHECK_EQ_INT(st.phase, SCROLLD_PHASE_IDLE);
    CHECK_STR(st.phase_name, "idle");
    OK(scrolld_get(c, "list", &st, ERR));
    CHECK_STR(st.phase_name, "wobbling");
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    DISPATCH_UNTIL(c, x.states == 1);
    CHECK_STR(x.phase, "wobbling");
    CHECK_STR(st.phase_name, "wobbling");  /* still valid: no scrolld_get since */
    scrolld_close(c);
    reap(pid);
    printf("ok an unknown phase keeps its name: get and the state callback both say \"wobbling\"\n");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    daemon_proc d;
    daemon_setup(&d, "hostile");  /* only its directory */
    snprintf(server_path, sizeof server_path, "%s/fake.sock", d.dir);
    big = malloc(BIG);
    CHECK(big != NULL);
    for (size_t i = 0; i < BIG; i++) big[i] = "{\"a\xe2\x82\xac\xff"[i % 8];

    seen x = {0};
    pid_t pid = fake_server(garbage);
    scrolld *c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    drain_until_disconnect(c, &x);
    CHECK_EQ_INT(x.states, 3);
    CHECK_EQ_INT(x.last_seq, 5);
    CHECK_EQ_INT(x.why.code, SCROLLD_E_BAD_REPLY);
    CHECK(strstr(x.why.message, "text after the value") != NULL);
    scrolld_close(c);
    reap(pid);
    printf("ok garbage: JSON that is no message skipped, valid states delivered; a line that is not JSON ends the connection: %s\n", x.why.message);
    unreadable();

    memset(&x, 0, sizeof x);
    pid = fake_server(truncated_at_end);
    c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    drain_until_disconnect(c, &x);
    CHECK_EQ_INT(x.states, 1);
    scrolld_close(c);
    reap(pid);
    printf("ok a line cut by the end of the connection\n");

    scrolld_error e;
    pid = fake_server(forbidden);
    CHECK(scrolld_connect(server_path, 0, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_FORBIDDEN);
    CHECK_STR(e.name, "forbidden");
    CHECK_STR(e.message, "uid 1234 may not connect");
    reap(pid);
    pid = fake_server(forbidden_unreadable);
    CHECK(scrolld_connect(server_path, 0, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_BAD_REPLY);
    CHECK(strstr(e.message, "invalid UTF-8") != NULL);
    reap(pid);
    pid = fake_server(not_welcome);
    CHECK(scrolld_connect(server_path, 0, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_BAD_REPLY);
    reap(pid);
    pid = fake_server(odd_welcome);
    c = scrolld_connect(server_path, 0, &e);
    CHECK(c != NULL);
    CHECK_EQ_INT(scrolld_container_count(c), 1);
    CHECK_STR(scrolld_server(c), "");
    CHECK(!scrolld_has_feature(c, "observe"));
    OK(scrolld_ping(c, NULL, ERR));
    scrolld_close(c);
    reap(pid);
    printf("ok welcome: forbidden, not a welcome, odd fields\n");

    memset(&x, 0, sizeof x);
    pid = fake_server(wrong_replies);
    c = client(&x);
    scrolld_state st;
    FAILS(SCROLLD_E_BAD_REPLY, scrolld_ping(c, NULL, ERR));
    FAILS(SCROLLD_E_BAD_REPLY, scrolld_get(c, "list", &st, ERR));
    FAILS(SCROLLD_E_OTHER, scrolld_pause(c, "list", ERR));
    CHECK_STR(last_error.name, "overheated");
    CHECK_STR(last_error.message, "too hot");
    FAILS(SCROLLD_E_UNKNOWN_OP, scrolld_resume(c, "list", ERR));
    CHECK_STR(last_error.name, "unknown_op");
    FAILS(SCROLLD_E_FORBIDDEN, scrolld_remove(c, "list", ERR));
    scrolld_devices *devices;
    OK(scrolld_devices_list(c, &devices, ERR));
    CHECK_EQ_INT(devices->count, 2);
    CHECK_STR(devices->devices[0].name, "");
    CHECK_EQ_INT(devices->devices[0].cap_count, 1);
    scrolld_devices_free(devices);
    FAILS(SCROLLD_E_TOO_LARGE, scrolld_ping(c, NULL, ERR));
    scrolld_set_timeout(c, 300);
    FAILS(SCROLLD_E_TIMEOUT, scrolld_ping(c, NULL, ERR));
    CHECK_STR(last_error.name, "timeout");
    scrolld_set_timeout(c, 30000);
    OK(scrolld_ping(c, NULL, ERR));  /* the late reply to the timed-out one is dropped */
    scrolld_close(c);
    reap(pid);
    printf("ok replies: bad_reply, unknown codes kept by name, unknown_op, forbidden, too_large, timeout\n");

    overlong_lines();
    connect_timeout();
    busy_daemon();
    unknown_phase();
    kept_bytes();
    one_dispatch();

    memset(&x, 0, sizeof x);
    x.lenient = true;
    pid = fake_server(mutated);
    c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    drain_until_disconnect(c, &x);
    CHECK_EQ_INT(x.last_seq, 8);
    CHECK_EQ_INT(x.why.code, SCROLLD_E_BAD_REPLY);
    scrolld_close(c);
    reap(pid);
    printf("ok 20 000 mutated lines: those still JSON objects sent, %d delivered as valid states, the others read by the JSON reader alone\n", x.states);

    free(big);
    daemon_cleanup(&d);
    printf("hostile: all passed\n");
    return 0;
}
