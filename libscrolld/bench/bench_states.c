/* The C client's cost per state: parse + callback, through scrolld_dispatch() on a real Unix
 * socket. A child process plays the daemon (welcome, a subscription's first state, then N state
 * lines as scrolld writes them); the client's CPU time (CLOCK_PROCESS_CPUTIME_ID: reads, line
 * splitting, parsing, typed struct, callback) is divided by N. Prints one line:
 *   c-client per-state: NNN ns (N states, B bytes each)
 * usage: bench_states [N] */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scrolld.h"

#define LINE "{\"type\":\"state\",\"container\":\"list\",\"seq\":42,\"t\":1815000,\"phase\":\"interacting\",\"contentOffset\":{\"x\":0,\"y\":123.5},\"velocity\":{\"x\":0,\"y\":812.25},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0},\"header\":{\"height\":76.5,\"progress\":0.8821},\"visibleRows\":{\"first\":0,\"last\":9}}\n"

static long states;
static double checksum;

static void on_state(scrolld *c, const scrolld_state *s, void *data) {
    (void)c, (void)data;
    states++;
    checksum += s->content_offset.y;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    signal(SIGPIPE, SIG_IGN);
    char path[] = "/tmp/libscrolld-bench-XXXXXX";
    if (mkdtemp(path) == NULL) return 1;
    char sock[200];
    snprintf(sock, sizeof sock, "%s/s.sock", path);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, sock, strlen(sock) + 1);
    if (bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 1) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = accept(l, NULL, NULL);
        const char *welcome = "{\"type\":\"welcome\",\"protocol\":1,\"server\":\"bench\",\"containers\":[\"list\"],\"features\":[],\"instance\":\"b\"}\n";
        if (write(fd, welcome, strlen(welcome)) < 0) _exit(1);
        char c;
        while (read(fd, &c, 1) == 1 && c != '\n') {}
        const char *first = "{\"type\":\"state\",\"id\":1,\"container\":\"list\",\"seq\":1,\"t\":1,\"phase\":\"idle\",\"contentOffset\":{\"x\":0,\"y\":0},\"velocity\":{\"x\":0,\"y\":0},\"contentSize\":{\"width\":400,\"height\":4600},\"containerSize\":{\"width\":400,\"height\":600},\"contentInsets\":{\"top\":0,\"leading\":0,\"bottom\":0,\"trailing\":0}}\n";
        if (write(fd, first, strlen(first)) < 0) _exit(1);
        /* batches of lines, as the daemon writes a batch of states in one write */
        size_t len = strlen(LINE);
        char *batch = malloc(len * 64);
        for (int i = 0; i < 64; i++) memcpy(batch + i * len, LINE, len);
        for (long sent = 0; sent < n; sent += 64) {
            size_t count = (size_t)(n - sent < 64 ? n - sent : 64);
            size_t off = 0, total = count * len;
            while (off < total) {
                ssize_t w = write(fd, batch + off, total - off);
                if (w <= 0) _exit(1);
                off += (size_t)w;
            }
        }
        close(fd);
        _exit(0);
    }
    close(l);
    scrolld_error e;
    scrolld *c = scrolld_connect(sock, 0, &e);
    if (c == NULL) { fprintf(stderr, "%s\n", e.message); return 1; }
    scrolld_on_state(c, on_state, NULL);
    if (scrolld_subscribe(c, "list", 0, 0, &e) != 0) { fprintf(stderr, "%s\n", e.message); return 1; }
    scrolld_dispatch(c);
    states = 0;
    double start = cpu_seconds();
    while (states < n) {
        struct pollfd p = {.fd = scrolld_fd(c), .events = POLLIN};
        poll(&p, 1, -1);
        if (scrolld_dispatch(c) != 0) break;
    }
    double used = cpu_seconds() - start;
    scrolld_close(c);
    waitpid(pid, NULL, 0);
    unlink(sock);
    rmdir(path);
    if (states < n) { fprintf(stderr, "only %ld of %ld states\n", states, n); return 1; }
    printf("c-client per-state: %.0f ns (%ld states of %zu bytes; parse + typed state + callback, client CPU time)\n",
           used / (double)n * 1e9, n, strlen(LINE) - 1);
    return checksum > 0 ? 0 : 1;
}
