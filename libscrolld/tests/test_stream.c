/* A state stream of 10 000 lines from a real daemon, each parsed and handed to the callback
 * (no leak: this test runs under ASan's leak checker, and its states are checked one by one:
 * every offset, consecutive seq). */
#include "harness.h"

#define STATES 10000

typedef struct seen {
    int states;
    uint64_t first_seq, last_seq;
    int gaps;
    double last_y;
    int wrong;
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    if (x->states == 0) x->first_seq = s->seq;
    else if (s->seq != x->last_seq + 1) x->gaps++;
    /* state k (after the first) rests at k px */
    if (x->states > 0 && s->content_offset.y != (double)x->states) x->wrong++;
    if (strcmp(s->container, "stream") != 0 || s->container_size.height != 500) x->wrong++;
    x->last_seq = s->seq;
    x->last_y = s->content_offset.y;
    x->states++;
}

int main(void) {
    daemon_proc d;
    daemon_setup(&d, "stream");
    daemon_start(&d);
    scrolld_error e;
    scrolld *c = scrolld_connect(d.socket, 0, &e);
    CHECK(c != NULL);
    seen x = {0};
    scrolld_on_state(c, on_state, &x);
    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 500);
    scrolld_settings_content_size(s, 400, 2 * STATES);
    scrolld_settings_header(s, 40, 90);
    scrolld_settings_rows(s, STATES, 2);
    OK(scrolld_configure(c, "stream", s, ERR));
    scrolld_settings_free(s);
    OK(scrolld_subscribe(c, "stream", 0, 0, ERR));
    const scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    for (int i = 1; i <= STATES; i++) {
        OK(scrolld_scroll_by(c, "stream", 0, 1, &none, ERR));
        scrolld_dispatch(c);  /* what arrived while the request waited */
    }
    DISPATCH_UNTIL(c, x.states == STATES + 1);
    CHECK_EQ_INT(x.gaps, 0);
    CHECK_EQ_INT(x.wrong, 0);
    CHECK_EQ_NUM(x.last_y, STATES);
    CHECK_EQ_INT(x.last_seq - x.first_seq, STATES);
    printf("ok %d states parsed and delivered in order, seq %llu..%llu, no gap\n", x.states,
           (unsigned long long)x.first_seq, (unsigned long long)x.last_seq);
    scrolld_close(c);
    daemon_cleanup(&d);
    printf("stream: all passed (leaks are checked at exit)\n");
    return 0;
}
