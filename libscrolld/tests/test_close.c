/* scrolld_close() from inside each kind of callback (state, observation, removed, disconnect
 * with and without SCROLLD_RECONNECT, connect), against a real daemon: the connection closes at
 * once (the daemon removes the client's owned container while the callback still runs), no
 * callback runs after it though more was queued, calls made on the client in the rest of the
 * callback fail with disconnected instead of touching freed memory, a second close does nothing,
 * and the dispatch that ran the callback frees the client as it returns
 * SCROLLD_E_DISCONNECTED. AddressSanitizer watches every access (a use after free fails the
 * test), LeakSanitizer that the client is freed. */
#include "harness.h"

enum kind { K_STATE, K_OBSERVATION, K_REMOVED, K_DISCONNECT, K_CONNECT };
static const char *const kind_names[] = {"state", "observation", "removed", "disconnect", "connect"};

typedef struct closer {
    scrolld *client;
    enum kind close_on;
    int calls[5];           /* callbacks run, by kind */
    bool closed;
    scrolld *watcher;       /* another client, to see the daemon notice the close */
    const char *owned;      /* the closing client's owned container (NULL: none to check) */
    const char *verify;     /* a container the closing client gets before closing (NULL: none) */
} closer;

/* Waits (inside the callback) until the watcher no longer sees the container: the daemon saw
 * the closing client's connection end, while that client's dispatch has not returned. */
static void wait_gone(scrolld *watcher, const char *container) {
    long long end = now_ms_() + HANG_MS;
    for (;;) {
        scrolld_state st;
        scrolld_error e;
        int code = scrolld_get(watcher, container, &st, &e);
        if (code == SCROLLD_E_UNKNOWN_CONTAINER) return;
        CHECK_EQ_INT(code, SCROLLD_OK);
        if (now_ms_() > end) { fprintf(stderr, "%s still there: the connection was not closed\n", container); exit(1); }
        poll(NULL, 0, 10);  /* polling a condition */
    }
}

static void callback(closer *x, scrolld *c, enum kind kind) {
    CHECK(c == x->client);
    if (x->closed) { fprintf(stderr, "a %s callback ran after scrolld_close()\n", kind_names[kind]); exit(1); }
    x->calls[kind]++;
    if (kind != x->close_on) return;
    if (x->verify != NULL) OK(scrolld_get(c, x->verify, &(scrolld_state){0}, ERR));  /* a request from the callback */
    scrolld_close(c);
    x->closed = true;
    /* The rest of the callback: the client is closed, not freed. */
    scrolld_error e = {0};
    CHECK_EQ_INT(scrolld_ping(c, NULL, &e), SCROLLD_E_DISCONNECTED);
    CHECK_STR(e.name, "disconnected");
    CHECK_STR(e.message, "the client is closed (scrolld_close)");
    CHECK_EQ_INT(scrolld_subscribe(c, "list", 0, 0, NULL), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(scrolld_fd(c), -1);
    CHECK(!scrolld_connected(c));
    CHECK_EQ_INT(scrolld_dispatch(c), SCROLLD_E_DISCONNECTED);
    scrolld_close(c);  /* a second close: nothing */
    if (x->owned != NULL) wait_gone(x->watcher, x->owned);
}

static void on_state(scrolld *c, const scrolld_state *s, void *data) { (void)s; callback(data, c, K_STATE); }
static void on_observation(scrolld *c, const scrolld_observation *o, void *data) { (void)o; callback(data, c, K_OBSERVATION); }
static void on_removed(scrolld *c, const char *container, void *data) { (void)container; callback(data, c, K_REMOVED); }
static void on_disconnect(scrolld *c, const scrolld_error *why, bool reconnecting, void *data) {
    (void)why, (void)reconnecting;
    callback(data, c, K_DISCONNECT);
}
static void on_connect(scrolld *c, bool new_instance, void *data) { (void)new_instance; callback(data, c, K_CONNECT); }

static scrolld *connect_to(daemon_proc *d, unsigned flags) {
    scrolld_error e;
    scrolld *c = scrolld_connect(d->socket, flags, &e);
    if (c == NULL) { fprintf(stderr, "connect: %s: %s\n", e.name, e.message); exit(1); }
    return c;
}

static scrolld *closing_client(daemon_proc *d, unsigned flags, closer *x, enum kind kind) {
    scrolld *c = connect_to(d, flags);
    memset(x->calls, 0, sizeof x->calls);
    x->client = c;
    x->close_on = kind;
    x->closed = false;
    x->owned = x->verify = NULL;
    scrolld_on_state(c, on_state, x);
    scrolld_on_observation(c, on_observation, x);
    scrolld_on_removed(c, on_removed, x);
    scrolld_on_disconnect(c, on_disconnect, x);
    scrolld_on_connect(c, on_connect, x);
    return c;
}

static void make(scrolld *c, const char *name, bool owned) {
    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 600);
    scrolld_settings_rows(s, 100, 44);
    scrolld_settings_owned(s, owned);
    OK(scrolld_configure(c, name, s, ERR));
    scrolld_settings_free(s);
}

