/* touch_frame (docs/design.md §25) through libscrolld: a real daemon replays a touchscreen's
 * finger in a loop; a container configured with scrolld_settings_touch_frame follows it 1:1 once
 * past the slop, exactly as the formula says; bad frames are the daemon's named errors. */
#include "harness.h"

#include <math.h>

/* The finger: down at (0.4, 0.5), then motion k = 1..16 at 16 ms apart, (-0.002, -0.004) per
 * motion (5.2 px in the frame below: the first stays within the 8 px slop), lifted. */
#define X0 0.4
#define Y0 0.5
#define MOTIONS 16
static double px(int k) { return X0 - 0.002 * (double)k; }
static double py(int k) { return Y0 - 0.004 * (double)k; }

/* The frame: 0.4 x 0.5 of the glass for a 400 x 600 container: 1000 and 1200 px per unit. */
#define SX (400 / 0.4)
#define SY (600 / 0.5)
#define SLOP 8.0

typedef struct seen {
    bool moved;
    scrolld_point first_moved;
    scrolld_phase phase;
} seen;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c;
    seen *x = data;
    if (x->moved || strcmp(s->container, "glass") != 0) return;
    if (s->content_offset.x != 0 || s->content_offset.y != 0) {
        x->moved = true;
        x->first_moved = s->content_offset;
        x->phase = s->phase;
    }
}

static void write_log(const char *path) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("{\"format\":\"scrolld-events\",\"version\":1,\"created\":\"2026-11-27T00:00:00Z\",\"source\":\"libscrolld tests\"}\n", f);
    fputs("{\"t\":0,\"dev\":1,\"type\":\"device_added\",\"name\":\"glass\",\"caps\":[\"touch\"]}\n", f);
    fprintf(f, "{\"t\":1000000,\"dev\":1,\"type\":\"touch_down\",\"slot\":0,\"x\":%.17g,\"y\":%.17g}\n", X0, Y0);
    for (int k = 1; k <= MOTIONS; k++)
        fprintf(f, "{\"t\":%d,\"dev\":1,\"type\":\"touch_motion\",\"slot\":0,\"x\":%.17g,\"y\":%.17g}\n",
                1000000 + 16000 * k, px(k), py(k));
    fprintf(f, "{\"t\":%d,\"dev\":1,\"type\":\"touch_up\",\"slot\":0}\n", 1000000 + 16000 * MOTIONS + 8000);
    fclose(f);
}

int main(void) {
    daemon_proc d;
    daemon_setup(&d, "touch");
    write_log(d.log);
    /* Looped: whenever the frame arrives, a whole finger follows it. */
    d.loop = true;
    daemon_start(&d);
    scrolld_error e;
    scrolld *c = scrolld_connect(d.socket, 0, &e);
    CHECK(c != NULL);
    CHECK(scrolld_has_feature(c, "touch"));
    seen x = {0};
    scrolld_on_state(c, on_state, &x);

    scrolld_settings *s = scrolld_settings_new();
    scrolld_settings_container_size(s, 400, 600);
    scrolld_settings_content_size(s, 4000, 8000);
    scrolld_settings_axes(s, "both");
    scrolld_settings_physics_number(s, "touch_slop", SLOP);
    OK(scrolld_configure(c, "glass", s, ERR));
    scrolld_settings_free(s);
    OK(scrolld_subscribe(c, "glass", 0, 0, ERR));
    /* The frame once subscribed: the first finger that moves the container is seen from its down. */
    s = scrolld_settings_new();
    scrolld_settings_touch_frame(s, 0.2, 0.25, 0.4, 0.5);
    OK(scrolld_configure(c, "glass", s, ERR));
    scrolld_settings_free(s);
    DISPATCH_UNTIL(c, x.moved);
    /* Motion 2 is the first past the slop (10.4 px): the offset is -s(P - P0) + slop u. */
    double mx = SX * (px(2) - X0), my = SY * (py(2) - Y0);
    double dist = sqrt(mx * mx + my * my);
    double want_x = 0 + (-mx + SLOP * (mx / dist)), want_y = 0 + (-my + SLOP * (my / dist));
    CHECK_EQ_INT(x.phase, SCROLLD_PHASE_INTERACTING);
    CHECK(x.first_moved.x == want_x && x.first_moved.y == want_y);
    printf("ok the first state that moved is the first motion past the slop: (%.17g, %.17g), lagging the finger by %g px\n",
           x.first_moved.x, x.first_moved.y, hypot(-mx - x.first_moved.x, -my - x.first_moved.y));

    /* Bad frames: the daemon's invalid_value, naming the key. */
    s = scrolld_settings_new();
    scrolld_settings_touch_frame(s, 0, 0, 0, 1);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "main", s, ERR));
    CHECK_STR(last_error.message, "containers.main.touch_frame.width: must be between 0.0001 and 1, got 0");
    scrolld_settings_free(s);
    s = scrolld_settings_new();
    scrolld_settings_touch_frame(s, 0, NAN, 1, 1);
    FAILS(SCROLLD_E_INVALID_VALUE, scrolld_configure(c, "main", s, ERR));
    scrolld_settings_free(s);
    printf("ok bad frames refused: %s\n", "width 0, y NaN");
    /* A frame, then none. */
    s = scrolld_settings_new();
    scrolld_settings_touch_frame(s, 0, 0, 1, 1);
    OK(scrolld_configure(c, "main", s, ERR));
    scrolld_settings_touch_frame_none(s);
    OK(scrolld_configure(c, "main", s, ERR));
    scrolld_settings_free(s);
    printf("ok a frame set and removed\n");

    scrolld_close(c);
    daemon_cleanup(&d);
    printf("touch: all passed\n");
    return 0;
}
