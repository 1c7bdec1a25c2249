/* The library's JSON reader and writer (json.h). */
#define _POSIX_C_SOURCE 200809L
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scrolld.h"

/* ---- arena ------------------------------------------------------------------------------ */

struct arena_chunk {
    arena_chunk *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

#define ARENA_CHUNK 16384

void arena_init(arena *a, size_t limit) {
    a->head = NULL;
    a->used_total = 0;
    a->limit = limit;
}

/* Keeps the newest chunk (the one that served the last allocation) for the next line, so a
 * steady stream of small lines allocates nothing. */
void arena_reset(arena *a) {
    if (a->head == NULL) return;
    arena_chunk *keep = a->head, *c = keep->next;
    while (c != NULL) {
        arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    keep->next = NULL;
    keep->used = 0;
    a->used_total = 0;
    if (keep->cap > 4 * ARENA_CHUNK) {  /* after a huge line, do not keep its memory */
        free(keep);
        a->head = NULL;
    }
}

void arena_free(arena *a) {
    arena_reset(a);
    free(a->head);
    a->head = NULL;
}

void *arena_alloc(arena *a, size_t size) {
    size = (size + _Alignof(max_align_t) - 1) & ~(size_t)(_Alignof(max_align_t) - 1);
    if (size > a->limit || a->used_total > a->limit - size) return NULL;
    arena_chunk *c = a->head;
    if (c == NULL || c->cap - c->used < size) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        arena_chunk *n = malloc(sizeof *n + cap);
        if (n == NULL) return NULL;
        n->used = 0;
        n->cap = cap;
        n->next = c;
        a->head = c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->used_total += size;
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (p == NULL) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0 when invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; }
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
    if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
    return len;
}

bool utf8_valid(const char *s, size_t len) {
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = utf8_sequence(p + i, len - i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

/* ---- reader ----------------------------------------------------------------------------- */

typedef struct reader {
    const char *p, *end;
    arena *a;
    const char *why;
    size_t values;
} reader;

static void skip_ws(reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static jv *new_value(reader *r, enum jtype type) {
    if (++r->values > JSON_MAX_VALUES) {
        r->why = "too many values";
        return NULL;
    }
    jv *v = arena_alloc(r->a, sizeof *v);
    if (v == NULL) {
        r->why = "line too large to read";
        return NULL;
    }
    memset(v, 0, sizeof *v);
    v->type = type;
    return v;
}

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

static size_t put_utf8(char *out, uint32_t cp) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string at r->p (its opening quote): decoded into the arena. */
static bool read_string(reader *r, const char **out, size_t *outlen) {
    const char *start = ++r->p;
    bool escapes = false;
    /* First pass: find the end, validate, and learn whether anything needs decoding. */
    const char *p = start;
    for (;;) {
        if (p >= r->end) { r->why = "unterminated string"; return false; }
        unsigned char c = (unsigned char)*p;
        if (c == '"') break;
        if (c < 0x20) { r->why = "control character in a string"; return false; }
        if (c == '\\') {
            escapes = true;
            if (p + 1 >= r->end) { r->why = "unterminated escape"; return false; }
            char e = p[1];
            if (e == 'u') {
                if (r->end - p < 6 || hex4(p + 2) < 0) { r->why = "bad \\u escape"; return false; }
                p += 6;
            } else if (strchr("\"\\/bfnrt", e) != NULL && e != '\0') {
                p += 2;
            } else {
                r->why = "bad escape";
                return false;
            }
            continue;
        }
        if (c >= 0x80) {
            size_t n = utf8_sequence((const unsigned char *)p, (size_t)(r->end - p));
            if (n == 0) { r->why = "invalid UTF-8"; return false; }
            p += n;
            continue;
        }
        p++;
    }
    size_t raw = (size_t)(p - start);
    r->p = p + 1;
    if (!escapes) {
        *out = arena_strndup(r->a, start, raw);
        *outlen = raw;
        if (*out == NULL) { r->why = "line too large to read"; return false; }
        return true;
    }
    char *buf = arena_alloc(r->a, raw + 1);  /* decoding never grows the text */
    if (buf == NULL) { r->why = "line too large to read"; return false; }
    size_t n = 0;
    for (const char *q = start; q < p;) {
        if (*q != '\\') { buf[n++] = *q++; continue; }
        char e = q[1];
        if (e != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            buf[n++] = to[strchr(from, e) - from];
            q += 2;
            continue;
        }
        uint32_t cp = (uint32_t)hex4(q + 2);
        q += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF) { r->why = "lone low surrogate"; return false; }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            int low = (q + 6 <= p && q[0] == '\\' && q[1] == 'u') ? hex4(q + 2) : -1;
            if (low < 0xDC00 || low > 0xDFFF) { r->why = "lone high surrogate"; return false; }
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)low - 0xDC00);
            q += 6;
        }
        if (cp == 0) { r->why = "NUL in a string"; return false; }
        n += put_utf8(buf + n, cp);
    }
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return true;
}

