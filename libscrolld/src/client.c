/* The connection: the app's descriptor and dispatch, requests, reconnection (docs/design.md
 * §7, §19, §20; docs/clients.md "C"). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* The daemon reads lines of at most 64 KiB (docs/design.md §7): a longer request would close
 * the connection, so it is refused before it is sent. */
#define MAX_REQUEST (64 * 1024)
/* The longest line read from the daemon is SCROLLD_MAX_LINE (scrolld.h): a longer one ends
 * the connection as soon as it passes the limit, never buffered whole. */
/* Bytes a parsed line may use (its values, decoded strings). */
#define ARENA_LIMIT (16u << 20)
/* Requests not yet taken by a daemon that stopped reading. */
#define MAX_OUTPUT (1024 * 1024)
/* Messages read while a request waited, kept for the next dispatch: beyond this many, or this
 * many bytes, the oldest state goes (the daemon's own latest-wins rule; a gap in seq shows it),
 * else the oldest other message. The bytes bound what a daemon sending lines of up to
 * SCROLLD_MAX_LINE can make the client hold (4096 such lines would be 4 GiB). */
#define MAX_DEFERRED 4096
#define MAX_DEFERRED_BYTES (16u << 20)
#define DEFAULT_TIMEOUT_MS 30000
#define FIRST_RETRY_MS 50
#define LAST_RETRY_MS 2000
#define READS_PER_DISPATCH 16
/* A daemon whose queue of connections is full (connect: EAGAIN) is tried again after this,
 * doubling up to the last, within the connect's timeout. */
#define FIRST_BUSY_RETRY_MS 1
#define LAST_BUSY_RETRY_MS 50

enum conn { ST_CONNECTED, ST_WELCOME, ST_BACKOFF, ST_DEAD };

enum op {
    OP_OK, OP_CONFIGURE, OP_PAUSE, OP_RESUME, OP_FOCUS, OP_REMOVE, OP_GET, OP_SUBSCRIBE,
    OP_UNSUBSCRIBE, OP_OBSERVE, OP_UNOBSERVE, OP_DEVICES, OP_RELOAD, OP_PING,
    OP_RESTORE,            /* a restoring request whose reply nobody needs */
    OP_SUBSCRIBE_RESTORE, OP_OBSERVE_RESTORE
};

typedef struct waiter {
    bool done;
    scrolld_error error;
    void *out;
    const char *container;
} waiter;

typedef struct pending {
    struct pending *next;
    uint64_t id;
    enum op op;
    waiter *w;
    char *container;
    const scrolld_settings *settings;
    double rate;
    bool wait;
    char *options;  /* observe: the option members */
    char *of;
} pending;

typedef struct subscription {
    struct subscription *next;
    char *container;
    double rate;
    bool wait, resuming;
} subscription;

typedef struct owned_value {
    scrolld_value v;
    char *string, *name, *kind;
} owned_value;

typedef struct observation {
    struct observation *next;
    uint64_t id;
    char *container, *of, *options;
    bool wait, resuming;
    owned_value last;
} observation;

typedef struct name_node {
    struct name_node *next;
    char *name;
} name_node;

enum deferred_kind { D_LINE, D_DISCONNECT, D_CONNECT };

typedef struct deferred {
    struct deferred *next;
    enum deferred_kind kind;
    bool flag;  /* D_DISCONNECT: reconnecting; D_CONNECT: a new instance */
    bool is_state;
    /* Kept by a request a callback made inside dispatch number `held` (0: none): that
     * dispatch leaves it, and what follows it, to the next one. */
    uint64_t held;
    scrolld_error error;
    size_t len;
    char data[];
} deferred;

struct scrolld {
    int epfd, sock, evfd, tfd;
    unsigned flags;
    int timeout_ms;
    char *path;
    enum conn st;
    bool initial, announced_end, dispatching, signalled;
    /* scrolld_close() from a callback: the connection is closed, no callback runs any more,
     * and the dispatch under way frees the client when it returns. */
    bool closed;
    int backoff_ms;
    scrolld_error connect_error;
    /* input: bytes [in_start, in_len) of in */
    char *in;
    size_t in_start, in_len, in_cap, scan;
    char *out;
    size_t out_len, out_cap;
    bool want_write;
    /* the welcome */
    char *server, *instance;
    char **features, **containers;
    size_t nfeatures, ncontainers;
    uint64_t next_id;
    pending *pending;
    subscription *subs;
    observation *obs;
    desc *descs;
    name_node *paused;
    char *focus;
    /* the phase_name of the last scrolld_get() whose phase this version does not know */
    char *get_phase;
    deferred *dq, **dq_tail;
    size_t dq_count, dq_bytes;
    uint64_t epoch;  /* dispatches begun (deferred.held) */
    int in_call;     /* requests under way (a callback's inside a dispatch among them) */
    arena arenas[2];  /* [0] dispatch, [1] a request waiting (callbacks may make requests) */
    locale_t cloc;
    scrolld_state_cb on_state; void *on_state_data;
    scrolld_observation_cb on_observation; void *on_observation_data;
    scrolld_removed_cb on_removed; void *on_removed_data;
    scrolld_disconnect_cb on_disconnect; void *on_disconnect_data;
    scrolld_connect_cb on_connect; void *on_connect_data;
};

/* ---- errors ----------------------------------------------------------------------------- */

static const char *const code_names[] = {
    "ok", "bad_request", "unknown_op", "unknown_container", "invalid_value", "too_large",
    "forbidden", "not_running", "disconnected", "timeout", "bad_reply", "no_memory", "error",
    "interrupted",
};

const char *scrolld_code_name(int code) {
    if (code < 0 || code >= (int)(sizeof code_names / sizeof *code_names)) return "error";
    return code_names[code];
}

/* (the client's own codes after SCROLLD_E_OTHER never come from the daemon) */
static int code_from_name(const char *name) {
    for (int i = 1; i < SCROLLD_E_OTHER; i++)
        if (strcmp(code_names[i], name) == 0) return i;
    return SCROLLD_E_OTHER;
}

static void copy_text(char *dst, size_t size, const char *src) {
    size_t n = strlen(src);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80) n--;  /* whole characters */
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

__attribute__((format(printf, 3, 4)))
static int fail(scrolld_error *err, int code, const char *format, ...) {
    if (err != NULL) {
        err->code = code;
        copy_text(err->name, sizeof err->name, scrolld_code_name(code));
        va_list ap;
        va_start(ap, format);
        vsnprintf(err->message, sizeof err->message, format, ap);
        va_end(ap);
    }
    return code;
}

/* A call that succeeded leaves no stale error behind: code 0, "ok", no message. */
static int succeed(scrolld_error *err) {
    if (err != NULL) {
        memset(err, 0, sizeof *err);
        copy_text(err->name, sizeof err->name, scrolld_code_name(SCROLLD_OK));
    }
    return SCROLLD_OK;
}

static void error_from_reply(scrolld_error *err, const jv *msg) {
    const char *name = json_string(msg, "code"), *message = json_string(msg, "message");
    if (name == NULL) name = "error";
    err->code = code_from_name(name);
    copy_text(err->name, sizeof err->name, name);
    copy_text(err->message, sizeof err->message, message ? message : name);
}

/* ---- small helpers ---------------------------------------------------------------------- */

static char *sdup(const char *s) {
    if (s == NULL) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void arm_timer(scrolld *c, int ms) {
    struct itimerspec t = {0};
    t.it_value.tv_sec = ms / 1000;
    t.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
    if (ms <= 0 && ms != -1) t.it_value.tv_nsec = 1;
    if (ms == -1) t.it_value.tv_nsec = 0;  /* disarm */
    timerfd_settime(c->tfd, 0, &t, NULL);
}

static void signal_work(scrolld *c) {
    if (c->signalled) return;
    uint64_t one = 1;
    if (write(c->evfd, &one, sizeof one) == sizeof one) c->signalled = true;
}

static void update_epoll(scrolld *c) {
    if (c->sock < 0) return;
    bool want = c->out_len > 0;
    if (want == c->want_write) return;
    struct epoll_event ev = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.fd = c->sock};
    epoll_ctl(c->epfd, EPOLL_CTL_MOD, c->sock, &ev);
    c->want_write = want;
}

static const char *const phase_names[] = {"other", "idle", "tracking", "interacting", "decelerating", "animating"};

static scrolld_phase phase_of(const char *name) {
    for (int i = 1; i < 6; i++)
        if (strcmp(phase_names[i], name) == 0) return (scrolld_phase)i;
    return SCROLLD_PHASE_OTHER;
}

/* ---- what this client set up ------------------------------------------------------------ */

static subscription *find_sub(scrolld *c, const char *container) {
    for (subscription *s = c->subs; s != NULL; s = s->next)
        if (strcmp(s->container, container) == 0) return s;
    return NULL;
}

static void free_owned(owned_value *o) {
    free(o->string); free(o->name); free(o->kind);
    memset(o, 0, sizeof *o);
}

