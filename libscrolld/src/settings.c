/* configure's settings (scrolld_settings_*) and a container's folded description
 * (docs/design.md §20: the current description, edits folded in, never the history). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A settings object's memory: its values are small, but row heights may be many. */
#define SETTINGS_LIMIT (64u << 20)

scrolld_settings *scrolld_settings_new(void) {
    scrolld_settings *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    arena_init(&s->memory, SETTINGS_LIMIT);
    s->tail = &s->first;
    return s;
}

void scrolld_settings_free(scrolld_settings *s) {
    if (s == NULL) return;
    arena_free(&s->memory);
    free(s);
}

/* ---- building values -------------------------------------------------------------------- */

static jv *node(scrolld_settings *s, enum jtype type) {
    jv *v = arena_alloc(&s->memory, sizeof *v);
    if (v != NULL) {
        memset(v, 0, sizeof *v);
        v->type = type;
    }
    return v;
}

static jv *num(scrolld_settings *s, double d) {
    jv *v = node(s, J_NUMBER);
    if (v != NULL) v->number = d;  /* str NULL: written by jb_number, which checks finiteness */
    return v;
}

static jv *str(scrolld_settings *s, const char *text) {
    if (text == NULL) return node(s, J_NULL);
    jv *v = node(s, J_STRING);
    if (v != NULL && (v->str = arena_strndup(&s->memory, text, strlen(text))) == NULL) return NULL;
    if (v != NULL) v->len = strlen(text);
    return v;
}

static jv *boolean(scrolld_settings *s, bool b) {
    jv *v = node(s, J_BOOL);
    if (v != NULL) v->boolean = b;
    return v;
}

/* Adds member `key` to object o (appending). */
static void member(scrolld_settings *s, jv *o, const char *key, jv *value) {
    if (o == NULL || value == NULL) return;
    value->key = arena_strndup(&s->memory, key, strlen(key));
    value->keylen = strlen(key);
    value->next = NULL;
    jv **tail = &o->child;
    while (*tail != NULL) tail = &(*tail)->next;
    *tail = value;
}

/* A copy of a built value (and its members or elements) in arena a. */
static jv *copy_value(arena *a, const jv *v) {
    jv *n = arena_alloc(a, sizeof *n);
    if (n == NULL) return NULL;
    *n = *v;
    n->child = n->next = NULL;
    if (v->str != NULL && (n->str = arena_strndup(a, v->str, v->len)) == NULL) return NULL;
    if (v->key != NULL && (n->key = arena_strndup(a, v->key, v->keylen)) == NULL) return NULL;
    jv **tail = &n->child;
    for (const jv *c = v->child; c != NULL; c = c->next) {  /* siblings iterated, not recursed */
        if ((*tail = copy_value(a, c)) == NULL) return NULL;
        tail = &(*tail)->next;
    }
    return n;
}

static char *copy_text(arena *a, const char *text) {
    return text != NULL ? arena_strndup(a, text, strlen(text)) : NULL;
}

/* Copies the live settings into a fresh arena and frees the old one, with every value replaced
 * since the last compaction. Out of memory: nothing changes (the next setter tries again). */
static void compact(scrolld_settings *s) {
    arena fresh;
    arena_init(&fresh, SETTINGS_LIMIT);
    setting *first = NULL, *last = NULL;
    for (const setting *e = s->first; e != NULL; e = e->next) {
        setting *n = arena_alloc(&fresh, sizeof *n);
        if (n == NULL) goto fail;
        *n = *e;
        n->next = NULL;
        if ((n->key = copy_text(&fresh, e->key)) == NULL) goto fail;
        if (e->member != NULL && (n->member = copy_text(&fresh, e->member)) == NULL) goto fail;
        if (e->raw != NULL && (n->raw = copy_text(&fresh, e->raw)) == NULL) goto fail;
        if (e->value != NULL && (n->value = copy_value(&fresh, e->value)) == NULL) goto fail;
        if (last == NULL) first = n;
        else last->next = n;
        last = n;
    }
    arena_free(&s->memory);
    s->memory = fresh;
    s->first = first;
    s->tail = last != NULL ? &last->next : &s->first;
    s->live = fresh.used_total;
    return;
fail:
    arena_free(&fresh);
}

