import Foundation
import ScrollConfig
import ScrollDaemon
import Testing

/// docs/protocol.md: a `configure` request's values are checked exactly as the configuration
/// file's, with the same messages. A hostile client found requests answered `ok` that set
/// nothing where the file refuses the same keys: a size with a key of its own (`depth`), an
/// empty `header` or `rows`, and a `count` after a list of `heights`, which was ignored.
@Suite("configure is checked as the file is")
struct ConfigureLikeTheFileTests {
    /// What the file refuses `[containers.fresh]` with `line` under it for: its error without
    /// the file and line, as a `configure` reply shows one.
    static func fileRefusal(_ line: String) -> String? {
        do {
            _ = try Configuration.parse("[containers.fresh]\n\(line)\n", file: "scrolld.toml")
            return nil
        } catch {
            return ConfigurationError(key: error.key, message: error.message).description
        }
    }

    @Test(arguments: [
        (#""containerSize":{"width":10,"height":10,"depth":3}"#, "containerSize = { width = 10, height = 10, depth = 3 }",
         "containers.fresh.containerSize.depth: unknown size key (width, height)"),
        (#""contentSize":{"width":10,"height":10,"widht":99}"#, "contentSize = { width = 10, height = 10, widht = 99 }",
         "containers.fresh.contentSize.widht: unknown size key (width, height)"),
        (#""header":{}"#, "header = {}", "containers.fresh.header.max_height: a header needs max_height"),
        (#""rows":{}"#, "rows = {}", "containers.fresh.rows: rows need count and height, or heights"),
        (#""rows":{"count":10}"#, "rows = { count = 10 }", "containers.fresh.rows: rows need count and height, or heights"),
    ])
    func aNewContainerIsRefusedWhatTheFileRefuses(request: String, file: String, message: String) throws {
        #expect(Self.fileRefusal(file) == message)
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        let reply = try client.request(#"{"op":"configure","container":"fresh",\#(request),"owned":true,"id":1}"#)
        #expect(reply?["type"] as? String == "error", "\(reply ?? [:])")
        #expect(reply?["code"] as? String == "invalid_value")
        #expect(reply?["message"] as? String == message)
        // Refused: nothing was made.
        #expect(try client.request(#"{"op":"get","container":"fresh","id":2}"#)?["code"] as? String == "unknown_container")
    }

    /// On a container that has a header and rows, empty tables change nothing (a request's
    /// keys merge into what the container has), as the file's merge of the same keys would.
    @Test func emptyTablesOnAContainerThatHasThemChangeNothing() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        let make = #"{"op":"configure","container":"list","containerSize":{"width":400,"height":600},"header":{"maxHeight":100},"rows":{"count":100,"height":44},"id":1}"#
        #expect(try client.request(make)?["type"] as? String == "ok")
        _ = try client.drain()
        #expect(try client.request(#"{"op":"configure","container":"list","header":{},"rows":{},"id":2}"#)?["type"] as? String == "ok")
        let state = try #require(try client.request(#"{"op":"get","container":"list","id":3}"#))
        #expect((state["contentSize"] as? [String: Any])?["height"] as? Double == 4500, "\(state)")
        #expect((state["header"] as? [String: Any])?["height"] as? Double == 100, "\(state)")
    }

    /// Of `runs`, `heights` and `count`, the last one given holds (docs/config.md): 20 rows of
    /// 3 px after a list of two, and a sticky row among the 20 is checked against them (it was
    /// refused, "the list has 2 rows").
    @Test func aCountAfterAListOfHeightsMakesThatManyRows() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        let requests = [
            #"{"op":"configure","container":"rr","containerSize":{"width":400,"height":600},"rows":{"heights":[1,2]},"id":1}"#,
            #"{"op":"configure","container":"rr","rows":{"count":20,"height":3},"id":2}"#,
        ]
        for request in requests {
            #expect(try client.request(request)?["type"] as? String == "ok")
            _ = try client.drain()
        }
        let state = try #require(try client.request(#"{"op":"get","container":"rr","id":3}"#))
        #expect((state["contentSize"] as? [String: Any])?["height"] as? Double == 60, "\(state)")
        #expect((state["visibleRows"] as? [String: Any])?["last"] as? Int == 19, "\(state)")
        let sticky = try client.request(#"{"op":"configure","container":"rr","rows":{"count":20,"height":3,"sticky":[15]},"id":4}"#)
        #expect(sticky?["type"] as? String == "ok", "\(sticky ?? [:])")
        // And a list after the count holds in turn.
        _ = try client.drain()
        let past = try client.request(#"{"op":"configure","container":"rr","rows":{"heights":[5,5,5]},"id":5}"#)
        #expect(past?["message"] as? String == "containers.rr.rows.sticky: row 15 is past the last row (the list has 3 rows)", "\(past ?? [:])")
        _ = try client.drain()
        #expect(try client.request(#"{"op":"configure","container":"rr","rows":{"heights":[5,5,5],"sticky":[]},"id":6}"#)?["type"] as? String == "ok")
        _ = try client.drain()
        let listed = try #require(try client.request(#"{"op":"get","container":"rr","id":7}"#))
        #expect((listed["contentSize"] as? [String: Any])?["height"] as? Double == 15, "\(listed)")
    }
}