static void drop_sub(scrolld *c, const char *container) {
    for (subscription **p = &c->subs; *p != NULL;) {
        subscription *s = *p;
        if (container == NULL || strcmp(s->container, container) == 0) {
            *p = s->next;
            free(s->container);
            free(s);
        } else p = &s->next;
    }
}

static void free_obs(observation *o) {
    free(o->container); free(o->of); free(o->options);
    free_owned(&o->last);
    free(o);
}

static observation *find_obs(scrolld *c, uint64_t id) {
    for (observation *o = c->obs; o != NULL; o = o->next)
        if (o->id == id) return o;
    return NULL;
}

static void drop_obs(scrolld *c, uint64_t id) {
    for (observation **p = &c->obs; *p != NULL; p = &(*p)->next)
        if ((*p)->id == id) {
            observation *o = *p;
            *p = o->next;
            free_obs(o);
            return;
        }
}

static desc *find_desc(scrolld *c, const char *name) {
    for (desc *d = c->descs; d != NULL; d = d->next)
        if (strcmp(d->name, name) == 0) return d;
    return NULL;
}

static bool name_in(name_node *list, const char *name) {
    for (; list != NULL; list = list->next)
        if (strcmp(list->name, name) == 0) return true;
    return false;
}

static void name_remove(name_node **list, const char *name) {
    for (name_node **p = list; *p != NULL;) {
        if (name == NULL || strcmp((*p)->name, name) == 0) {
            name_node *n = *p;
            *p = n->next;
            free(n->name);
            free(n);
        } else p = &(*p)->next;
    }
}

static void name_add(name_node **list, const char *name) {
    if (name_in(*list, name)) return;
    name_node *n = malloc(sizeof *n);
    if (n == NULL || (n->name = sdup(name)) == NULL) { free(n); return; }
    n->next = *list;
    *list = n;
}

/* A removed container is not created again by a reconnection. */
static void forget(scrolld *c, const char *container) {
    for (desc **p = &c->descs; *p != NULL; p = &(*p)->next)
        if (strcmp((*p)->name, container) == 0) {
            desc *d = *p;
            *p = d->next;
            desc_free(d);
            break;
        }
    name_remove(&c->paused, container);
    if (c->focus != NULL && strcmp(c->focus, container) == 0) {
        free(c->focus);
        c->focus = NULL;
    }
}

/* ---- the deferred queue ----------------------------------------------------------------- */

static size_t deferred_size(const deferred *d) { return sizeof *d + d->len + 1; }

/* Makes room: the oldest state goes, else the oldest other line, else the oldest event. */
static void defer_drop_oldest(scrolld *c) {
    deferred **victim = NULL, **line = NULL;
    for (deferred **p = &c->dq; *p != NULL; p = &(*p)->next) {
        if ((*p)->is_state) { victim = p; break; }
        if (line == NULL && (*p)->kind == D_LINE) line = p;
    }
    if (victim == NULL) victim = line != NULL ? line : &c->dq;
    deferred *v = *victim;
    *victim = v->next;
    if (c->dq_tail == &v->next) c->dq_tail = victim;
    c->dq_count--;
    c->dq_bytes -= deferred_size(v);
    free(v);
}

static deferred *defer_new(scrolld *c, enum deferred_kind kind, const char *data, size_t len) {
    deferred *d = malloc(sizeof *d + len + 1);
    if (d == NULL) return NULL;
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->len = len;
    if (len) memcpy(d->data, data, len);
    d->data[len] = '\0';
    d->held = c->dispatching && c->in_call > 0 ? c->epoch : 0;
    size_t size = deferred_size(d);
    while (c->dq != NULL && (c->dq_count >= MAX_DEFERRED || c->dq_bytes + size > MAX_DEFERRED_BYTES))
        defer_drop_oldest(c);
    *c->dq_tail = d;
    c->dq_tail = &d->next;
    c->dq_count++;
    c->dq_bytes += size;
    signal_work(c);
    return d;
}

static deferred *defer_pop(scrolld *c) {
    deferred *d = c->dq;
    if (d == NULL) return NULL;
    c->dq = d->next;
    if (c->dq == NULL) c->dq_tail = &c->dq;
    c->dq_count--;
    c->dq_bytes -= deferred_size(d);
    return d;
}

static void defer_removed(scrolld *c, const char *container) {
    jbuf b = {0};
    jb_lit(&b, "{\"type\":\"removed\",\"container\":");
    jb_cstring(&b, container);
    jb_lit(&b, "}");
    if (!b.failed) defer_new(c, D_LINE, b.data, b.len);
    jb_free(&b);
}

/* ---- output ----------------------------------------------------------------------------- */

static void teardown(scrolld *c, int code, const char *message, bool announce);

static void flush(scrolld *c) {
    while (c->sock >= 0 && c->out_len > 0) {
        ssize_t n = send(c->sock, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            memmove(c->out, c->out + n, c->out_len - (size_t)n);
            c->out_len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        teardown(c, SCROLLD_E_DISCONNECTED, "the connection to scrolld broke", true);
        return;
    }
    update_epoll(c);
}

static bool queue_line(scrolld *c, const char *data, size_t len) {
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + len) cap *= 2;
        char *out = realloc(c->out, cap);
        if (out == NULL) return false;
        c->out = out;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
    return true;
}

static pending *add_pending(scrolld *c, uint64_t id, enum op op, const char *container) {
    pending *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->id = id;
    p->op = op;
    if (container != NULL && (p->container = sdup(container)) == NULL) { free(p); return NULL; }
    pending **tail = &c->pending;
    while (*tail != NULL) tail = &(*tail)->next;
    *tail = p;
    return p;
}

static void free_pending(pending *p) {
    free(p->container);
    free(p->options);
    free(p->of);
    free(p);
}

static pending *take_pending(scrolld *c, uint64_t id) {
    for (pending **p = &c->pending; *p != NULL; p = &(*p)->next)
        if ((*p)->id == id) {
            pending *found = *p;
            *p = found->next;
            return found;
        }
    return NULL;
}

/* ---- the connection's life -------------------------------------------------------------- */

static void teardown(scrolld *c, int code, const char *message, bool announce) {
    if (c->sock >= 0) {
        epoll_ctl(c->epfd, EPOLL_CTL_DEL, c->sock, NULL);
        close(c->sock);
        c->sock = -1;
    }
    c->in_start = c->in_len = c->scan = 0;
    c->out_len = 0;
    c->want_write = false;
    while (c->pending != NULL) {
        pending *p = c->pending;
        c->pending = p->next;
        if (p->w != NULL && !p->w->done) {
            p->w->done = true;
            fail(&p->w->error, code, "%s", message);
        }
        free_pending(p);
    }
    bool reconnecting = (c->flags & SCROLLD_RECONNECT) && !c->initial;
    if (announce) {
        deferred *d = defer_new(c, D_DISCONNECT, NULL, 0);
        if (d != NULL) {
            d->flag = reconnecting;
            fail(&d->error, code, "%s", message);
        }
    }
    if (reconnecting) {
        if (c->st != ST_BACKOFF) {
            c->st = ST_BACKOFF;
            if (c->backoff_ms == 0) c->backoff_ms = FIRST_RETRY_MS;
            arm_timer(c, c->backoff_ms);
        }
    } else {
        c->st = ST_DEAD;
        arm_timer(c, -1);
    }
}

/* A connected socket, or -1 with err filled. A daemon whose queue of connections is full
 * (EAGAIN: it listens, but has not accepted those before) is tried again until `deadline`
 * (0: not at all), then SCROLLD_E_TIMEOUT. */
static int open_socket(scrolld *c, int64_t deadline, scrolld_error *err) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (c->path[0] == '\0') {
        /* (connect() would take it for an abstract address) */
        fail(err, SCROLLD_E_NOT_RUNNING, "the socket path is empty (NULL is the default socket)");
        return -1;
    }
    if (strlen(c->path) >= sizeof addr.sun_path) {
        fail(err, SCROLLD_E_NOT_RUNNING, "socket path too long: %s", c->path);
        return -1;
    }
    strcpy(addr.sun_path, c->path);
    int fd, e, busy_ms = FIRST_BUSY_RETRY_MS;
    for (;;) {
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            fail(err, SCROLLD_E_NOT_RUNNING, "cannot make a socket: %s", strerror(errno));
            return -1;
        }
        if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) return fd;
        e = errno;
        close(fd);
        if ((e != EAGAIN && e != EINTR) || deadline == 0) break;
        /* (polling for writability does not work here: an AF_UNIX connect that met a full
         * queue is not pending, it failed, and is made again) */
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            fail(err, SCROLLD_E_TIMEOUT, "scrolld at %s is busy: its queue of connections stayed full for %d ms", c->path, c->timeout_ms);
            return -1;
        }
        if (poll(NULL, 0, busy_ms < left ? busy_ms : (int)left) < 0 && errno == EINTR &&
            (c->flags & SCROLLD_INTERRUPTIBLE)) {
            fail(err, SCROLLD_E_INTERRUPTED, "interrupted by a signal while scrolld at %s was busy", c->path);
            return -1;
        }
        busy_ms = busy_ms * 2 > LAST_BUSY_RETRY_MS ? LAST_BUSY_RETRY_MS : busy_ms * 2;
    }
    /* Something else at the path: say what, rather than connect()'s "Connection refused". */
    struct stat st;
    if (stat(c->path, &st) == 0 && !S_ISSOCK(st.st_mode)) {
        const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISREG(st.st_mode) ? "a regular file" : "neither a socket, a file nor a directory";
        fail(err, SCROLLD_E_NOT_RUNNING, "%s is not a socket (%s): scrolld is not running there", c->path, what);
    } else {
        fail(err, SCROLLD_E_NOT_RUNNING, "scrolld is not running (no daemon at %s: %s)", c->path, strerror(e));
    }
    return -1;
}

