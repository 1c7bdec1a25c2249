// The few Linux interfaces Swift's Glibc module leaves out without _GNU_SOURCE. The header
// stays free of _GNU_SOURCE (its definitions would clash with the Glibc module's); shim.c
// defines it and checks every mirror here against the real declaration at compile time.
#ifndef CSCROLLD_SHIM_H
#define CSCROLLD_SHIM_H

#include <stdint.h>

/// `struct ucred`, SO_PEERCRED's answer: the connecting process' pid, uid and gid (layout
/// checked against <sys/socket.h>'s in shim.c).
typedef struct {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} CScrolldPeerCredentials;

/// RLIMIT_RTTIME: CPU time, µs, a real-time thread may use without blocking.
int CScrolldRLimitRealtimeCPU(void);
/// RLIMIT_RTPRIO: the highest real-time priority an unprivileged thread may ask for.
int CScrolldRLimitRealtimePriority(void);
/// gettid(2): the calling thread's id.
int32_t CScrolldThreadID(void);
/// memfd_create(2) with MFD_CLOEXEC and MFD_ALLOW_SEALING: the anonymous file the session is kept
/// in (docs/design.md §16).
int CScrolldMemfdCreate(const char *name);
/// Seals `fd` against shrinking (F_ADD_SEALS, F_SEAL_SHRINK; growing stays allowed), unless it
/// is sealed so already: 0, or a negative errno (EINVAL: not a memfd; EPERM: made without
/// MFD_ALLOW_SEALING, or its seals are sealed).
int CScrolldSealAgainstShrinking(int fd);
/// The uid owning the TCP socket at the other end of a loopback connection, asked of the
/// kernel with NETLINK_SOCK_DIAG (inet_diag): the socket whose own address is `peerAddress`
/// port `peerPort` and whose peer is `localAddress` port `localPort`. `family` is 4 or 6; the
/// addresses are 4 or 16 bytes in network order, the ports in host order. Returns 0 and sets
/// `*uid`, or a negative errno (-ENOENT: no such socket, the peer is gone or not on this host).
int CScrolldLoopbackPeerUID(int family, const uint8_t *peerAddress, uint16_t peerPort, const uint8_t *localAddress, uint16_t localPort, uint32_t *uid);

#endif
