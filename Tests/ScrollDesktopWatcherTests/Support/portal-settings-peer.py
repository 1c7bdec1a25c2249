#!/usr/bin/env python3
"""A D-Bus peer with the XDG desktop portal's Settings interface, for the watcher's tests.

It owns org.freedesktop.portal.Desktop on the bus given and serves
org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop as the portal does:
version 2 has ReadOne (a variant), version 1 only Read (a variant in a variant, as portals
before 1.17 answered). A key it does not have is org.freedesktop.portal.Error.NotFound.
Each line `set NAMESPACE KEY VALUE` on stdin sets a uint32 and emits SettingChanged; it
prints `ready` once it owns its name, and ends with its stdin or SIGTERM.
"""
import argparse
import signal
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "org.freedesktop.portal.Settings"
NOT_FOUND = "org.freedesktop.portal.Error.NotFound"


class Settings(dbus.service.Object):
    def __init__(self, bus, values):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.values = values

    def value(self, namespace, key):
        if (namespace, key) not in self.values:
            raise dbus.exceptions.DBusException("Requested setting not found", name=NOT_FOUND)
        return self.values[(namespace, key)]

    @dbus.service.method(INTERFACE, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        return dbus.UInt32(self.value(namespace, key), variant_level=1)

    @dbus.service.signal(INTERFACE, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    def set(self, namespace, key, value):
        self.values[(namespace, key)] = value
        self.SettingChanged(namespace, key, dbus.UInt32(value))


class SettingsVersion2(Settings):
    @dbus.service.method(INTERFACE, in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        return dbus.UInt32(self.value(namespace, key))


def main():
    # The test process blocks signals in its threads, and a spawned process keeps that mask.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--version", type=int, choices=[1, 2], default=2)
    parser.add_argument("--reduced-motion", type=int, help="absent: the portal has no such key")
    arguments = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(arguments.address)
    values = {("org.freedesktop.appearance", "color-scheme"): 0}
    if arguments.reduced_motion is not None:
        values[("org.freedesktop.appearance", "reduced-motion")] = arguments.reduced_motion
    settings = (SettingsVersion2 if arguments.version == 2 else Settings)(bus, values)
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus, do_not_queue=True)
    loop = GLib.MainLoop()

    def command(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        namespace, key, value = line.split()[1:]
        settings.set(namespace, key, int(value))
        print("set", flush=True)
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, command)
    print("ready", flush=True)
    loop.run()
    del name


if __name__ == "__main__":
    main()