static void try_connect(scrolld *c) {
    scrolld_error ignored;
    int fd = open_socket(c, 0, &ignored);  /* a full queue: the backoff tries again */
    if (fd < 0) {
        c->backoff_ms = c->backoff_ms * 2 > LAST_RETRY_MS ? LAST_RETRY_MS : c->backoff_ms * 2;
        arm_timer(c, c->backoff_ms);
        return;
    }
    c->sock = fd;
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev);
    c->st = ST_WELCOME;
    arm_timer(c, c->timeout_ms);  /* a daemon that never says welcome: try again */
}

static void timer_fired(scrolld *c) {
    uint64_t expirations;
    if (read(c->tfd, &expirations, sizeof expirations) != sizeof expirations) return;
    if (c->st == ST_BACKOFF) {
        try_connect(c);
    } else if (c->st == ST_WELCOME) {
        teardown(c, SCROLLD_E_TIMEOUT, "no welcome from scrolld in time", false);
    }
}

static void free_welcome(scrolld *c) {
    free(c->server); free(c->instance);
    for (size_t i = 0; i < c->nfeatures; i++) free(c->features[i]);
    for (size_t i = 0; i < c->ncontainers; i++) free(c->containers[i]);
    free(c->features); free(c->containers);
    c->server = c->instance = NULL;
    c->features = c->containers = NULL;
    c->nfeatures = c->ncontainers = 0;
}

static char **string_list(const jv *array, size_t *count) {
    *count = 0;
    if (array == NULL || array->type != J_ARRAY) return NULL;
    size_t n = 0;
    for (const jv *e = array->child; e != NULL; e = e->next) if (e->type == J_STRING) n++;
    char **list = calloc(n ? n : 1, sizeof *list);
    if (list == NULL) return NULL;
    for (const jv *e = array->child; e != NULL; e = e->next)
        if (e->type == J_STRING && (list[*count] = sdup(e->str)) != NULL) (*count)++;
    return list;
}

static void send_restoring(scrolld *c, jbuf *b, uint64_t id, enum op op, const char *container) {
    jb_lit(b, "}\n");
    if (b->failed || b->len > MAX_REQUEST) return;
    if (add_pending(c, id, op, container) == NULL) return;
    queue_line(c, b->data, b->len);
}

static void begin(jbuf *b, uint64_t id, const char *op) {
    b->len = 0;
    b->failed = 0;
    jb_lit(b, "{\"id\":");
    jb_uint(b, id);
    jb_lit(b, ",\"op\":\"");
    jb_lit(b, op);
    jb_lit(b, "\"");
}

/* The requests that bring a new connection where the old one was (docs/design.md §20). */
static void restore(scrolld *c, bool new_instance, bool focus_free) {
    jbuf b = {0};
    for (desc *d = c->descs; d != NULL; d = d->next) {
        if (!new_instance && !d->owned) continue;
        begin(&b, ++c->next_id, "configure");
        jb_key(&b, "container"); jb_cstring(&b, d->name);
        desc_write(d, &b);
        send_restoring(c, &b, c->next_id, OP_RESTORE, d->name);
        for (size_t i = 0, n = desc_insert_count(d); i < n; i++) {
            begin(&b, ++c->next_id, "configure");
            jb_key(&b, "container"); jb_cstring(&b, d->name);
            desc_write_insert(d, i, &b);
            send_restoring(c, &b, c->next_id, OP_RESTORE, d->name);
        }
        if (d->has_rest && !d->following && !(c->flags & SCROLLD_NO_RESTORE_OFFSETS)) {
            begin(&b, ++c->next_id, "scrollTo");
            jb_key(&b, "container"); jb_cstring(&b, d->name);
            jb_key(&b, "x"); jb_number(&b, d->rest_x);
            jb_key(&b, "y"); jb_number(&b, d->rest_y);
            jb_key(&b, "animation"); jb_lit(&b, "\"none\"");
            send_restoring(c, &b, c->next_id, OP_RESTORE, d->name);
        }
    }
    for (name_node *n = c->paused; n != NULL; n = n->next) {
        begin(&b, ++c->next_id, "pause");
        jb_key(&b, "container"); jb_cstring(&b, n->name);
        send_restoring(c, &b, c->next_id, OP_RESTORE, n->name);
    }
    if (c->focus != NULL && focus_free) {
        begin(&b, ++c->next_id, "focus");
        jb_key(&b, "container"); jb_cstring(&b, c->focus);
        send_restoring(c, &b, c->next_id, OP_RESTORE, c->focus);
    }
    bool follow = scrolld_has_feature(c, "follow");
    for (subscription *s = c->subs; s != NULL; s = s->next) {
        begin(&b, ++c->next_id, "subscribe");
        jb_key(&b, "container"); jb_cstring(&b, s->container);
        if (s->rate > 0) { jb_key(&b, "rate"); jb_number(&b, s->rate); }
        if (follow || s->wait) { jb_key(&b, "wait"); jb_bool(&b, true); }
        send_restoring(c, &b, c->next_id, OP_SUBSCRIBE_RESTORE, s->container);
    }
    for (observation *o = c->obs; o != NULL; o = o->next) {
        begin(&b, o->id, "observe");
        jb_key(&b, "container"); jb_cstring(&b, o->container);
        jb_key(&b, "of"); jb_cstring(&b, o->of);
        if (o->options != NULL) jb_lit(&b, o->options);
        if (follow || o->wait) { jb_key(&b, "wait"); jb_bool(&b, true); }
        send_restoring(c, &b, o->id, OP_OBSERVE_RESTORE, o->container);
    }
    jb_free(&b);
    flush(c);
}

