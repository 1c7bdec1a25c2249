import ScrollModel
import ScrollProtocol
import Testing

/// The `devices` reply's desktop keys (docs/design.md §23): each device's `natural` and `speed`,
/// the reply's `reducedMotion`, each a value and its source.
@Suite struct DevicesDesktopReplyTests {
    @Test func encodedExactlyAndDecodedBack() throws {
        var pad = DeviceInfo(id: 2, name: "SynPS/2 Synaptics TouchPad", capabilities: [.finger], containers: ["main"], rules: [])
        pad.naturalScrolling = .init(true, source: "desktop:kde")
        pad.speed = .init(1.5, source: "desktop:kde")
        var line: [UInt8] = []
        ReplyEncoder.devices([pad], input: .active, reducedMotion: .init(false, source: "config"), id: nil, into: &line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text == #"{"type":"devices","devices":[{"id":2,"name":"SynPS/2 Synaptics TouchPad","caps":["finger"],"containers":["main"],"rules":[],"natural":{"value":true,"source":"desktop:kde"},"speed":{"value":1.5,"source":"desktop:kde"}}],"reducedMotion":{"value":false,"source":"config"},"input":{"state":"active","reason":null}}"#)
        let decoded = try ReplyDecoder.decode(line)
        #expect(decoded == .devices(id: nil, devices: [pad], input: .active, reducedMotion: .init(false, source: "config")))
        // A daemon before them: the keys are absent, and nothing is made up.
        let old = try ReplyDecoder.decode(Array(#"{"type":"devices","devices":[{"id":1,"name":"M","caps":["wheel"]}]}"#.utf8))
        #expect(old == .devices(id: nil, devices: [DeviceInfo(id: 1, name: "M", capabilities: [.wheel])], input: nil))
        #expect(throws: ProtocolError.self) { try ReplyDecoder.decode(Array(#"{"type":"devices","devices":[],"reducedMotion":{"value":true}}"#.utf8)) }
    }
}
