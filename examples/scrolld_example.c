/* A short libscrolld program (docs/clients.md, "C"): a list of 100 rows of 44 px under a
 * header that collapses from 200 to 60 px; scroll row 50 to the centre and print the states
 * until it rests, and the visible rows each time they change.
 *
 *   cc scrolld_example.c $(pkg-config --cflags --libs scrolld) -o scrolld_example
 *   ./scrolld_example [SOCKET]
 */
#include <poll.h>
#include <stdio.h>

#include <scrolld.h>

static void on_state(scrolld *client, const scrolld_state *state, void *data) {
    (void)client;
    int *resting = data;
    printf("state %s: offset %.1f, header %.1f px, %s\n", state->container,
           state->content_offset.y, state->header_height, state->phase_name);
    *resting = state->phase == SCROLLD_PHASE_IDLE && state->content_offset.y > 0;
}

static void on_observation(scrolld *client, const scrolld_observation *o, void *data) {
    (void)client, (void)data;
    printf("visible rows: %lld-%lld\n", (long long)o->new_value.rows.first, (long long)o->new_value.rows.last);
}

int main(int argc, char **argv) {
    scrolld_error error;
    scrolld *client = scrolld_connect(argc > 1 ? argv[1] : NULL, 0, &error);
    if (client == NULL) {
        fprintf(stderr, "%s: %s\n", error.name, error.message);
        return 69;
    }
    int resting = 0;
    scrolld_on_state(client, on_state, &resting);
    scrolld_on_observation(client, on_observation, NULL);

    scrolld_settings *feed = scrolld_settings_new();
    scrolld_settings_container_size(feed, 400, 600);
    scrolld_settings_header(feed, 60, 200);
    scrolld_settings_rows(feed, 100, 44);
    scrolld_settings_owned(feed, true); /* gone when this connection is */
    int failed = scrolld_configure(client, "feed", feed, &error);
    scrolld_settings_free(feed);

    uint64_t rows;
    scrolld_position row50 = {.has_row = true, .row = 50, .anchor = "center"};
    scrolld_animation spring = {.kind = SCROLLD_ANIMATION_SPRING, .duration = 0.2, .bounce = 0};
    if (!failed) failed = scrolld_subscribe(client, "feed", 60, 0, &error);
    if (!failed) failed = scrolld_observe(client, "feed", "visibleRows", NULL, &rows, &error);
    if (!failed) failed = scrolld_scroll_to(client, "feed", &row50, &spring, &error);
    if (failed) fprintf(stderr, "%s: %s\n", error.name, error.message);
    /* The app's own loop: poll the client's descriptor, dispatch when it is readable. */
    int ended = 0;
    while (!failed && !ended && !resting) {
        struct pollfd fd = {.fd = scrolld_fd(client), .events = POLLIN};
        if (poll(&fd, 1, -1) > 0) ended = scrolld_dispatch(client);
    }
    if (ended) fprintf(stderr, "%s: the connection ended\n", scrolld_code_name(ended));
    scrolld_close(client);
    return failed || ended ? 1 : 0;
}