/* After each setter: a replaced value is garbage in the arena until the next compaction. */
static void settle(scrolld_settings *s) {
    if (s->memory.used_total > SETTINGS_SLACK && s->memory.used_total / 2 > s->live) compact(s);
}

/* Records a setting; a later one for the same key and member replaces it. A failed
 * allocation records a NULL value, which makes the request fail with SCROLLD_E_NO_MEMORY.
 * Returns the setting (NULL when out of memory). */
static setting *put(scrolld_settings *s, const char *key, const char *mem, jv *value, const char *raw) {
    if (s == NULL) return NULL;
    for (setting *e = s->first; e != NULL; e = e->next) {
        bool same_member = (e->member == NULL && mem == NULL) || (e->member && mem && strcmp(e->member, mem) == 0);
        if (strcmp(e->key, key) == 0 && same_member) {
            e->value = value;
            e->raw = raw ? arena_strndup(&s->memory, raw, strlen(raw)) : NULL;
            e->invalid = NULL;
            if (raw != NULL && e->raw == NULL) e->value = NULL;
            return e;
        }
        /* A whole value replaces the members given before, and a member a whole value. */
        if (strcmp(e->key, key) == 0 && (mem == NULL || e->member == NULL)) {
            e->member = mem ? arena_strndup(&s->memory, mem, strlen(mem)) : NULL;
            e->value = value;
            e->raw = raw ? arena_strndup(&s->memory, raw, strlen(raw)) : NULL;
            e->invalid = NULL;
            if ((mem != NULL && e->member == NULL) || (raw != NULL && e->raw == NULL)) e->value = NULL;
            /* drop the other entries of this key */
            for (setting **p = &e->next; *p != NULL;) {
                if (strcmp((*p)->key, key) == 0) *p = (*p)->next;
                else p = &(*p)->next;
            }
            s->tail = &s->first;
            while (*s->tail != NULL) s->tail = &(*s->tail)->next;
            return e;
        }
    }
    setting *e = arena_alloc(&s->memory, sizeof *e);
    if (e == NULL || (e->key = arena_strndup(&s->memory, key, strlen(key))) == NULL) {
        s->failed = true;  /* the next request with these settings says so */
        return NULL;
    }
    e->next = NULL;
    e->member = mem ? arena_strndup(&s->memory, mem, strlen(mem)) : NULL;
    e->value = value;
    e->raw = raw ? arena_strndup(&s->memory, raw, strlen(raw)) : NULL;
    e->invalid = NULL;
    if ((mem != NULL && e->member == NULL) || (raw != NULL && e->raw == NULL)) e->value = NULL;
    *s->tail = e;
    s->tail = &e->next;
    return e;
}

/* put(), then the compaction a setter may call for. */
static void set(scrolld_settings *s, const char *key, const char *mem, jv *value, const char *raw) {
    put(s, key, mem, value, raw);
    settle(s);
}

/* A key whose builder was given what cannot make a value: the request fails naming it. */
static void set_invalid(scrolld_settings *s, const char *key, const char *mem, const char *why) {
    setting *e = put(s, key, mem, node(s, J_NULL), NULL);
    if (e != NULL) e->invalid = why;
    settle(s);
}

/* A builder given a NULL key: no key to name or to set again. */
static void null_key(scrolld_settings *s, const char *builder) {
    if (s != NULL && s->invalid == NULL) s->invalid = builder;
}

static jv *size_value(scrolld_settings *s, double width, double height) {
    jv *o = node(s, J_OBJECT);
    member(s, o, "width", num(s, width));
    member(s, o, "height", num(s, height));
    return o;
}

void scrolld_settings_container_size(scrolld_settings *s, double width, double height) {
    if (s) set(s, "containerSize", NULL, size_value(s, width, height), NULL);
}

void scrolld_settings_content_size(scrolld_settings *s, double width, double height) {
    if (s) set(s, "contentSize", NULL, size_value(s, width, height), NULL);
}

