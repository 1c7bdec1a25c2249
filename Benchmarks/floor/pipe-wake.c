// What one wake-up through a pipe costs on this machine (docs/performance.md, "Input flow
// control"): the loop writing a byte that wakes the input thread out of poll(2), as
// LibinputSource's wake-up requests do. Two threads play ping-pong over two pipes; the process's
// CPU time per round trip (two wake-ups) is printed.
//
//   cc -O2 -o pipe-wake Benchmarks/floor/pipe-wake.c -lpthread && ./pipe-wake [ROUND_TRIPS]
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int wake[2], back[2];
static long trips;

static void wait_and_read(int fd, char *byte) {
    struct pollfd p = {fd, POLLIN, 0};
    poll(&p, 1, -1);
    if (read(fd, byte, 1) != 1) exit(1);
}

static void *input_thread(void *unused) {
    (void)unused;
    char byte;
    for (long i = 0; i < trips; i++) {
        wait_and_read(wake[0], &byte);
        if (write(back[1], &byte, 1) != 1) exit(1);  // the next batch, handed to the loop
    }
    return NULL;
}

int main(int argc, char **argv) {
    trips = argc > 1 ? atol(argv[1]) : 200000;
    if (trips <= 0 || pipe(wake) != 0 || pipe(back) != 0) return 1;
    struct timespec start, end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    pthread_t thread;
    pthread_create(&thread, NULL, input_thread, NULL);
    char byte = 6;
    for (long i = 0; i < trips; i++) {
        if (write(wake[1], &byte, 1) != 1) return 1;
        wait_and_read(back[0], &byte);
    }
    pthread_join(thread, NULL);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("%.0f ns of CPU per round trip (two wake-ups), %ld round trips\n", ns / (double)trips, trips);
    return 0;
}
