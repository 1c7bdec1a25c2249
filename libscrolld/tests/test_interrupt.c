/* Signals during blocking calls, against a real daemon stopped with SIGSTOP (it accepts, and
 * answers nothing until SIGCONT). By default a caught signal is waited through: a ping that
 * SIGUSR1s interrupt still gets its pong once the daemon goes on. With
 * SCROLLD_INTERRUPTIBLE, a request interrupted by a signal returns SCROLLD_E_INTERRUPTED at once
 * instead of waiting out its timeout (HANG_MS: waiting that long would fail the test), its late
 * reply is dropped, and the next request gets its own; scrolld_connect() to a daemon that sends
 * no welcome is interrupted the same way. The handlers are installed with SA_RESTART, which
 * poll() ignores. */
#include "harness.h"

static volatile sig_atomic_t signals;
static void on_usr1(int sig) { (void)sig; signals++; }

/* A check that fails leaves neither a stopped daemon nor a child signalling. */
static daemon_proc server;
static pid_t child = -1;
static void clean_up(void) {
    if (child > 0) kill(child, SIGKILL);
    if (server.pid > 0) kill(server.pid, SIGCONT);
    daemon_stop(&server);
}

/* A child that sends SIGUSR1 to this process every 20 ms: `count` times, then SIGCONT to the
 * daemon and ends (count > 0); or until it is killed (count 0). Repeated, so a signal that
 * comes before the call starts to wait (which poll cannot see) is followed by one that comes
 * while it waits. */
static pid_t signaller(int count, pid_t daemon) {
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid > 0) return pid;
    for (int i = 0; count == 0 || i < count; i++) {
        poll(NULL, 0, 20);
        if (getppid() != parent) _exit(0);
        kill(parent, SIGUSR1);
    }
    kill(daemon, SIGCONT);
    _exit(0);
}

static void stop_signaller(pid_t pid) {
    kill(pid, SIGKILL);
    CHECK(waitpid(pid, NULL, 0) == pid);
    child = -1;
}

/* SIGSTOP, and waits until every thread of the daemon has stopped (kill() returns before). */
static void stop_daemon(void) {
    CHECK(kill(server.pid, SIGSTOP) == 0);
    int status;
    CHECK(waitpid(server.pid, &status, WUNTRACED) == server.pid);
    CHECK(WIFSTOPPED(status));
}

static scrolld *connect_to(daemon_proc *d, unsigned flags) {
    scrolld_error e;
    scrolld *c = scrolld_connect(d->socket, flags, &e);
    if (c == NULL) { fprintf(stderr, "connect: %s: %s\n", e.name, e.message); exit(1); }
    scrolld_set_timeout(c, HANG_MS);
    return c;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);

    daemon_setup(&server, "interrupt");
    atexit(clean_up);
    daemon_start(&server);

    /* The default: ten signals during a ping, then the daemon goes on and the pong comes. */
    scrolld *c = connect_to(&server, 0);
    OK(scrolld_ping(c, NULL, ERR));
    signals = 0;
    stop_daemon();
    child = signaller(10, server.pid);
    OK(scrolld_ping(c, NULL, ERR));
    CHECK(waitpid(child, NULL, 0) == child);
    child = -1;
    CHECK(signals >= 1);  /* (ten were sent; two that come together are one) */
    scrolld_close(c);
    printf("ok without SCROLLD_INTERRUPTIBLE: a ping waits through %d signals and gets its pong\n", (int)signals);

    /* Interruptible: the ping returns at the first signal that comes while it waits. */
    c = connect_to(&server, SCROLLD_INTERRUPTIBLE);
    OK(scrolld_ping(c, NULL, ERR));
    signals = 0;
    stop_daemon();
    child = signaller(0, server.pid);
    FAILS(SCROLLD_E_INTERRUPTED, scrolld_ping(c, NULL, ERR));
    CHECK_STR(last_error.name, "interrupted");
    CHECK_STR(scrolld_code_name(SCROLLD_E_INTERRUPTED), "interrupted");
    CHECK_EQ_INT(SCROLLD_E_INTERRUPTED, 13);
    printf("ok SCROLLD_INTERRUPTIBLE: %s\n", last_error.message);
    FAILS(SCROLLD_E_INTERRUPTED, scrolld_get(c, "main", &(scrolld_state){0}, ERR));
    stop_signaller(child);
    CHECK(signals >= 2);
    CHECK(kill(server.pid, SIGCONT) == 0);
    /* The late replies are dropped; the next request gets its own. */
    scrolld_state st;
    OK(scrolld_get(c, "main", &st, ERR));
    CHECK_STR(st.container, "main");
    OK(scrolld_ping(c, NULL, ERR));
    CHECK(scrolld_connected(c));
    scrolld_close(c);
    printf("ok interrupted requests' late replies are dropped; the client goes on\n");

    /* Connecting to a daemon that accepts and sends no welcome. */
    stop_daemon();
    child = signaller(0, server.pid);
    scrolld_error e;
    CHECK(scrolld_connect_timeout(server.socket, SCROLLD_INTERRUPTIBLE, HANG_MS, &e) == NULL);
    stop_signaller(child);
    CHECK(kill(server.pid, SIGCONT) == 0);
    CHECK_EQ_INT(e.code, SCROLLD_E_INTERRUPTED);
    printf("ok SCROLLD_INTERRUPTIBLE connect: %s\n", e.message);

    daemon_cleanup(&server);
    printf("interrupt: all passed\n");
    return 0;
}
