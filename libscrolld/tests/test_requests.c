/* Every request of the protocol through libscrolld against a real daemon, each error code the
 * daemon and the client name, and the callbacks for states, observations and `removed`. */
#include "harness.h"

#include <math.h>

#include "internal.h"  /* a settings object's arena, to bound its memory */

typedef struct seen {
    int states, observations, removed;
    scrolld_state last;
    char last_container[64];
    scrolld_observation last_obs;
    char last_obs_string[64];
    char removed_name[64];
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    x->states++;
    x->last = *s;
    snprintf(x->last_container, sizeof x->last_container, "%s", s->container);
    x->last.container = x->last_container;
    x->last.phase_name = NULL;
}

static void on_observation(scrolld *c, const scrolld_observation *o, void *data) {
    (void)c;
    seen *x = data;
    x->observations++;
    x->last_obs = *o;
    x->last_obs.container = x->last_obs.of = NULL;
    snprintf(x->last_obs_string, sizeof x->last_obs_string, "%s", o->new_value.string ? o->new_value.string : "");
    x->last_obs.new_value.string = x->last_obs.old_value.string = NULL;
    x->last_obs.new_value.source_name = x->last_obs.new_value.source_kind = NULL;
    x->last_obs.old_value.source_name = x->last_obs.old_value.source_kind = NULL;
}

static void on_removed(scrolld *c, const char *container, void *data) {
    (void)c;
    seen *x = data;
    x->removed++;
    snprintf(x->removed_name, sizeof x->removed_name, "%s", container);
}

static const scrolld_animation NONE = {.kind = SCROLLD_ANIMATION_NONE};

/* scrolld_connect must fail with not_running and a message that begins with `want`. */
static char expected_message[600];
#define FAILS_CONNECT(path, want) do { \
    scrolld_error ce_ = {0}; \
    CHECK(scrolld_connect((path), 0, &ce_) == NULL); \
    CHECK_EQ_INT(ce_.code, SCROLLD_E_NOT_RUNNING); \
    CHECK_STR(ce_.name, "not_running"); \
    if (strncmp(ce_.message, (want), strlen(want)) != 0) { \
        fprintf(stderr, "%s:%d: message \"%s\", expected it to begin \"%s\"\n", __FILE__, __LINE__, ce_.message, (want)); \
        exit(1); \
    } \
} while (0)

