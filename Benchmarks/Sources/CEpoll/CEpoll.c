// A C target needs a source file; CEpoll only exposes <sys/epoll.h> (include/CEpoll.h).
#include "CEpoll.h"
