/* App bars and scroll indicators (docs/design.md §21, §22) through libscrolld against a real
 * daemon: the state's indicators, stickyRow and refreshing as typed fields, exact to the
 * formulas; scrolld_flash_indicators, scrolld_begin_refresh, scrolld_end_refresh. */
#include "harness.h"

/* 30 rows of 50 px (1500 px) in 300 px, sections at rows 0, 5, 12 (r = 0, 250, 600), pull to
 * refresh 80 / 60; a 400 x 300 canvas over 1200 px whose indicators linger 250 ms. */
static const char CONFIG[] =
    "[containers.feed]\n"
    "containerSize = \"400x300\"\n"
    "rows = { count = 30, height = 50, sticky = [0, 5, 12] }\n"
    "refresh = { threshold = 80, height = 60 }\n"
    "[containers.canvas]\n"
    "containerSize = \"400x300\"\n"
    "contentSize = \"400x1200\"\n"
    "indicator_linger_ms = 250\n";

/* The canvas's states after the flash: the first with its indicator shown, then the hide. */
typedef struct flashes {
    bool armed;
    int shown, hidden;
    scrolld_state first_shown, first_hidden;
} flashes;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    flashes *f = data;
    if (!f->armed || strcmp(s->container, "canvas") != 0) return;
    if (s->indicator_y.visible && f->shown++ == 0) f->first_shown = *s;
    if (!s->indicator_y.visible && f->shown > 0 && f->hidden++ == 0) f->first_hidden = *s;
}

static void check_indicator(scrolld_indicator i, double offset, double length, bool visible) {
    CHECK(i.present);
    CHECK_EQ_NUM(i.offset, offset);
    CHECK_EQ_NUM(i.length, length);
    CHECK(i.visible == visible);
}

/* The indicators: T = 300, l = max(36, 300 x 300 / 1500) = 60, o = (T - l) y / 1200. */
static void indicators(scrolld *c) {
    scrolld_state st;
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(!st.indicator_x.present);  /* a vertical list: no horizontal indicator */
    check_indicator(st.indicator_y, 0, 60, false);
    const scrolld_position at230 = {.has_y = true, .y = 230};
    const scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    OK(scrolld_scroll_to(c, "feed", &at230, &none, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    check_indicator(st.indicator_y, 240.0 * 230 / 1200, 60, true);
    printf("ok indicators: offset, length, visible, none for an axis not scrolled\n");
}

/* stickyRow: row 0 pinned at the top, pushed off by row 5 from p = 250 - 50 = 200 on. */
static void sticky(scrolld *c) {
    scrolld_state st;
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(st.has_sticky_row);
    CHECK_EQ_INT(st.sticky_row, 0);
    CHECK_EQ_NUM(st.sticky_row_top, 200);
    const scrolld_position at250 = {.has_y = true, .y = 250};
    const scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    OK(scrolld_scroll_to(c, "feed", &at250, &none, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_INT(st.sticky_row, 5);
    CHECK_EQ_NUM(st.sticky_row_top, 250);
    OK(scrolld_get(c, "canvas", &st, ERR));
    CHECK(!st.has_sticky_row && !st.refreshing);
    printf("ok stickyRow: pinned, pushed off, the next one\n");
}

/* A refresh holds the top of the resting range at lo - r = -60 until it ends. */
static void refresh(scrolld *c) {
    scrolld_state st;
    const scrolld_animation none = {.kind = SCROLLD_ANIMATION_NONE};
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(!st.refreshing);
    OK(scrolld_begin_refresh(c, "feed", ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(st.refreshing);
    const scrolld_position above = {.has_y = true, .y = -100};
    OK(scrolld_scroll_to(c, "feed", &above, &none, ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK_EQ_NUM(st.content_offset.y, -60);
    OK(scrolld_end_refresh(c, "feed", ERR));
    OK(scrolld_get(c, "feed", &st, ERR));
    CHECK(!st.refreshing);
    DISPATCH_UNTIL(c, scrolld_get(c, "feed", &st, NULL) == 0 && st.phase == SCROLLD_PHASE_IDLE);
    CHECK_EQ_NUM(st.content_offset.y, 0);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_begin_refresh(c, "canvas", ERR));
    CHECK(strstr(last_error.message, "no refresh configured") != NULL);
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_end_refresh(c, "nope", ERR));
    printf("ok begin_refresh, end_refresh: refreshing, held at -60, back to 0; errors named\n");
}

/* flashIndicators: one state shown, one hidden the linger (250 ms) later. */
static void flash(scrolld *c, flashes *f) {
    OK(scrolld_subscribe(c, "canvas", 0, 0, ERR));
    scrolld_state st;
    OK(scrolld_get(c, "canvas", &st, ERR));
    check_indicator(st.indicator_y, 0, 75, false);  /* 300 x 300 / 1200 */
    f->armed = true;
    OK(scrolld_flash_indicators(c, "canvas", ERR));
    DISPATCH_UNTIL(c, f->hidden > 0);
    CHECK_EQ_INT(f->shown, 1);
    CHECK(f->first_shown.indicator_y.visible && !f->first_hidden.indicator_y.visible);
    CHECK_EQ_INT(f->first_hidden.t - f->first_shown.t, 250000);
    CHECK_EQ_INT(f->first_hidden.seq, f->first_shown.seq + 1);
    FAILS(SCROLLD_E_UNKNOWN_CONTAINER, scrolld_flash_indicators(c, "nope", ERR));
    printf("ok flash_indicators: shown, hidden 250 ms later\n");
}

int main(void) {
    daemon_proc d;
    daemon_setup(&d, "appbars");
    write_file(d.config, CONFIG);
    daemon_start(&d);
    scrolld_error e;
    scrolld *c = scrolld_connect(d.socket, 0, &e);
    CHECK(c != NULL);
    flashes f = {0};
    scrolld_on_state(c, on_state, &f);
    indicators(c);
    sticky(c);
    refresh(c);
    flash(c, &f);
    scrolld_close(c);
    daemon_cleanup(&d);
    printf("appbars: all passed\n");
    return 0;
}