void scrolld_settings_content_insets(scrolld_settings *s, double top, double leading, double bottom, double trailing) {
    if (!s) return;
    jv *o = node(s, J_OBJECT);
    member(s, o, "top", num(s, top));
    member(s, o, "leading", num(s, leading));
    member(s, o, "bottom", num(s, bottom));
    member(s, o, "trailing", num(s, trailing));
    set(s, "contentInsets", NULL, o, NULL);
}

void scrolld_settings_axes(scrolld_settings *s, const char *axes) { if (s) set(s, "axes", NULL, str(s, axes), NULL); }

void scrolld_settings_header(scrolld_settings *s, double min_height, double max_height) {
    if (!s) return;
    set(s, "header", "min_height", num(s, min_height), NULL);
    set(s, "header", "max_height", num(s, max_height), NULL);
}

void scrolld_settings_header_stretch(scrolld_settings *s, bool v) { if (s) set(s, "header", "stretch", boolean(s, v), NULL); }
void scrolld_settings_header_snap(scrolld_settings *s, bool v) { if (s) set(s, "header", "snap", boolean(s, v), NULL); }

static jv *int_value(scrolld_settings *s, int64_t v) {
    jv *n = node(s, J_NUMBER);
    if (n == NULL) return NULL;
    char text[24];
    int len = snprintf(text, sizeof text, "%lld", (long long)v);
    n->number = (double)v;
    n->str = arena_strndup(&s->memory, text, (size_t)len);
    n->len = (size_t)len;
    return n->str ? n : NULL;
}

static jv *heights_value(scrolld_settings *s, const double *heights, size_t count) {
    jv *a = node(s, J_ARRAY);
    if (a == NULL) return NULL;
    jv **tail = &a->child;
    for (size_t i = 0; i < count; i++) {
        jv *h = num(s, heights[i]);
        if (h == NULL) return NULL;
        *tail = h;
        tail = &h->next;
    }
    return a;
}

void scrolld_settings_rows(scrolld_settings *s, int64_t count, double height) {
    if (!s) return;
    set(s, "rows", "count", int_value(s, count), NULL);
    set(s, "rows", "height", num(s, height), NULL);
}

/* A NULL array with a count makes no value: the request says so. */
static const char NULL_ARRAY[] = "a NULL array with a count above 0";

void scrolld_settings_row_heights(scrolld_settings *s, const double *heights, size_t count) {
    if (!s) return;
    if (heights == NULL && count > 0) set_invalid(s, "rows", "heights", NULL_ARRAY);
    else set(s, "rows", "heights", heights_value(s, heights, count), NULL);
}

void scrolld_settings_rows_top(scrolld_settings *s, double top) { if (s) { set(s, "rows", "top", num(s, top), NULL); } }
void scrolld_settings_rows_threshold(scrolld_settings *s, double t) { if (s) { set(s, "rows", "threshold", num(s, t), NULL); } }
void scrolld_settings_rows_visible_in(scrolld_settings *s, const char *area) { if (s) { set(s, "rows", "visible_in", str(s, area), NULL); } }

void scrolld_settings_rows_insert(scrolld_settings *s, int64_t at, int64_t count, double height) {
    if (!s) return;
    jv *edit = node(s, J_OBJECT), *insert = node(s, J_OBJECT);
    member(s, insert, "at", int_value(s, at));
    member(s, insert, "count", int_value(s, count));
    if (!(height < 0)) member(s, insert, "height", num(s, height));
    member(s, edit, "insert", insert);
    set(s, "rows", NULL, edit, NULL);
}

void scrolld_settings_rows_insert_heights(scrolld_settings *s, int64_t at, const double *heights, size_t count) {
    if (!s) return;
    if (heights == NULL && count > 0) {
        set_invalid(s, "rows", NULL, NULL_ARRAY);
        return;
    }
    jv *edit = node(s, J_OBJECT), *insert = node(s, J_OBJECT);
    member(s, insert, "at", int_value(s, at));
    member(s, insert, "heights", heights_value(s, heights, count));
    member(s, edit, "insert", insert);
    set(s, "rows", NULL, edit, NULL);
}

void scrolld_settings_rows_remove(scrolld_settings *s, int64_t at, int64_t count) {
    if (!s) return;
    jv *edit = node(s, J_OBJECT), *remove = node(s, J_OBJECT);
    member(s, remove, "at", int_value(s, at));
    member(s, remove, "count", int_value(s, count));
    member(s, edit, "remove", remove);
    set(s, "rows", NULL, edit, NULL);
}

