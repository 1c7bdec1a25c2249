/* Hostile input from the socket: a fake server (a child process on a real Unix socket) sends
 * truncated lines, a 10 MB line, invalid UTF-8, invalid JSON, deep nesting, numbers out of
 * range, wrong replies, error codes this library does not know and 20 000 mutated state lines.
 * The client must skip what it cannot read, deliver only valid states, name the errors, and
 * never crash (ASan/UBSan watch every byte). A line over SCROLLD_MAX_LINE ends the connection
 * with bad_reply at once, however it arrives; a daemon that never says welcome is given up on
 * after scrolld_connect_timeout()'s time; a phase this version does not know keeps its name. */
#include "harness.h"

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

static void garbage(int fd) {
    say(fd, WELCOME);
    hear(fd);  /* subscribe */
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
    say(fd, "{\"type\":\"state\",\"container\":\"list\",\"seq\":2\n");              /* truncated */
    say(fd, "{\"type\":\"state\",\"container\":\"li\xffst\",\"seq\":3}\n");        /* invalid UTF-8 */
    say(fd, "{\"type\":\"state\",\"container\":\"\xc0\xaf\",\"seq\":3}\n");         /* overlong form */
    say(fd, "{\"type\":\"state\",\"container\":\"list\",\"seq\":3,\"t\":5,\"phase\":\"idl\xe9\",\"contentOffset\":{\"x\":0,\"y\":0},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0}}\n");  /* whole, but Latin-1 */
    say(fd, "{\"type\":\"state\",\"container\":\"\xed\xa0\x80\"}\n");              /* a surrogate in UTF-8 */
    say(fd, "{\"type\":\"state\",\"container\":\"\\ud800\"}\n");                    /* a lone surrogate escape */
    say(fd, "{\"type\":\"state\",\"container\":\"\\u0000\"}\n");                    /* NUL */
    say(fd, "{\"type\":\"state\",\"seq\":1e999}\n");                                 /* out of range */
    say(fd, "{\"type\":\"state\",\"seq\":-}\n{\"type\":01}\n{\"a\" 1}\n[1,]\n{}\n\"x\"\n\r\n\n");
    say(fd, "{\"type\":\"removed\"}\n{\"type\":\"observation\",\"id\":-1}\n{\"type\":\"state\",\"id\":99999999999999999999999}\n");
    say(fd, STATE(4));                                                            /* a valid state... */
    say(fd, "x\n");                                                               /* ...with garbage after it */
    for (int i = 0; i < 100000; i++) say(fd, "[");                                /* nesting */
    say(fd, "\n");
    say(fd, STATE(5) "\n");                                                       /* the only other valid one */
    send_all(fd, big, 512 * 1024);                                                /* then a truncated line */
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

static void mutated(int fd) {
    say(fd, WELCOME);
    hear(fd);
    say(fd, "{\"type\":\"state\",\"id\":1,");
    say(fd, STATE(1) + 1);
    say(fd, "\n");
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
        send_all(fd, buf, len);
        say(fd, "\n");
    }
    say(fd, STATE(8) "\n");
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
    CHECK_EQ_INT(x.states, 2);
    CHECK_EQ_INT(x.last_seq, 5);
    scrolld_close(c);
    reap(pid);
    printf("ok garbage: truncated lines, invalid UTF-8, deep nesting skipped; the valid states delivered\n");

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
    unknown_phase();

    memset(&x, 0, sizeof x);
    x.lenient = true;
    pid = fake_server(mutated);
    c = client(&x);
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    drain_until_disconnect(c, &x);
    CHECK_EQ_INT(x.last_seq, 8);
    scrolld_close(c);
    reap(pid);
    printf("ok 20 000 mutated lines: %d delivered as valid states\n", x.states);

    free(big);
    daemon_cleanup(&d);
    printf("hostile: all passed\n");
    return 0;
}
