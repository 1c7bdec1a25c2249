#define _GNU_SOURCE
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
int CScrolldMemfdCreate(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
