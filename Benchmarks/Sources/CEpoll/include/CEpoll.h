// epoll for the latency harness: Swift's Glibc module does not export <sys/epoll.h>.
#include <sys/epoll.h>