static void handle_welcome(scrolld *c, const jv *msg) {
    const char *type = json_string(msg, "type");
    if (type == NULL || strcmp(type, "welcome") != 0) {
        if (type != NULL && strcmp(type, "error") == 0) error_from_reply(&c->connect_error, msg);
        else fail(&c->connect_error, SCROLLD_E_BAD_REPLY, "expected a welcome from scrolld, got %s", type ? type : "no type");
        teardown(c, c->connect_error.code, c->connect_error.message, false);
        return;
    }
    const char *instance = json_string(msg, "instance");
    bool new_instance = instance == NULL || c->instance == NULL || strcmp(instance, c->instance) != 0;
    free_welcome(c);
    c->server = sdup(json_string(msg, "server"));
    c->instance = sdup(instance);
    c->features = string_list(json_get(msg, "features"), &c->nfeatures);
    c->containers = string_list(json_get(msg, "containers"), &c->ncontainers);
    const jv *focus = json_get(msg, "focus");
    c->st = ST_CONNECTED;
    c->backoff_ms = 0;
    arm_timer(c, -1);
    if (c->initial) return;
    restore(c, new_instance, focus == NULL || focus->type == J_NULL);
    deferred *d = defer_new(c, D_CONNECT, NULL, 0);
    if (d != NULL) d->flag = new_instance;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Reads once: 1 when bytes came, 0 when none are waiting, -1 when the connection ended. */
static int read_some(scrolld *c) {
    if (c->sock < 0) return 0;
    if (c->in_start > 0) {
        memmove(c->in, c->in + c->in_start, c->in_len - c->in_start);
        c->in_len -= c->in_start;
        c->scan -= c->in_start;
        c->in_start = 0;
    }
    if (c->in_cap - c->in_len < 65536) {
        size_t cap = c->in_cap ? c->in_cap * 2 : 131072;
        char *in = realloc(c->in, cap);
        if (in == NULL) return 0;
        c->in = in;
        c->in_cap = cap;
    }
    ssize_t n = recv(c->sock, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
    if (n > 0) {
        c->in_len += (size_t)n;
        return 1;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
    teardown(c, SCROLLD_E_DISCONNECTED, n == 0 ? "scrolld closed the connection" : "the connection to scrolld broke", true);
    return -1;
}

/* A line over SCROLLD_MAX_LINE: the connection ends with bad_reply, the same however the line
 * arrives. (Skipping it would leave a request whose reply it was waiting the whole timeout.) */
static void overlong(scrolld *c) {
    char message[160];
    snprintf(message, sizeof message, "scrolld sent a line over %d bytes (1 MiB), more than this library reads: the connection is closed", SCROLLD_MAX_LINE);
    if (c->st == ST_WELCOME) fail(&c->connect_error, SCROLLD_E_BAD_REPLY, "%s", message);
    teardown(c, SCROLLD_E_BAD_REPLY, message, c->st == ST_CONNECTED);
}

/* A line this library cannot read (not JSON, invalid UTF-8, a number out of a double's range,
 * nested deeper than JSON_MAX_DEPTH, ...; or JSON that is not an object): a protocol violation,
 * which ends the connection with bad_reply as a line over the limit does. (Skipping it would
 * leave the request whose reply it may have been waiting its whole timeout.) */
static void unreadable(scrolld *c, const char *why) {
    char message[200];
    snprintf(message, sizeof message, "scrolld sent a line this library cannot read (%s): the connection is closed", why);
    if (c->st == ST_WELCOME) fail(&c->connect_error, SCROLLD_E_BAD_REPLY, "%s", message);
    teardown(c, SCROLLD_E_BAD_REPLY, message, c->st == ST_CONNECTED);
}

/* The next complete line, without its newline (and a trailing \r). A line is judged by its
 * length before the newline, whole or in part: one over the limit ends the connection as soon
 * as that much of it is here, and is never buffered whole. */
static bool next_line(scrolld *c, char **line, size_t *len) {
    for (;;) {
        char *nl = c->scan < c->in_len ? memchr(c->in + c->scan, '\n', c->in_len - c->scan) : NULL;
        size_t start = c->in_start, end = nl != NULL ? (size_t)(nl - c->in) : c->in_len;
        if (end - start > SCROLLD_MAX_LINE) {
            overlong(c);
            return false;
        }
        if (nl == NULL) {
            c->scan = c->in_len;
            return false;
        }
        c->in_start = c->scan = end + 1;
        if (end > start && c->in[end - 1] == '\r') end--;
        if (end == start) continue;
        *line = c->in + start;
        *len = end - start;
        return true;
    }
}

/* ---- messages --------------------------------------------------------------------------- */

static bool read_point(const jv *msg, const char *key, scrolld_point *p) {
    const jv *o = json_object(msg, key);
    return o && json_number(o, "x", &p->x) && json_number(o, "y", &p->y);
}

static bool read_size(const jv *msg, const char *key, scrolld_size *s) {
    const jv *o = json_object(msg, key);
    return o && json_number(o, "width", &s->width) && json_number(o, "height", &s->height);
}

static bool read_rows(const jv *v, scrolld_rows *rows) {
    if (v == NULL || v->type != J_OBJECT) return false;
    const jv *first = json_get(v, "first"), *last = json_get(v, "last");
    if (first == NULL || last == NULL) return false;
    if (first->type == J_NULL || last->type == J_NULL) {
        rows->any = false;
        rows->first = rows->last = 0;
        return true;
    }
    rows->any = true;
    return json_int(first, &rows->first) && json_int(last, &rows->last);
}

/* One axis of `indicators`, absent for an axis the container does not scroll. */
static bool read_indicator(const jv *indicators, const char *axis, scrolld_indicator *out) {
    const jv *v = indicators ? json_get(indicators, axis) : NULL;
    if (v == NULL || v->type == J_NULL) return true;
    const jv *visible = json_get(v, "visible");
    if (!json_number(v, "offset", &out->offset) || !json_number(v, "length", &out->length) ||
        visible == NULL || visible->type != J_BOOL)
        return false;
    out->visible = visible->boolean;
    out->present = true;
    return true;
}

/* docs/design.md §21 and §22: the indicators, the pinned row, whether a refresh runs. */
static bool read_app_bars(const jv *msg, scrolld_state *s) {
    const jv *indicators = json_get(msg, "indicators");
    if (indicators != NULL && indicators->type != J_OBJECT && indicators->type != J_NULL) return false;
    if (!read_indicator(indicators, "x", &s->indicator_x) || !read_indicator(indicators, "y", &s->indicator_y)) return false;
    const jv *sticky = json_get(msg, "stickyRow");
    if (sticky != NULL && sticky->type != J_NULL) {
        if (!json_int(json_get(sticky, "row"), &s->sticky_row) || !json_number(sticky, "top", &s->sticky_row_top)) return false;
        s->has_sticky_row = true;
    }
    const jv *refreshing = json_get(msg, "refreshing");
    s->refreshing = refreshing != NULL && refreshing->type == J_BOOL && refreshing->boolean;
    return true;
}

/* A state message as a scrolld_state (strings point into the parsed line). */
static bool read_state(const jv *msg, scrolld_state *s) {
    memset(s, 0, sizeof *s);
    s->container = json_string(msg, "container");
    const char *phase = json_string(msg, "phase");
    const jv *insets = json_object(msg, "contentInsets");
    if (s->container == NULL || phase == NULL || insets == NULL) return false;
    if (!json_uint(json_get(msg, "seq"), &s->seq) || !json_int(json_get(msg, "t"), &s->t)) return false;
    s->phase = phase_of(phase);
    s->phase_name = phase;
    if (!read_point(msg, "contentOffset", &s->content_offset) || !read_point(msg, "velocity", &s->velocity) ||
        !read_size(msg, "contentSize", &s->content_size) || !read_size(msg, "containerSize", &s->container_size))
        return false;
    if (!json_number(insets, "top", &s->content_insets.top) || !json_number(insets, "leading", &s->content_insets.leading) ||
        !json_number(insets, "bottom", &s->content_insets.bottom) || !json_number(insets, "trailing", &s->content_insets.trailing))
        return false;
    const jv *header = json_get(msg, "header");
    if (header != NULL && header->type != J_NULL) {
        if (!json_number(header, "height", &s->header_height) || !json_number(header, "progress", &s->header_progress)) return false;
        s->has_header = true;
    }
    const jv *rows = json_get(msg, "visibleRows");
    if (rows != NULL && rows->type != J_NULL) {
        if (!read_rows(rows, &s->visible_rows)) return false;
        s->has_visible_rows = true;
    }
    const jv *paused = json_get(msg, "paused");
    s->paused = paused != NULL && paused->type == J_BOOL && paused->boolean;
    return read_app_bars(msg, s);
}

static void read_value(const jv *v, scrolld_value *out) {
    memset(out, 0, sizeof *out);
    if (v == NULL || v->type == J_NULL) return;
    switch (v->type) {
    case J_BOOL: out->type = SCROLLD_VALUE_BOOL; out->boolean = v->boolean; return;
    case J_NUMBER: out->type = SCROLLD_VALUE_NUMBER; out->number = v->number; return;
    case J_STRING: out->type = SCROLLD_VALUE_STRING; out->string = v->str; return;
    case J_OBJECT:
        if (read_rows(v, &out->rows)) { out->type = SCROLLD_VALUE_ROWS; return; }
        if (json_int(json_get(v, "device"), &out->source_device) && json_string(v, "kind")) {
            out->type = SCROLLD_VALUE_SOURCE;
            out->source_name = json_string(v, "name");
            out->source_kind = json_string(v, "kind");
            return;
        }
        out->type = SCROLLD_VALUE_OTHER;
        return;
    default: out->type = SCROLLD_VALUE_OTHER; return;
    }
}

static void keep_value(owned_value *o, const scrolld_value *v) {
    free_owned(o);
    o->v = *v;
    if (v->string) o->v.string = o->string = sdup(v->string);
    if (v->source_name) o->v.source_name = o->name = sdup(v->source_name);
    if (v->source_kind) o->v.source_kind = o->kind = sdup(v->source_kind);
}

/* Where a reconnection puts a container back (docs/decisions.md, "Where a client puts a
 * container back"): its last resting offset or, for a bottom-anchored one last seen following
 * its end (within 0.5 px of it, beyond it, or moving towards it: a log whose rows arrive faster
 * than it settles may never rest), its new end, where the daemon's anchor puts it. */
static void note_rest(scrolld *c, const scrolld_state *s) {
    desc *d = find_desc(c, s->container);
    if (d == NULL) return;
    bool moving = s->phase != SCROLLD_PHASE_IDLE;
    if (d->anchored_at_bottom) {
        double lo = -s->content_insets.top;
        double hi = s->content_size.height - s->container_size.height + s->content_insets.bottom;
        if (hi < lo) hi = lo;
        if (s->content_offset.y >= hi - 0.5 || (moving && s->velocity.y > 0)) {
            d->following = true;
            return;
        }
        if (moving && d->following) return;
        d->following = false;
    }
    if (moving) return;
    d->has_rest = true;
    d->rest_x = s->content_offset.x;
    d->rest_y = s->content_offset.y;
}

/* A scrollTo this client made rests where it aims, known without a subscription and before
 * it gets there (as the Python client does): an offset on either axis (the daemon clamps it
 * again when it is put back), or, for a bottom-anchored container, its bottom edge: its end,
 * following. Where a row or another edge puts it is known from its states only. */
static void note_aim(scrolld *c, const char *container, const scrolld_position *pos) {
    desc *d = find_desc(c, container);
    if (d == NULL) return;
    if (pos->edge != NULL && strcmp(pos->edge, "bottom") == 0 && d->anchored_at_bottom) {
        d->following = true;
        return;
    }
    if (pos->has_row || pos->edge != NULL) return;
    if (!d->has_rest) d->rest_x = d->rest_y = 0;
    if (pos->has_x) d->rest_x = pos->x;
    if (pos->has_y) d->rest_y = pos->y;
    d->has_rest = true;
    d->following = false;
}

/* A subscription's state as it is read from the socket, in the order of the daemon's lines:
 * where the container rests is noted then, not when a dispatch hands over a state kept while
 * a request waited, or a state published before a scrollTo would undo what that scrollTo's
 * reply noted (note_aim). */
static void note_state_read(scrolld *c, const jv *msg) {
    scrolld_state s;
    if (!read_state(msg, &s) || find_sub(c, s.container) == NULL) return;
    note_rest(c, &s);
}

/* A subscription's state, an observation or a removal, handed to the callbacks; `fresh`: just
 * read (its rest not noted yet), not kept for this dispatch. */
static void deliver(scrolld *c, const jv *msg, const char *type, bool fresh) {
    if (strcmp(type, "state") == 0) {
        scrolld_state s;
        if (!read_state(msg, &s)) return;
        subscription *sub = find_sub(c, s.container);
        if (sub == NULL) return;  /* a state that raced an unsubscribe */
        s.resumed = sub->resuming;
        sub->resuming = false;
        if (fresh) note_rest(c, &s);
        if (c->on_state) c->on_state(c, &s, c->on_state_data);
    } else if (strcmp(type, "observation") == 0) {
        uint64_t id;
        if (!json_uint(json_get(msg, "id"), &id)) return;
        observation *o = find_obs(c, id);
        if (o == NULL) return;
        scrolld_observation ob = {.id = id, .container = o->container, .of = o->of};
        if (!json_uint(json_get(msg, "seq"), &ob.seq) || !json_int(json_get(msg, "t"), &ob.t)) return;
        read_value(json_get(msg, "new"), &ob.new_value);
        if (o->resuming) ob.old_value = o->last.v;
        else read_value(json_get(msg, "old"), &ob.old_value);
        ob.resumed = o->resuming;
        o->resuming = false;
        if (c->on_observation) c->on_observation(c, &ob, c->on_observation_data);
        o = find_obs(c, id);  /* the callback may have ended it */
        if (o != NULL) keep_value(&o->last, &ob.new_value);
    } else if (strcmp(type, "removed") == 0) {
        const char *container = json_string(msg, "container");
        if (container == NULL) return;
        subscription *sub = find_sub(c, container);
        if (sub != NULL && !sub->wait) drop_sub(c, container);
        for (observation **p = &c->obs; *p != NULL;) {
            if (strcmp((*p)->container, container) == 0 && !(*p)->wait) {
                observation *o = *p;
                *p = o->next;
                free_obs(o);
            } else p = &(*p)->next;
        }
        forget(c, container);
        if (c->on_removed) c->on_removed(c, container, c->on_removed_data);
    }
}

/* A reply's effect on what this client restores, and its result for a waiting request.
 * Returns whether the message is also a stream's (a subscription's first state, an
 * observation's first value). */
static bool handle_reply(scrolld *c, pending *p, const jv *msg, const char *type, arena *a) {
    waiter *w = p->w;
    if (strcmp(type, "error") == 0) {
        if (w != NULL) error_from_reply(&w->error, msg);
        if (p->op == OP_SUBSCRIBE_RESTORE && p->container != NULL) {
            drop_sub(c, p->container);
            defer_removed(c, p->container);
        } else if (p->op == OP_OBSERVE_RESTORE) {
            observation *o = find_obs(c, p->id);
            if (o != NULL) {
                defer_removed(c, o->container);
                drop_obs(c, p->id);
            }
        }
        if (w != NULL) w->done = true;
        return false;
    }
    bool stream = false;
    int code = 0;
    switch (p->op) {
    case OP_CONFIGURE: {
        desc *d = find_desc(c, p->container);
        if (d == NULL && (d = calloc(1, sizeof *d)) != NULL) {
            if ((d->name = sdup(p->container)) == NULL) { free(d); d = NULL; }
            else { d->next = c->descs; c->descs = d; }
        }
        if (d != NULL) desc_fold(d, p->settings, a);
        break;
    }
    case OP_PAUSE: name_add(&c->paused, p->container); break;
    case OP_RESUME: name_remove(&c->paused, p->container); break;
    case OP_FOCUS:
        free(c->focus);
        c->focus = sdup(p->container);
        break;
    case OP_REMOVE: forget(c, p->container); break;
    case OP_SUBSCRIBE:
        if (strcmp(type, "state") != 0 && strcmp(type, "waiting") != 0) { code = SCROLLD_E_BAD_REPLY; break; }
        {
            subscription *s = find_sub(c, p->container);
            if (s == NULL && (s = calloc(1, sizeof *s)) != NULL) {
                if ((s->container = sdup(p->container)) == NULL) { free(s); s = NULL; }
                else { s->next = c->subs; c->subs = s; }
            }
            if (s != NULL) { s->rate = p->rate; s->wait = p->wait; }
        }
        stream = strcmp(type, "state") == 0;
        break;
    case OP_SUBSCRIBE_RESTORE: stream = strcmp(type, "state") == 0; break;
    case OP_OBSERVE:
        if (strcmp(type, "observation") != 0 && strcmp(type, "waiting") != 0) { code = SCROLLD_E_BAD_REPLY; break; }
        {
            observation *o = calloc(1, sizeof *o);
            if (o != NULL) {
                o->id = p->id;
                o->container = sdup(p->container);
                o->of = p->of; p->of = NULL;
                o->options = p->options; p->options = NULL;
                o->wait = p->wait;
                o->next = c->obs;
                c->obs = o;
            }
        }
        stream = strcmp(type, "observation") == 0;
        break;
    case OP_OBSERVE_RESTORE: stream = strcmp(type, "observation") == 0; break;
    case OP_GET:
        if (strcmp(type, "state") != 0) { code = SCROLLD_E_BAD_REPLY; break; }
        if (w != NULL) {
            scrolld_state *s = w->out;
            if (!read_state(msg, s)) { code = SCROLLD_E_BAD_REPLY; break; }
            note_rest(c, s);
            s->container = w->container;
            /* The line's memory goes with the call: a known phase's name is static, another is
             * kept by the client until the next get (as the state callback, it is passed on). */
            if (s->phase != SCROLLD_PHASE_OTHER) s->phase_name = phase_names[s->phase];
            else {
                free(c->get_phase);
                if ((c->get_phase = sdup(s->phase_name)) == NULL) { code = SCROLLD_E_NO_MEMORY; break; }
                s->phase_name = c->get_phase;
            }
        }
        break;
    case OP_DEVICES: {
        if (strcmp(type, "devices") != 0) { code = SCROLLD_E_BAD_REPLY; break; }
        if (w != NULL) code = devices_read(msg, w->out);
        break;
    }
    case OP_RELOAD:
        if (strcmp(type, "reloaded") != 0) { code = SCROLLD_E_BAD_REPLY; break; }
        if (w != NULL && w->out != NULL) {
            scrolld_reload_result *r = w->out;
            const jv *ok = json_get(msg, "ok");
            r->ok = ok != NULL && ok->type == J_BOOL && ok->boolean;
            const char *file = json_string(msg, "file"), *message = json_string(msg, "message");
            copy_text(r->file, sizeof r->file, file ? file : "");
            copy_text(r->message, sizeof r->message, message ? message : "");
        }
        break;
    case OP_PING:
        if (strcmp(type, "pong") != 0) code = SCROLLD_E_BAD_REPLY;
        break;
    default: break;
    }
    if (w != NULL) {
        if (code == SCROLLD_E_NO_MEMORY) fail(&w->error, code, "out of memory");
        else if (code != 0) fail(&w->error, code, "unexpected reply of type %s", type);
        else w->error.code = 0;
        w->done = true;
    }
    return stream;
}

/* One line from the daemon. Deferring (a request waits): replies are handled, the rest is
 * kept for the next dispatch. */
static void process_line(scrolld *c, const char *line, size_t len, bool defer, bool fresh) {
    arena *a = &c->arenas[defer ? 1 : 0];
    arena_reset(a);
    const char *why = NULL;
    jv *msg = json_parse(a, line, len, &why);
    if (msg == NULL || msg->type != J_OBJECT) {
        /* (a kept line was read once already: only a fresh one can fail here) */
        if (fresh) unreadable(c, msg == NULL ? why : "JSON that is not an object");
        return;
    }
    /* A valid object of a type this version does not know is skipped: a newer daemon's. */
    const char *type = json_string(msg, "type");
    if (type == NULL) return;
    if (fresh && c->st == ST_WELCOME) {
        handle_welcome(c, msg);
        return;
    }
    uint64_t id;
    const jv *idv = json_get(msg, "id");
    if (idv != NULL && json_uint(idv, &id)) {
        pending *p = take_pending(c, id);
        if (p != NULL) {
            bool stream = handle_reply(c, p, msg, type, a);
            free_pending(p);
            if (!stream) return;
        }
    } else if (idv == NULL && strcmp(type, "error") == 0) {
        /* A line the daemon could not read as far as its id (docs/protocol.md): the oldest
         * request's, and the daemon closes the connection. */
        pending *p = c->pending;
        if (p != NULL) {
            c->pending = p->next;
            if (p->w != NULL) { error_from_reply(&p->w->error, msg); p->w->done = true; }
            free_pending(p);
        }
        return;
    }
    bool is_state = strcmp(type, "state") == 0;
    if (!is_state && strcmp(type, "observation") != 0 && strcmp(type, "removed") != 0) return;
    if (defer) {
        if (is_state) note_state_read(c, msg);
        deferred *d = defer_new(c, D_LINE, line, len);
        if (d != NULL) d->is_state = is_state;
        return;
    }
    deliver(c, msg, type, fresh);
}

static void handle_deferred(scrolld *c, deferred *d) {
    if (d->kind == D_LINE) {
        process_line(c, d->data, d->len, false, false);
        return;
    }
    if (d->kind == D_DISCONNECT) {
        if (d->flag) {
            for (subscription *s = c->subs; s != NULL; s = s->next) s->resuming = true;
            for (observation *o = c->obs; o != NULL; o = o->next) o->resuming = true;
        } else {
            drop_sub(c, NULL);
            while (c->obs != NULL) {
                observation *o = c->obs;
                c->obs = o->next;
                free_obs(o);
            }
            c->announced_end = true;
        }
        if (c->on_disconnect) c->on_disconnect(c, &d->error, d->flag, c->on_disconnect_data);
        return;
    }
    if (c->on_connect) c->on_connect(c, d->flag, c->on_connect_data);
}

/* Reads and handles what is there (a request waits: nothing is delivered). */
static void pump_deferring(scrolld *c) {
    for (int reads = 0; reads < READS_PER_DISPATCH; reads++) {
        char *line;
        size_t len;
        while (next_line(c, &line, &len)) process_line(c, line, len, true, true);
        if (read_some(c) <= 0) break;
    }
    char *line;
    size_t len;
    while (next_line(c, &line, &len)) process_line(c, line, len, true, true);
}

/* Waits up to `ms` for the socket or the timer, then handles what came. Returns false when a
 * signal handler interrupted the wait (EINTR) and the client is SCROLLD_INTERRUPTIBLE: the
 * caller gives up at once. Otherwise a signal only ends this step, and the caller waits again
 * for what is left of its time (scrolld.h says why that is the default). */
static bool wait_step(scrolld *c, int ms) {
    struct pollfd fds[2] = {{.fd = c->tfd, .events = POLLIN}, {.fd = c->sock, .events = POLLIN}};
    if (c->sock >= 0 && c->out_len > 0) fds[1].events |= POLLOUT;
    int n = poll(fds, c->sock >= 0 ? 2 : 1, ms);
    if (n < 0 && errno == EINTR && (c->flags & SCROLLD_INTERRUPTIBLE)) return false;
    if (n <= 0) return true;
    if (fds[0].revents & POLLIN) timer_fired(c);
    if (c->sock >= 0 && c->out_len > 0) flush(c);
    pump_deferring(c);
    return true;
}

/* ---- public: the connection ------------------------------------------------------------- */

#define ENTER(c) locale_t saved_locale_ = uselocale((c)->cloc)
#define LEAVE() uselocale(saved_locale_)

size_t scrolld_default_socket(char *buf, size_t size) {
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    int n;
    if (runtime != NULL && runtime[0] != '\0') n = snprintf(buf, size, "%s/scrolld/scrolld.sock", runtime);
    else n = snprintf(buf, size, "/tmp/scrolld-%u/scrolld.sock", (unsigned)getuid());
    return n < 0 ? 0 : (size_t)n;
}

static void free_client(scrolld *c) {
    if (c->sock >= 0) close(c->sock);
    if (c->epfd >= 0) close(c->epfd);
    if (c->evfd >= 0) close(c->evfd);
    if (c->tfd >= 0) close(c->tfd);
    while (c->pending != NULL) {
        pending *p = c->pending;
        c->pending = p->next;
        free_pending(p);
    }
    drop_sub(c, NULL);
    while (c->obs != NULL) {
        observation *o = c->obs;
        c->obs = o->next;
        free_obs(o);
    }
    while (c->descs != NULL) {
        desc *d = c->descs;
        c->descs = d->next;
        desc_free(d);
    }
    name_remove(&c->paused, NULL);
    free(c->focus);
    free(c->get_phase);
    deferred *d;
    while ((d = defer_pop(c)) != NULL) free(d);
    free_welcome(c);
    arena_free(&c->arenas[0]);
    arena_free(&c->arenas[1]);
    if (c->cloc != (locale_t)0) freelocale(c->cloc);
    free(c->in);
    free(c->out);
    free(c->path);
    free(c);
}

scrolld *scrolld_connect_timeout(const char *path, unsigned flags, int milliseconds, scrolld_error *err) {
    if (milliseconds <= 0) {
        fail(err, SCROLLD_E_INVALID_VALUE, "connect: the timeout must be positive, not %d ms", milliseconds);
        return NULL;
    }
    const unsigned known = SCROLLD_RECONNECT | SCROLLD_NO_RESTORE_OFFSETS | SCROLLD_INTERRUPTIBLE;
    if (flags & ~known) {
        /* a subscribe flag passed here, or a newer header's: refused rather than ignored */
        fail(err, SCROLLD_E_INVALID_VALUE, "connect: unknown flags 0x%x (known: SCROLLD_RECONNECT, SCROLLD_NO_RESTORE_OFFSETS, SCROLLD_INTERRUPTIBLE)", flags & ~known);
        return NULL;
    }
    scrolld *c = calloc(1, sizeof *c);
    if (c == NULL) { fail(err, SCROLLD_E_NO_MEMORY, "out of memory"); return NULL; }
    c->sock = c->epfd = c->evfd = c->tfd = -1;
    c->flags = flags;
    c->timeout_ms = milliseconds;
    c->dq_tail = &c->dq;
    arena_init(&c->arenas[0], ARENA_LIMIT);
    arena_init(&c->arenas[1], ARENA_LIMIT);
    if (path == NULL) {
        char buf[4096];
        size_t n = scrolld_default_socket(buf, sizeof buf);
        c->path = n < sizeof buf ? sdup(buf) : NULL;
    } else {
        c->path = sdup(path);
    }
    c->cloc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    c->epfd = epoll_create1(EPOLL_CLOEXEC);
    c->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    c->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (c->path == NULL || c->cloc == (locale_t)0 || c->epfd < 0 || c->evfd < 0 || c->tfd < 0) {
        fail(err, SCROLLD_E_NO_MEMORY, "cannot set up the client: %s", strerror(errno));
        free_client(c);
        return NULL;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = c->evfd};
    epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->evfd, &ev);
    ev.data.fd = c->tfd;
    epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->tfd, &ev);

    ENTER(c);
    c->initial = true;
    /* One budget for getting in (a busy daemon's full queue) and for the welcome. */
    int64_t deadline = now_ms() + c->timeout_ms;
    c->sock = open_socket(c, deadline, err);
    if (c->sock < 0) {
        LEAVE();
        free_client(c);
        return NULL;
    }
    ev.data.fd = c->sock;
    epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->sock, &ev);
    c->st = ST_WELCOME;
    bool interrupted = false;
    while (c->st == ST_WELCOME && now_ms() < deadline && !interrupted)
        interrupted = !wait_step(c, (int)(deadline - now_ms()));
    LEAVE();
    if (c->st != ST_CONNECTED) {
        if (interrupted) fail(err, SCROLLD_E_INTERRUPTED, "interrupted by a signal while waiting for the welcome of %s", c->path);
        else if (c->st == ST_WELCOME) fail(err, SCROLLD_E_TIMEOUT, "no welcome from %s within %d ms", c->path, c->timeout_ms);
        else if (err != NULL && c->connect_error.code != 0) *err = c->connect_error;
        else fail(err, SCROLLD_E_DISCONNECTED, "scrolld at %s closed the connection before its welcome", c->path);
        free_client(c);
        return NULL;
    }
    /* whatever came with the welcome is delivered by the first dispatch */
    c->initial = false;
    if (c->in_len > c->in_start) signal_work(c);
    succeed(err);
    return c;
}

