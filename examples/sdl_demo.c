/* A kiosk's list in an SDL2 window, driven by libscrolld (docs/clients.md, "C"): 500 rows of
 * 56 px under a header collapsing from 160 to 60 px, keys that scroll through the daemon
 * (Up/Down, Page Up/Page Down, Home/End), and 100 more rows whenever `nearEnd` says the end is
 * near. It draws only what the daemon publishes; input from any device scrolls it.
 *
 *   cc sdl_demo.c $(pkg-config --cflags --libs scrolld sdl2) -o sdl_demo
 *   ./sdl_demo [--socket PATH] [--report]
 *
 * --report prints one line per idle state drawn ({"seq":…,"y":…,"header":…}), for tests.
 *
 * The main loop is SDL's; a small thread waits on scrolld_fd() and wakes it with an SDL event,
 * and the main thread calls scrolld_dispatch() (libscrolld's threading rule: one thread uses
 * the client; only the descriptor is watched from the other).
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <SDL.h>
#include <scrolld.h>

#define WIDTH 480
#define HEIGHT 640
#define HEADER_MIN 60
#define HEADER_MAX 160
#define ROW 56
#define ROWS 500
#define MORE 100
#define STRIPE 16  /* each row's left stripe encodes its index: red + 256 green, blue 200 */
#define CONTAINER "kiosk"

static const SDL_Color BACKGROUND = {250, 250, 252, 255};
static const SDL_Color ROW_COLOURS[2] = {{255, 255, 255, 255}, {236, 240, 246, 255}};
static const SDL_Color HEADER_BLUE = {33, 99, 196, 255};
static const SDL_Color TITLE = {255, 255, 255, 255};

typedef struct app {
    scrolld *client;
    SDL_Renderer *renderer;
    scrolld_state state;  /* the latest, its strings not kept */
    bool have_state, dirty, report;
    int64_t rows;
    int fd;
    Uint32 wake_event;
    SDL_sem *dispatched;
    volatile bool quit;
} app;

static void on_state(scrolld *client, const scrolld_state *state, void *data) {
    (void)client;
    app *a = data;
    a->state = *state;
    a->state.container = CONTAINER;
    a->state.phase_name = NULL;
    a->have_state = a->dirty = true;
}

/* nearEnd: load more rows; the view stays where it is (scroll anchoring). */
static void on_observation(scrolld *client, const scrolld_observation *o, void *data) {
    app *a = data;
    if (o->new_value.type != SCROLLD_VALUE_BOOL || !o->new_value.boolean) return;
    scrolld_settings *more = scrolld_settings_new();
    scrolld_settings_rows_insert(more, a->rows, MORE, -1);
    scrolld_error error;
    if (scrolld_configure(client, CONTAINER, more, &error) == 0) a->rows += MORE;
    else fprintf(stderr, "loading more rows: %s: %s\n", error.name, error.message);
    scrolld_settings_free(more);
}

static void fill(SDL_Renderer *r, SDL_Color c, int x, int y, int w, int h) {
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_Rect rect = {x, y, w, h};
    SDL_RenderFillRect(r, &rect);
}

/* docs/protocol.md, "Drawing a state": rows at top + i·h − offset, the header over them. */
static void draw(app *a) {
    SDL_Renderer *r = a->renderer;
    const scrolld_state *s = &a->state;
    double y = s->content_offset.y;
    fill(r, BACKGROUND, 0, 0, WIDTH, HEIGHT);
    int64_t first = (int64_t)SDL_floor((y - HEADER_MAX) / ROW);
    if (first < 0) first = 0;
    for (int64_t i = first; i < a->rows; i++) {
        double top = HEADER_MAX + (double)i * ROW - y;
        if (top >= HEIGHT) break;
        int screen = (int)SDL_round(top);
        fill(r, ROW_COLOURS[i % 2], 0, screen, WIDTH, ROW);
        SDL_Color stripe = {(Uint8)(i % 256), (Uint8)(i / 256), 200, 255};
        fill(r, stripe, 0, screen, STRIPE, ROW);
        fill(r, (SDL_Color){200, 205, 215, 255}, STRIPE + 16, screen + ROW / 2 - 4, 160 + (int)(i * 37 % 200), 8);
    }
    int header = (int)SDL_round(s->has_header ? s->header_height : HEADER_MAX);
    fill(r, HEADER_BLUE, 0, 0, WIDTH, header);
    /* the large title shrinks into the small one as the header collapses (progress 0 → 1) */
    double p = s->has_header ? s->header_progress : 0;
    int title_h = (int)SDL_round(28 - 12 * p), title_w = (int)SDL_round(220 - 100 * p);
    fill(r, TITLE, 24, header - title_h - 16, title_w, title_h);
    SDL_RenderPresent(r);
    if (a->report && s->phase == SCROLLD_PHASE_IDLE) {
        printf("{\"seq\":%llu,\"y\":%.17g,\"header\":%.17g}\n", (unsigned long long)s->seq, y, s->header_height);
        fflush(stdout);
    }
}