void scrolld_settings_physics_number(scrolld_settings *s, const char *key, double value) {
    if (key == NULL) null_key(s, "scrolld_settings_physics_number() was given a NULL key");
    else if (s) set(s, "physics", key, num(s, value), NULL);
}
void scrolld_settings_physics_bool(scrolld_settings *s, const char *key, bool value) {
    if (key == NULL) null_key(s, "scrolld_settings_physics_bool() was given a NULL key");
    else if (s) set(s, "physics", key, boolean(s, value), NULL);
}
void scrolld_settings_physics_string(scrolld_settings *s, const char *key, const char *value) {
    if (key == NULL) null_key(s, "scrolld_settings_physics_string() was given a NULL key");
    else if (s) set(s, "physics", key, str(s, value), NULL);
}
void scrolld_settings_scroll_target(scrolld_settings *s, const char *t) { if (s) set(s, "scrollTarget", NULL, str(s, t), NULL); }
void scrolld_settings_parent(scrolld_settings *s, const char *p) { if (s) set(s, "parent", NULL, str(s, p), NULL); }
void scrolld_settings_overscroll(scrolld_settings *s, const char *m) { if (s) set(s, "overscroll", NULL, str(s, m), NULL); }
void scrolld_settings_anchor(scrolld_settings *s, const char *a) { if (s) set(s, "anchor", NULL, str(s, a), NULL); }
void scrolld_settings_owned(scrolld_settings *s, bool owned) { if (s) set(s, "owned", NULL, boolean(s, owned), NULL); }

void scrolld_settings_touch_frame(scrolld_settings *s, double x, double y, double width, double height) {
    if (!s) return;
    jv *o = node(s, J_OBJECT);
    member(s, o, "x", num(s, x));
    member(s, o, "y", num(s, y));
    member(s, o, "width", num(s, width));
    member(s, o, "height", num(s, height));
    set(s, "touchFrame", NULL, o, NULL);
}

/* `{}`: no frame. */
void scrolld_settings_touch_frame_none(scrolld_settings *s) { if (s) set(s, "touchFrame", NULL, node(s, J_OBJECT), NULL); }

void scrolld_settings_devices(scrolld_settings *s, const char *const *names, size_t count) {
    if (!s) return;
    if (names == NULL && count > 0) {
        set_invalid(s, "devices", NULL, NULL_ARRAY);
        return;
    }
    for (size_t i = 0; i < count; i++)
        if (names[i] == NULL) {
            set_invalid(s, "devices", NULL, "a NULL name in the array");
            return;
        }
    jv *a = node(s, J_ARRAY);
    if (a != NULL) {
        jv **tail = &a->child;
        for (size_t i = 0; i < count; i++) {
            jv *n = str(s, names[i]);
            if (n == NULL) { a = NULL; break; }
            *tail = n;
            tail = &n->next;
        }
    }
    set(s, "devices", NULL, a, NULL);
}

static jv *animation_value(scrolld_settings *s, scrolld_animation a) {
    switch (a.kind) {
    case SCROLLD_ANIMATION_NONE: return str(s, "none");
    case SCROLLD_ANIMATION_SMOOTH: return str(s, "smooth");
    case SCROLLD_ANIMATION_SNAPPY: return str(s, "snappy");
    case SCROLLD_ANIMATION_BOUNCY: return str(s, "bouncy");
    case SCROLLD_ANIMATION_SPRING: {
        jv *o = node(s, J_OBJECT), *spring = node(s, J_OBJECT);
        member(s, spring, "duration", num(s, a.duration));
        member(s, spring, "bounce", num(s, a.bounce));
        member(s, o, "spring", spring);
        return o;
    }
    default: return NULL;
    }
}

void scrolld_settings_animation(scrolld_settings *s, scrolld_animation a) {
    if (!s) return;
    if (a.kind == SCROLLD_ANIMATION_DEFAULT) {
        for (setting **p = &s->first; *p != NULL;) {
            if (strcmp((*p)->key, "animation") == 0) *p = (*p)->next;
            else p = &(*p)->next;
        }
        s->tail = &s->first;
        while (*s->tail != NULL) s->tail = &(*s->tail)->next;
        return;
    }
    set(s, "animation", NULL, animation_value(s, a), NULL);
}