scrolld *scrolld_connect(const char *path, unsigned flags, scrolld_error *err) {
    return scrolld_connect_timeout(path, flags, DEFAULT_TIMEOUT_MS, err);
}

/* From a callback (the only code that runs inside a dispatch): the connection closes now (the
 * daemon sees this client go) and no callback runs any more; the dispatch frees the client as
 * it returns, since it is still reading it. A second close in the same callback does nothing. */
void scrolld_close(scrolld *c) {
    if (c == NULL || c->closed) return;
    if (!c->dispatching) {
        free_client(c);
        return;
    }
    c->closed = true;
    if (c->sock >= 0) {
        epoll_ctl(c->epfd, EPOLL_CTL_DEL, c->sock, NULL);
        close(c->sock);
        c->sock = -1;
    }
    c->st = ST_DEAD;
    arm_timer(c, -1);
}

int scrolld_fd(const scrolld *c) { return c && !c->closed ? c->epfd : -1; }

/* (0 or less is ignored, documented: the timeout stays as it was) */
void scrolld_set_timeout(scrolld *c, int ms) { if (c && ms > 0) c->timeout_ms = ms; }

bool scrolld_connected(const scrolld *c) { return c && c->st == ST_CONNECTED; }
const char *scrolld_server(const scrolld *c) { return c && c->server ? c->server : ""; }
const char *scrolld_instance(const scrolld *c) { return c && c->instance ? c->instance : ""; }