int main(void) {
    daemon_proc d;
    daemon_setup(&d, "requests");
    daemon_start(&d);

    /* not_running: nobody at the socket */
    scrolld_error e = {0};
    char missing[400];
    snprintf(missing, sizeof missing, "%s/nobody.sock", d.dir);
    CHECK(scrolld_connect(missing, 0, &e) == NULL);
    CHECK_EQ_INT(e.code, SCROLLD_E_NOT_RUNNING);
    CHECK_STR(e.name, "not_running");
    printf("ok not_running: %s\n", e.message);
    CHECK(strstr(e.message, "scrolld is not running") != NULL);
    /* ...and what is at the path, when it is no socket: the code stays not_running */
    FAILS_CONNECT("", "the socket path is empty");
    char file[400];
    snprintf(file, sizeof file, "%s/file", d.dir);
    write_file(file, "not a socket\n");
    snprintf(expected_message, sizeof expected_message, "%s is not a socket (a regular file)", file);
    FAILS_CONNECT(file, expected_message);
    snprintf(expected_message, sizeof expected_message, "%s is not a socket (a directory)", d.dir);
    FAILS_CONNECT(d.dir, expected_message);
    printf("ok not_running: an empty path, a regular file, a directory named as such\n");

    /* The default socket, as the Python client and scrollctl find it. */
    char path[512];
    setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
    scrolld_default_socket(path, sizeof path);
    CHECK_STR(path, "/run/user/4242/scrolld/scrolld.sock");
    unsetenv("XDG_RUNTIME_DIR");
    scrolld_default_socket(path, sizeof path);
    char expected[128];
    snprintf(expected, sizeof expected, "/tmp/scrolld-%u/scrolld.sock", (unsigned)getuid());
    CHECK_STR(path, expected);
    CHECK(scrolld_default_socket(path, 4) > 4);

    CHECK(e.code == SCROLLD_E_NOT_RUNNING);  /* the error of the failed connect above */
    scrolld *c = scrolld_connect(d.socket, 0, &e);
    CHECK(c != NULL);
    /* success clears the error: no stale code or message stays behind */
    CHECK_EQ_INT(e.code, SCROLLD_OK);
    CHECK_STR(e.name, "ok");
    CHECK_STR(e.message, "");
    CHECK(strncmp(scrolld_server(c), "scrolld ", 8) == 0);
    CHECK(strlen(scrolld_instance(c)) > 0);
    CHECK(scrolld_has_feature(c, "observe"));
    CHECK(!scrolld_has_feature(c, "no-such-feature"));
    CHECK(scrolld_container_count(c) >= 1);
    CHECK_STR(scrolld_container_name(c, 0), "main");
    CHECK(scrolld_container_name(c, 99) == NULL);
    seen x = {0};
    scrolld_on_state(c, on_state, &x);
    scrolld_on_observation(c, on_observation, &x);
    scrolld_on_removed(c, on_removed, &x);

    double rtt = -1;
    OK(scrolld_ping(c, &rtt, ERR));
    CHECK(rtt >= 0);
    printf("ok ping\n");

    /* configure with every key */
    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 600);
    scrolld_settings_content_insets(s, 0, 0, 0, 0);
    scrolld_settings_axes(s, "vertical");
    scrolld_settings_header(s, 60, 200);
    scrolld_settings_header_stretch(s, true);
    scrolld_settings_header_snap(s, false);
    scrolld_settings_rows(s, 100, 44);
    scrolld_settings_rows_top(s, 200);
    scrolld_settings_rows_threshold(s, 0.5);
    scrolld_settings_rows_visible_in(s, "container");
    scrolld_settings_physics_number(s, "deceleration_rate", 0.998);
    scrolld_settings_physics_bool(s, "momentum", true);
    scrolld_settings_physics_string(s, "wheel_animation", "smooth");
    scrolld_settings_scroll_target(s, "none");
    const char *devices[] = {"Test Wheel"};
    scrolld_settings_devices(s, devices, 1);
    scrolld_settings_parent(s, NULL);
    scrolld_settings_overscroll(s, "auto");
    scrolld_settings_anchor(s, "top");
    scrolld_settings_owned(s, true);
    scrolld_settings_animation(s, NONE);
    OK(scrolld_configure(c, "feed", s, ERR));
    scrolld_settings_free(s);
    printf("ok configure with every key\n");

    /* a state: the worked example of docs/protocol.md ("Drawing a state") */
    const scrolld_position row50 = {.has_row = true, .row = 50, .anchor = "center"};
    OK(scrolld_scroll_to(c, "feed", &row50, &NONE, ERR));
    scrolld_state st;
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_STR(st.container, "feed");
    CHECK_EQ_INT(st.phase, SCROLLD_PHASE_IDLE);
    CHECK_STR(st.phase_name, "idle");
    CHECK_EQ_NUM(st.content_offset.y, 2092);
    CHECK(st.has_header);
    CHECK_EQ_NUM(st.header_height, 60);
    CHECK_EQ_NUM(st.header_progress, 1);
    CHECK(st.has_visible_rows && st.visible_rows.any);
    CHECK_EQ_INT(st.visible_rows.first, 43);
    CHECK_EQ_INT(st.visible_rows.last, 56);
    CHECK_EQ_NUM(st.container_size.width, 400);
    CHECK_EQ_NUM(st.content_size.height, 200 + 100 * 44);
    CHECK(!st.paused && !st.resumed);
    CHECK(st.seq >= 1);
    printf("ok get: row 50 centred at offset 2092, rows 43-56\n");

    /* scrollTo's other positions */
    const scrolld_position xy = {.has_y = true, .y = 100};
    OK(scrolld_scroll_to(c, "feed", &xy, &NONE, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 100);
    const scrolld_position fraction = {.has_row = true, .row = 10, .has_anchor_fraction = true, .anchor_fraction = 0};
    OK(scrolld_scroll_to(c, "feed", &fraction, &NONE, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 200 + 10 * 44 - 60);
    const scrolld_position bottom = {.edge = "bottom"};
    OK(scrolld_scroll_to(c, "feed", &bottom, &NONE, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, 200 + 100 * 44 - 600);
    const scrolld_position top = {.edge = "top"};
    OK(scrolld_scroll_to(c, "feed", &top, &NONE, ERR));
    printf("ok scrollTo: y, row with an anchor fraction, edges\n");

    /* subscribe with a rate: the current state at once, then every change */
    OK(scrolld_subscribe(c, "feed", 1000, 0, ERR));
    DISPATCH_UNTIL(c, x.states >= 1);
    CHECK_STR(x.last.container, "feed");
    CHECK_EQ_NUM(x.last.content_offset.y, 0);
    OK(scrolld_scroll_by(c, "feed", 0, 30, &NONE, ERR));
    DISPATCH_UNTIL(c, x.last.content_offset.y == 30);
    /* every animation kind */
    const scrolld_animation kinds[] = {
        {.kind = SCROLLD_ANIMATION_DEFAULT}, {.kind = SCROLLD_ANIMATION_SMOOTH}, {.kind = SCROLLD_ANIMATION_SNAPPY},
        {.kind = SCROLLD_ANIMATION_BOUNCY}, {.kind = SCROLLD_ANIMATION_SPRING, .duration = 0.05, .bounce = 0}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        double target = x.last.content_offset.y + 10;
        OK(scrolld_scroll_by(c, "feed", 0, 10, &kinds[i], ERR));
        DISPATCH_UNTIL(c, x.last.phase == SCROLLD_PHASE_IDLE && fabs(x.last.content_offset.y - target) < 1e-6);
    }
    printf("ok subscribe, scrollBy with every animation (%d states)\n", x.states);

    /* observe: the first value at once (old null), then each change */
    uint64_t phase_id = 0, rows_id = 0, near_id = 0;
    OK(scrolld_observe(c, "feed", "phase", NULL, &phase_id, ERR));
    DISPATCH_UNTIL(c, x.observations >= 1 && x.last_obs.id == phase_id);
    CHECK_EQ_INT(x.last_obs.old_value.type, SCROLLD_VALUE_NULL);
    CHECK_EQ_INT(x.last_obs.new_value.type, SCROLLD_VALUE_STRING);
    CHECK_STR(x.last_obs_string, "idle");
    OK(scrolld_observe(c, "feed", "visibleRows", NULL, &rows_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == rows_id);
    CHECK_EQ_INT(x.last_obs.new_value.type, SCROLLD_VALUE_ROWS);
    const scrolld_observe_options near = {.has_distance = true, .distance = 100, .axis = "y"};
    OK(scrolld_observe(c, "feed", "nearEnd", &near, &near_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == near_id);
    CHECK_EQ_INT(x.last_obs.new_value.type, SCROLLD_VALUE_BOOL);
    CHECK(!x.last_obs.new_value.boolean);
    OK(scrolld_scroll_to(c, "feed", &bottom, &NONE, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == near_id && x.last_obs.new_value.boolean);
    CHECK_EQ_INT(x.last_obs.old_value.type, SCROLLD_VALUE_BOOL);
    CHECK(!x.last_obs.old_value.boolean);
    uint64_t step_id = 0, row_id = 0, edge_id = 0, source_id = 0;
    const scrolld_observe_options step = {.has_step = true, .step = 50};
    OK(scrolld_observe(c, "feed", "contentOffset.y", &step, &step_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == step_id);
    CHECK_EQ_INT(x.last_obs.new_value.type, SCROLLD_VALUE_NUMBER);
    CHECK_EQ_NUM(x.last_obs.new_value.number, 50 * floor((200 + 100 * 44 - 600) / 50.0));
    const scrolld_observe_options rowvis = {.has_row = true, .row = 99, .has_threshold = true, .threshold = 0.5};
    OK(scrolld_observe(c, "feed", "rowVisible", &rowvis, &row_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == row_id);
    CHECK(x.last_obs.new_value.boolean);
    const scrolld_observe_options edge = {.edge = "bottom"};
    OK(scrolld_observe(c, "feed", "atEdge", &edge, &edge_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == edge_id);
    CHECK(x.last_obs.new_value.boolean);
    OK(scrolld_observe(c, "feed", "source", NULL, &source_id, ERR));
    DISPATCH_UNTIL(c, x.last_obs.id == source_id);
    CHECK_EQ_INT(x.last_obs.new_value.type, SCROLLD_VALUE_NULL);
    OK(scrolld_unobserve(c, phase_id, ERR));
    OK(scrolld_unobserve(c, step_id, ERR));
    printf("ok observe phase, visibleRows, nearEnd, contentOffset.y with step, rowVisible, atEdge, source; unobserve\n");

    /* row edits: insert above keeps the view (scroll anchoring), remove */
    scrolld_settings *edit = scrolld_settings_new();
    scrolld_settings_rows_insert(edit, 100, 10, -1);
    OK(scrolld_configure(c, "feed", edit, ERR));
    scrolld_settings_free(edit);
    edit = scrolld_settings_new();
    double heights[] = {10, 20, 30};
    scrolld_settings_rows_insert_heights(edit, 0, heights, 3);
    OK(scrolld_configure(c, "feed", edit, ERR));
    scrolld_settings_free(edit);
    edit = scrolld_settings_new();
    scrolld_settings_rows_remove(edit, 0, 1);
    OK(scrolld_configure(c, "feed", edit, ERR));
    scrolld_settings_free(edit);
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_NUM(st.content_size.height, 200 + 110 * 44 + 20 + 30);
    printf("ok rows: insert, insert heights, remove\n");

    /* pause, resume: the state says so */
    OK(scrolld_pause(c, "feed", ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(st.paused);
    OK(scrolld_resume(c, "feed", ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(!st.paused);
    printf("ok pause, resume\n");

    /* focus, and devices says where it is */
    OK(scrolld_focus(c, "feed", ERR));
    scrolld_devices *devs = NULL;
    OK(scrolld_devices_list(c, &devs, ERR));
    CHECK(devs != NULL);
    CHECK_STR(devs->focus, "feed");
    CHECK(devs->input_active);
    CHECK_EQ_INT(devs->count, 1);
    CHECK_STR(devs->devices[0].name, "Test Wheel");
    CHECK(devs->devices[0].cap_count == 1);
    CHECK_STR(devs->devices[0].caps[0], "wheel");
    CHECK(devs->devices[0].container_count >= 1);
    scrolld_devices_free(devs);
    OK(scrolld_focus(c, NULL, ERR));
    OK(scrolld_devices_list(c, &devs, ERR));
    CHECK(devs->focus == NULL);
    scrolld_devices_free(devs);
    printf("ok focus, devices\n");

    scrolld_reload_result reloaded;
    OK(scrolld_reload(c, &reloaded, ERR));
    CHECK(reloaded.ok);
    CHECK_STR(reloaded.file, d.config);
    printf("ok reload: %s\n", reloaded.message);

    /* the daemon's errors, named */
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_get(c, "nope", &st, ERR));
    CHECK_STR(last_error.name, "unknown_container");
    CHECK_STR(last_error.message, "unknown container \"nope\"");
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_scroll_by(c, "nope", 0, 1, NULL, ERR));
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_subscribe(c, "nope", 0, 0, ERR));
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_focus(c, "nope", ERR));
    const scrolld_position row1000 = {.has_row = true, .row = 1000};
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_scroll_to(c, "feed", &row1000, NULL, ERR));
    CHECK_STR(last_error.name, "invalid_value");
    printf("ok invalid_value: %s\n", last_error.message);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_remove(c, "main", ERR));
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_subscribe(c, "feed", 5000, 0, ERR));
    uint64_t bad_id;
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_observe(c, "feed", "nowhere", NULL, &bad_id, ERR));
    s = scrolld_settings_new();
    scrolld_settings_overscroll(s, "bounce");
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "feed", s, ERR));
    CHECK(strstr(last_error.message, "overscroll") != NULL);
    scrolld_settings_free(s);
    /* bad_request: one key in two spellings (a raw key, for a daemon newer than this library) */
    s = scrolld_settings_new();
    scrolld_settings_content_insets(s, 1, 1, 1, 1);
    scrolld_settings_json(s, "insets", "{\"top\":2,\"leading\":2,\"bottom\":2,\"trailing\":2}");
    FAILS(SCROLLD_E_BAD_REQUEST, scrolld_configure(c, "feed", s, ERR));
    CHECK_STR(last_error.name, "bad_request");
    scrolld_settings_free(s);
    /* the client's own: values JSON cannot carry, a request over 64 KiB, bad raw JSON */
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_scroll_by(c, "feed", 0, NAN, NULL, ERR));
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_scroll_by(c, "feed", INFINITY, 0, NULL, ERR));
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_get(c, "f\xff", &st, ERR));
    /* a NULL argument is named; flags this version does not know are refused, not ignored */
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_get(c, NULL, &st, ERR));
    CHECK_STR(last_error.message, "\"container\" is NULL");
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_observe(c, "feed", NULL, NULL, &bad_id, ERR));
    CHECK_STR(last_error.message, "\"of\" is NULL");
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_subscribe(c, "feed", 0, 0x10u, ERR));
    CHECK_STR(last_error.message, "subscribe: unknown flags 0x10 (SCROLLD_WAIT is the only one)");
    scrolld_error flags_error = {0};
    CHECK(scrolld_connect_timeout(d.socket, SCROLLD_RECONNECT | 0xff00u, 1000, &flags_error) == NULL);
    CHECK_EQ_INT(flags_error.code, SCROLLD_E_INVALID_VALUE);
    CHECK_STR(flags_error.message, "connect: unknown flags 0xff00 (known: SCROLLD_RECONNECT, SCROLLD_NO_RESTORE_OFFSETS, SCROLLD_INTERRUPTIBLE)");
    printf("ok a NULL argument named (%s); unknown flags refused\n", "\"of\" is NULL");
    s = scrolld_settings_new();
    scrolld_settings_json(s, "physics", "{\"friction\":");
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "feed", s, ERR));
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    static double many[20000];
    for (size_t i = 0; i < 20000; i++) many[i] = 44.125 + (double)i;
    scrolld_settings_row_heights(s, many, 20000);
    FAILS(SCROLLD_E_TOO_LARGE, scrolld_configure(c, "feed", s, ERR));
    CHECK_STR(last_error.name, "too_large");
    scrolld_settings_free(s);
    OK(scrolld_ping(c, NULL, ERR));  /* the connection is still there */
    printf("ok errors: unknown_container, invalid_value, bad_request, too_large; client-side invalid_value\n");

    /* A request that succeeds clears the error a failed one left (each kind of reply). */
    scrolld_error stale;
    scrolld_devices *listed = NULL;
    for (int i = 0; i < 6; i++) {
        CHECK(scrolld_get(c, "nope", &st, &stale) == SCROLLD_E_UNKNOWN_CONTAINER);
        CHECK_EQ_INT(stale.code, SCROLLD_E_UNKNOWN_CONTAINER);
        int r = i == 0 ? scrolld_ping(c, NULL, &stale)
              : i == 1 ? scrolld_get(c, "main", &st, &stale)
              : i == 2 ? scrolld_scroll_by(c, "main", 0, 0, &NONE, &stale)
              : i == 3 ? scrolld_devices_list(c, &listed, &stale)
              : i == 4 ? scrolld_reload(c, &reloaded, &stale)
              : scrolld_pause(c, "main", &stale);
        CHECK_EQ_INT(r, 0);
        CHECK_EQ_INT(stale.code, SCROLLD_OK);
        CHECK_STR(stale.name, "ok");
        CHECK_STR(stale.message, "");
    }
    scrolld_devices_free(listed);
    OK(scrolld_resume(c, "main", ERR));
    printf("ok a request that succeeds clears the error left by one that failed\n");

    /* remove: its subscriber hears `removed`, and the subscription ends */
    OK(scrolld_remove(c, "feed", ERR));
    DISPATCH_UNTIL(c, x.removed == 1);
    CHECK_STR(x.removed_name, "feed");
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_get(c, "feed", &st, ERR));
    OK(scrolld_unsubscribe(c, NULL, ERR));
    OK(scrolld_unsubscribe(c, "main", ERR));
    printf("ok remove, removed callback, unsubscribe\n");

    /* waiting subscriptions need a daemon with "follow" (docs/design.md §20) */
    if (scrolld_has_feature(c, "follow")) {
        OK(scrolld_subscribe(c, "later", 0, SCROLLD_WAIT, ERR));
        printf("ok subscribe with wait\n");
    } else {
        printf("skip subscribe with wait: this daemon does not list \"follow\"\n");
    }

    /* configure with NULL settings: no keys, as an empty settings object (the container is
     * created with the daemon's defaults, and the reply folds into nothing) */
    OK(scrolld_configure(c, "bare", NULL, ERR));
    OK(scrolld_get(c, "bare", &st, ERR));
    OK(scrolld_configure(c, "bare", NULL, ERR));
    OK(scrolld_remove(c, "bare", ERR));
    printf("ok configure with NULL settings: no keys\n");

    /* A settings object reused for a million setter calls: replaced values do not pile up
     * (its arena stays within twice its live size) and configure still works. */
    s = scrolld_settings_new();
    scrolld_settings_owned(s, false);
    size_t most = 0;
    for (int i = 1; i <= 1000000; i++) {
        if (i % 2) scrolld_settings_container_size(s, 400 + (double)(i % 100), 600);
        else scrolld_settings_content_insets(s, 0, 0, (double)(i % 7), 0);
        if (s->memory.used_total > most) most = s->memory.used_total;
    }
    CHECK(most <= 128 * 1024);  /* (it had been 64 MiB, its limit, after some 150 000 calls) */
    OK(scrolld_configure(c, "reused", s, ERR));
    OK(scrolld_get(c, "reused", &st, ERR));
    CHECK_EQ_NUM(st.container_size.width, 499);
    /* ...and what it holds is still right after compactions: a rows description and edits */
    static double reused_heights[3000];
    for (size_t i = 0; i < 3000; i++) reused_heights[i] = 20 + (double)(i % 5);
    for (int i = 0; i < 200; i++) scrolld_settings_row_heights(s, reused_heights, 3000);
    CHECK(s->memory.used_total <= 1024 * 1024);  /* one list of 3000 heights is some 240 KB */
    scrolld_settings_header(s, 10, 30);
    OK(scrolld_configure(c, "reused", s, ERR));
    OK(scrolld_get(c, "reused", &st, ERR));
    CHECK_EQ_NUM(st.content_size.height, 30 + 600 * (20 + 21 + 22 + 23 + 24));
    scrolld_settings_free(s);
    OK(scrolld_remove(c, "reused", ERR));
    printf("ok a settings object reused for 1 000 000 setter calls: its arena peaked at %zu bytes\n", most);

    /* A builder's argument that cannot make a value: the request fails with invalid_value
     * naming the key, nothing is sent, and setting the key again mends it. */
    s = scrolld_settings_new();
    scrolld_settings_devices(s, NULL, 3);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    CHECK(strstr(last_error.message, "\"devices\"") != NULL);
    scrolld_settings_devices(s, NULL, 0);
    OK(scrolld_configure(c, "nulls", s, ERR));
    scrolld_settings_devices(s, (const char *const[]){"a", NULL}, 2);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    scrolld_settings_row_heights(s, NULL, 5);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    CHECK(strstr(last_error.message, "\"rows.heights\"") != NULL);
    scrolld_settings_row_heights(s, (const double[]){10, 12, 14}, 3);
    OK(scrolld_configure(c, "nulls", s, ERR));
    scrolld_settings_rows_insert_heights(s, 0, NULL, 2);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    scrolld_settings_json(s, "anchor", NULL);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    CHECK(strstr(last_error.message, "\"anchor\"") != NULL);
    scrolld_settings_json(s, "anchor", "\"bottom\"");
    OK(scrolld_configure(c, "nulls", s, ERR));
    scrolld_settings_json(s, "anchor", "\"bottom");
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    CHECK(strstr(last_error.message, "\"anchor\"") != NULL);
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    scrolld_settings_container_size(s, NAN, 1);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
    CHECK(strstr(last_error.message, "\"containerSize\"") != NULL);
    scrolld_settings_free(s);
    for (int k = 0; k < 4; k++) {
        s = scrolld_settings_new();
        if (k == 0) scrolld_settings_physics_number(s, NULL, 1);
        if (k == 1) scrolld_settings_physics_bool(s, NULL, true);
        if (k == 2) scrolld_settings_physics_string(s, NULL, "x");
        if (k == 3) scrolld_settings_json(s, NULL, "1");
        FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "nulls", s, ERR));
        CHECK(strstr(last_error.message, "NULL key") != NULL);
        scrolld_settings_free(s);
    }
    /* a NULL settings object or client: nothing happens */
    scrolld_settings_devices(NULL, NULL, 3);
    scrolld_settings_physics_number(NULL, NULL, 1);
    scrolld_on_state(NULL, on_state, NULL);
    scrolld_on_observation(NULL, NULL, NULL);
    scrolld_on_removed(NULL, NULL, NULL);
    scrolld_on_disconnect(NULL, NULL, NULL);
    scrolld_on_connect(NULL, NULL, NULL);
    OK(scrolld_remove(c, "nulls", ERR));
    printf("ok NULL arrays, NULL JSON, NULL keys: invalid_value naming the key (%s)\n", last_error.message);

    /* disconnected: the daemon goes; a client without SCROLLD_RECONNECT ends */
    int disconnects = 0;
    scrolld_close(c);
    c = scrolld_connect(d.socket, 0, &e);
    CHECK(c != NULL);
    daemon_kill(&d);
    DISPATCH_UNTIL(c, scrolld_dispatch(c) == SCROLLD_E_DISCONNECTED && ++disconnects);
    CHECK(!scrolld_connected(c));
    FAILS(SCROLLD_E_DISCONNECTED, scrolld_ping(c, NULL, ERR));
    CHECK_STR(last_error.name, "disconnected");
    scrolld_close(c);
    printf("ok disconnected\n");

    CHECK_STR(scrolld_code_name(SCROLLD_E_UNKNOWN_OP), "unknown_op");
    CHECK_STR(scrolld_code_name(SCROLLD_E_FORBIDDEN), "forbidden");
    CHECK_STR(scrolld_code_name(SCROLLD_E_TIMEOUT), "timeout");
    CHECK_STR(scrolld_code_name(-5), "error");
    daemon_cleanup(&d);
    printf("requests: all passed\n");
    return 0;
}
