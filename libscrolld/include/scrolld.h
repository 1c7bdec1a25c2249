/* libscrolld: the C client of scrolld (docs/design.md §24, docs/clients.md "C").
 *
 * C11 over libc only. One `scrolld *` is one connection to the daemon, driven from the
 * application's own main loop: register scrolld_fd() with poll/epoll/SDL/GLib, call
 * scrolld_dispatch() when it is readable, and the callbacks run from inside that call.
 * Requests block until their reply (or the client's timeout) and never run callbacks: what
 * arrives meanwhile is kept for the next dispatch, at most 4096 messages and 16 MiB (beyond
 * either, the oldest state goes, the daemon's own latest-wins rule, a gap in seq shows it;
 * without a state to drop, the oldest other message).
 *
 * Threading: a client is not thread-safe. Call every function on one `scrolld *` from one
 * thread at a time (normally the thread of the main loop); callbacks run on the thread that
 * calls scrolld_dispatch(), and may call requests on the same client, and scrolld_close() (see
 * there). Separate clients share nothing and may live on separate threads. The library keeps
 * no global state and never installs signal handlers (it writes with MSG_NOSIGNAL, so a daemon
 * that goes away never raises SIGPIPE).
 *
 * A NULL client: every request returns SCROLLD_E_DISCONNECTED (the error's message: "no
 * client"), as scrolld_dispatch() does; scrolld_fd() returns -1, scrolld_connected() false,
 * scrolld_server() and scrolld_instance() "", scrolld_has_feature() false,
 * scrolld_container_count() 0, scrolld_container_name() NULL; scrolld_close(),
 * scrolld_set_timeout() and the scrolld_on_*() functions do nothing.
 *
 * Strings are UTF-8 and NUL-terminated. Pointers handed to callbacks are valid only during the
 * callback. Every function that can fail returns 0 on success or a SCROLLD_E_* code, and fills
 * the optional `scrolld_error *` with the code's name and a message (the daemon's own for its
 * error replies); on success it clears it (code 0, name "ok", message empty), so no earlier
 * error stays behind.
 */
#ifndef SCROLLD_H
#define SCROLLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCROLLD_VERSION_MAJOR 1
#define SCROLLD_VERSION_MINOR 0

/* The longest line this library reads from the daemon, in bytes before its newline (1 MiB). A
 * longer one ends the connection as soon as that much of it has arrived, however it is cut:
 * the request waiting then fails at once with SCROLLD_E_BAD_REPLY, and the disconnect callback
 * gets the same code (a client with SCROLLD_RECONNECT connects again). So does a line this
 * library cannot read: not JSON (a number out of a double's range, nesting deeper than 64),
 * invalid UTF-8, or JSON that is not an object — a protocol violation. A JSON object of a type
 * this version does not know, or a message without the fields it needs, is skipped (a newer
 * daemon's). */
#define SCROLLD_MAX_LINE (1024 * 1024)

/* ---- errors ---------------------------------------------------------------------------- */

enum scrolld_code {
    SCROLLD_OK = 0,
    /* The daemon's error codes (docs/protocol.md, "Errors"). */
    SCROLLD_E_BAD_REQUEST = 1,
    SCROLLD_E_UNKNOWN_OP = 2,
    SCROLLD_E_UNKNOWN_CONTAINER = 3,
    SCROLLD_E_INVALID_VALUE = 4,
    SCROLLD_E_TOO_LARGE = 5,
    SCROLLD_E_FORBIDDEN = 6,
    /* The client's own, as the Python and Swift clients name them. */
    SCROLLD_E_NOT_RUNNING = 7,   /* no daemon at the socket */
    SCROLLD_E_DISCONNECTED = 8,  /* the connection ended */
    SCROLLD_E_TIMEOUT = 9,       /* no reply within the client's timeout */
    SCROLLD_E_BAD_REPLY = 10,    /* the daemon sent what this library cannot read (a reply that
                                  * does not fit the request, a line that is not JSON, a line over
                                  * SCROLLD_MAX_LINE: these two end the connection) */
    SCROLLD_E_NO_MEMORY = 11,
    SCROLLD_E_OTHER = 12,        /* a code this version does not know: see scrolld_error.name */
    SCROLLD_E_INTERRUPTED = 13   /* a signal interrupted a blocking call of a client connected
                                  * with SCROLLD_INTERRUPTIBLE ("interrupted") */
};