bool scrolld_has_feature(const scrolld *c, const char *feature) {
    if (c == NULL || feature == NULL) return false;
    for (size_t i = 0; i < c->nfeatures; i++)
        if (strcmp(c->features[i], feature) == 0) return true;
    return false;
}

size_t scrolld_container_count(const scrolld *c) { return c ? c->ncontainers : 0; }
const char *scrolld_container_name(const scrolld *c, size_t i) { return c && i < c->ncontainers ? c->containers[i] : NULL; }

/* A NULL client (or one closed by its callback): nothing happens, as every other function
 * takes one. */
#define USABLE(c) ((c) != NULL && !(c)->closed)
void scrolld_on_state(scrolld *c, scrolld_state_cb f, void *data) { if (USABLE(c)) { c->on_state = f; c->on_state_data = data; } }
void scrolld_on_observation(scrolld *c, scrolld_observation_cb f, void *data) { if (USABLE(c)) { c->on_observation = f; c->on_observation_data = data; } }
void scrolld_on_removed(scrolld *c, scrolld_removed_cb f, void *data) { if (USABLE(c)) { c->on_removed = f; c->on_removed_data = data; } }
void scrolld_on_disconnect(scrolld *c, scrolld_disconnect_cb f, void *data) { if (USABLE(c)) { c->on_disconnect = f; c->on_disconnect_data = data; } }
void scrolld_on_connect(scrolld *c, scrolld_connect_cb f, void *data) { if (USABLE(c)) { c->on_connect = f; c->on_connect_data = data; } }

