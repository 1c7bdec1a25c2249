/* The library's own JSON: a bounded, validating reader of one line into an arena, and a writer
 * of request lines. Internal (hidden by the version script). docs/decisions.md, "libscrolld's
 * own JSON reader", says why it exists and what it refuses. */
#ifndef SCROLLD_JSON_H
#define SCROLLD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

typedef struct jv jv;
struct jv {
    enum jtype type;
    bool boolean;
    double number;
    const char *str;     /* J_STRING: the decoded bytes, NUL-terminated; J_NUMBER: its text */
    size_t len;
    const char *key;     /* a member of an object: its name, decoded, NUL-terminated */
    size_t keylen;
    jv *child;           /* J_ARRAY / J_OBJECT: the first element or member */
    jv *next;            /* the next sibling */
};

/* Chunks of memory freed together: one per parsed line, reset (not freed) between lines. */
typedef struct arena_chunk arena_chunk;
typedef struct arena {
    arena_chunk *head;
    size_t used_total;
    size_t limit;        /* bytes one line may use */
} arena;

void arena_init(arena *a, size_t limit);
void arena_reset(arena *a);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size);
char *arena_strndup(arena *a, const char *s, size_t n);

/* The reader's bounds: nesting depth and values per line (the arena bounds the rest). */
#define JSON_MAX_DEPTH 64
#define JSON_MAX_VALUES 65536

/* Parses exactly one JSON value (whitespace around it allowed) from text[0, len). Strings
 * must be valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF) and
 * escapes well-formed; numbers follow RFC 8259's grammar and must be finite as doubles.
 * Numbers are read with strtod: the caller has selected the "C" locale (uselocale). Returns
 * the value, or NULL with a short reason in *why. */
jv *json_parse(arena *a, const char *text, size_t len, const char **why);

jv *json_get(const jv *object, const char *key);
/* Lookups that also check the type; NULL when absent or of another type. */
const jv *json_object(const jv *object, const char *key);
const char *json_string(const jv *object, const char *key);
bool json_number(const jv *object, const char *key, double *out);
/* An integer in [INT64_MIN, INT64_MAX] written without fraction or exponent. */
bool json_int(const jv *value, int64_t *out);
bool json_uint(const jv *value, uint64_t *out);
bool utf8_valid(const char *s, size_t len);

/* A growing output buffer. `failed` sticks: SCROLLD_E_NO_MEMORY or SCROLLD_E_INVALID_VALUE
 * (a non-finite number, invalid UTF-8) with `why`. */
typedef struct jbuf {
    char *data;
    size_t len, cap;
    int failed;
    const char *why;
    /* The member jb_key just began (its caller's string), until anything else is written: a
     * NULL string as its value is named by it, in why_text. */
    const char *key;
    char why_text[96];
} jbuf;

void jb_free(jbuf *b);
void jb_raw(jbuf *b, const char *s, size_t n);
void jb_lit(jbuf *b, const char *s);
void jb_string(jbuf *b, const char *s, size_t n);
void jb_cstring(jbuf *b, const char *s);
void jb_number(jbuf *b, double d);       /* shortest text that reads back the same double */
void jb_int(jbuf *b, int64_t v);
void jb_uint(jbuf *b, uint64_t v);
void jb_bool(jbuf *b, bool v);
void jb_value(jbuf *b, const jv *v);     /* re-encodes a parsed or built value */
/* `,"key":` (or `"key":` right after `{`). */
void jb_key(jbuf *b, const char *key);

#endif