static bool read_number(reader *r, jv *v) {
    const char *start = r->p, *p = r->p;
    if (p < r->end && *p == '-') p++;
    if (p >= r->end) goto bad;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (p < r->end && *p >= '0' && *p <= '9') p++;
    else goto bad;
    if (p < r->end && *p == '.') {
        p++;
        if (p >= r->end || *p < '0' || *p > '9') goto bad;
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < r->end && (*p == '+' || *p == '-')) p++;
        if (p >= r->end || *p < '0' || *p > '9') goto bad;
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    size_t n = (size_t)(p - start);
    if (n > 400) { r->why = "number too long"; return false; }
    char *text = arena_strndup(r->a, start, n);
    if (text == NULL) { r->why = "line too large to read"; return false; }
    errno = 0;
    double d = strtod(text, NULL);
    if (!isfinite(d)) { r->why = "number out of range"; return false; }
    v->number = d;
    v->str = text;
    v->len = n;
    r->p = p;
    return true;
bad:
    r->why = "bad number";
    return false;
}

static jv *read_value(reader *r, int depth);

static bool literal(reader *r, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) {
        r->why = "unexpected character";
        return false;
    }
    r->p += n;
    return true;
}

static jv *read_container(reader *r, int depth, bool object) {
    jv *v = new_value(r, object ? J_OBJECT : J_ARRAY);
    if (v == NULL) return NULL;
    r->p++;
    skip_ws(r);
    char close = object ? '}' : ']';
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return v;
    }
    jv **tail = &v->child;
    for (;;) {
        const char *key = NULL;
        size_t keylen = 0;
        if (object) {
            skip_ws(r);
            if (r->p >= r->end || *r->p != '"') { r->why = "expected a member name"; return NULL; }
            if (!read_string(r, &key, &keylen)) return NULL;
            skip_ws(r);
            if (r->p >= r->end || *r->p != ':') { r->why = "expected ':'"; return NULL; }
            r->p++;
        }
        jv *item = read_value(r, depth + 1);
        if (item == NULL) return NULL;
        item->key = key;
        item->keylen = keylen;
        *tail = item;
        tail = &item->next;
        skip_ws(r);
        if (r->p >= r->end) { r->why = "unterminated container"; return NULL; }
        if (*r->p == ',') { r->p++; continue; }
        if (*r->p == close) { r->p++; return v; }
        r->why = "expected ',' or a closing bracket";
        return NULL;
    }
}

static jv *read_value(reader *r, int depth) {
    if (depth >= JSON_MAX_DEPTH) { r->why = "nested too deeply"; return NULL; }
    skip_ws(r);
    if (r->p >= r->end) { r->why = "unexpected end"; return NULL; }
    jv *v;
    switch (*r->p) {
    case '{': return read_container(r, depth, true);
    case '[': return read_container(r, depth, false);
    case '"':
        if ((v = new_value(r, J_STRING)) == NULL) return NULL;
        return read_string(r, &v->str, &v->len) ? v : NULL;
    case 't':
        if ((v = new_value(r, J_BOOL)) == NULL) return NULL;
        v->boolean = true;
        return literal(r, "true") ? v : NULL;
    case 'f':
        if ((v = new_value(r, J_BOOL)) == NULL) return NULL;
        return literal(r, "false") ? v : NULL;
    case 'n':
        if ((v = new_value(r, J_NULL)) == NULL) return NULL;
        return literal(r, "null") ? v : NULL;
    default:
        if ((v = new_value(r, J_NUMBER)) == NULL) return NULL;
        return read_number(r, v) ? v : NULL;
    }
}

jv *json_parse(arena *a, const char *text, size_t len, const char **why) {
    reader r = {.p = text, .end = text + len, .a = a, .why = NULL, .values = 0};
    jv *v = read_value(&r, 0);
    if (v != NULL) {
        skip_ws(&r);
        if (r.p != r.end) {
            r.why = "text after the value";
            v = NULL;
        }
    }
    if (v == NULL && why != NULL) *why = r.why ? r.why : "invalid JSON";
    return v;
}

jv *json_get(const jv *object, const char *key) {
    if (object == NULL || object->type != J_OBJECT) return NULL;
    size_t n = strlen(key);
    jv *found = NULL;
    for (jv *m = object->child; m != NULL; m = m->next)
        if (m->keylen == n && memcmp(m->key, key, n) == 0) found = m;  /* the last one wins */
    return found;
}

const jv *json_object(const jv *object, const char *key) {
    const jv *v = json_get(object, key);
    return v != NULL && v->type == J_OBJECT ? v : NULL;
}

const char *json_string(const jv *object, const char *key) {
    const jv *v = json_get(object, key);
    return v != NULL && v->type == J_STRING ? v->str : NULL;
}

bool json_number(const jv *object, const char *key, double *out) {
    const jv *v = json_get(object, key);
    if (v == NULL || v->type != J_NUMBER) return false;
    *out = v->number;
    return true;
}

