/* The library's own JSON reader and writer (src/json.c): what it accepts, what it refuses,
 * and numbers written so they read back exactly, whatever the process's locale. */
#include "harness.h"

#include <locale.h>
#include <math.h>

#include "json.h"

static arena a;

static jv *parse(const char *text) {
    arena_reset(&a);
    return json_parse(&a, text, strlen(text), NULL);
}

static const char *const valid[] = {
    "{}", "[]", "0", "-0", "1.5e3", "-1E-7", "true", "false", "null", "\"\"", " {\"a\" : [1, 2 ,{}]} ",
    "\"\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "1.7976931348623157e308",
};

static const char *const invalid[] = {
    "", " ", "{", "[1,]", "{\"a\":}", "{\"a\" 1}", "{1:2}", "01", "1.", ".5", "-", "1e", "+1", "0x10",
    "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u0000\"",
    "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "\"a\tb\"",
    "1e999", "-1e999", "[1] 2", "{\"a\":1}}", "NaN", "Infinity",
};

int main(void) {
    arena_init(&a, 1u << 20);
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++)
        if (parse(valid[i]) == NULL) { fprintf(stderr, "refused valid JSON: %s\n", valid[i]); return 1; }
    for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++)
        if (parse(invalid[i]) != NULL) { fprintf(stderr, "accepted invalid JSON: %s\n", invalid[i]); return 1; }
    printf("ok %zu valid and %zu invalid texts\n", sizeof valid / sizeof *valid, sizeof invalid / sizeof *invalid);

    /* nesting: 64 levels read, 65 refused */
    char deep[200];
    for (int depth = 64; depth <= 65; depth++) {
        memset(deep, '[', (size_t)depth);
        memset(deep + depth, ']', (size_t)depth);
        deep[2 * depth] = '\0';
        CHECK((parse(deep) != NULL) == (depth == 64));
    }
    /* the arena bounds a line's memory: a huge array in a small arena is refused */
    arena small;
    arena_init(&small, 4096);
    CHECK(json_parse(&small, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80]", 232, NULL) == NULL);
    arena_free(&small);
    printf("ok bounds: depth 64, the arena's limit\n");

    jv *v = parse("{\"s\":\"\\u00e9\\ud83d\\ude00\",\"n\":18446744073709551615,\"m\":-9223372036854775808,\"d\":0.1,\"dup\":1,\"dup\":2}");
    CHECK(v != NULL);
    CHECK_STR(json_string(v, "s"), "\xc3\xa9\xf0\x9f\x98\x80");
    uint64_t u;
    int64_t i64;
    CHECK(json_uint(json_get(v, "n"), &u) && u == UINT64_MAX);
    CHECK(!json_int(json_get(v, "n"), &i64));
    CHECK(json_int(json_get(v, "m"), &i64) && i64 == INT64_MIN);
    double dd;
    CHECK(json_number(v, "d", &dd) && dd == 0.1);
    CHECK(json_int(json_get(v, "dup"), &i64) && i64 == 2);  /* the last one wins, as the daemon reads */
    printf("ok strings decoded, integers exact to 64 bits\n");

    /* numbers: shortest text, read back exactly, in any locale */
    const char *comma = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    if (comma == NULL) comma = setlocale(LC_NUMERIC, "fr_FR.UTF-8");
    locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t saved = uselocale(c_locale);
    const double numbers[] = {0.1, 1.0 / 3, 2092, -48, 1e-300, 1.7976931348623157e308, 5e-324, 123456.789};
    for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++) {
        jbuf b = {0};
        jb_number(&b, numbers[k]);
        jb_raw(&b, "", 1);
        jv *n = parse(b.data);
        CHECK(n != NULL && n->number == numbers[k]);
        CHECK(strchr(b.data, ',') == NULL);
        jb_free(&b);
    }
    uselocale(saved);
    freelocale(c_locale);
    setlocale(LC_NUMERIC, "C");
    jbuf b = {0};
    jb_number(&b, NAN);
    CHECK(b.failed == SCROLLD_E_INVALID_VALUE);
    jb_free(&b);
    jb_string(&b, "a\"\\\n\x01", 5);
    jb_raw(&b, "", 1);
    CHECK_STR(b.data, "\"a\\\"\\\\\\u000a\\u0001\"");
    jb_free(&b);
    printf("ok writer: shortest exact numbers%s, escapes, NaN refused\n", comma ? " (also under a comma locale)" : "");
    arena_free(&a);
    printf("json: all passed\n");
    return 0;
}
