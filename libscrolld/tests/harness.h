/* The C tests' harness: a real scrolld ($SCROLLD_BIN) on a socket of its own, fed by a replay
 * log the test writes; checks that fail the test at once; waits whose deadline only catches a
 * hang (no test judges time). */
#ifndef HARNESS_H
#define HARNESS_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scrolld.h"

/* A test still waiting after this long is stuck: it fails, saying what it waited for. */
#define HANG_MS 60000

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); exit(1); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); exit(1); } } while (0)
#define CHECK_EQ_NUM(a, b) do { double a_ = (a), b_ = (b); if (!(a_ - b_ < 1e-9 && b_ - a_ < 1e-9)) { fprintf(stderr, "%s:%d: %s == %.17g, expected %.17g\n", __FILE__, __LINE__, #a, a_, b_); exit(1); } } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); if (a_ == NULL || strcmp(a_, b_) != 0) { fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_); exit(1); } } while (0)
/* A request that must succeed. */
#define OK(call) do { scrolld_error e_ = {0}; int r_ = (call); if (r_ != 0) { fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call, e_.name, e_.message); exit(1); } } while (0)
#define ERR (&e_)
/* A request that must fail with `code`; its error is left in `last_error`. */
static __attribute__((unused)) scrolld_error last_error;
#define FAILS(want, call) do { scrolld_error e_ = {0}; int r_ = (call); last_error = e_; if (r_ != (want) || e_.code != (want)) { fprintf(stderr, "%s:%d: %s returned %d (%s: %s), expected %s\n", __FILE__, __LINE__, #call, r_, e_.name, e_.message, scrolld_code_name(want)); exit(1); } } while (0)

static __attribute__((unused)) long long now_ms_(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct daemon_proc {
    char dir[256];
    char socket[300];
    char log[300];
    char config[300];
    pid_t pid;
    int starts;
    bool loop;  /* run --loop: the log starts over when it ends */
} daemon_proc;

static __attribute__((unused)) void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* One wheel device and no input: nothing moves unless a request moves it. */
static const char QUIET_LOG[] =
    "{\"format\":\"scrolld-events\",\"version\":1,\"created\":\"2026-11-25T00:00:00Z\",\"source\":\"libscrolld tests\"}\n"
    "{\"t\":1000000,\"dev\":1,\"type\":\"device_added\",\"name\":\"Test Wheel\",\"caps\":[\"wheel\"]}\n";

static __attribute__((unused)) void daemon_setup(daemon_proc *d, const char *name) {
    memset(d, 0, sizeof *d);
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(d->dir, sizeof d->dir, "%s/libscrolld-%s-XXXXXX", tmp, name);
    CHECK(mkdtemp(d->dir) != NULL);
    snprintf(d->socket, sizeof d->socket, "%s/s.sock", d->dir);
    snprintf(d->log, sizeof d->log, "%s/quiet.scrolllog", d->dir);
    snprintf(d->config, sizeof d->config, "%s/scrolld.toml", d->dir);
    write_file(d->log, QUIET_LOG);
    write_file(d->config, "");
}

static __attribute__((unused)) bool can_connect(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) { close(fd); return false; }
    memcpy(a.sun_path, path, strlen(path) + 1);
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

static __attribute__((unused)) void daemon_start(daemon_proc *d) {
    const char *bin = getenv("SCROLLD_BIN");
    CHECK(bin != NULL && access(bin, X_OK) == 0);
    unlink(d->socket);
    d->starts++;
    char err[400];
    snprintf(err, sizeof err, "%s/scrolld-%d.stderr", d->dir, d->starts);
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        /* A test that fails exits at once (CHECK): its daemon goes with it, not left serving
         * a removed directory. No test threads start daemons. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { dup2(fd, 2); close(fd); }
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { dup2(null, 0); dup2(null, 1); close(null); }
        execl(bin, bin, "run", "--replay", d->log, "--socket", d->socket, "--config", d->config,
              d->loop ? "--loop" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    d->pid = pid;
    long long end = now_ms_() + HANG_MS;
    while (!can_connect(d->socket)) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            fprintf(stderr, "scrolld exited (status %d); see %s\n", status, err);
            exit(1);
        }
        if (now_ms_() > end) { fprintf(stderr, "scrolld never listened on %s\n", d->socket); exit(1); }
        poll(NULL, 0, 10);  /* polling a condition, not a sleep that synchronises */
    }
}

/* SIGKILL: the daemon goes away without a word, its socket file left behind. */
static __attribute__((unused)) void daemon_kill(daemon_proc *d) {
    if (d->pid <= 0) return;
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    d->pid = 0;
}

static __attribute__((unused)) void daemon_stop(daemon_proc *d) {
    if (d->pid <= 0) return;
    kill(d->pid, SIGTERM);
    waitpid(d->pid, NULL, 0);
    d->pid = 0;
}

static __attribute__((unused)) void daemon_cleanup(daemon_proc *d) {
    daemon_stop(d);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", d->dir);
}

/* Dispatches until cond (an expression) holds; fails on the hang deadline. */
#define DISPATCH_UNTIL(client, cond) do { \
    long long end_ = now_ms_() + HANG_MS; \
    while (!(cond)) { \
        if (now_ms_() > end_) { fprintf(stderr, "%s:%d: timed out waiting for %s\n", __FILE__, __LINE__, #cond); exit(1); } \
        struct pollfd p_ = {.fd = scrolld_fd(client), .events = POLLIN}; \
        poll(&p_, 1, 1000); \
        scrolld_dispatch(client); \
    } \
} while (0)

#endif
