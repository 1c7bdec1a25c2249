/* Hostile input from the socket: a fake server (a child process on a real Unix socket) sends
 * truncated lines, a 10 MB line, invalid UTF-8, invalid JSON, deep nesting, numbers out of
 * range, wrong replies, error codes this library does not know and 20 000 mutated state lines.
 * The client must skip what it cannot read, deliver only valid states, name the errors, and
 * never crash (ASan/UBSan watch every byte). */
#include "harness.h"

static char server_path[300];
static char *big;  /* 10 MB without a newline */
#define BIG (10u * 1024 * 1024)

#define WELCOME "{\"type\":\"welcome\",\"protocol\":1,\"server\":\"fake 1\",\"containers\":[\"list\"],\"features\":[\"observe\"],\"instance\":\"fake\"}\n"
#define STATE(seq) "{\"type\":\"state\",\"container\":\"list\",\"seq\":" #seq ",\"t\":5,\"phase\":\"idle\",\"contentOffset\":{\"x\":0,\"y\":" #seq "},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0},\"header\":{\"height\":60,\"progress\":1},\"visibleRows\":{\"first\":null,\"last\":null}}"

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
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    x->states++;
    x->last_seq = s->seq;
    /* what is delivered is whole and valid */
    if (x->lenient) return;
    CHECK_STR(s->container, "list");
    CHECK(s->content_size.height == 4600);
}

static void on_disconnect(scrolld *c, const scrolld_error *why, bool reconnecting, void *data) {
    (void)c, (void)why, (void)reconnecting;
    ((seen *)data)->disconnects++;
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
    send_all(fd, big, BIG);                                                       /* a 10 MB line */
    say(fd, "\n");
    for (int i = 0; i < 100000; i++) say(fd, "[");                                /* nesting */
    say(fd, "\n");
    say(fd, STATE(5) "\n");                                                       /* the only other valid one */
    send_all(fd, big, 3 * 1024 * 1024);                                           /* then a truncated line */
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

static void drain_until_disconnect(scrolld *c, seen *x) {
    DISPATCH_UNTIL(c, x->disconnects == 1);
    CHECK_EQ_INT(scrolld_dispatch(c), SCROLLD_E_DISCONNECTED);
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
    printf("ok garbage: truncated lines, invalid UTF-8, a 10 MB line, deep nesting skipped; the valid states delivered\n");

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