typedef struct scrolld_error {
    int code;           /* enum scrolld_code */
    char name[32];      /* the code as on the wire: "invalid_value", "not_running", ... */
    char message[512];  /* the daemon's message (truncated to fit), or the client's */
} scrolld_error;

/* "invalid_value" for SCROLLD_E_INVALID_VALUE, ...; "ok" for 0; never NULL. */
const char *scrolld_code_name(int code);

/* ---- values ---------------------------------------------------------------------------- */

typedef struct scrolld_point { double x, y; } scrolld_point;
typedef struct scrolld_size { double width, height; } scrolld_size;
typedef struct scrolld_insets { double top, leading, bottom, trailing; } scrolld_insets;

/* `visibleRows`: `first`/`last` are meaningful only when `any` is true (the daemon's null). */
typedef struct scrolld_rows { bool any; int64_t first, last; } scrolld_rows;

typedef enum scrolld_phase {
    SCROLLD_PHASE_OTHER = 0,  /* a phase this version does not know (see phase_name) */
    SCROLLD_PHASE_IDLE,
    SCROLLD_PHASE_TRACKING,
    SCROLLD_PHASE_INTERACTING,
    SCROLLD_PHASE_DECELERATING,
    SCROLLD_PHASE_ANIMATING
} scrolld_phase;

/* A scroll indicator (docs/design.md §22): the thumb's start along its track and its length,
 * px, and whether it shows. `present` is false for an axis the container does not scroll. */
typedef struct scrolld_indicator {
    bool present;
    double offset, length;
    bool visible;
} scrolld_indicator;

/* One state of a container (docs/protocol.md, "The state"). */
typedef struct scrolld_state {
    const char *container;
    uint64_t seq;
    int64_t t;                   /* µs, CLOCK_MONOTONIC (only differences mean anything) */
    scrolld_phase phase;
    /* "idle", ... as on the wire, also for SCROLLD_PHASE_OTHER ("wobbling" from a newer
     * daemon). From scrolld_get(), an unknown phase's name lives until the next scrolld_get()
     * on the client or scrolld_close(); a known one's is static. */
    const char *phase_name;
    scrolld_point content_offset;
    scrolld_point velocity;
    scrolld_size content_size;
    scrolld_size container_size;
    scrolld_insets content_insets;
    bool has_header;
    double header_height, header_progress;
    bool has_visible_rows;
    scrolld_rows visible_rows;
    bool paused;
    /* The first state of a subscription on a new connection after a reconnection: what
     * happened in between was not seen, and `seq` may have started over. */
    bool resumed;
    /* The scroll indicators of the axes the container scrolls (docs/design.md §22). */
    scrolld_indicator indicator_x, indicator_y;
    /* The section header pinned now (docs/design.md §21): its row and the content y of its
     * top (on screen at sticky_row_top - content_offset.y), when has_sticky_row. */
    bool has_sticky_row;
    int64_t sticky_row;
    double sticky_row_top;
    /* Pull to refresh (docs/design.md §21): true while a refresh runs. */
    bool refreshing;
} scrolld_state;

typedef enum scrolld_value_type {
    SCROLLD_VALUE_NULL = 0,
    SCROLLD_VALUE_BOOL,
    SCROLLD_VALUE_NUMBER,
    SCROLLD_VALUE_STRING,
    SCROLLD_VALUE_ROWS,    /* visibleRows */
    SCROLLD_VALUE_SOURCE,  /* source: {device, name, kind} */
    SCROLLD_VALUE_OTHER    /* a shape this version does not know */
} scrolld_value_type;

/* An observed value (docs/protocol.md, "Observations"). */
typedef struct scrolld_value {
    scrolld_value_type type;
    bool boolean;
    double number;
    const char *string;        /* SCROLLD_VALUE_STRING */
    scrolld_rows rows;         /* SCROLLD_VALUE_ROWS */
    int64_t source_device;     /* SCROLLD_VALUE_SOURCE */
    const char *source_name;   /* may be NULL: a device never announced */
    const char *source_kind;   /* "wheel", "finger", "continuous" */
} scrolld_value;