/* Dispatches until a callback closed the client; returns what that dispatch returned (the
 * client is gone then). */
static int dispatch_until_closed(scrolld *c, closer *x) {
    long long end = now_ms_() + HANG_MS;
    for (;;) {
        if (now_ms_() > end) { fprintf(stderr, "the %s callback never came\n", kind_names[x->close_on]); exit(1); }
        struct pollfd p = {.fd = scrolld_fd(c), .events = POLLIN};
        poll(&p, 1, 1000);
        int code = scrolld_dispatch(c);
        if (x->closed) return code;
    }
}

/* Three states (and observations) of the list kept while requests waited: the first one's
 * callback closes the client, the others never run. */
static void three_moves(scrolld *c) {
    scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    for (int i = 1; i <= 3; i++) OK(scrolld_scroll_by(c, "list", 0, 10, &none, ERR));
    OK(scrolld_ping(c, NULL, ERR));
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    daemon_proc d;
    daemon_setup(&d, "close");
    daemon_start(&d);
    scrolld *w = connect_to(&d, 0);
    make(w, "list", false);
    closer x = {.watcher = w};

    /* A state callback, with two more states queued behind it. */
    scrolld *c = closing_client(&d, 0, &x, K_STATE);
    make(c, "own-state", true);
    x.owned = "own-state";
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    three_moves(c);
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_STATE], 1);
    printf("ok close in the state callback: dispatch returns disconnected, no callback after it, the daemon saw the client go at once\n");

    /* An observation callback. */
    c = closing_client(&d, 0, &x, K_OBSERVATION);
    make(c, "own-obs", true);
    x.owned = "own-obs";
    uint64_t id;
    OK(scrolld_observe(c, "list", "contentOffset.y", NULL, &id, ERR));
    three_moves(c);
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_OBSERVATION], 1);
    printf("ok close in the observation callback\n");

    /* A removed callback: another client removes what this one follows. */
    make(w, "doomed", false);
    c = closing_client(&d, 0, &x, K_REMOVED);
    make(c, "own-removed", true);
    x.owned = "own-removed";
    OK(scrolld_subscribe(c, "doomed", 0, 0, ERR));
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    OK(scrolld_remove(w, "doomed", ERR));
    OK(scrolld_scroll_by(w, "list", 0, 10, &(scrolld_animation){.kind = SCROLLD_ANIMATION_NONE}, ERR));
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_REMOVED], 1);
    printf("ok close in the removed callback (%d states before it)\n", x.calls[K_STATE]);

    /* A disconnect callback, without SCROLLD_RECONNECT: the daemon is killed. */
    scrolld_close(w);
    x.watcher = NULL;
    c = closing_client(&d, 0, &x, K_DISCONNECT);
    OK(scrolld_subscribe(c, "main", 0, 0, ERR));
    daemon_kill(&d);
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_DISCONNECT], 1);
    printf("ok close in the disconnect callback\n");

    /* ...and with SCROLLD_RECONNECT: it does not connect again. */
    daemon_start(&d);
    c = closing_client(&d, SCROLLD_RECONNECT, &x, K_DISCONNECT);
    OK(scrolld_subscribe(c, "main", 0, 0, ERR));
    daemon_kill(&d);
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_DISCONNECT], 1);
    CHECK_EQ_INT(x.calls[K_CONNECT], 0);
    printf("ok close in the disconnect callback of a reconnecting client\n");

    /* A connect callback: the daemon restarts, the client re-creates its owned container,
     * says so, and closes (after a request that sees the container back). */
    daemon_start(&d);
    c = closing_client(&d, SCROLLD_RECONNECT, &x, K_CONNECT);
    make(c, "own-connect", true);
    OK(scrolld_subscribe(c, "main", 0, 0, ERR));
    daemon_kill(&d);
    daemon_start(&d);
    w = connect_to(&d, 0);
    x.watcher = w;
    x.owned = x.verify = "own-connect";
    CHECK_EQ_INT(dispatch_until_closed(c, &x), SCROLLD_E_DISCONNECTED);
    CHECK_EQ_INT(x.calls[K_DISCONNECT], 1);
    CHECK_EQ_INT(x.calls[K_CONNECT], 1);
    printf("ok close in the connect callback: the restored owned container goes with the client\n");

    scrolld_close(w);
    daemon_cleanup(&d);
    printf("close: all passed\n");
    return 0;
}
