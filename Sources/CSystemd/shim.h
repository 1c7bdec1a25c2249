#ifndef SCROLLD_CSYSTEMD_SHIM_H
#define SCROLLD_CSYSTEMD_SHIM_H

// libsystemd, from Debian's libsystemd-dev: sd-bus (logind on the system bus, docs/design.md §15) and
// sd-daemon (sd_notify, sd_listen_fds_with_names, sd_watchdog_enabled).
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>

#endif