typedef struct scrolld_observation {
    uint64_t id;               /* what scrolld_observe() returned */
    const char *container;
    const char *of;
    uint64_t seq;
    int64_t t;
    scrolld_value old_value;   /* NULL type on the first one */
    scrolld_value new_value;
    bool resumed;              /* first after a reconnection: old_value is the last one delivered */
} scrolld_observation;

/* ---- the connection -------------------------------------------------------------------- */

typedef struct scrolld scrolld;

enum scrolld_connect_flags {
    /* When the daemon goes away, connect again (50 ms doubling to 2 s) and restore what this
     * client set up (docs/design.md §20): its containers, pauses, focus, subscriptions and
     * observations. Without it the client ends with the connection. Only a connection that
     * was made is made again: scrolld_connect() does not retry the first one.
     * What is restored is what this client knows. A subscription or observation of a
     * container the new daemon does not have (one this client did not configure: another
     * app's, or one of a configuration file that no longer has it) is made again with `wait`
     * (when the daemon lists "follow"): the connect callback runs, then nothing comes until
     * some client creates the container. To notice, make a scrolld_get() from the connect
     * callback: it fails with SCROLLD_E_UNKNOWN_CONTAINER (the containers this client
     * configured are re-created before it is answered). And a container this client
     * configured and another client removed while this one neither subscribed to it nor
     * observed it (the daemon tells only those) is created again by the next reconnection:
     * this client never heard of the removal. Subscribe to or observe what you configure
     * (observing "phase" costs the daemon no state encoding): the removed callback then tells
     * you, and the client forgets the container. */
    SCROLLD_RECONNECT = 1u << 0,
    /* With SCROLLD_RECONNECT: do not put re-created containers back at their last resting
     * offset. */
    SCROLLD_NO_RESTORE_OFFSETS = 1u << 1,
    /* A blocking call (scrolld_connect() itself, every request) whose wait a signal handler
     * interrupts (its poll() fails with EINTR: SIGINT caught with sigaction(), with or without
     * SA_RESTART) returns at once with SCROLLD_E_INTERRUPTED, so Ctrl-C does not wait out the
     * timeout. A request's reply, if it comes later, is dropped, as after a timeout: the
     * daemon may or may not have carried it out. Without this flag a signal is waited through
     * (the request goes on within its timeout), because a program often catches signals that
     * mean nothing to it: a SIGCHLD handler, SDL's or a toolkit's own handlers must not make
     * requests fail. A signal that arrives before the call starts to wait is not seen (poll()
     * cannot see it): a handler should also set a flag the program checks between calls. */
    SCROLLD_INTERRUPTIBLE = 1u << 2
};

/* The socket scrolld and scrollctl use by default: $XDG_RUNTIME_DIR/scrolld/scrolld.sock, else
 * /tmp/scrolld-UID/scrolld.sock. Writes it NUL-terminated into buf; returns its length, or the
 * length it would need (like snprintf) when size is too small. */
size_t scrolld_default_socket(char *buf, size_t size);

/* Connects (path NULL: the default socket) and reads the daemon's welcome. NULL on failure,
 * with err filled: SCROLLD_E_NOT_RUNNING when nobody listens (also for an empty path or a
 * path that is no socket, which the message names), SCROLLD_E_FORBIDDEN when the daemon
 * refuses this uid, SCROLLD_E_TIMEOUT when the daemon accepts but sends no welcome in time or
 * its queue of connections stays full (a busy daemon: connect is tried again, 1 ms doubling to
 * 50 ms, within the same time), SCROLLD_E_BAD_REPLY when the first line is no welcome or
 * cannot be read, SCROLLD_E_INTERRUPTED (with SCROLLD_INTERRUPTIBLE) when a signal came while
 * it waited, SCROLLD_E_INVALID_VALUE for flags other than those of enum
 * scrolld_connect_flags (a subscribe flag passed here by mistake is refused, not ignored).
 * Blocks until the welcome: up to the default timeout, 30 s.
 * SCROLLD_RECONNECT reconnects after a connection that was made: it does not try the first
 * one again. With no daemon running yet this returns NULL at once (SCROLLD_E_NOT_RUNNING); an
 * app that may start before the daemon calls it again (scrolld_connect(3) has a loop). */
