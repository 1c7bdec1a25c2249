#ifndef SCROLLD_CLIBINPUT_SHIM_H
#define SCROLLD_CLIBINPUT_SHIM_H

#include <libinput.h>
#include <libudev.h>

#endif