int scrolld_dispatch(scrolld *c) {
    if (c == NULL || c->closed) return SCROLLD_E_DISCONNECTED;
    if (c->dispatching) return 0;  /* from a callback: the outer dispatch goes on */
    ENTER(c);
    c->dispatching = true;
    uint64_t count;
    if (read(c->evfd, &count, sizeof count) < 0) { /* nothing was signalled */ }
    c->signalled = false;
    c->epoch++;
    struct pollfd t = {.fd = c->tfd, .events = POLLIN};
    if (poll(&t, 1, 0) > 0) timer_fired(c);
    if (c->out_len > 0) flush(c);
    /* One call is bounded: what was kept before it, what it reads itself (READS_PER_DISPATCH
     * reads at most) and what that makes happen. What requests made by its callbacks keep is
     * the next call's (the descriptor stays readable), and nothing after it is read before it:
     * a callback that makes a request for every state of a busy container does not keep one
     * dispatch going for ever. */
    int reads = 0;
    for (;;) {
        if (c->closed) break;  /* a callback closed the client: nothing more runs */
        if (c->dq != NULL) {
            if (c->dq->held == c->epoch) break;
            deferred *d = defer_pop(c);
            handle_deferred(c, d);
            free(d);
            continue;
        }
        char *line;
        size_t len;
        if (next_line(c, &line, &len)) {
            process_line(c, line, len, false, true);
            continue;
        }
        if (c->dq != NULL) continue;  /* a line over the limit ended the connection: say so now */
        if (c->sock >= 0 && reads++ < READS_PER_DISPATCH && read_some(c) != 0) continue;
        break;
    }
    if (c->closed) {
        c->dispatching = false;
        LEAVE();
        free_client(c);
        return SCROLLD_E_DISCONNECTED;
    }
    if (c->dq != NULL) signal_work(c);
    else if (c->signalled) {
        if (read(c->evfd, &count, sizeof count) < 0) { /* already clear */ }
        c->signalled = false;
    }
    c->dispatching = false;
    LEAVE();
    return c->st == ST_DEAD && c->announced_end ? SCROLLD_E_DISCONNECTED : 0;
}

/* ---- requests --------------------------------------------------------------------------- */

/* Waits for a connection (reconnecting) until the deadline. */
static int wait_connected(scrolld *c, int64_t deadline, scrolld_error *err) {
    while (c->st == ST_BACKOFF || c->st == ST_WELCOME) {
        int64_t left = deadline - now_ms();
        if (left <= 0) break;
        if (!wait_step(c, (int)left))
            return fail(err, SCROLLD_E_INTERRUPTED, "interrupted by a signal while waiting for the reconnection to scrolld at %s", c->path);
    }
    if (c->st == ST_CONNECTED) return 0;
    if (c->st != ST_DEAD)  /* reconnecting: the connection did not come back in time */
        return fail(err, SCROLLD_E_TIMEOUT, "not connected to scrolld at %s (waited %d ms for a reconnection)", c->path, c->timeout_ms);
    return fail(err, SCROLLD_E_DISCONNECTED, "not connected to scrolld at %s", c->path);
}

/* Sends the request in b (begun with begin(), members added) and waits for its reply. */
static int call(scrolld *c, jbuf *b, uint64_t id, pending *setup, waiter *w, scrolld_error *err) {
    jb_lit(b, "}\n");
    int code = 0;
    c->in_call++;
    if (b->failed) {
        code = fail(err, b->failed, "%s", b->why ? b->why : "cannot write the request");
        goto out;
    }
    if (b->len - 1 > MAX_REQUEST) {
        code = fail(err, SCROLLD_E_TOO_LARGE, "%zu bytes, more than the %d a request may have", b->len - 1, MAX_REQUEST);
        goto out;
    }
    int64_t deadline = now_ms() + c->timeout_ms;
    /* A connection that ended while nobody dispatched is noticed before the request goes. */
    if (c->st == ST_CONNECTED) pump_deferring(c);
    if ((code = wait_connected(c, deadline, err)) != 0) goto out;
    if (c->out_len + b->len > MAX_OUTPUT) {
        code = fail(err, SCROLLD_E_TIMEOUT, "scrolld is not taking requests (its socket is full)");
        goto out;
    }
    pending *p = add_pending(c, id, setup->op, setup->container);
    if (p == NULL || !queue_line(c, b->data, b->len)) {
        if (p != NULL) free_pending(take_pending(c, id));
        code = fail(err, SCROLLD_E_NO_MEMORY, "out of memory");
        goto out;
    }
    p->w = w;
    p->settings = setup->settings;
    p->rate = setup->rate;
    p->wait = setup->wait;
    p->options = setup->options; setup->options = NULL;
    p->of = setup->of; setup->of = NULL;
    flush(c);
    pump_deferring(c);
    bool interrupted = false;
    while (!w->done && !interrupted) {
        int64_t left = deadline - now_ms();
        if (left <= 0) break;
        interrupted = !wait_step(c, (int)left);
    }
    if (!w->done) {
        /* Its reply, if it ever comes, is dropped; the line stays queued (the daemon would
         * read a cut one as the start of the next). */
        pending *gone = take_pending(c, id);
        if (gone != NULL) free_pending(gone);
        if (interrupted)
            code = fail(err, SCROLLD_E_INTERRUPTED, "interrupted by a signal while waiting for scrolld's reply (the request may or may not be carried out)");
        else
            code = fail(err, SCROLLD_E_TIMEOUT, "no reply from scrolld within %d ms", c->timeout_ms);
        goto out;
    }
    code = w->error.code;
    if (code != 0 && err != NULL) *err = w->error;
    else if (code == 0) succeed(err);
out:
    c->in_call--;
    free(setup->options);
    free(setup->of);
    jb_free(b);
    return code;
}

static bool check_client(scrolld *c, scrolld_error *err, int *code) {
    if (c == NULL) { *code = fail(err, SCROLLD_E_DISCONNECTED, "no client"); return false; }
    if (c->closed) { *code = fail(err, SCROLLD_E_DISCONNECTED, "the client is closed (scrolld_close)"); return false; }
    if (c->st == ST_DEAD) { *code = fail(err, SCROLLD_E_DISCONNECTED, "not connected to scrolld at %s", c->path); return false; }
    return true;
}

static int simple(scrolld *c, const char *op, enum op kind, const char *container, bool container_key, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, op);
    if (container_key) {
        jb_key(&b, "container");
        if (container == NULL) jb_lit(&b, "null");
        else jb_cstring(&b, container);
    }
    waiter w = {0};
    pending setup = {.op = kind, .container = (char *)container};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_pause(scrolld *c, const char *container, scrolld_error *err) { return simple(c, "pause", OP_PAUSE, container, true, err); }
