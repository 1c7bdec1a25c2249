import ScrollModel
@testable import ScrollProtocol
import Testing

/// docs/design.md §18 on the wire: the `source` observation and the rules in the `devices` reply.
@Suite struct InputShapingProtocolTests {
    @Test func observeSourceDecodesAndEncodes() throws {
        let request = try decode(#"{"op":"observe","container":"main","of":"source","id":"s"}"#).get()
        guard case let .observe(container, observation, _, _) = request.operation else {
            Issue.record("not an observe: \(request.operation)")
            return
        }
        #expect(container == "main")
        #expect(observation == .source)
        #expect(observation.key == "source")
        #expect(encoded { RequestEncoder.encode(request, into: &$0) }.contains(#""of":"source""#))
        let refused = decode(#"{"op":"observe","container":"main","of":"source","id":1,"step":2}"#)
        guard case .failure(let error) = refused else {
            Issue.record("an option of source was accepted")
            return
        }
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("step"), "\(error.message)")
    }

    @Test func sourceObservationMessages() {
        let mouse = ObservationValue.source(InputOrigin(device: 3, name: "Logitech \"USB\" Mouse", kind: .wheel))
        let pad = ObservationValue.source(InputOrigin(device: 4, name: nil, kind: .continuous))
        #expect(encoded { ReplyEncoder.observation(id: RequestID("s"), container: "main", of: "source", seq: 7, time: 1000, old: nil, new: mouse, into: &$0) }
            == #"{"type":"observation","id":"s","container":"main","of":"source","seq":7,"t":1000,"old":null,"new":{"device":3,"name":"Logitech \"USB\" Mouse","kind":"wheel"}}"#)
        #expect(encoded { ReplyEncoder.observation(id: RequestID(1), container: "m", of: "source", seq: 8, time: 2000, old: mouse, new: pad, into: &$0) }
            == #"{"type":"observation","id":1,"container":"m","of":"source","seq":8,"t":2000,"old":{"device":3,"name":"Logitech \"USB\" Mouse","kind":"wheel"},"new":{"device":4,"name":null,"kind":"continuous"}}"#)
    }

    @Test func devicesCarryTheirRules() throws {
        let devices = [
            DeviceInfo(id: 1, name: "Logitech USB Mouse", capabilities: .wheel, containers: ["main"], rules: ["mouse", "usb"]),
            DeviceInfo(id: 2, name: "Pad", capabilities: .finger, rules: []),
        ]
        let line = encoded { ReplyEncoder.devices(devices, id: nil, into: &$0) }
        #expect(line == #"{"type":"devices","devices":[{"id":1,"name":"Logitech USB Mouse","caps":["wheel"],"containers":["main"],"rules":["mouse","usb"]},{"id":2,"name":"Pad","caps":["finger"],"rules":[]}],"input":{"state":"active","reason":null}}"#)
        #expect(try ReplyDecoder.decode(line) == .devices(id: nil, devices: devices, input: .active))
    }
}