scrolld *scrolld_connect(const char *path, unsigned flags, scrolld_error *err);
/* The same, waiting at most `milliseconds` (> 0, else SCROLLD_E_INVALID_VALUE) for the
 * welcome; the client's timeout is then that too (as scrolld_set_timeout() sets it). */
scrolld *scrolld_connect_timeout(const char *path, unsigned flags, int milliseconds, scrolld_error *err);

/* Closes the connection and frees everything; the pointer must not be used afterwards.
 * From inside a callback too (a state, observation, removed, disconnect or connect
 * callback): the connection closes at once (the daemon sees this client go:
 * its owned containers are removed, its pauses and focus undone), no callback runs after it,
 * and the client is freed when the scrolld_dispatch() that ran the callback returns, which
 * then returns SCROLLD_E_DISCONNECTED — do not call scrolld_close() again for that client.
 * Until the callback returns, a call on the client made anyway fails with
 * SCROLLD_E_DISCONNECTED ("the client is closed"), scrolld_fd() returns -1, and a second
 * scrolld_close() does nothing. */
void scrolld_close(scrolld *client);

/* A descriptor that polls readable whenever scrolld_dispatch() has work: messages from the
 * daemon, a reconnection attempt due, or messages read while a request waited. It stays the
 * same across reconnections (an epoll descriptor): register it once. Watch it level-triggered
 * (poll, select, epoll without EPOLLET, GLib, a thread that wakes SDL): a dispatch may leave
 * work for the next call, and the descriptor then stays readable, but it makes no new edge. */
int scrolld_fd(const scrolld *client);

/* Reads what is there without blocking and runs the callbacks. One call is bounded: it
 * delivers what requests kept before it and what it reads itself (a bounded number of reads);
 * what requests made by its own callbacks keep meanwhile is left, in order, for the next call,
 * and the descriptor stays readable. Returns 0, or SCROLLD_E_DISCONNECTED once a client
 * without SCROLLD_RECONNECT has lost its connection (its disconnect callback has then run, with
 * the reason: SCROLLD_E_BAD_REPLY for a line over SCROLLD_MAX_LINE or one it cannot read), or
 * when a callback closed the client (scrolld_close(): it is freed now). Called from inside a
 * callback it returns 0 and delivers nothing: the dispatch under way goes on. */
int scrolld_dispatch(scrolld *client);

/* How long a request waits for its reply (and, reconnecting, for the connection: a request
 * made while the daemon is away waits for the reconnection within this time, then fails with
 * SCROLLD_E_TIMEOUT): default 30000 ms, or what scrolld_connect_timeout() was given. 0 or
 * less is ignored (the timeout stays as it was). The daemon has a timeout of its own: a
 * client that reads nothing (no dispatch, no request) while its socket stays full for 30 s is
 * disconnected (docs/protocol.md, "Delivery and slow clients"); with SCROLLD_RECONNECT it
 * connects again, else the next dispatch says SCROLLD_E_DISCONNECTED. */
void scrolld_set_timeout(scrolld *client, int milliseconds);

bool scrolld_connected(const scrolld *client);
/* The welcome of the current connection: "scrolld 0.1.0", the instance id, its features; once
 * the connection has ended (scrolld_connected() false), still those of the last one. */
const char *scrolld_server(const scrolld *client);
const char *scrolld_instance(const scrolld *client);
bool scrolld_has_feature(const scrolld *client, const char *feature);
size_t scrolld_container_count(const scrolld *client);
const char *scrolld_container_name(const scrolld *client, size_t index);

/* ---- callbacks ------------------------------------------------------------------------- */

typedef void (*scrolld_state_cb)(scrolld *client, const scrolld_state *state, void *data);
typedef void (*scrolld_observation_cb)(scrolld *client, const scrolld_observation *observation, void *data);
/* The container was removed; its subscriptions and observations have ended (or, made with
 * SCROLLD_WAIT, wait for it to come back). */
typedef void (*scrolld_removed_cb)(scrolld *client, const char *container, void *data);
/* The connection ended: `reconnecting` says whether the client will connect again. */
typedef void (*scrolld_disconnect_cb)(scrolld *client, const scrolld_error *why, bool reconnecting, void *data);
/* A reconnection succeeded and its restoring requests are sent; `new_instance`: a new daemon
 * (its containers were re-created), not the same one that dropped the connection. */