bool json_int(const jv *v, int64_t *out) {
    if (v == NULL || v->type != J_NUMBER) return false;
    const char *p = v->str;
    bool negative = *p == '-';
    if (negative) p++;
    uint64_t acc = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        unsigned digit = (unsigned)(*p - '0');
        if (acc > (UINT64_MAX - digit) / 10) return false;
        acc = acc * 10 + digit;
    }
    if (negative) {
        if (acc > (uint64_t)INT64_MAX + 1) return false;
        *out = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
    } else {
        if (acc > (uint64_t)INT64_MAX) return false;
        *out = (int64_t)acc;
    }
    return true;
}

bool json_uint(const jv *v, uint64_t *out) {
    if (v == NULL || v->type != J_NUMBER || v->str[0] == '-') return false;
    uint64_t acc = 0;
    for (const char *p = v->str; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        unsigned digit = (unsigned)(*p - '0');
        if (acc > (UINT64_MAX - digit) / 10) return false;
        acc = acc * 10 + digit;
    }
    *out = acc;
    return true;
}

/* ---- writer ----------------------------------------------------------------------------- */

static bool jb_reserve(jbuf *b, size_t n) {
    if (b->failed) return false;
    if (b->cap - b->len >= n) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) { b->failed = SCROLLD_E_NO_MEMORY; b->why = "out of memory"; return false; }
        cap *= 2;
    }
    char *data = realloc(b->data, cap);
    if (data == NULL) { b->failed = SCROLLD_E_NO_MEMORY; b->why = "out of memory"; return false; }
    b->data = data;
    b->cap = cap;
    return true;
}

void jb_free(jbuf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    b->why = NULL;
}

void jb_raw(jbuf *b, const char *s, size_t n) {
    b->key = NULL;  /* a member's key names only the value written right after it */
    if (!jb_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

void jb_lit(jbuf *b, const char *s) { jb_raw(b, s, strlen(s)); }

void jb_string(jbuf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (s == NULL || !utf8_valid(s, n)) {
        b->failed = SCROLLD_E_INVALID_VALUE;
        b->why = "a string that is not valid UTF-8";
        return;
    }
    if (!jb_reserve(b, n + 2)) return;
    b->data[b->len++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            jb_raw(b, esc, 2);
        } else if (c < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            jb_raw(b, esc, 6);
        } else {
            jb_raw(b, (const char *)&c, 1);
        }
    }
    jb_raw(b, "\"", 1);
}

void jb_cstring(jbuf *b, const char *s) {
    if (s == NULL) {
        if (b->failed) return;
        b->failed = SCROLLD_E_INVALID_VALUE;
        if (b->key == NULL) {
            b->why = "a NULL string";
        } else {
            snprintf(b->why_text, sizeof b->why_text, "\"%.60s\" is NULL", b->key);
            b->why = b->why_text;
        }
        return;
    }
    jb_string(b, s, strlen(s));
}

void jb_number(jbuf *b, double d) {
    if (b->failed) return;
    if (!isfinite(d)) {
        b->failed = SCROLLD_E_INVALID_VALUE;
        b->why = "a number JSON cannot carry (NaN or infinity)";
        return;
    }
    char text[40];
    if (d == 0) {
        jb_lit(b, "0");
        return;
    }
    /* The shortest of %.15g .. %.17g that reads back exactly (the caller is in the C locale). */
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, d);
        if (strtod(text, NULL) == d) break;
    }
    jb_lit(b, text);
}

void jb_int(jbuf *b, int64_t v) {
    char text[24];
    snprintf(text, sizeof text, "%" PRId64, v);
    jb_lit(b, text);
}

void jb_uint(jbuf *b, uint64_t v) {
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, v);
    jb_lit(b, text);
}

void jb_bool(jbuf *b, bool v) { jb_lit(b, v ? "true" : "false"); }

void jb_key(jbuf *b, const char *key) {
    if (b->len > 0 && b->data[b->len - 1] != '{') jb_raw(b, ",", 1);
    jb_cstring(b, key);
    jb_raw(b, ":", 1);
    b->key = key;
}

void jb_value(jbuf *b, const jv *v) {
    switch (v->type) {
    case J_NULL: jb_lit(b, "null"); break;
    case J_BOOL: jb_bool(b, v->boolean); break;
    case J_NUMBER:
        if (v->str != NULL) jb_raw(b, v->str, v->len);  /* as read: exact */
        else jb_number(b, v->number);
        break;
    case J_STRING: jb_string(b, v->str, v->len); break;
    case J_ARRAY:
        jb_raw(b, "[", 1);
        for (const jv *e = v->child; e != NULL; e = e->next) {
            if (e != v->child) jb_raw(b, ",", 1);
            jb_value(b, e);
        }
        jb_raw(b, "]", 1);
        break;
    case J_OBJECT:
        jb_raw(b, "{", 1);
        for (const jv *m = v->child; m != NULL; m = m->next) {
            if (m != v->child) jb_raw(b, ",", 1);
            jb_string(b, m->key, m->keylen);
            jb_raw(b, ":", 1);
            jb_value(b, m);
        }
        jb_raw(b, "}", 1);
        break;
    }
}