void scrolld_settings_json(scrolld_settings *s, const char *key, const char *json) {
    if (key == NULL) null_key(s, "scrolld_settings_json() was given a NULL key");
    else if (s && json == NULL) set_invalid(s, key, NULL, "no JSON text (NULL; the JSON null is \"null\")");
    else if (s) set(s, key, NULL, node(s, J_NULL), json);
}

/* ---- writing a request ------------------------------------------------------------------ */

static bool is_object_key(const char *key) {
    return strcmp(key, "header") == 0 || strcmp(key, "rows") == 0 || strcmp(key, "physics") == 0;
}

/* `key` or `key.member`, as a message names it. */
static void name_setting(char *out, size_t size, const char *key, const char *mem) {
    snprintf(out, size, "%s%s%s", key, mem ? "." : "", mem ? mem : "");
}

int settings_write(const scrolld_settings *s, jbuf *out, arena *a, char *why, size_t size) {
    if (s == NULL) return 0;
    if (s->invalid != NULL) {
        snprintf(why, size, "%s", s->invalid);
        return SCROLLD_E_INVALID_VALUE;
    }
    if (s->failed) {
        snprintf(why, size, "out of memory while building the settings");
        return SCROLLD_E_NO_MEMORY;
    }
    char name[160];
    for (const setting *e = s->first; e != NULL; e = e->next) {
        if (e->invalid != NULL) {
            name_setting(name, sizeof name, e->key, e->member);
            snprintf(why, size, "key \"%s\": %s", name, e->invalid);
            return SCROLLD_E_INVALID_VALUE;
        }
        if (e->value == NULL) {
            name_setting(name, sizeof name, e->key, e->member);
            snprintf(why, size, "key \"%s\": out of memory while building the settings", name);
            return SCROLLD_E_NO_MEMORY;
        }
    }
    for (const setting *e = s->first; e != NULL && !out->failed; e = e->next) {
        /* Members of one key go together, at the first member's place. */
        bool first_of_key = true;
        for (const setting *p = s->first; p != e; p = p->next)
            if (strcmp(p->key, e->key) == 0) first_of_key = false;
        if (!first_of_key) continue;
        jb_key(out, e->key);
        const char *failed_member = NULL;
        if (e->member != NULL) {
            jb_raw(out, "{", 1);
            for (const setting *m = e; m != NULL && !out->failed; m = m->next) {
                if (strcmp(m->key, e->key) != 0 || m->member == NULL) continue;
                jb_key(out, m->member);
                jb_value(out, m->value);
                if (out->failed) failed_member = m->member;
            }
            jb_raw(out, "}", 1);
        } else if (e->raw != NULL) {
            const char *reason = NULL;
            jv *v = json_parse(a, e->raw, strlen(e->raw), &reason);
            if (v == NULL) {
                snprintf(why, size, "key \"%s\": not one JSON value (%s)", e->key, reason);
                return SCROLLD_E_INVALID_VALUE;
            }
            jb_value(out, v);
        } else {
            jb_value(out, e->value);
        }
        if (out->failed) {
            name_setting(name, sizeof name, e->key, failed_member);
            snprintf(why, size, "key \"%s\": %s", name, out->why ? out->why : "cannot write it");
        }
    }
    return out->failed;
}

/* ---- the folded description ------------------------------------------------------------- */

static char *sdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* camelCase member names as snake_case, the daemon's own folding (minHeight = min_height). */
static char *snake(const char *key) {
    size_t n = strlen(key), extra = 0;
    for (size_t i = 0; i < n; i++) if (key[i] >= 'A' && key[i] <= 'Z') extra++;
    char *p = malloc(n + extra + 1), *q = p;
    if (p == NULL) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (key[i] >= 'A' && key[i] <= 'Z') { *q++ = '_'; *q++ = (char)(key[i] - 'A' + 'a'); }
        else *q++ = key[i];
    }
    *q = '\0';
    return p;
}