/* Waits on the client's descriptor and wakes the main loop; waits again once it dispatched. */
static int watch(void *data) {
    app *a = data;
    int fd = a->fd;
    while (!a->quit) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0) continue;
        SDL_Event wake = {.type = a->wake_event};
        SDL_PushEvent(&wake);
        SDL_SemWait(a->dispatched);
    }
    return 0;
}

static void key(app *a, SDL_Keycode k) {
    scrolld_error error;
    scrolld_animation smooth = {.kind = SCROLLD_ANIMATION_SMOOTH};
    scrolld_position edge = {0};
    int failed = 0;
    double page = HEIGHT - HEADER_MIN;
    switch (k) {
    case SDLK_DOWN: failed = scrolld_scroll_by(a->client, CONTAINER, 0, ROW, &smooth, &error); break;
    case SDLK_UP: failed = scrolld_scroll_by(a->client, CONTAINER, 0, -ROW, &smooth, &error); break;
    case SDLK_PAGEDOWN: failed = scrolld_scroll_by(a->client, CONTAINER, 0, page, &smooth, &error); break;
    case SDLK_PAGEUP: failed = scrolld_scroll_by(a->client, CONTAINER, 0, -page, &smooth, &error); break;
    case SDLK_HOME: edge.edge = "top"; failed = scrolld_scroll_to(a->client, CONTAINER, &edge, &smooth, &error); break;
    case SDLK_END: edge.edge = "bottom"; failed = scrolld_scroll_to(a->client, CONTAINER, &edge, &smooth, &error); break;
    case SDLK_ESCAPE: case SDLK_q: a->quit = true; break;
    default: break;
    }
    if (failed) fprintf(stderr, "%s: %s\n", error.name, error.message);
}

int main(int argc, char **argv) {
    const char *socket_path = NULL;
    app a = {.rows = ROWS};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) socket_path = argv[++i];
        else if (strcmp(argv[i], "--report") == 0) a.report = true;
        else { fprintf(stderr, "usage: %s [--socket PATH] [--report]\n", argv[0]); return 64; }
    }
    scrolld_error error;
    /* Reconnecting: a daemon restart puts the list back where it was (docs/design.md §20). */
    a.client = scrolld_connect(socket_path, SCROLLD_RECONNECT, &error);
    if (a.client == NULL) {
        fprintf(stderr, "%s: %s\n", error.name, error.message);
        return 69;
    }
    scrolld_on_state(a.client, on_state, &a);
    scrolld_on_observation(a.client, on_observation, &a);
    scrolld_settings *list = scrolld_settings_new();
    scrolld_settings_container_size(list, WIDTH, HEIGHT);
    scrolld_settings_header(list, HEADER_MIN, HEADER_MAX);
    scrolld_settings_rows(list, ROWS, ROW);
    scrolld_settings_owned(list, true);
    int failed = scrolld_configure(a.client, CONTAINER, list, &error);
    scrolld_settings_free(list);
    uint64_t near_end;
    scrolld_observe_options near = {.has_distance = true, .distance = 2 * HEIGHT};
    if (!failed) failed = scrolld_subscribe(a.client, CONTAINER, 120, 0, &error);
    if (!failed) failed = scrolld_observe(a.client, CONTAINER, "nearEnd", &near, &near_end, &error);
    if (failed) {
        fprintf(stderr, "%s: %s\n", error.name, error.message);
        scrolld_close(a.client);
        return 1;
    }

    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "SDL: %s\n", SDL_GetError());
        scrolld_close(a.client);
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("scrolld: SDL2 kiosk", 0, 0, WIDTH, HEIGHT, 0);
    a.renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE) : NULL;
    if (a.renderer == NULL) {
        fprintf(stderr, "SDL: %s\n", SDL_GetError());
        SDL_Quit();
        scrolld_close(a.client);
        return 1;
    }
    a.wake_event = SDL_RegisterEvents(1);
    a.fd = scrolld_fd(a.client);
    a.dispatched = SDL_CreateSemaphore(0);
    SDL_Thread *watcher = SDL_CreateThread(watch, "scrolld-watch", &a);
    scrolld_dispatch(a.client);  /* the first state came with the subscription */
    while (!a.quit) {
        SDL_Event ev;
        if (a.dirty && a.have_state) {
            a.dirty = false;
            draw(&a);
        }
        if (!SDL_WaitEvent(&ev)) break;
        do {
            if (ev.type == a.wake_event) {
                if (scrolld_dispatch(a.client) != 0) a.quit = true;
                SDL_SemPost(a.dispatched);
            } else if (ev.type == SDL_QUIT) {
                a.quit = true;
            } else if (ev.type == SDL_KEYDOWN) {
                key(&a, ev.key.keysym.sym);
            } else if (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_EXPOSED) {
                a.dirty = a.have_state;
            }
        } while (SDL_PollEvent(&ev));
    }
    SDL_SemPost(a.dispatched);
    SDL_WaitThread(watcher, NULL);
    SDL_DestroySemaphore(a.dispatched);
    SDL_DestroyRenderer(a.renderer);
    SDL_DestroyWindow(window);
    SDL_Quit();
    scrolld_close(a.client);
    return 0;
}
