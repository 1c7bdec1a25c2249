import ScrollConfig
import ScrollModel

/// The configuration parser (`Configuration.parse`: the TOML reader, then every key
/// through `set`, then every container resolved) on any UTF-8 text, as `scrolld run`,
/// `reload` and `check-config` read a file (bytes that are not UTF-8 never reach the parser:
/// `readFile` refuses them first).
///
/// Invariants: an error names the file, a key and, when it has one, a line of the file (or the
/// one after its last newline, where a text that ends too soon ends), on one
/// line of printable text whatever the file holds (keys and strings escaped); a
/// configuration that parses resolves every container and its physics again, and the engine
/// built from it (as the daemon builds it) keeps every state finite through a wheel detent, a
/// touchpad fling and a programmatic scroll.
enum ConfigurationFuzz {
    static let file = "fuzz.toml"

    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let lines = lineCount(bytes)
        let configuration: Configuration
        do {
            configuration = try Configuration.parse(text, file: file)
        } catch {
            // `FILE:LINE: KEY: MESSAGE`; the key may be the empty key `""` of the file, but a
            // syntax error names a key or table written there, else `syntax`.
            require(error.file == file, "an error without the file: \(error)")
            require(!error.message.isEmpty, "an error without a message: \(error)")
            let location = "\(file):" + (error.line.map { "\($0): " } ?? " ")
            require(error.description == "\(location)\(error.displayKey): \(error.message)", "a malformed message: \(error)")
            require(
                error.description.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0 != "\u{2028}" && $0 != "\u{2029}" },
                "a message with a control character: \(error.description.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())"
            )
            if error.message.hasPrefix("syntax error") {
                require(!error.key.isEmpty, "a syntax error naming the empty key: \(error)")
            }
            // A text that ends too soon is reported where it ends, which after a last newline
            // is the line after it.
            if let line = error.line {
                require((1...lines + 1).contains(line), "error on line \(line) of \(lines): \(error)")
            }
            return
        }

        var engine = ScrollEngine(frameRate: configuration.daemon.frameRate)
        // Enough containers to meet every kind of setting; each one costs frames below.
        for settings in configuration.containers.prefix(4) {
            let resolved: ContainerConfiguration
            do {
                resolved = try configuration.resolve(container: settings.name)
            } catch {
                require(false, "container \(settings.name) parsed but does not resolve: \(error)")
                return
            }
            engine.add(ScrollContainer(name: settings.name, configuration: resolved))
        }
        drive(&engine)
    }

    /// Input through the engine, checking every published state.
    private static func drive(_ engine: inout ScrollEngine) {
        let ms: Timestamp = 1000
        let check: (ScrollEngine.Update) -> Void = { update in checkFinite(update.state) }
        engine.handle(ScrollEvent(time: 0, device: 1, kind: .deviceAdded(name: "fuzz", capabilities: [.wheel, .finger])), check)
        engine.handle(ScrollEvent(time: 10 * ms, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: AxisValues(y: 15))), check)
        for step in 0..<5 {
            let delta = AxisValues(x: -12, y: 25)
            engine.handle(ScrollEvent(time: (300 + 10 * Timestamp(step)) * ms, device: 1, kind: .finger(delta)), check)
        }
        engine.handle(ScrollEvent(time: 350 * ms, device: 1, kind: .finger(AxisValues(x: 0, y: 0))), check)
        engine.advance(to: 700 * ms, check)
        for index in engine.slots.indices {
            let state = engine.update(container: index, at: 700 * ms) { container in
                container.scroll(to: AxisValues(x: 1e6, y: 1e6), animation: .smooth, at: 700 * ms)
            }
            checkFinite(state)
        }
        engine.advance(to: 1200 * ms, check)
    }

    private static func checkFinite(_ state: ScrollState) {
        let geometry = state.geometry
        let values = [
            geometry.contentOffset.x, geometry.contentOffset.y, state.velocity.x, state.velocity.y,
            geometry.contentSize.width, geometry.contentSize.height,
            geometry.containerSize.width, geometry.containerSize.height,
            state.header?.height ?? 0, state.header?.progress ?? 0,
        ]
        require(values.allSatisfy(\.isFinite), "a state that is not finite: \(state)")
    }
}
