#ifndef SCROLLD_CGIO_SHIM_H
#define SCROLLD_CGIO_SHIM_H

// GLib's GIO, from Debian's libglib2.0-dev: GSettings (GNOME's natural scrolling and animations,
// docs/design.md §23), its schema source, and the main context its change signals arrive on.
#include <gio/gio.h>

#endif