int scrolld_resume(scrolld *c, const char *container, scrolld_error *err) { return simple(c, "resume", OP_RESUME, container, true, err); }
int scrolld_remove(scrolld *c, const char *container, scrolld_error *err) { return simple(c, "remove", OP_REMOVE, container, true, err); }
int scrolld_focus(scrolld *c, const char *container, scrolld_error *err) { return simple(c, "focus", OP_FOCUS, container, true, err); }
int scrolld_flash_indicators(scrolld *c, const char *container, scrolld_error *err) {
    return simple(c, "flashIndicators", OP_OK, container, true, err);
}
int scrolld_begin_refresh(scrolld *c, const char *container, scrolld_error *err) {
    return simple(c, "beginRefresh", OP_OK, container, true, err);
}
int scrolld_end_refresh(scrolld *c, const char *container, scrolld_error *err) {
    return simple(c, "endRefresh", OP_OK, container, true, err);
}

int scrolld_unsubscribe(scrolld *c, const char *container, scrolld_error *err) {
    if (c != NULL) drop_sub(c, container);  /* its states stop here at once */
    return simple(c, "unsubscribe", OP_UNSUBSCRIBE, container, container != NULL, err);
}

int scrolld_ping(scrolld *c, double *seconds, scrolld_error *err) {
    struct timespec a, z;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int code = simple(c, "ping", OP_PING, NULL, false, err);
    clock_gettime(CLOCK_MONOTONIC, &z);
    if (code == 0 && seconds != NULL) *seconds = (double)(z.tv_sec - a.tv_sec) + (double)(z.tv_nsec - a.tv_nsec) / 1e9;
    return code;
}

static void write_animation(jbuf *b, const scrolld_animation *a) {
    if (a == NULL || a->kind == SCROLLD_ANIMATION_DEFAULT) return;
    jb_key(b, "animation");
    switch (a->kind) {
    case SCROLLD_ANIMATION_NONE: jb_lit(b, "\"none\""); break;
    case SCROLLD_ANIMATION_SMOOTH: jb_lit(b, "\"smooth\""); break;
    case SCROLLD_ANIMATION_SNAPPY: jb_lit(b, "\"snappy\""); break;
    case SCROLLD_ANIMATION_BOUNCY: jb_lit(b, "\"bouncy\""); break;
    case SCROLLD_ANIMATION_SPRING:
        jb_lit(b, "{\"spring\":{\"duration\":");
        jb_number(b, a->duration);
        jb_lit(b, ",\"bounce\":");
        jb_number(b, a->bounce);
        jb_lit(b, "}}");
        break;
    default:
        if (!b->failed) { b->failed = SCROLLD_E_INVALID_VALUE; b->why = "unknown animation kind"; }
    }
}

int scrolld_configure(scrolld *c, const char *container, const scrolld_settings *settings, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "configure");
    jb_key(&b, "container");
    jb_cstring(&b, container);
    char why[400] = "bad settings";
    int wrote = settings_write(settings, &b, &c->arenas[1], why, sizeof why);
    if (wrote != 0) {
        jb_free(&b);
        LEAVE();
        return fail(err, wrote, "configure: %s", why);
    }
    waiter w = {0};
    pending setup = {.op = OP_CONFIGURE, .container = (char *)container, .settings = settings};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_scroll_to(scrolld *c, const char *container, const scrolld_position *pos,
                      const scrolld_animation *animation, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    if (pos == NULL) return fail(err, SCROLLD_E_INVALID_VALUE, "scrollTo: no position");
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "scrollTo");
    jb_key(&b, "container"); jb_cstring(&b, container);
    if (pos->has_x) { jb_key(&b, "x"); jb_number(&b, pos->x); }
    if (pos->has_y) { jb_key(&b, "y"); jb_number(&b, pos->y); }
    if (pos->has_row) { jb_key(&b, "row"); jb_int(&b, pos->row); }
    if (pos->anchor != NULL) { jb_key(&b, "anchor"); jb_cstring(&b, pos->anchor); }
    else if (pos->has_anchor_fraction) { jb_key(&b, "anchor"); jb_number(&b, pos->anchor_fraction); }
    if (pos->edge != NULL) { jb_key(&b, "edge"); jb_cstring(&b, pos->edge); }
    write_animation(&b, animation);
    waiter w = {0};
    pending setup = {.op = OP_OK, .container = (char *)container};
    code = call(c, &b, id, &setup, &w, err);
    if (code == SCROLLD_OK) note_aim(c, container, pos);
    LEAVE();
    return code;
}

int scrolld_scroll_by(scrolld *c, const char *container, double dx, double dy,
                      const scrolld_animation *animation, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "scrollBy");
    jb_key(&b, "container"); jb_cstring(&b, container);
    jb_key(&b, "dx"); jb_number(&b, dx);
    jb_key(&b, "dy"); jb_number(&b, dy);
    write_animation(&b, animation);
    waiter w = {0};
    pending setup = {.op = OP_OK, .container = (char *)container};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_get(scrolld *c, const char *container, scrolld_state *state, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    if (state == NULL) return fail(err, SCROLLD_E_INVALID_VALUE, "get: no state to fill");
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "get");
    jb_key(&b, "container"); jb_cstring(&b, container);
    waiter w = {.out = state, .container = container};
    pending setup = {.op = OP_GET, .container = (char *)container};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_subscribe(scrolld *c, const char *container, double rate, unsigned flags, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    if (flags & ~(unsigned)SCROLLD_WAIT)
        return fail(err, SCROLLD_E_INVALID_VALUE, "subscribe: unknown flags 0x%x (SCROLLD_WAIT is the only one)", flags & ~(unsigned)SCROLLD_WAIT);
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "subscribe");
    jb_key(&b, "container"); jb_cstring(&b, container);
    if (rate != 0) { jb_key(&b, "rate"); jb_number(&b, rate); }
    if (flags & SCROLLD_WAIT) { jb_key(&b, "wait"); jb_bool(&b, true); }
    waiter w = {0};
    pending setup = {.op = OP_SUBSCRIBE, .container = (char *)container, .rate = rate, .wait = (flags & SCROLLD_WAIT) != 0};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_observe(scrolld *c, const char *container, const char *of,
                    const scrolld_observe_options *o, uint64_t *observation_id, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    jbuf opts = {0};
    scrolld_observe_options none = {0};
    if (o == NULL) o = &none;
    if (o->has_step) { jb_lit(&opts, ",\"step\":"); jb_number(&opts, o->step); }
    if (o->has_row) { jb_lit(&opts, ",\"row\":"); jb_int(&opts, o->row); }
    if (o->has_threshold) { jb_lit(&opts, ",\"threshold\":"); jb_number(&opts, o->threshold); }
    if (o->has_distance) { jb_lit(&opts, ",\"distance\":"); jb_number(&opts, o->distance); }
    if (o->axis != NULL) { jb_lit(&opts, ",\"axis\":"); jb_cstring(&opts, o->axis); }
    if (o->edge != NULL) { jb_lit(&opts, ",\"edge\":"); jb_cstring(&opts, o->edge); }
    jb_raw(&opts, "", 1);  /* NUL */
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "observe");
    jb_key(&b, "container"); jb_cstring(&b, container);
    jb_key(&b, "of"); jb_cstring(&b, of);
    if (!opts.failed) jb_lit(&b, opts.data);
    else if (!b.failed) { b.failed = opts.failed; b.why = opts.why; }
    if (o->wait) { jb_key(&b, "wait"); jb_bool(&b, true); }
    waiter w = {0};
    pending setup = {.op = OP_OBSERVE, .container = (char *)container, .wait = o->wait,
                     .options = opts.failed ? NULL : opts.data, .of = sdup(of)};
    if (opts.failed) jb_free(&opts);
    code = call(c, &b, id, &setup, &w, err);
    if (code == 0 && observation_id != NULL) *observation_id = id;
    LEAVE();
    return code;
}

int scrolld_unobserve(scrolld *c, uint64_t observation_id, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    drop_obs(c, observation_id);
    jbuf b = {0};
    /* The request's id is the observation's (docs/protocol.md, "Observations"). */
    begin(&b, observation_id, "unobserve");
    waiter w = {0};
    pending setup = {.op = OP_UNOBSERVE};
    code = call(c, &b, observation_id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_devices_list(scrolld *c, scrolld_devices **devices, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    if (devices == NULL) return fail(err, SCROLLD_E_INVALID_VALUE, "devices: nowhere to put them");
    *devices = NULL;
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "devices");
    waiter w = {.out = devices};
    pending setup = {.op = OP_DEVICES};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}

int scrolld_reload(scrolld *c, scrolld_reload_result *result, scrolld_error *err) {
    int code;
    if (!check_client(c, err, &code)) return code;
    ENTER(c);
    jbuf b = {0};
    uint64_t id = ++c->next_id;
    begin(&b, id, "reload");
    waiter w = {.out = result};
    pending setup = {.op = OP_RELOAD};
    code = call(c, &b, id, &setup, &w, err);
    LEAVE();
    return code;
}
