/* Shared between the library's files; nothing here is exported (libscrolld.map). */
#ifndef SCROLLD_INTERNAL_H
#define SCROLLD_INTERNAL_H

#include "json.h"
#include "scrolld.h"

/* One key of a configure request: `key` in the protocol's spelling (containerSize, rows, ...),
 * `member` (snake_case) for one member of header, rows or physics, or NULL for the whole
 * value. `raw` values (scrolld_settings_json) are read when the request is made. */
typedef struct setting {
    struct setting *next;
    char *key;
    char *member;
    jv *value;
    char *raw;
    /* A builder's argument that cannot make a value (a NULL array with a count, NULL JSON): the
     * request fails with SCROLLD_E_INVALID_VALUE naming the key, until the key is set again. */
    const char *invalid;
} setting;

/* Every setter allocates in `memory` and a replaced value is not freed one by one: once the
 * arena has grown past twice what the settings used after the last compaction (and past
 * SETTINGS_SLACK), the live settings are copied into a fresh arena and the old one freed, so a
 * reused object stays bounded by about twice its live size (settings.c, compact()). */
struct scrolld_settings {
    arena memory;
    setting *first, **tail;
    bool failed;
    /* a builder given a NULL key (no key to set again): every request with it fails */
    const char *invalid;
    size_t live;  /* memory.used_total right after the last compaction */
};

/* Below this the arena is never compacted. */
#define SETTINGS_SLACK (64u << 10)

/* A run of rows of one height: a container's rows as it is now, edits folded in. */
typedef struct row_run {
    int64_t count;
    double height;
} row_run;

typedef struct desc_entry {
    struct desc_entry *next;
    char *key;
    char *member;
    char *text;  /* the value's JSON */
} desc_entry;

/* What the client knows of a container it configured (docs/design.md §20): the current
 * description (never the history of calls), whether it is owned, its last resting offset. */
typedef struct desc {
    struct desc *next;
    char *name;
    bool owned;
    desc_entry *entries;
    bool has_rows;
    bool has_own_height;
    double own_height;
    row_run *runs;
    size_t nruns, capruns;
    bool has_rest;
    double rest_x, rest_y;
    /* bottom-anchored and last seen following its end: put back there, not at rest_x/rest_y */
    bool following;
    /* `anchor` is "bottom": noted when a configure is folded, not looked up for every state */
    bool anchored_at_bottom;
} desc;

/* The settings as request members (after `"container":...`). Returns 0 or a SCROLLD_E_ code
 * with the reason, naming the key, in why[size]. `a` is scratch memory for reading raw values.
 * s NULL: no keys. */
int settings_write(const scrolld_settings *s, jbuf *out, arena *a, char *why, size_t size);
/* Folds a configure that succeeded into d (s NULL: no keys). Returns false when out of
 * memory. */
bool desc_fold(desc *d, const scrolld_settings *s, arena *a);
void desc_free(desc *d);
/* The restoring lines' members: the description, then row insertions in *inserts (one
 * `"rows":{...}` member list per extra run, each to follow `"container":...`). */
void desc_write(const desc *d, jbuf *out);
size_t desc_insert_count(const desc *d);
void desc_write_insert(const desc *d, size_t run, jbuf *out);

/* A `devices` reply as the caller's scrolld_devices (devices.c). Returns 0 or a code. */
int devices_read(const jv *msg, scrolld_devices **out);

#endif
