/* Reconnection (docs/design.md §20) across a kill -9 and a restart of a real daemon: the client
 * connects again, re-creates its containers from their current description (row edits folded
 * in), puts them back at their last resting offset, pauses and focuses again, re-subscribes and
 * re-observes; the first state and observation after it are marked resumed; a request made
 * while the daemon is away waits for the connection. */
#include "harness.h"

typedef struct seen {
    int disconnects, reconnects_new, reconnects_same, states, resumed_states, observations, resumed_obs;
    bool last_reconnecting;
    scrolld_state last;
    int64_t obs_old_first, obs_new_first;
    bool obs_resumed;
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    if (strcmp(s->container, "list") != 0) return;
    x->states++;
    if (s->resumed) x->resumed_states++;
    x->last = *s;
    x->last.container = x->last.phase_name = NULL;
}

static void on_observation(scrolld *c, const scrolld_observation *o, void *data) {
    (void)c;
    seen *x = data;
    x->observations++;
    x->obs_resumed = o->resumed;
    if (o->resumed) x->resumed_obs++;
    x->obs_old_first = o->old_value.type == SCROLLD_VALUE_ROWS ? o->old_value.rows.first : -1;
    x->obs_new_first = o->new_value.type == SCROLLD_VALUE_ROWS ? o->new_value.rows.first : -1;
}

static void on_disconnect(scrolld *c, const scrolld_error *why, bool reconnecting, void *data) {
    (void)c;
    seen *x = data;
    x->disconnects++;
    x->last_reconnecting = reconnecting;
    printf("disconnected (%s: %s), reconnecting: %s\n", why->name, why->message, reconnecting ? "yes" : "no");
}

static void on_connect(scrolld *c, bool new_instance, void *data) {
    (void)c;
    seen *x = data;
    if (new_instance) x->reconnects_new++;
    else x->reconnects_same++;
}

typedef struct log_seen {
    int states;
    struct { scrolld_phase phase; scrolld_point content_offset; scrolld_size content_size; bool resumed_seen; } last;
} log_seen;

static void on_log_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    log_seen *x = data;
    if (strcmp(s->container, "log") != 0) return;
    x->states++;
    x->last.phase = s->phase;
    x->last.content_offset = s->content_offset;
    x->last.content_size = s->content_size;
    if (s->resumed) x->last.resumed_seen = true;
}

static void on_count(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    (void)s;
    ++*(int *)data;
}

/* 50 px header, rows: 40 of 44 px, 10 of 50 px inserted at the end, the first 2 removed. */
static const double CONTENT = 120 + 38 * 44 + 10 * 50;

static void check_restored(scrolld *c, seen *x, int cycle) {
    scrolld_state st;
    /* The list as it was: its description (edits folded in) and its resting offset. */
    OK(scrolld_get(c, "list", &st, ERR));
    CHECK_EQ_NUM(st.content_size.height, CONTENT + (cycle > 1 ? 44 : 0));
    CHECK_EQ_NUM(st.container_size.height, 300);
    CHECK_EQ_NUM(st.content_offset.y, 300);
    CHECK(st.has_header);
    CHECK_EQ_NUM(st.header_height, 50);
    OK(scrolld_get(c, "main", &st, ERR));
    CHECK(st.paused);
    scrolld_devices *devices;
    OK(scrolld_devices_list(c, &devices, ERR));
    CHECK_STR(devices->focus, "list");
    scrolld_devices_free(devices);
    DISPATCH_UNTIL(c, x->resumed_states == cycle && x->resumed_obs == cycle);
    CHECK(x->obs_resumed);
    CHECK_EQ_INT(x->obs_old_first, x->obs_new_first);  /* old: the last value delivered before */
    CHECK_EQ_INT(x->reconnects_new, cycle);
    CHECK_EQ_INT(x->reconnects_same, 0);
}

/* A container of 400×300 px over content `height` px tall, without rows. */
static void configure_plain(scrolld *c, const char *name, double height) {
    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 300);
    scrolld_settings_content_size(s, 400, height);
    OK(scrolld_configure(c, name, s, ERR));
    scrolld_settings_free(s);
}

