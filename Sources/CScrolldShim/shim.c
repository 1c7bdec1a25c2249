#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "CScrolldShim.h"

_Static_assert(sizeof(CScrolldPeerCredentials) == sizeof(struct ucred), "struct ucred's size");
_Static_assert(offsetof(CScrolldPeerCredentials, pid) == offsetof(struct ucred, pid), "ucred.pid");
_Static_assert(offsetof(CScrolldPeerCredentials, uid) == offsetof(struct ucred, uid), "ucred.uid");
_Static_assert(offsetof(CScrolldPeerCredentials, gid) == offsetof(struct ucred, gid), "ucred.gid");

int CScrolldRLimitRealtimeCPU(void) { return RLIMIT_RTTIME; }
int CScrolldRLimitRealtimePriority(void) { return RLIMIT_RTPRIO; }
int32_t CScrolldThreadID(void) { return (int32_t)gettid(); }
int CScrolldMemfdCreate(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }
int CScrolldSealAgainstShrinking(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    if (seals >= 0 && (seals & F_SEAL_SHRINK)) return 0;
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) == 0 ? 0 : -errno;
}

// inet_diag's exact lookup (no dump): one request, one answer, whatever the number of sockets.
#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>

int CScrolldLoopbackPeerUID(int family, const uint8_t *peerAddress, uint16_t peerPort,
                            const uint8_t *localAddress, uint16_t localPort, uint32_t *uid) {
    if (family != 4 && family != 6) return -EAFNOSUPPORT;
    size_t length = family == 4 ? 4 : 16;
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST;
    message.request.sdiag_family = family == 4 ? AF_INET : AF_INET6;
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = ~0U;
    // The peer's socket: its source is the connection's remote end, its destination ours.
    message.request.id.idiag_sport = htons(peerPort);
    message.request.id.idiag_dport = htons(localPort);
    memcpy(message.request.id.idiag_src, peerAddress, length);
    memcpy(message.request.id.idiag_dst, localAddress, length);
    message.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    message.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -errno;
    // The kernel answers within the send; the timeout only guards against a kernel that
    // never does.
    struct timeval timeout = {.tv_sec = 1, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    union {
        struct nlmsghdr header;
        char bytes[8192];
    } reply;
    ssize_t received;
    do {
        received = recv(fd, &reply, sizeof reply, 0);
    } while (received < 0 && errno == EINTR);
    int error = received < 0 ? errno : 0;
    close(fd);
    if (received < 0) return -error;
    struct nlmsghdr *header = &reply.header;
    if (!NLMSG_OK(header, (size_t)received)) return -EPROTO;
    if (header->nlmsg_type == NLMSG_ERROR) {
        struct nlmsgerr *failure = NLMSG_DATA(header);
        return failure->error != 0 ? failure->error : -ENOENT;
    }
    if (header->nlmsg_type != SOCK_DIAG_BY_FAMILY || header->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
        return -EPROTO;
    }
    struct inet_diag_msg *answer = NLMSG_DATA(header);
    *uid = answer->idiag_uid;
    return 0;
}
