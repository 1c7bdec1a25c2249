/* The `devices` reply as typed structs (docs/protocol.md: `devices`). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The caller's scrolld_devices and everything it points at live in one arena. */
typedef struct devices_box {
    scrolld_devices pub;
    arena memory;
} devices_box;

static const char *text(arena *a, const char *s) {
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

static const char *const *strings(arena *a, const jv *array, size_t *count) {
    *count = 0;
    if (array == NULL || array->type != J_ARRAY) return NULL;
    size_t n = 0;
    for (const jv *e = array->child; e != NULL; e = e->next) if (e->type == J_STRING) n++;
    const char **list = arena_alloc(a, (n ? n : 1) * sizeof *list);
    if (list == NULL) return NULL;
    for (const jv *e = array->child; e != NULL; e = e->next)
        if (e->type == J_STRING && (list[*count] = text(a, e->str)) != NULL) (*count)++;
    return list;
}

int devices_read(const jv *msg, scrolld_devices **out) {
    const jv *list = json_get(msg, "devices");
    if (list == NULL || list->type != J_ARRAY) return SCROLLD_E_BAD_REPLY;
    devices_box *box = calloc(1, sizeof *box);
    if (box == NULL) return SCROLLD_E_NO_MEMORY;
    arena_init(&box->memory, 64u << 20);
    size_t n = 0;
    for (const jv *e = list->child; e != NULL; e = e->next) n++;
    scrolld_device *devices = arena_alloc(&box->memory, (n ? n : 1) * sizeof *devices);
    if (devices == NULL) goto oom;
    size_t k = 0;
    for (const jv *e = list->child; e != NULL; e = e->next) {
        if (e->type != J_OBJECT) continue;
        scrolld_device *d = &devices[k++];
        memset(d, 0, sizeof *d);
        json_int(json_get(e, "id"), &d->id);
        d->name = text(&box->memory, json_string(e, "name"));
        d->path = text(&box->memory, json_string(e, "path"));
        d->caps = strings(&box->memory, json_get(e, "caps"), &d->cap_count);
        d->containers = strings(&box->memory, json_get(e, "containers"), &d->container_count);
        d->rules = strings(&box->memory, json_get(e, "rules"), &d->rule_count);
        if (d->name == NULL) d->name = "";
    }
    box->pub.count = k;
    box->pub.devices = devices;
    box->pub.focus = text(&box->memory, json_string(msg, "focus"));
    const jv *input = json_object(msg, "input");
    const char *state = input ? json_string(input, "state") : NULL;
    box->pub.input_active = state == NULL || strcmp(state, "active") == 0;
    box->pub.input_reason = input ? text(&box->memory, json_string(input, "reason")) : NULL;
    *out = &box->pub;
    return 0;
oom:
    arena_free(&box->memory);
    free(box);
    return SCROLLD_E_NO_MEMORY;
}

void scrolld_devices_free(scrolld_devices *devices) {
    if (devices == NULL) return;
    devices_box *box = (devices_box *)devices;
    arena_free(&box->memory);
    free(box);
}