int main(void) {
    daemon_proc d;
    daemon_setup(&d, "reconnect");
    daemon_start(&d);
    scrolld_error e;
    scrolld *c = scrolld_connect(d.socket, SCROLLD_RECONNECT, &e);
    CHECK(c != NULL);
    seen x = {0};
    scrolld_on_state(c, on_state, &x);
    scrolld_on_observation(c, on_observation, &x);
    scrolld_on_disconnect(c, on_disconnect, &x);
    scrolld_on_connect(c, on_connect, &x);
    char first_instance[64];
    snprintf(first_instance, sizeof first_instance, "%s", scrolld_instance(c));

    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 300);
    scrolld_settings_header(s, 50, 120);
    scrolld_settings_rows(s, 40, 44);
    scrolld_settings_owned(s, true);
    OK(scrolld_configure(c, "list", s, ERR));
    scrolld_settings_free(s);
    /* Many calls, one description: the client keeps the current value of each key. */
    for (int i = 0; i < 200; i++) {
        s = scrolld_settings_new();
        scrolld_settings_physics_number(s, "deceleration_rate", 0.99 + i * 0.00004);
        OK(scrolld_configure(c, "list", s, ERR));
        scrolld_settings_free(s);
    }
    s = scrolld_settings_new();
    scrolld_settings_rows_insert(s, 40, 10, 50);
    OK(scrolld_configure(c, "list", s, ERR));
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    scrolld_settings_rows_remove(s, 0, 2);
    OK(scrolld_configure(c, "list", s, ERR));
    scrolld_settings_free(s);
    OK(scrolld_pause(c, "main", ERR));
    OK(scrolld_focus(c, "list", ERR));
    OK(scrolld_subscribe(c, "list", 0, 0, ERR));
    uint64_t rows;
    OK(scrolld_observe(c, "list", "visibleRows", NULL, &rows, ERR));
    const scrolld_position y300 = {.has_y = true, .y = 300};
    const scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    OK(scrolld_scroll_to(c, "list", &y300, &none, ERR));
    DISPATCH_UNTIL(c, x.last.content_offset.y == 300 && x.last.phase == SCROLLD_PHASE_IDLE);
    DISPATCH_UNTIL(c, x.observations >= 2);
    CHECK_EQ_INT(x.resumed_states, 0);
    printf("ok set up: list at 300, main paused, focus on list\n");

    for (int cycle = 1; cycle <= 2; cycle++) {
        daemon_kill(&d);
        DISPATCH_UNTIL(c, x.disconnects == cycle);
        CHECK(x.last_reconnecting);
        CHECK(!scrolld_connected(c));
        daemon_start(&d);
        /* No dispatch: the request itself waits for the reconnection (within its timeout). */
        check_restored(c, &x, cycle);
        CHECK(strcmp(scrolld_instance(c), first_instance) != 0);
        printf("ok cycle %d: kill -9, restart: restored (new instance %s)\n", cycle, scrolld_instance(c));
        if (cycle == 1) {
            /* an edit after a restore is folded into the restored description */
            s = scrolld_settings_new();
            scrolld_settings_rows_insert(s, 48, 1, 44);
            OK(scrolld_configure(c, "list", s, ERR));
            scrolld_settings_free(s);
        }
    }

    /* remove: a removed container is not created again; one configured with NULL settings
     * (no keys) is */
    OK(scrolld_remove(c, "list", ERR));
    OK(scrolld_configure(c, "bare", NULL, ERR));
    daemon_kill(&d);
    DISPATCH_UNTIL(c, x.disconnects == 3);
    /* A request made while the daemon is away waits for the connection within its timeout,
     * then fails with timeout, saying so (0 or a negative timeout is ignored). */
    scrolld_set_timeout(c, 300);
    scrolld_set_timeout(c, 0);
    scrolld_set_timeout(c, -5);
    FAILS(SCROLLD_E_TIMEOUT, scrolld_ping(c, NULL, ERR));
    CHECK(strstr(last_error.message, "waited 300 ms for a reconnection") != NULL);
    printf("ok a request while reconnecting: %s\n", last_error.message);
    scrolld_set_timeout(c, 30000);
    daemon_start(&d);
    scrolld_state st;
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_get(c, "list", &st, ERR));
    OK(scrolld_get(c, "bare", &st, ERR));
    printf("ok a removed container stays removed; one configured with NULL settings comes back\n");

    /* SCROLLD_NO_RESTORE_OFFSETS: re-created where a new container starts */
    scrolld *c2 = scrolld_connect(d.socket, SCROLLD_RECONNECT | SCROLLD_NO_RESTORE_OFFSETS, &e);
    CHECK(c2 != NULL);
    configure_plain(c2, "plain", 3000);
    OK(scrolld_scroll_to(c2, "plain", &y300, &none, ERR));
    OK(scrolld_get(c2, "plain", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 300);
    daemon_kill(&d);
    daemon_start(&d);
    OK(scrolld_get(c2, "plain", &st, ERR));
    CHECK_EQ_NUM(st.content_size.height, 3000);
    CHECK_EQ_NUM(st.content_offset.y, 0);
    printf("ok SCROLLD_NO_RESTORE_OFFSETS\n");

    /* A scrollTo still on its way when the daemon dies: the container comes back where it was
     * going (the client knows that without a subscription), as the Python client puts it. */
    scrolld *c4 = scrolld_connect(d.socket, SCROLLD_RECONNECT, &e);
    CHECK(c4 != NULL);
    configure_plain(c4, "far", 30000);
    const scrolld_position y15000 = {.has_y = true, .y = 15000};
    const scrolld_animation ten_seconds = {.kind = SCROLLD_ANIMATION_SPRING, .duration = 10};
    OK(scrolld_scroll_to(c4, "far", &y15000, &ten_seconds, ERR));
    OK(scrolld_get(c4, "far", &st, ERR));
    CHECK(st.phase != SCROLLD_PHASE_IDLE);
    daemon_kill(&d);
    daemon_start(&d);
    OK(scrolld_get(c4, "far", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 15000);
    CHECK_EQ_INT(st.phase, SCROLLD_PHASE_IDLE);
    printf("ok a scroll on its way comes back where it was going\n");

    /* The same, subscribed first, as a client that draws is: the subscription's first state (at
     * rest at 0, published before the scrollTo) is read while a request waits and handed over
     * by a dispatch after the scrollTo returned; it must not undo where the scrollTo aims. */
    scrolld *c5 = scrolld_connect(d.socket, SCROLLD_RECONNECT, &e);
    CHECK(c5 != NULL);
    int far_states = 0;
    scrolld_on_state(c5, on_count, &far_states);
    configure_plain(c5, "far2", 30000);
    OK(scrolld_subscribe(c5, "far2", 0, 0, ERR));
    OK(scrolld_scroll_to(c5, "far2", &y15000, &ten_seconds, ERR));
    DISPATCH_UNTIL(c5, far_states >= 2);
    daemon_kill(&d);
    daemon_start(&d);
    OK(scrolld_get(c5, "far2", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 15000);
    printf("ok a scroll on its way, subscribed, comes back where it was going\n");

    /* A bottom-anchored log chasing its end when the daemon dies: rows arrive while it springs
     * to the end, so it has not rested there; it comes back at its new end, following. */
    scrolld *c3 = scrolld_connect(d.socket, SCROLLD_RECONNECT, &e);
    CHECK(c3 != NULL);
    log_seen lg = {0};
    scrolld_on_state(c3, on_log_state, &lg);
    s = scrolld_settings_new();
    scrolld_settings_container_size(s, 420, 720);
    scrolld_settings_rows(s, 60, 24);
    scrolld_settings_anchor(s, "bottom");
    scrolld_settings_owned(s, true);
    OK(scrolld_configure(c3, "log", s, ERR));
    scrolld_settings_free(s);
    const scrolld_position top = {.has_y = true, .y = 0};
    OK(scrolld_scroll_to(c3, "log", &top, &none, ERR));
    OK(scrolld_subscribe(c3, "log", 0, 0, ERR));
    DISPATCH_UNTIL(c3, lg.states > 0 && lg.last.phase == SCROLLD_PHASE_IDLE && lg.last.content_offset.y == 0);
    /* a ten-second spring: still on its way when the daemon dies, however late this reads */
    const scrolld_position bottom = {.edge = "bottom"};
    const scrolld_animation slow = {.kind = SCROLLD_ANIMATION_SPRING, .duration = 10};
    OK(scrolld_scroll_to(c3, "log", &bottom, &slow, ERR));
    s = scrolld_settings_new();
    scrolld_settings_rows_insert(s, 60, 1, 24);
    OK(scrolld_configure(c3, "log", s, ERR));
    scrolld_settings_free(s);
    DISPATCH_UNTIL(c3, lg.last.phase != SCROLLD_PHASE_IDLE && lg.last.content_offset.y > 0);
    daemon_kill(&d);
    daemon_start(&d);
    DISPATCH_UNTIL(c3, lg.last.resumed_seen && lg.last.phase == SCROLLD_PHASE_IDLE && lg.last.content_size.height == 61 * 24);
    CHECK_EQ_NUM(lg.last.content_offset.y, 61 * 24 - 720);
    printf("ok a log following its end comes back at its end\n");

    scrolld_close(c5);
    scrolld_close(c4);
    scrolld_close(c3);
    scrolld_close(c2);
    scrolld_close(c);
    daemon_cleanup(&d);
    printf("reconnect: all passed\n");
    return 0;
}
