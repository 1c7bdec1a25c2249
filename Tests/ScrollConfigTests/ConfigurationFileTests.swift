import Foundation
import ScrollConfig
import ScrollModel
import Testing

@Suite("Configuration files: TOML, lines of errors, the shipped defaults, the search path")
struct ConfigurationFileTests {
    // MARK: Valid files

    @Test func aFullFileReachesEveryKey() throws {
        let config = try Configuration.parse(
            """
            # a comment
            [daemon]
            socket = "/tmp/scrolld.sock"
            seat = "seat1"
            devices = ["/dev/input/event3"]
            ignore = ["Keyboard"]
            frame_rate = 60
            allow_uids = [1001, 1002]

            [physics]
            wheel_animation = "none"
            wheel_step = 40
            deceleration_rate = 0.99

            [containers.main]
            containerSize = "1024x768"
            axes = "both"

            [containers.list]
            containerSize = [400, 300]
            contentSize = { width = 400, height = 5000 }
            insets = { top = 10, bottom = 20 }
            scroll_target = "rows"
            devices = ["Touchpad"]

            [containers.list.header]
            min_height = 60
            max_height = 200
            stretch = false

            [containers.list.rows]
            count = 50
            height = 44.5
            threshold = 0.25

            [containers.list.physics]
            profile = "gtk"
            """,
            file: "full.toml"
        )
        var daemon = DaemonSettings()
        daemon.socket = "/tmp/scrolld.sock"
        daemon.seat = "seat1"
        daemon.devices = ["/dev/input/event3"]
        daemon.ignore = ["Keyboard"]
        daemon.frameRate = 60
        daemon.allowUIDs = [1001, 1002]
        #expect(config.daemon == daemon)

        var physics = ScrollPhysics()
        physics.wheelAnimation = .none
        physics.wheelStep = .points(40)
        physics.decelerationRate = 0.99
        #expect(try config.resolvePhysics() == physics)

        let main = try config.resolve(container: "main")
        #expect(main.containerSize == Size(width: 1024, height: 768))
        #expect(main.contentSize == Size(width: 800, height: 20000))
        #expect(main.axes == .both)
        #expect(main.physics == physics)

        let list = try config.resolve(container: "list")
        var listPhysics = ScrollPhysics(profile: .gtk)
        listPhysics.wheelAnimation = .none
        listPhysics.wheelStep = .points(40)
        listPhysics.decelerationRate = 0.99
        #expect(
            list
                == ContainerConfiguration(
                    containerSize: Size(width: 400, height: 300),
                    contentSize: Size(width: 400, height: 5000),
                    contentInsets: EdgeInsets(top: 10, leading: 0, bottom: 20, trailing: 0),
                    axes: .vertical,
                    header: HeaderConfiguration(minHeight: 60, maxHeight: 200, stretch: false, snap: true),
                    rows: RowsConfiguration(heights: .uniform(count: 50, height: 44.5), threshold: 0.25),
                    physics: listPhysics,
                    scrollTarget: .rows,
                    devices: ["Touchpad"]
                )
        )
        #expect(config.containers.map(\.name) == ["main", "list"])
    }

    @Test func inlineTablesAndDottedKeysAreTheSameAsSections() throws {
        let sections = try Configuration.parse(
            """
            [containers.side]
            containerSize = { width = 300, height = 900 }
            [containers.side.header]
            min_height = 10
            max_height = 80
            [containers.side.rows]
            heights = [40, 60, 80]
            top = 100
            """,
            file: "a.toml"
        )
        let inline = try Configuration.parse(
            """
            [containers.side]
            containerSize = { width = 300, height = 900 }
            header = { min_height = 10, max_height = 80 }
            rows.heights = [40, 60, 80]
            rows.top = 100
            """,
            file: "b.toml"
        )
        let dotted = try Configuration.parse(
            """
            containers.side.containerSize = { width = 300, height = 900 }
            containers.side.header = { min_height = 10, max_height = 80 }
            containers.side.rows.heights = [40, 60, 80]
            containers.side.rows.top = 100
            """,
            file: "c.toml"
        )
        let expected = ContainerConfiguration(
            containerSize: Size(width: 300, height: 900),
            contentSize: nil,
            header: HeaderConfiguration(minHeight: 10, maxHeight: 80),
            rows: RowsConfiguration(heights: .explicit([40, 60, 80]), top: 100)
        )
        #expect(try sections.resolve(container: "side") == expected)
        #expect(try inline.resolve(container: "side") == expected)
        #expect(try dotted.resolve(container: "side") == expected)
    }

    @Test func aFileWithoutMainKeepsTheBuiltInMain() throws {
        let config = try Configuration.parse("[containers.side]\n", file: "side.toml")
        #expect(config.containers.map(\.name) == ["main", "side"])
        #expect(try config.resolve(container: "main") == Configuration.defaults.resolve(container: "main"))
        // An empty section still declares the container.
        #expect(try config.resolve(container: "side") == ContainerConfiguration())
    }

    @Test func aProfileInPhysicsSetsDefaultsAndAnExplicitConstantWins() throws {
        let config = try Configuration.parse(
            """
            [physics]
            finger_scale = 1.5
            profile = "gtk"
            """,
            file: "gtk.toml"
        )
        var expected = ScrollPhysics(profile: .gtk)
        expected.fingerScale = 1.5
        #expect(try config.resolvePhysics() == expected)
        #expect(try config.resolve(container: "main").physics.flingOvershootLimit == 50)
    }

    /// `daemon.socket` as the daemon will need it (a user trial: `socket = ""` passed
    /// check-config, then the daemon refused to start): a directory part, and under 108 bytes.
    @Test func aSocketPathTheDaemonCannotUseIsRefused() {
        let empty = failure("[daemon]\nsocket = \"\"\n")
        #expect(empty?.line == 2 && empty?.key == "daemon.socket")
        #expect(empty?.message == #"expected a socket path in a directory, like "/run/user/1000/scrolld/scrolld.sock", got """#)
        #expect(failure("[daemon]\nsocket = \"scrolld.sock\"\n")?.key == "daemon.socket")
        let long = failure("[daemon]\nsocket = \"/tmp/\(String(repeating: "s", count: 103))\"\n")
        #expect(long?.message == "longer than the 107 bytes a Unix socket path may have")
        #expect(failure("[daemon]\nsocket = \"/tmp/\(String(repeating: "s", count: 102))\"\n") == nil)
    }

    @Test func multiLineStringsAndArraysDoNotConfuseTheLineCount() {
        let error = failure(
            """
            [daemon]
            seat = \"\"\"
            [physics]
            frame_rate = 1
            \"\"\"
            ignore = [
              "a", # [containers.x]
              "b",
            ]
            frame_rate = 0
            """
        )
        #expect(error?.line == 10)
        #expect(error?.key == "daemon.frame_rate")
    }

    // MARK: Errors name the file, the line and the key

    @Test func aSyntaxErrorNamesTheLineAndTheKeyWrittenThere() {
        let error = failure(
            """
            [physics]
            wheel_duration = 0.2
            wheel_idle = 0.2.5
            """
        )
        #expect(error?.file == "scrolld.toml")
        #expect(error?.line == 3)
        #expect(error?.key == "physics.wheel_idle")
        #expect(error?.description == "scrolld.toml:3: physics.wheel_idle: syntax error at column 17: unexpected '.' in the number")

        let unclosed = failure("[daemon]\nframe_rate = 60\n[containers.main\naxes = \"both\"\n")
        #expect(unclosed?.line == 3)
        #expect(unclosed?.key == "containers.main")

        // Inside a multi-line array the error names the array's key.
        let array = failure("[containers.main.rows]\nheights = [\n  40,\n  4x0,\n]\n")
        #expect(array?.line == 4)
        #expect(array?.key == "containers.main.rows.heights")

        // Nothing recognisable: the table, else "syntax".
        #expect(failure("[physics]\n!!\n")?.key == "physics")
        #expect(failure("= 1\n")?.key == "syntax")

        let duplicate = failure("[physics]\nfriction = 4\nfriction = 5\n")
        #expect(duplicate?.line == 3)
        #expect(duplicate?.key == "physics.friction")
    }

    @Test func anUnknownSectionIsReportedOnItsHeader() {
        let error = failure(
            """
            [daemon]
            frame_rate = 60

            [deamon]
            socket = "/tmp/s"
            """
        )
        #expect(error == ConfigurationError(key: "deamon", message: "unknown section (daemon, web, physics, input, containers.NAME)", line: 4, file: "scrolld.toml"))

        let scalar = failure("physics = 3\n")
        #expect(scalar?.key == "physics")
        #expect(scalar?.line == 1)
    }

    @Test func anUnknownPhysicsKeyIsReportedOnItsLine() {
        let error = failure(
            """
            [physics]
            profile = "ios"
            rubber_band = 0.55
            rubberband = 0.6
            """
        )
        #expect(error?.key == "physics.rubberband")
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("unknown physics key") == true)

        let inContainer = failure("[containers.main.physics]\n\nwheel_stepp = 3\n")
        #expect(inContainer?.key == "containers.main.physics.wheel_stepp")
        #expect(inContainer?.line == 3)
    }

    @Test func aWrongTypeIsReportedOnItsLine() {
        let error = failure(
            """
            [daemon]
            frame_rate = "fast"
            """
        )
        #expect(error == ConfigurationError(key: "daemon.frame_rate", message: "expected a number, got a string \"fast\"", line: 2, file: "scrolld.toml"))

        let date = failure("[daemon]\n\nframe_rate = 1979-05-27\n")
        #expect(date?.key == "daemon.frame_rate")
        #expect(date?.line == 3)
    }

    @Test func aBadEnumValuePrintsFileLineKeyAndMessage() {
        let error = failure(
            """
            [daemon]
            frame_rate = 120

            [physics]
            wheel_duration = 0.2
            wheel_animation = "bouncy"   # not a wheel animation
            """
        )
        #expect(error?.description == #"scrolld.toml:6: physics.wheel_animation: expected one of none, smooth, got a string "bouncy""#)
    }

    @Test func aHeaderWithMinAboveMaxIsCaughtAtLoadOnTheMinLine() {
        let error = failure(
            """
            [containers.main.header]
            max_height = 50
            min_height = 80
            """
        )
        #expect(error?.key == "containers.main.header.min_height")
        #expect(error?.line == 3)
        #expect(error?.message == "must not exceed max_height (80.0 > 50.0)")

        // A missing key points at its section.
        let noMax = failure("[containers.main]\naxes = \"both\"\n\n[containers.main.header]\nmin_height = 10\n")
        #expect(noMax?.key == "containers.main.header.max_height")
        #expect(noMax?.line == 4)
    }

    @Test func rowsWithoutAHeightAreReportedOnTheirSection() {
        let error = failure(
            """
            [containers.main]
            axes = "vertical"

            [containers.list]
            containerSize = "400x300"

            [containers.list.rows]
            count = 20
            """
        )
        #expect(error == ConfigurationError(key: "containers.list.rows", message: "rows need count and height, or heights", line: 7, file: "scrolld.toml"))

        let inline = failure("[containers.list]\naxes = \"vertical\"\nrows = { count = 20 }\n")
        #expect(inline?.key == "containers.list.rows")
        #expect(inline?.line == 3)
    }

    @Test func aBadSizeIsReportedOnItsLineAndInsideAnInlineTable() {
        let error = failure(
            """
            [containers.main]
            containerSize = "800by600"
            """
        )
        #expect(error == ConfigurationError(key: "containers.main.containerSize", message: #"expected WIDTHxHEIGHT, got a string "800by600""#, line: 2, file: "scrolld.toml"))

        let field = failure(
            """
            [containers.main]
            containerSize = { width = "wide", height = 600 }
            """
        )
        #expect(field?.key == "containers.main.containerSize.width")
        #expect(field?.line == 2)

        let inset = failure("[containers.main]\n\ninsets = { top = 1, left = 2 }\n")
        #expect(inset?.key == "containers.main.insets.left")
        #expect(inset?.line == 3)

        // A size's table takes width and height only, as every other table takes its own keys.
        let size = failure("[containers.main]\ncontentSize = { width = 800, height = 600, depth = 3 }\n")
        #expect(size == ConfigurationError(key: "containers.main.contentSize.depth", message: "unknown size key (width, height)", line: 2, file: "scrolld.toml"))
    }

    @Test func theFirstMistakeInTheFileIsTheOneReported() {
        // Errors come in the order the keys are written, whatever the order of sections.
        let error = failure(
            """
            [physics]
            wheel_idle = -1
            bounce_stiffness = 0
            """
        )
        #expect(error?.key == "physics.wheel_idle")
        #expect(error?.line == 2)
    }

    @Test func aContainerNameWithADotIsRejected() {
        let error = failure("[containers.\"a.b\"]\naxes = \"both\"\n")
        #expect(error?.key == "containers.a.b")
        #expect(error?.line == 1)
    }

    /// A key or string holding a control character (a bell, a newline) was printed raw into
    /// the message, and so into the log: messages show them escaped as TOML writes them.
    @Test func controlCharactersInKeysAndValuesAreEscapedInMessages() {
        let bell = failure("[daemon]\n\"a\\u0007b\" = 1\n")
        #expect(bell?.key == "daemon.a\u{7}b")
        #expect(bell?.description == #"scrolld.toml:2: daemon."a\u0007b": unknown key in [daemon] (socket, seat, devices, ignore, frame_rate, allow_uids, realtime_priority, record, record_limit_mb, follow_session)"#)

        let newline = failure("[containers.\"x\\ny\"]\naxes = 1\n")
        #expect(newline?.key == "containers.x\ny.axes")
        #expect(newline?.description == #"scrolld.toml:2: containers."x\ny".axes: expected vertical, horizontal or both, got an integer 1"#)

        let value = failure("[daemon]\nframe_rate = \"fast\\r\\u001B[2J\"\n")
        #expect(value?.description == #"scrolld.toml:2: daemon.frame_rate: expected a number, got a string "fast\r\u001B[2J""#)

        let syntax = failure("\"\\u0085\" = [}\n")
        #expect(syntax?.description == #"scrolld.toml:1: "\u0085": syntax error at column 13: expected a value (string, number, true, false, date-time, array or inline table), found '}'"#)
        for error in [bell, newline, value, syntax] {
            #expect(error?.description.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) } == true)
        }
    }

    @Test func anUnreadableFileNamesThePath() {
        #expect(throws: ConfigurationError.self) { try Configuration.load(contentsOf: "/nonexistent/scrolld.toml") }
        do {
            _ = try Configuration.load(contentsOf: "/nonexistent/scrolld.toml")
        } catch {
            #expect(error.description == "/nonexistent/scrolld.toml: cannot read the configuration file: No such file or directory")
        }
    }

    /// The watcher reloads whatever the path comes to name, on the daemon's loop: a FIFO must not
    /// block it, a device must not feed it forever, a huge file must not be read; `/dev/null`
    /// is no configuration.
    @Test func onlyAFileOrDeviceOfAtMostTheLimitIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func message(_ path: String) -> String? {
            do {
                _ = try Configuration.load(contentsOf: path)
                return nil
            } catch {
                return error.description
            }
        }
        let fifo = directory.appendingPathComponent("fifo.toml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(message(fifo) == "\(fifo): cannot read the configuration file: not a regular file")
        #expect(message("/dev/zero") == "/dev/zero: cannot read the configuration file: larger than 67108864 bytes")
        #expect(message("/dev/null") == nil)
        #expect(message(directory.path) == "\(directory.path): cannot read the configuration file: Is a directory")
        // A sparse file one byte past the limit is refused before a byte of it is read.
        let huge = directory.appendingPathComponent("huge.toml").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(Limits.configurationFileBytes + 1)) == 0)
        #expect(message(huge) == "\(huge): cannot read the configuration file: larger than 67108864 bytes (67108865)")
        // At the limit it is read (and, all NUL bytes, refused as TOML, not for its size).
        #expect(truncate(huge, off_t(Limits.configurationFileBytes)) == 0)
        #expect(message(huge)?.contains("larger than") == false)
        let small = directory.appendingPathComponent("small.toml").path
        #expect(FileManager.default.createFile(atPath: small, contents: Data("[daemon]\nframe_rate = 60\n".utf8)))
        #expect(try Configuration.load(contentsOf: small).daemon.frameRate == 60)
    }

    @Test func aContainerNameIsAtMost255Bytes() throws {
        let longest = String(repeating: "n", count: 255)
        #expect(try Configuration.parse("[containers.\(longest)]\ncontainerSize = { width = 10, height = 10 }\n", file: "scrolld.toml").containers.contains { $0.name == longest })
        #expect {
            try Configuration.parse("[containers.\(longest)x]\ncontainerSize = { width = 10, height = 10 }\n", file: "scrolld.toml")
        } throws: { error in
            String(describing: error).contains("a container name is at most 255 bytes of UTF-8, got 256")
        }
    }

    // MARK: The shipped config/scrolld.toml

    static let shippedPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/scrolld.toml").path

    @Test func theShippedFileIsExactlyTheDefaults() throws {
        let shipped = try Configuration.load(contentsOf: Self.shippedPath)
        #expect(try shipped.resolvePhysics() == ScrollPhysics())
        #expect(try shipped.resolve(container: "main") == Configuration.defaults.resolve(container: "main"))
        #expect(shipped.daemon == Configuration.defaults.daemon)
        #expect(shipped.web == Configuration.defaults.web)
        #expect(shipped.containers.map(\.name) == ["main"])
    }

    @Test func theShippedFileDocumentsEveryKey() throws {
        let text = try String(contentsOfFile: Self.shippedPath, encoding: .utf8)
        let written = Set(
            text.split(separator: "\n").compactMap { line -> String? in
                var line = line[...]
                if line.hasPrefix("# ") { line = line.dropFirst(2) }
                guard let equals = line.firstIndex(of: "="), !line.hasPrefix(" ") else { return nil }
                return line[..<equals].trimmingCharacters(in: .whitespaces)
            }
        )
        let daemon = ["socket", "seat", "devices", "ignore", "frame_rate", "allow_uids", "realtime_priority", "follow_session"]
        let container = ["containerSize", "contentSize", "insets", "axes", "scroll_target", "anchor", "devices"]
        let header = ["min_height", "max_height", "stretch", "snap"]
        let rows = ["count", "height", "heights", "top", "threshold", "visible_in"]
        let web = ["listen", "origins"]
        for key in daemon + web + ScrollPhysics.keys + container + header + rows + InputSettings.keys {
            #expect(written.contains(key), "config/scrolld.toml does not document \(key)")
        }
    }

    /// Keys whose default depends on the profile are commented out, so changing the profile
    /// line of the shipped file gives exactly that profile.
    @Test(arguments: ScrollPhysics.Profile.allCases)
    func changingOnlyTheShippedProfileGivesThatProfile(_ profile: ScrollPhysics.Profile) throws {
        let text = try String(contentsOfFile: Self.shippedPath, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "profile = \"ios\" ", with: "profile = \"\(profile.rawValue)\" ")
        #expect(edited != text || profile == .ios)
        let config = try Configuration.parse(edited, file: "edited.toml")
        #expect(try config.resolvePhysics() == ScrollPhysics(profile: profile))
    }

    // MARK: Search path

    @Test func theSearchPathFollowsXDG() {
        let path = ConfigurationSearchPath(environment: ["HOME": "/home/ada"])
        #expect(path.candidates == ["/home/ada/.config/scrolld/scrolld.toml", "/etc/xdg/scrolld/scrolld.toml"])

        let custom = ConfigurationSearchPath(environment: [
            "HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg/", "XDG_CONFIG_DIRS": "/opt/xdg:relative:/etc/xdg",
        ])
        #expect(custom.candidates == ["/cfg/scrolld/scrolld.toml", "/opt/xdg/scrolld/scrolld.toml", "/etc/xdg/scrolld/scrolld.toml"])

        // A relative XDG_CONFIG_HOME is invalid and ignored; no HOME leaves only the system.
        #expect(ConfigurationSearchPath(environment: ["XDG_CONFIG_HOME": "cfg"]).candidates == ["/etc/xdg/scrolld/scrolld.toml"])

        let both: Set = ["/home/ada/.config/scrolld/scrolld.toml", "/etc/xdg/scrolld/scrolld.toml"]
        #expect(path.locate(exists: both.contains) == "/home/ada/.config/scrolld/scrolld.toml")
        #expect(path.locate(exists: { $0.hasPrefix("/etc") }) == "/etc/xdg/scrolld/scrolld.toml")
        #expect(path.locate(exists: { _ in false }) == nil)
    }

    @Test func theFirstExistingFileIsLoaded() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        let system = root.appendingPathComponent("system")
        let environment = ["XDG_CONFIG_HOME": home.path, "XDG_CONFIG_DIRS": system.path]
        let search = ConfigurationSearchPath(environment: environment)

        // Nothing there: the built-in defaults — unless this machine has scrolld installed, whose
        // /etc/xdg file the search always ends with (a package's default config).
        let installed = "/etc/xdg/scrolld/scrolld.toml"
        let none = try search.load()
        if FileManager.default.fileExists(atPath: installed) {
            #expect(none.file == installed)
        } else {
            #expect(none.file == nil)
            #expect(none.configuration.daemon == Configuration.defaults.daemon)
        }

        func write(_ text: String, under directory: URL) throws -> String {
            let folder = directory.appendingPathComponent("scrolld")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("scrolld.toml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let systemFile = try write("[daemon]\nframe_rate = 30\n", under: system)
        let fromSystem = try search.load()
        #expect(fromSystem.file == systemFile)
        #expect(fromSystem.configuration.daemon.frameRate == 30)

        let homeFile = try write("[daemon]\nframe_rate = 90\n", under: home)
        let fromHome = try search.load()
        #expect(fromHome.file == homeFile)
        #expect(fromHome.configuration.daemon.frameRate == 90)

        // A broken first match is reported, not skipped for the next file.
        _ = try write("[daemon]\nframe_rate = 0\n", under: home)
        #expect(throws: ConfigurationError(
            key: "daemon.frame_rate", message: "must be between 1 and 1000 Hz, got 0", line: 2, file: homeFile
        )) { try search.load() }

        // So is a directory in the first file's place (it was passed over for the system's file:
        // a user's trial), and a path the system cannot reach.
        try FileManager.default.removeItem(atPath: homeFile)
        try FileManager.default.createDirectory(atPath: homeFile, withIntermediateDirectories: false)
        #expect(search.locate() == homeFile)
        do {
            _ = try search.load()
            Issue.record("a directory was loaded")
        } catch {
            #expect(error.description == "\(homeFile): cannot read the configuration file: Is a directory")
        }
        try FileManager.default.removeItem(atPath: homeFile)
        try FileManager.default.createSymbolicLink(atPath: homeFile, withDestinationPath: homeFile)
        #expect(search.locate() == homeFile)
        try FileManager.default.removeItem(atPath: homeFile)
        #expect(search.locate() == systemFile)
        // A directory on the way this user may not search hides whether a file is there: passed
        // over, as before (another user's $HOME, kept by setpriv or sudo -u). Root searches any.
        if getuid() != 0 {
            let folder = home.appendingPathComponent("scrolld").path
            #expect(chmod(folder, 0) == 0)
            defer { chmod(folder, 0o755) }
            #expect(search.locate() == systemFile)
        }
    }
}
