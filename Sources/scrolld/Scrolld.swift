import ArgumentParser

@main
struct Scrolld: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "scrolld",
        abstract: "Scroll input daemon: real wheels, touchpads and trackpoints drive virtual scroll containers.",
        // Written for both `--help` and the man page (man/scrolld.1 is generated from it): short
        // lines, plain ASCII (the generator drops anything else), no line starting with a dot.
        discussion: """
            scrolld reads the scroll input of a seat's mice, touchpads and trackpoints
            through libinput, turns it into the state of virtual scroll containers
            (offset, velocity, phase, collapsing header, visible rows; the vocabulary of
            SwiftUI's ScrollView) and streams those states to clients over a Unix socket,
            one JSON line each. The daemon is `scrolld run`; the other subcommands record,
            replay and check. Replaying a recorded log prints the same states, byte for
            byte, on every run.

            FILES
              $XDG_CONFIG_HOME/scrolld/scrolld.toml (default
              ~/.config/scrolld/scrolld.toml), then scrolld/scrolld.toml in each directory
              of $XDG_CONFIG_DIRS, then /etc/xdg/scrolld/scrolld.toml: the configuration.
              The first one that exists is used; without any, the built-in defaults. Check
              one with `scrolld check-config`.
              $XDG_RUNTIME_DIR/scrolld/scrolld.sock: the socket clients connect to
              (/tmp/scrolld-UID/scrolld.sock when XDG_RUNTIME_DIR is unset).
              /dev/input/event*: the devices read; reading them takes the input group.
              scrolld.service, scrolld.socket: the systemd user units.

            ENVIRONMENT
              XDG_CONFIG_HOME, XDG_CONFIG_DIRS: where the configuration is looked for.
              XDG_RUNTIME_DIR: where the socket is made.
              XDG_SEAT: the udev seat whose devices are read (default seat0).
              LISTEN_FDS, LISTEN_PID: a listening socket passed by systemd.
              NOTIFY_SOCKET, WATCHDOG_USEC: readiness, status and watchdog for systemd.
              DBUS_SYSTEM_BUS_ADDRESS: the system bus where logind's sessions are followed.
              JOURNAL_STREAM: set by systemd; log lines then carry journal priorities.
              SCROLLD_NIO_WRITES=1: all writes to clients through SwiftNIO (measurements).

            EXIT STATUS
              0 success; 1 failure (another scrolld serves the socket, the socket or the
              port of web.listen cannot be made, check-config found an error, libinput cannot start); 64 bad command
              line, an option value the configuration refuses included (run --set
              nosuch.key=1); 65 malformed event log or transcript; 66 an input file cannot
              be read (a log, the FILE of check-config, a --device of run, devices or record); 73 an output
              file cannot be created; 74 a read or write error (standard output full or
              failing included); 78 the configuration file (--config, or the one found on
              the search path) is invalid or cannot be read where run, replay, record or
              devices loads it.

            EXAMPLES
              systemctl --user enable --now scrolld.socket   (start on first connection)
              scrolld devices                                (what would be read, or why not)
              scrolld check-config ~/.config/scrolld/scrolld.toml
              scrolld record session.scrolllog --duration 10
              scrolld replay session.scrolllog --every 100   (a state every 100 ms)
              scrolld run --replay session.scrolllog --loop  (serve a recording as input)

            SEE ALSO
              scrollctl(1), libinput(1), systemd.socket(5), and the documentation in
              share/doc/scrolld: the README and config, protocol, event-log and physics.
            """,
        version: version,
        subcommands: [Run.self, Replay.self, Record.self, ImportDebugEvents.self, Devices.self, CheckConfig.self]
    )
}