static const char *canonical_key(const char *key) {
    if (strcmp(key, "insets") == 0) return "contentInsets";
    if (strcmp(key, "scroll_target") == 0) return "scrollTarget";
    if (strcmp(key, "container_size") == 0) return "containerSize";
    if (strcmp(key, "content_size") == 0) return "contentSize";
    if (strcmp(key, "content_insets") == 0) return "contentInsets";
    return key;
}

static void entry_remove(desc *d, const char *key, const char *mem /* NULL: every entry */) {
    for (desc_entry **p = &d->entries; *p != NULL;) {
        desc_entry *e = *p;
        if (strcmp(e->key, key) == 0 && (mem == NULL || (e->member && strcmp(e->member, mem) == 0))) {
            *p = e->next;
            free(e->key);
            free(e->member);
            free(e->text);
            free(e);
        } else {
            p = &e->next;
        }
    }
}

static bool entry_set(desc *d, const char *key, const char *mem, const jv *value) {
    jbuf b = {0};
    jb_value(&b, value);
    jb_raw(&b, "", 0);
    if (b.failed) { jb_free(&b); return false; }
    char *text = malloc(b.len + 1);
    if (text == NULL) { jb_free(&b); return false; }
    memcpy(text, b.data, b.len);
    text[b.len] = '\0';
    jb_free(&b);
    if (mem == NULL) entry_remove(d, key, NULL);
    else {
        /* a member replaces a whole value of its key */
        for (desc_entry **p = &d->entries; *p != NULL;) {
            desc_entry *e = *p;
            if (strcmp(e->key, key) == 0 && e->member == NULL) {
                *p = e->next;
                free(e->key); free(e->text); free(e);
            } else p = &e->next;
        }
        entry_remove(d, key, mem);
    }
    desc_entry *e = calloc(1, sizeof *e);
    if (e == NULL) { free(text); return false; }
    e->key = sdup(key);
    e->member = mem ? sdup(mem) : NULL;
    e->text = text;
    if (e->key == NULL || (mem && e->member == NULL)) {
        free(e->key); free(e->member); free(e->text); free(e);
        return false;
    }
    desc_entry **tail = &d->entries;
    while (*tail != NULL) tail = &(*tail)->next;
    *tail = e;
    return true;
}

static bool runs_reserve(desc *d, size_t n) {
    if (d->capruns >= n) return true;
    size_t cap = d->capruns ? d->capruns * 2 : 8;
    while (cap < n) cap *= 2;
    row_run *runs = realloc(d->runs, cap * sizeof *runs);
    if (runs == NULL) return false;
    d->runs = runs;
    d->capruns = cap;
    return true;
}

static int64_t rows_total(const desc *d) {
    int64_t total = 0;
    for (size_t i = 0; i < d->nruns; i++) total += d->runs[i].count;
    return total;
}

static void runs_merge(desc *d) {
    size_t w = 0;
    for (size_t i = 0; i < d->nruns; i++) {
        if (d->runs[i].count == 0) continue;
        if (w > 0 && d->runs[w - 1].height == d->runs[i].height) d->runs[w - 1].count += d->runs[i].count;
        else d->runs[w++] = d->runs[i];
    }
    d->nruns = w;
}

/* Splits the runs so that a run starts at row `at` (0 <= at <= total); returns its index. */
static bool runs_split(desc *d, int64_t at, size_t *index) {
    int64_t row = 0;
    for (size_t i = 0; i < d->nruns; i++) {
        if (row == at) { *index = i; return true; }
        if (at < row + d->runs[i].count) {
            if (!runs_reserve(d, d->nruns + 1)) return false;
            memmove(&d->runs[i + 2], &d->runs[i + 1], (d->nruns - i - 1) * sizeof *d->runs);
            d->runs[i + 1].count = d->runs[i].count - (at - row);
            d->runs[i + 1].height = d->runs[i].height;
            d->runs[i].count = at - row;
            d->nruns++;
            *index = i + 1;
            return true;
        }
        row += d->runs[i].count;
    }
    *index = d->nruns;
    return true;
}