typedef void (*scrolld_connect_cb)(scrolld *client, bool new_instance, void *data);

/* Each replaces the callback (NULL: none) and its data; a NULL client: nothing happens. */
void scrolld_on_state(scrolld *client, scrolld_state_cb callback, void *data);
void scrolld_on_observation(scrolld *client, scrolld_observation_cb callback, void *data);
void scrolld_on_removed(scrolld *client, scrolld_removed_cb callback, void *data);
void scrolld_on_disconnect(scrolld *client, scrolld_disconnect_cb callback, void *data);
void scrolld_on_connect(scrolld *client, scrolld_connect_cb callback, void *data);

/* ---- animations and positions ---------------------------------------------------------- */

typedef enum scrolld_animation_kind {
    SCROLLD_ANIMATION_DEFAULT = 0,  /* leave it out: smooth for scrolls, none for configure */
    SCROLLD_ANIMATION_NONE,
    SCROLLD_ANIMATION_SMOOTH,
    SCROLLD_ANIMATION_SNAPPY,
    SCROLLD_ANIMATION_BOUNCY,
    SCROLLD_ANIMATION_SPRING        /* duration (s) and bounce */
} scrolld_animation_kind;

typedef struct scrolld_animation {
    scrolld_animation_kind kind;
    double duration, bounce;
} scrolld_animation;

/* Where scrolld_scroll_to() goes: coordinates (x and/or y), a row with an optional anchor, or
 * an edge (docs/protocol.md, "Positions"). Zero-initialise and set what you mean. */
typedef struct scrolld_position {
    bool has_x, has_y;
    double x, y;
    bool has_row;
    int64_t row;
    const char *anchor;            /* "top", "center", "bottom", "leading", "trailing" or NULL */
    bool has_anchor_fraction;      /* or a number in [0, 1] */
    double anchor_fraction;
    const char *edge;              /* "top", "bottom", "leading", "trailing" or NULL */
} scrolld_position;

/* ---- settings for configure ------------------------------------------------------------ */

/* Every key of configure (docs/protocol.md), set one by one; only the keys set are sent, and
 * setting a key again replaces its value. A builder reports an argument that makes no value
 * when the request is made, as SCROLLD_E_INVALID_VALUE naming the key (nothing is sent): a
 * value JSON cannot carry (NaN, infinity, invalid UTF-8), a NULL array with a count above 0
 * (row heights, devices; NULL with 0 is the empty list), a NULL in devices' names, NULL JSON
 * (scrolld_settings_json; the JSON null is "null"). Setting that key again mends it. A NULL
 * key (physics, json) has no key to set again: every request with that object then fails. A
 * NULL string value is the JSON null (parent NULL: no parent). A NULL settings object: the
 * builders do nothing. An object may be reused for any number of calls: its memory stays
 * within about twice what its current keys need. */
typedef struct scrolld_settings scrolld_settings;

scrolld_settings *scrolld_settings_new(void);
void scrolld_settings_free(scrolld_settings *settings);
void scrolld_settings_container_size(scrolld_settings *s, double width, double height);
void scrolld_settings_content_size(scrolld_settings *s, double width, double height);
void scrolld_settings_content_insets(scrolld_settings *s, double top, double leading, double bottom, double trailing);
void scrolld_settings_axes(scrolld_settings *s, const char *axes);            /* "vertical", "horizontal", "both" */
void scrolld_settings_header(scrolld_settings *s, double min_height, double max_height);
void scrolld_settings_header_stretch(scrolld_settings *s, bool stretch);
void scrolld_settings_header_snap(scrolld_settings *s, bool snap);
void scrolld_settings_rows(scrolld_settings *s, int64_t count, double height);
void scrolld_settings_row_heights(scrolld_settings *s, const double *heights, size_t count);
void scrolld_settings_rows_top(scrolld_settings *s, double top);
void scrolld_settings_rows_threshold(scrolld_settings *s, double threshold);
void scrolld_settings_rows_visible_in(scrolld_settings *s, const char *area);  /* "container", "usable" */
/* Row edits (one per request, instead of a rows description): insert `count` rows before row
 * `at` (height < 0: the rows' own height), insert rows of these heights, or remove rows. */
