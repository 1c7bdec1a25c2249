// The floor of "CPU per second of scrolling" (docs/performance.md), and the subscribers both servers are
// measured with. Built by Benchmarks/scripts/scroll-cpu.sh with `cc -O2`.
//
//   scroll-cpu subscribe SOCKET N READY_FILE STATES_FILE
//       connects N subscribers to SOCKET (the welcome line, then subscribe to "main" and its
//       reply, one after the other), creates READY_FILE, then reads every socket through epoll
//       until nothing has arrived for 1.5 s after the first state. Writes the `t` and length of
//       every state line the first subscriber got to STATES_FILE ("t bytes" per line) and
//       prints "<states of the first subscriber> <lines over all subscribers>".
//   scroll-cpu floor SOCKET N STATES_FILE LEAD_MS
//       the floor server: listens on SOCKET, greets N subscribers and answers their subscribe,
//       then, LEAD_MS after the last one, does only what publishing those states must: sleep
//       until each state's instant (relative to the first, as recorded from the daemon) and
//       write(2) a line of the same length to every subscriber. Exits 1 s after the last.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(2); }

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct sockaddr_un address(const char *path) {
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) { fprintf(stderr, "socket path too long\n"); exit(2); }
    strcpy(a.sun_path, path);
    return a;
}

// One line from a blocking socket, byte by byte (only for the handshake).
static size_t read_line(int fd, char *line, size_t size) {
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r <= 0) die("read (handshake)");
        if (c == '\n') { line[n < size ? n : size - 1] = 0; return n; }
        if (n + 1 < size) line[n] = c;
        n++;
    }
}

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t w = write(fd, bytes, count);
        if (w < 0) { if (errno == EINTR) continue; die("write"); }
        bytes += w; count -= (size_t)w;
    }
}

static int subscribe(int argc, char **argv) {
    if (argc != 6) return 2;
    const char *path = argv[2];
    int n = atoi(argv[3]);
    struct sockaddr_un a = address(path);
    int *fds = calloc((size_t)n, sizeof *fds);
    char line[4096];
    int64_t give_up = now_ns() + 60 * 1000000000LL;
    for (int i = 0; i < n; i++) {
        for (;;) {
            fds[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (connect(fds[i], (struct sockaddr *)&a, sizeof a) == 0) break;
            close(fds[i]);
            if (now_ns() > give_up) die("connect");
            usleep(50000);
        }
        read_line(fds[i], line, sizeof line);  // welcome
        const char *request = "{\"op\":\"subscribe\",\"container\":\"main\",\"id\":1}\n";
        write_all(fds[i], request, strlen(request));
        read_line(fds[i], line, sizeof line);  // the reply (the current state)
    }
    FILE *ready = fopen(argv[4], "w");
    if (!ready) die("ready file");
    fclose(ready);

    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < n; i++) {
        fcntl(fds[i], F_SETFL, O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e);
    }
    FILE *states = fopen(argv[5], "w");
    if (!states) die("states file");
    static char buffer[1 << 20];
    static char partial[1 << 16];
    size_t held = 0;  // the first subscriber's unfinished line
    long first_states = 0, lines = 0;
    int64_t last = 0;
    struct epoll_event events[256];
    for (;;) {
        int timeout = last ? 100 : 1000;
        int k = epoll_wait(ep, events, 256, timeout);
        if (k < 0) { if (errno == EINTR) continue; die("epoll_wait"); }
        if (last && now_ns() - last > 1500000000LL) break;
        if (!last && now_ns() > give_up + 120 * 1000000000LL) break;
        for (int j = 0; j < k; j++) {
            int i = (int)events[j].data.u32;
            ssize_t r = read(fds[i], buffer, sizeof buffer);
            if (r <= 0) { if (r < 0 && errno == EAGAIN) continue; fprintf(stderr, "subscriber %d: connection closed\n", i); exit(1); }
            last = now_ns();
            for (ssize_t b = 0; b < r; b++) if (buffer[b] == '\n') lines++;
            if (i != 0) continue;
            for (ssize_t b = 0; b < r; b++) {
                if (held < sizeof partial) partial[held] = buffer[b];
                held++;
                if (buffer[b] != '\n') continue;
                partial[held < sizeof partial ? held - 1 : sizeof partial - 1] = 0;
                char *t = strstr(partial, "\"t\":");
                if (strstr(partial, "\"type\":\"state\"") && t) {
                    fprintf(states, "%lld %zu\n", strtoll(t + 4, NULL, 10), held);
                    first_states++;
                }
                held = 0;
            }
        }
    }
    fclose(states);
    printf("%ld %ld\n", first_states, lines);
    return 0;
}

static int floor_server(int argc, char **argv) {
    if (argc != 6) return 2;
    const char *path = argv[2];
    int n = atoi(argv[3]);
    int64_t lead = atoll(argv[5]) * 1000000LL;
    FILE *f = fopen(argv[4], "r");
    if (!f) die("states file");
    size_t count = 0, capacity = 1 << 16;
    long long *times = malloc(capacity * sizeof *times);
    size_t *sizes = malloc(capacity * sizeof *sizes);
    long long t; size_t bytes;
    while (fscanf(f, "%lld %zu", &t, &bytes) == 2) {
        if (count == capacity) {
            capacity *= 2;
            times = realloc(times, capacity * sizeof *times);
            sizes = realloc(sizes, capacity * sizeof *sizes);
        }
        times[count] = t; sizes[count] = bytes < 64 ? 64 : bytes; count++;
    }
    fclose(f);

    unlink(path);
    struct sockaddr_un a = address(path);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (bind(listener, (struct sockaddr *)&a, sizeof a) != 0 || listen(listener, 1024) != 0) die("listen");
    int *fds = calloc((size_t)n, sizeof *fds);
    char line[4096];
    const char *welcome = "{\"type\":\"welcome\",\"protocol\":1,\"server\":\"floor\",\"containers\":[\"main\"]}\n";
    const char *reply = "{\"type\":\"state\",\"id\":1,\"container\":\"main\",\"seq\":0}\n";
    for (int i = 0; i < n; i++) {
        fds[i] = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fds[i] < 0) die("accept");
        write_all(fds[i], welcome, strlen(welcome));
        read_line(fds[i], line, sizeof line);
        write_all(fds[i], reply, strlen(reply));
    }
    // A state line of each recorded length: `t` and `seq` written into a fixed template.
    static char state[1 << 16];
    int64_t base = now_ns() + lead;
    for (size_t s = 0; s < count; s++) {
        int64_t due = base + (times[s] - times[0]) * 1000;
        struct timespec ts = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        size_t size = sizes[s] < sizeof state ? sizes[s] : sizeof state;
        int head = snprintf(state, size, "{\"type\":\"state\",\"container\":\"main\",\"seq\":%zu,\"t\":%lld,\"pad\":\"", s + 1, (long long)(due / 1000));
        if ((size_t)head + 3 > size) head = (int)size - 3;
        memset(state + head, 'x', size - (size_t)head - 3);
        memcpy(state + size - 3, "\"}\n", 3);
        for (int i = 0; i < n; i++) {
            if (write(fds[i], state, size) < 0 && errno != EAGAIN) die("write");
        }
    }
    sleep(3);  // the subscribers stop reading after 1.5 s of quiet
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "subscribe") == 0) return subscribe(argc, argv);
    if (argc > 1 && strcmp(argv[1], "floor") == 0) return floor_server(argc, argv);
    fprintf(stderr, "usage: scroll-cpu subscribe SOCKET N READY_FILE STATES_FILE | floor SOCKET N STATES_FILE LEAD_MS\n");
    return 2;
}