static bool runs_insert(desc *d, int64_t at, const row_run *runs, size_t n) {
    size_t i;
    if (!runs_split(d, at, &i) || !runs_reserve(d, d->nruns + n)) return false;
    memmove(&d->runs[i + n], &d->runs[i], (d->nruns - i) * sizeof *d->runs);
    memcpy(&d->runs[i], runs, n * sizeof *runs);
    d->nruns += n;
    runs_merge(d);
    return true;
}

static bool runs_remove(desc *d, int64_t at, int64_t count) {
    size_t from, to;
    if (!runs_split(d, at, &from) || !runs_split(d, at + count, &to)) return false;
    memmove(&d->runs[from], &d->runs[to], (d->nruns - to) * sizeof *d->runs);
    d->nruns -= to - from;
    runs_merge(d);
    return true;
}

static bool runs_from_heights(desc *d, const jv *heights, int64_t at) {
    size_t n = 0;
    for (const jv *h = heights->child; h != NULL; h = h->next) n++;
    row_run *runs = malloc((n ? n : 1) * sizeof *runs);
    if (runs == NULL) return false;
    size_t k = 0;
    for (const jv *h = heights->child; h != NULL; h = h->next) runs[k++] = (row_run){1, h->number};
    bool ok = runs_insert(d, at, runs, n);
    free(runs);
    return ok;
}

/* The rows description's count/height/heights (what the configure gave, merged with what the
 * rows were). */
static bool rows_describe(desc *d, const jv *count, const jv *height, const jv *heights) {
    d->has_rows = true;
    if (height != NULL && height->type == J_NUMBER) {
        d->has_own_height = true;
        d->own_height = height->number;
    }
    if (heights != NULL && heights->type == J_ARRAY) {
        d->nruns = 0;
        return runs_from_heights(d, heights, 0);
    }
    int64_t n = rows_total(d);
    if (count != NULL) json_int(count, &n);
    double h = d->has_own_height ? d->own_height : (d->nruns ? d->runs[d->nruns - 1].height : 0);
    if (!runs_reserve(d, 1)) return false;
    d->runs[0] = (row_run){n, h};
    d->nruns = 1;
    runs_merge(d);
    return true;
}

static bool rows_edit(desc *d, const jv *edit) {
    const jv *insert = json_object(edit, "insert"), *remove = json_object(edit, "remove");
    int64_t at = 0, count = 0;
    if (insert != NULL) {
        json_int(json_get(insert, "at"), &at);
        const jv *heights = json_get(insert, "heights");
        if (heights != NULL && heights->type == J_ARRAY) return runs_from_heights(d, heights, at);
        json_int(json_get(insert, "count"), &count);
        double h = d->has_own_height ? d->own_height : 0;
        json_number(insert, "height", &h);
        row_run run = {count, h};
        return runs_insert(d, at, &run, 1);
    }
    if (remove != NULL) {
        json_int(json_get(remove, "at"), &at);
        json_int(json_get(remove, "count"), &count);
        return runs_remove(d, at, count);
    }
    return true;
}

static bool fold_member(desc *d, const char *key, const char *mem_in, const jv *value,
                        const jv **count, const jv **height, const jv **heights) {
    char *mem = snake(mem_in);
    if (mem == NULL) return false;
    bool ok = true;
    if (strcmp(key, "rows") == 0 && strcmp(mem, "count") == 0) *count = value;
    else if (strcmp(key, "rows") == 0 && strcmp(mem, "height") == 0) *height = value;
    else if (strcmp(key, "rows") == 0 && strcmp(mem, "heights") == 0) *heights = value;
    else if (value->type == J_NULL) entry_remove(d, key, mem);
    else ok = entry_set(d, key, mem, value);
    free(mem);
    return ok;
}