void scrolld_settings_rows_insert(scrolld_settings *s, int64_t at, int64_t count, double height);
void scrolld_settings_rows_insert_heights(scrolld_settings *s, int64_t at, const double *heights, size_t count);
void scrolld_settings_rows_remove(scrolld_settings *s, int64_t at, int64_t count);
/* [physics] keys by their names in docs/config.md (snake_case): numbers, booleans, strings. */
void scrolld_settings_physics_number(scrolld_settings *s, const char *key, double value);
void scrolld_settings_physics_bool(scrolld_settings *s, const char *key, bool value);
void scrolld_settings_physics_string(scrolld_settings *s, const char *key, const char *value);
void scrolld_settings_scroll_target(scrolld_settings *s, const char *target); /* "none", "rows", ... */
/* The device names that drive the container (docs/config.md, `devices`). An empty list
 * (NULL, 0) is every device, the default: no device is bound to it, and it takes input as
 * every unbound container does (routed by the focus, docs/design.md §14). Names bind those
 * devices to it: their input reaches it whatever the focus, and, unless it has the focus, no
 * other device's does. No list means "no device": a container that should move only on
 * requests is paused (scrolld_pause(): input stops reaching it, scrollTo and scrollBy still
 * move it; the pause lasts while this client's connection does, SCROLLD_RECONNECT pauses it
 * again, and another client's resume ends it). */
void scrolld_settings_devices(scrolld_settings *s, const char *const *names, size_t count);
void scrolld_settings_parent(scrolld_settings *s, const char *parent);        /* NULL: no parent */
void scrolld_settings_overscroll(scrolld_settings *s, const char *mode);      /* "auto", "contain", "none" */
void scrolld_settings_anchor(scrolld_settings *s, const char *anchor);        /* "top", "bottom" */
/* Where the container lies on a touchscreen (touch_frame, docs/design.md §25), in the glass's
 * normalized coordinates: a fullscreen app divides its pixel rectangle by the screen size.
 * `_none` removes the frame (the container then gets no touches). The slop is the physics key
 * "touch_slop" (scrolld_settings_physics_number). */
void scrolld_settings_touch_frame(scrolld_settings *s, double x, double y, double width, double height);
void scrolld_settings_touch_frame_none(scrolld_settings *s);
void scrolld_settings_owned(scrolld_settings *s, bool owned);
void scrolld_settings_animation(scrolld_settings *s, scrolld_animation animation);
/* Any other key, for a daemon newer than this library: `json` is one JSON value, checked when
 * the request is made. */
void scrolld_settings_json(scrolld_settings *s, const char *key, const char *json);

/* ---- requests -------------------------------------------------------------------------- */

enum scrolld_subscribe_flags {
    /* `wait` (docs/design.md §20): a container that does not exist yet is waited for, and a
     * removed one waited for again. Needs a daemon that lists "follow" in its features. */
    SCROLLD_WAIT = 1u << 0
};

/* settings NULL: no keys, as an empty settings object (a new container gets the daemon's
 * defaults; an existing one is left as it is). */
int scrolld_configure(scrolld *c, const char *container, const scrolld_settings *settings, scrolld_error *err);
int scrolld_scroll_to(scrolld *c, const char *container, const scrolld_position *position,
                      const scrolld_animation *animation, scrolld_error *err);
int scrolld_scroll_by(scrolld *c, const char *container, double dx, double dy,
                      const scrolld_animation *animation, scrolld_error *err);
int scrolld_pause(scrolld *c, const char *container, scrolld_error *err);
int scrolld_resume(scrolld *c, const char *container, scrolld_error *err);
int scrolld_remove(scrolld *c, const char *container, scrolld_error *err);
/* container NULL: input goes to every container again (docs/design.md §14). */
int scrolld_focus(scrolld *c, const char *container, scrolld_error *err);
/* Shows the container's scroll indicators for its indicator_linger_ms (docs/design.md §22). */
int scrolld_flash_indicators(scrolld *c, const char *container, scrolld_error *err);
/* Starts a refresh as a pull past the threshold does (docs/design.md §21; the container needs
 * `refresh` configured), and ends it: the container goes back to the top of its content. */
int scrolld_begin_refresh(scrolld *c, const char *container, scrolld_error *err);
int scrolld_end_refresh(scrolld *c, const char *container, scrolld_error *err);
/* The container's state now; state->container points at `container`, state->phase_name as
 * for a state callback (see scrolld_state). */