bool desc_fold(desc *d, const scrolld_settings *s, arena *a) {
    const jv *count = NULL, *height = NULL, *heights = NULL;
    bool ok = true;
    for (const setting *e = s != NULL ? s->first : NULL; e != NULL && ok; e = e->next) {
        const jv *value = e->value;
        if (e->raw != NULL) value = json_parse(a, e->raw, strlen(e->raw), NULL);
        if (value == NULL) continue;
        const char *key = canonical_key(e->key);
        if (strcmp(key, "animation") == 0) continue;
        if (strcmp(key, "owned") == 0) {
            if (value->type == J_BOOL && value->boolean) d->owned = true;
            continue;
        }
        if (is_object_key(key) && e->member != NULL) {
            ok = fold_member(d, key, e->member, value, &count, &height, &heights);
        } else if (is_object_key(key) && value->type == J_OBJECT) {
            if (strcmp(key, "rows") == 0 && (json_get(value, "insert") || json_get(value, "remove"))) {
                ok = rows_edit(d, value);
                continue;
            }
            for (const jv *m = value->child; m != NULL && ok; m = m->next)
                ok = fold_member(d, key, m->key, m, &count, &height, &heights);
        } else if (is_object_key(key) && value->type == J_NULL) {
            entry_remove(d, key, NULL);
            if (strcmp(key, "rows") == 0) {
                d->has_rows = d->has_own_height = false;
                d->nruns = 0;
            }
        } else {
            ok = entry_set(d, key, NULL, value);
        }
    }
    if (ok && (count || height || heights)) ok = rows_describe(d, count, height, heights);
    d->anchored_at_bottom = false;
    for (const desc_entry *e = d->entries; e != NULL; e = e->next)
        if (strcmp(e->key, "anchor") == 0 && e->text != NULL && strcmp(e->text, "\"bottom\"") == 0) d->anchored_at_bottom = true;
    return ok;
}

void desc_free(desc *d) {
    if (d == NULL) return;
    while (d->entries != NULL) {
        desc_entry *e = d->entries;
        d->entries = e->next;
        free(e->key); free(e->member); free(e->text); free(e);
    }
    free(d->runs);
    free(d->name);
    free(d);
}

/* The rows' base description: with one run, that run; with more, an empty list that the
 * insertions fill, run by run (each line stays far below the daemon's 64 KiB). */
static void write_rows_base(const desc *d, jbuf *out) {
    if (d->nruns == 1 && (!d->has_own_height || d->own_height == d->runs[0].height)) {
        jb_key(out, "count"); jb_int(out, d->runs[0].count);
        jb_key(out, "height"); jb_number(out, d->runs[0].height);
    } else if (d->has_own_height) {
        jb_key(out, "count"); jb_int(out, 0);
        jb_key(out, "height"); jb_number(out, d->own_height);
    } else {
        jb_key(out, "heights"); jb_lit(out, "[]");
    }
}

void desc_write(const desc *d, jbuf *out) {
    for (const desc_entry *e = d->entries; e != NULL; e = e->next) {
        if (e->member != NULL) continue;
        jb_key(out, e->key);
        jb_lit(out, e->text);
    }
    static const char *const objects[] = {"header", "physics", "rows"};
    for (size_t k = 0; k < 3; k++) {
        bool any = strcmp(objects[k], "rows") == 0 && d->has_rows;
        for (const desc_entry *e = d->entries; e != NULL && !any; e = e->next)
            if (e->member != NULL && strcmp(e->key, objects[k]) == 0) any = true;
        if (!any) continue;
        jb_key(out, objects[k]);
        jb_raw(out, "{", 1);
        for (const desc_entry *e = d->entries; e != NULL; e = e->next) {
            if (e->member == NULL || strcmp(e->key, objects[k]) != 0) continue;
            jb_key(out, e->member);
            jb_lit(out, e->text);
        }
        if (strcmp(objects[k], "rows") == 0 && d->has_rows) write_rows_base(d, out);
        jb_raw(out, "}", 1);
    }
    if (d->owned) {
        jb_key(out, "owned");
        jb_bool(out, true);
    }
}

size_t desc_insert_count(const desc *d) {
    if (!d->has_rows) return 0;
    if (d->nruns == 1 && (!d->has_own_height || d->own_height == d->runs[0].height)) return 0;
    return d->nruns;
}

void desc_write_insert(const desc *d, size_t run, jbuf *out) {
    int64_t at = 0;
    for (size_t i = 0; i < run; i++) at += d->runs[i].count;
    jb_key(out, "rows");
    jb_lit(out, "{\"insert\":{\"at\":");
    jb_int(out, at);
    jb_lit(out, ",\"count\":");
    jb_int(out, d->runs[run].count);
    jb_lit(out, ",\"height\":");
    jb_number(out, d->runs[run].height);
    jb_lit(out, "}}");
}