int scrolld_get(scrolld *c, const char *container, scrolld_state *state, scrolld_error *err);
/* Follows a container (rate: at most this many states a second, from 0.001 to 1000, or 0 for
 * every one): its current state comes at once to the state callback (from the next
 * dispatch), then every change. One subscription per container and client: subscribing again
 * replaces the first, its rate and flags with it. flags: SCROLLD_WAIT or 0 (any other bit is
 * SCROLLD_E_INVALID_VALUE). Container names are 1 to 255 bytes of UTF-8 (docs/protocol.md). */
int scrolld_subscribe(scrolld *c, const char *container, double rate, unsigned flags, scrolld_error *err);
/* container NULL: every subscription of this client. */
int scrolld_unsubscribe(scrolld *c, const char *container, scrolld_error *err);

/* Options of scrolld_observe(): zero-initialise and set the ones the key takes. */
typedef struct scrolld_observe_options {
    bool has_step; double step;            /* numbers: reported as step·floor(v/step); the
                                            * daemon takes 1e-6 to 1e9 (both included) and
                                            * refuses any other step, 0 too, with
                                            * SCROLLD_E_INVALID_VALUE naming "step" */
    bool has_row; int64_t row;             /* rowVisible */
    bool has_threshold; double threshold;  /* rowVisible */
    bool has_distance; double distance;    /* nearEnd */
    const char *axis;                      /* nearEnd: "x" or "y" */
    const char *edge;                      /* atEdge */
    bool wait;                             /* as SCROLLD_WAIT */
} scrolld_observe_options;

/* Hears `of` only when it changes; the first observation (old NULL) comes at once. The keys
 * (docs/protocol.md, "Observations"): "phase", "contentOffset.x", "contentOffset.y",
 * "velocity.x", "velocity.y", "header.height", "header.progress" (these six take a step),
 * "visibleRows", "rowVisible" (row, threshold), "nearEnd" (distance, axis), "atEdge" (edge),
 * "stickyRow", "refreshing" and "source"; the daemon refuses another with
 * SCROLLD_E_INVALID_VALUE. options may be NULL. *id (the library chooses it) names the
 * observation in the callback (scrolld_observation.id) and for scrolld_unobserve(). id may be
 * NULL: the callback still gets the id, and scrolld_unobserve(c, observation->id, ...) from
 * there ends it; but one made with `wait` whose container never comes has no first
 * observation to learn its id from, and only closing the client ends it. */
int scrolld_observe(scrolld *c, const char *container, const char *of,
                    const scrolld_observe_options *options, uint64_t *id, scrolld_error *err);
int scrolld_unobserve(scrolld *c, uint64_t id, scrolld_error *err);

typedef struct scrolld_device {
    int64_t id;
    const char *name;
    const char *path;               /* NULL when the daemon gave none */
    size_t cap_count;
    const char *const *caps;        /* "wheel", "finger", ... */
    size_t container_count;
    const char *const *containers;  /* where its input goes */
    size_t rule_count;
    const char *const *rules;       /* the [input.devices.NAME] rules that match it */
} scrolld_device;

typedef struct scrolld_devices {
    size_t count;
    const scrolld_device *devices;
    const char *focus;              /* NULL: no focus */
    bool input_active;              /* false while the session is inactive or asleep */
    const char *input_reason;       /* "session_inactive", "sleep" or NULL */
} scrolld_devices;

/* The input devices; free *devices with scrolld_devices_free(). */
int scrolld_devices_list(scrolld *c, scrolld_devices **devices, scrolld_error *err);
void scrolld_devices_free(scrolld_devices *devices);

typedef struct scrolld_reload_result {
    bool ok;
    char file[256];
    char message[1024];
} scrolld_reload_result;

/* Re-reads the daemon's configuration; a bad file is result->ok false (the request itself
 * succeeded, and the last good configuration stays). result may be NULL: the outcome is then
 * not kept. */
int scrolld_reload(scrolld *c, scrolld_reload_result *result, scrolld_error *err);
/* The round trip in seconds (may be NULL). */
int scrolld_ping(scrolld *c, double *seconds, scrolld_error *err);

#ifdef __cplusplus
}
#endif
#endif
